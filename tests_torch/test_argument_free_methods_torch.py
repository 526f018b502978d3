"""Tensor methods that take no arguments, given some: PyTorch's error texts.

PyTorch binds ~160 methods taking no arguments at all (``exp``, ``dim``, ``item``, ``t``...);
given one, they answer in CPython's words for a C method, "TensorBase.exp() takes no arguments
(1 given)", and for a keyword "TensorBase.exp() takes no keyword arguments". The set is read
off PyTorch here (not from minigrad's copy of it, minigrad/_parser_overloads.json), every
method checked in one test (``check_each``), each with one and two positional arguments and
with a keyword.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

import pytest
from row_cases import Item, RowCase, check_each

import minigrad

torch = pytest.importorskip("torch")

# The ops' recording functions, the hot path itself (minigrad/tensor.py, _unary_method): a
# frame around them to word the error would cost every recorded op. Python's text stays.
RECORDING_METHODS = frozenset(
    name for name, value in vars(minigrad.Tensor).items()
    if inspect.isfunction(value) and list(inspect.signature(value).parameters) == ["x"])


@dataclass(frozen=True)
class Family:
    """The name check_each reports the cases under (RowCase's ``row``)."""

    name: str


def _argument_free_methods() -> list[str]:
    """The methods PyTorch binds taking no arguments that minigrad has."""
    found = []
    for name in sorted(n for n in dir(torch.Tensor) if not n.startswith("_")):
        if not callable(getattr(minigrad.Tensor, name, None)):
            continue
        try:
            getattr(torch.ones(2), name)(object())
        except TypeError as error:
            if str(error).endswith("takes no arguments (1 given)"):
                found.append(name)
        except Exception:  # noqa: BLE001, S112 - another error: not such a method
            continue
    return found


# Written out, as a program calls them: CPython names the method by the class that defines it
# ("TensorBase.exp()") for ``t.exp(1)``, but by the tensor's class ("Tensor.exp()") for a
# bound method called apart (``getattr(t, "exp")(1)``, ``t.exp(*args)``), which minigrad's
# methods cannot tell apart: they say TensorBase.
CALLS = {"one": "t.{}(1)", "two": "t.{}(1, 2.5)", "keyword": "t.{}(dim=0)",
         "both": "t.{}(1, dim=0)"}


def _error(lib: Any, call: str) -> Any:
    try:
        eval(call, {"t": lib.ones(2)})  # noqa: S307 - the call written out (see CALLS)
    except TypeError as error:
        return str(error).replace("torch", "minigrad")
    return "no error"


def _check(call: str) -> None:
    assert _error(minigrad, call) == _error(torch, call)


def test_there_are_many():
    assert len(_argument_free_methods()) > 150


def test_arguments_given_to_argument_free_methods():
    items = tuple(
        Item(f"{name}-{label}", call.format(name),
             "a recording function: Python's text (see RECORDING_METHODS)"
             if name in RECORDING_METHODS else "")
        for name in _argument_free_methods() for label, call in CALLS.items())
    check_each(RowCase(Family("methods"), items), _check)  # type: ignore[arg-type]


def test_without_arguments_they_still_run():
    t = minigrad.tensor([[1.0, -2.0]])
    assert t.dim() == 2 and t.numel() == 2 and t.t().shape == (2, 1)
    assert t.abs_().tolist() == [[1.0, 2.0]]
