"""unravel_index: flat indices as coordinates into a shape (no gradient: integers only)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import from_numpy_dtype
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops.splitting import unbind


def unravel_index(indices: Any, shape: Any) -> tuple[Any, ...]:
    """The coordinates into a tensor of ``shape`` of the flat ``indices`` (one tensor per dim).

    As PyTorch's (a Python function): ``indices.unsqueeze(-1) // strides % shape``, unbound
    along its last dim; negative indices count back from the end.

    Example:
        >>> import minigrad
        >>> minigrad.unravel_index(minigrad.tensor([4, 1]), (3, 2))
        (tensor([2, 0]), tensor([0, 1]))
    """
    _arguments.check_has_attribute(indices, "is_complex")  # (PyTorch's first question)
    array = indices._array
    if array.dtype.kind not in "iu":
        raise TypeError(errors.unravel_index_dtype(str(from_numpy_dtype(array.dtype))))
    sizes = _checked_shape(shape)
    # (in Python ints: PyTorch makes int64 tensors of the strides, then of the sizes, and
    # either refuses a number no int64 holds with its parser's ValueError)
    strides = list(itertools.accumulate((*sizes[1:], 1)[::-1], operator.mul))[::-1]
    _arguments.check_int64_arguments(*strides, *sizes)
    coordinates = np.floor_divide(
        array[..., None].astype(np.int64), np.asarray(strides, dtype=np.int64)
    ) % np.asarray(sizes, dtype=np.int64).reshape(-1)
    return unbind(TensorBase.output_class._make(coordinates), -1)


def _checked_shape(shape: Any) -> tuple[int, ...]:
    """``shape`` as a tuple of ints, with PyTorch's type and value errors."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        sizes: tuple[int, ...] = (int(shape),)
    elif isinstance(shape, Sequence):
        for size in shape:
            if not isinstance(size, (int, np.integer)):
                raise TypeError(errors.unravel_index_shape_item(type(size)))
        sizes = tuple(int(size) for size in shape)
    else:
        raise TypeError(errors.unravel_index_shape(type(shape)))
    if any(size < 0 for size in sizes):
        raise ValueError(errors.unravel_index_negative(sizes))
    return sizes
