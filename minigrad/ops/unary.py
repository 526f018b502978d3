"""Unary elementwise math: neg, abs, exp, log, sqrt, trigonometry, rounding, sign, ...

Each op saves what PyTorch's derivatives.yaml saves: the input where the derivative is written
with it (sin, log2, ...), the result where it is cheaper that way (exp, tan, rsqrt, ...); that
decides which later in-place writes make backward raise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops._helpers import (
    Constants,
    cast,
    check_float_kernel,
    is_bool,
    operand,
    run,
    zeros_like_grad,
)
from minigrad.ops.arithmetic import mul, pow


class Neg(Op):
    """y = -x;  dx = -grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return -x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return -grad


def neg(input: Any) -> Any:
    """``-input``."""
    if is_bool(input):
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return Neg.apply(input)


class Abs(Op):
    """y = |x|;  dx = grad * sign(x)  (0 at 0 and at nan, as PyTorch's).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.abs(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * sign_of(x)  # (0 at nan, as PyTorch's sgn)


def abs(input: Any) -> Any:
    """``|input|``."""
    if is_bool(input):
        check_float_kernel("abs_cpu", input)
    return Abs.apply(input)


class Exp(Op):
    """y = exp(x);  dx = grad * y.  Saves its result: writing x later is legal, y is not.

    float32 is computed in float64 and rounded: numpy's float32 exp is off by an ulp for about
    a third of inputs (``exp(2)``), PyTorch's is (almost always) the nearest float32, and
    chains such as ``exp(exp(x))`` magnify the difference.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.exp(x, dtype=np.float64).astype(np.float32) if x.dtype == np.float32 else np.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * y


def exp(input: Any) -> Any:
    """``e ** input``.

    Example:
        >>> import minigrad
        >>> minigrad.exp(minigrad.tensor([0.0, 1.0]))
        tensor([1.0000, 2.7183])
    """
    return Exp.apply(_float(input))


def _float(input: Any) -> Any:
    # Integer tensors go through transcendental functions as the default float dtype.
    if isinstance(input, TensorBase) and input._array.dtype.kind == "f":
        return input  # the common case, without a call
    return input if operand(input).dtype.kind == "f" else cast(input, np.dtype(np.float32))


class Log(Op):
    """y = log(x);  dx = grad / x.  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / x


def log(input: Any) -> Any:
    """Natural logarithm (nan below 0, -inf at 0, as in PyTorch)."""
    return Log.apply(_float(input))


class Sqrt(Op):
    """y = sqrt(x);  dx = grad / (2 y).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.sqrt(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad / (2 * y)


def sqrt(input: Any) -> Any:
    """Square root (nan below 0)."""
    return Sqrt.apply(_float(input))


_HALF_ONE = Constants(0.5, 1.0)


_ONE = Constants(1.0)


class Sigmoid(Op):
    """y = 1 / (1 + exp(-x));  dx = grad * y * (1 - y).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        # The tanh form never overflows, unlike 1 / (1 + exp(-x)) for very negative x.
        half, one = _HALF_ONE.of(x)
        y = np.tanh(x * half)
        y += one
        y *= half
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return run(SigmoidBackward, grad, y)


def sigmoid(input: Any) -> Any:
    """``1 / (1 + exp(-input))``.

    Example:
        >>> import minigrad
        >>> minigrad.sigmoid(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([0.7311, 0.8808, 0.9526])
    """
    return Sigmoid.apply(_float(input))


class SigmoidBackward(Op):
    """z = grad * y * (1 - y), sigmoid's backward as an op of its own.

    Sigmoid's backward under create_graph records this node (PyTorch's
    ``SigmoidBackwardBackward0``);  dgrad = gz * y * (1 - y),  dy = gz * grad * (1 - 2y).
    Saves ``y`` if ``grad`` needs a gradient, both if ``y`` does (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(grad if needs[1] else None, y if needs[0] or needs[1] else None)
        (one,) = _ONE.of(y)
        return grad * y * (one - y)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        grad, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(SigmoidBackward, gz, y) if needs[0] else None,
            gz * grad * (1 - 2 * y) if needs[1] else None,
        )


class Tanh(Op):
    """y = tanh(x);  dx = grad * (1 - y**2).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return run(TanhBackward, grad, y)


def tanh(input: Any) -> Any:
    """Hyperbolic tangent."""
    return Tanh.apply(_float(input))


class TanhBackward(Op):
    """z = grad * (1 - y**2), tanh's backward as an op of its own.

    Tanh's backward under create_graph records this node (PyTorch's ``TanhBackwardBackward0``);
    dgrad = gz * (1 - y**2),  dy = -2 * gz * grad * y.  Saves ``y`` if ``grad`` needs a gradient,
    both if ``y`` does (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(grad if needs[1] else None, y if needs[0] or needs[1] else None)
        (one,) = _ONE.of(y)
        return grad * (one - y * y)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        grad, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(TanhBackward, gz, y) if needs[0] else None,
            gz * (-2 * y * grad) if needs[1] else None,
        )


class Relu(Op):
    """y = max(x, 0);  dx = grad where y > 0.  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.where(x < 0, 0, x)  # PyTorch's max(x, 0) keeps -0.0 and nan (np.maximum: 0.0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return run(ThresholdBackward, grad, y)


def relu(input: Any) -> Any:
    """``max(input, 0)``."""
    if is_bool(input):
        raise RuntimeError("Boolean inputs not supported for relu")
    return Relu.apply(input)


class ThresholdBackward(Op):
    """z = grad where y > 0, else 0: relu's backward as an op of its own.

    Relu's backward under create_graph records this node (PyTorch's
    ``ThresholdBackwardBackward0``);  dgrad = gz where y > 0, else 0;  dy = 0.  Saves ``y``.
    PyTorch's threshold_backward: 0 where y <= 0 (an infinite grad too), else grad (nan too).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, grad: Any, y: Any) -> np.ndarray:
        ctx.save_for_backward(y)
        return np.where(y <= 0, 0, grad)

    @staticmethod
    def backward(ctx: Any, gz: Any) -> tuple[Any, Any]:
        (y,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(ThresholdBackward, gz, y) if needs[0] else None,
            zeros_like_grad(gz) if needs[1] else None,
        )


class Reciprocal(Op):
    """y = 1 / x;  dx = -grad * y**2.  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.reciprocal(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return -grad * y * y


def reciprocal(input: Any) -> Any:
    """``1 / input``."""
    return Reciprocal.apply(_float(input))


class Clone(Op):
    """y = a copy of x;  dx = grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x.copy()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


def clone(input: Any) -> Any:
    """A copy of ``input`` that gradients flow through (a fresh buffer and version counter)."""
    return Clone.apply(input)


def rdiv(input: Any, other: Any) -> Any:
    """``other / input`` for a number ``other``: recorded as ``reciprocal(input) * other``."""
    return mul(reciprocal(input), other)


class Sign(Op):
    """y = sign(x), 0 for nan (PyTorch's);  dx = 0 (the gradient of a step function).

    Saves nothing.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return sign_of(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


def sign(input: Any) -> Any:
    """-1, 0 or 1 by the sign of each element (a bool tensor: itself, copied)."""
    if operand(input).dtype == np.bool_:
        return Clone.apply(input)
    return Sign.apply(input)


def sign_of(x: Any) -> Any:
    """-1, 0 or 1 in ``x``'s dtype, computed as PyTorch does: ``(0 < x) - (x < 0)``.

    So nan has sign 0 (numpy's ``sign`` gives nan), and so does -0.0.
    """
    if not isinstance(x, np.ndarray):
        return x.sign()  # a tensor (create_graph): the op itself
    if x.dtype.kind == "b":
        return x.copy()
    return np.subtract(x > 0, x < 0, dtype=x.dtype)


_LN2 = math.log(2.0)


_LN10 = math.log(10.0)


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Exp2(Op):
    """y = 2 ** x;  dx = grad * y * ln 2.  Saves its result: writing x later is legal."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.exp2(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * y * _LN2


def exp2(input: Any) -> Any:
    """``2 ** input``."""
    return Exp2.apply(_float(input))


class Expm1(Op):
    """y = exp(x) - 1 (accurate near 0);  dx = grad * (y + 1).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.expm1(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y + 1)


def expm1(input: Any) -> Any:
    """``exp(input) - 1``, accurate for small inputs."""
    return Expm1.apply(_float(input))


class Log2(Op):
    """y = log2(x);  dx = grad / (x ln 2).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log2(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x * _LN2)


def log2(input: Any) -> Any:
    """Base-2 logarithm."""
    return Log2.apply(_float(input))


class Log10(Op):
    """y = log10(x);  dx = grad / (x ln 10).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log10(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x * _LN10)


def log10(input: Any) -> Any:
    """Base-10 logarithm."""
    return Log10.apply(_float(input))


class Log1p(Op):
    """y = log(1 + x) (accurate near 0);  dx = grad / (1 + x).  Saves its input."""

    node_name = "Log1PBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.log1p(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


def log1p(input: Any) -> Any:
    """``log(1 + input)``, accurate for small inputs."""
    return Log1p.apply(_float(input))


class Rsqrt(Op):
    """y = 1 / sqrt(x);  dx = -grad * y**3 / 2.  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.reciprocal(np.sqrt(x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y * y * y) * -0.5


def rsqrt(input: Any) -> Any:
    """``1 / sqrt(input)``."""
    return Rsqrt.apply(_float(input))


class Sin(Op):
    """y = sin(x);  dx = grad * cos(x).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.sin(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.cos(x)


def sin(input: Any) -> Any:
    """Sine (radians).

    Example:
        >>> import minigrad
        >>> minigrad.sin(minigrad.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8415])
    """
    return Sin.apply(_float(input))


class Cos(Op):
    """y = cos(x);  dx = -grad * sin(x).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.cos(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * -np.sin(x)


def cos(input: Any) -> Any:
    """Cosine (radians)."""
    return Cos.apply(_float(input))


class Tan(Op):
    """y = tan(x);  dx = grad * (1 + y**2).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.tan(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y * y + 1)


def tan(input: Any) -> Any:
    """Tangent (radians)."""
    return Tan.apply(_float(input))


class Asin(Op):
    """y = asin(x) (nan outside [-1, 1]);  dx = grad / sqrt(1 - x**2).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arcsin(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / np.sqrt(1 - x * x)


def asin(input: Any) -> Any:
    """Inverse sine (nan outside [-1, 1])."""
    return Asin.apply(_float(input))


class Acos(Op):
    """y = acos(x) (nan outside [-1, 1]);  dx = -grad / sqrt(1 - x**2).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arccos(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return -grad / np.sqrt(1 - x * x)


def acos(input: Any) -> Any:
    """Inverse cosine (nan outside [-1, 1])."""
    return Acos.apply(_float(input))


class Atan(Op):
    """y = atan(x);  dx = grad / (1 + x**2).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.arctan(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x * x + 1)


def atan(input: Any) -> Any:
    """Inverse tangent."""
    return Atan.apply(_float(input))


class Sinh(Op):
    """y = sinh(x);  dx = grad * cosh(x).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.sinh(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.cosh(x)


def sinh(input: Any) -> Any:
    """Hyperbolic sine."""
    return Sinh.apply(_float(input))


class Cosh(Op):
    """y = cosh(x);  dx = grad * sinh(x).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.cosh(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.sinh(x)


def cosh(input: Any) -> Any:
    """Hyperbolic cosine."""
    return Cosh.apply(_float(input))


_erf_scalar = np.frompyfunc(math.erf, 1, 1)


def erf_array(x: np.ndarray) -> np.ndarray:
    """The error function of an array, in its float dtype (``math.erf`` per element: exact)."""
    return np.asarray(_erf_scalar(x), dtype=np.float64).astype(x.dtype, copy=False)


class Erf(Op):
    """y = erf(x);  dx = grad * 2 / sqrt(pi) * exp(-x**2).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return erf_array(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * (np.exp(-(x * x)) * _TWO_OVER_SQRT_PI)


def erf(input: Any) -> Any:
    """The error function ``2 / sqrt(pi) * integral of exp(-t**2) from 0 to input``."""
    return Erf.apply(_float(input))


class _Step(Op):
    """A piecewise-constant op: dx = 0 everywhere (PyTorch: zeros).  Saves nothing."""

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


class Floor(_Step):
    """y = floor(x);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.floor(x)


def floor(input: Any) -> Any:
    """Round down to an integral value (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Floor.apply(input)
    return _integer_copy(input, "floor_vml_cpu")


def _integer_copy(input: Any, kernel: str | None = None) -> Any:
    # Rounding an integer tensor is the identity: a copy, as PyTorch returns. PyTorch has no
    # rounding kernel for bool tensors (``kernel`` names it in the error).
    if kernel is not None and operand(input).dtype == np.bool_:
        check_float_kernel(kernel, input)
    return Clone.apply(input)


class Ceil(_Step):
    """y = ceil(x);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.ceil(x)


def ceil(input: Any) -> Any:
    """Round up to an integral value (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Ceil.apply(input)
    return _integer_copy(input, "ceil_vml_cpu")


class Trunc(_Step):
    """y = trunc(x) (rounded towards 0);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.trunc(x)


def trunc(input: Any) -> Any:
    """Round towards zero (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Trunc.apply(input)
    return _integer_copy(input, "trunc_vml_cpu")


class Round(_Step):
    """y = x rounded half to even;  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.round(x)


def round(input: Any, *, decimals: int = 0) -> Any:
    """Round half to even, to ``decimals`` decimal digits (integer tensors: a copy)."""
    if operand(input).dtype.kind != "f":
        if decimals:
            check_float_kernel("round_cpu", input)
        return _integer_copy(input, "round_vml_cpu")
    if decimals:
        return RoundDecimals.apply(input, decimals)
    return Round.apply(input)


class RoundDecimals(Op):
    """y = x rounded half to even at ``decimals`` digits;  dx = 0.  Saves nothing."""

    node_name = "RoundBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, decimals: int) -> np.ndarray:
        # PyTorch's formula: rint(x * 10**d) / 10**d (for d < 0: rint(x / 10**-d) * 10**-d).
        if decimals >= 0:
            scale = x.dtype.type(10.0**decimals)
            return np.rint(x * scale) / scale
        scale = x.dtype.type(10.0**-decimals)
        return np.rint(x / scale) * scale

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return zeros_like_grad(grad), None


class Frac(Op):
    """y = x - trunc(x);  dx = grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x - np.trunc(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


def frac(input: Any) -> Any:
    """``input - trunc(input)``: the fractional part, with the sign of ``input``."""
    check_float_kernel("frac_cpu", input)
    return Frac.apply(input)


class NanToNum(Op):
    """y = x with nan, +inf, -inf replaced;  dx = grad where x is finite.  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, nan: Any, posinf: Any, neginf: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.nan_to_num(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (x,) = ctx.saved_tensors
        return grad * np.isfinite(x), None, None, None


def nan_to_num(
    input: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Any:
    """Replace nan by ``nan``, +inf by ``posinf``, -inf by ``neginf``.

    By default, infinities become the dtype's largest and smallest finite values.
    """
    if operand(input).dtype.kind != "f":
        return _integer_copy(input)
    return NanToNum.apply(input, nan, posinf, neginf)


def square(input: Any) -> Any:
    """``input ** 2`` (recorded as ``pow``, as in PyTorch; bool input gives int64)."""
    if operand(input).dtype == np.bool_:
        input = cast(input, np.dtype(np.int64))
    return pow(input, 2)


fix = trunc
