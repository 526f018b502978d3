"""float16 computed as PyTorch's CPU kernels compute it: in float32 ("opmath"), rounded once.

PyTorch's CPU kernels load float16 values, compute in float32 and store the result rounded
to float16 once. numpy's float16 loops do the same for one operation of two float16
values, so ``a * b`` of two float16 arrays needs nothing here; they differ where an op is
several steps (``x + alpha * y``: numpy rounds the product first) and where an operand is
a scalar PyTorch reads at its own value (``half([0.5]) * 70000.0`` is 35008 in PyTorch; numpy
rounds 70000 to float16 first: inf).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.tensor_base import TensorBase

FLOAT16, FLOAT32 = np.dtype(np.float16), np.dtype(np.float32)


def in_float32(kernel: Callable[..., Any], *operands: Any) -> Any:
    """``kernel(*operands)``, float16 arrays computed in float32 and rounded once.

    PyTorch's CPU kernels do their float16 arithmetic in float32 (its "opmath"): in float16
    itself exp(x) overflows from x = 11.1, and each step would round again. Anything that is
    not a float16 array as first operand (a tensor under create_graph, another dtype) runs
    ``kernel`` as given. Numbers among the operands meet float32 arrays: numpy takes them in
    float32, as PyTorch's kernels take their scalar options (``alpha``, ``value``).
    """
    first = operands[0]
    if isinstance(first, TensorBase) or getattr(first, "dtype", None) is not FLOAT16:
        return kernel(*operands)
    return kernel(*map(_wide, operands)).astype(FLOAT16)


def _wide(value: Any) -> Any:
    """An operand of a float16 op in float32: an array as float16 first (the common dtype)."""
    if isinstance(value, np.ndarray | np.generic):
        return value.astype(FLOAT16, copy=False).astype(FLOAT32)
    return value  # (a number: numpy takes it in float32 next to the float32 arrays)


def is_wide_scalar(y: Any) -> bool:
    """Whether ``y``, the second operand of a float16 op, is a scalar PyTorch reads as itself.

    TensorIterator's ``is_scalar(2)``: a Python number, or a one-element operand of another
    dtype (a float32 0-d tensor does not promote a float16 tensor). PyTorch's float16 mul,
    div and floor division read its ``original_scalar_value`` in float32 instead of the value
    rounded to float16.
    """
    if type(y) is float or type(y) is int:
        return True
    return isinstance(y, np.ndarray | np.generic) and y.size == 1 and y.dtype is not FLOAT16


def with_scalar(kernel: Callable[..., Any], x: Any, y: Any) -> np.ndarray:
    """``kernel(x, y)`` of a float16 result whose second operand ``y`` is a wide scalar.

    As PyTorch's ``mul_kernel``/``div_true_kernel``/``div_floor_kernel`` for float16: x is
    taken as float16 (the common dtype) in float32, y at its own value in float32, and the
    result rounded once (``half([0.5]) * 70000.0``: 35008, not inf).
    """
    x32 = np.asarray(x, FLOAT16).astype(FLOAT32)
    y32 = np.asarray(y).astype(FLOAT32) if not isinstance(y, int | float) else y
    return np.asarray(kernel(x32, y32)).astype(FLOAT16)


def times_number(value: Any, number: float) -> Any:
    """``value * number`` as C++'s ``tensor * double`` in PyTorch's backward formulas.

    A float16 array takes the number in float32 (``with_scalar``; numpy would round it to
    float16 first); a tensor (create_graph) records Mul, which does the same.
    """
    if type(value) is np.ndarray and value.dtype is FLOAT16:
        return with_scalar(np.multiply, value, number)
    return value * number


# Elements PyTorch's vectorized CPU loop takes per step: two AVX2 vectors of 16 float16 values
# (its default dispatch on x86-64; the elements past the last full step go to the scalar loop).
HALF_STEP = 32


def scalar_loop_mask(x: np.ndarray, y: Any) -> np.ndarray | None:
    """Which elements of a float16 ``x op y`` PyTorch's CPU loop computes with its scalar op.

    TensorIterator runs its vectorized loop when, along the innermost dimension (its order:
    ``x``'s strides, the output's layout; dimensions whose strides continue each other are
    merged), every operand is contiguous, or one input is a scalar (stride 0) and the others
    contiguous; the elements past the last full step of ``HALF_STEP`` in each inner run go to
    the scalar op (its ``basic_loop``). Any other layout is the scalar loop throughout. Where
    the two ops round differently (float16 ``add`` with ``alpha``: each scalar step rounds to
    float16), the mask says which to take. None: the vectorized op everywhere. (One thread:
    PyTorch's chunks on several threads each have their own tail.)
    """
    arrays = [x] + ([y] if isinstance(y, np.ndarray) else [])
    shape = np.broadcast_shapes(*(array.shape for array in arrays))
    if x.shape != shape:  # (x broadcast by y: the output is another array; left as it was)
        return None
    strides = [_element_strides(array, shape) for array in arrays]
    axes = sorted((axis for axis in range(len(shape)) if shape[axis] > 1),
                  key=lambda axis: abs(strides[0][axis]))
    if not axes:  # one element: fewer than a step, the scalar op
        return np.ones(shape, bool)
    run = [axes[0]]  # the innermost run: the axes whose strides continue the one before
    for axis in axes[1:]:
        inner = run[-1]
        if any(s[axis] != s[inner] * shape[inner] for s in strides):
            break
        run.append(axis)
    inner_strides = [s[axes[0]] for s in strides]
    contiguous = all(stride == 1 for stride in inner_strides) or (
        inner_strides[0] == 1 and len(inner_strides) == 2 and inner_strides[1] == 0)
    if not contiguous:
        return np.ones(shape, bool)
    length = int(np.prod([shape[axis] for axis in run]))
    if length % HALF_STEP == 0:
        return None
    # the position of each element in its inner run (axes of the run, innermost first)
    position, scale = np.zeros(shape, np.int64), 1
    for axis in run:
        index = np.arange(shape[axis]).reshape([-1 if a == axis else 1 for a in range(len(shape))])
        position = position + index * scale
        scale *= shape[axis]
    return position >= length - length % HALF_STEP


def _element_strides(array: np.ndarray, shape: tuple[int, ...]) -> list[int]:
    """``array``'s strides in elements, broadcast to ``shape`` (0 along broadcast axes)."""
    strides = [0] * (len(shape) - array.ndim) + [
        stride // array.itemsize if size > 1 else 0
        for stride, size in zip(array.strides, array.shape, strict=True)]
    return strides
