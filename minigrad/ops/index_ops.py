"""Writing at indices: index_add, index_copy, index_fill, scatter, scatter_reduce, and take.

Also ``masked_scatter`` and ``scatter(..., reduce=)``; each with its in-place form. The ops
that only gather or add (IndexAdd, Gather, ScatterAdd, IndexSelect, MaskedScatter...) live in
``shape.py``; their backward formulas are reused here through ``run``, so the formulas also
run on tensors (create_graph). What each op saves is PyTorch 2.13's:

- ``index_add``: the index and the source, only if the source needs a gradient;
- ``index_copy``: the index (and the source if it needs a gradient); ``index_fill``: the index;
- ``scatter_reduce``: everything (input, source, index and result); ``take``: input and index;
- ``masked_scatter``: the mask;  ``scatter(..., reduce=)``: nothing (no derivative: backward
  raises, as PyTorch's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops._helpers import (
    not_implemented_name,
    operand,
    warn_once,
)
from minigrad.ops.linalg import _expand_error
from minigrad.ops.shape import (
    Gather,
    IndexAdd,
    IndexSelect,
    MaskedScatter,
    Scatter,
    ScatterAdd,
    ScatterValue,
    _at_least_1d,
    _broadcast_shape,
    _check_index_bounds,
    _fancy,
    _leading,
    _scatter_shape_checks,
    along,
    raw,
    run,
    wrap_dim,
)

# --- index_add, index_copy, index_fill --------------------------------------------------------


def _index_checks(array: np.ndarray, dim: int, index: Any, source: Any, function: str) -> int:
    """``index_add``'s argument checks (PyTorch's index_func_meta_impl, in its order)."""
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    if index_array.ndim > 1:
        raise IndexError(
            f"{function}_(): Index is supposed to be a vector, but got dim: {index_array.ndim} "
            f"with type: {display_name(index_array.dtype)} and size: "
            f"{errors.format_size(index_array.shape)}")
    if index_array.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{function}_(): Expected dtype int32/int64 for index but got: "
                           f"{display_name(index_array.dtype)}")
    source_array = operand(source)
    if source_array.dtype != array.dtype:
        raise RuntimeError(
            f"{function}_(): self ({display_name(array.dtype)}) and source "
            f"({display_name(source_array.dtype)}) must have the same scalar type")
    if not (axis == 0 or axis < source_array.ndim):
        raise RuntimeError(f"{function}_(): Indexing dim {axis} is out of bounds of the source "
                           f"tensor with dim {source_array.ndim}")
    count = 1 if source_array.ndim == 0 else source_array.shape[axis]
    if index_array.size != count:
        raise RuntimeError(
            f"{function}_(): Number of indices ({index_array.size}) should be equal to "
            f"source.size(dim): ({count}), for dim: {axis}")
    self_sizes, source_sizes = list(array.shape), list(source_array.shape)
    if array.ndim and source_array.ndim:
        del self_sizes[axis], source_sizes[axis]
    if self_sizes != source_sizes:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {errors.format_size(array.shape)} source.shape = "
            f"{errors.format_size(source_array.shape)}")
    _check_index_bounds(index_array, _at_least_1d(array).shape[axis], axis)
    return axis


def _alpha_for(array: np.ndarray, alpha: Any) -> Any:
    # For integer tensors PyTorch converts alpha to the integer type (truncating).
    return int(alpha) if array.dtype.kind in "iub" else alpha


def index_add_call(input: Any, dim: int, index: Any, source: Any, alpha: Any) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of IndexAdd, for ``index_add`` and ``index_add_``."""
    array = operand(input)
    axis = _index_checks(array, dim, index, source, "index_add")
    return source, axis, index, _alpha_for(array, alpha)


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


class IndexCopy(Op):
    """y = x with src's slices written at ``index`` along ``dim``.

    dx = grad with those slices zeroed;  dsrc = grad's slices at ``index``.  Saves the index,
    and src if it needs a gradient (PyTorch's IndexCopyBackward0).
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index, src if ctx.needs_input_grad[1] else None)
        ctx.dim = dim
        y = np.array(x, copy=True)
        _at_least_1d(y)[along(dim, _at_least_1d(index))] = (
            _at_least_1d(src) if x.ndim == 0 else src)
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


def index_copy_call(input: Any, dim: int, index: Any, source: Any) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of IndexCopy (``index_copy``, ``index_copy_``)."""
    array, index_array, source_array = operand(input), operand(index), operand(source)
    axis = wrap_dim(dim, array.ndim)
    if index_array.ndim > 1:
        raise IndexError(
            f"index_copy_(): Index should have dimension 1 or 0 (got {index_array.ndim})")
    count = index_array.size
    if source_array.ndim == 0 and count != 1:
        raise IndexError("index_copy_(): When source is scalar, index should have one element "
                         f"(got {count})")
    if source_array.ndim != array.ndim and source_array.ndim and array.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({source_array.ndim}), destination "
            f"dimensionality ({array.ndim})")
    if index_array.dtype != np.int64:
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{display_name(index_array.dtype)}")
    if source_array.dtype != array.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{display_name(array.dtype)} and (source) {display_name(source_array.dtype)}")
    self_slice = [n for d, n in enumerate(array.shape) if d != axis]
    source_slice = [n for d, n in enumerate(source_array.shape) if d != axis]
    if self_slice != source_slice:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. "
            f"Destination slice shape: {' '.join(map(str, self_slice))} at dimension {axis} and "
            f"source slice shape: {' '.join(map(str, source_slice))} at dimension 0.")
    if source_array.ndim and count != source_array.shape[axis]:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to "
                         f"source.size(dim) ({source_array.shape[axis]})")
    size = _at_least_1d(array).shape[axis]
    bad = (index_array < 0) | (index_array >= size)
    if bad.any():
        value = index_array.flat[int(np.argmax(bad))]
        raise IndexError(f"index_copy_(): index {value} is out of bounds for dimension {axis} "
                         f"with size {size}")
    return source, axis, index


def index_copy(input: Any, dim: int, index: Any, source: Any) -> Any:
    """A copy of ``input`` with ``source``'s slices written at ``index`` (int64) along ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(3).index_copy(0, minigrad.tensor([2]), minigrad.tensor([5.0]))
        tensor([0., 0., 5.])
    """
    return IndexCopy.apply(input, *index_copy_call(input, dim, index, source))


class IndexFill(Op):
    """y = x with the slices at ``index`` along ``dim`` set to ``value`` (a number).

    dx = grad with those slices zeroed.  Saves the index.
    """

    fields = ("dim",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        _at_least_1d(y)[along(dim, _at_least_1d(index))] = value  # (negative ones count back)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (index,) = ctx.saved_tensors
        return run(IndexFill, grad, ctx.dim, raw(index), 0), None, None, None


class IndexFillTensor(Op):
    """y = x with the slices at ``index`` along ``dim`` set to the 0-d tensor ``value``.

    dx = grad with those slices zeroed;  dvalue = the sum of grad over them (each index once).
    Saves the index.
    """

    node_name = "IndexFillBackward1"
    num_inputs = 2
    fields = ("dim",)

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
            size = _at_least_1d(np.zeros(np.shape(grad), dtype=bool)).shape[ctx.dim]
            filled = run(IndexSelect, grad, ctx.dim, np.unique(_at_least_1d(index) % size))
            dvalue = np.sum(filled)
        return dx, dvalue, None, None


def index_fill_call(input: Any, dim: int, index: Any, value: Any) -> tuple[type[Op], tuple]:
    """The checked op and arguments (after ``input``), for ``index_fill`` and ``index_fill_``."""
    array, index_array = operand(input), operand(index)
    axis = wrap_dim(dim, array.ndim)
    if index_array.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index_array.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, TensorBase) and value._array.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._array.ndim} dimension(s).")
    size = _at_least_1d(array).shape[axis]
    bad = (index_array < -size) | (index_array >= size)
    if bad.any():
        value_at = index_array.flat[int(np.argmax(bad))]
        raise IndexError(f"index {value_at} is out of bounds for dimension {axis} with size "
                         f"{size}")
    if isinstance(value, TensorBase):
        return IndexFillTensor, (value, axis, index)
    return IndexFill, (axis, index, value.item() if isinstance(value, np.generic) else value)


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
    return op.apply(input, *args)


# --- scatter with reduce, scatter_reduce ------------------------------------------------------

# scatter_reduce's reductions: numpy's accumulating ufunc and the value to start from without
# ``include_self``. 'max' and 'min' are accepted as 'amax' and 'amin' (forward only, as PyTorch).
_REDUCTIONS = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum,
               "amin": np.minimum, "max": np.maximum, "min": np.minimum}


def _identity(reduce: str, dtype: np.dtype) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    big = np.inf if dtype.kind == "f" else np.iinfo(dtype).max
    return -big if reduce in ("amax", "max") else big


def _scatter_reduce(x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray, reduce: str,
                    include_self: bool) -> np.ndarray:
    """``x`` with ``src`` combined in at ``index`` along ``dim`` by ``reduce``."""
    y = np.array(x, copy=True)
    flat_y, flat_index = _at_least_1d(y), _at_least_1d(index)
    key = _fancy(flat_index, dim)
    values = _at_least_1d(src)[_leading(flat_index.shape)]
    if not include_self:
        flat_y[key] = _identity(reduce, x.dtype)
    _REDUCTIONS[reduce].at(flat_y, key, values)
    if reduce == "mean":
        count = np.full(flat_y.shape, 1 if include_self else 0, dtype=np.int64)
        np.add.at(count, key, 1)
        count = np.maximum(count, 1)
        if y.dtype.kind == "f":
            flat_y /= count
        else:
            flat_y //= count
    return y


class ScatterReduce(Op):
    """y = x with src combined in at ``index`` along ``dim`` by ``reduce``.

    ``reduce``: sum, prod, mean, amax, amin; x's own values count unless ``include_self`` is
    False. The gradient is PyTorch's scatter_reduce_backward: sum and mean share grad evenly; prod
    divides the product by each factor (zeros handled apart); amax and amin split it evenly
    among the elements equal to the result. Saves x, src, the index and the result.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim", "reduce", "include_self")

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray,
                reduce: str, include_self: bool) -> np.ndarray:
        y = _scatter_reduce(x, src, dim, index, reduce, include_self)
        ctx.save_for_backward(x, src, index, y)
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None, None]:
        x, src, index, result = ctx.saved_tensors
        dx, dsrc = _scatter_reduce_backward(grad, x, src, ctx.dim, raw(index), result,
                                            ctx.reduce, ctx.include_self)
        if not ctx.include_self:
            dx = run(ScatterValue, dx, ctx.dim, raw(index), 0)
        return dx, dsrc, None, None, None, None


def _scatter_reduce_backward(grad: Any, x: Any, src: Any, dim: int, index: np.ndarray,
                             result: Any, reduce: str, include_self: bool) -> tuple[Any, Any]:
    """PyTorch's scatter_reduce_backward (before zeroing x's written slots)."""
    gather = lambda values: run(Gather, values, dim, index)  # noqa: E731
    dtype = raw(grad).dtype
    if reduce == "sum":
        return grad, gather(grad)
    if reduce == "mean":
        count = np.full(np.shape(grad), 1.0 if include_self else 0.0, dtype=dtype)
        count = run(ScatterAdd, count, np.ones(np.shape(index), dtype), dim, index)
        count = np.maximum(count, 1)
        return grad / count, gather(grad) / gather(count)
    if reduce == "prod":
        return _prod_backward(grad, x, src, dim, index, result, include_self)
    if reduce in ("amax", "amin"):
        value = gather(result)
        x_hit = (raw(x) == raw(result)).astype(dtype)
        src_hit = (raw(src)[_leading(index.shape)] == raw(value)).astype(dtype)
        shares = run(ScatterAdd, x_hit, src_hit, dim, index)
        spread = grad / shares
        return x_hit * spread, src_hit * gather(spread)
    raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' "
                       f"but got {reduce}.")


def _prod_backward(grad: Any, x: Any, src: Any, dim: int, index: np.ndarray, result: Any,
                   include_self: bool) -> tuple[Any, Any]:
    """The gradient of prod: the product without each factor, computed apart where factors are 0."""
    dtype = raw(grad).dtype
    masked_x = np.where(raw(x) == 0, 1, x)
    masked_x_result = run(ScatterReduce, masked_x, src, dim, index, "prod", include_self)
    dx = grad * masked_x_result / masked_x
    src_zero = raw(src)[_leading(index.shape)] == 0
    zeros = run(ScatterAdd, np.zeros(np.shape(grad), dtype), src_zero.astype(dtype), dim, index)
    zeros_there = run(Gather, zeros, dim, index)
    single_zero = src_zero & (zeros_there == 1)
    masked_src = np.where(_padded(single_zero, np.shape(src)), 1, src)
    masked_src_result = run(ScatterReduce, x, masked_src, dim, index, "prod", include_self)
    dsrc = np.where(single_zero, run(Gather, grad * masked_src_result, dim, index),
                    run(Gather, grad * result, dim, index)
                    / np.where(_padded(src_zero, np.shape(src)), 1, src)[_leading(index.shape)])
    if isinstance(src, TensorBase) and (zeros_there > 1).any():  # under create_graph
        # PyTorch's DelayedError: the first gradient is fine, differentiating it raises.
        dsrc = DoubleBackwardUnsupported.apply(dsrc)
    return dx, dsrc


def _padded(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``mask`` (index-shaped) padded with False to ``shape`` (src may be larger)."""
    full = np.zeros(shape, dtype=bool)
    full[_leading(mask.shape)] = mask
    return full


class DoubleBackwardUnsupported(Op):
    """PyTorch's DelayedError node: y = x; differentiating it raises (scatter_reduce prod).

    PyTorch names it ``torch::autograd::Error`` (printed ``grad_fn=<Error>``).
    """

    node_name = "Error"
    fields = ()

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.array(x, copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(
            "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are "
            "scattered to the same position in self")


DoubleBackwardUnsupported._Node.name = lambda node: "torch::autograd::Error"  # type: ignore[method-assign]


def scatter_reduce_call(input: Any, dim: int, index: Any, src: Any, reduce: str,
                        include_self: bool) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of ScatterReduce (function and in place)."""
    array = operand(input)
    axis = _scatter_shape_checks(array, dim, index, src)
    if reduce not in _REDUCTIONS:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    _check_index_bounds(operand(index), _at_least_1d(array).shape[axis], axis)
    return src, axis, index, reduce, include_self


def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, *,
                   include_self: bool = True) -> Any:
    """A copy of ``input`` with ``src`` combined in at ``index`` along ``dim`` by ``reduce``.

    ``reduce``: 'sum', 'prod', 'mean', 'amax' or 'amin'. With ``include_self=False`` the
    written positions start from ``src`` alone (``input``'s value there is left out).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 1.0])
        >>> x.scatter_reduce(0, minigrad.tensor([0, 0]), minigrad.tensor([3.0, 5.0]), "amax")
        tensor([5., 1.])
    """
    return ScatterReduce.apply(input, *scatter_reduce_call(input, dim, index, src, reduce,
                                                           include_self))


class ScatterReduceLegacy(Op):
    """``scatter(..., reduce='add' | 'multiply')``: src (a tensor or a number) combined in.

    PyTorch has no derivative for it: its node is ``torch::autograd::NotImplemented`` and
    backward raises. Saves nothing.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    node_name = "NotImplemented"
    num_inputs = 2
    aten_name = "aten::scatter"
    fields = ()

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: Any, dim: int, index: np.ndarray,
                reduce: str) -> np.ndarray:
        y = np.array(x, copy=True)
        flat_index = _at_least_1d(index)
        # (a number is cast to x's dtype first: 2.5 multiplies an integer tensor by 2)
        values = (_at_least_1d(src)[_leading(flat_index.shape)] if np.ndim(src)
                  else np.asarray(src).astype(x.dtype))
        ufunc = np.add if reduce == "add" else np.multiply
        ufunc.at(_at_least_1d(y), _fancy(flat_index, dim), values)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(f"derivative for {ctx._function.aten_name} is not implemented")


class ScatterReduceLegacyInplace(ScatterReduceLegacy):
    """``scatter_(..., reduce=)``: PyTorch's message names the in-place op."""

    node_name = "NotImplemented"
    aten_name = "aten::scatter_"


for _op in (ScatterReduceLegacy, ScatterReduceLegacyInplace):
    _op._Node.name = not_implemented_name  # type: ignore[method-assign]


def scatter_call(input: Any, dim: int, index: Any, src: Any, value: Any, reduce: str | None,
                 inplace: bool = False) -> tuple[type[Op], tuple[Any, ...]]:
    """The checked op and arguments (after ``input``) for ``scatter`` and ``Tensor.scatter_``."""
    name = "scatter_" if inplace else "scatter"
    _arguments.check_tensor(index, name, "index", 2)
    if reduce is not None:
        _arguments.check_value(reduce, "str", name, "reduce", 4)
    if src is None:
        src = value
    if not isinstance(src, (TensorBase, bool, int, float, np.number)):
        raise TypeError(
            f"{name}(): argument 'src' (position 3) must be Tensor or Number, not "
            f"{errors.python_type_name(src)}"
        )
    array = operand(input)
    axis = _scatter_shape_checks(array, dim, index, src)
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    _check_index_bounds(operand(index), _at_least_1d(array).shape[axis], axis)
    if isinstance(src, np.generic):
        src = src.item()
    if reduce is not None:
        if isinstance(src, TensorBase):
            warn_once(errors.SCATTER_REDUCE_DEPRECATED)
        op = ScatterReduceLegacyInplace if inplace else ScatterReduceLegacy
        return op, (src, axis, index, reduce)
    if isinstance(src, TensorBase):
        return Scatter, (src, axis, index)
    return ScatterValue, (axis, index, src)


def scatter(input: Any, dim: int, index: Any, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Any:
    """A copy of ``input`` with ``src`` (a tensor, or a number ``value``) written at ``index``.

    For ``dim=0``: ``out[index[i][j]][j] = src[i][j]``. Duplicate indices write in an
    unspecified order (as in PyTorch). ``reduce='add'`` or ``'multiply'`` combines instead of
    writing (no gradient: PyTorch has none; prefer ``scatter_reduce``).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(3).scatter(0, minigrad.tensor([2, 0]), minigrad.tensor([5.0, 7.0]))
        tensor([7., 0., 5.])
    """
    op, args = scatter_call(input, dim, index, src, value, reduce)
    return op.apply(input, *args)


# --- masked_scatter, take ---------------------------------------------------------------------


def _masked_scatter_checks(input: Any, mask: Any, source: Any) -> None:
    array, mask_array, source_array = operand(input), operand(mask), operand(source)
    if mask_array.dtype != np.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {display_name(mask_array.dtype)}")
    if source_array.dtype != array.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{display_name(array.dtype)} and {display_name(source_array.dtype)}")
    shape = _broadcast_shape(mask_array.shape, array.shape)
    if int(np.broadcast_to(mask_array, shape).sum()) > source_array.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")


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


def masked_scatter_inplace_checks(input: Any, mask: Any, source: Any) -> None:
    """``masked_scatter_``: the mask must broadcast to ``input``'s own shape."""
    error = _expand_error(operand(mask), operand(input).shape)
    if error is not None:
        raise error
    _masked_scatter_checks(input, mask, source)


class Take(Op):
    """y = x's elements at ``index`` (into x flattened; negative counts from the end).

    dx = grad added back at those positions (repeated ones accumulate).  Saves x and the index.
    """

    fields = ()

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
        raise RuntimeError("take(): Expected a long tensor for index, but got "
                           f"{display_name(index_array.dtype)}")
    size = array.size
    bad = (index_array < -size) | (index_array >= size)
    if bad.any():
        value = index_array.flat[int(np.argmax(bad))]
        raise IndexError(f"out of range: tried to access index {value} on a tensor of {size} "
                         "elements.")
    return Take.apply(input, index)
