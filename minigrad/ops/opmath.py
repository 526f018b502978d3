"""float16 computed as PyTorch's CPU kernels compute it: in float32 ("opmath"), rounded once.

PyTorch's CPU kernels load float16 values, compute in float32 and store the result rounded
to float16 once. numpy's float16 loops do the same for one operation of two float16
values, so ``a * b`` of two float16 arrays needs nothing here; they differ where an op is
several steps (``x + alpha * y``: numpy rounds the product first) and where an operand is
a scalar PyTorch reads at its own value (``half([0.5]) * 70000.0`` is 35008 in PyTorch; numpy
rounds 70000 to float16 first: inf).

``fmadd``: PyTorch's vectorized kernels' fused multiply-add (add's and sub's ``alpha``,
addcmul, lerp), one rounding where numpy's ``a * b + c`` rounds twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.tensor_base import TensorBase

FLOAT16, FLOAT32, FLOAT64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


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


def fmadd(a: Any, b: Any, c: Any, dtype: Any) -> np.ndarray:
    """``a * b + c`` of a ``dtype`` result as PyTorch's ``vec::fmadd``: rounded once.

    PyTorch's CPU kernels compute add's ``x + alpha * y`` as ``fmadd(y, alpha, x)``, the exact
    product plus ``c`` rounded once (a fused multiply-add); numpy, which has no fma, rounds the
    product first, and a third of float32 results differ in the last bit. The product of two
    float32 values is exact in float64, so ``a * b + c`` computed there and rounded once to
    float32 is the fused value (but where the float64 sum's own rounding lands on a float32
    tie: about one result in 2**29). A float16 result is computed so too (its opmath is float32:
    PyTorch's fmadd in float32, then rounded to float16); ``a``, ``b`` and ``c`` must hold
    float32 values then (numbers as float32 scalars). float64: numpy's two roundings (a known
    difference: no wider type holds the exact product).
    """
    if dtype is FLOAT32 or dtype is FLOAT16:
        fused = np.add(np.multiply(a, b, dtype=FLOAT64), c, dtype=FLOAT64).astype(FLOAT32)
        return fused if dtype is FLOAT32 else fused.astype(FLOAT16)
    return np.add(np.multiply(a, b, dtype=dtype), c, dtype=dtype)


def opmath_type(dtype: Any) -> np.dtype:
    """The dtype PyTorch's CPU kernels compute a ``dtype`` result in: float32 for float16."""
    return FLOAT32 if dtype is FLOAT16 else np.dtype(dtype)
