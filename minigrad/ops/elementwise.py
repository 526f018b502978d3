"""Elementwise ops: each one class (forward, backward, what it saves) plus its public function.

Formulas are written with operators and numpy ufuncs only, so they read like the math.
What each op saves is what PyTorch 2.13 saves: it decides which later in-place writes make
backward raise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.function import Op
from minigrad.ops._helpers import call_broadcasting, cast, operand, promote


class Add(Op):
    """z = x + alpha * y;  dx = grad,  dy = alpha * grad.  Saves nothing."""

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any, dtype: Any) -> np.ndarray:
        ctx.alpha = alpha
        return np.add(x, y if alpha == 1 else alpha * y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        return grad, grad if ctx.alpha == 1 else grad * ctx.alpha, None, None


class Sub(Op):
    """z = x - alpha * y;  dx = grad,  dy = -alpha * grad.  Saves nothing."""

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any, dtype: Any) -> np.ndarray:
        ctx.alpha = alpha
        return np.subtract(x, y if alpha == 1 else alpha * y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        return grad, -grad if ctx.alpha == 1 else grad * -ctx.alpha, None, None


class Rsub(Op):
    """z = other - x (``2 - x``);  dx = -grad.  Saves nothing."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: Any, dtype: Any) -> np.ndarray:
        return np.subtract(other, x, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return -grad, None, None


class Mul(Op):
    """z = x * y;  dx = grad * y,  dy = grad * x.

    Saves each operand only if the *other* one needs a gradient, as PyTorch does: after
    ``z = x * y`` with only ``x`` requiring grad, writing ``x`` in place is still legal.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(x if needs[1] else None, y if needs[0] else None)
        return np.multiply(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            grad * y if ctx.needs_input_grad[0] else None,
            grad * x if ctx.needs_input_grad[1] else None,
            None,
        )


class Div(Op):
    """z = x / y;  dx = grad / y,  dy = -grad * x / y**2.

    Saves ``y`` whenever anything needs a gradient, and ``x`` only if ``y`` does (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        return np.true_divide(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            grad / y if ctx.needs_input_grad[0] else None,
            -grad * x / (y * y) if ctx.needs_input_grad[1] else None,
            None,
        )


class FloorDivide(Op):
    """z = floor(x / y).  PyTorch has no derivative for it: backward raises, as there."""

    node_name = "NotImplemented"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        return np.floor_divide(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Neg(Op):
    """y = -x;  dx = -grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return -x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return -grad


class Abs(Op):
    """y = |x|;  dx = grad * sign(x).  Saves its input."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return np.abs(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.sign(x)


class Exp(Op):
    """y = exp(x);  dx = grad * y.  Saves its result: writing x later is legal, y is not."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * y


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


class Sigmoid(Op):
    """y = 1 / (1 + exp(-x));  dx = grad * y * (1 - y).  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        # The tanh form never overflows, unlike 1 / (1 + exp(-x)) for very negative x.
        y = np.tanh(x * 0.5)
        y += 1
        y *= 0.5
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * y * (1 - y)


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
        return grad * (1 - y * y)


class Relu(Op):
    """y = max(x, 0);  dx = grad where y > 0.  Saves its result."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.maximum(x, 0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y > 0)


class Clamp(Op):
    """y = min(max(x, low), high);  dx = grad where low <= x <= high.  Saves its input.

    The bounds are inclusive: at x == low the gradient passes, as in PyTorch.
    """

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: Any, high: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return np.clip(x, low, high)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        inside = True
        if ctx.low is not None:
            inside = x >= ctx.low
        if ctx.high is not None:
            inside = inside & (x <= ctx.high)
        return grad * inside, None, None


class PowScalar(Op):
    """y = x ** p (p a number);  dx = grad * p * x**(p-1), and 0 where p == 0.  Saves x."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, exponent: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return np.power(x, exponent, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return grad * 0, None, None
        return grad * (p * x ** (p - 1)), None, None


class Pow(Op):
    """z = x ** y (two tensors).  Saves x, y and its result.

    dx = grad * y * x**(y-1) (0 where y == 0);  dy = grad * z * log(x) (0 where x == 0, y >= 0).
    """

    node_name = "PowBackward1"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        z = np.power(x, y, dtype=dtype)
        ctx.save_for_backward(x, y, z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y, z = ctx.saved_tensors
        dx = dy = None
        if ctx.needs_input_grad[0]:
            dx = np.where(y == 0, 0, grad * y * x ** (y - 1))
        if ctx.needs_input_grad[1]:
            dy = np.where((x == 0) & (y >= 0), 0, grad * z * np.log(x))
        return dx, dy, None


class RpowScalar(Op):
    """z = base ** y (base a number);  dy = grad * z * log(base).  Saves y and its result."""

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx: Any, y: np.ndarray, base: Any, dtype: Any) -> np.ndarray:
        z = np.power(base, y, dtype=dtype)
        ctx.save_for_backward(y, z)
        ctx.base = base
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        y, z = ctx.saved_tensors
        if ctx.base == 0:
            return np.where(y >= 0, 0, grad * z * -np.inf), None, None
        return grad * z * np.log(ctx.base), None, None


# --- public functions ---------------------------------------------------------------------


def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input + alpha * other``, with broadcasting.

    Example:
        >>> import minigrad
        >>> minigrad.add(minigrad.tensor([1.0, 2.0]), 1.0)
        tensor([2., 3.])
    """
    a, b, dtype = promote(input, other)
    return call_broadcasting(Add.apply, a, b, alpha, dtype)


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input - alpha * other``, with broadcasting."""
    a, b, dtype = promote(input, other)
    return call_broadcasting(Sub.apply, a, b, alpha, dtype)


def rsub(input: Any, other: Any) -> Any:
    """``other - input`` for a number ``other`` (what ``2 - x`` calls)."""
    a, b, dtype = promote(input, other)
    return Rsub.apply(a, b, dtype)


def mul(input: Any, other: Any) -> Any:
    """``input * other``, with broadcasting."""
    a, b, dtype = promote(input, other)
    return call_broadcasting(Mul.apply, a, b, dtype)


def div(input: Any, other: Any) -> Any:
    """``input / other`` (true division: integers give float32), with broadcasting."""
    a, b, dtype = promote(input, other, true_divide=True)
    return call_broadcasting(Div.apply, a, b, dtype)


def floor_divide(input: Any, other: Any) -> Any:
    """``input // other``: division rounded down (not differentiable, as in PyTorch)."""
    a, b, dtype = promote(input, other)
    return call_broadcasting(FloorDivide.apply, a, b, dtype)


def true_divide(input: Any, other: Any) -> Any:
    """Alias of ``div``."""
    return div(input, other)


def pow(input: Any, exponent: Any) -> Any:
    """``input ** exponent``: tensor ** number, tensor ** tensor, or number ** tensor."""
    a, b, dtype = promote(input, exponent)
    if isinstance(operand(b), np.ndarray):
        if isinstance(operand(a), np.ndarray):
            return call_broadcasting(Pow.apply, a, b, dtype)
        return RpowScalar.apply(b, a, dtype)
    _check_integer_power(a, b)
    return PowScalar.apply(a, b, dtype)


def _check_integer_power(base: Any, exponent: Any) -> None:
    if isinstance(exponent, int) and exponent < 0 and operand(base).dtype.kind in "iub":
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def neg(input: Any) -> Any:
    """``-input``."""
    return Neg.apply(input)


def abs(input: Any) -> Any:
    """``|input|``."""
    return Abs.apply(input)


def exp(input: Any) -> Any:
    """``e ** input``.

    Example:
        >>> import minigrad
        >>> minigrad.exp(minigrad.tensor([0.0, 1.0]))
        tensor([1.0000, 2.7183])
    """
    return Exp.apply(_float(input))


def log(input: Any) -> Any:
    """Natural logarithm (nan below 0, -inf at 0, as in PyTorch)."""
    return Log.apply(_float(input))


def sqrt(input: Any) -> Any:
    """Square root (nan below 0)."""
    return Sqrt.apply(_float(input))


def sigmoid(input: Any) -> Any:
    """``1 / (1 + exp(-input))``.

    Example:
        >>> import minigrad
        >>> minigrad.sigmoid(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([0.7311, 0.8808, 0.9526])
    """
    return Sigmoid.apply(_float(input))


def tanh(input: Any) -> Any:
    """Hyperbolic tangent."""
    return Tanh.apply(_float(input))


def relu(input: Any) -> Any:
    """``max(input, 0)``."""
    return Relu.apply(input)


def clamp(input: Any, min: Any = None, max: Any = None) -> Any:
    """Limit every element to ``[min, max]`` (either bound may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    array = operand(input)
    if array.dtype.kind != "f" and any(isinstance(b, float) for b in (min, max)):
        input = cast(input, np.dtype(np.float32))
    return Clamp.apply(input, min, max)


clip = clamp


def _float(input: Any) -> Any:
    # Integer tensors go through transcendental functions as the default float dtype.
    return input if operand(input).dtype.kind == "f" else cast(input, np.dtype(np.float32))


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


class Clone(Op):
    """y = a copy of x;  dx = grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x.copy()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


def reciprocal(input: Any) -> Any:
    """``1 / input``."""
    return Reciprocal.apply(_float(input))


def rdiv(input: Any, other: Any) -> Any:
    """``other / input`` for a number ``other``: recorded as ``reciprocal(input) * other``."""
    return mul(reciprocal(input), other)


def clone(input: Any) -> Any:
    """A copy of ``input`` that gradients flow through (a fresh buffer and version counter)."""
    return Clone.apply(input)


class Sign(Op):
    """y = sign(x);  dx = 0 (the gradient of a step function).  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.sign(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad * 0


class Where(Op):
    """z = x where condition else y;  dx = grad where condition,  dy = grad elsewhere.

    Saves the condition (PyTorch): changing it in place before backward raises.
    """

    node_name = "WhereBackward0"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, condition: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(condition)
        result = np.where(condition, x, y)
        return result if dtype is None else result.astype(dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        (condition,) = ctx.saved_tensors
        return (
            None,
            np.where(condition, grad, 0) if ctx.needs_input_grad[1] else None,
            np.where(condition, 0, grad) if ctx.needs_input_grad[2] else None,
            None,
        )


def sign(input: Any) -> Any:
    """-1, 0 or 1 by the sign of each element."""
    return Sign.apply(input)


def where(condition: Any, input: Any, other: Any) -> Any:
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcasting).

    Example:
        >>> import minigrad
        >>> minigrad.where(minigrad.tensor([True, False]), minigrad.ones(2), 0.0)
        tensor([1., 0.])
    """
    a, b, dtype = promote(input, other)
    try:
        return Where.apply(condition, a, b, dtype)
    except ValueError as error:
        shapes = np.broadcast_shapes(np.shape(operand(a)), np.shape(operand(b)))
        message = errors.from_numpy_value_error(error, np.shape(operand(condition)), shapes)
        raise RuntimeError(message) from None
