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
from numpy.lib.stride_tricks import as_strided


def is_non_overlapping_and_dense(array: np.ndarray) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense``: the elements fill a block without gaps."""
    dims = sorted(
        (stride, size) for stride, size in zip(array.strides, array.shape) if size >= 2
    )
    expected = array.itemsize
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


def infer_dense_strides(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """Dense element strides that keep the order of ``strides``' dimensions (PyTorch's rule)."""
    return _dense_strides(shape, [strides])


def _dense_strides(
    shape: tuple[int, ...], operands_strides: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """Dense element strides in the order PyTorch's TensorIterator gives a result's dimensions.

    The dimensions are sorted innermost first by an insertion sort that asks each operand in
    turn (element strides, 0 on a broadcast dimension): the first whose strides tell the pair
    apart decides; an operand with a stride 0 in the pair, or equal strides and the outer
    dimension no larger, leaves it to the next. If none decides, the pair stays in row-major
    order.
    """
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # innermost first: the row-major order

    def should_swap(dim0: int, dim1: int) -> int:
        for strides in operands_strides:
            stride0, stride1 = strides[dim0], strides[dim1]
            if stride0 == 0 or stride1 == 0:
                continue
            if stride0 != stride1:
                return 1 if stride0 > stride1 else -1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    dense = [0] * ndim
    step = 1
    for dim in perm:
        dense[dim] = step
        step *= max(shape[dim], 1)
    return tuple(dense)


def _element_strides(array: np.ndarray) -> tuple[int, ...]:
    itemsize = array.itemsize
    return tuple(stride // itemsize for stride in array.strides)


def _strided_empty(shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialized array of ``shape`` with these (non-negative) element strides."""
    extent = 1 + sum((size - 1) * stride for size, stride in zip(shape, strides))
    buffer = np.empty(extent if all(shape) else 0, dtype)
    return as_strided(buffer, shape, tuple(stride * dtype.itemsize for stride in strides))


def elementwise_result(result: np.ndarray, operands: Sequence[Any]) -> np.ndarray:
    """``result`` of an elementwise op on ``operands``, laid out as PyTorch lays it out.

    ``operands``: the op's inputs, arrays or numbers (not its options).

    PyTorch's TensorIterator: operands all row-major give a row-major result (numpy agrees);
    operands all of the result's shape, dense, with the same strides give those strides;
    otherwise the result is dense in the order ``_dense_strides`` finds (the first operand
    decides what it can: ``t.t() * c`` of a row-major ``c`` is column-major, where numpy's
    result is row-major). A result laid out otherwise is copied into that layout.
    """
    arrays = [op for op in operands if isinstance(op, np.ndarray) and op.ndim]
    if all(_is_plain_row_major(array) for array in arrays):
        return result  # (numpy's result is row-major too)
    shape = result.shape
    ndim = len(shape)
    # (a number or a 0-d operand is broadcast, as any operand of another shape)
    same_shape = len(arrays) == len(operands) and all(array.shape == shape for array in arrays)
    if same_shape and all(array.flags.c_contiguous for array in arrays):
        return result  # PyTorch's contiguous case, whatever the strides of dims of size 1
    strides = [_element_strides(array) for array in arrays]
    if same_shape and all(is_non_overlapping_and_dense(array) for array in arrays) and all(
        array_strides == strides[0] for array_strides in strides
    ):
        wanted = strides[0]
    else:
        broadcast = []
        for array, array_strides in zip(arrays, strides):
            pad = ndim - array.ndim
            broadcast.append((0,) * pad + tuple(
                0 if size == 1 and shape[pad + i] != 1 else stride
                for i, (size, stride) in enumerate(zip(array.shape, array_strides))
            ))
        wanted = _dense_strides(shape, broadcast)
    if _element_strides(result) == wanted:
        return result
    laid_out = _strided_empty(shape, wanted, result.dtype)
    np.copyto(laid_out, result)
    return laid_out


def empty_preserving_layout(array: np.ndarray, dtype: Any = None) -> np.ndarray:
    """An uninitialized array of ``array``'s shape, laid out as PyTorch's ``empty_like`` does.

    A non-overlapping and dense array's strides are kept as they are; any other array's order
    of dimensions is kept, made dense (``infer_dense_strides``).
    """
    dtype = array.dtype if dtype is None else np.dtype(dtype)
    if _is_plain_row_major(array) or min(array.strides, default=0) < 0:
        return np.empty(array.shape, dtype)  # (negative strides: numpy's own views only)
    strides = _element_strides(array)
    if not is_non_overlapping_and_dense(array):
        strides = infer_dense_strides(array.shape, strides)
    return _strided_empty(array.shape, strides, dtype)


def copy_preserving_layout(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` laid out as PyTorch's ``clone()`` lays it out."""
    if _is_plain_row_major(array):
        return array.copy()
    result = empty_preserving_layout(array)
    np.copyto(result, array)
    return result


def _is_plain_row_major(array: np.ndarray) -> bool:
    """Whether ``array`` has the strides a new row-major array of its shape gets.

    numpy's C-contiguous flag ignores the strides of dimensions of size 1 and of empty
    arrays, which PyTorch keeps; without such dimensions, the flag says it.
    """
    return array.flags.c_contiguous and array.size > 0 and 1 not in array.shape
