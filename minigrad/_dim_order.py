"""``Tensor.dim_order()``: the order of a tensor's dimensions in memory, outermost first.

PyTorch writes it in Python (``torch/_tensor.py``) on top of its elementwise-output
permutation (``torch._prims_common.compute_elementwise_output_logical_to_physical_perm``):
row-major and channels-last tensors have their fixed orders; any other tensor's dimensions are
insertion-sorted by stride, innermost first, with a few rules for ties. The same steps here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _layout, _memory_formats
from minigrad.ops.strides import reported_strides

_AMBIGUOUS = (
    "The tensor does not have unique dim order, or cannot map to exact one of the given memory "
    "formats."
)
_BAD_CHECK = "The ambiguity_check argument must be a bool or a list of memory formats."


def dim_order(array: np.ndarray, ambiguity_check: Any = False) -> tuple[int, ...]:
    """The dims of ``array`` from the outermost to the innermost in memory (PyTorch's rule).

    ``ambiguity_check``: True raises PyTorch's RuntimeError if another order would describe
    the memory as well (a dim of size 1, two equal strides); a list of memory formats also
    accepts a tensor contiguous in exactly one of them.
    """
    if not isinstance(ambiguity_check, bool) and (
        not isinstance(ambiguity_check, list)
        or not all(isinstance(item, _memory_formats.memory_format) for item in ambiguity_check)
    ):
        raise TypeError(_BAD_CHECK)
    shape, strides = array.shape, reported_strides(array)
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    several = any(a == b for a, b in zip(strides, strides[1:])) or 1 in shape
    matching = sum(_layout.is_contiguous_in(array, item) for item in formats)
    if check and several and matching != 1:
        raise RuntimeError(_AMBIGUOUS)
    # (PyTorch's last check asks the argument's truth: an empty list skips it)
    order, ambiguous = _physical_order(array, shape, strides, bool(ambiguity_check))
    if ambiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order)


def _physical_order(
    array: np.ndarray, shape: Sequence[int], strides: Sequence[int], check: bool
) -> tuple[list[int], bool]:
    """The logical-to-physical permutation, and whether the sort left a tie (``check``)."""
    ndim = len(shape)
    if ndim <= 1:
        return list(range(ndim)), False
    contiguous = bool(array.flags.c_contiguous)
    channels_last = _layout.is_contiguous_in(array, _memory_formats.channels_last)
    if contiguous and not channels_last:
        return list(range(ndim)), False
    if channels_last and not contiguous:
        return [0, *range(2, ndim), 1], False

    def at_least(a: int, b: int) -> bool:
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a: int, b: int) -> int:
        """1: dim ``a`` goes inside ``b``; -1: outside; 0: no stride tells."""
        stride_a, stride_b = strides[a], strides[b]
        if stride_a == 0 or stride_b == 0:
            return 0
        if stride_a == stride_b:
            return 0 if at_least(shape[b], shape[a]) else 1
        if at_least(stride_b, stride_a):
            return -1
        return 1 if at_least(stride_a, stride_b) else 0

    order = list(reversed(range(ndim)))  # (sorted innermost first, reversed at the end)
    for i in range(1, ndim):  # an insertion sort that leaves incomparable dims in place
        moving = i
        for before in reversed(range(i)):
            comparison = should_swap(order[before], order[moving])
            if comparison > 0:
                order[before], order[moving] = order[moving], order[before]
                moving = before
            elif comparison < 0:
                break
    ambiguous = check and any(should_swap(order[i], order[i + 1]) != -1 for i in range(ndim - 1))
    return list(reversed(order)), ambiguous
