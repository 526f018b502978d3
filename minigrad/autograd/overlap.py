"""PyTorch's rule for an in-place op whose input shares memory with the tensor it writes.

PyTorch's elementwise kernels (its TensorIterator) compare the written tensor with each input
before computing anything:

- the very same tensor object, or the same elements in the same layout (``x.mul_(x)``,
  ``x.add_(x.detach())``): *full* overlap, allowed — each element reads only itself;
- memory ranges that intersect otherwise (``x.t().add_(x)``, ``x[0:2].add_(x[1:3])``, a
  ``[1]`` view of a 0-d tensor): *partial* overlap, refused, since the result would depend on
  the order elements are visited;
- either tensor not dense (gaps between its elements, as in ``x[:, :1]``): "too hard" to
  decide, allowed without a check, as PyTorch does.

The check runs after autograd's own checks and before the shape check, in PyTorch's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.tensor_base import TensorBase


def check_inputs_overlap(op: Any, tensor: TensorBase, args: tuple[Any, ...]) -> None:
    """Raise PyTorch's error if an input of ``op`` partially overlaps ``tensor``'s memory.

    Ops that do not use PyTorch's elementwise kernels (fills, index and scatter ops) declare
    ``checks_input_overlap = False`` (``Op``'s default is True).
    """
    if not op.checks_input_overlap:
        return
    for arg in args:
        if (
            isinstance(arg, TensorBase)
            and arg is not tensor
            and partially_overlap(tensor._array, arg._array)
        ):
            raise RuntimeError(errors.PARTIAL_OVERLAP)


def partially_overlap(output: np.ndarray, input: np.ndarray) -> bool:
    """True if ``input``'s elements and ``output``'s share memory other than one to one."""
    if not np.may_share_memory(output, input):  # disjoint memory bounds, checked in C
        return False
    if output.size == 0 or input.size == 0:
        return False
    if not (_is_dense(output) and _is_dense(input)):
        return False  # PyTorch's "too hard": no check
    output_begin, output_end = _memory_range(output)
    input_begin, input_end = _memory_range(input)
    if (output_begin, output_end) == (input_begin, input_end):
        return output.strides != input.strides
    return output_begin < input_end and input_begin < output_end


def _memory_range(array: np.ndarray) -> tuple[int, int]:
    begin = array.__array_interface__["data"][0]
    return begin, begin + array.size * array.itemsize


def _is_dense(array: np.ndarray) -> bool:
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
