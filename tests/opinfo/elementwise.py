"""Op-table rows of the elementwise family (ops/elementwise.py).

Sample names that start with ``edge`` hold points where the op is not differentiable in the
ordinary sense (relu at 0, clamp at its bounds): PyTorch's convention there is checked against
torch, but they are skipped by the finite-difference checks (tests/test_ops.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample

Domain = Callable[[np.random.Generator, tuple[int, ...]], np.ndarray]


# --- value domains --------------------------------------------------------------------------


def uniform(low: float, high: float) -> Domain:
    """Values in [low, high)."""
    return lambda rng, shape: np.asarray(rng.uniform(low, high, size=shape))


def away_from_zero(low: float = 0.5, high: float = 2.0) -> Domain:
    """Values with |v| in [low, high) and a random sign (divisors, ...)."""

    def make(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        magnitude = rng.uniform(low, high, size=shape)
        return np.asarray(np.where(rng.random(shape) < 0.5, -magnitude, magnitude))

    return make


def away_from_integers(low: float = -3.0, high: float = 3.0) -> Domain:
    """Values at least 0.1 from every integer and half-integer (floor, round, ...)."""

    def make(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        base = rng.integers(int(low * 2), int(high * 2), size=shape) / 2
        return np.asarray(base + rng.uniform(0.1, 0.4, size=shape))

    return make


REAL = uniform(-2.0, 2.0)
POSITIVE = uniform(0.5, 2.5)
UNIT = uniform(-0.9, 0.9)  # inside (-1, 1): asin, acos, atanh


def unary_samples(domain: Domain = REAL, edge: tuple[float, ...] = ()) -> Callable[..., list]:
    """0-d, 1-d, 2-d, transposed and 3-d samples, plus one ``edge`` sample of given values."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [
            Sample((domain(rng, ()),), name="0d"),
            Sample((domain(rng, (5,)),), name="1d"),
            Sample((domain(rng, (3, 4)),), name="2d"),
            Sample((domain(rng, (3, 4)),), name="transposed", transposed=True),
            Sample((domain(rng, (2, 1, 3)),), name="3d"),
        ]
        if edge:
            out.append(Sample((np.array(edge, dtype=np.float64),), name="edge"))
        return out

    return samples


def binary_samples(
    left: Domain = REAL,
    right: Domain = REAL,
    scalar: float | None = 1.5,
    edge: tuple[tuple[float, ...], tuple[float, ...]] | None = None,
) -> Callable[..., list]:
    """Same shape, 0-d, broadcasting (both ways, and with a 0-d tensor), transposed, a Python
    number as the second operand (if ``scalar``), and an ``edge`` sample of given values."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [
            Sample((left(rng, (3, 4)), right(rng, (3, 4))), name="same"),
            Sample((left(rng, ()), right(rng, ())), name="0d"),
            Sample((left(rng, (2, 3, 1)), right(rng, (3, 4))), name="broadcast"),
            Sample((left(rng, (4,)), right(rng, (3, 1))), name="broadcast_both"),
            Sample((left(rng, (3, 4)), right(rng, ())), name="broadcast_0d"),
            Sample((left(rng, ()), right(rng, (2, 3))), name="0d_broadcast"),
            Sample((left(rng, (3, 4)), right(rng, (3, 4))), name="transposed", transposed=True),
        ]
        if scalar is not None:
            out.append(Sample((left(rng, (2, 3)), scalar), name="scalar"))
        if edge is not None:
            out.append(
                Sample((np.array(edge[0], dtype=np.float64), np.array(edge[1], dtype=np.float64)),
                       name="edge")
            )
        return out

    return samples


def _bad_broadcast() -> BadInput:
    return BadInput((np.ones((2, 3)), np.ones((4,))), name="shape_mismatch")


BAD_BINARY = (_bad_broadcast(),)


def unary(name: str, fn: Callable[..., Any], domain: Domain = REAL, edge: tuple[float, ...] = (),
          **kw: Any) -> OpInfo:
    """A row for a unary op ``fn(lib, x)``."""
    return OpInfo(name, fn, unary_samples(domain, edge), inplace=True, **kw)


OPS: list[OpInfo] = [
    # --- arithmetic ---------------------------------------------------------------------------
    OpInfo("add", lambda lib, x, y: lib.add(x, y), binary_samples(), bad_inputs=BAD_BINARY),
    OpInfo("add_alpha", lambda lib, x, y: lib.add(x, y, alpha=2.5), binary_samples()),
    OpInfo("add_operator", lambda lib, x, y: x + y, binary_samples()),
    OpInfo("radd", lambda lib, x: 2.5 + x, unary_samples()),
    OpInfo("sub", lambda lib, x, y: lib.sub(x, y), binary_samples(), bad_inputs=BAD_BINARY),
    OpInfo("sub_alpha", lambda lib, x, y: lib.sub(x, y, alpha=-0.5), binary_samples()),
    OpInfo("rsub", lambda lib, x: 2.5 - x, unary_samples()),
    OpInfo("rsub_function", lambda lib, x: lib.rsub(x, 2.5), unary_samples()),
    OpInfo("rsub_alpha", lambda lib, x: lib.rsub(x, 2.5, alpha=-1.5), unary_samples()),
    OpInfo("rsub_tensor", lambda lib, x, y: lib.rsub(x, y), binary_samples()),
    OpInfo("rsub_tensor_alpha", lambda lib, x, y: lib.rsub(x, y, alpha=0.5), binary_samples()),
    OpInfo("mul", lambda lib, x, y: lib.mul(x, y), binary_samples(), bad_inputs=BAD_BINARY),
    OpInfo("mul_x_only", lambda lib, x, y: x * y, binary_samples(), grad_args=(0,)),
    OpInfo("mul_y_only", lambda lib, x, y: x * y, binary_samples(scalar=None), grad_args=(1,)),
    OpInfo("rmul", lambda lib, x: 2.5 * x, unary_samples()),
    OpInfo("div", lambda lib, x, y: lib.div(x, y), binary_samples(right=away_from_zero()),
           bad_inputs=BAD_BINARY),
    OpInfo("div_x_only", lambda lib, x, y: x / y, binary_samples(right=away_from_zero()),
           grad_args=(0,)),
    OpInfo("div_y_only", lambda lib, x, y: x / y,
           binary_samples(right=away_from_zero(), scalar=None), grad_args=(1,)),
    OpInfo("rdiv", lambda lib, x: 2.5 / x, unary_samples(away_from_zero())),
    # A rounding mode, even None, is PyTorch's DivBackward2; rounded quotients have zero grads.
    OpInfo("div_mode_none", lambda lib, x, y: lib.div(x, y, rounding_mode=None),
           binary_samples(right=away_from_zero()), op="div"),
    OpInfo("div_trunc", lambda lib, x, y: lib.div(x, y, rounding_mode="trunc"),
           binary_samples(away_from_integers(), away_from_zero(), scalar=0.75), op="div"),
    OpInfo("div_floor", lambda lib, x, y: x.div(y, rounding_mode="floor"),
           binary_samples(away_from_integers(), away_from_zero(), scalar=-0.75), op="div"),
    OpInfo("div_floor_y_only", lambda lib, x, y: lib.div(x, y, rounding_mode="floor"),
           binary_samples(away_from_integers(), away_from_zero(), scalar=None), grad_args=(1,),
           op="div"),
    OpInfo("true_divide", lambda lib, x, y: lib.true_divide(x, y),
           binary_samples(right=away_from_zero())),
    OpInfo(
        "floor_divide",
        lambda lib, x, y: lib.floor_divide(x, y),
        binary_samples(away_from_integers(), away_from_zero(), scalar=0.75),
        differentiable=False,  # PyTorch records NotImplemented: backward raises
        bad_inputs=BAD_BINARY,
    ),
    OpInfo("pow", lambda lib, x, y: lib.pow(x, y), binary_samples(POSITIVE, REAL, scalar=None),
           bad_inputs=BAD_BINARY),
    OpInfo("pow_x_only", lambda lib, x, y: x ** y, binary_samples(POSITIVE, REAL, scalar=None),
           grad_args=(0,)),
    OpInfo("pow_y_only", lambda lib, x, y: x ** y, binary_samples(POSITIVE, REAL, scalar=None),
           grad_args=(1,)),
    OpInfo("pow_scalar_2", lambda lib, x: x ** 2, unary_samples(edge=(0.0, -1.0))),
    OpInfo("pow_scalar_3", lambda lib, x: lib.pow(x, 3), unary_samples(edge=(0.0,))),
    OpInfo("pow_scalar_half", lambda lib, x: x ** 0.5, unary_samples(POSITIVE)),
    OpInfo("pow_scalar_neg", lambda lib, x: x ** -1.5, unary_samples(POSITIVE)),
    OpInfo("pow_scalar_0", lambda lib, x: x ** 0, unary_samples(edge=(0.0,))),
    OpInfo("rpow", lambda lib, x: 2.5 ** x, unary_samples()),
    # gradgrad off: at base 0 PyTorch's own second derivative is nan (its gradgradcheck fails).
    OpInfo("rpow_0", lambda lib, x: 0.0 ** x, unary_samples(POSITIVE, edge=(0.0, 1.0)),
           gradgrad=False),
    OpInfo("neg", lambda lib, x: lib.neg(x), unary_samples()),
    OpInfo("subtract", lambda lib, x, y: lib.subtract(x, y, alpha=0.5), binary_samples()),
    OpInfo("multiply", lambda lib, x, y: lib.multiply(x, y), binary_samples()),
    OpInfo("divide", lambda lib, x, y: lib.divide(x, y), binary_samples(right=away_from_zero())),
    OpInfo("logaddexp", lambda lib, x, y: lib.logaddexp(x, y),
           binary_samples(scalar=None,
                          edge=((1.0, -np.inf, np.inf, 3.0), (1.0, -np.inf, 2.0, 3.0))),
           bad_inputs=(*BAD_BINARY, BadInput((np.ones(3), 2.0), name="number"))),
    OpInfo("logaddexp2", lambda lib, x, y: x.logaddexp2(y), binary_samples(scalar=None)),
    OpInfo("hypot", lambda lib, x, y: lib.hypot(x, y), binary_samples(scalar=None),
           bad_inputs=BAD_BINARY),
    OpInfo("xlogy", lambda lib, x, y: lib.xlogy(x, y),
           binary_samples(right=POSITIVE, scalar=2.5,
                          edge=((0.0, 0.0, 1.0, 2.0), (np.nan, 0.0, 0.0, 3.0)))),
    OpInfo("xlogy_number_first", lambda lib, y: lib.xlogy(2.5, y), unary_samples(POSITIVE),
           op="xlogy"),
    OpInfo("xlogy_method", lambda lib, x, y: x.xlogy(y), binary_samples(right=POSITIVE),
           op="xlogy"),
    unary("logit", lambda lib, x: lib.logit(x), uniform(0.05, 0.95),
          edge=(0.0, 1.0, -0.5, 1.5, -0.0)),
    unary("logit_eps", lambda lib, x: x.logit(eps=0.2), uniform(0.05, 0.95),
          edge=(0.0, 0.2, 0.8, 1.0, 0.5), op="logit"),
    OpInfo("divide_floor", lambda lib, x, y: x.divide(y, rounding_mode="floor"),
           binary_samples(away_from_integers(), away_from_zero(), scalar=0.75), op="divide"),
    OpInfo("neg_operator", lambda lib, x: -x, unary_samples()),
    # --- elementwise math --------------------------------------------------------------------
    unary("abs", lambda lib, x: lib.abs(x), edge=(0.0, -1.0, 1.0)),
    unary("exp", lambda lib, x: lib.exp(x)),
    unary("log", lambda lib, x: lib.log(x), POSITIVE, edge=(0.0, -1.0)),
    unary("sqrt", lambda lib, x: lib.sqrt(x), POSITIVE, edge=(0.0, -1.0)),
    unary("sigmoid", lambda lib, x: lib.sigmoid(x), edge=(-100.0, 100.0)),
    unary("tanh", lambda lib, x: lib.tanh(x)),
    unary("relu", lambda lib, x: lib.relu(x), edge=(0.0, -1.0, 1.0)),
    unary("reciprocal", lambda lib, x: lib.reciprocal(x), away_from_zero(), edge=(0.0,)),
    unary("sign", lambda lib, x: lib.sign(x), edge=(0.0, -1.0, 1.0)),
    unary("clamp", lambda lib, x: lib.clamp(x, -0.5, 0.5), edge=(-0.5, 0.5, 0.0, -1.0, 1.0)),
    unary("clamp_min", lambda lib, x: lib.clamp(x, min=-0.5), edge=(-0.5, 0.0, -1.0)),
    unary("clamp_max", lambda lib, x: lib.clamp(x, max=0.5), edge=(0.5, 0.0, 1.0)),
    unary("clamp_method", lambda lib, x: x.clamp(-0.5, 0.5)),
    OpInfo(
        "where",
        lambda lib, c, x, y: lib.where(c, x, y),
        lambda rng: [
            Sample((rng.random((3, 4)) < 0.5, REAL(rng, (3, 4)), REAL(rng, (3, 4))), name="same"),
            Sample((rng.random((3, 1)) < 0.5, REAL(rng, (1, 4)), REAL(rng, ())), name="broadcast"),
            Sample((rng.random((3, 4)) < 0.5, REAL(rng, (3, 4)), 0.5), name="scalar"),
            Sample((rng.random((3, 4)) < 0.5, REAL(rng, (3, 4)), REAL(rng, (3, 4))),
                   name="transposed", transposed=True),
        ],
        bad_inputs=(
            BadInput((np.ones((2, 3), dtype=bool), np.ones((2, 3)), np.ones((4,))),
                     name="shape_mismatch"),
        ),
    ),
]


# --- issue #4: more elementwise math ---------------------------------------------------------


def inplace(name: str, fn: Callable[..., Any], domain: Domain = REAL,
            edge: tuple[float, ...] = (), **kw: Any) -> OpInfo:
    """A row for an in-place method applied to a clone of the input (so the input is a leaf
    that requires grad): the mutation matrix then tells whether it saved its result."""
    return OpInfo(name, fn, unary_samples(domain, edge), **kw)


def full_first(samples: Callable[..., list]) -> Callable[..., list]:
    """Only the samples whose first argument has the result's shape (in-place ops)."""

    def keep(sample: Sample) -> bool:
        arrays = [np.shape(a) for a in sample.args if isinstance(a, np.ndarray)]
        return np.broadcast_shapes(*arrays) == arrays[0]

    return lambda rng: [s for s in samples(rng) if keep(s)]


def ternary_samples(
    first: Domain = REAL, second: Domain = REAL, third: Domain = REAL
) -> Callable[..., list]:
    """Same shape, 0-d, broadcasting across all three, and transposed."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        return [
            Sample((first(rng, (3, 4)), second(rng, (3, 4)), third(rng, (3, 4))), name="same"),
            Sample((first(rng, ()), second(rng, ()), third(rng, ())), name="0d"),
            Sample((first(rng, (3, 1)), second(rng, (4,)), third(rng, (2, 1, 1))),
                   name="broadcast"),
            Sample((first(rng, (3, 4)), second(rng, ()), third(rng, (4,))), name="broadcast_0d"),
            Sample((first(rng, (3, 4)), second(rng, (3, 4)), third(rng, (3, 4))),
                   name="transposed", transposed=True),
        ]

    return samples


def comparison_samples(rng: np.random.Generator) -> list[Sample]:
    """Binary samples plus ties (equal values), where comparisons differ most."""
    ties = np.array([-1.0, 0.0, 0.5, 2.0])
    return [
        *binary_samples(scalar=0.5)(rng),
        Sample((ties, np.array([-1.0, 1.0, 0.5, 3.0])), name="ties"),
        Sample((np.array([np.nan, 1.0, np.inf]), np.array([np.nan, np.nan, np.inf])), name="nan"),
    ]


def logical_samples(rng: np.random.Generator) -> list[Sample]:
    """Values with zeros in them (the falsy elements)."""

    def with_zeros(shape: tuple[int, ...]) -> np.ndarray:
        return np.where(rng.random(shape) < 0.4, 0.0, rng.uniform(-2, 2, size=shape))

    return [
        Sample((with_zeros((3, 4)), with_zeros((3, 4))), name="same"),
        Sample((with_zeros((2, 3, 1)), with_zeros((3, 4))), name="broadcast"),
        Sample((with_zeros(()), with_zeros((2, 3))), name="0d_broadcast"),
        Sample((with_zeros((3, 4)), with_zeros((3, 4))), name="transposed", transposed=True),
        Sample((rng.random((3, 4)) < 0.5, rng.random((3, 4)) < 0.5), name="bool"),
    ]


SPECIAL = (np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -1e30)


def clamp_tensor_samples(rng: np.random.Generator) -> list[Sample]:
    low, high = uniform(-1.5, -0.2), uniform(0.2, 1.5)
    return [
        Sample((REAL(rng, (3, 4)), low(rng, (3, 4)), high(rng, (3, 4))), name="same"),
        Sample((REAL(rng, (3, 4)), low(rng, (4,)), high(rng, (3, 1))), name="broadcast"),
        Sample((REAL(rng, ()), low(rng, ()), high(rng, ())), name="0d"),
        Sample((REAL(rng, (3, 4)), low(rng, (3, 4)), high(rng, (3, 4))), name="transposed",
               transposed=True),
        # Inverted bounds (min > max: the result is max) and x at the bounds (inclusive).
        Sample((np.array([0.0, 1.0, -1.0, 0.3]), np.array([0.5, -1.0, -1.0, 0.3]),
                np.array([-0.5, 1.0, 1.0, 0.3])), name="edge"),
    ]


def _bad_float_int_mix() -> BadInput:
    return BadInput((np.ones((2, 3)), np.ones((2, 3), dtype=np.int64)), name="int_end")


OPS += [
    # --- arithmetic ------------------------------------------------------------------------
    OpInfo("remainder", lambda lib, x, y: lib.remainder(x, y),
           binary_samples(right=away_from_zero(), scalar=None), bad_inputs=BAD_BINARY),
    OpInfo("remainder_x_only", lambda lib, x, y: lib.remainder(x, y),
           binary_samples(right=away_from_zero(), scalar=None), grad_args=(0,)),
    OpInfo("remainder_scalar", lambda lib, x: lib.remainder(x, 0.75), unary_samples()),
    OpInfo("remainder_operator", lambda lib, x: x % -1.25, unary_samples()),
    OpInfo("maximum", lambda lib, x, y: lib.maximum(x, y),
           binary_samples(scalar=None, edge=((1.0, 2.0, -1.0, np.nan), (1.0, 1.0, 3.0, 0.0))),
           bad_inputs=(*BAD_BINARY, BadInput((np.ones(3), 2.0), name="number"))),
    OpInfo("minimum", lambda lib, x, y: lib.minimum(x, y),
           binary_samples(scalar=None, edge=((1.0, 2.0, -1.0, np.nan), (1.0, 1.0, 3.0, 0.0))),
           bad_inputs=BAD_BINARY),
    OpInfo("maximum_method", lambda lib, x, y: x.maximum(y), binary_samples(scalar=None)),
    # atan2: at the origin (and where the squares underflow) PyTorch's gradient is 0, not nan.
    OpInfo("atan2", lambda lib, x, y: lib.atan2(x, y),
           binary_samples(scalar=None, edge=((0.0, 0.0, 1.0, -2.0), (0.0, -0.0, 0.0, -1.0))),
           bad_inputs=(*BAD_BINARY, BadInput((np.ones(3), 2.0), name="number"))),
    OpInfo("atan2_method_x_only", lambda lib, x, y: x.arctan2(y), binary_samples(scalar=None),
           grad_args=(0,), op="arctan2"),
    OpInfo("lerp_scalar", lambda lib, x, y: lib.lerp(x, y, 0.3), binary_samples(scalar=None),
           bad_inputs=(*BAD_BINARY, _bad_float_int_mix()), op="lerp"),
    OpInfo("lerp_scalar_large", lambda lib, x, y: x.lerp(y, 0.75), binary_samples(scalar=None)),
    OpInfo("lerp_tensor", lambda lib, x, y, w: lib.lerp(x, y, w),
           ternary_samples(third=uniform(-0.5, 1.5))),
    OpInfo("lerp_tensor_weight_only", lambda lib, x, y, w: lib.lerp(x, y, w),
           ternary_samples(third=uniform(-0.5, 1.5)), grad_args=(2,)),
    OpInfo("addcmul", lambda lib, x, a, b: lib.addcmul(x, a, b), ternary_samples()),
    OpInfo("addcmul_value", lambda lib, x, a, b: lib.addcmul(x, a, b, value=-0.5),
           ternary_samples(), bad_inputs=(
               BadInput((np.ones((2, 3)), np.ones((4,)), np.ones((2, 3))), name="shape_mismatch"),
           )),
    OpInfo("addcmul_t1_only", lambda lib, x, a, b: x.addcmul(a, b, value=2.0), ternary_samples(),
           grad_args=(1,)),
    OpInfo("addcdiv", lambda lib, x, a, b: lib.addcdiv(x, a, b),
           ternary_samples(third=away_from_zero())),
    OpInfo("addcdiv_value", lambda lib, x, a, b: x.addcdiv(a, b, value=0.5),
           ternary_samples(third=away_from_zero())),
    OpInfo("addcdiv_x_only", lambda lib, x, a, b: lib.addcdiv(x, a, b, value=2.0),
           ternary_samples(third=away_from_zero()), grad_args=(0,)),
    OpInfo("addcdiv_t2_only", lambda lib, x, a, b: lib.addcdiv(x, a, b, value=2.0),
           ternary_samples(third=away_from_zero()), grad_args=(2,)),
    OpInfo("addcmul_x_only", lambda lib, x, a, b: lib.addcmul(x, a, b),
           ternary_samples(), grad_args=(0,)),
    OpInfo("lerp_tensor_ends_only", lambda lib, x, y, w: lib.lerp(x, y, w),
           ternary_samples(third=uniform(-0.5, 1.5)), grad_args=(0, 1)),
    OpInfo("clamp_tensor_bounds_only", lambda lib, x, lo, hi: lib.clamp(x, lo, hi),
           clamp_tensor_samples, grad_args=(1, 2)),
    OpInfo("maximum_x_only", lambda lib, x, y: lib.maximum(x, y), binary_samples(scalar=None),
           grad_args=(0,)),
    OpInfo("addcdiv_t1_only", lambda lib, x, a, b: lib.addcdiv(x, a, b, value=2.0),
           ternary_samples(third=away_from_zero()), grad_args=(1,)),
    # --- exponentials, logarithms, powers ----------------------------------------------------
    unary("exp2", lambda lib, x: lib.exp2(x), edge=(0.0, -np.inf, np.inf)),
    unary("expm1", lambda lib, x: lib.expm1(x), uniform(-1e-3, 1e-3)),
    unary("log2", lambda lib, x: lib.log2(x), POSITIVE, edge=(0.0, -1.0, np.inf)),
    unary("log10", lambda lib, x: lib.log10(x), POSITIVE, edge=(0.0, -1.0)),
    unary("log1p", lambda lib, x: lib.log1p(x), uniform(-0.5, 2.0), edge=(-1.0, -2.0, 1e-10)),
    unary("rsqrt", lambda lib, x: lib.rsqrt(x), POSITIVE, edge=(0.0, -1.0, np.inf)),
    unary("square", lambda lib, x: lib.square(x)),
    unary("square_method", lambda lib, x: x.square()),
    # --- trigonometric and hyperbolic --------------------------------------------------------
    unary("sin", lambda lib, x: lib.sin(x), uniform(-4.0, 4.0)),
    unary("cos", lambda lib, x: lib.cos(x), uniform(-4.0, 4.0)),
    unary("tan", lambda lib, x: lib.tan(x), uniform(-1.3, 1.3)),
    unary("asin", lambda lib, x: lib.asin(x), UNIT, edge=(1.0, -1.0, 1.5)),
    unary("acos", lambda lib, x: lib.acos(x), UNIT, edge=(1.0, -1.0, 1.5)),
    unary("atan", lambda lib, x: lib.atan(x), uniform(-4.0, 4.0)),
    unary("sinh", lambda lib, x: lib.sinh(x)),
    unary("cosh", lambda lib, x: lib.cosh(x)),
    unary("asinh", lambda lib, x: lib.asinh(x), uniform(-4.0, 4.0), edge=(0.0, -np.inf)),
    unary("acosh", lambda lib, x: lib.acosh(x), uniform(1.2, 4.0), edge=(1.0, 0.5, np.inf)),
    unary("atanh", lambda lib, x: lib.atanh(x), UNIT, edge=(1.0, -1.0, 1.5)),
    # NumPy's names, which PyTorch takes too (functions and methods)
    *[unary(alias, (lambda a: lambda lib, x: getattr(lib, a)(x))(alias), domain)
      for alias, domain in (("arcsin", UNIT), ("arccos", UNIT), ("arctan", REAL),
                            ("arcsinh", REAL), ("arccosh", uniform(1.2, 4.0)),
                            ("arctanh", UNIT), ("absolute", away_from_zero()),
                            ("negative", REAL))],
    unary("arccos_method", lambda lib, x: x.arccos(), UNIT, op="arccos"),
    unary("positive", lambda lib, x: lib.positive(x)),
    unary("positive_operator", lambda lib, x: +x, op="positive"),
    unary("erf", lambda lib, x: lib.erf(x), edge=(0.0, 6.0, -np.inf)),
    unary("erfc", lambda lib, x: lib.erfc(x), edge=(0.0, 6.0, -np.inf, 30.0)),
    unary("sinc", lambda lib, x: lib.sinc(x), edge=(0.0, 1.0, -2.0, 0.5, np.inf, 1e-20)),
    unary("deg2rad", lambda lib, x: lib.deg2rad(x), uniform(-400.0, 400.0)),
    unary("rad2deg", lambda lib, x: lib.rad2deg(x)),
    # --- rounding ----------------------------------------------------------------------------
    unary("floor", lambda lib, x: lib.floor(x), away_from_integers(), edge=(-0.5, 2.0, -0.0)),
    unary("ceil", lambda lib, x: lib.ceil(x), away_from_integers(), edge=(-0.5, 2.0, -0.0)),
    unary("trunc", lambda lib, x: lib.trunc(x), away_from_integers(), edge=(-0.5, 2.0, -1.5)),
    unary("round", lambda lib, x: lib.round(x), away_from_integers(),
          edge=(0.5, 1.5, 2.5, -0.5, -2.5)),
    unary("round_decimals", lambda lib, x: lib.round(x, decimals=1), away_from_integers(),
          edge=(0.25, 0.35, -1.15, 12.345)),
    unary("round_decimals_negative", lambda lib, x: x.round(decimals=-1),
          uniform(-100.0, 100.0), edge=(25.0, 35.0, -15.0)),
    unary("frac", lambda lib, x: lib.frac(x), away_from_integers(), edge=(-1.5, 2.0, -0.0)),
    # --- clamping ----------------------------------------------------------------------------
    unary("clip", lambda lib, x: lib.clip(x, -0.5, 0.5), edge=(-0.5, 0.5)),
    unary("clamp_min_function", lambda lib, x: lib.clamp_min(x, -0.5), edge=(-0.5, 0.0)),
    unary("clamp_max_function", lambda lib, x: lib.clamp_max(x, 0.5), edge=(0.5, 0.0)),
    unary("clamp_int_bounds", lambda lib, x: lib.clamp(x, -1, 1), edge=(-1.0, 1.0)),
    OpInfo("clamp_tensor", lambda lib, x, lo, hi: lib.clamp(x, lo, hi), clamp_tensor_samples,
           bad_inputs=(
               BadInput((np.ones((2, 3)), np.zeros((4,)), np.ones((2, 3))), name="shape_mismatch"),
           )),
    OpInfo("clamp_tensor_min_only", lambda lib, x, lo, hi: lib.clamp(x, min=lo),
           clamp_tensor_samples),
    OpInfo("clamp_tensor_max_only", lambda lib, x, lo, hi: x.clamp(max=hi), clamp_tensor_samples),
    OpInfo("clamp_tensor_x_only", lambda lib, x, lo, hi: lib.clamp(x, lo, hi),
           clamp_tensor_samples, grad_args=(0,)),
    OpInfo("clamp_min_tensor", lambda lib, x, lo, hi: lib.clamp_min(x, lo), clamp_tensor_samples),
    OpInfo("clamp_max_tensor", lambda lib, x, lo, hi: x.clamp_max(hi), clamp_tensor_samples),
    unary("nan_to_num", lambda lib, x: lib.nan_to_num(x), edge=SPECIAL),
    unary("nan_to_num_values", lambda lib, x: x.nan_to_num(nan=1.5, posinf=3.0, neginf=-3.0),
          edge=SPECIAL),
    # --- comparisons and logical ops (bool results) -------------------------------------------
    *[
        OpInfo(name, (lambda n: lambda lib, x, y: getattr(lib, n)(x, y))(name),
               comparison_samples, differentiable=False, bad_inputs=BAD_BINARY)
        for name in ("eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal",
                     "greater", "greater_equal")
    ],
    OpInfo("lt_operator", lambda lib, x, y: x < y, comparison_samples, differentiable=False),
    OpInfo("ge_method", lambda lib, x, y: x.ge(y), comparison_samples, differentiable=False),
    *[
        OpInfo(name, (lambda n: lambda lib, x, y: getattr(lib, n)(x, y))(name),
               logical_samples, differentiable=False)
        for name in ("logical_and", "logical_or", "logical_xor")
    ],
    OpInfo("logical_not", lambda lib, x, y: lib.logical_not(x), logical_samples,
           differentiable=False),
    *[
        OpInfo(name, (lambda n: lambda lib, x: getattr(lib, n)(x))(name),
               unary_samples(edge=SPECIAL), differentiable=False)
        for name in ("isnan", "isinf", "isfinite")
    ],
    # --- in-place variants (on a clone: does the op save its result?) ------------------------
    inplace("sin_", lambda lib, x: x.clone().sin_()),
    inplace("cos_", lambda lib, x: x.clone().cos_()),
    inplace("tan_", lambda lib, x: x.clone().tan_(), uniform(-1.3, 1.3)),
    inplace("asin_", lambda lib, x: x.clone().asin_(), UNIT),
    inplace("acos_", lambda lib, x: x.clone().acos_(), UNIT),
    inplace("atan_", lambda lib, x: x.clone().atan_()),
    inplace("sinh_", lambda lib, x: x.clone().sinh_()),
    inplace("cosh_", lambda lib, x: x.clone().cosh_()),
    # PyTorch records asinh_, acosh_ and atanh_ (AsinhBackward1 ...) but has no derivative
    # for them: backward raises (test_ops_torch compares that), nothing to gradcheck.
    inplace("logit_", lambda lib, x: x.clone().logit_(), uniform(0.05, 0.95)),
    inplace("logit_eps_", lambda lib, x: x.clone().logit_(0.1), uniform(0.05, 0.95), op="logit_"),
    inplace("asinh_", lambda lib, x: x.clone().asinh_(), differentiable=False),
    inplace("acosh_", lambda lib, x: x.clone().acosh_(), uniform(1.2, 4.0), differentiable=False),
    inplace("atanh_", lambda lib, x: x.clone().atanh_(), UNIT, differentiable=False),
    *[inplace(alias, (lambda a: lambda lib, x: getattr(x.clone(), a)())(alias), domain,
              differentiable=not alias.endswith("h_"))
      for alias, domain in (("arcsin_", UNIT), ("arccos_", UNIT), ("arctan_", REAL),
                            ("arcsinh_", REAL), ("arccosh_", uniform(1.2, 4.0)),
                            ("arctanh_", UNIT), ("absolute_", away_from_zero()),
                            ("negative_", REAL))],
    inplace("exp2_", lambda lib, x: x.clone().exp2_()),
    inplace("expm1_", lambda lib, x: x.clone().expm1_()),
    inplace("log2_", lambda lib, x: x.clone().log2_(), POSITIVE),
    inplace("log10_", lambda lib, x: x.clone().log10_(), POSITIVE),
    inplace("log1p_", lambda lib, x: x.clone().log1p_(), POSITIVE),
    inplace("rsqrt_", lambda lib, x: x.clone().rsqrt_(), POSITIVE),
    inplace("square_", lambda lib, x: x.clone().square_()),
    inplace("erf_", lambda lib, x: x.clone().erf_()),
    inplace("erfc_", lambda lib, x: x.clone().erfc_()),
    inplace("sinc_", lambda lib, x: x.clone().sinc_()),
    inplace("deg2rad_", lambda lib, x: x.clone().deg2rad_()),
    inplace("rad2deg_", lambda lib, x: x.clone().rad2deg_()),
    inplace("floor_", lambda lib, x: x.clone().floor_(), away_from_integers()),
    inplace("ceil_", lambda lib, x: x.clone().ceil_(), away_from_integers()),
    inplace("trunc_", lambda lib, x: x.clone().trunc_(), away_from_integers()),
    inplace("round_", lambda lib, x: x.clone().round_(), away_from_integers()),
    inplace("round_decimals_", lambda lib, x: x.clone().round_(decimals=1), away_from_integers()),
    inplace("frac_", lambda lib, x: x.clone().frac_(), away_from_integers()),
    inplace("sign_", lambda lib, x: x.clone().sign_()),
    inplace("nan_to_num_", lambda lib, x: x.clone().nan_to_num_(), edge=SPECIAL),
    inplace("clamp_min_", lambda lib, x: x.clone().clamp_min_(-0.5), edge=(-0.5,)),
    inplace("clamp_max_", lambda lib, x: x.clone().clamp_max_(0.5), edge=(0.5,)),
    inplace("remainder_", lambda lib, x: x.clone().remainder_(0.75)),
    OpInfo("remainder_tensor_", lambda lib, x, y: x.clone().remainder_(y),
           full_first(binary_samples(right=away_from_zero(), scalar=None)), gradgrad=False,
           inplace=True, op="remainder_"),
    OpInfo("floor_divide_", lambda lib, x, y: x.clone().floor_divide_(y),
           full_first(binary_samples(away_from_integers(), away_from_zero(), scalar=0.75)),
           differentiable=False, inplace=True),
    OpInfo("clamp_min_tensor_", lambda lib, x, lo, hi: x.clone().clamp_min_(lo),
           clamp_tensor_samples, inplace=True, op="clamp_min_"),
    OpInfo("lerp_", lambda lib, x, y: x.clone().lerp_(y, 0.3),
           full_first(binary_samples(scalar=None)), inplace=True),
    OpInfo("lerp_tensor_", lambda lib, x, y, w: x.clone().lerp_(y, w),
           full_first(ternary_samples(third=uniform(-0.5, 1.5))), gradgrad=False, inplace=True,
           op="lerp_"),
    OpInfo("addcmul_", lambda lib, x, a, b: x.clone().addcmul_(a, b, value=0.5),
           full_first(ternary_samples()), inplace=True),
    OpInfo("addcdiv_", lambda lib, x, a, b: x.clone().addcdiv_(a, b, value=0.5),
           full_first(ternary_samples(third=away_from_zero())), inplace=True),
    unary("clone", lambda lib, x: lib.clone(x)),
    unary("clone_method", lambda lib, x: x.clone(), op="clone"),
    unary("fix", lambda lib, x: lib.fix(x), away_from_integers()),
    unary("fix_method", lambda lib, x: x.fix(), away_from_integers(), op="fix"),
]
