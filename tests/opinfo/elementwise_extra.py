"""Op-table rows of more elementwise math (ops/elementwise_extra.py): fmod, copysign, fmax,
fmin, heaviside, nextafter, float_power, gcd, lcm, sgn and the sign/infinity tests.

Sample names that start with ``edge`` hold ties, zeros and nans, where these ops are not
differentiable in the ordinary sense: PyTorch's convention there is checked against torch, and
the finite-difference checks skip them.
"""

from __future__ import annotations

import numpy as np

from opinfo import OpInfo, Sample
from opinfo.elementwise import (
    BAD_BINARY,
    POSITIVE,
    REAL,
    SPECIAL,
    away_from_zero,
    binary_samples,
    full_first,
    inplace,
    unary_samples,
)

_NAN, _INF = float("nan"), float("inf")
# Ties, signed zeros, nans and infinities on either side.
_EDGE = ((1.0, -0.0, 0.0, _NAN, 2.0, _NAN, -_INF, 3.0),
         (1.0, 0.0, -0.0, 1.0, _NAN, _NAN, 1.0, _INF))


def integer_samples(rng: np.random.Generator) -> list[Sample]:
    """int64 operands with zeros and negative values, broadcasting, and a 0-d one."""

    def ints(shape: tuple[int, ...]) -> np.ndarray:
        return np.asarray(rng.integers(-12, 13, size=shape), dtype=np.int64)

    return [
        Sample((ints((3, 4)), ints((3, 4))), name="same"),
        Sample((ints((2, 3, 1)), ints((3, 4))), name="broadcast"),
        Sample((ints(()), ints((2, 3))), name="0d_broadcast"),
        Sample((ints((3, 4)), ints((3, 4))), name="transposed", transposed=True),
        Sample((np.array([0, 0, -6, 12, -9]), np.array([0, 4, 0, -18, -6])), name="zeros"),
    ]


OPS: list[OpInfo] = [
    # --- fmod -------------------------------------------------------------------------------
    OpInfo("fmod", lambda lib, x, y: lib.fmod(x, y),
           binary_samples(right=away_from_zero(), scalar=None), bad_inputs=BAD_BINARY),
    OpInfo("fmod_x_only", lambda lib, x, y: lib.fmod(x, y),
           binary_samples(right=away_from_zero(), scalar=None), grad_args=(0,), op="fmod"),
    OpInfo("fmod_scalar", lambda lib, x: lib.fmod(x, 0.75), unary_samples(), op="fmod"),
    OpInfo("fmod_method", lambda lib, x: x.fmod(-1.25), unary_samples(), op="fmod"),
    OpInfo("fmod_", lambda lib, x, y: x.clone().fmod_(y),
           full_first(binary_samples(right=away_from_zero(), scalar=None)), gradgrad=False,
           inplace=True),
    inplace("fmod_scalar_", lambda lib, x: x.clone().fmod_(0.75), op="fmod_"),
    # --- copysign: not differentiable at x = 0 (PyTorch gives 0 there) --------------------------
    OpInfo("copysign", lambda lib, x, y: lib.copysign(x, y),
           binary_samples(away_from_zero(), away_from_zero(), scalar=None, edge=_EDGE),
           bad_inputs=BAD_BINARY),
    OpInfo("copysign_y_only", lambda lib, x, y: lib.copysign(x, y),
           binary_samples(away_from_zero(), away_from_zero(), scalar=None), grad_args=(1,),
           op="copysign"),
    OpInfo("copysign_scalar", lambda lib, x: lib.copysign(x, -0.5),
           unary_samples(away_from_zero(), edge=SPECIAL), op="copysign"),
    OpInfo("copysign_method", lambda lib, x: x.copysign(-0.0), unary_samples(away_from_zero()),
           op="copysign"),
    OpInfo("copysign_", lambda lib, x, y: x.clone().copysign_(y),
           full_first(binary_samples(away_from_zero(), away_from_zero(), scalar=None)),
           inplace=True),
    inplace("copysign_scalar_", lambda lib, x: x.clone().copysign_(2.0), away_from_zero(),
            op="copysign_"),
    # --- fmax, fmin -------------------------------------------------------------------------
    OpInfo("fmax", lambda lib, x, y: lib.fmax(x, y), binary_samples(scalar=None, edge=_EDGE),
           bad_inputs=BAD_BINARY),
    OpInfo("fmin", lambda lib, x, y: lib.fmin(x, y), binary_samples(scalar=None, edge=_EDGE),
           bad_inputs=BAD_BINARY),
    OpInfo("fmax_method_x_only", lambda lib, x, y: x.fmax(y), binary_samples(scalar=None),
           grad_args=(0,), op="fmax"),
    OpInfo("fmin_method_y_only", lambda lib, x, y: x.fmin(y), binary_samples(scalar=None),
           grad_args=(1,), op="fmin"),
    # --- heaviside (no derivative in PyTorch) -------------------------------------------------
    OpInfo("heaviside", lambda lib, x, v: lib.heaviside(x, v),
           binary_samples(scalar=None, edge=((-1.0, 0.0, -0.0, 2.0, _NAN), (0.5, 0.5, 2.0, 1.0,
                                                                             1.0))),
           differentiable=False, bad_inputs=BAD_BINARY),
    OpInfo("heaviside_", lambda lib, x, v: x.clone().heaviside_(v),
           full_first(binary_samples(scalar=None)), differentiable=False, inplace=True),
    # --- nextafter ----------------------------------------------------------------------------
    OpInfo("nextafter", lambda lib, x, y: lib.nextafter(x, y),
           binary_samples(scalar=None, edge=_EDGE), bad_inputs=BAD_BINARY),
    OpInfo("nextafter_y_only", lambda lib, x, y: x.nextafter(y), binary_samples(scalar=None),
           grad_args=(1,), op="nextafter"),
    OpInfo("nextafter_", lambda lib, x, y: x.clone().nextafter_(y),
           full_first(binary_samples(scalar=None)), inplace=True),
    # --- float_power: in float64 ---------------------------------------------------------------
    OpInfo("float_power", lambda lib, x, y: lib.float_power(x, y),
           binary_samples(POSITIVE, REAL, scalar=None), bad_inputs=BAD_BINARY),
    OpInfo("float_power_scalar", lambda lib, x: x.float_power(3), unary_samples(),
           op="float_power"),
    OpInfo("float_power_number_first", lambda lib, y: lib.float_power(2.5, y), unary_samples(),
           op="float_power"),
    OpInfo("float_power_", lambda lib, x, y: x.clone().double().float_power_(y),
           full_first(binary_samples(POSITIVE, REAL, scalar=None)), inplace=True),
    inplace("float_power_scalar_", lambda lib, x: x.clone().double().float_power_(2),
            op="float_power_"),
    # --- gcd, lcm (integers only) -----------------------------------------------------------
    *[OpInfo(name, (lambda n: lambda lib, x, y: getattr(lib, n)(x, y))(name), integer_samples,
             differentiable=False) for name in ("gcd", "lcm")],
    *[OpInfo(name, (lambda n: lambda lib, x, y: getattr(x.clone(), n)(y))(name),
             full_first(integer_samples), differentiable=False, inplace=True)
      for name in ("gcd_", "lcm_")],
    # --- sgn and the tests of the sign and of infinities --------------------------------------
    OpInfo("sgn", lambda lib, x: lib.sgn(x), unary_samples(edge=SPECIAL)),
    inplace("sgn_", lambda lib, x: x.clone().sgn_(), edge=SPECIAL),
    OpInfo("angle", lambda lib, x: lib.angle(x), unary_samples(edge=SPECIAL)),
    OpInfo("angle_method", lambda lib, x: x.angle(), unary_samples(edge=SPECIAL), op="angle"),
    *[OpInfo(name, (lambda n: lambda lib, x: getattr(lib, n)(x))(name),
             unary_samples(edge=(*SPECIAL, -_NAN)), differentiable=False)
      for name in ("signbit", "isneginf", "isposinf", "isreal")],
    OpInfo("signbit_method", lambda lib, x: x.signbit(), unary_samples(edge=SPECIAL),
           differentiable=False, op="signbit"),
]
