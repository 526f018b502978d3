"""Stride algebra: the strides PyTorch gives a view, computed for numpy arrays.

A numpy view answers ``stride()`` in bytes and may pick other strides than PyTorch for the
same view (size-1 dims, expanded dims); these helpers compute PyTorch's strides in elements and
build numpy views with exactly them, so ``stride()`` and ``is_contiguous()`` answer as PyTorch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def view_strides(
    shape: tuple[int, ...], strides: tuple[int, ...], new_shape: tuple[int, ...]
) -> tuple[int, ...] | None:
    """The strides of ``new_shape`` viewing memory laid out as (``shape``, ``strides``), or None.

    PyTorch's ``computeStride``: a view exists iff every run of dimensions that is contiguous in
    memory ("chunk") maps onto whole dimensions of the new shape. Size-1 dimensions get the
    strides PyTorch gives them.
    """
    if not shape:
        return (1,) * len(new_shape)
    numel = math.prod(shape)
    if numel == 0:
        if tuple(shape) == tuple(new_shape):
            return tuple(strides)
        return contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        # At the end of a chunk of memory-contiguous dimensions: match it with new dimensions.
        if tensor_d == 0 or (
            shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        ):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = strides[tensor_d - 1]
                tensor_numel = view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The element strides of a new row-major tensor of ``shape``, as PyTorch gives them.

    An empty dimension counts as size 1 (numpy gives an empty array strides of 0).
    """
    result, stride = [], 1
    for size in reversed(shape):
        result.append(stride)
        stride *= max(size, 1)
    return tuple(reversed(result))


def expand_strides(
    shape: tuple[int, ...], strides: tuple[int, ...], target: tuple[int, ...]
) -> tuple[int, ...]:
    """The strides of (``shape``, ``strides``) expanded to ``target``.

    PyTorch's ``inferExpandGeometry``: repeated dimensions get stride 0, the others keep theirs.
    A 0-d tensor's every dimension is new and gets 0, of size 1 too (``zeros(()).expand(1)``).
    """
    if not shape:
        return (0,) * len(target)
    lead = len(target) - len(shape)
    new_strides = [0] * len(target)
    for i in range(len(target) - 1, -1, -1):
        dim = i - lead
        if dim >= 0:
            size, stride = shape[dim], strides[dim]
        else:
            size = 1
            stride = target[i + 1] * new_strides[i + 1] if i + 1 < len(target) else 1
        new_strides[i] = 0 if size != target[i] else stride
    return tuple(new_strides)


def element_strides(x: np.ndarray) -> tuple[int, ...]:
    """``x``'s strides in elements, as PyTorch's ``stride()`` counts them."""
    itemsize = x.itemsize
    return tuple(s // itemsize for s in x.strides)


def reported_strides(x: np.ndarray) -> tuple[int, ...]:
    """``x``'s strides in elements as a tensor on it reports them (``Tensor.stride``).

    numpy gives a new empty array strides of 0; PyTorch a new empty tensor contiguous ones.
    """
    strides = element_strides(x)
    if not x.size and not any(strides):
        return contiguous_strides(x.shape)
    return strides


def is_plain(x: np.ndarray) -> bool:
    """True if ``x`` has the strides of a fresh row-major array, size-1 dimensions included.

    Then numpy's own reshape gives the strides PyTorch gives (the fast path).
    """
    if not x.flags.c_contiguous:
        return False
    shape = x.shape
    if x.size and 1 not in shape:
        return True  # (the flag ignores only the strides of size-1 dims and of empty arrays)
    expected = x.itemsize
    for size, stride in zip(reversed(shape), reversed(x.strides)):
        if stride != expected:
            return False
        expected *= size or 1  # (an empty dim counts as 1: PyTorch's new strides)
    return True


def strided(x: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """A view of ``x``'s memory with ``shape`` and ``strides`` (in elements).

    Made on the buffer of ``x`` (or of the contiguous array ``x`` views), so that the view's
    ``base`` is an array: numpy's ``as_strided`` hangs its view on a stand-in object, which
    freezes a read-only flag for good (the saved-tensor guard's lock would outlive its
    release, autograd/guard.py) and hides the array viewed. (Also ~5x quicker.)
    """
    itemsize = x.itemsize
    byte_strides = tuple(s * itemsize for s in strides)
    buffer, offset = x, 0
    if not x.flags.c_contiguous:
        while isinstance(buffer.base, np.ndarray):
            buffer = buffer.base
        if buffer.flags.c_contiguous:
            offset = _address(x) - _address(buffer)
    if buffer.flags.c_contiguous:
        try:
            return np.ndarray(shape, x.dtype, buffer=buffer, offset=offset, strides=byte_strides)
        except (ValueError, TypeError):  # (a size-1 dim's stride pointing out of the block)
            pass
    return np.lib.stride_tricks.as_strided(x, shape=shape, strides=byte_strides)


def _address(x: np.ndarray) -> int:
    """Where ``x``'s first element lives in memory."""
    return x.__array_interface__["data"][0]


def iteration_order(shape: Sequence[int], operands: Sequence[Sequence[int]]) -> list[int]:
    """The dimensions of ``shape``, innermost first, as PyTorch's TensorIterator orders them.

    ``operands``: each operand's strides in elements, broadcast to ``shape`` (0 on a broadcast
    dimension). An insertion sort asks each operand in turn: the first whose strides tell a
    pair apart decides; a stride 0 in the pair, or equal strides with the outer dimension no
    larger, leaves it to the next. If none decides, the pair stays in row-major order. A new
    result is then laid out densely in this order.
    """
    ndim = len(shape)

    def should_swap(dim0: int, dim1: int) -> int:
        """1: ``dim0`` moves inside ``dim1``; -1: it stays outside; 0: nobody can tell."""
        for strides in operands:
            stride0, stride1 = strides[dim0], strides[dim1]
            if stride0 == 0 or stride1 == 0:
                continue
            if stride0 != stride1:
                return -1 if stride0 < stride1 else 1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))  # perm[0]: the fastest-moving dimension
    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return perm


def iterator_strides(shape: Sequence[int], operands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The strides PyTorch's TensorIterator gives a new output of ``shape``.

    ``operands``: as ``iteration_order`` takes them. In row-major order the output is a
    contiguous tensor (an empty dimension counts as size 1 there); in any other order it is
    dense in that order with each stride the product of the sizes inside it, an empty one's
    0 included (``compatible_stride``): ``1 - x`` of an empty ``(0, 1)`` has strides ``(1, 0)``.
    """
    order = iteration_order(shape, operands)
    result, stride = [0] * len(shape), 1
    if order == list(range(len(shape) - 1, -1, -1)):  # (``invert_perm`` skipped: contiguous)
        for dim in order:
            result[dim] = stride
            stride *= max(shape[dim], 1)
    else:
        for dim in order:
            result[dim] = stride
            stride *= shape[dim]
    return tuple(result)


def empty_strided(shape: Sequence[int], strides: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An uninitialized array of ``shape`` with these non-negative element strides.

    PyTorch's ``empty_strided``: the buffer spans exactly the elements the strides reach.
    """
    extent = 1 + sum((size - 1) * stride for size, stride in zip(shape, strides))
    buffer = np.empty(extent if all(shape) else 0, dtype)
    return strided(buffer, tuple(shape), tuple(strides))
