"""Values picked along a dim with their indices: kthvalue, mode, cummax, cummin.

kthvalue and mode are ``max(dim)``'s kind (``reduction.ExtremeDim``): ``(values, indices)``,
the node saves the indices and the gradient goes to them (KthvalueBackward0, ModeBackward0).
Where values tie, the index is the one PyTorch's CPU kernels leave: kthvalue's comes out of
its quickselect (Sedgewick's partitioning, ``aten/src/ATen/native/SortingUtils.h``), mode's out
of ``std::sort`` of (value, index) pairs compared by value, scanned for the longest run; both
are replayed here step by step, so ties and NaNs give PyTorch's indices.

cummax and cummin keep the running extreme and the index it came from (a later equal value
takes over, and so does every NaN); their gradient is summed back to those indices.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_int64
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops._helpers import operand, raw, run, wrap_dim
from minigrad.ops.gather_scatter import ScatterAdd
from minigrad.ops.reduction import ExtremeDim, _check_nonempty, _select_over_dim
from minigrad.ops.return_types import return_types
from minigrad.ops.sorting import _std_sort

# --- kthvalue and mode: one index per slice ----------------------------------------------------


def _greater_or_nan(x: Any, y: Any) -> bool:
    """PyTorch's ``gt_or_nan``: NaN above every number."""
    return (math.isnan(x) and not math.isnan(y)) or x > y


def _quickselect_index(values: list[Any], k: int) -> int:
    """The index PyTorch's quickselect leaves at position ``k`` (0-based) of ``values``."""
    greater = _greater_or_nan if isinstance(values[0], float) else (lambda x, y: x > y)
    values = list(values)
    indices = list(range(len(values)))

    def swap(i: int, j: int) -> None:
        """Swap two places of the values and of their indices alike."""
        values[i], values[j] = values[j], values[i]
        indices[i], indices[j] = indices[j], indices[i]

    low, high = 0, len(values) - 1
    while high > low:
        if high == low + 1:
            if greater(values[low], values[high]):
                swap(low, high)
            break
        swap((low + high) >> 1, low + 1)  # the median of three as the pivot, at ``low``
        if greater(values[low + 1], values[high]):
            swap(low + 1, high)
        if greater(values[low], values[high]):
            swap(low, high)
        if greater(values[low + 1], values[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while greater(pivot, values[i]):
                i += 1
            j -= 1
            while greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return indices[k]


def _mode_index(values: list[Any]) -> int:
    """The index PyTorch's mode gives: the last of the longest run of ``std::sort``'s order."""
    pairs = [(value, index) for index, value in enumerate(values)]
    _std_sort(pairs, 0, len(pairs), lambda a, b: a[0] < b[0])
    best, best_count, count = 0, 0, 0
    for position, (value, index) in enumerate(pairs):
        count += 1
        if position == len(pairs) - 1 or value != pairs[position + 1][0]:
            if count > best_count:
                best, best_count = index, count
            count = 0
    return best


def _per_slice(pick: Callable[[list[Any]], int]) -> Callable[..., np.ndarray]:
    """``pick`` of every slice along ``axis``, as an index array with that axis kept."""

    def indices(x: np.ndarray, axis: int, keepdims: bool) -> np.ndarray:
        """The picked index of each slice of ``x`` along ``axis`` (``keepdims``: always)."""
        rows = np.moveaxis(x, axis, -1)
        flat = rows.reshape(-1, rows.shape[-1])
        picked = np.array([pick(row.tolist()) for row in flat], dtype=np.int64)
        return np.expand_dims(picked.reshape(rows.shape[:-1]), axis)

    return indices


class Kthvalue(ExtremeDim):
    """(values, indices) = the k-th smallest over ``dim``;  dx = grad at its index, 0 else."""

    node_name = "KthvalueBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, keepdim: bool, given_dim: int,
                k: int) -> tuple[Any, Any]:
        ctx.given_dim = given_dim
        pick = _per_slice(lambda values: _quickselect_index(values, k - 1))
        return _select_over_dim(ctx, x, dim, keepdim, pick)


class Mode(ExtremeDim):
    """(values, indices) = the most frequent value over ``dim``;  dx = grad at its index.

    Of equally frequent values the smallest wins.
    """

    node_name = "ModeBackward0"
    pick = staticmethod(_per_slice(_mode_index))


def kthvalue(input: Any, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """The ``k``-th smallest value along ``dim`` and its index: ``(values, indices)``.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[3.0, 1.0, 2.0], [6.0, 5.0, 4.0]]).kthvalue(2, dim=1)
        minigrad.return_types.kthvalue(
        values=tensor([2., 5.]),
        indices=tensor([2, 1]))
    """
    array = operand(input)
    axis = wrap_dim(dim, array.ndim)
    _check_nonempty(array, (axis,), "kthvalue")
    if not 0 < k <= (array.shape[axis] if array.ndim else 1):
        check_int64(k)  # (past int64, the parser's error comes first)
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    if array.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for("kthvalue_cpu", "Bool"))
    values, indices = Kthvalue.apply(input, axis, keepdim, dim, k)
    return return_types.kthvalue(values, indices)


def mode(input: Any, dim: int = -1, keepdim: bool = False) -> Any:
    """The most frequent value along ``dim`` and its index: ``(values, indices)``.

    Of equally frequent values the smallest wins.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 3.0, 3.0, 2.0, 2.0]).mode().values
        tensor(2.)
    """
    array = operand(input)
    axis = wrap_dim(dim, array.ndim)
    _check_nonempty(array, (axis,), "mode")
    values, indices = Mode.apply(input, axis, keepdim, dim)
    return return_types.mode(values, indices)


# --- cummax and cummin: a running extreme and where it came from -------------------------------


def _running_extreme(x: np.ndarray, axis: int, larger: bool) -> tuple[np.ndarray, np.ndarray]:
    """The running max (min) along ``axis`` and its indices, as PyTorch's kernel keeps them.

    An element takes over when it is NaN, or when the running value is not NaN and the element
    is at least as large (small): ties go to the later index, and NaN stays once met.
    """
    if x.ndim == 0 or x.size == 0:  # (numpy's take of an empty axis raises)
        return x.copy(), np.zeros(x.shape, dtype=np.int64)
    values = (np.maximum if larger else np.minimum).accumulate(x, axis=axis)
    before = np.concatenate([np.take(x, [0], axis=axis),
                             np.delete(values, -1, axis=axis)], axis=axis)
    reaches = x >= before if larger else x <= before
    if x.dtype.kind == "f":
        reaches |= np.isnan(x)
    shape = [1] * x.ndim
    shape[axis] = -1
    positions = np.arange(x.shape[axis]).reshape(shape)
    indices = np.maximum.accumulate(np.where(reaches, positions, 0), axis=axis)
    return values, indices.astype(np.int64)


class Cummax(Op):
    """(values, indices) = the running max along ``dim``;  dx = grad summed at each index.

    Saves the input and the indices (PyTorch's ``_saved_self``, ``_saved_indices``).
    """

    fields = ("dim", "given_dim")
    saves = ("self", "indices")
    saved_options = {"dim": as_given("given_dim")}

    larger = True

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, dim: int, given_dim: int) -> tuple[Any, Any]:
        values, indices = _running_extreme(x, dim, cls.larger)
        ctx.save_for_backward(x, indices)
        ctx.dim, ctx.given_dim = dim, given_dim
        return values, indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None]:
        x, indices = ctx.saved_tensors
        if raw(x).ndim == 0:
            return grad, None, None
        zeros = np.zeros(raw(x).shape, dtype=raw(grad).dtype)
        return run(ScatterAdd, zeros, grad, ctx.dim, raw(indices)), None, None


class Cummin(Cummax):
    """(values, indices) = the running min along ``dim``;  dx = grad summed at each index.

    Saves the input and the indices.
    """

    larger = False


def _cumulative_extreme(input: Any, dim: int, op: type[Cummax], name: str) -> Any:
    """The checks of cummax and cummin, as PyTorch's ``cummax_cummin_helper`` makes them.

    A 0-d input takes dim 0 or -1 only (its own message); an empty input any dim (PyTorch
    returns before looking at it: the first axis is as good as any for an empty result).
    """
    array = operand(input)
    if array.ndim == 0 and type(dim) is int and dim not in (0, -1):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if array.size == 0 and type(dim) is int and not -array.ndim <= dim < max(array.ndim, 1):
        axis = 0
    else:
        axis = wrap_dim(dim, array.ndim)
    values, indices = op.apply(input, axis, dim)
    return getattr(return_types, name)(values, indices)


def cummax(input: Any, dim: int) -> Any:
    """The running maximum along ``dim`` and where each came from: ``(values, indices)``.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 3.0, 2.0, 3.0]).cummax(0).indices
        tensor([0, 1, 1, 3])
    """
    return _cumulative_extreme(input, dim, Cummax, "cummax")


def cummin(input: Any, dim: int) -> Any:
    """The running minimum along ``dim`` and where each came from: ``(values, indices)``."""
    return _cumulative_extreme(input, dim, Cummin, "cummin")
