"""Numpy kernels of the special functions: gamma family, erfinv, normal distribution, Bessel.

Pure numpy, no autograd: each function takes float64 arrays (or numbers) and returns a float64
array of their broadcast shape; the ops in ``ops/gamma.py`` and ``ops/special_functions.py``
compute float32 and float16 inputs through them and round the result once. minigrad depends on
numpy only, so the algorithms are written out here, vectorized with masks where the scalar
algorithm loops or branches:

- ``zeta(x, q)``, Hurwitz's zeta: Cephes' direct sum up to ``q + n > 9`` followed by the
  Euler-Maclaurin tail, as PyTorch computes it (same terms, same early exits);
- ``lgamma``: a series around 2 (``lgamma(2 + z) = (1 - euler) z + sum (-1)^k (zeta(k) - 1)
  z^k / k``) reached by the recurrence below 13, Stirling's series from 13, reflection below 0;
- ``digamma``: PyTorch's (Cephes') recurrence to 10 and asymptotic series, reflection below 0,
  plus a Taylor series around the positive root, where the recurrence's sum cancels;
- ``trigamma`` and ``polygamma``: Hurwitz's zeta (``polygamma(n, x) = (-1)^(n+1) n! zeta(n+1,
  x)``), with the reflection formula for trigamma below 1/2 as PyTorch's;
- ``erfinv`` and ``ndtri``: Giles' approximation refined by Newton steps on ``erf`` in the
  centre, Newton steps on ``log_ndtr`` in the tails (so the result keeps its relative accuracy
  up to ``1 - 2**-53`` and down to the smallest subnormal probability);
- ``erfcx`` and ``log_ndtr``: ``exp(x*x)`` split so that it rounds once, the asymptotic
  series of ``erfcx`` where ``erfc`` underflows;
- ``i0``, ``i0e``, ``i1``, ``i1e``: the power series up to 30 and the asymptotic series of the
  scaled functions beyond (both converge to double precision there).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_MACHEP = 1.11022302462515654042e-16  # Cephes' MACHEP: 2**-53
_EULER = 0.5772156649015329
_HALF_LOG_TWO_PI = 0.5 * math.log(2.0 * math.pi)
_SQRT_PI = math.sqrt(math.pi)
_SQRT_HALF = math.sqrt(0.5)
_LOG_SQRT_TWO_PI = 0.5 * math.log(2.0 * math.pi)

_erf_scalar = np.frompyfunc(math.erf, 1, 1)
_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)


def _erf(x: np.ndarray) -> np.ndarray:
    """``math.erf`` of each element (correctly rounded nearly always)."""
    return np.asarray(_erf_scalar(x), dtype=np.float64)


def _erfc(x: np.ndarray) -> np.ndarray:
    """``math.erfc`` of each element (relative accuracy down to its underflow near 27)."""
    return np.asarray(_erfc_scalar(x), dtype=np.float64)


def _floats(*values: Any) -> list[np.ndarray]:
    """The values as float64 arrays of their broadcast shape (fresh, writable)."""
    arrays = np.broadcast_arrays(*[np.asarray(v, dtype=np.float64) for v in values])
    return [np.array(a, dtype=np.float64) for a in arrays]


def _polynomial(coefficients: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``sum coefficients[k] * z**k`` by Horner's rule (lowest degree first)."""
    total = np.full_like(z, coefficients[-1])
    for c in coefficients[-2::-1]:
        total = total * z + c
    return total


# --- Hurwitz's zeta ---------------------------------------------------------------------------

# (2k)! / B_2k, the Euler-Maclaurin divisors of Cephes' zeta.c (PyTorch's table).
_ZETA_A = (
    12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
    -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
    1.8152105401943546773e17, -7.1661652561756670113e18,
)  # fmt: skip


def zeta(x: Any, q: Any) -> np.ndarray:
    """Hurwitz's zeta ``sum over k >= 0 of (k + q) ** -x``, Cephes' algorithm as PyTorch's.

    inf at ``x == 1`` and at integers ``q <= 0``; nan for ``x < 1`` and for a non-integer
    ``x`` with ``q <= 0``.
    """
    x, q = _floats(x, q)
    with np.errstate(all="ignore"):
        result = np.full_like(x, np.nan)
        pole = (x == 1) | (~(x < 1) & (q <= 0) & (q == np.floor(q)))  # (Cephes' order: nan x too)
        result[pole] = np.inf
        live = ~pole & ~(x < 1) & ~((q <= 0) & (x != np.floor(x)))
        far = live & (q < _FAR_NEGATIVE)
        near = live & ~far
        result[near] = _zeta_sum(x[near], q[near])
        result[far] = _zeta_far_negative(x[far], q[far])
    return result


# Below this q, the direct sum would take -q terms (PyTorch's does): an integer x is summed
# in closed form instead.
_FAR_NEGATIVE = -64.0


def _zeta_far_negative(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """zeta(x, q) for an integer x and q < -64: the negative terms folded onto positive ones.

    With q = f - n (0 < f < 1), the n terms (q + k)**-x below 0 are (-1)**x (m - f)**-x for
    m = 1 ... n: ``zeta(x, q) = zeta(x, f) + (-1)**x (zeta(x, 1 - f) - zeta(x, n + 1 - f))``.
    """
    count = np.ceil(-q)
    fraction = q + count  # (exact: q's fraction)
    sign = np.where(np.fmod(x, 2.0) == 0, 1.0, -1.0)
    folded = _zeta_sum(x, 1.0 - fraction) - _zeta_sum(x, count + 1.0 - fraction)
    return _zeta_sum(x, fraction) + sign * folded


def _zeta_sum(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The direct sum and Euler-Maclaurin tail of ``zeta`` on valid 1-d arguments."""
    s = q**-x
    a = q.copy()
    b = np.zeros_like(q)
    running = np.ones(q.shape, dtype=bool)  # not returned yet
    steps = 0
    while True:
        step = running if steps < 9 else running & (a <= 9.0)
        if not step.any():
            break
        steps += 1
        a[step] += 1.0
        b[step] = a[step] ** -x[step]
        s[step] += b[step]
        running &= ~(step & (-_MACHEP * s < b) & (b < _MACHEP * s))
    w = a.copy()
    tail = running
    s[tail] += b[tail] * w[tail] / (x[tail] - 1.0)
    s[tail] -= 0.5 * b[tail]
    a = np.ones_like(q)
    k = 0.0
    for divisor in _ZETA_A:
        a = a * (x + k)
        b = b / w
        t = a * b / divisor
        s[tail] += t[tail]
        tail = tail & ~(np.abs(t / s) < _MACHEP)
        if not tail.any():
            break
        k += 1.0
        a = a * (x + k)
        b = b / w
        k += 1.0
    return s


# --- the gamma function's logarithm -----------------------------------------------------------

# lgamma(2 + z) = sum c_k z**k, c_1 = 1 - euler, c_k = (-1)**k (zeta(k) - 1) / k: |z| <= 1/2.
_K = np.arange(2, 32, dtype=np.float64)
_LGAMMA_AROUND_2 = np.concatenate(([0.0, 1.0 - _EULER], (-1.0) ** _K * zeta(_K, 2.0) / _K))
# Stirling's series: B_2k / (2k (2k - 1)), in powers of 1 / x**2 after the first 1 / x.
_STIRLING = np.array([
    1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400,
])  # fmt: skip


def _sin_pi(x: np.ndarray) -> np.ndarray:
    """``|sin(pi x)|`` with the argument reduced exactly first (0 at integers)."""
    return np.abs(np.sin(math.pi * (x - np.round(x))))


def lgamma(x: Any) -> np.ndarray:
    """``log |gamma(x)|``: inf at 0, at negative integers and at +-inf; nan at nan."""
    (x,) = _floats(x)
    result = np.empty_like(x)
    with np.errstate(all="ignore"):
        small = x < 0.5  # (0, 0.5): lgamma(x + 2) - log(x (x + 1))
        positive_small = small & (x > 0)
        z = x[positive_small]
        result[positive_small] = _polynomial(_LGAMMA_AROUND_2, z) - np.log(z) - np.log1p(z)
        middle = (x >= 0.5) & (x < 1.5)  # lgamma(x + 1) - log(x), x + 1 = 2 + (x - 1)
        z = x[middle]
        result[middle] = _polynomial(_LGAMMA_AROUND_2, z - 1.0) - np.log(z)
        around_two = (x >= 1.5) & (x < 2.5)
        result[around_two] = _polynomial(_LGAMMA_AROUND_2, x[around_two] - 2.0)
        recurrence = (x >= 2.5) & (x < 13.0)
        result[recurrence] = _lgamma_by_recurrence(x[recurrence])
        large = x >= 13.0
        result[large] = _lgamma_stirling(x[large])
        negative = x <= 0  # reflection: log(pi / |sin(pi x)|) - lgamma(1 - x)
        if negative.any():
            z = x[negative]
            sine = _sin_pi(z)
            reflected = np.log(math.pi / sine) - lgamma(1.0 - z)
            # Where pi / sin overflows (|x| < 1e-308) lgamma is -log|x| (744.4 at -5e-324, as
            # libm's), not inf; a negative integer (every float beyond -2**52) is a pole: inf,
            # not inf - inf.
            reflected = np.where(z > -_MACHEP, -np.log(-z), reflected)
            result[negative] = np.where(sine == 0, np.inf, reflected)
        result[np.isinf(x)] = np.inf
        result[np.isnan(x)] = np.nan
    return result


def _lgamma_by_recurrence(x: np.ndarray) -> np.ndarray:
    """Lgamma on [2.5, 13): ``lgamma(x - n) + log((x - 1) ... (x - n))``, x - n in [1.5, 2.5)."""
    steps = np.floor(x - 1.5)
    product = np.ones_like(x)
    shifted = x.copy()
    for _ in range(int(steps.max(initial=0.0))):
        going = steps > 0
        shifted[going] -= 1.0  # (exact: a float below 16 minus a small integer)
        product[going] *= shifted[going]
        steps[going] -= 1.0
    return _polynomial(_LGAMMA_AROUND_2, shifted - 2.0) + np.log(product)


def _lgamma_stirling(x: np.ndarray) -> np.ndarray:
    """Stirling's series from 13 (its eighth term is below 1e-18 there)."""
    inverse = 1.0 / x
    series = _polynomial(_STIRLING, inverse * inverse) * inverse
    return (x - 0.5) * np.log(x) - x + _HALF_LOG_TWO_PI + series


# --- digamma and the polygamma functions ------------------------------------------------------

_PSI_10 = 2.25175258906672110764  # digamma(10)
_DIGAMMA_A = np.array([
    8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
    -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
][::-1])  # fmt: skip
# The positive root of digamma as hi + lo, and the Taylor coefficients there:
# digamma(root + h) = sum over k >= 1 of (-1)**(k+1) zeta(k + 1, root) h**k.
_ROOT_HI, _ROOT_LO = 1.4616321449683622, 9.549995429965697e-17
_ROOT_WIDTH = 0.15
_ORDERS = np.arange(1, 22, dtype=np.float64)
_DIGAMMA_AT_ROOT = np.concatenate(([0.0], (-1.0) ** (_ORDERS + 1) * zeta(_ORDERS + 1, _ROOT_HI)))


def digamma(x: Any) -> np.ndarray:
    """``d/dx lgamma(x)``: -inf at +0, inf at -0, nan at negative integers and -inf."""
    (x,) = _floats(x)
    result = np.empty_like(x)
    with np.errstate(all="ignore"):
        negative = x < 0
        if negative.any():
            z = x[negative]
            fraction = z - np.trunc(z)  # (pi r, not pi x: tan is more accurate there)
            reflected = digamma(1.0 - z) - math.pi / np.tan(math.pi * fraction)
            result[negative] = np.where(z == np.trunc(z), np.nan, reflected)
        positive = ~negative
        result[positive] = _digamma_positive(x[positive])
        zero = x == 0
        result[zero] = np.copysign(np.inf, -x[zero])
        near_root = np.abs(x - _ROOT_HI) < _ROOT_WIDTH
        h = (x[near_root] - _ROOT_HI) - _ROOT_LO
        result[near_root] = _polynomial(_DIGAMMA_AT_ROOT, h)
    return result


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    """PyTorch's recurrence to 10 and asymptotic series (Cephes' psi) for x >= 0 or nan."""
    result = np.zeros_like(x)
    x = x.copy()
    for _ in range(10):
        below = x < 10
        if not below.any():
            break
        result[below] -= 1.0 / x[below]
        x[below] += 1.0
    z = 1.0 / (x * x)
    series = np.where(x < 1.0e17, z * _polynomial(_DIGAMMA_A, z), 0.0)
    return np.where(x == 10, result + _PSI_10, result + np.log(x) - 0.5 / x - series)


def trigamma(x: Any) -> np.ndarray:
    """``polygamma(1, x)`` as PyTorch's ``calc_trigamma``, in the input's float dtype.

    Below 1/2 by reflection (``-pi**2 / sin(pi x)**2``, then x -> 1 - x), six terms of the
    sum ``1 / (x + k)**2``, and the asymptotic tail ``(1 + 1/(2x) + 1/(6x**2) - ...) / x``.
    That tail is not exact (``polygamma(1, 1.)`` is 1.6449340676 where pi**2/6 = 1.6449340668),
    but it is PyTorch's value; the sine is unreduced, in the input's dtype (float32 for
    float16), so that at the poles (0, -1, -2, ...) the result is PyTorch's large finite value.
    """
    source = np.asarray(x)
    kind = source.dtype if source.dtype.kind == "f" else np.dtype(np.float64)
    kind = np.dtype(np.float32) if kind.itemsize < 4 else kind
    one, pi = kind.type(1), kind.type(math.pi)
    with np.errstate(all="ignore"):
        x = source.astype(kind)
        small = x < kind.type(0.5)
        sine = np.sin(pi * x)
        result = np.where(small, -(pi * pi) / (sine * sine), kind.type(0))
        x = np.where(small, one - x, x)
        for _ in range(6):
            result = result + one / (x * x)
            x = x + one
        ixx = one / (x * x)
        c6, c30, c42 = (kind.type(1.0 / d) for d in (6, 30, 42))
        tail = (one + one / (kind.type(2) * x) + ixx * (c6 - ixx * (c30 - ixx * c42))) / x
        return np.where(small, -(result + tail), result + tail).astype(np.float64)


def polygamma(n: int, x: Any, dtype: Any = np.float64) -> np.ndarray:
    """The n-th derivative of digamma (n >= 0): ``(-1)**(n+1) n! zeta(n + 1, x)`` from n = 2.

    The result in ``dtype``. From n = 2 its two factors are rounded to ``dtype`` before they
    are multiplied, as PyTorch computes them in the input's dtype: where ``n!`` overflows and
    the zeta underflows, the product is PyTorch's nan.
    """
    dtype = np.dtype(dtype)
    if n == 0:
        return digamma(x).astype(dtype)
    if n == 1:
        return trigamma(x).astype(dtype)
    sign = dtype.type(1.0 if n % 2 else -1.0)
    with np.errstate(all="ignore"):  # (n! as PyTorch: exp(lgamma(n + 1)))
        factorial = np.exp(lgamma(float(n) + 1.0)).astype(dtype)
        return sign * factorial * zeta(float(n + 1), x).astype(dtype)


# --- the error function's inverse and the normal distribution ---------------------------------

# Giles' single-precision approximation of erfinv, for w = -log(1 - y*y) < 5.
_GILES = np.array([
    2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
    -0.00125372503, -0.00417768164, 0.246640727, 1.50140941,
][::-1])  # fmt: skip
_TWO_OVER_SQRT_PI = 2.0 / _SQRT_PI


def _erfinv_centre(y: np.ndarray) -> np.ndarray:
    """Erfinv for |y| <= 1/2: Giles' guess (~1e-7) and three Newton steps on erf."""
    w = -np.log1p(-y * y) - 2.5
    x = _polynomial(_GILES, w) * y
    for _ in range(3):
        x = x - (_erf(x) - y) / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    return x


def _ndtri_tail(p: np.ndarray) -> np.ndarray:
    """Ndtri for 0 < p <= 1/4: Abramowitz-Stegun 26.2.23 (~4.5e-4), Newton on log_ndtr."""
    t = np.sqrt(-2.0 * np.log(p))
    x = -(t - (2.515517 + t * (0.802853 + t * 0.010328))
          / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))))  # fmt: skip
    log_p = np.log(p)
    for _ in range(4):
        log_cdf = log_ndtr(x)
        # (log_ndtr(x) - log p) / (pdf / cdf), the ratio taken in logarithms
        x = x - (log_cdf - log_p) * np.exp(log_cdf + 0.5 * x * x + _LOG_SQRT_TWO_PI)
    return x


def ndtri(p: Any) -> np.ndarray:
    """The normal quantile: ``ndtr(ndtri(p)) == p``; -inf at 0, inf at 1, nan outside [0, 1]."""
    (p,) = _floats(p)
    result = np.full_like(p, np.nan)
    with np.errstate(all="ignore"):
        centre = (p >= 0.25) & (p <= 0.75)
        result[centre] = math.sqrt(2.0) * _erfinv_centre(2.0 * p[centre] - 1.0)
        low = (p > 0) & (p < 0.25)
        result[low] = _ndtri_tail(p[low])
        high = (p > 0.75) & (p < 1)
        result[high] = -_ndtri_tail(1.0 - p[high])  # (1 - p exact from 1/2 up)
        result[p == 0] = -np.inf
        result[p == 1] = np.inf
    return result


def erfinv(y: Any) -> np.ndarray:
    """The inverse of erf on [-1, 1]: +-inf at +-1, nan outside."""
    (y,) = _floats(y)
    result = np.full_like(y, np.nan)
    with np.errstate(all="ignore"):
        magnitude = np.abs(y)
        centre = magnitude <= 0.5
        result[centre] = _erfinv_centre(y[centre])
        # erfc(x) = t  <=>  x = -ndtri(t / 2) / sqrt(2), with t = 1 - |y| exact
        tail = (magnitude > 0.5) & (magnitude < 1)
        t = 1.0 - magnitude[tail]
        result[tail] = np.copysign(-_ndtri_tail(0.5 * t) * _SQRT_HALF, y[tail])
        one = magnitude == 1
        result[one] = np.copysign(np.inf, y[one])
    return result


def _exp_square(x: np.ndarray) -> np.ndarray:
    """``exp(x * x)`` rounded once: x split into a 26-bit head (its square exact) and tail."""
    head = x * 134217729.0  # Veltkamp's split, 2**27 + 1
    head = head - (head - x)
    tail = x - head
    return np.exp(head * head) * np.exp(tail * (head + x))


def erfcx(x: Any) -> np.ndarray:
    """The scaled complementary error function ``exp(x**2) erfc(x)``."""
    (x,) = _floats(x)
    result = np.empty_like(x)
    with np.errstate(all="ignore"):
        middle = np.abs(x) < 25.0
        z = x[middle]
        result[middle] = _exp_square(z) * _erfc(z)
        large = x >= 25.0
        result[large] = _erfcx_asymptotic(x[large])
        very_negative = x <= -25.0  # 2 exp(x**2) - erfcx(-x): overflows to inf from ~ -26.6
        z = x[very_negative]
        result[very_negative] = 2.0 * _exp_square(z) - _erfcx_asymptotic(-z)
        result[np.isnan(x)] = np.nan
        result[x < -26.7] = np.inf  # (exp(x**2) overflows from about -26.64)
    return result


def _erfcx_asymptotic(x: np.ndarray) -> np.ndarray:
    """``erfcx(x) ~ 1 / (x sqrt(pi)) sum (-1)**k (2k - 1)!! / (2 x**2)**k``, from x = 25."""
    with np.errstate(all="ignore"):
        half_inverse_square = 0.5 / (x * x)
        total = np.ones_like(x)
        term = np.ones_like(x)
        for k in range(1, 10):
            term = term * -(2 * k - 1) * half_inverse_square
            total = total + term
        return total / (x * _SQRT_PI)


def log_ndtr(x: Any) -> np.ndarray:
    """``log(ndtr(x))``, PyTorch's formula: through erfcx below -1, log1p(-erfc / 2) above."""
    (x,) = _floats(x)
    with np.errstate(all="ignore"):
        t = x * _SQRT_HALF
        left = x < -1.0
        result = np.empty_like(x)
        z = t[left]
        result[left] = np.log(erfcx(-z) / 2.0) - z * z
        right = ~left
        result[right] = np.log1p(-_erfc(t[right]) / 2.0)
    return result


# --- modified Bessel functions of the first kind ----------------------------------------------

_BESSEL_SERIES_END = 20.0  # the power series below, the asymptotic series of the scaled above


def _bessel_series(x: np.ndarray, order: int) -> np.ndarray:
    """``I_order(x)`` (order 0 or 1): ``sum (x/2)**(2k + order) / (k! (k + order)!)``."""
    quarter_square = 0.25 * x * x
    term = np.ones_like(x) if order == 0 else 0.5 * x
    total = term.copy()
    for k in range(1, 90):
        term = term * quarter_square / (k * (k + order))
        total = total + term
    return total


def _bessel_scaled_asymptotic(x: np.ndarray, order: int) -> np.ndarray:
    """``exp(-x) I_order(x)`` for x >= 20, by the asymptotic series.

    ``sum (-1)**k prod over j <= k of (4 order**2 - (2j-1)**2) / (k! (8x)**k) / sqrt(2 pi x)``.
    """
    mu = 4.0 * order * order
    term = np.ones_like(x)
    total = term.copy()
    for k in range(1, 40):
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total = total + term
    return total / math.sqrt(2.0 * math.pi) / np.sqrt(x)  # (2 pi x may overflow)


def _bessel(x: Any, order: int, scaled: bool) -> np.ndarray:
    """I_0 or I_1 of x, times exp(-|x|) if ``scaled``; I_0 is even and I_1 odd."""
    (x,) = _floats(x)
    magnitude = np.abs(x)
    result = np.empty_like(x)
    with np.errstate(all="ignore"):
        small = magnitude < _BESSEL_SERIES_END
        z = magnitude[small]
        value = _bessel_series(z, order)
        result[small] = value * np.exp(-z) if scaled else value
        large = ~small
        z = magnitude[large]
        value = _bessel_scaled_asymptotic(z, order)
        result[large] = value if scaled else value * np.exp(0.5 * z) * np.exp(0.5 * z)
        result[np.isnan(x)] = np.nan
        if order == 1:  # (Cephes negates for x < 0 only: i1(-0.) is +0., as PyTorch's)
            result = np.where(x < 0, -result, result)
    return result


def i0(x: Any) -> np.ndarray:
    """The modified Bessel function of the first kind of order 0."""
    return _bessel(x, 0, scaled=False)


def i0e(x: Any) -> np.ndarray:
    """``exp(-|x|) i0(x)``."""
    return _bessel(x, 0, scaled=True)


def i1(x: Any) -> np.ndarray:
    """The modified Bessel function of the first kind of order 1."""
    return _bessel(x, 1, scaled=False)


def i1e(x: Any) -> np.ndarray:
    """``exp(-|x|) i1(x)``."""
    return _bessel(x, 1, scaled=True)


# --- the regularized incomplete gamma functions -----------------------------------------------


def _log_gamma_factor(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``log(x**a exp(-x) / gamma(a))``, without the cancellation of its large terms for a >= 13.

    There, and where x is within 0.4 a of a, it is ``a (log1p(u) - u) + log(a / (2 pi)) / 2 -
    stirling(a)``, u = (x - a) / a (Cephes' igam_fac takes Lanczos' form there).
    """
    with np.errstate(all="ignore"):
        direct = a * np.log(x) - x - lgamma(a)
        large = (a >= 13.0) & (np.abs(x - a) <= 0.4 * a)
        inverse = 1.0 / a
        stirling = _polynomial(_STIRLING, inverse * inverse) * inverse
        u = (x - a) / a
        folded = a * (np.log1p(u) - u) + 0.5 * np.log(a / (2.0 * math.pi)) - stirling
        return np.where(large, folded, direct)


def _lower_series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) by its power series (Cephes' igam_series): for x below a or below 1."""
    factor = np.exp(_log_gamma_factor(a, x))
    total = np.ones_like(a)
    term = np.ones_like(a)
    r = a.copy()
    running = np.ones(a.shape, dtype=bool)
    while running.any():
        r = r + 1.0
        term = np.where(running, term * x / r, term)
        total = np.where(running, total + term, total)
        running &= ~(term <= _MACHEP * total)
    return total * factor / a


def _upper_fraction(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) by its continued fraction (Cephes' igamc_continued_fraction): x above a and 1.1."""
    factor = np.exp(_log_gamma_factor(a, x))
    y = 1.0 - a
    z = x + y + 1.0
    c = np.zeros_like(a)
    p2, q2 = np.ones_like(a), x.copy()
    p1, q1 = x + 1.0, z * x
    answer = p1 / q1
    running = np.ones(a.shape, dtype=bool)
    while running.any():
        c = c + 1.0
        y = y + 1.0
        z = z + 2.0
        yc = y * c
        p = p1 * z - p2 * yc
        q = q1 * z - q2 * yc
        ratio = np.where(q != 0, p / np.where(q != 0, q, 1.0), answer)
        change = np.where(q != 0, np.abs((answer - ratio) / ratio), 1.0)
        answer = np.where(running, ratio, answer)
        p2, p1, q2, q1 = p1, p, q1, q
        big = np.abs(p) > 4.503599627370496e15  # (rescaled as Cephes: the terms grow)
        p2, p1, q2, q1 = (np.where(big, v * _MACHEP * 2.0, v) for v in (p2, p1, q2, q1))
        running &= ~(change <= _MACHEP)
    return answer * factor


def _upper_series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) for small x (Cephes' igamc_series): ``-expm1(a log x - lgamma(1 + a)) - ...``."""
    factor = np.ones_like(a)
    total = np.zeros_like(a)
    n = 0.0
    running = np.ones(a.shape, dtype=bool)
    while running.any():
        n += 1.0
        factor = factor * -x / n
        term = factor / (a + n)
        total = np.where(running, total + term, total)
        running &= ~(np.abs(term) <= _MACHEP * np.abs(total))
    log_x = np.log(x)
    near_zero = np.abs(a) <= 0.5  # (lgamma(1 + a) = lgamma(2 + a) - log1p(a), a kept exact)
    lgamma_1p = np.where(near_zero, _polynomial(_LGAMMA_AROUND_2, a) - np.log1p(a), lgamma(1.0 + a))
    return -np.expm1(a * log_x - lgamma_1p) - np.exp(a * log_x - lgamma(a)) * total


def _incomplete_gamma(a: Any, x: Any, upper: bool) -> np.ndarray:
    """P(a, x) (``upper`` False) or Q(a, x) = 1 - P(a, x), with Cephes' edge values."""
    a, x = _floats(a, x)
    result = np.full_like(a, np.nan)
    with np.errstate(all="ignore"):
        valid = ~((x < 0) | (a < 0))  # (nan compares False: Cephes' edges come first)
        edge = valid & ((a == 0) | (x == 0) | np.isinf(a) | np.isinf(x))
        # P at the edges: 1 at a == 0 < x, 0 at x == 0, 0 at a == inf, 1 at x == inf
        lower_edge = np.where(a == 0, np.where(x > 0, 1.0, np.nan),
                              np.where(x == 0, 0.0, np.where(np.isinf(a),
                                       np.where(np.isinf(x), np.nan, 0.0), 1.0)))  # fmt: skip
        result[edge] = (1.0 - lower_edge[edge]) if upper else lower_edge[edge]
        inner = valid & ~edge & ~np.isnan(a) & ~np.isnan(x)
        # Cephes' choice of expansion: Q's continued fraction above x = max(a, 1.1), P's
        # series below a (or below 1), Q's own series for small x where P is near 1.
        fraction = inner & (x > 1.1) & (x >= a) if upper else inner & (x > 1.0) & (x > a)
        q = _upper_fraction(a[fraction], x[fraction])
        result[fraction] = q if upper else 1.0 - q
        rest = inner & ~fraction
        ar, xr = a[rest], x[rest]
        use_upper_series = np.where(
            xr <= 0.5, -0.4 / np.log(xr) >= ar, np.where(xr <= 1.1, xr * 1.1 >= ar, False)
        )
        value = np.empty_like(ar)
        s = use_upper_series if upper else np.zeros_like(use_upper_series)
        value[s] = _upper_series(ar[s], xr[s])
        p = _lower_series(ar[~s], xr[~s])
        value[~s] = 1.0 - p if upper else p
        result[rest] = value
    return result


def igamma(a: Any, x: Any) -> np.ndarray:
    """The regularized lower incomplete gamma function ``P(a, x)`` (a, x >= 0)."""
    return _incomplete_gamma(a, x, upper=False)


def igammac(a: Any, x: Any) -> np.ndarray:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    return _incomplete_gamma(a, x, upper=True)
