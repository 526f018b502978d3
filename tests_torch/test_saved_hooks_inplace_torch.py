"""Saved-tensor hooks around in-place ops: a saved result is packed once written, as in PyTorch.

PyTorch saves an in-place op's inputs before the write and its result after it (the result is
the written tensor, at its new version). A pack hook that copies what it is given (``clone``,
a move to other memory) must therefore copy the new values: copying the old ones made
backward silently wrong. Each program runs in both libraries under a copying pack hook that
records what it sees; the gradients and those records are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _rounded(tensor: Any) -> list[float]:
    return [round(value, 4) for value in tensor.detach().reshape(-1).tolist()]


def _run(lib: Any, program: Callable[[Any, Any], Any]) -> Any:
    seen = []

    def pack(tensor: Any) -> Any:
        seen.append((_rounded(tensor), tensor._version))
        return tensor.clone()

    x = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, lambda packed: packed):
        out = program(lib, x)
    out.sum().backward()
    return _rounded(x.grad), sorted(seen)


def _inplace(name: str) -> Callable[[Any, Any], Any]:
    def program(lib: Any, x: Any) -> Any:
        y = x * 1
        getattr(y, name)()
        return y

    return program


def _inplace_on_a_view(name: str) -> Callable[[Any, Any], Any]:
    def program(lib: Any, x: Any) -> Any:
        y = x * 1
        getattr(y[1:], name)()
        return y

    return program


def _twice(lib: Any, x: Any) -> Any:
    y = x * 1
    y.exp_()
    y.sigmoid_()
    return y


def _product_then_result(lib: Any, x: Any) -> Any:
    y = x * 1
    y.mul_(x)
    y.tanh_()
    return y


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    **{name: _inplace(name) for name in ("exp_", "sigmoid_", "tanh_", "sqrt_", "relu_")},
    **{f"{name}_on_a_view": _inplace_on_a_view(name) for name in ("exp_", "sigmoid_")},
    "twice": _twice,
    "product_then_result": _product_then_result,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_pack_hook_sees_the_written_result(name: str) -> None:
    mine, theirs = (_run(lib, PROGRAMS[name]) for lib in (minigrad, torch))
    assert mine == theirs
