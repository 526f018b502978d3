"""Differential tests: ``Tensor.view(dtype)`` and ``rsub``'s ``alpha``, against PyTorch live.

``view(dtype)`` reads the same memory as another dtype: values compared bit for bit, with the
shape, strides and storage offset PyTorch gives, its size rules and error texts, and its
autograd: a view that is not differentiable (no ``grad_fn``, no ``_base``) but shares the
version counter, so in-place writes through either side are seen by the other and by backward.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: a description of its tensor, or the error's type and text."""
    try:
        result = call()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).replace("torch", "minigrad")
    return describe(result)


def describe(t: Any) -> tuple[Any, ...]:
    """A tensor's dtype, geometry, values (bit for bit), and autograd state."""
    return (
        str(t.dtype).split(".")[-1],
        tuple(t.shape),
        t.stride(),
        t.storage_offset(),
        t.detach().numpy().tobytes(),  # (bit for bit: NaNs of any payload compare)
        t.tolist() if not t.is_floating_point() else None,
        t.requires_grad,
        t.grad_fn is None,
        t._base is None,
        t._is_view(),
    )


def same(call: Callable[[Any], Any]) -> None:
    """``call(torch)`` and ``call(minigrad)`` give the same outcome."""
    assert outcome(lambda: call(minigrad)) == outcome(lambda: call(torch))


def _bits(lib: Any) -> Any:
    """Floats whose bytes are all different (so any misplaced byte shows)."""
    return lib.tensor([1.5, -2.25, 3.0e-3, 7.0e5, -0.0, 1.0e-40, 42.0, -8.5]).view(2, 4)


def _ints(lib: Any) -> Any:
    return lib.tensor([[1, -2, 300, -40000], [5, 2**40, -(2**33), 7]], dtype=lib.int64)


# (tensor, target dtype): same element size, smaller, larger, across kinds, 0-d, layouts
CASES: dict[str, Callable[[Any], Any]] = {
    "float32 as int32": lambda L: _bits(L).view(L.int32),
    "float32 as uint8": lambda L: _bits(L).view(L.uint8),
    "float32 as int16": lambda L: _bits(L).view(L.int16),
    "float32 as float16": lambda L: _bits(L).view(L.float16),
    "float32 as float64": lambda L: _bits(L).view(L.float64),
    "float32 as float64 (size 3)": lambda L: L.arange(6.0).view(2, 3).view(L.float64),
    "float32 as float32": lambda L: _bits(L).view(L.float32),
    "int64 as float64": lambda L: _ints(L).view(L.float64),
    "int64 as int8": lambda L: _ints(L).view(L.int8),
    "int64 as int32": lambda L: _ints(L).view(L.int32),
    "int8 as int64": lambda L: L.arange(-8, 8, dtype=L.int8).view(L.int64),
    "uint8 as float32": lambda L: L.arange(16, dtype=L.uint8).view(2, 8).view(L.float32),
    "bool as uint8": lambda L: L.tensor([True, False, True]).view(L.uint8),
    "int8 as bool": lambda L: L.tensor([0, 1, 0], dtype=L.int8).view(L.bool),
    "float64 as int64": lambda L: L.tensor([0.1, -3.0]).double().view(L.int64),
    "float16 as int16": lambda L: L.tensor([0.1, -3.0]).half().view(L.int16),
    "0-d, same size": lambda L: L.tensor(1.0).view(L.int32),
    "0-d, smaller": lambda L: L.tensor(1.0).view(L.uint8),
    "0-d, larger": lambda L: L.tensor(1.0).view(L.float64),
    "transposed, same size": lambda L: _bits(L).t().view(L.int32),
    "transposed, smaller": lambda L: _bits(L).t().view(L.uint8),
    "transposed, larger": lambda L: L.zeros(4, 2).t().view(L.float64),
    "expanded, same size": lambda L: L.ones(4, 1).expand(4, 4).view(L.int32),
    "expanded, larger": lambda L: L.ones(4, 1).expand(4, 4).view(L.float64),
    "row slice, smaller": lambda L: _bits(L)[1].view(L.int16),
    "column slice, larger": lambda L: L.zeros(4, 4)[:, 1:3].view(L.float64),
    "aligned slice, larger": lambda L: L.arange(8.0)[2:6].view(L.float64),
    "aligned columns, larger": lambda L: L.arange(16.0).view(4, 4)[1:, 2:].view(L.float64),
    "odd offset, larger": lambda L: L.arange(8.0)[1:5].view(L.float64),
    "step 2, larger": lambda L: L.arange(8.0)[::2].view(L.float64),
    "odd row stride, larger": lambda L: L.zeros(3, 5)[:, :4].view(L.float64),
    "last size 1, larger": lambda L: L.zeros(2, 4)[:, :1].view(L.float64),
    "view of a view": lambda L: _bits(L).view(L.int32).view(L.uint8).view(L.int16),
    "empty rows, larger": lambda L: L.zeros(0, 4).view(L.float64),
    "empty rows, smaller": lambda L: L.zeros(0, 4).view(L.uint8),
    "empty columns, larger": lambda L: L.zeros(3, 0).view(L.float64),
    "empty columns, smaller": lambda L: L.zeros(3, 0).view(L.int8),
    "empty slice, larger": lambda L: L.zeros(4, 4)[:, 2:2].view(L.float64),
    "dtype by name": lambda L: _bits(L).view(dtype=L.int32),
    "size by name": lambda L: _bits(L).view(size=(4, 2)),
    "size by name, a lone int": lambda L: _bits(L).view(size=8),
    "dtype and a size": lambda L: _bits(L).view(L.int32, 2),
    "dtype and size by name": lambda L: _bits(L).view(dtype=L.int32, size=(8,)),
    "dtype None by name": lambda L: _bits(L).view(dtype=None),
    "unknown keyword": lambda L: _bits(L).view(shape=(8,)),
    "a string": lambda L: _bits(L).view("float"),
}


@parametrize_in_one("name", list(CASES))
def test_view_dtype_matches_torch(name: str) -> None:
    same(CASES[name])


def test_view_dtype_shares_memory_and_version_counter() -> None:
    """Writes through the view and through its source are seen by both, once each."""
    for lib in (torch, minigrad):
        a = lib.zeros(4)
        b = a.view(lib.int32)
        c = b.view(lib.uint8)
        b[0] = 1065353216  # the bits of 1.0
        c[4:8] = lib.tensor([0, 0, 0, 64], dtype=lib.uint8)  # the bits of 2.0
        a.add_(1)
        got = (a.tolist(), b.tolist(), c.tolist(), a._version, b._version, c._version)
        if lib is torch:
            expected = got
    assert got == expected


def test_view_dtype_of_a_tensor_requiring_grad() -> None:
    """Any dtype is allowed; the result has no history, and writes are seen by backward."""
    results = []
    for lib in (torch, minigrad):
        leaf = lib.tensor([0.5, -1.0, 2.0, 4.0], requires_grad=True)
        views = [leaf.view(d) for d in (lib.float32, lib.float16, lib.int32, lib.float64)]
        y = leaf.exp()
        y.view(lib.int32).add_(1)  # (bumps y's counter: exp saved y)
        error = outcome(lambda y=y: y.sum().backward())
        z = leaf * 2
        z.view(lib.float32).mul_(3)  # (not a differentiable view: z keeps its history)
        z.sum().backward()
        results.append(([describe(v) for v in views], error, z.grad_fn.name(), leaf.grad.tolist()))
    assert results[1] == results[0]


def test_view_dtype_of_a_leaf_written_in_place() -> None:
    """PyTorch lets a dtype view of a leaf requiring grad be written: no view-of-leaf error."""
    results = []
    for lib in (torch, minigrad):
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        leaf.view(lib.float32).add_(1)
        results.append((leaf.tolist(), leaf._version, leaf.requires_grad, leaf.is_leaf))
    assert results[1] == results[0]


def test_view_dtype_under_no_grad() -> None:
    results = []
    for lib in (torch, minigrad):
        leaf = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            v = leaf.view(lib.int32)
        v.add_(1)
        results.append((describe(v), leaf._version))
    assert results[1] == results[0]


# --- rsub(input, other, *, alpha) -------------------------------------------------------------

RSUB: dict[str, Callable[[Any], Any]] = {
    "number, alpha 2": lambda L: L.rsub(L.tensor([1.0, 2.0]), 5, alpha=2),
    "number, alpha -1.5": lambda L: L.rsub(L.tensor([1.0, 2.0]), 5, alpha=-1.5),
    "number, alpha 0": lambda L: L.rsub(L.tensor([1.0, 2.0]), 5, alpha=0),
    "number, float alpha 1.0": lambda L: L.rsub(L.tensor([1.0, 2.0]), 5, alpha=1.0),
    "tensors, alpha 3": lambda L: L.rsub(L.tensor([1.0, 2.0]), L.tensor([5.0, 6.0]), alpha=3),
    "tensors broadcast": lambda L: L.rsub(L.tensor([1.0]), L.ones(3, 1), alpha=2),
    "tensors mismatch": lambda L: L.rsub(L.ones(2), L.ones(3), alpha=2),
    "int tensor, int alpha": lambda L: L.rsub(L.tensor([1, 2]), 5, alpha=2),
    "int tensor, float other": lambda L: L.rsub(L.tensor([1, 2]), 5.5, alpha=2),
    "int tensor, float tensor other": lambda L: L.rsub(L.tensor([1, 2]), L.tensor(5.5), alpha=2.5),
    "float tensor, int tensor other": lambda L: L.rsub(L.tensor([1.5]), L.tensor([1, 2]), alpha=2),
    "int8 tensors": lambda L: L.rsub(
        L.tensor([100], dtype=L.int8), L.tensor([1], dtype=L.int8), alpha=3
    ),
    "bool alpha on float": lambda L: L.rsub(L.tensor([1.0]), 5, alpha=True),
    "bool alpha on int": lambda L: L.rsub(L.tensor([1]), 5, alpha=True),
    "float alpha on int": lambda L: L.rsub(L.tensor([1, 2]), 5, alpha=2.5),
    "float alpha on int tensors": lambda L: L.rsub(L.tensor([1]), L.tensor([2]), alpha=0.5),
    "bool tensor": lambda L: L.rsub(L.tensor([True]), 5, alpha=2),
    "bool tensors": lambda L: L.rsub(L.tensor([True]), L.tensor([False]), alpha=True),
    "string alpha": lambda L: L.rsub(L.tensor([1.0]), 5, alpha="a"),
    "operator": lambda L: 2 - L.tensor([1.0, 2.0]),
}


@parametrize_in_one("name", list(RSUB))
def test_rsub_alpha_matches_torch(name: str) -> None:
    same(RSUB[name])


@pytest.mark.parametrize("other_is_tensor", [False, True])
@pytest.mark.parametrize("alpha", [1, 3, -0.5])
def test_rsub_alpha_autograd(other_is_tensor: bool, alpha: Any) -> None:
    """Node names, saved alpha, and gradients of both inputs (other - alpha * input)."""
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
        other = lib.tensor([4.0, 5.0, 6.0], requires_grad=True) if other_is_tensor else 4.0
        y = lib.rsub(x, other, alpha=alpha)
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        grads = (x.grad.tolist(), other.grad.tolist() if other_is_tensor else None)
        results.append((y.tolist(), y.grad_fn.name(), y.grad_fn._saved_alpha, grads))
    assert results[1] == results[0]


def test_rsub_alpha_gradcheck() -> None:
    x = minigrad.randn(3, dtype=minigrad.float64, requires_grad=True)
    other = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda a, b: minigrad.rsub(a, b, alpha=-1.5), (x, other))
    assert minigrad.autograd.gradgradcheck(lambda a, b: minigrad.rsub(a, b, alpha=2), (x, other))
