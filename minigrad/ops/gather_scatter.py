"""Gather and scatter: gather, scatter, scatter_add, scatter_reduce, take_along_dim.

What each op saves is what PyTorch 2.13 saves: gather saves its input *and* the index; scatter
and scatter_add only the index; scatter_reduce everything (input, source, index and result);
``scatter(..., reduce=)`` nothing (no derivative: backward raises, as PyTorch's).

Gather's backward "writes a gradient into zeros" (a scatter-add): that step is an op of its own
(``ScatterAdd``) with a backward of its own, so the formula also runs on tensors and second
derivatives work (``run`` picks the array or the recorded path).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import check_scalar_arguments, display_name
from minigrad._warnings import warn_once
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given, constant
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import views
from minigrad.ops._helpers import (
    NOT_IMPLEMENTED,
    broadcast_shapes,
    is_tensor,
    operand,
    raw,
    run,
    wrap_dim,
)


class Gather(Op):
    """y[p] = x[p with p[dim] replaced by index[p]];  dx = grad scatter-added at ``index``.

    Saves its input and the index, as PyTorch does (GatherBackward0 keeps ``self``): writing
    either in place before backward raises.
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saves = ("self", "index")
    saved_options = {"dim": as_given("dim"), "sparse_grad": constant(False)}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, index)
        ctx.dim = dim
        return at_least_1d(x)[_fancy(at_least_1d(index), dim)].reshape(index.shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, index = ctx.saved_tensors
        zeros = np.zeros(np.shape(x), dtype=raw(grad).dtype)
        return run(ScatterAdd, zeros, grad, ctx.dim, raw(index)), None, None


def gather(input: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    """``out[i][j] = input[index[i][j]][j]`` for ``dim=0`` (and likewise for other dims).

    ``index`` (int64 or int32) has ``input``'s number of dimensions and is no larger than it
    except along ``dim``; the result has ``index``'s shape.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.gather(1, minigrad.tensor([[1], [0]]))
        tensor([[2.],
                [3.]])
    """
    _gather_checks(operand(input), dim, index)
    return Gather.apply(input, dim, index)  # (dim as given: the node shows it so)


def _gather_checks(array: np.ndarray, dim: int, index: Any) -> tuple[int, np.ndarray]:
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    _check_index_dtype(index_array, "gather")
    if max(index_array.ndim, 1) != max(array.ndim, 1):
        raise RuntimeError(errors.index_dims_mismatch("input"))
    for d in range(index_array.ndim):
        if d != axis and index_array.shape[d] > array.shape[d]:
            raise RuntimeError(
                errors.gather_index_too_large(d, index_array.shape, array.shape, axis))
    check_index_bounds(index_array, at_least_1d(array).shape[axis], axis)
    return axis, index_array


class ScatterSrc(Op):
    """y = x with src's values written (``Scatter``) or added (``ScatterAdd``) at ``index``.

    Along ``dim``; src's leading block of index's shape is used.  Saves the index.
    """

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saves = "index"
    saved_options = {"dim": as_given("dim")}

    num_inputs = 2
    accumulate: ClassVar[bool]  # scatter_add: duplicates in index add up

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, src: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        flat_index = at_least_1d(index)
        places = _fancy(flat_index, dim)
        values = at_least_1d(src)[_leading(flat_index.shape)]
        if cls.accumulate:
            np.add.at(at_least_1d(y), places, values)
        else:
            at_least_1d(y)[places] = values
        return y


class ScatterAdd(ScatterSrc):
    """y = x with src added at ``index`` along ``dim``;  dx = grad,  dsrc = gather(grad, index).

    Saves the index.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    accumulate = True

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        (index,) = ctx.saved_tensors
        dsrc = run(Gather, grad, ctx.dim, raw(index)) if ctx.needs_input_grad[1] else None
        return grad, dsrc, None, None


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:
    """A copy of ``input`` with ``src`` added at ``index`` (duplicates accumulate).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2).scatter_add(0, minigrad.tensor([1, 1]), minigrad.ones(2))
        tensor([0., 2.])
    """
    _scatter_checks(operand(input), dim, index, src, "scatter_add")
    return ScatterAdd.apply(input, src, dim, index)


def scatter_add_(input: Any, dim: int, index: Any, src: Any) -> Any:
    """Add ``src`` at ``index`` along ``dim``, in place."""
    _scatter_checks(input._array, dim, index, src, "scatter_add")
    return apply_inplace(ScatterAdd, input, src, dim, index)


def _scatter_checks(array: np.ndarray, dim: int, index: Any, src: Any, name: str) -> None:
    axis = _scatter_shape_checks(array, dim, index, src)
    check_index_bounds(operand(index), at_least_1d(array).shape[axis], axis)


def _scatter_shape_checks(array: np.ndarray, dim: int, index: Any, src: Any) -> int:
    """The checks of scatter's dtypes and shapes (PyTorch's meta function; bounds come later)."""
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    _check_index_dtype(index_array, "scatter")
    src_array = operand(src) if isinstance(src, TensorBase) else None
    if src_array is not None and src_array.dtype != array.dtype:
        raise RuntimeError(errors.SCATTER_DTYPES)
    if max(index_array.ndim, 1) != max(array.ndim, 1):
        raise RuntimeError(errors.index_dims_mismatch("self"))
    if src_array is not None and max(src_array.ndim, 1) != max(index_array.ndim, 1):
        if src_array.ndim < index_array.ndim:  # PyTorch reads src's size at each index dim
            wrap_dim(src_array.ndim, src_array.ndim)  # first: IndexError past src's last
        raise RuntimeError(errors.index_dims_mismatch("src"))
    for d in range(index_array.ndim):
        too_big_for_self = d != axis and index_array.shape[d] > array.shape[d]
        too_big_for_src = src_array is not None and index_array.shape[d] > src_array.shape[d]
        if too_big_for_self or too_big_for_src:
            src_shape = None if src_array is None else src_array.shape
            raise RuntimeError(
                errors.scatter_index_too_large(index_array.shape, array.shape, axis, src_shape))
    return axis


class Scatter(ScatterSrc):
    """y = x with src's values written at ``index`` along ``dim``.  Saves the index.

    dx = grad, 0 where written;  dsrc = grad gathered at ``index``.
    """

    accumulate = False

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        (index,) = ctx.saved_tensors
        index = raw(index)
        dx = dsrc = None
        if ctx.needs_input_grad[0]:
            dx = np.where(_written_mask(np.shape(grad), ctx.dim, index), grad, 0)
        if ctx.needs_input_grad[1]:
            dsrc = run(Gather, grad, ctx.dim, index)
        return dx, dsrc, None, None


class ScatterValue(Op):
    """y = x with ``value`` written at ``index`` along ``dim``;  dx = grad, 0 where written.

    Saves the index.
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saves = "index"
    saved_options = {"dim": as_given("dim")}

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        at_least_1d(y)[_fancy(at_least_1d(index), dim)] = value
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (index,) = ctx.saved_tensors
        mask = _written_mask(np.shape(grad), ctx.dim, raw(index))
        return np.where(mask, grad, 0), None, None, None


def _check_index_dtype(index: np.ndarray, name: str) -> None:
    if index.dtype not in (np.int32, np.int64):
        raise RuntimeError(errors.index_dtype(name))


def check_index_bounds(index: np.ndarray, size: int, dim: int) -> None:
    """PyTorch's error for an index outside ``[0, size)`` along ``dim``."""
    bad = (index < 0) | (index >= size)
    if bad.any():
        value = index.flat[int(np.argmax(bad))]
        raise RuntimeError(errors.index_out_of_bounds(value, dim, size))


def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> Any:
    """Values of ``input`` at ``indices`` along ``dim`` (numpy's ``take_along_axis``).

    The two are broadcast against each other except along ``dim``; without ``dim`` both are
    flattened. Recorded as PyTorch does: ``expand`` (or ``view``) then ``gather``.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[10.0, 30.0, 20.0]])
        >>> minigrad.take_along_dim(x, x.argsort(dim=1), dim=1)
        tensor([[10., 20., 30.]])
    """
    if dim is None:
        return gather(views.view(input, -1), 0, views.view(indices, -1))
    array, index_array = operand(input), operand(indices)
    if array.ndim != index_array.ndim:
        raise RuntimeError(errors.take_along_dim_dims(array.ndim, index_array.ndim))
    if index_array.dtype != np.int64:
        raise RuntimeError(errors.take_along_dim_dtype(display_name(index_array.dtype)))
    axis = wrap_dim(dim, array.ndim)
    self_sizes = list(array.shape)
    if array.ndim:
        self_sizes[axis] = index_array.shape[axis]
    index_shape = broadcast_shapes(self_sizes, index_array.shape)
    index_sizes = list(index_array.shape)
    if array.ndim:
        index_sizes[axis] = array.shape[axis]
    input_shape = broadcast_shapes(index_sizes, array.shape)
    # PyTorch 2.13 gathers with a broadcast *copy* of the indices, wrapped into the dimension
    # (the remainder by its size: 3 is 0 and -4 is 2 in a size 3): writing the caller's indices
    # after the call does not make backward raise (writing the input does).
    wrapped = np.array(np.broadcast_to(index_array, index_shape))
    if array.ndim == 0:  # (PyTorch asks a 0-d input for its size along dim)
        raise IndexError(errors.dim_of_0d(dim))
    if wrapped.size:
        if array.shape[axis] == 0:
            raise RuntimeError(errors.INTEGER_DIVISION_BY_ZERO)
        np.remainder(wrapped, array.shape[axis], out=wrapped)
    index_copy = TensorBase.output_class._make(wrapped)
    return gather(views.expand(input, input_shape), axis, index_copy)  # (PyTorch: normalised)


def at_least_1d(array: np.ndarray) -> np.ndarray:
    """``array``, a 0-d one as a 1-element vector."""
    # gather/scatter treat a 0-d tensor as a 1-element vector (PyTorch's ensure_nonempty_dim).
    return array.reshape(1) if array.ndim == 0 else array


def _fancy(index: np.ndarray, dim: int) -> tuple[Any, ...]:
    """Gather's and scatter's addressing, as a numpy advanced index.

    For each position p of ``index`` it picks the element at p with p[dim] replaced by index[p].
    """
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


def _leading(shape: tuple[int, ...]) -> tuple[slice, ...]:
    # scatter reads only the first index.shape elements of src along every dimension.
    return tuple(slice(0, n) for n in shape)


def _written_mask(shape: tuple[int, ...], dim: int, index: np.ndarray) -> np.ndarray:
    """True where scatter left x's value, False where it wrote."""
    keep = np.ones(shape, dtype=bool)
    flat_index = at_least_1d(index)
    at_least_1d(keep)[_fancy(flat_index, dim)] = False
    return keep


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


class ScatterReduce(Op):
    """y = x with src combined in at ``index`` along ``dim`` by ``reduce``.

    ``reduce``: sum, prod, mean, amax, amin; x's own values count unless ``include_self`` is
    False. The gradient is PyTorch's scatter_reduce_backward: sum and mean share grad evenly; prod
    divides the product by each factor (zeros handled apart); amax and amin split it evenly
    among the elements equal to the result. Saves x, src, the index and the result.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim", "reduce", "include_self")  # (dim as given: PyTorch's node shows it so)
    saves = ("self", "src", "index", "result")
    saved_options = {"dim": as_given("dim"), "reduce": "reduce", "include_self": "include_self"}

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray,
                reduce: str, include_self: bool) -> np.ndarray:
        y = scatter_reduce_values(x, src, dim, index, reduce, include_self)
        ctx.save_for_backward(x, src, index, y)
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None, None]:
        x, src, index, result = ctx.saved_tensors
        dx, dsrc = scatter_reduce_gradients(grad, x, src, ctx.dim, raw(index), result,
                                            ctx.reduce, ctx.include_self)
        if not ctx.include_self:
            dx = run(ScatterValue, dx, ctx.dim, raw(index), 0)
        return dx, dsrc, None, None, None, None


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


def scatter_reduce_(input: Any, dim: int, index: Any, src: Any, reduce: str, *,
                    include_self: bool = True) -> Any:
    """Combine ``src`` in at ``index`` along ``dim`` by ``reduce``, in place."""
    args = scatter_reduce_call(input, dim, index, src, reduce, include_self)
    return apply_inplace(ScatterReduce, input, *args)


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
        raise RuntimeError(errors.SCATTER_PROD_DOUBLE_BACKWARD)


DoubleBackwardUnsupported._Node.name = lambda node: "torch::autograd::Error"  # type: ignore[method-assign]


def scatter_reduce_call(input: Any, dim: int, index: Any, src: Any, reduce: str,
                        include_self: bool) -> tuple[Any, ...]:
    """The checked arguments (after ``input``) of ScatterReduce (function and in place)."""
    array = operand(input)
    axis = _scatter_shape_checks(array, dim, index, src)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(errors.scatter_reduce_argument(reduce))
    check_index_bounds(operand(index), at_least_1d(array).shape[axis], axis)
    return src, dim, index, reduce, include_self


class ScatterReduceLegacy(Op):
    """``scatter(..., reduce='add' | 'multiply')``: src (a tensor or a number) combined in.

    PyTorch has no derivative for it: its node is ``torch::autograd::NotImplemented`` and
    backward raises. Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    node_name = NOT_IMPLEMENTED
    num_inputs = 2
    aten_name = "aten::scatter"
    fields = ()

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: Any, dim: int, index: np.ndarray,
                reduce: str) -> np.ndarray:
        y = np.array(x, copy=True)
        flat_index = at_least_1d(index)
        # (a number is cast to x's dtype first: 2.5 multiplies an integer tensor by 2)
        values = (at_least_1d(src)[_leading(flat_index.shape)] if np.ndim(src)
                  else np.asarray(src).astype(x.dtype))
        ufunc = np.add if reduce == "add" else np.multiply
        ufunc.at(at_least_1d(y), _fancy(flat_index, dim), values)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented(ctx._function.aten_name))


class ScatterReduceLegacyInplace(ScatterReduceLegacy):
    """``scatter_(..., reduce=)``: PyTorch's message names the in-place op."""

    node_name = NOT_IMPLEMENTED
    aten_name = "aten::scatter_"


def scatter_call(input: Any, dim: int, index: Any, src: Any, value: Any, reduce: Any,
                 inplace: bool = False) -> tuple[type[Op], tuple[Any, ...]]:
    """The checked op and arguments (after ``input``) for ``scatter`` and ``Tensor.scatter_``.

    ``reduce`` is ``_arguments.NOT_GIVEN`` when omitted: PyTorch refuses an explicit None.
    """
    name = "scatter_" if inplace else "scatter"
    _arguments.check_tensor(input, name, "input", 1)
    _arguments.check_tensor(index, name, "index", 2)
    if reduce is _arguments.NOT_GIVEN:
        reduce = None
    else:
        _arguments.check_value(reduce, "str", name, "reduce", 4)
    if src is None:
        src = value
    if not isinstance(src, (TensorBase, bool, int, float, np.number)):
        raise TypeError(errors.scatter_src_type(name, errors.python_type_name(src)))
    check_scalar_arguments(src)  # (the parser's error comes first)
    array = operand(input)
    axis = _scatter_shape_checks(array, dim, index, src)
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError(errors.SCATTER_LEGACY_REDUCE)
    check_index_bounds(operand(index), at_least_1d(array).shape[axis], axis)
    if isinstance(src, np.generic):
        src = src.item()
    if reduce is not None:
        if isinstance(src, TensorBase):
            warn_once(errors.SCATTER_REDUCE_DEPRECATED, stacklevel=3)  # (the caller of scatter)
        op = ScatterReduceLegacyInplace if inplace else ScatterReduceLegacy
        return op, (src, dim, index, reduce)
    # (dim as given: the nodes show it so)
    if isinstance(src, TensorBase):
        return Scatter, (src, dim, index)
    return ScatterValue, (dim, index, src)


def scatter(input: Any, dim: int, index: Any, src: Any = None, *, value: Any = None,
            reduce: Any = _arguments.NOT_GIVEN) -> Any:
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


def scatter_(input: Any, dim: int, index: Any, src: Any = None, *, value: Any = None,
             reduce: str | None = None) -> Any:
    """Write ``src`` (a tensor or a number) at ``index`` along ``dim``, in place."""
    op, args = scatter_call(input, dim, index, src, value, reduce, inplace=True)
    return apply_inplace(op, input, *args)


def scatter_reduce_values(x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray, reduce: str,
                    include_self: bool) -> np.ndarray:
    """``x`` with ``src`` combined in at ``index`` along ``dim`` by ``reduce``."""
    y = np.array(x, copy=True)
    flat_y, flat_index = at_least_1d(y), at_least_1d(index)
    key = _fancy(flat_index, dim)
    values = at_least_1d(src)[_leading(flat_index.shape)]
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


def scatter_reduce_gradients(grad: Any, x: Any, src: Any, dim: int, index: np.ndarray,
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
    raise RuntimeError(errors.scatter_reduce_backward_mode(reduce))


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
    if is_tensor(src) and (zeros_there > 1).any():  # under create_graph
        # PyTorch's DelayedError: the first gradient is fine, differentiating it raises.
        dsrc = DoubleBackwardUnsupported.apply(dsrc)
    return dx, dsrc


def _padded(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``mask`` (index-shaped) padded with False to ``shape`` (src may be larger)."""
    full = np.zeros(shape, dtype=bool)
    full[_leading(mask.shape)] = mask
    return full
