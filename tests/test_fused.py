"""``ops/fused.py``: ``a * b + c`` rounded once, against exact rational arithmetic.

Every path: small arrays, large ones in chunks, a number times an array plus an array (BLAS's
axpy where it fuses, written in place or not), broadcasting, and the values that are not
finite. The expected value is the exact ``a * b + c`` (``fractions.Fraction``) rounded once.
"""

from fractions import Fraction

import numpy as np
import pytest

from minigrad.ops import fused
from minigrad.ops.fused import fused_multiply_add


def _exact(a, b, c, dtype):
    """``a * b + c`` computed exactly, then rounded to ``dtype`` once (via float64 for float32:
    the exact value's float64 rounding never falls on a float32 midpoint in these draws)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(x, dtype) for x in (a, b, c)))
    values = [float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
              for x, y, z in zip(a.ravel(), b.ravel(), c.ravel(), strict=True)]
    return np.array(values, np.float64).astype(dtype).reshape(a.shape)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shapes",
    [((), (7,), (7,)), ((5,), (5,), (5,)), ((3, 1), (1, 4), (3, 4)), ((), (40000,), (40000,)),
     ((40000,), (40000,), ())],
    ids=["number-axpy", "arrays", "broadcast", "axpy-large", "chunked"],
)
def test_rounds_once(dtype, shapes):
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(shape).astype(dtype) for shape in shapes)
    a = float(a) if a.ndim == 0 else a
    got = fused_multiply_add(a, b, c, dtype)
    expected = _exact(a, b, c, dtype)
    assert got.dtype == dtype and got.shape == expected.shape
    sample = slice(None) if got.size < 2000 else slice(None, None, 97)
    assert got.ravel()[sample].tobytes() == expected.ravel()[sample].tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_in_place_update_writes_into_c(dtype):
    rng = np.random.default_rng(1)
    b, c = rng.standard_normal((2, 3, 5)).astype(dtype)
    expected = _exact(-0.1, b, c, dtype)
    got = fused_multiply_add(-0.1, b, c, dtype, out=c)
    assert got.tobytes() == expected.tobytes()
    if fused._blas_fuses(np.dtype(dtype)):
        assert got is c


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_that_are_not_finite(dtype):
    big = np.finfo(dtype).max
    b = np.array([np.inf, np.nan, 1.0, big, -big], dtype)
    c = np.array([1.0, 1.0, np.inf, big, 0.0], dtype)
    with np.errstate(all="ignore"):
        got = fused_multiply_add(2.0, b, c, dtype)
        zero = fused_multiply_add(0.0, b, c, dtype)  # 0 * inf is nan, as PyTorch's kernel
    np.testing.assert_array_equal(got, [np.inf, np.nan, np.inf, np.inf, -np.inf])
    np.testing.assert_array_equal(zero, [np.nan, np.nan, np.inf, big, 0.0])
