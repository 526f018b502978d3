"""Which elements of an elementwise result PyTorch's CPU kernel computes in its vector loop.

It matters where the vector instruction and the scalar code disagree: on a tie of 0.0 against
-0.0, maximum, minimum and clamp with tensor bounds give the second operand in the vector loop
(``_mm256_max_pd(a, b)`` returns b on equal operands) and the first in the scalar loop.

TensorIterator merges the dims it can (from the innermost, as long as every operand steps
through them as through one), then runs each row of the merged innermost dim through
``vectorized_loop``: pairs of AVX2 vectors (32 bytes each) from the row's start, the remainder
element by element. A row is vectorized only if every operand is contiguous along it, or all
but one input, which may be a broadcast scalar (stride 0). The dims are taken in
TensorIterator's order (``strides.iteration_order``: a transposed input is walked through in
its memory order). Modelled for float32 and float64, for one thread's loop: PyTorch splits
results past 32768 elements among its threads, each chunk with its own remainder.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad.ops.strides import element_strides, iteration_order, iterator_strides

_VECTOR_BYTES = 32  # AVX2: PyTorch's CPU capability on x86 machines without AVX-512
_MODELLED = (np.dtype(np.float32), np.dtype(np.float64))


def vector_loop_mask(shape: tuple[int, ...], operands: Sequence[Any],
                     dtype: Any) -> np.ndarray | None:
    """True where PyTorch's kernel computes the result of ``shape`` in its vector loop.

    ``operands``: the op's inputs (arrays or numbers), ``dtype`` the result's. None where no
    element is (or the layout is not modelled): the scalar loop's rule holds everywhere.
    """
    dtype = np.dtype(dtype)
    if dtype not in _MODELLED or not shape or math.prod(shape) == 0:
        return None
    per_pair = 2 * _VECTOR_BYTES // dtype.itemsize
    inputs = [_broadcast_strides(operand, shape) for operand in operands]
    if any(stride < 0 for strides in inputs for stride in strides):
        return None
    output = iterator_strides(shape, inputs)  # (a new result, dense in the iteration order)
    size, inner = _merged_row(shape, iteration_order(shape, inputs), [output, *inputs])
    if size < per_pair or inner[0] != 1 or any(stride not in (0, 1) for stride in inner[1:]):
        return None
    if sum(stride == 0 for stride in inner[1:]) > 1:
        return None  # (two broadcast inputs: the element-by-element loop)
    # Each element's place in its row: its offset in the output, whose row is innermost.
    offsets = sum(np.arange(n).reshape((-1,) + (1,) * (len(shape) - 1 - axis)) * stride
                  for axis, (n, stride) in enumerate(zip(shape, output, strict=True)))
    return np.broadcast_to(offsets % size < size - size % per_pair, shape)


def _broadcast_strides(operand: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """An operand's strides in elements broadcast to ``shape`` (0 on a broadcast dim)."""
    if not isinstance(operand, np.ndarray):
        return (0,) * len(shape)
    pad = len(shape) - operand.ndim
    return (0,) * pad + tuple(
        0 if size == 1 and shape[pad + i] != 1 else stride
        for i, (size, stride) in enumerate(zip(operand.shape, element_strides(operand),
                                                strict=True)))


def _merged_row(shape: tuple[int, ...], order: list[int],
                strides: list[tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
    """The innermost row's length once TensorIterator merged dims; each operand's stride on it.

    ``order``: the dims, innermost first.
    """
    size, inner = 1, tuple(0 for _ in strides)
    for axis in order:
        if shape[axis] == 1:
            continue
        if size == 1:
            size, inner = shape[axis], tuple(s[axis] for s in strides)
        elif all(s[axis] == step * size for s, step in zip(strides, inner, strict=True)):
            size *= shape[axis]
        else:
            break
    return size, inner


def take_second_on_vector_ties(result: np.ndarray, first: Any, second: Any,
                               operands: Sequence[Any]) -> np.ndarray:
    """``result`` with ``second`` where it ties with ``first`` in PyTorch's vector loop."""
    mask = vector_loop_mask(result.shape, operands, result.dtype)
    if mask is None:
        return result
    ties = mask & (first == second)
    if not ties.any():
        return result
    return np.where(ties, np.asarray(second).astype(result.dtype, copy=False), result)
