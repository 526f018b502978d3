"""sort, argsort, msort, topk, kthvalue and unique called in every form, against PyTorch.

PyTorch binds ``sort`` and ``argsort`` twice: ``(dim=-1, descending=False)`` and ``(*, stable,
dim=-1, descending=False)``, so ``x.sort(0, stable=True)`` fits neither (a TypeError listing
both), and more positional arguments than an overload takes is its parser's count ("takes
from 1 to 0 positional arguments"). sort's ``stable`` takes None (``bool?``), argsort's does
not. Each call's outcome must be the same: the values, or the error's type and text (with
``torch`` read as ``minigrad``).
"""

from __future__ import annotations

from typing import Any

import torch
from _cases import parametrize_in_one

import minigrad

# (name, positional arguments after the tensor, keyword arguments)
_FORMS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("sort", (), {}),
    ("sort", (0,), {}),
    ("sort", (0, True), {}),
    ("sort", (True,), {}),
    ("sort", (0, True, True), {}),
    ("sort", (0,), {"stable": True}),
    ("sort", (0,), {"stable": False}),
    ("sort", (0, True), {"stable": True}),
    ("sort", (0,), {"stable": None}),
    ("sort", (), {"stable": True}),
    ("sort", (), {"stable": None}),
    ("sort", (), {"stable": True, "dim": 0}),
    ("sort", (), {"stable": True, "dim": 0, "descending": True}),
    ("sort", (), {"stable": False, "descending": True}),
    ("sort", (), {"dim": 0, "descending": True}),
    ("sort", (0,), {"descending": True}),
    ("sort", (), {"stable": 1}),
    ("sort", (), {"stable": True, "dim": None}),
    ("sort", (), {"stable": True, "foo": 1}),
    ("sort", (), {"axis": 0, "stable": True}),
    ("argsort", (), {}),
    ("argsort", (0, True), {}),
    ("argsort", (0,), {"stable": True}),
    ("argsort", (0,), {"stable": False}),
    ("argsort", (0, True, True), {}),
    ("argsort", (), {"stable": True, "dim": 0}),
    ("argsort", (), {"stable": None}),
    ("argsort", (), {"stable": True, "descending": True}),
    ("msort", (), {}),
    ("topk", (1,), {}),
    ("topk", (1, 0), {}),
    ("topk", (1, 0, False, False), {}),
    ("topk", (1, 0, False, False, 1), {}),
    ("topk", (), {"k": 1, "dim": 0, "largest": False}),
    ("topk", (1.0,), {}),
    ("topk", (1,), {"sorted": None}),
    ("topk", (1,), {"stable": True}),
    ("kthvalue", (1,), {}),
    ("kthvalue", (1, 0, True), {}),
    ("kthvalue", (1, 0, True, 1), {}),
    ("kthvalue", (), {"k": 1, "dim": 0, "keepdim": True}),
    ("kthvalue", (1, None), {}),
    ("kthvalue", (1,), {"stable": True}),
    ("unique", (), {}),
    ("unique", (True, True, True), {}),
    ("unique", (), {"sorted": False, "return_inverse": True, "dim": 0}),
    ("unique", (0,), {}),
]


def _outcome(lib: Any, name: str, method: bool, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> Any:
    """The call's results as lists, or its error's type and text."""
    x = lib.tensor([[3.0, 1.0, 2.0], [2.0, 2.0, 0.0]])
    try:
        result = (getattr(x, name)(*args, **kwargs) if method
                  else getattr(lib, name)(x, *args, **kwargs))
    except (TypeError, RuntimeError, IndexError) as error:
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    parts = result if isinstance(result, tuple) else (result,)
    return [part.tolist() for part in parts]


@parametrize_in_one("method", [True, False], ids=["method", "function"])
@parametrize_in_one(("name", "args", "kwargs"), _FORMS,
                         ids=[f"{n}{a}{k}" for n, a, k in _FORMS])
def test_call_form(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                   method: bool) -> None:
    """The same values or the same error as PyTorch."""
    assert _outcome(minigrad, name, method, args, kwargs) == _outcome(
        torch, name, method, args, kwargs)
