"""Shape ops that copy: cat, stack, repeat/tile, flip, roll, tril/triu, constant padding, one_hot.

Unlike views, every output here has its own buffer and version counter. None of these ops saves
a tensor (only shapes and options), so later in-place writes to their inputs never make backward
raise, as in PyTorch. Gather/scatter live in ``gather_scatter.py``, index_select/masked_select in
``index_ops.py``, sort/topk in ``sorting.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import result_type
from minigrad._layout import (
    concatenated_result,
    contiguous_result,
    preserved_result,
    stacked_result,
    suggested_result,
)
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.record import record_inputs, sync_views
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import padding
from minigrad.ops._helpers import along, normalize_dims, operand, raw, run, wrap_dim
from minigrad.ops.view_scatters import SliceScatter
from minigrad.ops.views import method_int_list


class Cat(Op):
    """y = the inputs joined along ``dim``;  dx_i = grad's slice of x_i's rows along ``dim``.

    Saves nothing: the slices need only the sizes (writing an input later is legal).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(concatenated_result)  # (PyTorch's: its inputs' format)

    fields = ("dim", "sizes")  # (dim as given: PyTorch's node shows it so)
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, *args: Any) -> np.ndarray:
        *arrays, dim, dtype = args
        skipped = _legacy_skipped(arrays)
        kept = arrays if skipped is None else [a for a, skip in zip(arrays, skipped) if not skip]
        if ctx is not NO_GRAD_CTX:  # (the sizes only backward needs)
            ctx.dim = dim
            ctx.sizes = tuple(a.shape[dim] for a in arrays) if skipped is None else tuple(
                None if skip else a.shape[dim] for a, skip in zip(arrays, skipped))
        return np.concatenate(kept, axis=dim, dtype=dtype, casting="unsafe")

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        grads: list[Any] = []
        start = 0
        axis = ctx.dim % np.ndim(grad)
        for size in ctx.sizes:
            if size is None:
                grads.append(np.zeros((0,), dtype=raw(grad).dtype))
                continue
            grads.append(grad[along(axis, slice(start, start + size))])
            start += size
        return (*grads, None, None)


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
        raise ValueError(errors.CAT_EMPTY)
    sync_views(*tensors)
    arrays = [t._array for t in tensors]  # (all tensors: checked by _tensor_list)
    shape = arrays[0].shape
    for array in arrays:
        if array.shape != shape:  # inputs of several shapes: every check, in PyTorch's order
            _check_cat_shapes(arrays, dim)
            break
    else:  # (the common call, inputs of one shape: its rank and dim are all there is to check)
        if not shape:
            raise RuntimeError(errors.cat_zero_dim(0))
        ndim = len(shape)
        if not (type(dim) is int and -ndim <= dim < ndim):  # (without wrap_dim's call)
            wrap_dim(dim, ndim)
    # (dim as given: the node shows it so)
    return record_inputs(_with_inputs(Cat, len(tensors)), tensors, (dim, _common_dtype(arrays)))


def _check_cat_shapes(arrays: list[np.ndarray], dim: int) -> None:
    """PyTorch's checks of cat's inputs of several shapes: ranks, ``dim``, the other sizes."""
    for position, array in enumerate(arrays):
        if array.ndim == 0:
            raise RuntimeError(errors.cat_zero_dim(position))
    skipped = _legacy_skipped(arrays)
    kept = list(enumerate(arrays)) if skipped is None else [
        (i, a) for i, (a, skip) in enumerate(zip(arrays, skipped)) if not skip]
    shape = kept[0][1].shape
    ndim = len(shape)
    axis = wrap_dim(dim, ndim)
    for position, array in kept[1:]:
        if array.shape == shape:
            continue
        if array.ndim != ndim:
            raise RuntimeError(errors.cat_dims_mismatch(ndim, array.ndim))
        for d in range(ndim):
            if d != axis and array.shape[d] != shape[d]:
                raise RuntimeError(
                    errors.cat_sizes_mismatch(axis, shape[d], array.shape[d], position))


def _common_dtype(arrays: list[np.ndarray]) -> np.dtype:
    """The dtype PyTorch's cat and stack give ``arrays``: theirs if they share one."""
    dtype = arrays[0].dtype
    for array in arrays:
        if array.dtype is not dtype:
            return result_type(*arrays)
    return dtype


def _tensor_list(tensors: Any, name: str) -> Sequence[Any]:
    """``tensors`` (a list or tuple of tensors), or PyTorch's TypeError for ``name``."""
    kind = type(tensors)  # (a list or a tuple, the common calls, is no tensor: one test)
    if kind is not list and kind is not tuple and (
            isinstance(tensors, TensorBase) or not isinstance(tensors, (list, tuple))):
        raise TypeError(errors.tensors_not_tuple(name, kind.__name__))
    _arguments.check_tensor_sequence(tensors, 0)
    return tensors


@functools.cache
def _with_inputs(op: type[Op], count: int) -> type[Op]:
    """``op`` taking ``count`` tensor inputs (cat and stack take any number of tensors)."""
    return type(op.__name__, (op,), {
        "num_inputs": count, "node_name": op.__name__ + "Backward0", "__doc__": op.__doc__,
        "__module__": op.__module__,
    })


class Stack(Op):
    """y = the inputs stacked along a new axis ``dim``;  dx_i = grad[..., i, ...] at ``dim``.

    Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("dim", "count")  # (dim as given: PyTorch's node shows it so)
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, *args: Any) -> np.ndarray:
        *arrays, dim, dtype = args
        if ctx is not NO_GRAD_CTX:  # (the options only backward needs)
            ctx.dim, ctx.count = dim, len(arrays)
        # As PyTorch's stack: a cat along ``dim`` with that dim split in two (the inputs one
        # after the other, each its size), or for a new last dim, np.stack's own steps (its
        # dispatch layer costs more than they do): a new axis in each input, one concatenate
        shape = arrays[0].shape
        axis = dim % (len(shape) + 1)
        if axis < len(shape):
            result = np.concatenate(arrays, axis=axis, dtype=dtype, casting="unsafe").reshape(
                (*shape[:axis], len(arrays), *shape[axis:]))
        else:
            new_axis = (slice(None),) * axis + (None,)
            result = np.concatenate(
                [array[new_axis] for array in arrays], axis=axis, dtype=dtype, casting="unsafe")
        # Laid out here, where dim is known: PyTorch's stack is a cat (_layout.stacked_result)
        return stacked_result(result, arrays, axis)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        axis = ctx.dim % np.ndim(grad)
        grads = [grad[along(axis, i)] for i in range(ctx.count)]
        return (*grads, None, None)


concat = concatenate = cat  # (PyTorch's other names for it)


def stack(tensors: Any, dim: int = 0) -> Any:
    """The tensors (all of one shape) stacked along a new dimension ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.stack([minigrad.zeros(2), minigrad.ones(2)], dim=1)
        tensor([[0., 1.],
                [0., 1.]])
    """
    tensors = _tensor_list(tensors, "stack")
    _arguments.check_int64_arguments(dim)  # (the parser's error, before the op's checks)
    if not tensors:
        raise RuntimeError(errors.STACK_EMPTY)
    arrays = [t._array for t in tensors]  # (all tensors: checked by _tensor_list)
    shape = arrays[0].shape
    for position, array in enumerate(arrays[1:], start=1):
        if array.shape != shape:
            raise RuntimeError(errors.stack_sizes(shape, array.shape, position))
    ndim = arrays[0].ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    # (dim as given: the node shows it so)
    return record_inputs(_with_inputs(Stack, len(tensors)), tensors, (dim, _common_dtype(arrays)))


class Repeat(Op):
    """y = x tiled ``repeats`` times along each dimension (new leading dims if more repeats).

    dx = grad reshaped to (repeat, size) pairs and summed over the repeats.  Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("shape", "repeats")
    saved_options = {"repeats": "repeats", "self_sym_sizes": "shape"}

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


def repeat(input: Any, *sizes: Any) -> Any:
    """``input`` tiled ``sizes[i]`` times along dimension i (``sizes`` may add leading dims).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0]).repeat(2)
        tensor([1., 2., 1., 2.])
    """
    # (a lone int is a list of one: its overflow is an item's, at position 1)
    _arguments.check_int_sequence(
        sizes[0] if len(sizes) == 1 and not _arguments.is_int(sizes[0]) else sizes,
        "repeat", "repeats", 1,
    )
    repeats = _sizes(sizes)
    _arguments.check_int64_items(repeats, "repeat", "repeats")  # (the parser's error first)
    shape = operand(input).shape
    if len(repeats) < len(shape):
        raise RuntimeError(errors.REPEAT_TOO_FEW_DIMS)
    padded = (1,) * (len(repeats) - len(shape)) + shape
    result_shape = [n * r for n, r in zip(padded, repeats)]
    for n in result_shape:
        if n < 0:
            raise RuntimeError(errors.negative_dimension(n, result_shape))
    return Repeat.apply(input, repeats)


def _sizes(sizes: tuple[Any, ...]) -> tuple[int, ...]:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    return tuple(int(n) for n in sizes)


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

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("dims",)  # as given (-1 for the last): PyTorch's node shows them so
    saved_options = {"dims": as_given("dims")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        ctx.dims = dims
        result = np.array(np.flip(x, dims) if dims and x.ndim else x, copy=True)
        return preserved_result(result, (x,))  # (vectors too: PyTorch's preserve_format)

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
    return _flip(input, dims, 2)


def flip_method(input: Any, dims: tuple[Any, ...]) -> Any:
    """``x.flip(0, 1)`` or ``x.flip((0, 1))``."""
    return _flip(input, method_int_list(dims, "flip", "dims"), 1)


def _flip(input: Any, dims: Any, position: int) -> Any:
    """``flip``, with ``dims`` checked as PyTorch's parser does (its ``position``).

    (``dims`` is an ``int[]``: a lone int is no list of them, but a method's ints may come
    one by one.)
    """
    _arguments.check_int_sequence(dims, "flip", "dims", position, lone_int=False)
    normalize_dims(dims, operand(input).ndim)  # (checked; kept as given)
    return Flip.apply(input, tuple(dims))


class Roll(Op):
    """y = x shifted cyclically by ``shifts`` along ``dims`` (flattened if no dims).

    dx = grad shifted back by ``-shifts``.  Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shifts", "dims")  # (dims as given: PyTorch's node shows them so)
    saved_options = {"shifts": as_given("shifts"), "dims": as_given("dims")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shifts: tuple[int, ...],
                dims: tuple[int, ...]) -> np.ndarray:
        ctx.shifts, ctx.dims = shifts, dims
        if not dims:  # (PyTorch rolls a flattened row-major copy)
            return contiguous_result(np.roll(x, shifts[0]), (x,))
        if not x.size:  # (PyTorch's roll of an empty tensor is its clone)
            return preserved_result(x.copy(), (x,))
        result = np.roll(x, shifts, axis=dims)
        # Laid out as PyTorch's: each roll along a dim is a cat of two slices, and an empty
        # slice (a shift by a multiple of the size) suggests row-major to the cat.
        if any(x.shape[d] == 0 or s % x.shape[d] == 0 for s, d in zip(shifts, dims)):
            return contiguous_result(result, (x,))
        return concatenated_result(result, (x,))

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
    if dims is not None:
        _arguments.check_int_sequence(dims, "roll", "dims", 2)
    shift_list = _arguments.int_tuple(shifts)
    if isinstance(shifts, (tuple, list)):  # (past int64, the parser's error comes first)
        _arguments.check_int64_items(shift_list, "roll", "shifts")
    else:
        _arguments.check_int64(shift_list[0])
    dim_list = () if dims is None else _arguments.int_tuple(dims)
    ndim = operand(input).ndim
    if not dim_list and len(shift_list) != 1 or dim_list and len(shift_list) != len(dim_list):
        raise RuntimeError(errors.roll_shifts_dims(len(shift_list), len(dim_list)))
    for d in dim_list:
        wrap_dim(d, ndim)  # (checked; kept as given)
    return Roll.apply(input, shift_list, dim_list if ndim else ())


class Triangle(Op):
    """y = x zeroed above (``Tril``) or below (``Triu``) diagonal ``k`` (last two dims).

    dx = the same triangle of grad.  Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("k",)
    saved_options = {"diagonal": as_given("k")}  # (-1 shown as PyTorch shows an int64)

    kernel: ClassVar[Callable[[Any, int], np.ndarray]]  # np.tril or np.triu

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, k: int) -> np.ndarray:
        ctx.k = k
        return cls.kernel(x, k)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(cls, grad, ctx.k), None


class Tril(Triangle):
    """y = x with the elements above diagonal ``k`` zeroed;  dx = tril(grad)."""

    kernel = staticmethod(np.tril)


def tril(input: Any, diagonal: int = 0) -> Any:
    """The lower triangle of the last two dimensions (on and below ``diagonal``), 0 above.

    Example:
        >>> import minigrad
        >>> minigrad.ones(2, 2).tril()
        tensor([[1., 0.],
                [1., 1.]])
    """
    _check_matrix(input, "tril")
    return Tril.apply(input, _arguments.check_int64(int(diagonal)))


def tril_(input: Any, diagonal: int = 0) -> Any:
    """``tril`` in place: the elements above ``diagonal`` set to 0."""
    _check_matrix(input, "tril")
    return apply_inplace(Tril, input, _arguments.check_int64(int(diagonal)))


def _check_matrix(input: Any, name: str) -> None:
    if operand(input).ndim < 2:
        raise RuntimeError(errors.needs_2_dims(name))


class Triu(Triangle):
    """y = x with the elements below diagonal ``k`` zeroed;  dx = triu(grad)."""

    kernel = staticmethod(np.triu)


def triu(input: Any, diagonal: int = 0) -> Any:
    """The upper triangle of the last two dimensions (on and above ``diagonal``), 0 below.

    Example:
        >>> import minigrad
        >>> minigrad.ones(2, 2).triu(1)
        tensor([[0., 1.],
                [0., 0.]])
    """
    _check_matrix(input, "triu")
    return Triu.apply(input, _arguments.check_int64(int(diagonal)))


def triu_(input: Any, diagonal: int = 0) -> Any:
    """``triu`` in place: the elements below ``diagonal`` set to 0."""
    _check_matrix(input, "triu")
    return apply_inplace(Triu, input, _arguments.check_int64(int(diagonal)))


class ConstantPadNd(Op):
    """y = x surrounded by ``value`` (negative pads crop);  dx = grad padded by the negated pads.

    Saves nothing.

    ``pad`` is PyTorch's flat list: (left, right) of the last dim, then of the one before...
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("pad",)
    saved_options = {"pad": as_given("pad")}  # (a negative pad as PyTorch shows an int64)
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

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
    """``input`` padded: with ``value`` (default 0), or by reflection, replication or wrapping.

    ``pad = (left, right, top, bottom, ...)`` from the last dimension backwards; negative pads
    crop. ``mode`` is ``"constant"`` (any number of dims), or ``"reflect"``, ``"replicate"``,
    ``"circular"`` (the last 1, 2 or 3 dims of an input with 1 or 2 more: see
    ``ops/padding.py``).

    Example:
        >>> import minigrad
        >>> from minigrad.ops.shape import pad
        >>> pad(minigrad.ones(1, 2), (1, 0))
        tensor([[0., 1., 1.]])
        >>> pad(minigrad.tensor([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
        tensor([[3., 2., 1., 2., 3., 2.]])
    """
    # PyTorch's F.pad is Python: it passes every argument by position to its kernel's parser.
    _arguments.check_tensor(input, "pad", "input", 1)
    _arguments.check_int_sequence(pad, "pad", "pad", 2)
    _arguments.check_value(mode, "str", "pad", "mode", 3)
    if value is not None and not isinstance(value, TensorBase):
        _arguments.check_value(value, "float", "pad", "value", 4)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    pads = tuple(int(p) for p in pad)
    shape = operand(input).shape
    if len(pads) % 2:
        raise RuntimeError(errors.PAD_LENGTH_ODD)
    if len(pads) // 2 > len(shape):
        raise RuntimeError(errors.pad_too_long(len(pads), len(shape)))
    if mode != "constant":
        return _pad_by_values(input, pads, mode, value)
    for i in range(len(pads) // 2):
        if shape[len(shape) - 1 - i] + pads[2 * i] + pads[2 * i + 1] < 0:
            raise RuntimeError(errors.NARROW_NEGATIVE_LENGTH)
    return ConstantPadNd.apply(input, pads, 0 if value is None else value)


def _pad_by_values(input: Any, pads: tuple[int, ...], mode: str, value: Any) -> Any:
    """``pad`` in reflect, replicate or circular mode, after PyTorch's checks of the call."""
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    ndim, dims = operand(input).ndim, len(pads) // 2
    if dims not in (1, 2, 3) or ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(errors.pad_size_unsupported(len(pads), ndim))
    if mode == "circular":
        return padding.circular_pad(input, pads)
    return padding.index_pad(input, pads, mode)


def one_hot(input: Any, num_classes: int = -1) -> Any:
    """An int64 tensor with a new last dimension of ``num_classes``: 1 at each value, else 0.

    Not differentiable.

    Example:
        >>> import minigrad
        >>> from minigrad.ops.shape import one_hot
        >>> one_hot(minigrad.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    _arguments.check_tensor(input, "one_hot", "input", 1)
    _arguments.check_int64_arguments(num_classes)
    array = operand(input)
    if array.dtype != np.int64:
        raise RuntimeError(errors.ONE_HOT_NOT_LONG)
    if array.size == 0:
        if num_classes <= 0:
            raise RuntimeError(errors.ONE_HOT_EMPTY)
        return TensorBase.output_class._make(np.zeros(array.shape + (num_classes,), np.int64))
    if array.min() < 0:
        raise RuntimeError(errors.ONE_HOT_NEGATIVE)
    if num_classes == -1:
        num_classes = int(array.max()) + 1
    elif num_classes <= array.max():
        raise RuntimeError(errors.ONE_HOT_TOO_LARGE)
    result = (array[..., None] == np.arange(num_classes)).astype(np.int64)
    return TensorBase.output_class._make(result)


def _legacy_skipped(arrays: list[np.ndarray]) -> list[bool] | None:
    """PyTorch's legacy rule: cat skips 1-D empty tensors, whatever the others' shapes.

    Which arrays are skipped; None if none is (the common case).
    """
    for array in arrays:
        if array.shape == (0,):
            break
    else:
        return None  # (the common case: no 1-D empty array, one loop and no list)
    skipped = [a.shape == (0,) for a in arrays]
    return None if all(skipped) else skipped


class NarrowCopy(Op):
    """y = a contiguous copy of elements ``start`` to ``start + length`` along ``dim``.

    dx = grad written into zeros at that slice (a slice_scatter).  Saves no tensor; ``dim``
    and ``start`` are kept as given (PyTorch's node shows them so).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (a new row-major tensor)

    fields = ("shape", "dim", "start", "length")
    saved_options = {"dim": as_given("dim"), "start": as_given("start"), "length": "length",
                     "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, start: int, length: int) -> np.ndarray:
        ctx.shape, ctx.dim, ctx.start, ctx.length = x.shape, dim, start, length
        first = start % x.shape[dim] if start < 0 else start
        return np.array(x[along(dim % x.ndim, slice(first, first + length))], copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        size = ctx.shape[ctx.dim]
        first = ctx.start % size if ctx.start < 0 else ctx.start
        zeros = np.zeros(ctx.shape, dtype=raw(grad).dtype)
        dx = run(SliceScatter, zeros, grad, ctx.dim, first, first + ctx.length, 1)
        return dx, None, None, None


def narrow_copy(input: Any, dim: int, start: int, length: int) -> Any:
    """A copy (not a view) of elements ``start`` to ``start + length`` along ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.arange(5.).narrow_copy(0, 1, 3)
        tensor([1., 2., 3.])
    """
    _arguments.check_int64_arguments(dim, start, length)
    array = operand(input)
    if array.ndim == 0:
        raise RuntimeError(errors.NARROW_0D)
    if not dim < array.ndim:  # (PyTorch's own check, before the dim is wrapped)
        raise RuntimeError(errors.NARROW_COPY_DIM)
    start = start.item() if isinstance(start, TensorBase) else start
    size = array.shape[wrap_dim(dim, array.ndim)]
    if not -size <= start <= size:
        raise IndexError(errors.narrow_start_out_of_range(start, size))
    first = start + size if start < 0 else start
    if first + length > size or length < 0:
        raise RuntimeError(errors.narrow_exceeds_size(first, length, size))
    return NarrowCopy.apply(input, dim, start, length)
