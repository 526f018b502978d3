"""More unary elementwise math: erfc, sinc, deg2rad, rad2deg.

Each follows ``unary.py``'s families: integer and bool inputs compute in the default float
dtype; the in-place forms refuse integer tensors with PyTorch's cast error; each op saves what
PyTorch's derivatives.yaml saves (``_saved_self`` for erfc and sinc, nothing for the two angle
conversions, whose derivative is a constant).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.ops._helpers import Constants, float_input, zero_where
from minigrad.ops.opmath import in_float32, times_number
from minigrad.ops.unary import SavesInput, float_inplace, per_element

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_DEGREE = math.pi / 180.0  # one degree in radians
_PI = Constants(math.pi)  # (sinc's pi in the operand's dtype, as PyTorch's kernel computes)
_ONE = Constants(1.0)


class Erfc(SavesInput):
    """y = erfc(x) = 1 - erf(x);  dx = -grad * 2 / sqrt(pi) * exp(-x**2).  Saves its input."""

    kernel = staticmethod(per_element(math.erfc, "erfc"))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return times_number(np.exp(-(x * x)), -_TWO_OVER_SQRT_PI) * grad  # (as Erf's)


def erfc(input: Any) -> Any:
    """The complementary error function ``1 - erf(input)``, accurate where erf is near 1."""
    return Erfc._record(float_input(input))


def erfc_(input: Any) -> Any:
    """``erfc`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Erfc)


def _sinc_array(x: np.ndarray) -> np.ndarray:
    """sin(pi x) / (pi x), 1 at 0: PyTorch's kernel, with pi in the array's dtype."""
    (pi,) = _PI.of(x)
    product = x * pi
    with np.errstate(invalid="ignore", divide="ignore"):  # (0/0 at 0, replaced below)
        result = np.sin(product) / product
    (one,) = _ONE.of(x)
    return np.where(x == 0, one, result)  # (an array for 0-d x too, where ufuncs give scalars)


class Sinc(SavesInput):
    """y = sin(pi x) / (pi x);  dx = grad * (pi x cos(pi x) - sin(pi x)) / (pi x**2).

    The derivative is 0 where ``pi x**2`` is 0, as PyTorch's ``sinc_backward``. Saves its input.
    """

    kernel = staticmethod(lambda x: in_float32(_sinc_array, x))  # (float16: in float32)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        x_pi = times_number(x, math.pi)  # (C++'s tensor * double: float16 takes pi in float32)
        x_squared_pi = times_number(x * x, math.pi)
        at_zero = x_squared_pi == 0
        # PyTorch's order, grad * (...) / (pi x**2), over 1 where pi x**2 is 0: the same values
        # elsewhere, and no 0/0 at x = 0 whose nan a double backward would carry into the
        # derivative with respect to grad (jvp's; PyTorch's forward mode gives 0 there).
        with np.errstate(invalid="ignore", divide="ignore"):
            slope = grad * (x_pi * np.cos(x_pi) - np.sin(x_pi)) / np.where(at_zero, 1, x_squared_pi)
        return zero_where(at_zero, slope)


def sinc(input: Any) -> Any:
    """The normalized sinc function ``sin(pi input) / (pi input)``, 1 at 0."""
    return Sinc._record(float_input(input))


def sinc_(input: Any) -> Any:
    """``sinc`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Sinc)


class _Scaling(Op):
    """y = x * factor;  dx = grad * factor.  Saves nothing (the factor is the derivative)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)
    factor: ClassVar[float]

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        # (a Python float: numpy multiplies in x's dtype, as PyTorch; float16 takes the
        # factor in float32, as PyTorch's mul kernel reads a scalar)
        return times_number(x, cls.factor)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> Any:
        return times_number(grad, cls.factor)


class Deg2Rad(_Scaling):
    """y = x * pi / 180;  dx = grad * pi / 180.  Saves nothing."""

    factor = _DEGREE


class Rad2Deg(_Scaling):
    """y = x * 180 / pi;  dx = grad * 180 / pi.  Saves nothing."""

    factor = 180.0 / math.pi


def deg2rad(input: Any) -> Any:
    """Angles in degrees converted to radians."""
    return Deg2Rad._record(float_input(input))


def deg2rad_(input: Any) -> Any:
    """``deg2rad`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Deg2Rad)


def rad2deg(input: Any) -> Any:
    """Angles in radians converted to degrees."""
    return Rad2Deg._record(float_input(input))


def rad2deg_(input: Any) -> Any:
    """``rad2deg`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Rad2Deg)
