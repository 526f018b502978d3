"""Shape and indexing ops that copy: cat, stack, gather, scatter, index_select, sort, ...

Also masked_select, take_along_dim, repeat/tile, flip, roll, tril/triu, constant padding,
one_hot and topk.

Unlike views, every output here has its own buffer and version counter. What each op saves is
what PyTorch 2.13 saves, which decides which later in-place writes make backward raise:

- cat, stack, repeat, flip, roll, tril, triu, pad save nothing (only shapes and options);
- gather saves its input *and* the index; masked_select its input and the mask;
- scatter, scatter_add, index_select, sort and topk save only the index (sort/topk: their
  ``indices`` output).

Several backward formulas "write a gradient into zeros" (gather's is a scatter-add, index_select's
an index-add). Those steps are ops of their own here (``ScatterAdd``, ``IndexAdd``,
``MaskedScatter``...), each with a backward of its own, so the formulas also run on tensors and
second derivatives work (``run`` picks the array path or the recorded path).
"""

from __future__ import annotations

import collections
import functools
import math
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name, promote_types
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops._helpers import check_dim, normalize_dims, operand

# --- small shared helpers -------------------------------------------------------------------


def raw(value: Any) -> Any:
    """The numpy array behind a tensor (or the value itself): for masks, indices and shapes."""
    return value._array if isinstance(value, TensorBase) else value


def run(op: type[Op], *args: Any) -> Any:
    """Run ``op`` inside a backward formula, on arrays or (create_graph) on tensors.

    On arrays its forward runs directly (the fast path); when an argument is a tensor (backward
    with ``create_graph=True``) the op is applied and recorded, so it can be differentiated.
    """
    if any(isinstance(a, TensorBase) for a in args):
        return op.apply(*args)
    return op.forward(NO_GRAD_CTX, *args)


def wrap_dim(dim: int, ndim: int) -> int:
    """One ``dim`` in ``[-ndim, ndim)`` as a non-negative axis (a 0-d tensor takes 0 and -1)."""
    check_dim(dim)
    rank = max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    return dim % rank


def along(dim: int, item: Any) -> tuple[Any, ...]:
    """An index that applies ``item`` to axis ``dim`` and keeps the other axes whole."""
    return (slice(None),) * dim + (item,)


def _at_least_1d(array: np.ndarray) -> np.ndarray:
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


def _shape_text(shape: tuple[int, ...]) -> str:
    return errors.format_size(shape)


def _return_type(name: str, fields: tuple[str, ...] = ("values", "indices")) -> type:
    """A named tuple printed like ``torch.return_types.<name>`` (one field a line)."""
    base = collections.namedtuple(name, fields)  # type: ignore[misc]

    def __repr__(self: Any) -> str:  # noqa: N807 - a method of the class below
        items = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"minigrad.return_types.{name}(\n{items})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                "__module__": "minigrad.return_types"})


# The fields of each op's named tuple (linear algebra: ops/solvers.py, ops/decompositions.py).
_RESULT_FIELDS: dict[str, tuple[str, ...]] = {
    "max": ("values", "indices"),
    "min": ("values", "indices"),
    "sort": ("values", "indices"),
    "topk": ("values", "indices"),
    "slogdet": ("sign", "logabsdet"),
    "linalg_slogdet": ("sign", "logabsdet"),
    "linalg_inv_ex": ("inverse", "info"),
    "linalg_cholesky_ex": ("L", "info"),
    "qr": ("Q", "R"),
    "linalg_qr": ("Q", "R"),
    "svd": ("U", "S", "V"),
    "linalg_svd": ("U", "S", "Vh"),
    "linalg_eigh": ("eigenvalues", "eigenvectors"),
}


class return_types:  # noqa: N801 - PyTorch's name
    """The named tuples of ops with several results (``.values``, ``.indices``, ``.U``, ...).

    ``return_types.sort`` is what ``sort`` returns; ``return_types.sort_out`` what it returns
    when called with ``out=(values, indices)`` (minigrad/_out.py).
    """


for _name, _fields in _RESULT_FIELDS.items():
    setattr(return_types, _name, _return_type(_name, _fields))
    setattr(return_types, _name + "_out", _return_type(_name + "_out", _fields))


@functools.cache
def _with_inputs(op: type[Op], count: int) -> type[Op]:
    """``op`` taking ``count`` tensor inputs (cat and stack take any number of tensors)."""
    return type(op.__name__, (op,), {
        "num_inputs": count, "node_name": op.__name__ + "Backward0", "__doc__": op.__doc__,
        "__module__": op.__module__,
    })


def _check_index_bounds(index: np.ndarray, size: int, dim: int) -> None:
    bad = (index < 0) | (index >= size)
    if bad.any():
        value = index.flat[int(np.argmax(bad))]
        raise RuntimeError(f"index {value} is out of bounds for dimension {dim} with size {size}")


def _common_dtype(arrays: list[np.ndarray]) -> np.dtype:
    return functools.reduce(promote_types, [a.dtype for a in arrays])


# --- cat and stack ----------------------------------------------------------------------------


class Cat(Op):
    """y = the inputs joined along ``dim``;  dx_i = grad's slice of x_i's rows along ``dim``.

    Saves nothing: the slices need only the sizes (writing an input later is legal).
    """

    fields = ("dim", "sizes")

    @staticmethod
    def forward(ctx: Any, *args: Any) -> np.ndarray:
        *arrays, dim, dtype = args
        skipped = _legacy_skipped(arrays)
        ctx.dim = dim
        ctx.sizes = tuple(None if skip else a.shape[dim] for a, skip in zip(arrays, skipped))
        kept = [a for a, skip in zip(arrays, skipped) if not skip]
        return np.concatenate(kept, axis=dim, dtype=dtype, casting="unsafe")

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        grads: list[Any] = []
        start = 0
        for size in ctx.sizes:
            if size is None:
                grads.append(np.zeros((0,), dtype=raw(grad).dtype))
                continue
            grads.append(grad[along(ctx.dim, slice(start, start + size))])
            start += size
        return (*grads, None, None)


class Stack(Op):
    """y = the inputs stacked along a new axis ``dim``;  dx_i = grad[..., i, ...] at ``dim``.

    Saves nothing.
    """

    fields = ("dim", "count")

    @staticmethod
    def forward(ctx: Any, *args: Any) -> np.ndarray:
        *arrays, dim, dtype = args
        ctx.dim, ctx.count = dim, len(arrays)
        return np.stack(arrays, axis=dim, dtype=dtype, casting="unsafe")

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        grads = [grad[along(ctx.dim, i)] for i in range(ctx.count)]
        return (*grads, None, None)


def _legacy_skipped(arrays: list[np.ndarray]) -> list[bool]:
    """PyTorch's legacy rule: cat skips 1-D empty tensors, whatever the others' shapes."""
    skipped = [a.shape == (0,) for a in arrays]
    return [False] * len(arrays) if all(skipped) else skipped


def _tensor_list(tensors: Any, name: str) -> list[Any]:
    if isinstance(tensors, TensorBase) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    _arguments.check_tensor_sequence(tensors, 0)
    return list(tensors)


def cat(tensors: Any, dim: int = 0) -> Any:
    """The tensors joined along ``dim`` (all of the same shape except along ``dim``).

    Mixed dtypes are promoted (float32 with float64 gives float64). A 1-D empty tensor is
    skipped, whatever the others' shape (PyTorch's legacy rule).

    Example:
        >>> import minigrad
        >>> minigrad.cat([minigrad.zeros(1, 2), minigrad.ones(2, 2)]).shape
        minigrad.Size([3, 2])
    """
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    arrays = [operand(t) for t in tensors]
    for position, array in enumerate(arrays):
        if array.ndim == 0:
            raise RuntimeError(
                f"zero-dimensional tensor (at position {position}) cannot be concatenated")
    kept = [(i, a) for i, (a, skip) in enumerate(zip(arrays, _legacy_skipped(arrays)))
            if not skip]
    first = kept[0][1]
    axis = wrap_dim(dim, first.ndim)
    for position, array in kept[1:]:
        if array.ndim != first.ndim:
            raise RuntimeError("Tensors must have same number of dimensions: got "
                               f"{first.ndim} and {array.ndim}")
        for d in range(first.ndim):
            if d != axis and array.shape[d] != first.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size "
                    f"{first.shape[d]} but got size {array.shape[d]} for tensor number "
                    f"{position} in the list.")
    return _with_inputs(Cat, len(tensors)).apply(*tensors, axis, _common_dtype(arrays))


def stack(tensors: Any, dim: int = 0) -> Any:
    """The tensors (all of one shape) stacked along a new dimension ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.stack([minigrad.zeros(2), minigrad.ones(2)], dim=1)
        tensor([[0., 1.],
                [0., 1.]])
    """
    tensors = _tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    arrays = [operand(t) for t in tensors]
    for position, array in enumerate(arrays[1:], start=1):
        if array.shape != arrays[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"{_shape_text(arrays[0].shape)} at entry 0 and {_shape_text(array.shape)} at "
                f"entry {position}")
    ndim = arrays[0].ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    return _with_inputs(Stack, len(tensors)).apply(*tensors, dim % ndim, _common_dtype(arrays))


# --- gather and scatter -----------------------------------------------------------------------


class Gather(Op):
    """y[p] = x[p with p[dim] replaced by index[p]];  dx = grad scatter-added at ``index``.

    Saves its input and the index, as PyTorch does (GatherBackward0 keeps ``self``): writing
    either in place before backward raises.
    """

    fields = ("dim",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, index)
        ctx.dim = dim
        return _at_least_1d(x)[_fancy(_at_least_1d(index), dim)].reshape(index.shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, index = ctx.saved_tensors
        zeros = np.zeros(np.shape(x), dtype=raw(grad).dtype)
        return run(ScatterAdd, zeros, grad, ctx.dim, raw(index)), None, None


class ScatterAdd(Op):
    """y = x with src added at ``index`` along ``dim``;  dx = grad,  dsrc = gather(grad, index).

    Saves the index.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        flat_index = _at_least_1d(index)
        np.add.at(_at_least_1d(y), _fancy(flat_index, dim),
                  _at_least_1d(src)[_leading(flat_index.shape)])
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        (index,) = ctx.saved_tensors
        dsrc = run(Gather, grad, ctx.dim, raw(index)) if ctx.needs_input_grad[1] else None
        return grad, dsrc, None, None


def _written_mask(shape: tuple[int, ...], dim: int, index: np.ndarray) -> np.ndarray:
    """True where scatter left x's value, False where it wrote."""
    keep = np.ones(shape, dtype=bool)
    flat_index = _at_least_1d(index)
    _at_least_1d(keep)[_fancy(flat_index, dim)] = False
    return keep


class Scatter(Op):
    """y = x with src's values written at ``index`` along ``dim``.  Saves the index.

    dx = grad, 0 where written;  dsrc = grad gathered at ``index``.
    """

    fields = ("dim",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int,
                index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        flat_index = _at_least_1d(index)
        _at_least_1d(y)[_fancy(flat_index, dim)] = _at_least_1d(src)[_leading(flat_index.shape)]
        return y

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

    fields = ("dim",)

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray, value: Any) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim = dim
        y = np.array(x, copy=True)
        _at_least_1d(y)[_fancy(_at_least_1d(index), dim)] = value
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (index,) = ctx.saved_tensors
        mask = _written_mask(np.shape(grad), ctx.dim, raw(index))
        return np.where(mask, grad, 0), None, None, None


def _check_index_dtype(index: np.ndarray, name: str) -> None:
    if index.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")


def _gather_checks(array: np.ndarray, dim: int, index: Any) -> tuple[int, np.ndarray]:
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    _check_index_dtype(index_array, "gather")
    if max(index_array.ndim, 1) != max(array.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(index_array.ndim):
        if d != axis and index_array.shape[d] > array.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index "
                f"{_shape_text(index_array.shape)} to be no larger than self "
                f"{_shape_text(array.shape)} apart from dimension {axis}")
    _check_index_bounds(index_array, _at_least_1d(array).shape[axis], axis)
    return axis, index_array


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
    axis, _ = _gather_checks(operand(input), dim, index)
    return Gather.apply(input, axis, index)


def _scatter_checks(array: np.ndarray, dim: int, index: Any, src: Any, name: str) -> int:
    axis = _scatter_shape_checks(array, dim, index, src)
    _check_index_bounds(operand(index), _at_least_1d(array).shape[axis], axis)
    return axis


def _scatter_shape_checks(array: np.ndarray, dim: int, index: Any, src: Any) -> int:
    """The checks of scatter's dtypes and shapes (PyTorch's meta function; bounds come later)."""
    axis = wrap_dim(dim, array.ndim)
    index_array = operand(index)
    _check_index_dtype(index_array, "scatter")
    src_array = operand(src) if isinstance(src, TensorBase) else None
    if src_array is not None and src_array.dtype != array.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if max(index_array.ndim, 1) != max(array.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src_array is not None and max(src_array.ndim, 1) != max(index_array.ndim, 1):
        if src_array.ndim < index_array.ndim:  # PyTorch reads src's size at each index dim
            wrap_dim(src_array.ndim, src_array.ndim)  # first: IndexError past src's last
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    for d in range(index_array.ndim):
        too_big_for_self = d != axis and index_array.shape[d] > array.shape[d]
        too_big_for_src = src_array is not None and index_array.shape[d] > src_array.shape[d]
        if too_big_for_self or too_big_for_src:
            message = (f"Expected index {_shape_text(index_array.shape)} to be no larger than "
                       f"self {_shape_text(array.shape)} apart from dimension {axis}")
            if src_array is not None:
                message += f" and to be no larger size than src {_shape_text(src_array.shape)}"
            raise RuntimeError(message)
    return axis


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:
    """A copy of ``input`` with ``src`` added at ``index`` (duplicates accumulate).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2).scatter_add(0, minigrad.tensor([1, 1]), minigrad.ones(2))
        tensor([0., 2.])
    """
    axis = _scatter_checks(operand(input), dim, index, src, "scatter_add")
    return ScatterAdd.apply(input, src, axis, index)


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
    from minigrad.ops import views

    if dim is None:
        return gather(views.view(input, -1), 0, views.view(indices, -1))
    array, index_array = operand(input), operand(indices)
    if array.ndim != index_array.ndim:
        raise RuntimeError(
            "minigrad.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {array.ndim} dimensions for input, and {index_array.ndim} "
            "dimensions for indices")
    if index_array.dtype != np.int64:
        raise RuntimeError("minigrad.take_along_dim(): dtype of indices should be Long but got "
                           f"{display_name(index_array.dtype)}")
    axis = wrap_dim(dim, array.ndim)
    self_sizes = list(array.shape)
    if array.ndim:
        self_sizes[axis] = index_array.shape[axis]
    index_shape = _broadcast_shape(self_sizes, index_array.shape)
    index_sizes = list(index_array.shape)
    if array.ndim:
        index_sizes[axis] = array.shape[axis]
    input_shape = _broadcast_shape(index_sizes, array.shape)
    # PyTorch 2.13 gathers with a broadcast *copy* of the indices: writing the caller's indices
    # after the call does not make backward raise (writing the input does).
    index_copy = TensorBase.output_class._make(np.array(np.broadcast_to(index_array, index_shape)))
    return gather(views.expand(input, input_shape), axis, index_copy)


def _broadcast_shape(a: Any, b: Any) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a, b)) from None


# --- index_select and masked_select -----------------------------------------------------------


class IndexSelect(Op):
    """y = x's slices at ``index`` along ``dim``;  dx = grad index-added at ``index``.

    Saves the index (only its values matter for the gradient).
    """

    fields = ("dim", "shape")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(index)
        ctx.dim, ctx.shape = dim, x.shape
        result = np.take(_at_least_1d(x), _at_least_1d(index), axis=dim)
        return result.reshape(()) if x.ndim == 0 else result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (index,) = ctx.saved_tensors
        zeros = np.zeros(ctx.shape, dtype=raw(grad).dtype)
        return run(IndexAdd, zeros, grad, ctx.dim, raw(index)), None, None


class IndexAdd(Op):
    """y = x with alpha * src's slices added at ``index`` along ``dim``.

    dx = grad,  dsrc = alpha * grad's slices at ``index``.  Saves the index and src only if src
    needs a gradient (PyTorch's IndexAddBackward0): otherwise writing either later is legal.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("dim", "alpha")

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray,
                alpha: Any = 1) -> np.ndarray:
        if ctx.needs_input_grad[1]:
            ctx.save_for_backward(index, src)
        ctx.dim, ctx.alpha = dim, alpha
        y = np.array(x, copy=True)
        scaled = src if alpha == 1 else src * alpha
        np.add.at(_at_least_1d(y), along(dim, _at_least_1d(index)),
                  _at_least_1d(scaled) if x.ndim == 0 else scaled)
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
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index_array.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    size = _at_least_1d(array).shape[axis]
    if ((index_array < 0) | (index_array >= size)).any():
        raise IndexError("index out of range in self")
    return IndexSelect.apply(input, axis, index)


class MaskedSelect(Op):
    """y = the elements of x where ``mask`` is True, as a vector (both broadcast first).

    dx = grad written back at the mask's positions (0 elsewhere), summed over broadcasting.
    Saves its input and the mask (PyTorch's MaskedSelectBackward0 keeps both).
    """

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


class MaskedScatter(Op):
    """y = x with ``mask``'s positions filled, in order, from ``source``'s elements.

    dx = grad, 0 at the mask's positions;  dsource = grad at the mask's positions (0 for the
    source elements not used).  Saves the mask.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False

    fields = ("source_shape",)

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
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    _broadcast_shape(mask_array.shape, array.shape)
    return MaskedSelect.apply(input, mask)


# --- repeat, flip, roll, tril/triu, pad -------------------------------------------------------


class Repeat(Op):
    """y = x tiled ``repeats`` times along each dimension (new leading dims if more repeats).

    dx = grad reshaped to (repeat, size) pairs and summed over the repeats.  Saves nothing.
    """

    fields = ("shape", "repeats")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, repeats: tuple[int, ...]) -> np.ndarray:
        ctx.shape, ctx.repeats = x.shape, repeats
        lead = len(repeats) - x.ndim
        return np.tile(x.reshape((1,) * lead + x.shape), repeats)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        shape, repeats = ctx.shape, ctx.repeats
        if 0 in repeats:
            return np.zeros(shape, dtype=raw(grad).dtype), None
        lead = len(repeats) - len(shape)
        if lead:
            grad = np.sum(grad, axis=tuple(range(lead)))
        grad_size: list[int] = []
        sum_dims: list[int] = []
        for size, repeat in zip(shape, repeats[lead:]):
            if repeat != 1:
                grad_size.append(repeat)
                sum_dims.append(len(grad_size) - 1)
            grad_size.append(size)
        if sum_dims:
            grad = np.sum(np.reshape(grad, tuple(grad_size)), axis=tuple(sum_dims))
        return grad, None


def _sizes(sizes: tuple[Any, ...]) -> tuple[int, ...]:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    return tuple(int(n) for n in sizes)


def repeat(input: Any, *sizes: Any) -> Any:
    """``input`` tiled ``sizes[i]`` times along dimension i (``sizes`` may add leading dims).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0]).repeat(2)
        tensor([1., 2., 1., 2.])
    """
    _arguments.check_int_sequence(
        sizes[0] if len(sizes) == 1 else sizes, "repeat", "repeats", 1
    )
    repeats = _sizes(sizes)
    shape = operand(input).shape
    if len(repeats) < len(shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    padded = (1,) * (len(repeats) - len(shape)) + shape
    result_shape = [n * r for n, r in zip(padded, repeats)]
    for n in result_shape:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"{_shape_text(result_shape)}")
    return Repeat.apply(input, repeats)


def tile(input: Any, dims: Any) -> Any:
    """``repeat`` with ``dims`` padded with leading 1s to ``input``'s number of dimensions.

    Example:
        >>> import minigrad
        >>> minigrad.tile(minigrad.tensor([1.0, 2.0]), (2,))
        tensor([1., 2., 1., 2.])
    """
    _arguments.check_int_sequence(dims, "tile", "dims", 2)
    reps = _sizes((dims,))
    ndim = operand(input).ndim
    if len(reps) < ndim:
        reps = (1,) * (ndim - len(reps)) + reps
    return repeat(input, reps)


class Flip(Op):
    """y = x reversed along ``dims``;  dx = grad reversed along ``dims``.  Saves nothing."""

    fields = ("dims",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        ctx.dims = dims
        return np.array(np.flip(x, dims) if dims else x, copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(Flip, grad, ctx.dims), None


def flip(input: Any, dims: Any) -> Any:
    """``input`` reversed along each dimension in ``dims`` (a copy, unlike numpy's view).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).flip(0)
        tensor([3., 2., 1.])
    """
    if dims is None:  # (normalize_dims reads None as "every dim")
        raise TypeError("flip(): argument 'dims' (position 1) must be tuple of ints, not NoneType")
    return Flip.apply(input, normalize_dims(dims, operand(input).ndim))


class Roll(Op):
    """y = x shifted cyclically by ``shifts`` along ``dims`` (flattened if no dims).

    dx = grad shifted back by ``-shifts``.  Saves nothing.
    """

    fields = ("shifts", "dims")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shifts: tuple[int, ...],
                dims: tuple[int, ...]) -> np.ndarray:
        ctx.shifts, ctx.dims = shifts, dims
        if not dims:
            return np.roll(x, shifts[0])
        return np.roll(x, shifts, axis=dims)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(Roll, grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


def roll(input: Any, shifts: Any, dims: Any = None) -> Any:
    """``input`` shifted cyclically by ``shifts`` along ``dims``.

    Without dims it is flattened, shifted, and restored to its shape.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).roll(1)
        tensor([3., 1., 2.])
    """
    _arguments.check_int_sequence(shifts, "roll", "shifts", 1)
    shift_list = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dim_list = () if dims is None else (dims,) if isinstance(dims, int) else tuple(dims)
    ndim = operand(input).ndim
    if not dim_list and len(shift_list) != 1 or dim_list and len(shift_list) != len(dim_list):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                           f"dims:{len(dim_list)}")
    axes = tuple(wrap_dim(d, ndim) for d in dim_list)
    if ndim == 0:
        axes = ()
    return Roll.apply(input, shift_list, axes)


class Tril(Op):
    """y = x with the elements above diagonal ``k`` zeroed (last two dims);  dx = tril(grad).

    Saves nothing.
    """

    fields = ("k",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, k: int) -> np.ndarray:
        ctx.k = k
        return np.tril(x, k)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(Tril, grad, ctx.k), None


class Triu(Op):
    """y = x with the elements below diagonal ``k`` zeroed (last two dims);  dx = triu(grad).

    Saves nothing.
    """

    fields = ("k",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, k: int) -> np.ndarray:
        ctx.k = k
        return np.triu(x, k)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(Triu, grad, ctx.k), None


def _check_matrix(input: Any, name: str) -> None:
    if operand(input).ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input: Any, diagonal: int = 0) -> Any:
    """The lower triangle of the last two dimensions (on and below ``diagonal``), 0 above.

    Example:
        >>> import minigrad
        >>> minigrad.ones(2, 2).tril()
        tensor([[1., 0.],
                [1., 1.]])
    """
    _check_matrix(input, "tril")
    return Tril.apply(input, int(diagonal))


def triu(input: Any, diagonal: int = 0) -> Any:
    """The upper triangle of the last two dimensions (on and above ``diagonal``), 0 below.

    Example:
        >>> import minigrad
        >>> minigrad.ones(2, 2).triu(1)
        tensor([[0., 1.],
                [0., 0.]])
    """
    _check_matrix(input, "triu")
    return Triu.apply(input, int(diagonal))


class ConstantPadNd(Op):
    """y = x surrounded by ``value`` (negative pads crop);  dx = grad padded by the negated pads.

    Saves nothing.

    ``pad`` is PyTorch's flat list: (left, right) of the last dim, then of the one before...
    """

    fields = ("pad",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, pad: tuple[int, ...], value: Any) -> np.ndarray:
        ctx.pad = pad
        shape = list(x.shape)
        source: list[slice] = [slice(None)] * x.ndim
        target: list[slice] = [slice(None)] * x.ndim
        for i in range(len(pad) // 2):
            d = x.ndim - 1 - i
            left, right = pad[2 * i], pad[2 * i + 1]
            size = x.shape[d]
            kept = size - max(-left, 0) - max(-right, 0)
            source[d] = slice(max(-left, 0), max(-left, 0) + max(kept, 0))
            target[d] = slice(max(left, 0), max(left, 0) + max(kept, 0))
            shape[d] = size + left + right
        y = np.full(shape, value, dtype=x.dtype)
        y[tuple(target)] = x[tuple(source)]
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(ConstantPadNd, grad, tuple(-p for p in ctx.pad), 0), None, None


def pad(input: Any, pad: Any, mode: str = "constant", value: float | None = None) -> Any:
    """``input`` padded with ``value`` (default 0); ``mode="constant"`` only.

    ``pad = (left, right, top, bottom, ...)`` from the last dimension backwards; negative pads
    crop.

    Example:
        >>> import minigrad
        >>> from minigrad.ops.shape import pad
        >>> pad(minigrad.ones(1, 2), (1, 0))
        tensor([[0., 1., 1.]])
    """
    _arguments.check_int_sequence(pad, "pad", "pad", 2)
    _arguments.check_tensor(input, "pad", "input", 1)
    if mode != "constant":
        raise NotImplementedError(f"minigrad: pad supports mode='constant' only, not {mode!r}")
    pads = tuple(int(p) for p in pad)
    shape = operand(input).shape
    if len(pads) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pads) // 2 > len(shape):
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pads)} and input of dimension {len(shape)}")
    for i in range(len(pads) // 2):
        if shape[len(shape) - 1 - i] + pads[2 * i] + pads[2 * i + 1] < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return ConstantPadNd.apply(input, pads, 0 if value is None else value)


def one_hot(tensor: Any, num_classes: int = -1) -> Any:
    """An int64 tensor with a new last dimension of ``num_classes``: 1 at each value, else 0.

    Not differentiable.

    Example:
        >>> import minigrad
        >>> from minigrad.ops.shape import one_hot
        >>> one_hot(minigrad.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    _arguments.check_tensor(tensor, "one_hot", "input", 1)
    array = operand(tensor)
    if array.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if array.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return TensorBase.output_class._make(np.zeros(array.shape + (num_classes,), np.int64))
    if array.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(array.max()) + 1
    elif num_classes <= array.max():
        raise RuntimeError("Class values must be smaller than num_classes.")
    result = (array[..., None] == np.arange(num_classes)).astype(np.int64)
    return TensorBase.output_class._make(result)


# --- sort and topk ----------------------------------------------------------------------------


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

    fields = ("dim",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, descending: bool) -> tuple[Any, Any]:
        indices = sort_order(x, dim, descending)
        ctx.save_for_backward(indices)
        ctx.dim = dim
        values = x.copy() if x.ndim == 0 else np.take_along_axis(x, indices, axis=dim)
        return values, indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None]:
        (indices,) = ctx.saved_tensors
        return scatter_to_indices(grad, ctx.dim, raw(indices), np.shape(indices)), None, None


class Topk(Op):
    """(values, indices) = the k largest (or smallest) along ``dim``, sorted.

    dx = grad scattered back to ``indices``, 0 elsewhere.  Saves its ``indices`` output only.
    """

    fields = ("dim", "shape")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, k: int, dim: int, largest: bool) -> tuple[Any, Any]:
        ctx.dim, ctx.shape = dim, x.shape
        if x.ndim == 0:
            indices = np.zeros((), dtype=np.int64)
            ctx.save_for_backward(indices)
            return x.copy(), indices
        indices = _topk_indices(x, k, dim, largest)
        ctx.save_for_backward(indices)
        return np.take_along_axis(x, indices, axis=dim), indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None, None]:
        (indices,) = ctx.saved_tensors
        return scatter_to_indices(grad, ctx.dim, raw(indices), ctx.shape), None, None, None


def scatter_to_indices(grad: Any, dim: int, indices: np.ndarray, shape: tuple[int, ...]) -> Any:
    """A zero gradient of ``shape`` with ``grad`` written at ``indices`` along ``dim``.

    The backward of ops that select values (sort, topk, max/min over a dim).
    """
    if not shape:
        return grad
    zeros = np.zeros(shape, dtype=raw(grad).dtype)
    return run(Scatter, zeros, grad, dim, indices)


def sort(input: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """``(values, indices)``: ``input`` sorted along ``dim`` (a stable sort; NaN is largest).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([3.0, 1.0, 2.0]).sort().indices
        tensor([1, 2, 0])
    """
    axis = wrap_dim(dim, operand(input).ndim)
    values, indices = Sort.apply(input, axis, bool(descending))
    return return_types.sort(values, indices)


def argsort(input: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """The indices that sort ``input`` along ``dim`` (``sort(...).indices``).

    Example:
        >>> import minigrad
        >>> minigrad.argsort(minigrad.tensor([3.0, 1.0, 2.0]))
        tensor([1, 2, 0])
    """
    return sort(input, dim, descending, stable=stable).indices


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
        raise RuntimeError("selected index k out of range")
    values, indices = Topk.apply(input, int(k), axis, bool(largest))
    return return_types.topk(values, indices)


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


# --- libstdc++'s selection and sorting, step for step -----------------------------------------
#
# PyTorch's CPU topk runs std::nth_element / std::sort / std::partial_sort from libstdc++ on
# (value, index) pairs. None of them is stable, so for tied values the order of the indices is
# an accident of these algorithms; reproducing PyTorch's indices means replaying them exactly.
# ``a`` is a list, ``first``/``last`` indices into it (half-open), ``comp`` a strict "less".

Comp = Any


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


def _swap(a: list[Any], i: int, j: int) -> None:
    a[i], a[j] = a[j], a[i]


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


def _unguarded_partition_pivot(a: list[Any], first: int, last: int, comp: Comp) -> int:
    middle = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, middle, last - 1, comp)
    return _unguarded_partition(a, first + 1, last, first, comp)


def _unguarded_linear_insert(a: list[Any], last: int, comp: Comp) -> None:
    value, before = a[last], last - 1
    while comp(value, a[before]):
        a[last] = a[before]
        last, before = before, before - 1
    a[last] = value


def _insertion_sort(a: list[Any], first: int, last: int, comp: Comp) -> None:
    for i in range(first + 1, last):
        if comp(a[i], a[first]):
            value = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            _unguarded_linear_insert(a, i, comp)


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


def _partial_sort(a: list[Any], first: int, middle: int, last: int, comp: Comp) -> None:
    _heap_select(a, first, middle, last, comp)
    while middle - first > 1:
        middle -= 1
        value, a[middle] = a[middle], a[first]
        _adjust_heap(a, first, 0, middle - first, value, comp)


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
