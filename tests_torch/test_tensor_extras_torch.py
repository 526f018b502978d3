"""Behaviours of the smaller tensor functions that the op table does not reach, against PyTorch.

The in-place logical ops record nothing and check no leaf rule; the unsafe splits' pieces share
their input's memory but not its version counter; ``index_put`` with index tensors and a mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def _logical_write_on_a_leaf(lib: Any) -> tuple[Any, ...]:
    x = lib.tensor([1.5, 0.0, -2.0], requires_grad=True)
    y = x * 3  # recorded before the write: its backward is not affected
    x.logical_and_(lib.tensor([1, 1, 0]))
    y.sum().backward()
    return x.detach().tolist(), x._version, x.grad_fn, x.grad.tolist(), x.is_leaf


def test_a_logical_op_in_place_writes_a_leaf_without_recording_as_pytorch():
    mine, theirs = (_logical_write_on_a_leaf(lib) for lib in LIBS)
    assert mine == theirs


def _logical_not_of_a_view(lib: Any) -> tuple[Any, ...]:
    base = lib.tensor([[1.0, 0.0], [0.0, 3.0]]) * 1
    view = base[0]
    view.logical_not_()
    return base.tolist(), base._version, view._version, base.grad_fn


def test_a_logical_op_in_place_through_a_view_bumps_the_shared_version():
    mine, theirs = (_logical_not_of_a_view(lib) for lib in LIBS)
    assert mine == theirs


def _unsafe_pieces(lib: Any) -> tuple[Any, ...]:
    x = lib.arange(6.0).reshape(2, 3).requires_grad_()
    y = x * 1
    first, second = lib.unsafe_split(y, 2, 1)
    first.mul_(10)  # allowed: the pieces are not views for autograd
    (first.sum() + second.sum()).backward()
    return (
        y.tolist(),
        y._version,
        first._version,
        second._version,
        first._is_view(),
        first.grad_fn.name(),
        x.grad.tolist(),
    )


def test_unsafe_split_pieces_alias_the_input_with_their_own_versions():
    mine, theirs = (_unsafe_pieces(lib) for lib in LIBS)
    assert mine == theirs


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_with_two_index_tensors_and_broadcast_values(accumulate):
    rng = np.random.default_rng(7)
    data, values = rng.normal(size=(3, 4, 2)), rng.normal(size=(2,))
    results = []
    for lib in LIBS:
        x = lib.tensor(data, requires_grad=True)
        v = lib.tensor(values, requires_grad=True)
        rows, columns = lib.tensor([0, 2, 0]), lib.tensor([1, 3, 1])
        y = lib.index_put(x, (rows, columns), v, accumulate=accumulate)
        (y * lib.arange(24.0, dtype=lib.float64).reshape(3, 4, 2)).sum().backward()
        results.append((y.tolist(), x.grad.tolist(), v.grad.tolist(), y.grad_fn.name()))
    (mine, theirs) = results
    np.testing.assert_allclose(mine[0], theirs[0])
    np.testing.assert_allclose(mine[1], theirs[1])
    if accumulate:  # (without accumulate, a repeated position's winner is unspecified)
        np.testing.assert_allclose(mine[2], theirs[2])
    assert mine[3] == theirs[3]


def _as_strided_of_a_view(lib: Any) -> tuple[Any, ...]:
    x = lib.arange(12.0).reshape(3, 4).requires_grad_()
    view = (x * 1)[1:]
    own = view.as_strided((2, 2), (1, 2))  # from the view's own offset (4) in the base's memory
    before = view.as_strided((2, 2), (1, 2), 0)  # elements of the base outside the view
    (own.sum() + 2 * before.sum()).backward()  # ... whose gradient the view cannot take
    return (
        own.tolist(),
        own.storage_offset(),
        before.tolist(),
        before.storage_offset(),
        x.grad.tolist(),
        own.grad_fn.name(),
        own._is_view(),
    )


def test_as_strided_of_a_view_counts_in_the_base_memory_as_pytorch():
    mine, theirs = (_as_strided_of_a_view(lib) for lib in LIBS)
    assert mine == theirs


def _as_strided_in_place(lib: Any) -> tuple[Any, ...]:
    x = lib.arange(6.0)
    x.as_strided_((2, 2), (2, 1), 1)
    return x.tolist(), x.stride(), x.storage_offset(), x._version


def test_as_strided_in_place_takes_the_geometry_and_one_version():
    mine, theirs = (_as_strided_in_place(lib) for lib in LIBS)
    assert mine == theirs
