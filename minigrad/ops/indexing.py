"""Indexing: ``x[key]`` and ``x[key] = value``, following PyTorch's own algorithm.

The items of a key are applied one after the other. Ints, slices, ``None`` and ``...`` make view
ops, exactly as PyTorch records them: ``x[1:3, 0]`` is a SliceBackward0 followed by a
SelectBackward0; inside a tuple a slice that keeps everything (``x[:, 0]``) is skipped, and a key
that changes nothing (``x[...]``, ``x[:, :]``) gives an AliasBackward0. Index tensors (integer or
bool tensors, lists, ``True``/``False``) are collected on the way and applied last, to the view
built so far, by one IndexBackward0 node: a copy, which saves the index tensors.

``x[key] = value`` walks the same path to a view and copies ``value`` into it (``copy_``, or
``fill_`` for a single value) -- a write through a view, so the base's history gets a CopySlices
node -- or, with index tensors, runs ``index_put_`` on it.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._layout import copy_preserving_layout, preserved_result, written_through_aliases
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace, has_internal_overlap
from minigrad.autograd.saved_attributes import TensorList, constant
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import views
from minigrad.ops._helpers import is_tensor, run
from minigrad.ops.fill import FillTensor, copy_
from minigrad.ops.strides import (
    contiguous_strides,
    empty_strided,
    expand_strides,
    iterator_strides,
    reported_strides,
    view_strides,
)

_INDEX = object()  # placeholder for an index tensor inside a key template



# --- the two ops: read and write at index tensors --------------------------------------------


_INDEX_DTYPES = frozenset(np.dtype(t) for t in (np.int64, np.int32, np.uint8, np.bool_))


def _numpy_key(
    shape: tuple[int, ...], template: tuple[Any, ...], indices: tuple[np.ndarray, ...],
    warn: bool = False,
) -> tuple[Any, ...]:
    """The numpy key for ``template`` with its index arrays; PyTorch's errors for bad ones.

    Bool masks become the integer arrays of their nonzero positions (what PyTorch does too), so
    every index array is checked, and broadcast, as an integer array. ``warn``: PyTorch's
    deprecation warning for a uint8 mask (its kernel's, so a forward's).
    """
    key, bounds = _unchecked_key(shape, template, indices, warn)
    _check_bounds(*bounds)
    return key


def _unchecked_key(
    shape: tuple[int, ...], template: tuple[Any, ...], indices: tuple[np.ndarray, ...],
    warn: bool,
) -> tuple[tuple[Any, ...], tuple[list[np.ndarray], list[int]]]:
    """``_numpy_key`` without the bounds of the indices, and what ``_check_bounds`` takes.

    PyTorch's ``make_info``: the indices' dtypes, the masks' shapes, broadcasting, an empty
    dimension; a write checks its value next, and its kernel each index's bounds last.
    """
    for index in indices:  # (PyTorch's kernel checks every index's dtype first)
        if index.dtype not in _INDEX_DTYPES:
            raise IndexError(errors.INDEX_TENSOR_DTYPE)
    found = iter(indices)
    key: list[Any] = []
    arrays: list[np.ndarray] = []
    sizes: list[int] = []  # the size of the dimension each array indexes
    for item in template:
        if item is not _INDEX:
            key.append(item)
            continue
        index = next(found)
        if index.dtype.kind == "b" or index.dtype == np.uint8:
            if warn and index.dtype == np.uint8:
                warnings.warn(errors.UINT8_INDEX_DEPRECATED, UserWarning, stacklevel=2)
            _check_mask(shape, index, len(key))
            nonzero = np.nonzero(index)
            sizes.extend(shape[len(key) : len(key) + len(nonzero)])
            key.extend(nonzero)
            arrays.extend(nonzero)
            continue
        sizes.append(shape[len(key)])
        key.append(index)
        arrays.append(index)
    # In PyTorch's order: broadcasting, an empty dimension (then each index's bounds).
    try:
        broadcast = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shapes = ", ".join(errors.format_size(a.shape) for a in arrays)
        raise IndexError(errors.index_broadcast_mismatch(shapes)) from None
    if 0 in sizes and 0 not in broadcast:
        raise IndexError(errors.INDEX_OF_EMPTY_DIM)
    return tuple(key), (arrays, sizes)


def _check_mask(shape: tuple[int, ...], mask: np.ndarray, first: int) -> None:
    """PyTorch's IndexError unless ``mask`` fits ``shape``'s dimensions from ``first`` on.

    A mask covers as many dimensions as it has, from ``first``: of the same sizes.
    """
    for j, size in enumerate(mask.shape):
        if first + j >= len(shape) or shape[first + j] != size:
            raise IndexError(errors.mask_shape_mismatch(mask.shape, j, shape, first + j))


def _check_bounds(arrays: list[np.ndarray], sizes: list[int]) -> None:
    """PyTorch's IndexError naming the first index of ``arrays`` outside its dimension's size."""
    for dim, (index, size) in enumerate(zip(arrays, sizes)):
        outside = (index >= size) | (index < -size)
        if outside.any():
            bad = index.ravel()[np.argmax(outside.ravel())]
            raise IndexError(errors.index_out_of_bounds(bad, dim, size))


def _arrays(values: tuple[Any, ...]) -> tuple[np.ndarray, ...]:
    return tuple(v._array if isinstance(v, TensorBase) else v for v in values)


def _index_result_strides(
    x: np.ndarray, key: tuple[Any, ...], shape: tuple[int, ...]
) -> list[int]:
    """The strides of PyTorch's ``x[key]`` (``key``: slices and integer arrays only).

    PyTorch's AdvancedIndex: index dimensions that are not next to each other are moved to the
    front; the indexed dimensions of ``x`` are replaced by the broadcast index shape (stride 0);
    a TensorIterator over ``x`` and the index arrays then lays the result out.
    """
    sizes, strides = list(x.shape), list(reported_strides(x))
    key = key + (slice(None),) * (x.ndim - len(key))
    positions = [d for d, item in enumerate(key) if isinstance(item, np.ndarray)]
    if positions != list(range(positions[0], positions[-1] + 1)):
        order = positions + [d for d in range(x.ndim) if d not in positions]
        sizes, strides = [sizes[d] for d in order], [strides[d] for d in order]
        positions = list(range(len(positions)))
    arrays = [key[d] for d in range(x.ndim) if isinstance(key[d], np.ndarray)]
    before, after = positions[0], x.ndim - positions[-1] - 1
    broadcast = np.broadcast_shapes(*(a.shape for a in arrays))
    operands = [strides[:before] + [0] * len(broadcast) + strides[len(strides) - after :]]
    ranked = (1,) * before + broadcast + (1,) * after
    if ranked == shape and not all(shape):
        # TensorIterator's fast setup: every operand of the result's shape and contiguous, as
        # an empty tensor always is: a contiguous result
        return list(contiguous_strides(shape))
    for array in arrays:
        # The index broadcast (expand), then reshaped to the result's rank, as PyTorch does;
        # a size-1 dimension keeps the stride that gives it, unless the result's is larger.
        own = reported_strides(array)
        expanded = expand_strides(array.shape, own, broadcast)
        reshaped = view_strides(broadcast, expanded, ranked)  # adding 1s: always a view
        assert reshaped is not None
        operands.append([0 if n == 1 and m != 1 else s for s, n, m in
                         zip(reshaped, ranked, shape)])
    return iterator_strides(shape, operands)


class Index(Op):
    """y = x[key] with integer or bool index tensors (a copy);  dx = grad added at ``key``.

    Saves the index tensors: changing one in place before backward raises. PyTorch shows them
    as ``indices``, a list with None where the template keeps a dimension whole, and x's shape.
    """

    tensor_options = True  # an index or target tensor among the options

    saves = TensorList("indices", lambda node: tuple(item is _INDEX for item in node.template))
    saved_options = {"self_sym_sizes": "shape"}
    fields = ("shape", "template")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, template: tuple[Any, ...], *indices: np.ndarray) -> Any:
        ctx.save_for_backward(*indices)
        ctx.shape, ctx.template = x.shape, template
        key = _numpy_key(x.shape, template, indices, warn=True)
        found = x[key]
        # A fresh tensor laid out as PyTorch lays out its index results (numpy's layout of an
        # advanced-indexing result differs).
        result = empty_strided(found.shape, _index_result_strides(x, key, found.shape),
                               found.dtype)
        result[...] = found
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        indices = _arrays(ctx.saved_tensors)  # tensors when backward runs with create_graph
        key = _numpy_key(ctx.shape, ctx.template, indices)
        result = run(IndexAccumulate, grad, ctx.shape, key)
        return (result, None) + (None,) * len(indices)


class IndexAccumulate(Op):
    """y = zeros of ``shape`` with ``grad`` added at ``key``;  dgrad = gg[key].

    Index's backward as an op of its own, so that ``create_graph`` records it.
    """

    fields = ("key",)

    node_name = "IndexPutImplBackward0"

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, shape: tuple[int, ...], key: Any) -> np.ndarray:
        ctx.key = key
        result = np.zeros(shape, dtype=grad.dtype)
        np.add.at(result, key, grad)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad[ctx.key], None, None


def _indexed_shape_of_key(shape: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    """The shape of ``x[key]`` (``key``: whole slices and integer arrays), bounds unchecked.

    The broadcast index shape replaces the indexed dimensions, or goes first if they are not
    next to each other (numpy's rule and PyTorch's).
    """
    positions = [d for d, item in enumerate(key) if isinstance(item, np.ndarray)]
    broadcast = np.broadcast_shapes(*(key[d].shape for d in positions))
    if positions == list(range(positions[0], positions[-1] + 1)):
        return shape[: positions[0]] + broadcast + shape[positions[-1] + 1 :]
    return broadcast + tuple(n for d, n in enumerate(shape) if d not in positions)


def _write_key(
    x: np.ndarray, values: np.ndarray, template: tuple[Any, ...], indices: tuple[np.ndarray, ...]
) -> tuple[Any, ...]:
    """The numpy key of a write of ``values`` into ``x``, checked in PyTorch's order.

    ``make_info``'s checks of the indices, then the values' shape and dtype, and the indices'
    bounds last (PyTorch's kernel checks them as it writes).
    """
    key, bounds = _unchecked_key(x.shape, template, indices, warn=True)
    shape = _indexed_shape_of_key(x.shape, key)
    try:
        fits = np.broadcast_shapes(np.shape(values), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(errors.index_put_broadcast_mismatch(np.shape(values), shape))
    if values.dtype != x.dtype:
        raise RuntimeError(errors.index_put_dtypes(
            display_name(x.dtype), display_name(values.dtype)))
    _check_bounds(*bounds)
    return key


def _single_mask(
    shape: tuple[int, ...], template: tuple[Any, ...], indices: tuple[np.ndarray, ...],
    size: int,
) -> np.ndarray | None:
    """The mask, if PyTorch's ``index_put_`` hands this write on to ``masked_fill_``.

    It does for one value and one index, a bool or uint8 mask (after checking its shape).
    """
    if size != 1 or len(indices) != 1:
        return None
    (mask,) = indices
    if mask.dtype.kind != "b" and mask.dtype != np.uint8:
        return None
    _check_mask(shape, mask, template.index(_INDEX))
    return mask


class IndexPut(Op):
    """y = x with ``values`` written at ``key``;  dx = grad, 0 at ``key``;  dvalues = grad[key].

    Saves the index tensors: PyTorch's ``indices`` list, None where the template keeps a
    dimension whole.
    """

    saves = TensorList("indices", lambda node: tuple(item is _INDEX for item in node.template))
    saved_options = {"accumulate": constant(False)}  # x[key] = value never accumulates
    gradients_fit_inputs = False  # values of x's shape may be broadcast to a larger indexed one

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    result_layout = staticmethod(preserved_result)  # index_put: a clone of x, written into

    fields = ("template",)

    num_inputs = 2
    checks_internal_overlap = False  # PyTorch only warns for an expanded tensor (see forward)

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, values: Any, template: tuple[Any, ...], *indices: np.ndarray
    ) -> np.ndarray:
        ctx.save_for_backward(*indices)
        ctx.template = template
        overlapping = has_internal_overlap(x)
        if overlapping:
            # PyTorch warns (and writes) instead of raising; a bool mask with one value is then
            # handed on to masked_fill_, which warns again.
            message = errors.expanded_write_deprecated("index_put_", "tensor[indices] = tensor")
            warnings.warn(message, UserWarning, stacklevel=2)
        mask = _single_mask(x.shape, template, indices, np.size(values))
        if mask is not None:
            # PyTorch's kernel hands one mask and one value on to masked_fill_: no uint8 mask,
            # and the value is cast to x's dtype, whatever its own.
            if mask.dtype == np.uint8:
                raise RuntimeError(errors.masked_fill_mask_dtype("unsigned char"))
            if overlapping:
                message = errors.expanded_write_deprecated("masked_fill_", "tensor[mask] = scalar")
                warnings.warn(message, UserWarning, stacklevel=2)
            values = np.asarray(values).reshape(()).astype(x.dtype)
            key = _numpy_key(x.shape, template, indices)
        else:
            key = _write_key(x, values, template, indices)
        if overlapping:
            return written_through_aliases(x, key, values)
        result = x.copy()
        result[key] = values
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        indices = _arrays(ctx.saved_tensors)  # tensors when backward runs with create_graph
        key = _numpy_key(tuple(grad.shape), ctx.template, indices)
        if is_tensor(grad):  # create_graph: a mask instead of a write
            keep = np.ones(tuple(grad.shape), dtype=grad._array.dtype)
            keep[key] = 0
            return (grad * keep, grad[key], None) + (None,) * len(indices)
        dx = np.array(grad, copy=True)
        dx[key] = 0
        return (dx, grad[key], None) + (None,) * len(indices)


class IndexPutAccumulate(Op):
    """y = x with ``values`` added at ``key`` (repeated positions accumulate).

    dx = grad;  dvalues = grad[key].  Saves the index tensors, as IndexPut does (PyTorch's
    IndexPutBackward0 with ``accumulate=True``).
    """

    node_name = "IndexPutBackward0"
    saves = IndexPut.saves
    saved_options = {"accumulate": constant(True)}
    gradients_fit_inputs = False  # (as IndexPut's)

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    result_layout = staticmethod(preserved_result)  # a clone of x, added into

    fields = ("template",)

    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, values: Any, template: tuple[Any, ...], *indices: np.ndarray
    ) -> np.ndarray:
        ctx.save_for_backward(*indices)
        ctx.template = template
        key = _write_key(x, values, template, indices)
        result = copy_preserving_layout(x)
        np.add.at(result, key, values)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        indices = _arrays(ctx.saved_tensors)  # tensors when backward runs with create_graph
        key = _numpy_key(tuple(grad.shape), ctx.template, indices)
        return (grad, grad[key], None) + (None,) * len(indices)


# --- reading the key -------------------------------------------------------------------------


def _is_int(item: Any) -> bool:
    if type(item) is int:  # (the common key, without the isinstance tests)
        return True
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _is_sequence(item: Any) -> bool:
    """Whether ``item`` is a sequence to Python's ``PySequence_Check``, as PyTorch asks.

    Lists, tuples, strings, ranges and numpy arrays (0-d ones too); not dicts or numbers.
    """
    return isinstance(item, (list, tuple, str, bytes, bytearray, range, np.ndarray, Sequence))


def _as_items(key: Any) -> tuple[Any, ...]:
    """The key as a tuple of items (PyTorch's ``wrapTuple``).

    A short sequence (not a numpy array) holding sequences, tensors, slices, None or ``...``
    still counts as a tuple, with PyTorch's deprecation warning (numpy's old rule); any other
    sequence is one index tensor.
    """
    if isinstance(key, tuple):
        return key
    if type(key) is not np.ndarray and not isinstance(key, TensorBase) and _is_sequence(key) and (
        len(key) < 32
    ):
        for item in key:
            if isinstance(item, (TensorBase, slice)) or item is None or item is Ellipsis or (
                _is_sequence(item)
            ):
                warnings.warn(errors.SEQUENCE_AS_TUPLE_DEPRECATED, UserWarning, stacklevel=4)
                return tuple(key)
    return (key,)


def _index_tensor(item: Any) -> TensorBase:
    """A sequence used as an index, as the tensor PyTorch makes of it.

    PyTorch's ``indexing_tensor_from_data``: bool arrays, and numpy's uint8 ones, stay masks;
    any other number becomes int64 (floats are truncated).
    """
    if isinstance(item, (str, bytes)):
        raise TypeError(errors.invalid_data_type(type(item).__name__))
    array = np.asarray(item)
    if array.dtype.kind in "US":
        raise TypeError(errors.invalid_data_type("str" if array.dtype.kind == "U" else "bytes"))
    if array.dtype.kind in "iuf" and not (array.dtype == np.uint8 and isinstance(item, np.ndarray)):
        with np.errstate(invalid="ignore"):  # (nan or inf: any integer, as in PyTorch)
            array = array.astype(np.int64)
    elif array.size == 0 and array.dtype.kind != "b":
        array = array.astype(np.int64)
    return TensorBase.output_class._make(array)


def _specified_dims(items: tuple[Any, ...]) -> int:
    # How many dimensions of the tensor the key consumes (a bool mask: one per mask dimension).
    count = 0
    for item in items:
        if type(item) is slice or type(item) is int:  # (the commonest items: one dim each)
            count += 1
        elif isinstance(item, TensorBase):
            array = item._array
            count += array.ndim if array.dtype.kind == "b" or array.dtype == np.uint8 else 1
        elif not (item is None or item is Ellipsis or isinstance(item, bool)):
            count += 1
    return count


def _select(result: Any, dim: int, index: int, position: int) -> Any:
    size = result._array.shape[dim]
    if not -size <= index < size:
        _arguments.check_int64(index)  # (past int64, the parser's error comes first)
        raise IndexError(errors.index_out_of_bounds(index, position, size))
    return views.selected(result, dim, index, size)


_PLAIN_BOUND = frozenset((int, type(None)))


def _slice_bound(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, TensorBase):
        return int(value.item())
    return operator.index(value)


def _slice(result: Any, dim: int, item: slice, skip_full: bool) -> Any:
    start, stop, step = item.start, item.stop, item.step
    if not (type(start) in _PLAIN_BOUND and type(stop) in _PLAIN_BOUND
            and type(step) in _PLAIN_BOUND):  # (ints and None are bounds as they are)
        start, stop, step = _slice_bound(start), _slice_bound(stop), _slice_bound(step)
    step = 1 if step is None else step
    # (PyTorch reads the slice, which checks its step, before it looks at the tensor)
    if step == 0:
        raise ValueError(errors.SLICE_STEP_ZERO)
    if step < 0:
        raise ValueError(errors.STEP_NOT_POSITIVE)
    if result._array.ndim == 0:
        raise IndexError(errors.SLICE_0D)
    # PyTorch skips a slice that keeps the whole dimension -- but only inside a tuple key.
    if skip_full and start in (None, 0) and step == 1 and (
        stop is None or stop >= result._array.shape[dim]
    ):
        return result
    # (PyTorch's indexing gives at::slice 0 and int64's largest value for bounds left out)
    return views.slice_dim(
        result, dim, 0 if start is None else start, _INT64_MAX if stop is None else stop, step
    )


_INT64_MAX = (1 << 63) - 1


def _mask_index(result: Any, dim: int, value: bool) -> tuple[Any, TensorBase]:
    """``True``/``False`` as an index: a new size-1 dimension, indexed by [0] or by []."""
    result = views.unsqueeze(result, dim)
    positions = np.zeros(1 if value else 0, dtype=np.int64)
    return result, TensorBase.output_class._make(positions)


def _apply_slicing(input: Any, items: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """The view that the basic items of ``items`` make, and the index tensors met on the way.

    PyTorch's ``applySlicing``: each index tensor comes with the dimension of the view where it
    applies.
    """
    ndim = input._array.ndim
    specified = _specified_dims(items)
    if specified > ndim:
        raise IndexError(errors.too_many_indices(ndim))
    result, dim = input, 0
    indices: list[tuple[int, TensorBase]] = []

    def record(tensor: TensorBase) -> None:
        # A k-dimensional bool mask stands for k dimensions of the view.
        nonlocal dim
        indices.append((dim, tensor))
        array = tensor._array
        dim += array.ndim if array.dtype.kind == "b" or array.dtype == np.uint8 else 1

    for position, item in enumerate(items):
        if type(item) is slice:  # (the commonest items first; a slice has no subclasses)
            result = _slice(result, dim, item, skip_full=True)
            dim += 1
        elif type(item) is int:
            result = _select(result, dim, item, position)
        elif _is_int(item):
            result = _select(result, dim, int(item), position)
        elif item is Ellipsis:
            dim += ndim - specified
        elif item is None:
            result = views.unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, bool):  # (numpy's bool is no index: the error below)
            result, tensor = _mask_index(result, dim, item)
            record(tensor)
        elif isinstance(item, TensorBase) or _is_sequence(item):
            # A sequence becomes a tensor first (numpy's 0-d arrays too), then as a tensor: a
            # 0-d integer one selects (a view), a 0-d bool or uint8 one is a mask of a new dim.
            tensor = item if isinstance(item, TensorBase) else _index_tensor(item)
            array = tensor._array
            if array.ndim == 0 and array.dtype.kind in "iub":
                if array.dtype.kind == "b" or array.dtype == np.uint8:
                    result, tensor = _mask_index(result, dim, bool(array))
                    record(tensor)
                else:
                    result = _select(result, dim, int(array), position)
            else:
                record(tensor)  # (its dtype is checked by the op, as by PyTorch's kernel)
        else:
            try:
                if isinstance(item, np.bool_):
                    raise TypeError  # (PyTorch takes numpy's integers, not its bools)
                index = operator.index(item)
            except TypeError:
                raise IndexError(errors.invalid_index(errors.python_type_name(item))) from None
            result = _select(result, dim, index, position)
    return result, indices


def _split_indices(
    indices: list[tuple[int, TensorBase]],
) -> tuple[tuple[Any, ...], tuple[TensorBase, ...]]:
    """A key template (``slice(None)`` or a placeholder per index item) and the index tensors."""
    template: list[Any] = []
    dim = 0
    for start, tensor in indices:
        template.extend([slice(None)] * (start - dim))
        template.append(_INDEX)
        array = tensor._array
        dim = start + (array.ndim if array.dtype.kind == "b" or array.dtype == np.uint8 else 1)
    return tuple(template), tuple(tensor for _, tensor in indices)


def _single_int(input: Any, index: int) -> Any:
    """``input[index]`` for an int key: PyTorch's messages for 0-d tensors included."""
    if input._array.ndim == 0:
        if index == 0:
            raise IndexError(errors.INDEX_OF_0D)
        raise IndexError(errors.index_out_of_bounds(index, 0, 0))
    return _select(input, 0, index, 0)


def getitem(input: Any, key: Any) -> Any:
    """``input[key]``: a view for ints, slices, None and ``...``; a copy with index tensors."""
    if type(key) is int:  # (the commonest key first)
        return _single_int(input, key)
    if key is None:
        return views.unsqueeze(input, 0)
    if key is Ellipsis:
        return views.alias(input)
    if _is_int(key):
        return _single_int(input, int(key))
    if isinstance(key, slice):
        return _slice(input, 0, key, skip_full=False)
    if isinstance(key, bool):
        result, tensor = _mask_index(input, 0, key)
        return Index.apply(result, (_INDEX,), tensor)
    sliced, indices = _apply_slicing(input, _as_items(key))
    if not indices:
        return views.alias(sliced) if sliced is input else sliced
    template, tensors = _split_indices(indices)
    return Index.apply(sliced, template, *tensors)


# --- writing ---------------------------------------------------------------------------------


def _value_to_tensor(input: Any, value: Any) -> Any:
    """What may be assigned: a tensor, or a single number (a 0-d tensor of ``input``'s dtype)."""
    if isinstance(value, TensorBase):
        return value
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        _arguments.check_int64_arguments(value)  # (past int64, the parser's error first)
        return TensorBase.output_class._make(np.asarray(value).astype(input._array.dtype))
    kind = type(value)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    raise TypeError(errors.cannot_assign(name, input._type_name()))


def _without_leading_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    first = next((i for i, n in enumerate(shape) if n != 1), len(shape))
    return shape[first:]


def _copy_to(dst: Any, src: Any) -> None:
    """``dst[...] = src`` as PyTorch's ``copy_to`` does it.

    ``copy_`` if the shapes match, ``fill_`` for a 0-d source, else ``copy_`` of the source
    viewed without its leading 1s and expanded to ``dst``'s shape. (``copy_`` itself: into an
    integer tensor it records nothing, where PyTorch's fill_ does, as its does.)
    """
    dst_shape, src_shape = dst._array.shape, src._array.shape
    if dst_shape == src_shape:
        copy_(dst, src)
        return
    if not src_shape:
        apply_inplace(FillTensor, dst, src)
        return
    src = views.view(src, _without_leading_ones(src_shape))
    if src._array.shape != dst_shape:
        src = views.expand(src, dst_shape)
    copy_(dst, src)


def setitem(input: Any, key: Any, value: Any) -> None:
    """``input[key] = value``: a write through a view, or an index_put for index tensors."""
    value = _value_to_tensor(input, value)
    if key is False:
        return  # PyTorch writes nothing (and bumps no version)
    if key is Ellipsis:
        _copy_to(input, value)
        return
    if key is None or key is True:
        _copy_to(views.unsqueeze(input, 0), value)
        return
    if _is_int(key):
        _copy_to(_single_int(input, int(key)), value)
        return
    if isinstance(key, slice):
        _copy_to(_slice(input, 0, key, skip_full=True), value)
        return
    sliced, indices = _apply_slicing(input, _as_items(key))
    if not indices:
        _copy_to(sliced, value)
        return
    shape = _without_leading_ones(value._array.shape)
    if shape != value._array.shape:
        value = views.view(value, shape)
    template, tensors = _split_indices(indices)
    apply_inplace(IndexPut, sliced, value, template, *tensors)


# --- index_put: the write of ``x[indices] = values`` as a function -------------------------------


def _index_put_call(input: Any, indices: Any, values: Any, accumulate: bool,
                    name: str) -> tuple[type[Op], tuple[Any, ...]]:
    """The checked op and arguments (after ``input``) of ``index_put`` and ``index_put_``.

    ``indices``: a tuple (or list) of index tensors, one per leading dimension (a bool mask
    stands for as many dimensions as it has); ``values`` broadcast to the indexed shape.
    """
    position = 2 if name == "index_put" else 1  # (the method's self is not counted)
    if not isinstance(indices, (tuple, list)):
        raise TypeError(errors.wrong_argument_type(
            name, "indices", "tuple of Tensors", errors.python_type_name(indices), position))
    _arguments.check_tensor_sequence(indices, position - 1)
    _arguments.check_tensor(values, name, "values", position + 1)
    _arguments.check_value(accumulate, "bool", name, "accumulate", position + 2)
    array = input._array
    if _specified_dims(tuple(indices)) > array.ndim:
        raise IndexError(errors.too_many_indices(array.ndim) + f" (got {len(indices)})")
    # (the indices and values are checked by the op: after an in-place write's own checks)
    template = (_INDEX,) * len(indices)
    op = IndexPutAccumulate if accumulate else IndexPut
    return op, (values, template, *indices)


def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """A copy of ``input`` with ``values`` written (or, with ``accumulate``, added) at ``indices``.

    ``indices`` is a tuple of index tensors (int64/int32 positions or bool masks), as in
    ``input[indices] = values``; ``values`` (of ``input``'s dtype) broadcast to the indexed
    shape. Repeated positions add up with ``accumulate=True``.

    Example:
        >>> import minigrad
        >>> i = minigrad.tensor([0, 0, 2])
        >>> minigrad.zeros(3).index_put((i,), minigrad.tensor(1.0), accumulate=True)
        tensor([2., 0., 1.])
    """
    op, args = _index_put_call(input, indices, values, accumulate, "index_put")
    return op.apply(input, *args)


def index_put_(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """Write (or, with ``accumulate``, add) ``values`` at ``indices``, in place."""
    op, args = _index_put_call(input, indices, values, accumulate, "index_put_")
    return apply_inplace(op, input, *args)
