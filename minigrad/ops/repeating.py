"""``repeat_interleave``: each element (or slice along ``dim``) repeated in place.

PyTorch composes it of other ops, and so does minigrad, so that the same nodes are recorded:

- an int ``repeats`` is a view with a new dim after ``dim``, expanded to ``repeats``, copied
  and merged back: ``UnsqueezeBackward0 -> ExpandBackward0 -> CloneBackward0 ->
  ViewBackward0``;
- a tensor of repeats picks slices by a computed index: ``index_select(input, dim,
  repeat_interleave(repeats))``, one ``IndexSelectBackward0``.

Without ``dim`` the input is flattened first (``ViewBackward0`` for 0-d and 2+-d inputs). The
one-argument form ``repeat_interleave(repeats)`` is that index: ``i`` repeated ``repeats[i]``
times, in ``repeats``' own integer dtype. It has no gradient.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import index_ops, unary, views
from minigrad.ops._helpers import constant_tensor, dim_size, not_implemented, wrap_dim

NEGATIVE_REPEATS = "repeats can not be negative"
NOT_A_VECTOR = "repeat_interleave only accept 1D vector as repeat"
WRONG_OUTPUT_SIZE = "allocated size does not match required size"


def _index_of(repeats: np.ndarray, output_size: int | None) -> np.ndarray:
    """``i`` repeated ``repeats[i]`` times, in ``repeats``' dtype (PyTorch's checks first)."""
    if repeats.dtype not in (np.int32, np.int64):
        raise not_implemented("repeat_interleave_cpu", repeats)
    if repeats.ndim != 1:
        raise RuntimeError(NOT_A_VECTOR)
    if repeats.size and repeats.min() < 0:
        raise RuntimeError(NEGATIVE_REPEATS)
    if output_size is None:
        _check_total(int(repeats.sum(dtype=np.int64)), repeats.dtype)
    index = np.repeat(np.arange(repeats.size, dtype=repeats.dtype), repeats)
    if output_size is not None and output_size != index.size:
        raise RuntimeError(WRONG_OUTPUT_SIZE)
    return index


def _check_total(total: int, dtype: np.dtype) -> None:
    """PyTorch's errors for the index's length, the repeats' sum in int64 (wrapped around).

    A sum past int64 comes out negative: a size no tensor takes (below -2**62 not even a
    SymInt); one whose bytes pass int64 overflows the storage size.
    """
    if total < -(1 << 62):
        raise RuntimeError(
            f"IntArrayRef contains an int that cannot be represented as a SymInt: {total}")
    if total < 0:
        raise RuntimeError(errors.negative_dimension(total, [total]))
    _check_storage((total,), dtype)


def _check_storage(shape: tuple[int, ...], dtype: np.dtype) -> None:
    """PyTorch's errors for a contiguous tensor of ``shape`` whose strides or bytes pass int64."""
    numel = math.prod(shape)
    if numel * np.dtype(dtype).itemsize > _INT64_MAX:
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={errors.format_size(shape)}")
    stride = 1
    for size in reversed(shape[1:]):  # (an empty tensor has strides too)
        stride *= max(size, 1)
        if stride > _INT64_MAX:
            raise RuntimeError("Stride calculation overflowed")


_INT64_MAX = (1 << 63) - 1


def repeat_interleave(
    input: Any = _arguments.NOT_GIVEN,
    repeats: Any = _arguments.NOT_GIVEN,
    dim: int | None = None,
    *,
    output_size: int | None = None,
) -> Any:
    """``input``'s elements (or its slices along ``dim``) each repeated ``repeats`` times.

    ``repeats`` is an int or an integer tensor: 0-d or of one element (the same count for
    each), or one count per slice along ``dim``. Without ``dim``, ``input`` is flattened first.
    ``output_size`` (the result's size along ``dim``) is checked, as PyTorch does. Called with
    one integer tensor alone, ``repeat_interleave(repeats)`` is the index ``[0] * repeats[0] +
    [1] * repeats[1] + ...``.

    Example:
        >>> import minigrad
        >>> y = minigrad.tensor([[1, 2], [3, 4]])
        >>> minigrad.repeat_interleave(y, 2)
        tensor([1, 1, 2, 2, 3, 3, 4, 4])
        >>> y.repeat_interleave(minigrad.tensor([1, 2]), dim=0)
        tensor([[1, 2],
                [3, 4],
                [3, 4]])
        >>> minigrad.repeat_interleave(minigrad.tensor([1, 2, 3]))
        tensor([0, 1, 1, 2, 2, 2])
    """
    _arguments.check_int64_arguments(repeats, dim, output_size)  # (the parser's, first)
    if input is _arguments.NOT_GIVEN or repeats is _arguments.NOT_GIVEN:
        # the one-argument overload: the repeats alone
        given = repeats if input is _arguments.NOT_GIVEN else input
        if dim is not None or not isinstance(given, TensorBase):
            raise TypeError("repeat_interleave(): no overload takes these arguments")
        return constant_tensor(_index_of(given._array, output_size))
    flat = input if dim is not None else views.flatten(input)
    axis = 0 if dim is None else dim
    if isinstance(repeats, TensorBase):
        return _by_index(flat, repeats._array, axis, output_size)
    if not _arguments.is_int(repeats) or isinstance(repeats, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            "repeat_interleave", "repeats", "Tensor", errors.python_type_name(repeats), 2))
    return _by_expanding(flat, int(repeats), axis, output_size)


def _by_index(input: Any, repeats: np.ndarray, dim: int, output_size: int | None) -> Any:
    """``index_select`` of the slices along ``dim`` at ``repeat_interleave(repeats)``."""
    size = dim_size(input.shape, dim)
    if repeats.ndim == 0 or repeats.shape == (1,):
        repeats = np.broadcast_to(repeats.reshape(1), (size,))
    elif repeats.ndim == 1:
        if repeats.shape[0] != size:
            raise RuntimeError(
                "repeats must have the same size as input along dim, but got repeats.size(0) = "
                f"{repeats.shape[0]} and input.size({dim}) = {size}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    index = constant_tensor(_index_of(repeats, output_size))
    return index_ops.IndexSelect.apply(input, dim, index)


def _by_expanding(input: Any, repeats: int, dim: int, output_size: int | None) -> Any:
    """``input.unsqueeze(dim + 1).expand(..., repeats, ...).clone().flatten(dim, dim + 1)``."""
    shape = input.shape
    axis = wrap_dim(dim, max(len(shape), 1))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if output_size is not None and len(shape) and output_size != shape[axis] * repeats:
        raise RuntimeError(
            f"repeat_interleave: Invalid output_size, expected {shape[axis] * repeats} but got "
            f"{output_size}")
    sizes = (*shape[: axis + 1], repeats, *shape[axis + 1 :])
    if not views.numel_overflows(sizes):  # (else ``expand`` raises PyTorch's error)
        # the copy's allocation, checked before numpy refuses the expanded view itself
        _check_storage(sizes, input._array.dtype)
    unsqueezed = views.unsqueeze(input, axis + 1)
    expanded = views.expand(unsqueezed, *sizes)
    return views.flatten(unary.contiguous_copy(expanded), axis, axis + 1)


__all__ = ["repeat_interleave"]
