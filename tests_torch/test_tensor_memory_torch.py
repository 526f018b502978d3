"""Differential tests: the Tensor API over a tensor's memory, in minigrad and PyTorch.

``dim_order``, ``new_empty_strided``, ``resize_``/``resize_as_`` (and ``minigrad.resize_as_``),
``share_memory_``/``is_shared`` and the Python-callable loops ``apply_``, ``map_``, ``map2_``:
the same calls in both libraries, comparing shapes, strides, versions, the values PyTorch
defines (a resize keeps the elements that fit; new ones are uninitialized) and the errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its value, or the error's type and text."""
    try:
        return call()
    except (RuntimeError, TypeError, ZeroDivisionError) as error:
        return type(error).__name__, str(error).replace("torch", "minigrad")


def both(call: Callable[[Any], Any]) -> tuple[Any, Any]:
    return outcome(lambda: call(torch)), outcome(lambda: call(minigrad))


# --- dim_order --------------------------------------------------------------------------------

INPUTS = {
    "row-major": lambda lib: lib.zeros(2, 3, 4, 5),
    "channels-last": lambda lib: lib.zeros(2, 3, 4, 5, memory_format=lib.channels_last),
    "permuted": lambda lib: lib.zeros(2, 3, 4, 5).permute(3, 1, 0, 2),
    "sliced": lambda lib: lib.zeros(2, 3, 8, 5)[:, :, ::2],
    "expanded": lambda lib: lib.zeros(3, 1, 4).expand(2, 3, 5, 4),
    "size one": lambda lib: lib.zeros(3, 1, 4),
    "size one transposed": lambda lib: lib.zeros(3, 1, 4).transpose(0, 1),
    "transposed matrix": lambda lib: lib.zeros(2, 3).t(),
    "column": lambda lib: lib.zeros(2, 3)[:, :1],
    "scalar": lambda lib: lib.zeros(()),
    "channels one": lambda lib: lib.zeros(2, 1, 4, 4, memory_format=lib.channels_last),
    "equal strides": lambda lib: lib.zeros(4, 4).as_strided((2, 2), (2, 2)),
}


@parametrize_in_one("name", INPUTS)
@parametrize_in_one(
    "check",
    [False, True, [], ["contiguous_format"], ["contiguous_format", "channels_last"], 1, ["x"]],
)
def test_dim_order(name, check):
    def call(lib: Any) -> Any:
        argument = check
        if isinstance(check, list):
            argument = [getattr(lib, item) if item != "x" else item for item in check]
        return INPUTS[name](lib).dim_order(ambiguity_check=argument)

    expected, got = both(call)
    assert got == expected


# --- new_empty_strided ------------------------------------------------------------------------


@parametrize_in_one(
    "call",
    [
        lambda lib, x: x.new_empty_strided((2, 3), (1, 2)),
        lambda lib, x: x.new_empty_strided([2, 3], [3, 0]),
        lambda lib, x: x.new_empty_strided((2, 0), (5, 1)),
        lambda lib, x: x.new_empty_strided((), ()),
        lambda lib, x: x.new_empty_strided((2, 3), (3, 1), dtype=lib.float32, requires_grad=True),
        lambda lib, x: x.new_empty_strided((2,), (1,), layout=lib.strided, device="cpu"),
        lambda lib, x: x.new_empty_strided((2, 3), (1,)),
        lambda lib, x: x.new_empty_strided((2, 3), (-1, 1)),
        lambda lib, x: x.new_empty_strided((2, -3), (1, 1)),
        lambda lib, x: x.new_empty_strided(2, 3),
        lambda lib, x: x.new_empty_strided((2, 3), (3, 1.5)),
        lambda lib, x: x.new_empty_strided((2, 3)),
        lambda lib, x: x.new_empty_strided((2, 3), (3, 1), pin_memory=True),
        lambda lib, x: x.new_empty_strided((2, 3), (3, 1), layout=1),
        lambda lib, x: x.new_empty_strided((2, 3), (3, 1), dtype=lib.int64, requires_grad=True),
    ],
)
@parametrize_in_one("function", [False, True])
def test_new_empty_strided_and_empty_strided(call, function):
    def described(lib: Any) -> Any:
        x = lib.ones(2, dtype=lib.float64)
        if function:  # minigrad.empty_strided: the same call, its dtype the default float
            x = type("Factory", (), {"new_empty_strided": staticmethod(lib.empty_strided)})
        y = call(lib, x)
        return tuple(y.shape), y.stride(), str(y.dtype), y.requires_grad, y.storage_offset()

    expected, got = both(described)
    assert got == (
        expected
        if isinstance(expected, tuple) and isinstance(expected[0], str)
        else (expected[0], expected[1], expected[2].replace("torch", "minigrad"), *expected[3:])
    )


# --- resize_ and resize_as_ -------------------------------------------------------------------


def _state(x: Any) -> Any:
    """Shape, strides and version, and the elements a resize defines (those that fit)."""
    return tuple(x.shape), x.stride(), x._version


@parametrize_in_one(
    "call",
    [
        lambda lib, x: x.resize_(3, 2),
        lambda lib, x: x.resize_(2, 2),
        lambda lib, x: x.resize_((6,)),
        lambda lib, x: x.resize_([2, 3]),
        lambda lib, x: x.resize_(0),
        lambda lib, x: x.resize_(3, 3),
        lambda lib, x: x.resize_(1, 2, 3, 1, memory_format=lib.channels_last),
        lambda lib, x: x.resize_(2, 3, memory_format=lib.channels_last),
        lambda lib, x: x.resize_(2, 3, memory_format=lib.preserve_format),
        lambda lib, x: x.resize_(2, 3, memory_format=lib.contiguous_format),
        lambda lib, x: x.t().resize_(3, 2),
        lambda lib, x: x.t().resize_(2, 3),
        lambda lib, x: x[0].resize_(6),
        lambda lib, x: x[1].resize_(2),
        lambda lib, x: x.resize_(-1),
        lambda lib, x: x.resize_(2, 3.0),
        lambda lib, x: x.resize_("a"),
        lambda lib, x: x.resize_(),
        lambda lib, x: x.requires_grad_().resize_(3, 2),
        lambda lib, x: x.requires_grad_().resize_(2, 3),
        lambda lib, x: (x.requires_grad_() * 2).resize_(6),
        lambda lib, x: x.requires_grad_().detach().resize_(3, 2),
        lambda lib, x: x.resize_as_(lib.ones(3, 2)),
        lambda lib, x: x.resize_as_(lib.ones(2, 3, 2, 2, memory_format=lib.channels_last)),
        lambda lib, x: x.resize_as_(lib.ones(1, 3, 2), memory_format=lib.channels_last),
        lambda lib, x: x.resize_as_([1, 2]),
        lambda lib, x: lib.resize_as_(x, lib.ones(6, dtype=lib.int64)),
        lambda lib, x: lib.resize_as_(x, lib.ones(2, 2)),
        lambda lib, x: x.share_memory_().resize_(2, 2),
    ],
)
def test_resize(call):
    def described(lib: Any) -> Any:
        x = lib.arange(6.0).reshape(2, 3)
        y = call(lib, x)
        kept = min(y.numel(), 6)  # (the memory's first elements, read in memory order)
        flat = y.detach().as_strided((kept,), (1,), y.storage_offset()) if kept else y
        return _state(y), _state(x), flat.tolist() if kept else []

    expected, got = both(described)
    assert got == expected


def test_a_resize_shrinks_then_grows_back_over_the_same_memory():
    results = []
    for lib in (torch, minigrad):
        x = lib.arange(6.0)
        x.resize_(0)
        x.resize_(2, 3)
        results.append((x.tolist(), x._version))
    assert results[1] == results[0]


def test_a_resize_counts_as_a_write_for_saved_tensors():
    texts = []
    for lib in (torch, minigrad):
        x = lib.arange(6.0, requires_grad=True)
        y = x.sigmoid()
        y.detach().resize_(3, 3)
        texts.append(outcome(lambda y=y: y.sum().backward()))
    assert texts[1] == texts[0]


# --- share_memory_ and is_shared --------------------------------------------------------------


def test_share_memory_marks_the_memory_for_every_alias():
    results = []
    for lib in (torch, minigrad):
        x = lib.arange(6.0).reshape(2, 3)
        view, alias, copy = x[0], x.detach(), x.clone()
        before = (x.is_shared(), view.is_shared())
        same = x.share_memory_() is x
        results.append(
            (
                before,
                same,
                x.is_shared(),
                view.is_shared(),
                alias.is_shared(),
                copy.is_shared(),
                x[1:].is_shared(),
                x._version,
            )
        )
        grad = lib.ones(2, requires_grad=True).share_memory_()
        results.append((grad.is_shared(), grad.requires_grad, grad._version))
    assert results[2:] == results[:2]


# --- apply_, map_, map2_ ----------------------------------------------------------------------


@parametrize_in_one(
    "call",
    [
        lambda lib: lib.arange(6.0).reshape(2, 3).apply_(lambda v: v * 2),
        lambda lib: lib.arange(6).apply_(lambda v: v / 2),
        lambda lib: lib.arange(6).apply_(lambda v: -v * 2.7),
        lambda lib: lib.tensor([True, False]).apply_(lambda v: not v),
        lambda lib: lib.tensor([1.0, 2.0]).apply_(lambda v: "a"),
        lambda lib: lib.tensor([1.0, 2.0]).apply_(lambda v: None),
        lambda lib: lib.tensor([1.0, 2.0]).apply_(5),
        lambda lib: lib.tensor([1.0, 2.0]).apply_(lambda v: 1 / 0),
        lambda lib: lib.tensor([1.0, 2.0], requires_grad=True).apply_(lambda v: v),
        lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True) * 1).apply_(lambda v: v),
        lambda lib: lib.arange(6.0).reshape(2, 3).t().apply_(lambda v: v + 1),
        lambda lib: lib.arange(3.0).expand(2, 3).apply_(lambda v: v + 1),
        lambda lib: lib.arange(6.0).reshape(2, 3).map_(lib.ones(3), lambda a, b: a + b),
        lambda lib: lib.zeros(2, 3).map_(lib.ones(2, 3, dtype=lib.int64), lambda a, b: a + b),
        lambda lib: lib.zeros(2, 3).map_(lib.ones(4), lambda a, b: a + b),
        lambda lib: lib.zeros(2, 3).map_(lib.ones(2, 2, 3), lambda a, b: a + b),
        lambda lib: lib.arange(3).map_(lib.ones(3), lambda a, b: a + b),
        lambda lib: lib.zeros(2, 3).map_(3, lambda a, b: a + b),
        lambda lib: lib.zeros(3).map_(lib.ones(3, requires_grad=True), lambda a, b: a + b),
        lambda lib: (
            lib.arange(6.0)
            .reshape(2, 3)
            .map2_(lib.arange(3.0), lib.ones(2, 1), lambda a, b, c: a + b * 10 + c * 100)
        ),
        lambda lib: lib.zeros(3).map2_(
            lib.ones(3, dtype=lib.float64), lib.ones(3), lambda a, b, c: a
        ),
        lambda lib: lib.zeros(3).map2_(
            lib.ones(3), lib.ones(3, dtype=lib.float64), lambda a, b, c: a
        ),
        lambda lib: lib.zeros(3).map2_(
            lib.ones(3), lib.ones(3, requires_grad=True), lambda a, b, c: a
        ),
    ],
)
def test_python_callable_loops(call):
    def described(lib: Any) -> Any:
        y = call(lib)
        return y.tolist(), str(y.dtype).replace("torch", "minigrad"), y._version

    expected, got = both(described)
    assert got == expected


def test_the_loops_visit_elements_in_the_tensors_order_with_python_numbers():
    seen = []
    for lib in (torch, minigrad):
        calls: list[Any] = []
        lib.arange(6.0).reshape(2, 3).t().apply_(lambda v, calls=calls: calls.append(v) or v)
        lib.arange(2).map_(
            lib.tensor([5, 6]), lambda a, b, calls=calls: calls.append((type(a), type(b))) or a
        )
        seen.append(calls)
    assert seen[1] == seen[0]


def test_a_failed_loop_changes_nothing():
    x = minigrad.arange(3.0)
    with pytest.raises(ZeroDivisionError):
        x.apply_(lambda v: 1 / (v - 1))
    assert x.tolist() == [0.0, 1.0, 2.0] and x._version == 0
