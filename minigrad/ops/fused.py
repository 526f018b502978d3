"""``a * b + c`` rounded once, as PyTorch's CPU kernels compute it with a fused multiply-add.

PyTorch's float32 and float64 kernels of ``add``/``sub`` with an ``alpha``, ``addcmul`` and
``lerp`` end in an FMA instruction (its vectorised ``fmadd``; the compiler fuses the scalar
loop's ``a + alpha * b`` too): the product is not rounded before the sum. numpy has no FMA,
and rounding twice gives a result one ulp off for a few percent of the elements, which an
optimizer's trajectory (``p.add_(g, alpha=-lr)``, Adam's ``lerp_`` and ``addcmul_``)
accumulates step after step. Here: float32 in float64, where a product of two float32 values
is exact (one rounding left, the cast); float64 by Dekker's exact product and Knuth's exact
sum. Anything else (float16, integers, tensors under create_graph) is computed as written.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

FLOAT32, FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)
FUSED = (FLOAT32, FLOAT64)  # the dtypes whose kernels fuse
_CHUNK = 1 << 14  # elements per pass: the temporaries stay in the CPU's cache


def fused_dtype(*operands: Any, dtype: Any = None) -> np.dtype | None:
    """The dtype of a fused result of ``operands``, or None if PyTorch's kernel is not fused.

    Arrays (one at least) and numbers whose common dtype (or ``dtype``, the result's if
    given) is float32 or float64; None for anything else, tensors among them (formulas run
    on tensors under create_graph).
    """
    arrays = []
    for value in operands:
        if type(value) is np.ndarray:
            arrays.append(value)
        elif not isinstance(value, float | int):
            return None
    if not arrays:
        return None
    dtype = np.result_type(*arrays) if dtype is None else np.dtype(dtype)
    return dtype if dtype in FUSED else None


def fused_multiply_add(a: Any, b: Any, c: Any, dtype: Any, out: Any = None) -> Any:
    """``a * b + c`` in ``dtype``, rounded once for float32 and float64 arrays.

    ``a``, ``b``, ``c`` are arrays or numbers (taken in ``dtype`` first, as PyTorch's kernels
    take their scalar arguments in the result's type). ``out`` may be ``c`` itself: the
    result may then be written into it (an in-place update) and ``c`` returned.

    Example:
        >>> import numpy as np
        >>> x = np.float32(1 + 2 ** -12)  # x * x is 1 + 2**-11 + 2**-24: 25 bits
        >>> float(x * x - 1) == 2 ** -11  # the product rounded first: 2**-24 lost
        True
        >>> float(fused_multiply_add(x, x, -1, np.float32)) == 2 ** -11 + 2 ** -24
        True
    """
    if dtype == FLOAT32:
        kernel = _fma32
    elif dtype == FLOAT64:
        kernel = _fma64
    else:
        return a * b + c
    if isinstance(a, float | int) and a != 0 and _is_axpy(b, c, dtype, out):
        # A number times an array plus an array of its shape: BLAS's axpy, which fuses
        # (checked once against the emulation: _blas_fuses) and is as fast as one pass.
        target = c if out is c else c.copy()
        _AXPY[target.dtype.char](b.reshape(-1), target.reshape(-1), a=a)
        return target
    a, b, c = np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype)
    if a.size <= _CHUNK and b.size <= _CHUNK and c.size <= _CHUNK:
        return kernel(a, b, c)
    return _in_chunks(kernel, np.dtype(dtype), a, b, c)


def _is_axpy(b: Any, c: Any, dtype: Any, out: Any) -> bool:
    """Whether BLAS's axpy computes ``a * b + c``.

    Two C-contiguous arrays of ``dtype`` and one shape, the target writable, and a BLAS whose
    axpy rounds once.
    """
    return (
        type(b) is np.ndarray
        and type(c) is np.ndarray
        and b.dtype == dtype
        and c.dtype == dtype
        and b.shape == c.shape
        and b.size > 0
        and b.flags.c_contiguous
        and c.flags.c_contiguous
        and (out is not c or c.flags.writeable)
        and _blas_fuses(np.dtype(dtype))
    )


_AXPY: dict[str, Any] = {}  # numpy's type character -> scipy's axpy wrapper, once checked
_FUSES: dict[np.dtype, bool] = {}


def _blas_fuses(dtype: np.dtype) -> bool:
    """Whether this BLAS's ``axpy`` of ``dtype`` rounds ``a * x + y`` once (its FMA kernels).

    Checked on first use against the emulation, on every length of a vector step's tail:
    a BLAS without FMA kernels (an old CPU's) is simply not used.
    """
    fuses = _FUSES.get(dtype)
    if fuses is None:
        from scipy.linalg import blas  # (on first use: importing minigrad stays light)

        axpy = blas.saxpy if dtype == FLOAT32 else blas.daxpy
        kernel = _fma32 if dtype == FLOAT32 else _fma64
        rng = np.random.default_rng(0)
        fuses = True
        for size in (*range(1, 40), 1000):
            x, y = rng.standard_normal((2, size)).astype(dtype)
            expected = kernel(np.asarray(-0.1, dtype), x, y)
            fuses = fuses and axpy(x, y.copy(), a=-0.1).tobytes() == expected.tobytes()
        _AXPY[dtype.char] = axpy
        _FUSES[dtype] = fuses
    return fuses


def _in_chunks(kernel: Any, dtype: np.dtype, *operands: np.ndarray) -> np.ndarray:
    """``kernel(*operands)`` on large arrays, in chunks whose temporaries stay in the cache.

    Overflows are values, not warnings: the ops' forwards run in numpy's quiet state
    (autograd/quiet.py), which callers elsewhere set too.
    """
    shape = np.broadcast_shapes(*(x.shape for x in operands))
    size = math.prod(shape)
    flat = [np.broadcast_to(x, shape).ravel() if x.ndim else x for x in operands]
    out = np.empty(size, dtype)
    for start in range(0, size, _CHUNK):
        part = slice(start, start + _CHUNK)
        out[part] = kernel(*(x[part] if x.ndim else x for x in flat))
    return out.reshape(shape)


def _fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, in float64.

    There the product is exact; the sum rounds to 53 bits and the cast to float32 once more:
    an FMA's bits, but where the 53-bit sum falls on a float32 midpoint (about once in 2**29).
    """
    return (np.multiply(a, b, dtype=FLOAT64) + c).astype(FLOAT32)


_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split of a float64 into two halves of 26 bits


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float64 ``a * b + c`` rounded once: the exact product's and sum's errors added last.

    Dekker's exact product and Knuth's exact sum, about twenty array operations. Where the
    splitting overflows (magnitudes near float64's largest) or a value is not finite, the
    plain ``a * b + c`` stands: it is then the answer, or as near as matters.
    """
    product = a * b
    total = product + c
    # Knuth's two-sum: total + sum_error == product + c exactly
    virtual = total - product
    sum_error = product - (total - virtual)
    sum_error += c - virtual
    # Dekker's two-product: product + product_error == a * b exactly
    (a_high, a_low), (b_high, b_low) = _split(a), _split(b)
    product_error = a_high * b_high
    product_error -= product
    product_error += a_high * b_low
    product_error += a_low * b_high
    product_error += a_low * b_low
    fused = total + (product_error + sum_error)
    finite = np.isfinite(fused)
    return fused if finite.all() else np.where(finite, fused, total)


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp's split of float64 values into two halves of 26 bits, exactly."""
    scaled = _SPLIT * x
    high = scaled - (scaled - x)
    return high, x - high
