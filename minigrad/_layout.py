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

from minigrad.ops.strides import element_strides, empty_strided, is_plain, iteration_order


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
    """Dense element strides in the order PyTorch's TensorIterator gives ``shape``'s dims.

    An empty dimension counts as size 1 (``infer_dense_strides``' ``max(size, 1)``).
    """
    dense = [0] * len(shape)
    step = 1
    for dim in iteration_order(shape, operands_strides):
        dense[dim] = step
        step *= max(shape[dim], 1)
    return tuple(dense)


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
    if all(is_plain(array) for array in arrays):
        return result  # (numpy's result is row-major too)
    shape = result.shape
    ndim = len(shape)
    # (a number or a 0-d operand is broadcast, as any operand of another shape)
    same_shape = len(arrays) == len(operands) and all(array.shape == shape for array in arrays)
    if same_shape and all(array.flags.c_contiguous for array in arrays):
        return result  # PyTorch's contiguous case, whatever the strides of dims of size 1
    strides = [element_strides(array) for array in arrays]
    if same_shape and all(is_non_overlapping_and_dense(array) for array in arrays) and all(
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
        wanted = _dense_strides(shape, broadcast)
    if element_strides(result) == wanted:
        return result
    laid_out = empty_strided(shape, wanted, result.dtype)
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
