"""Differential test: var, std, var_mean and std_mean called every way PyTorch's parser binds.

PyTorch binds these to one of three overloads, ``(dim, unbiased=True, keepdim=False)``,
``(dim=None, *, correction=None, keepdim=False)`` and ``(unbiased=True)``, and the one chosen
shows in the node: ``_saved_correction`` is 1 for ``x.var(None)`` but None for ``x.var()``. A
call that fits none is the parser's TypeError with its listing. Each call here runs in both
libraries; the values, the node's saved options, or the error's type and text must agree.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import torch
from _cases import parametrize_in_one

import minigrad

_DIMS = [(), (None,), (0,), ((0, 1),), (True,)]
_UNBIASED = [{}, {"unbiased": True}, {"unbiased": False}, {"unbiased": None}]
_KEEPDIM = [{}, {"keepdim": True}]
_CORRECTION = [{}, {"correction": None}, {"correction": 0}, {"correction": 0.5}]


def _calls() -> list[tuple[str, bool, tuple[Any, ...], dict[str, Any]]]:
    calls = []
    for name, method in [("var", True), ("std", True), ("var", False), ("std_mean", False)]:
        for dims, unbiased, keepdim, correction in itertools.product(
                _DIMS, _UNBIASED, _KEEPDIM, _CORRECTION):
            calls.append((name, method, dims, {**unbiased, **keepdim, **correction}))
        # (unbiased and keepdim given by position after a dim)
        calls += [(name, method, (0, False, True), {}), (name, method, (None, True), {}),
                  (name, method, (0, None, True), {})]
    return calls


def _run(library: Any, name: str, method: bool, args: tuple, kwargs: dict) -> Any:
    x = library.tensor([[1.0, 2.0, 4.0], [0.5, 0.25, 3.0]], requires_grad=True)
    try:
        result = getattr(x, name)(*args, **kwargs) if method else getattr(library, name)(
            x, *args, **kwargs)
    except (TypeError, RuntimeError) as error:
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    first = result[0] if isinstance(result, tuple) else result
    node = first.grad_fn
    options = {key: getattr(node, f"_saved_{key}") for key in ("correction", "dim", "keepdim")}
    return first.detach().numpy().tolist(), options


@parametrize_in_one(("name", "method", "args", "kwargs"), _calls())
def test_moments_bind_as_pytorchs_parser_does(name, method, args, kwargs):
    expected = _run(torch, name, method, args, kwargs)
    got = _run(minigrad, name, method, args, kwargs)
    if isinstance(expected[0], list | float):
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-6)
        assert got[1] == expected[1]
    else:
        assert got == expected
