"""Ops along an index or a mask: index_select, index_add, index_copy, index_fill, take, masked_*.

Each with its in-place form where PyTorch has one. What each op saves is PyTorch 2.13's:

- ``index_select``: the index;  ``masked_select``: its input and the mask;
- ``index_add``: the index and the source, only if the source needs a gradient;
- ``index_copy``: the index (and the source if it needs a gradient); ``index_fill``: the index;
- ``take``: input and index;  ``masked_scatter``: the mask.

Backward formulas that "write a gradient into zeros" (index_select's is an index-add) are ops of
their own (``IndexAdd``, ``MaskedScatter``) with a backward of their own, so the formulas also run
on tensors (create_graph) and second derivatives work.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, checked_value, display_name
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    along,
    broadcast_shapes,
    check_differentiable_result,
    operand,
    raw,
    run,
    times,
    wrap_dim,
)
from minigrad.ops.gather_scatter import (
    at_least_1d,
    check_index_bounds,
)
from minigrad.ops.linalg import expand_error


def index_add_call(input: Any, dim: int, index: Any, source: Any, alpha: Any) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of IndexAdd, for ``index_add`` and ``index_add_``."""
    array = operand(input)
    index_checks(array, dim, index, source, "index_add")
    return source, dim, index, _alpha_for(array, alpha)  # (dim as given: the node shows it so)


def _alpha_for(array: np.ndarray, alpha: Any) -> Any:
    check_scalar_arguments(alpha)  # (the parser's error comes first)
    # For integer tensors PyTorch converts alpha to the integer type (truncating).
    return int(alpha) if array.dtype.kind in "iub" else alpha


def index_checks(array: np.ndarray, dim: int, index: Any, source: Any, function: str,
                 bounds: bool = True) -> int:
    """``index_add``'s argument checks (PyTorch's index_func_meta_impl, in its order).

    Shared with ``index_reduce``, whose kernel checks the bounds its own way (``bounds``).
    """
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    if index_array.ndim > 1:
        raise IndexError(errors.index_not_vector(
            function, index_array.ndim, display_name(index_array.dtype), index_array.shape))
    if index_array.dtype not in (np.int32, np.int64):
        raise RuntimeError(
            errors.index_dtype_got(function, display_name(index_array.dtype)))
    source_array = operand(source)
    if source_array.dtype != array.dtype:
        raise RuntimeError(errors.index_source_dtype(
            function, display_name(array.dtype), display_name(source_array.dtype)))
    if not (axis == 0 or axis < source_array.ndim):
        raise RuntimeError(errors.index_dim_of_source(function, axis, source_array.ndim))
    count = 1 if source_array.ndim == 0 else source_array.shape[axis]
    if index_array.size != count:
        raise RuntimeError(errors.index_count(function, index_array.size, count, axis))
    self_sizes, source_sizes = list(array.shape), list(source_array.shape)
    if array.ndim and source_array.ndim:
        del self_sizes[axis], source_sizes[axis]
    if self_sizes != source_sizes:
        raise RuntimeError(errors.index_source_shape(array.shape, source_array.shape))
    if bounds:
        check_index_bounds(index_array, at_least_1d(array).shape[axis], axis)
    return axis


class IndexCopy(Op):
    """y = x with src's slices written at ``index`` along ``dim``.

    dx = grad with those slices zeroed;  dsrc = grad's slices at ``index``.  Saves the index,
    and src if it needs a gradient (PyTorch's IndexCopyBackward0).
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim", "source_dim")  # (dim as given: PyTorch's node shows it so)
    saves = ("index", "source")
    saved_options = {"dim": as_given("dim"), "source_dim": "source_dim"}

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index, src if ctx.needs_input_grad[1] else None)
        ctx.dim, ctx.source_dim = dim, np.ndim(src)
        y = np.array(x, copy=True)
        at_least_1d(y)[along(dim % max(x.ndim, 1), at_least_1d(index))] = (
            at_least_1d(src) if x.ndim == 0 else src)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        index, src = ctx.saved_tensors
        index = raw(index)
        dx = run(IndexFill, grad, ctx.dim, index, 0) if ctx.needs_input_grad[0] else None
        dsrc = None
        if ctx.needs_input_grad[1]:
            dsrc = np.reshape(run(IndexSelect, grad, ctx.dim, index), np.shape(src))
        return dx, dsrc, None, None


def index_copy(input: Any, dim: int, index: Any, source: Any) -> Any:
    """A copy of ``input`` with ``source``'s slices written at ``index`` (int64) along ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(3).index_copy(0, minigrad.tensor([2]), minigrad.tensor([5.0]))
        tensor([0., 0., 5.])
    """
    return IndexCopy.apply(input, *index_copy_call(input, dim, index, source))


def index_copy_(input: Any, dim: int, index: Any, source: Any) -> Any:
    """Write ``source``'s slices at ``index`` along ``dim``, in place."""
    return apply_inplace(IndexCopy, input, *index_copy_call(input, dim, index, source))


def index_copy_call(input: Any, dim: int, index: Any, source: Any) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of IndexCopy (``index_copy``, ``index_copy_``)."""
    array, index_array, source_array = operand(input), operand(index), operand(source)
    axis = wrap_dim(dim, array.ndim)
    if index_array.ndim > 1:
        raise IndexError(errors.index_copy_index_dims(index_array.ndim))
    count = index_array.size
    if source_array.ndim == 0 and count != 1:
        raise IndexError(errors.index_copy_scalar_source(count))
    if source_array.ndim != array.ndim and source_array.ndim and array.ndim:
        raise IndexError(errors.index_copy_dims(source_array.ndim, array.ndim))
    if index_array.dtype != np.int64:
        raise RuntimeError(
            errors.long_index_expected("index_copy_", display_name(index_array.dtype)))
    if source_array.dtype != array.dtype:
        raise RuntimeError(
            errors.index_copy_dtypes(display_name(array.dtype), display_name(source_array.dtype)))
    self_slice = [n for d, n in enumerate(array.shape) if d != axis]
    source_slice = [n for d, n in enumerate(source_array.shape) if d != axis]
    if self_slice != source_slice:
        raise RuntimeError(errors.index_copy_slices(self_slice, axis, source_slice))
    if source_array.ndim and count != source_array.shape[axis]:
        raise IndexError(errors.index_copy_count(count, source_array.shape[axis]))
    size = at_least_1d(array).shape[axis]
    bad = (index_array < 0) | (index_array >= size)
    if bad.any():
        value = index_array.flat[int(np.argmax(bad))]
        raise IndexError(errors.index_copy_out_of_bounds(value, axis, size))
    return source, dim, index  # (dim as given: the node shows it so)


class IndexFill(Op):
    """y = x with the slices at ``index`` along ``dim`` set to ``value`` (a number).

    dx = grad with those slices zeroed.  Saves the index.
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saves = "index"
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        value = checked_value(value, x.dtype)
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        # (negative indices count back)
        at_least_1d(y)[along(dim % max(x.ndim, 1), at_least_1d(index))] = value
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (index,) = ctx.saved_tensors
        return run(IndexFill, grad, ctx.dim, raw(index), 0), None, None, None


def index_fill_call(input: Any, dim: int, index: Any, value: Any) -> tuple[type[Op], tuple]:
    """The checked op and arguments (after ``input``), for ``index_fill`` and ``index_fill_``."""
    array, index_array = operand(input), operand(index)
    axis = wrap_dim(dim, array.ndim)
    if index_array.dtype != np.int64:
        raise IndexError(errors.INDEX_FILL_DTYPE)
    if index_array.ndim > 1:
        raise RuntimeError(errors.INDEX_NOT_VECTOR_OR_SCALAR)
    if isinstance(value, TensorBase) and value._array.ndim:
        raise RuntimeError(errors.index_fill_value_dims(value._array.ndim))
    size = at_least_1d(array).shape[axis]
    bad = (index_array < -size) | (index_array >= size)
    if bad.any():
        value_at = index_array.flat[int(np.argmax(bad))]
        raise IndexError(errors.index_out_of_bounds(value_at, axis, size))
    # (dim as given: the nodes show it so)
    if isinstance(value, TensorBase):
        return IndexFillTensor, (value, dim, index)
    return IndexFill, (dim, index, value.item() if isinstance(value, np.generic) else value)


class IndexFillTensor(Op):
    """y = x with the slices at ``index`` along ``dim`` set to the 0-d tensor ``value``.

    dx = grad with those slices zeroed;  dvalue = the sum of grad over them (each index once).
    Saves the index.
    """

    node_name = "IndexFillBackward1"
    num_inputs = 2
    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saves = "index"
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        return IndexFill.forward(ctx, x, dim, index, value)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        (index,) = ctx.saved_tensors
        index = raw(index)
        dx = run(IndexFill, grad, ctx.dim, index, 0) if ctx.needs_input_grad[0] else None
        dvalue = None
        if ctx.needs_input_grad[1]:
            size = at_least_1d(np.zeros(np.shape(grad), dtype=bool)).shape[ctx.dim]
            filled = run(IndexSelect, grad, ctx.dim, np.unique(at_least_1d(index) % size))
            dvalue = np.sum(filled)
        return dx, dvalue, None, None


def index_fill(input: Any, dim: int, index: Any, value: Any) -> Any:
    """A copy of ``input`` with the slices at ``index`` (int64) along ``dim`` set to ``value``.

    ``value`` is a number or a 0-d tensor (which then gets a gradient too).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 2).index_fill(1, minigrad.tensor([0]), 7.0)
        tensor([[7., 0.],
                [7., 0.]])
    """
    op, args = index_fill_call(input, dim, index, value)
    check_differentiable_result(operand(input).dtype, value)
    return op.apply(input, *args)


def index_fill_(input: Any, dim: int, index: Any, value: Any) -> Any:
    """Set the slices at ``index`` along ``dim`` to ``value``, in place."""
    op, args = index_fill_call(input, dim, index, value)
    return apply_inplace(op, input, *args)


def _masked_scatter_checks(input: Any, mask: Any, source: Any) -> None:
    array, mask_array, source_array = operand(input), operand(mask), operand(source)
    # (PyTorch's expands mask and input together first, then scatters in place: its checks)
    shape = broadcast_shapes(mask_array.shape, array.shape)
    if mask_array.dtype != np.bool_:
        raise RuntimeError(errors.masked_scatter_mask_dtype(display_name(mask_array.dtype)))
    if source_array.dtype != array.dtype:
        raise RuntimeError(errors.masked_scatter_dtypes(
            display_name(array.dtype), display_name(source_array.dtype)))
    if int(np.broadcast_to(mask_array, shape).sum()) > source_array.size:
        raise RuntimeError(errors.MASKED_SCATTER_SOURCE_TOO_SMALL)


class Take(Op):
    """y = x's elements at ``index`` (into x flattened; negative counts from the end).

    dx = grad added back at those positions (repeated ones accumulate).  Saves x and the index.
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ()
    saves = ("self", "index")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, index)
        return x.reshape(-1)[index]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, index = ctx.saved_tensors
        shape = np.shape(x)
        size = raw(x).size
        flat_index = raw(index).reshape(-1) % max(size, 1)
        zeros = np.zeros(size, dtype=raw(grad).dtype)
        flat = run(IndexAdd, zeros, np.reshape(grad, (-1,)), 0, flat_index)
        return np.reshape(flat, shape), None


def take(input: Any, index: Any) -> Any:
    """The elements of ``input`` (read as 1-D) at ``index`` (int64), in ``index``'s shape.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).take(minigrad.tensor([0, 3, -1]))
        tensor([1., 4., 4.])
    """
    array, index_array = operand(input), operand(index)
    if index_array.dtype != np.int64:
        raise RuntimeError(errors.long_index_expected("take", display_name(index_array.dtype)))
    size = array.size
    bad = (index_array < -size) | (index_array >= size)
    if bad.any():
        value = index_array.flat[int(np.argmax(bad))]
        raise IndexError(errors.take_out_of_range(value, size))
    return Take.apply(input, index)


class IndexSelect(Op):
    """y = x's slices at ``index`` along ``dim``;  dx = grad index-added at ``index``.

    Saves the index (only its values matter for the gradient).
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ("dim", "shape")  # (dim as given: PyTorch's node shows it so)
    saves = "index"
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim, ctx.shape = dim, x.shape
        result = np.take(at_least_1d(x), at_least_1d(index), axis=dim)
        return result.reshape(()) if x.ndim == 0 else result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (index,) = ctx.saved_tensors
        zeros = np.zeros(ctx.shape, dtype=raw(grad).dtype)
        return run(IndexAdd, zeros, grad, ctx.dim, raw(index)), None, None


def index_select(input: Any, dim: int, index: Any) -> Any:
    """The slices of ``input`` at the positions ``index`` (a vector) along ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([5.0, 6.0, 7.0]).index_select(0, minigrad.tensor([2, 0, 2]))
        tensor([7., 5., 7.])
    """
    array = operand(input)
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    if index_array.ndim > 1:
        raise IndexError(errors.INDEX_SELECT_NOT_VECTOR)
    if index_array.dtype not in (np.int32, np.int64):
        raise RuntimeError(errors.INDEX_SELECT_DTYPE)
    size = at_least_1d(array).shape[axis]
    bad = (index_array < 0) | (index_array >= size)
    if bad.any():
        if array.ndim > 1 and axis == 1:  # PyTorch's own kernel for dim 1 says it its way
            first = int(index_array.reshape(-1)[np.argmax(bad.reshape(-1))])
            raise RuntimeError(errors.index_select_dim1_out_of_bounds(first, size))
        raise IndexError(errors.INDEX_OUT_OF_RANGE)
    return IndexSelect.apply(input, dim, index)  # (dim as given: the node shows it so)


class IndexAdd(Op):
    """y = x with alpha * src's slices added at ``index`` along ``dim``.

    dx = grad,  dsrc = alpha * grad's slices at ``index``.  Saves the index and src only if src
    needs a gradient (PyTorch's IndexAddBackward0): otherwise writing either later is legal.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim", "alpha", "source_dim")  # (dim as given: PyTorch's node shows it so)
    saves = ("index", "source")
    saved_options = {"dim": as_given("dim"), "alpha": "alpha", "source_dim": "source_dim"}

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray,
                alpha: Any = 1) -> np.ndarray:
        if ctx.needs_input_grad[1]:
            ctx.save_for_backward(index, src)
        # (``alpha`` is a declared option with a default: recording notes it, Function.fields)
        ctx.dim, ctx.source_dim = dim, np.ndim(src)
        y = np.array(x, copy=True)
        scaled = times(src, alpha)
        np.add.at(at_least_1d(y), along(dim % max(x.ndim, 1), at_least_1d(index)),
                  at_least_1d(scaled) if x.ndim == 0 else scaled)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None]:
        dsrc = None
        if ctx.needs_input_grad[1]:
            index, src = ctx.saved_tensors
            dsrc = np.reshape(run(IndexSelect, grad, ctx.dim, raw(index)), np.shape(src))
            if ctx.alpha != 1:
                dsrc = dsrc * ctx.alpha
        return grad, dsrc, None, None, None


def index_add(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
    """A copy of ``input`` with ``alpha * source``'s slices added at ``index`` along ``dim``.

    Repeated indices accumulate. ``index`` is a vector (int64 or int32) with one entry per
    slice of ``source`` along ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(3, 2).index_add(0, minigrad.tensor([0, 0]), minigrad.ones(2, 2))
        tensor([[2., 2.],
                [0., 0.],
                [0., 0.]])
    """
    return IndexAdd.apply(input, *index_add_call(input, dim, index, source, alpha))


def index_add_(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
    """Add ``alpha * source``'s slices at ``index`` along ``dim``, in place."""
    return apply_inplace(IndexAdd, input, *index_add_call(input, dim, index, source, alpha))


class MaskedSelect(Op):
    """y = the elements of x where ``mask`` is True, as a vector (both broadcast first).

    dx = grad written back at the mask's positions (0 elsewhere), summed over broadcasting.
    Saves its input and the mask (PyTorch's MaskedSelectBackward0 keeps both).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    tensor_options = True  # an index or target tensor among the options

    saves = ("self", "mask")
    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, mask)
        shape = np.broadcast_shapes(x.shape, mask.shape)
        return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, mask = ctx.saved_tensors
        shape = np.broadcast_shapes(np.shape(x), np.shape(mask))
        zeros = np.zeros(shape, dtype=raw(grad).dtype)
        return run(MaskedScatter, zeros, grad, raw(mask)), None


def masked_select(input: Any, mask: Any) -> Any:
    """The elements of ``input`` where the bool ``mask`` is True, as a 1-D tensor.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, -2.0, 3.0])
        >>> x.masked_select(x > 0)
        tensor([1., 3.])
    """
    array, mask_array = operand(input), operand(mask)
    if mask_array.dtype != np.bool_:
        raise RuntimeError(errors.MASKED_SELECT_MASK_DTYPE)
    broadcast_shapes(mask_array.shape, array.shape)
    return MaskedSelect.apply(input, mask)


class MaskedScatter(Op):
    """y = x with ``mask``'s positions filled, in order, from ``source``'s elements.

    dx = grad, 0 at the mask's positions;  dsource = grad at the mask's positions (0 for the
    source elements not used).  Saves the mask.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("source_shape",)
    saves = "mask"
    saved_options = {"source_sym_sizes": "source_shape"}

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, source: np.ndarray, mask: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(mask)
        ctx.source_shape = source.shape
        shape = np.broadcast_shapes(x.shape, mask.shape)
        y = np.array(np.broadcast_to(x, shape), copy=True)
        full_mask = np.broadcast_to(mask, shape)
        y[full_mask] = source.reshape(-1)[: int(full_mask.sum())]
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        (mask,) = ctx.saved_tensors
        mask = raw(mask)
        dx = np.where(mask, 0, grad) if ctx.needs_input_grad[0] else None
        dsource = None
        if ctx.needs_input_grad[1]:
            dsource = run(MaskedSelect, grad, mask)
            missing = int(np.prod(ctx.source_shape)) - int(np.shape(dsource)[0])
            if missing:
                padding = np.zeros(missing, dtype=raw(grad).dtype)
                dsource = np.concatenate([dsource, padding])
            dsource = np.reshape(dsource, ctx.source_shape)
        return dx, dsource, None


def masked_scatter(input: Any, mask: Any, source: Any) -> Any:
    """A copy of ``input`` with the positions where ``mask`` is True filled from ``source``.

    ``source``'s elements are taken in order; ``input`` and ``mask`` broadcast together.

    Example:
        >>> import minigrad
        >>> x = minigrad.zeros(4)
        >>> x.masked_scatter(minigrad.tensor([True, False, True, False]), minigrad.ones(4))
        tensor([1., 0., 1., 0.])
    """
    _masked_scatter_checks(input, mask, source)
    return MaskedScatter.apply(input, source, mask)


def masked_scatter_(input: Any, mask: Any, source: Any) -> Any:
    """Fill the positions where ``mask`` is True from ``source``, in place.

    The mask must broadcast to ``input``'s own shape.
    """
    error = expand_error(operand(mask), operand(input).shape)
    if error is not None:
        raise error
    _masked_scatter_checks(input, mask, source)
    return apply_inplace(MaskedScatter, input, source, mask)
