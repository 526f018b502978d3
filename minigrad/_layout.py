"""Memory layouts as PyTorch chooses them for a new tensor made like others.

``clone()`` and the ``*_like`` factories keep their input's layout (PyTorch's default
``memory_format=torch.preserve_format``), and an elementwise op lays its result out after its
operands (PyTorch's TensorIterator). The layout is visible through ``stride()`` and
``is_contiguous()``, and it decides whether a later ``view``/``reshape``/``flatten`` of the
result is a view (which a write then goes through) or a copy, or fails. numpy's
``order='K'`` agrees with PyTorch in the common cases only (it differs for broadcast
dimensions, for the strides of dimensions of size 1, and for operands laid out differently:
PyTorch's first operand decides, numpy falls back to row-major), so the rules are written out
here as PyTorch applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _memory_formats, errors
from minigrad.ops.strides import (
    contiguous_strides,
    element_strides,
    empty_strided,
    is_plain,
    iteration_order,
    iterator_strides,
    reported_strides,
    view_strides,
)


def is_non_overlapping_and_dense(array: np.ndarray) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense``: the elements fill a block without gaps.

    An empty tensor is (PyTorch counts it contiguous, whatever its strides).
    """
    if not array.size:
        return True
    dims = sorted(
        (stride, size) for stride, size in zip(array.strides, array.shape) if size >= 2
    )
    expected = array.itemsize
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


# PyTorch's order of dimensions, innermost first, for its channels-last memory formats.
_CHANNELS_LAST_ORDERS = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}


def is_channels_last(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """PyTorch's ``is_contiguous(memory_format=torch.channels_last)`` (``_3d`` for 5-d).

    Dense in the order channels, width, (depth,) height, batch (dims 1, 3, 2, 0 of a 4-d
    tensor), size-1 dims aside; a dim of size 0 makes the next stride expected 0.
    """
    expected = 1
    for dim in _CHANNELS_LAST_ORDERS[len(shape)]:
        if shape[dim] != 1:
            if strides[dim] != expected:
                return False
            expected *= shape[dim]
    return True


def channels_last_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The strides of a new 4-d (5-d) tensor in PyTorch's ``channels_last`` (``_3d``) layout.

    PyTorch's ``get_channels_last_strides_2d``/``_3d``: products of the sizes, a size of 0
    counted as 0 (unlike a row-major tensor's strides).
    """
    strides = [0] * len(shape)
    step = 1
    for dim in _CHANNELS_LAST_ORDERS[len(shape)]:
        strides[dim] = step
        step *= shape[dim]
    return tuple(strides)


# The rank each channels-last memory format asks for.
_FORMAT_RANKS = {_memory_formats.channels_last: 4, _memory_formats.channels_last_3d: 5}


def format_strides(shape: Sequence[int], memory_format: Any) -> tuple[int, ...]:
    """The strides of a new tensor of ``shape`` in ``memory_format`` (not ``preserve_format``).

    A channels-last format on a tensor of another rank: PyTorch's RuntimeError.
    """
    rank = _FORMAT_RANKS.get(memory_format)
    if rank is None:
        return contiguous_strides(shape)
    if len(shape) != rank:
        raise RuntimeError(errors.required_rank(rank, memory_format.name))
    return channels_last_strides(shape)


def is_contiguous_in(array: np.ndarray, memory_format: Any) -> bool:
    """PyTorch's ``is_contiguous(memory_format=...)``.

    Channels-last (3d) asks the 4-d (5-d) rule and is False at any other rank; any other
    format, ``preserve_format`` too, asks row-major contiguity.
    """
    rank = _FORMAT_RANKS.get(memory_format)
    if rank is None:
        return bool(array.flags.c_contiguous)
    return array.ndim == rank and is_channels_last(array.shape, reported_strides(array))


def suggested_format(array: np.ndarray) -> Any:
    """PyTorch's ``suggest_memory_format()``: channels-last (3d) by its stride heuristic."""
    if array.ndim in _CHANNELS_LAST_ORDERS and suggests_channels_last(
        array.shape, reported_strides(array)
    ):
        return _memory_formats.channels_last if array.ndim == 4 else (
            _memory_formats.channels_last_3d)
    return _memory_formats.contiguous_format


def empty_in_format(array: np.ndarray, dtype: Any, memory_format: Any) -> np.ndarray:
    """An uninitialized array of ``array``'s shape laid out in ``memory_format``.

    ``preserve_format`` (or None) is ``empty_like``'s default: ``array``'s own layout.
    """
    if memory_format is None or memory_format is _memory_formats.preserve_format:
        return empty_preserving_layout(array, dtype)
    dtype = array.dtype if dtype is None else np.dtype(dtype)
    strides = format_strides(array.shape, memory_format)
    if memory_format is _memory_formats.contiguous_format:
        return np.empty(array.shape, dtype)
    return empty_strided(array.shape, strides, dtype)


def copy_in_format(array: np.ndarray, memory_format: Any) -> np.ndarray:
    """A copy of ``array`` laid out in ``memory_format`` (``clone(memory_format=...)``)."""
    result = empty_in_format(array, None, memory_format)
    np.copyto(result, array)
    return result


def infer_dense_strides(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """Dense element strides that keep the order of ``strides``' dimensions (PyTorch's rule)."""
    return _dense_strides(shape, [strides])


def _dense_strides(
    shape: tuple[int, ...], operands_strides: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """Dense element strides in the order PyTorch's TensorIterator gives ``shape``'s dims.

    An empty dimension counts as size 1 (``infer_dense_strides``' ``max(size, 1)``).
    """
    return _dense_in_order(shape, iteration_order(shape, operands_strides))


def _dense_in_order(shape: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Dense element strides, ``order``'s dims innermost first (sizes 0 counted as 1)."""
    strides = [0] * len(shape)
    step = 1
    for dim in order:
        strides[dim] = step
        step *= max(shape[dim], 1)
    return tuple(strides)


def elementwise_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` of an elementwise op on ``operands``, laid out as PyTorch lays it out.

    ``operands``: the op's inputs, arrays or numbers (not its options).

    PyTorch's TensorIterator: operands all row-major give a row-major result (numpy agrees);
    operands all of the result's shape, dense, with the same strides give those strides;
    otherwise the result is dense in the order ``iteration_order`` finds (the first operand
    decides what it can: ``t.t() * c`` of a row-major ``c`` is column-major, where numpy's
    result is row-major). A result laid out otherwise is copied into that layout.
    """
    arrays = [op for op in operands if isinstance(op, np.ndarray) and op.ndim]
    # (numpy's result is row-major too; an empty one may not be PyTorch's: see below)
    if result.size and all(is_plain(array) for array in arrays):
        return result
    shape = result.shape
    ndim = len(shape)
    # (a number or a 0-d operand is broadcast, as any operand of another shape)
    same_shape = len(arrays) == len(operands) and all(array.shape == shape for array in arrays)
    if same_shape and all(array.flags.c_contiguous for array in arrays):
        return result  # PyTorch's contiguous case, whatever the strides of dims of size 1
    strides = [(element_strides if result.size else reported_strides)(array) for array in arrays]
    if same_shape and ndim == 4 and all(
        is_channels_last(shape, array_strides) for array_strides in strides
    ):
        wanted = channels_last_strides(shape)  # (its next case: a 4-d channels-last layout)
    elif same_shape and all(is_non_overlapping_and_dense(array) for array in arrays) and all(
        array_strides == strides[0] for array_strides in strides
    ):
        wanted = strides[0]
    else:
        broadcast = []
        for array, array_strides in zip(arrays, strides):
            # (TensorIterator's: 0 on every broadcast dim, a leading one of size 1 too)
            pad = ndim - array.ndim
            broadcast.append((0,) * pad + tuple(
                0 if size == 1 and shape[pad + i] != 1 else stride
                for i, (size, stride) in enumerate(zip(array.shape, array_strides))
            ))
        wanted = iterator_strides(shape, broadcast)
    if element_strides(result) == wanted:
        return result
    laid_out = empty_strided(shape, wanted, result.dtype)
    np.copyto(laid_out, result)
    return laid_out


def elementwise_with_number(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``elementwise_result`` of an op PyTorch computes with a number as a 0-d operand.

    ``1 - x``, ``2 ** x``, ``x % 2``: PyTorch wraps the number in a tensor and runs the tensor
    op, whose TensorIterator then has a broadcast operand, so it never takes its fast setup
    (``1 - x`` of a ``(2, 1)`` tensor of strides ``(1, 2)`` keeps them; ``x - 1`` too).
    """
    return elementwise_result(result, (*operands, 0))


def contiguous_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` laid out row-major, with the strides of a fresh tensor (size-1 dims too).

    PyTorch's rule for the ops that allocate their result contiguous whatever the inputs'
    layout: the reductions (their TensorIterator's output is allocated contiguous in the
    shape with the reduced dims kept as 1, then squeezed), scans (``cumsum``), ``stack``,
    ``repeat``, ``tril``/``triu``, ``masked_fill``. numpy keeps its
    input's order instead. ``operands`` is unused (every rule takes the op's inputs).
    """
    if is_plain(result):
        return result
    return np.array(result, order="C")  # (a new array: numpy's fresh row-major strides)


def suggests_channels_last(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """PyTorch's ``suggest_memory_format()`` is channels-last (or channels-last-3d).

    Its stride heuristic (``is_channels_last_strides_2d``/``_3d``), looser than
    ``is_channels_last``: strides that grow in the order channels, width, (depth,) height,
    batch, read even for dims of size 1, ambiguous cases counted as row-major.
    """
    order = _CHANNELS_LAST_ORDERS.get(len(shape))
    if order is None or strides[1] == 0:
        return False
    smallest = 0
    for dim in order:
        if shape[dim] == 0 or strides[dim] < smallest:
            return False
        if dim == 0 and smallest == strides[1]:
            return False  # (N111 and sliced N11W tensors: row-major by PyTorch's choice)
        smallest = strides[dim] * shape[dim] if shape[dim] > 1 else strides[dim]
    return True


def concatenated_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` of ``cat`` (or of ``roll``, a cat of two slices) laid out as PyTorch's.

    PyTorch's ``cat`` allocates its result in the memory format its inputs all suggest
    (``compute_output_memory_format``): channels-last if every input of the result's rank
    suggests it (``suggests_channels_last``), else row-major.
    """
    inputs = [op for op in operands if isinstance(op, np.ndarray) and op.ndim == result.ndim]
    if result.ndim in _CHANNELS_LAST_ORDERS and inputs and all(
        suggests_channels_last(array.shape, element_strides(array)) for array in inputs
    ):
        return _copied_into(result, channels_last_strides(result.shape))
    return contiguous_result(result, operands)


def suggested_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` in the memory format its input suggests: channels-last (3d) or row-major.

    PyTorch's rule for the ops that allocate their result with
    ``input.suggest_memory_format()``: max pooling, 2-d average and adaptive pooling,
    upsampling (``interpolate``), constant, reflection and replication padding, group norm.
    (Its 3-d average and adaptive pools are row-major.)
    """
    return _in_suggested_format(result, operands[:1])


def convolution_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` of a convolution: channels-last if its input or its weight suggests it.

    PyTorch's CPU rule (``_determine_backend_memory_format``): its 2-d kernels (mkldnn's,
    and the slow ones float64 takes) follow the suggestion; of the 3-d ones only mkldnn's,
    which float64 does not take: a float64 5-d result is row-major.
    """
    if result.ndim == 5 and result.dtype == np.float64:
        return contiguous_result(result, operands)
    return _in_suggested_format(result, operands[:2])


def _in_suggested_format(result: np.ndarray, sources: Sequence[Any]) -> np.ndarray:
    """``result`` channels-last if one of ``sources`` of its rank suggests it, else row-major."""
    if result.ndim in _CHANNELS_LAST_ORDERS and any(
        isinstance(source, np.ndarray) and source.ndim == result.ndim
        and suggests_channels_last(source.shape, element_strides(source))
        for source in sources
    ):
        return _copied_into(result, channels_last_strides(result.shape))
    return contiguous_result(result, sources)


def stacked_result(result: np.ndarray, inputs: Sequence[np.ndarray], dim: int) -> np.ndarray:
    """``result`` of ``stack`` along ``dim`` (wrapped) laid out as PyTorch's.

    PyTorch's ``stack`` is a ``cat``: along ``dim`` then viewed with the new dimension split
    out of it, or, for a new last dimension, of the inputs unsqueezed there (a new last dim of
    stride 1). So its result is channels-last (split) when every input, so unsqueezed, suggests
    it (``concatenated_result``), else row-major.
    """
    shape, ndim = inputs[0].shape, inputs[0].ndim
    if dim == ndim:
        shape = (*shape, 1)
    if len(shape) not in _CHANNELS_LAST_ORDERS or not all(
        suggests_channels_last(shape, element_strides(array) + (1,) * (dim == ndim))
        for array in inputs
    ):
        return contiguous_result(result, inputs)
    cat_shape = list(shape)
    cat_shape[dim] *= len(inputs)
    wanted = channels_last_strides(cat_shape)
    if dim < ndim:  # (a cat along dim viewed as the stack: a dim split in two always views)
        wanted = view_strides(tuple(cat_shape), wanted, result.shape)
    return _copied_into(result, wanted)


def _copied_into(result: np.ndarray, strides: tuple[int, ...]) -> np.ndarray:
    """``result`` with these element strides: itself if it has them, else a copy."""
    if element_strides(result) == strides:
        return result
    laid_out = empty_strided(result.shape, strides, result.dtype)
    np.copyto(laid_out, result)
    return laid_out


def preserved_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` laid out as ``empty_like`` of the op's first input (``preserve_format``).

    PyTorch's rule for the type conversions (``to``, ``double()``, ``type_as`` ...) and for the
    ops that start from a clone of their input (``sort``'s values): the input's strides if it
    is non-overlapping and dense, else its order of dimensions made dense.
    """
    source = operands[0]
    if is_plain(source) or source.shape != result.shape:
        return contiguous_result(result, operands)
    laid_out = empty_preserving_layout(source, result.dtype)
    if element_strides(laid_out) == element_strides(result):
        return result
    np.copyto(laid_out, result)
    return laid_out


def empty_preserving_layout(array: np.ndarray, dtype: Any = None) -> np.ndarray:
    """An uninitialized array of ``array``'s shape, laid out as PyTorch's ``empty_like`` does.

    A non-overlapping and dense array's strides are kept as they are; any other array's order
    of dimensions is kept, made dense (``infer_dense_strides``).
    """
    dtype = array.dtype if dtype is None else np.dtype(dtype)
    if is_plain(array) or min(array.strides, default=0) < 0:
        return np.empty(array.shape, dtype)  # (negative strides: numpy's own views only)
    strides = element_strides(array)
    if not is_non_overlapping_and_dense(array):
        strides = infer_dense_strides(array.shape, strides)
    return empty_strided(array.shape, strides, dtype)


def copy_preserving_layout(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` laid out as PyTorch's ``clone()`` lays it out."""
    if is_plain(array):
        return array.copy()
    result = empty_preserving_layout(array)
    np.copyto(result, array)
    return result


def written_through_aliases(x: np.ndarray, key: Any, values: Any) -> np.ndarray:
    """``x`` after ``x[key] = values``, for an ``x`` whose elements share memory (expanded).

    PyTorch's kernel writes the indexed elements' memory, so every alias of a written element
    shows the last value written there and the others keep theirs. Done on one slot per
    memory location: a plain copy with ``[key]`` set, written back whole, would put the
    aliases' old values back over the new ones.
    """
    offsets = np.zeros(x.shape, dtype=np.intp)  # each element's byte offset in the buffer
    for axis, (size, stride) in enumerate(zip(x.shape, x.strides)):
        steps = [1] * x.ndim
        steps[axis] = size
        offsets = offsets + (np.arange(size, dtype=np.intp) * stride).reshape(steps)
    locations, slot = np.unique(offsets, return_inverse=True)
    slot = slot.reshape(x.shape)  # each element's memory location
    memory = np.empty(len(locations), dtype=x.dtype)
    memory[slot] = x
    written = slot[key]
    memory[written] = np.broadcast_to(values, written.shape)  # repeated: the last one stays
    return memory[slot]
