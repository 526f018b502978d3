"""Memory layouts as PyTorch chooses them for a new tensor made like another.

``clone()`` and the ``*_like`` factories keep their input's layout (PyTorch's default
``memory_format=torch.preserve_format``): the layout is visible through ``stride()`` and
``is_contiguous()``, and it decides whether a later ``view``/``flatten`` of the result is a
view or fails. numpy's ``order='K'`` agrees with PyTorch in the common cases only (it differs
for broadcast dimensions and for the strides of dimensions of size 1), so the rule is written
out here as PyTorch's ``empty_like`` applies it.
"""

from __future__ import annotations

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
    """Dense element strides that keep the order of ``strides``' dimensions (PyTorch's rule).

    The dimensions are sorted by stride, innermost first, with an insertion sort that leaves
    a pair in row-major order when it cannot tell them apart: either stride 0 (broadcast), or
    equal strides and the outer dimension no larger.
    """
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # innermost first: the row-major order

    def should_swap(dim0: int, dim1: int) -> int:
        stride0, stride1 = strides[dim0], strides[dim1]
        if stride0 == 0 or stride1 == 0:
            return 0
        if stride0 != stride1:
            return 1 if stride0 > stride1 else -1
        return 1 if shape[dim0] > shape[dim1] else 0

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


def empty_preserving_layout(array: np.ndarray, dtype: Any = None) -> np.ndarray:
    """An uninitialized array of ``array``'s shape, laid out as PyTorch's ``empty_like`` does.

    A non-overlapping and dense array's strides are kept as they are; any other array's order
    of dimensions is kept, made dense (``infer_dense_strides``).
    """
    dtype = array.dtype if dtype is None else np.dtype(dtype)
    if _is_plain_row_major(array) or min(array.strides, default=0) < 0:
        return np.empty(array.shape, dtype)  # (negative strides: numpy's own views only)
    itemsize = array.itemsize
    strides = tuple(stride // itemsize for stride in array.strides)
    if not is_non_overlapping_and_dense(array):
        strides = infer_dense_strides(array.shape, strides)
    extent = 1 + sum((size - 1) * stride for size, stride in zip(array.shape, strides))
    buffer = np.empty(extent if array.size else 0, dtype)
    return as_strided(buffer, array.shape, tuple(stride * dtype.itemsize for stride in strides))


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
