"""Writing at flat positions and reducing along an index: put, index_reduce.

What each op saves is PyTorch 2.13's: ``put`` the index and the source (PutBackward0);
``index_reduce`` its input, the source, the index and the result (IndexReduceBackward0).

``index_reduce`` is ``scatter_reduce`` with the index vector spread over the source's shape
along ``dim``: its forward and its gradient are scatter_reduce's (``gather_scatter.py``), with
that spread index.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._layout import contiguous_result, preserved_result
from minigrad._warnings import warn_once
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops._helpers import operand, raw, run
from minigrad.ops.gather_scatter import (
    at_least_1d,
    scatter_reduce_gradients,
    scatter_reduce_values,
)
from minigrad.ops.index_ops import IndexFill, Take, index_checks

# --- put ----------------------------------------------------------------------------------------


class Put(Op):
    """y = x (read as 1-D) with source's elements written (or added) at ``index``.

    dx = grad (accumulate) or grad with the written positions zeroed;  dsource = grad taken at
    ``index``.  Saves the index, and the source if it needs a gradient (PutBackward0).
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    result_layout = staticmethod(preserved_result)  # (a clone of x, written into)

    num_inputs = 2
    fields = ("accumulate", "source_shape")
    saves = ("index", "source")
    saved_options = ("accumulate",)

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, source: np.ndarray, index: np.ndarray, accumulate: bool
    ) -> np.ndarray:
        # (the source only if it needs a gradient: dx needs no more than its size)
        ctx.save_for_backward(index, source if ctx.needs_input_grad[1] else None)
        ctx.accumulate, ctx.source_shape = accumulate, source.shape
        flat = x.reshape(-1).copy()  # (positions count in row-major order, whatever the layout)
        if accumulate:
            np.add.at(flat, index.reshape(-1), np.reshape(source, -1))
        else:
            flat[index.reshape(-1)] = np.reshape(source, -1)
        return flat.reshape(x.shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        index, source = ctx.saved_tensors
        index = raw(index)
        dx = dsource = None
        if ctx.needs_input_grad[0]:
            zero = np.zeros((), dtype=raw(grad).dtype)
            dx = grad if ctx.accumulate else run(Put, grad, zero, index, False)
        if ctx.needs_input_grad[1]:
            dsource = np.reshape(run(Take, grad, index), ctx.source_shape)
        return dx, dsource, None, None


def _put_call(input: Any, index: Any, source: Any, accumulate: bool, name: str) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of Put, in the order PyTorch checks them."""
    _arguments.check_value(accumulate, "bool", name, "accumulate", 3 if name == "put" else 2)
    array, index_array, source_array = operand(input), operand(index), operand(source)
    if index_array.dtype != np.int64:
        raise RuntimeError(errors.put_index_dtype(display_name(index_array.dtype)))
    if source_array.dtype != array.dtype:
        raise RuntimeError(
            errors.put_dtypes(display_name(array.dtype), display_name(source_array.dtype))
        )
    if source_array.size != index_array.size:
        raise IndexError(errors.put_counts(source_array.size, index_array.size))
    size = array.size
    bad = (index_array < -size) | (index_array >= size)
    if bad.any():
        raise IndexError(errors.take_out_of_range(index_array.flat[int(np.argmax(bad))], size))
    return source, index, accumulate


def put(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """A copy of ``input`` (read as 1-D) with ``source``'s elements written at ``index``.

    ``index`` (int64, negative counting from the end) and ``source`` have the same number of
    elements; with ``accumulate=True`` they are added instead (repeated positions add up).

    Example:
        >>> import minigrad
        >>> x = minigrad.zeros(2, 2)
        >>> x.put(minigrad.tensor([0, -1]), minigrad.tensor([5.0, 7.0]))
        tensor([[5., 0.],
                [0., 7.]])
    """
    return Put.apply(input, *_put_call(input, index, source, accumulate, "put"))


def put_(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """Write (or add) ``source``'s elements at ``index`` into ``input`` read as 1-D, in place."""
    return apply_inplace(Put, input, *_put_call(input, index, source, accumulate, "put_"))


# --- index_reduce -------------------------------------------------------------------------------

_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _spread(index: np.ndarray, dim: int, shape: tuple[int, ...]) -> np.ndarray:
    """The index vector laid along ``dim`` of ``shape`` (a scatter index for source's shape)."""
    steps = [1] * max(len(shape), 1)
    steps[dim] = -1
    return np.broadcast_to(at_least_1d(index).reshape(steps), shape or (1,))


class IndexReduce(Op):
    """y = x with source's slices combined in at ``index`` along ``dim`` by ``reduce``.

    ``reduce``: prod, mean, amax or amin; x's own values count unless ``include_self`` is
    False. Forward and gradient are scatter_reduce's with the index spread over the source's
    shape. Saves x, the source, the index and the result (PyTorch's IndexReduceBackward0).
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    result_layout = staticmethod(contiguous_result)  # (PyTorch allocates it row-major)

    num_inputs = 2
    fields = ("dim", "reduce", "include_self")  # (dim as given: PyTorch's node shows it so)
    saves = ("self", "source", "index", "result")
    saved_options = {"dim": as_given("dim"), "reduce": "reduce", "include_self": "include_self"}

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        source: np.ndarray,
        dim: int,
        index: np.ndarray,
        reduce: str,
        include_self: bool,
    ) -> np.ndarray:
        axis = dim % max(x.ndim, 1)
        spread = _spread(index, axis, at_least_1d(source).shape)
        y = scatter_reduce_values(
            at_least_1d(x), at_least_1d(source), axis, spread, reduce, include_self
        ).reshape(x.shape)
        ctx.save_for_backward(x, source, index, y)
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None, None]:
        x, source, index, result = ctx.saved_tensors
        shape = np.shape(x)
        if not shape:  # (a 0-d tensor counts as a 1-element vector, as in forward)
            grad, x, source, result = (np.reshape(v, (1,)) for v in (grad, x, source, result))
        axis = ctx.dim % max(len(shape), 1)
        spread = _spread(raw(index), axis, np.shape(source))
        dx, dsource = scatter_reduce_gradients(
            grad, x, source, axis, spread, result, ctx.reduce, ctx.include_self
        )
        if not ctx.include_self:  # (the reached slices of x did not count)
            dx = run(IndexFill, dx, axis, raw(index), 0)
        if not shape:
            dx, dsource = np.reshape(dx, ()), np.reshape(dsource, np.shape(ctx.saved_tensors[1]))
        return dx, dsource, None, None, None, None


def _index_reduce_call(
    input: Any, dim: int, index: Any, source: Any, reduce: str, include_self: bool
) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of IndexReduce, in PyTorch's order."""
    _arguments.check_value(include_self, "bool", "index_reduce", "include_self")
    warn_once(errors.INDEX_REDUCE_BETA, stacklevel=4)  # (the caller of index_reduce)
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError(errors.index_reduce_mode(reduce))
    array = operand(input)
    axis = index_checks(array, dim, index, source, "index_reduce", bounds=False)
    index_array = operand(index)
    size = at_least_1d(array).shape[axis]
    if ((index_array < 0) | (index_array >= size)).any():
        raise IndexError(errors.INDEX_OUT_OF_RANGE)
    return source, dim, index, reduce, include_self  # (dim as given: the node shows it so)


def index_reduce(
    input: Any, dim: int, index: Any, source: Any, reduce: str, *, include_self: bool = True
) -> Any:
    """A copy of ``input`` with ``source``'s slices combined in at ``index`` along ``dim``.

    ``reduce``: 'prod', 'mean', 'amax' or 'amin'. Slice ``i`` of ``source`` goes to slice
    ``index[i]``; with ``include_self=False`` the reached slices start from ``source`` alone.
    (PyTorch marks it beta and warns once.)

    Example:
        >>> import warnings, minigrad
        >>> x = minigrad.ones(3)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     x.index_reduce(0, minigrad.tensor([0, 0]), minigrad.tensor([2.0, 3.0]), "prod")
        tensor([6., 1., 1.])
    """
    args = _index_reduce_call(input, dim, index, source, reduce, include_self)
    return IndexReduce.apply(input, *args)


def index_reduce_(
    input: Any, dim: int, index: Any, source: Any, reduce: str, *, include_self: bool = True
) -> Any:
    """Combine ``source``'s slices in at ``index`` along ``dim`` by ``reduce``, in place."""
    args = _index_reduce_call(input, dim, index, source, reduce, include_self)
    return apply_inplace(IndexReduce, input, *args)
