"""Corners where minigrad followed PyTorch's common case but not its edge, against PyTorch.

- clamp of a bool tensor by bool numbers: PyTorch has no bool kernel for number bounds (an
  int or float bound promotes the result, a tensor bound has its own kernel).
- strides of empty results: TensorIterator lays out an output of a non-row-major iteration
  order with a stride product that counts an empty dimension as 0 (``1 - x`` of ``(0, 1)``:
  ``(1, 0)``), but allocates it contiguous when its operands all have its shape (an empty
  tensor is contiguous whatever its strides); ``expand`` of a 0-d tensor gives every dimension
  stride 0.
- ``arange`` with a tensor that is not a number among two or three arguments: the parser's
  listing of the overloads.
- ``ctx.mark_dirty`` in a custom Function: a dirty view rebases its base's history
  (CopySlices: the base's gradient is right), a view of a leaf is refused, so is a dirty
  tensor not returned (with or without grad) or a number; one that is not an input warns.
Each case runs in both libraries; the outcome (values, dtype and strides, or the error's type
and text) must be the same.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _outcome(lib: Any, case: Callable[[Any], Any]) -> Any:
    try:
        result = case(lib)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return type(error).__name__, str(error).replace("torch", "minigrad")
    return result.tolist(), str(result.dtype).split(".")[-1], tuple(result.shape), result.stride()


def _bool(lib: Any) -> Any:
    return lib.tensor([True, False])


CLAMP_CASES: dict[str, Callable[[Any], Any]] = {
    "clamp(min=True)": lambda lib: _bool(lib).clamp(min=True),
    "clamp(max=False)": lambda lib: _bool(lib).clamp(max=False),
    "clamp(True, False)": lambda lib: _bool(lib).clamp(True, False),
    "clamp(None, True)": lambda lib: _bool(lib).clamp(None, True),
    "clamp_(min=True)": lambda lib: _bool(lib).clamp_(min=True),
    "clip(min=True)": lambda lib: _bool(lib).clip(min=True),
    "function clamp": lambda lib: lib.clamp(_bool(lib), min=True),
    "clamp_min(True)": lambda lib: _bool(lib).clamp_min(True),
    "clamp_max(True)": lambda lib: _bool(lib).clamp_max(True),
    "clamp_min_(True)": lambda lib: _bool(lib).clamp_min_(True),
    "clamp_max_(False)": lambda lib: _bool(lib).clamp_max_(False),
    # a number that is not a bool promotes: no error
    "clamp(min=1)": lambda lib: _bool(lib).clamp(min=1),
    "clamp(True, 2)": lambda lib: _bool(lib).clamp(True, 2),
    "clamp(min=1.5)": lambda lib: _bool(lib).clamp(min=1.5),
    "clamp_(min=1)": lambda lib: _bool(lib).clamp_(min=1),
    "int clamp(min=True)": lambda lib: lib.tensor([1, 2]).clamp(min=True),
    "tensor bound": lambda lib: _bool(lib).clamp(min=lib.tensor(True)),
    "tensor bounds both": lambda lib: _bool(lib).clamp(lib.tensor(False), lib.tensor(True)),
}


@parametrize_in_one("name", CLAMP_CASES)
def test_clamp_of_bool_as_pytorch(name: str) -> None:
    case = CLAMP_CASES[name]
    assert _outcome(minigrad, case) == _outcome(torch, case)


def _index(lib: Any, *items: Any) -> Any:
    return [lib.tensor(item, dtype=lib.int64) if isinstance(item, list) else item
            for item in items]


def _empty_cases() -> dict[str, Callable[[Any], Any]]:
    cases: dict[str, Callable[[Any], Any]] = {
        "zeros(()).expand(1)": lambda lib: lib.zeros(()).expand(1),
        "zeros(()).expand(1, 1)": lambda lib: lib.zeros(()).expand(1, 1),
        "zeros(()).expand(2, 1)": lambda lib: lib.zeros(()).expand(2, 1),
        "zeros(1).expand(1)": lambda lib: lib.zeros(1).expand(1),
        "zeros(1, 3).expand(1, 1, 3)": lambda lib: lib.zeros(1, 3).expand(1, 1, 3),
        "index [[], []] of (2, 3)": lambda lib: lib.zeros(2, 3)[tuple(_index(lib, [], []))],
        "index [:, []] of (2, 3, 4)": lambda lib: lib.zeros(2, 3, 4)[:, _index(lib, [])[0]],
        "index [[0, 1]] of (2, 0, 4)": lambda lib: lib.zeros(2, 0, 4)[_index(lib, [0, 1])[0]],
        "index [:, :, [0]] of (2, 0, 4)": (
            lambda lib: lib.zeros(2, 0, 4)[:, :, _index(lib, [0])[0]]
        ),
    }
    for shape in [(0,), (0, 3), (3, 0), (2, 0, 3), (0, 1), (1, 0)]:
        cases.update({
            f"1 - x {shape}": lambda lib, s=shape: 1 - lib.zeros(s),
            f"x * 2 {shape}": lambda lib, s=shape: lib.zeros(s) * 2,
            f"x + x {shape}": lambda lib, s=shape: lib.zeros(s) + lib.zeros(s),
            f"x.permute + 1 {shape}": (
                lambda lib, s=shape: lib.zeros(s).permute(*range(len(s) - 1, -1, -1)) + 1
            ),
            f"where {shape}": lambda lib, s=shape: lib.where(lib.zeros(s) > 0, lib.zeros(s), 0.0),
            f"x[[]] {shape}": lambda lib, s=shape: lib.zeros(s)[_index(lib, [])[0]],
            f"x[mask] {shape}": lambda lib, s=shape: lib.zeros(s)[lib.zeros(s) > 0],
        })
        if len(shape) >= 2:
            cases[f"x[:, []] {shape}"] = lambda lib, s=shape: lib.zeros(s)[:, _index(lib, [])[0]]
        if shape[0]:
            cases[f"x[[0, 0]] {shape}"] = lambda lib, s=shape: lib.zeros(s)[_index(lib, [0, 0])[0]]
    return cases


EMPTY_CASES = _empty_cases()


@parametrize_in_one("name", EMPTY_CASES)
def test_strides_of_empty_and_expanded_results_as_pytorch(name: str) -> None:
    case = EMPTY_CASES[name]
    assert _outcome(minigrad, case) == _outcome(torch, case)


ARANGE_CASES: dict[str, Callable[[Any], Any]] = {
    "arange(1, tensor([1, 2]))": lambda lib: lib.arange(1, lib.tensor([1, 2])),
    "arange(1, tensor([]))": lambda lib: lib.arange(1, lib.tensor([])),
    "arange(1, 5, tensor([1, 2]))": lambda lib: lib.arange(1, 5, lib.tensor([1, 2])),
    "arange(tensor([1., 2.]), 5, dtype=)": (
        lambda lib: lib.arange(lib.tensor([1.0, 2.0]), 5, dtype=lib.float64)
    ),
    "arange(tensor([1, 2]))": lambda lib: lib.arange(lib.tensor([1, 2])),
    "arange(1, tensor(3))": lambda lib: lib.arange(1, lib.tensor(3)),
    "arange(1, 5, 2)": lambda lib: lib.arange(1, 5, 2),
}


@pytest.mark.parametrize("name", ARANGE_CASES)
def test_arange_with_a_tensor_as_pytorch(name: str) -> None:
    case = ARANGE_CASES[name]
    assert _outcome(minigrad, case) == _outcome(torch, case)


def _dirty_function(lib: Any, forward: Callable[..., Any]) -> Any:
    """A custom Function of one or two inputs whose forward is ``forward(ctx, *inputs)``."""

    class Dirty(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, *inputs: Any) -> Any:
            return forward(ctx, *inputs)

        @staticmethod
        def backward(ctx: Any, *grads: Any) -> Any:
            return grads[0] * 2

    return Dirty


def _dirty_not_input(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        y = x * 2
        ctx.mark_dirty(y)
        return y

    x = lib.ones(3, requires_grad=True)
    y = _dirty_function(lib, forward).apply(x)
    y.sum().backward()
    return y.grad_fn.name(), x.grad.tolist()


def _write(ctx: Any, x: Any) -> Any:
    x.mul_(2)
    ctx.mark_dirty(x)
    return x


def _dirty_view(lib: Any) -> Any:
    leaf = lib.ones(4, requires_grad=True)
    base = leaf.clone()
    view = base[:2]
    result = _dirty_function(lib, _write).apply(view)
    base.sum().backward()
    names = result.grad_fn.name(), base.grad_fn.name().replace("torch", "minigrad")
    return result is view, names, view._version, leaf.grad.tolist()


def _dirty_view_of_leaf(lib: Any) -> Any:
    return _dirty_function(lib, _write).apply(lib.ones(4, requires_grad=True)[:2])


def _dirty_view_two_outputs(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        return _write(ctx, x), x * 3

    return _dirty_function(lib, forward).apply(lib.ones(4, requires_grad=True).clone()[:2])


def _dirty_not_returned(lib: Any, requires_grad: bool) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        _write(ctx, x)
        return x * 2

    return _dirty_function(lib, forward).apply(lib.ones(3, requires_grad=requires_grad) * 1)


def _dirty_returned_twice(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        return _write(ctx, x), x

    leaf = lib.ones(3, requires_grad=True)
    x = leaf.clone()
    first, second = _dirty_function(lib, forward).apply(x)
    (first.sum() + 2 * second.sum()).backward()
    return first is x, second is x, x._version, leaf.grad.tolist()


def _dirty_number(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        ctx.mark_dirty(3)
        return x * 1

    return _dirty_function(lib, forward).apply(lib.ones(3, requires_grad=True))


DIRTY_CASES: dict[str, Callable[[Any], Any]] = {
    "not an input": _dirty_not_input,
    "a view": _dirty_view,
    "a view of a leaf": _dirty_view_of_leaf,
    "a view, two outputs": _dirty_view_two_outputs,
    "not returned": lambda lib: _dirty_not_returned(lib, True),
    "not returned, no grad": lambda lib: _dirty_not_returned(lib, False),
    "returned twice": _dirty_returned_twice,
    "a number": _dirty_number,
}


@pytest.mark.parametrize("name", DIRTY_CASES)
def test_mark_dirty_corners_as_pytorch(name: str) -> None:
    case = DIRTY_CASES[name]

    def outcome(lib: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = case(lib)
            except RuntimeError as error:
                result = str(error)
        texts = [str(w.message).split(" (Triggered internally")[0] for w in caught]
        return result, texts

    assert outcome(minigrad) == outcome(torch)
