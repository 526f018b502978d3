"""Sorting: ``sort``, ``argsort`` and ``topk``, with PyTorch's order for ties and NaNs.

``sort`` and ``topk`` save only their ``indices`` output: the gradient is scattered back to the
positions the values came from. ``topk`` reproduces the C++ standard library's selection
(introselect + partial sort) so that tied values come out in PyTorch's order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_int64
from minigrad._layout import preserved_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops._helpers import operand, raw, run, wrap_dim
from minigrad.ops.gather_scatter import Scatter
from minigrad.ops.return_types import return_types


def sort_order(array: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Stable sort order along ``axis``; NaN counts as the largest value (PyTorch's CPU order).

    Descending is the reverse of an ascending stable sort of the reversed array, which keeps
    equal elements in their original order and puts NaN first.
    """
    if array.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if not descending:
        return np.argsort(array, axis=axis, kind="stable")
    size = array.shape[axis]
    flipped = np.flip(array, axis)
    order = size - 1 - np.argsort(flipped, axis=axis, kind="stable")
    return np.ascontiguousarray(np.flip(order, axis))


class Sort(Op):
    """(values, indices) = x sorted along ``dim``;  dx = grad scattered back to ``indices``.

    Saves its ``indices`` output only: writing the values output later is legal, writing the
    indices is not.
    """

    fields = ("dim", "shape")
    saves = "indices"
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, descending: bool) -> tuple[Any, Any]:
        axis = dim % max(x.ndim, 1)  # (``dim`` is kept as given: PyTorch's node shows it so)
        order = sort_order(x, axis, descending)
        values = x.copy() if x.ndim == 0 else np.take_along_axis(x, order, axis=axis)
        # Both laid out as PyTorch's (preserve_format), vectors too: a 1-element one keeps its
        # stride. (Before saving: the saved indices are the output.)
        indices = preserved_result(order, (x,))
        ctx.save_for_backward(indices)
        ctx.dim, ctx.shape = dim, x.shape
        return preserved_result(values, (x,)), indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None]:
        (indices,) = ctx.saved_tensors
        return scatter_to_indices(grad, ctx.dim, raw(indices), np.shape(indices)), None, None


def sort(
    input: Any, dim: int = -1, descending: bool = False, *, stable: bool | None = False
) -> Any:
    """``(values, indices)``: ``input`` sorted along ``dim`` (a stable sort; NaN is largest).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([3.0, 1.0, 2.0]).sort().indices
        tensor([1, 2, 0])
    """
    wrap_dim(dim, operand(input).ndim)  # (checked; kept as given)
    values, indices = Sort.apply(input, dim, bool(descending))
    return return_types.sort(values, indices)


class Topk(Op):
    """(values, indices) = the k largest (or smallest) along ``dim``, sorted.

    dx = grad scattered back to ``indices``, 0 elsewhere.  Saves its ``indices`` output only.
    """

    fields = ("dim", "shape")
    saves = "indices"
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, k: int, dim: int, largest: bool) -> tuple[Any, Any]:
        ctx.dim, ctx.shape = dim, x.shape  # (dim as given: PyTorch's node shows it so)
        if x.ndim == 0:
            indices = np.zeros((), dtype=np.int64)
            ctx.save_for_backward(indices)
            return x.copy(), indices
        indices = _topk_indices(x, k, dim % x.ndim, largest)
        ctx.save_for_backward(indices)
        return np.take_along_axis(x, indices, axis=dim), indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None, None]:
        (indices,) = ctx.saved_tensors
        return scatter_to_indices(grad, ctx.dim, raw(indices), ctx.shape), None, None, None


def msort(input: Any) -> Any:
    """``input`` sorted along its first dimension (the values of ``sort(input, 0)``).

    Example:
        >>> import minigrad
        >>> minigrad.msort(minigrad.tensor([[3.0, 1.0], [2.0, 5.0]]))
        tensor([[2., 1.],
                [3., 5.]])
    """
    return sort(input, 0)[0]


def topk(input: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """``(values, indices)`` of the ``k`` largest (``largest=False``: smallest) along ``dim``.

    Sorted; tied values come in PyTorch's (CPU) order.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 5.0, 3.0]).topk(2).values
        tensor([5., 3.])
    """
    array = operand(input)
    axis = wrap_dim(dim, array.ndim)
    size = array.shape[axis] if array.ndim else 1
    if not 0 <= k <= size:
        check_int64(k)  # (past int64, the parser's error comes first)
        raise RuntimeError(errors.TOPK_K_OUT_OF_RANGE)
    if array.dtype == np.bool_:
        raise RuntimeError(errors.TOPK_BOOL)
    values, indices = Topk.apply(input, int(k), dim, bool(largest))
    return return_types.topk(values, indices)


def scatter_to_indices(grad: Any, dim: int, indices: np.ndarray, shape: tuple[int, ...]) -> Any:
    """A zero gradient of ``shape`` with ``grad`` written at ``indices`` along ``dim``.

    The backward of ops that select values (sort, topk, max/min over a dim).
    """
    if not shape:
        return grad
    zeros = np.zeros(shape, dtype=raw(grad).dtype)
    return run(Scatter, zeros, grad, dim, indices)


def argsort(input: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """The indices that sort ``input`` along ``dim`` (``sort(...).indices``).

    Example:
        >>> import minigrad
        >>> minigrad.argsort(minigrad.tensor([3.0, 1.0, 2.0]))
        tensor([1, 2, 0])
    """
    return sort(input, dim, descending, stable=stable).indices


# PyTorch's CPU topk runs std::nth_element / std::sort / std::partial_sort from libstdc++ on
# (value, index) pairs. None of them is stable, so for tied values the order of the indices is
# an accident of these algorithms; reproducing PyTorch's indices means replaying them exactly.
# ``a`` is a list, ``first``/``last`` indices into it (half-open), ``comp`` a strict "less".

Comp = Any


def _swap(a: list[Any], i: int, j: int) -> None:
    a[i], a[j] = a[j], a[i]


def _unguarded_partition(a: list[Any], first: int, last: int, pivot: int, comp: Comp) -> int:
    while True:
        while comp(a[first], a[pivot]):
            first += 1
        last -= 1
        while comp(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        _swap(a, first, last)
        first += 1


def _move_median_to_first(a: list[Any], result: int, x: int, y: int, z: int,
                          comp: Comp) -> None:
    if comp(a[x], a[y]):
        if comp(a[y], a[z]):
            _swap(a, result, y)
        elif comp(a[x], a[z]):
            _swap(a, result, z)
        else:
            _swap(a, result, x)
    elif comp(a[x], a[z]):
        _swap(a, result, x)
    elif comp(a[y], a[z]):
        _swap(a, result, z)
    else:
        _swap(a, result, y)


def _unguarded_linear_insert(a: list[Any], last: int, comp: Comp) -> None:
    value, before = a[last], last - 1
    while comp(value, a[before]):
        a[last] = a[before]
        last, before = before, before - 1
    a[last] = value


def _adjust_heap(a: list[Any], first: int, hole: int, length: int, value: Any,
                 comp: Comp) -> None:
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if comp(a[first + second], a[first + second - 1]):
            second -= 1
        a[first + hole] = a[first + second]
        hole = second
    if length % 2 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        a[first + hole] = a[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole, parent = parent, (parent - 1) // 2
    a[first + hole] = value


def _heap_select(a: list[Any], first: int, middle: int, last: int, comp: Comp) -> None:
    length = middle - first
    if length >= 2:
        for parent in range((length - 2) // 2, -1, -1):
            _adjust_heap(a, first, parent, length, a[first + parent], comp)
    for i in range(middle, last):
        if comp(a[i], a[first]):
            value, a[i] = a[i], a[first]
            _adjust_heap(a, first, 0, length, value, comp)


def _insertion_sort(a: list[Any], first: int, last: int, comp: Comp) -> None:
    for i in range(first + 1, last):
        if comp(a[i], a[first]):
            value = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            _unguarded_linear_insert(a, i, comp)


def _partial_sort(a: list[Any], first: int, middle: int, last: int, comp: Comp) -> None:
    _heap_select(a, first, middle, last, comp)
    while middle - first > 1:
        middle -= 1
        value, a[middle] = a[middle], a[first]
        _adjust_heap(a, first, 0, middle - first, value, comp)


def _unguarded_partition_pivot(a: list[Any], first: int, last: int, comp: Comp) -> int:
    middle = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, middle, last - 1, comp)
    return _unguarded_partition(a, first + 1, last, first, comp)


def _topk_indices(x: np.ndarray, k: int, dim: int, largest: bool) -> np.ndarray:
    """The indices of topk in PyTorch's order.

    Without ties that is the sorted order; with ties it is whatever PyTorch's CPU kernel leaves:
    an unstable ``std::nth_element`` then ``std::sort`` of (value, index) pairs
    (``std::partial_sort`` if k * 64 <= size), replayed below.
    """
    order = np.moveaxis(sort_order(x, dim, largest), dim, -1)[..., :k]
    if k == 0 or order.size == 0:
        return np.ascontiguousarray(np.moveaxis(order, -1, dim))
    values = np.moveaxis(x, dim, -1)
    rows, picked = values.reshape(-1, values.shape[-1]), order.reshape(-1, k).copy()
    for r, row in enumerate(rows):
        if len(np.unique(row)) < len(row):
            picked[r] = _stl_topk(row.tolist(), k, largest)
    return np.ascontiguousarray(np.moveaxis(picked.reshape(order.shape), -1, dim))


def _stl_topk(values: list[Any], k: int, largest: bool) -> list[int]:
    queue = [(v, j) for j, v in enumerate(values)]
    if largest:
        def comp(a: Any, b: Any) -> bool:
            return (math.isnan(a[0]) and not math.isnan(b[0])) or a[0] > b[0]
    else:
        def comp(a: Any, b: Any) -> bool:
            return (not math.isnan(a[0]) and math.isnan(b[0])) or a[0] < b[0]
    size = len(queue)
    if k * 64 <= size:
        _partial_sort(queue, 0, k, size, comp)
    else:
        _nth_element(queue, 0, k - 1, size, comp)
        _std_sort(queue, 0, k - 1, comp)
    return [j for _, j in queue[:k]]


def _nth_element(a: list[Any], first: int, nth: int, last: int, comp: Comp) -> None:
    if first == last or nth == last:
        return
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, comp)
            _swap(a, first, nth)
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, comp)


def _std_sort(a: list[Any], first: int, last: int, comp: Comp) -> None:
    if first == last:
        return
    _introsort_loop(a, first, last, 2 * ((last - first).bit_length() - 1), comp)
    if last - first > 16:
        _insertion_sort(a, first, first + 16, comp)
        for i in range(first + 16, last):
            _unguarded_linear_insert(a, i, comp)
    else:
        _insertion_sort(a, first, last, comp)


def _introsort_loop(a: list[Any], first: int, last: int, depth: int, comp: Comp) -> None:
    while last - first > 16:
        if depth == 0:
            _partial_sort(a, first, last, last, comp)
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, comp)
        _introsort_loop(a, cut, last, depth, comp)
        last = cut
