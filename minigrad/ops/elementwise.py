"""Elementwise ops: each one class (forward, backward, what it saves) plus its public function.

Formulas are written with operators and numpy ufuncs only, so they read like the math.
What each op saves is what PyTorch 2.13 saves: it decides which later in-place writes make
backward raise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops._helpers import (
    Constants,
    cast,
    check_operand,
    operand,
    promote,
    python_scalar,
    save_for_the_other,
)


class Add(Op):
    """z = x + alpha * y;  dx = grad,  dy = alpha * grad.  Saves nothing."""

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("alpha",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any = 1, dtype: Any = None) -> np.ndarray:
        ctx.alpha = alpha
        if alpha != 1:
            y = alpha * y
        return x + y if dtype is None else np.add(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        return grad, grad if ctx.alpha == 1 else grad * ctx.alpha, None, None


class Sub(Op):
    """z = x - alpha * y;  dx = grad,  dy = -alpha * grad.  Saves nothing."""

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("alpha",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any, dtype: Any) -> np.ndarray:
        ctx.alpha = alpha
        if alpha != 1:
            y = alpha * y
        return x - y if dtype is None else np.subtract(x, y, dtype=dtype)

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

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any = None) -> np.ndarray:
        save_for_the_other(ctx, x, y)
        return x * y if dtype is None else np.multiply(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            grad * y if ctx.needs_input_grad[0] else None,
            grad * x if ctx.needs_input_grad[1] else None,
            None,
        )


class Div(Op):
    """z = x / y;  dx = grad / y,  dy = -grad * ((x / y) / y).

    Saves ``y`` whenever anything needs a gradient, and ``x`` only if ``y`` does (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        return x / y if dtype is None else np.true_divide(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            grad / y if ctx.needs_input_grad[0] else None,
            -grad * ((x / y) / y) if ctx.needs_input_grad[1] else None,  # PyTorch's order
            None,
        )


class FloorDivide(Op):
    """z = floor(x / y).  PyTorch has no derivative for it: backward raises, as there.

    Its node is PyTorch's ``torch::autograd::NotImplemented`` (printed ``<NotImplemented>``).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "NotImplemented"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, y, dtype)
        return np.floor_divide(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _not_implemented_name(node: Any) -> str:
    """PyTorch's C++ name of the node that stands for a missing derivative."""
    return "torch::autograd::NotImplemented"


FloorDivide._Node.name = _not_implemented_name  # type: ignore[method-assign]


class FloorDivideInplace(FloorDivide):
    """``floor_divide_``: PyTorch's message names the in-place op."""

    node_name = "NotImplemented"

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide_ is not implemented")


FloorDivideInplace._Node.name = _not_implemented_name  # type: ignore[method-assign]


class NoDerivative(Op):
    """PyTorch's ``NotImplemented`` node: z = a copy of ``value``, backward raises.

    It is recorded as depending on ``input`` too, and its backward raises "derivative for
    <aten name> is not implemented". Backward formulas whose own derivative PyTorch lacks
    (hardsigmoid's) end with it under create_graph, so that differentiating them again raises
    as in PyTorch.
    """

    fields = ("aten_name",)

    node_name = "NotImplemented"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, value: Any, input: Any, aten_name: str) -> np.ndarray:
        ctx.aten_name = aten_name
        return np.array(value, copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(f"derivative for {ctx.aten_name} is not implemented")


NoDerivative._Node.name = _not_implemented_name  # type: ignore[method-assign]


def _check_integer_divisor(x: Any, y: Any, dtype: Any) -> None:
    # Integer division by zero is an error in PyTorch (numpy would give 0 with a warning).
    kind = (np.dtype(dtype) if dtype is not None else np.result_type(x, y)).kind
    if kind in "iub" and np.any(np.asarray(y) == 0):
        raise RuntimeError("ZeroDivisionError")


class Neg(Op):
    """y = -x;  dx = -grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return -x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return -grad


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
        (one,) = _ONE.of(y)
        return grad * y * (one - y)


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
        (one,) = _ONE.of(y)
        return grad * (one - y * y)


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
        # PyTorch's threshold_backward: 0 where y <= 0 (an infinite grad too), else grad (nan).
        return np.where(y <= 0, 0, grad)


class Clamp(Op):
    """y = min(max(x, low), high);  dx = grad where low <= x <= high.  Saves its input.

    The bounds are inclusive: at x == low the gradient passes, as in PyTorch.
    """

    fields = ("low", "high")

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: Any, high: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return np.clip(x, low, high)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        if ctx.low is None:
            inside = x <= ctx.high
        elif ctx.high is None:
            inside = x >= ctx.low
        else:
            inside = (x >= ctx.low) & (x <= ctx.high)
        return np.where(inside, grad, 0), None, None  # an infinite grad outside stays 0


class PowScalar(Op):
    """y = x ** p (p a number);  dx = grad * p * x**(p-1), and 0 where p == 0.  Saves x."""

    fields = ("exponent",)

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, exponent: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return scalar_power(x, exponent, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return grad * 0, None, None
        return grad * (p * scalar_power(x, p - 1)), None, None


def scalar_power(x: Any, exponent: Any, dtype: Any = None) -> Any:
    """``x ** exponent`` for a number exponent, as PyTorch's kernel computes it.

    PyTorch computes the exponents 0.5 and -0.5 as sqrt and rsqrt, which differ from a power at
    signed zeros and infinities: sqrt(-0.0) = -0.0, rsqrt(-0.0) = -inf, rsqrt(-inf) = nan
    (``pow`` gives 0.0, inf and 0.0). A tensor (create_graph) goes through the op itself.
    """
    if not isinstance(x, np.ndarray):
        return x**exponent
    if exponent == 0.5:
        return np.sqrt(x, dtype=dtype)
    if exponent == -0.5:
        return np.divide(1, np.sqrt(x, dtype=dtype), dtype=dtype)
    return np.power(x, exponent, dtype=dtype)


class Pow(Op):
    """z = x ** y (two tensors).  Saves x, y and its result.

    dx = grad * y * x**(y-1) (0 where y == 0);  dy = grad * z * log(x) (0 where x == 0, y >= 0).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "PowBackward1"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        z = _power(x, y, dtype)
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

    fields = ("base",)

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx: Any, y: np.ndarray, base: Any, dtype: Any) -> np.ndarray:
        z = _power(base, y, dtype)
        ctx.save_for_backward(y, z)
        ctx.base = base
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        y, z = ctx.saved_tensors
        if ctx.base == 0:
            return np.where(y >= 0, 0, grad * z * -np.inf), None, None
        return grad * z * np.log(ctx.base), None, None


def _power(x: Any, y: Any, dtype: Any) -> np.ndarray:
    """``x ** y``; for integers a negative exponent gives 0 (1 for 1, +-1 for -1), as PyTorch."""
    try:
        return np.power(x, y, dtype=dtype)
    except ValueError:  # numpy: "Integers to negative integer powers are not allowed."
        negative = np.asarray(y) < 0
        z = np.power(x, np.where(negative, 0, y), dtype=dtype)
        odd = np.asarray(y) % 2 != 0
        special = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0))
        return np.where(negative, special, z).astype(z.dtype, copy=False)


# --- public functions ---------------------------------------------------------------------


def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input + alpha * other``, with broadcasting.

    Example:
        >>> import minigrad
        >>> minigrad.add(minigrad.tensor([1.0, 2.0]), 1.0)
        tensor([2., 3.])
    """
    a, b, dtype = promote(input, other)
    if alpha != 1 or type(alpha) is not int:  # alpha=1, the common case, needs no check
        _check_alpha(a, dtype, alpha)
    if dtype is None and alpha == 1:
        return Add.apply(a, b)  # the options' defaults: two arguments fewer to look at
    return Add.apply(a, b, alpha, dtype)


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input - alpha * other``, with broadcasting."""
    a, b, dtype = promote(input, other)
    _check_bool_subtraction(a, b)
    _check_alpha(a, dtype, alpha)
    return Sub.apply(a, b, alpha, dtype)


def _check_alpha(a: Any, dtype: Any, alpha: Any) -> None:
    if alpha == 1 and not isinstance(alpha, float):
        return  # the common case
    kind = np.dtype(dtype).kind if dtype is not None else np.asarray(operand(a)).dtype.kind
    if isinstance(alpha, (bool, np.bool_)) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if kind != "f" and isinstance(alpha, (float, np.floating)):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


def rsub(input: Any, other: Any) -> Any:
    """``other - input`` for a number ``other`` (what ``2 - x`` calls)."""
    a, b, dtype = promote(input, other)
    _check_bool_subtraction(a, b)
    return Rsub.apply(a, b, dtype)


def _is_bool(value: Any) -> bool:
    return isinstance(operand(value), np.ndarray) and operand(value).dtype == np.bool_


def _check_bool_subtraction(a: Any, b: Any) -> None:
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def mul(input: Any, other: Any) -> Any:
    """``input * other``, with broadcasting."""
    a, b, dtype = promote(input, other)
    return Mul.apply(a, b) if dtype is None else Mul.apply(a, b, dtype)


def div(input: Any, other: Any) -> Any:
    """``input / other`` (true division: integers give float32), with broadcasting."""
    a, b, dtype = promote(input, other, true_divide=True)
    return Div.apply(a, b, dtype)


def floor_divide(input: Any, other: Any) -> Any:
    """``input // other``: division rounded down (not differentiable, as in PyTorch)."""
    a, b, dtype = promote(input, other)
    if dtype is None and _is_bool(a):
        _check_float_kernel("div_floor_cpu", a)
    return FloorDivide.apply(a, b, dtype)


def true_divide(input: Any, other: Any) -> Any:
    """Alias of ``div``."""
    return div(input, other)


def pow(input: Any, exponent: Any) -> Any:
    """``input ** exponent``: tensor ** number, tensor ** tensor, or number ** tensor."""
    a, b, dtype = promote(input, exponent)
    if isinstance(operand(b), np.ndarray):
        if isinstance(operand(a), np.ndarray):
            if dtype is None and _is_bool(a):
                _check_float_kernel("pow", a)
            return Pow.apply(a, b, dtype)
        return RpowScalar.apply(b, a, dtype)
    _check_integer_power(a, b)
    return PowScalar.apply(a, b, dtype)


def _check_integer_power(base: Any, exponent: Any) -> None:
    if isinstance(exponent, int) and exponent < 0 and operand(base).dtype.kind in "iub":
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def neg(input: Any) -> Any:
    """``-input``."""
    if _is_bool(input):
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return Neg.apply(input)


def abs(input: Any) -> Any:
    """``|input|``."""
    if _is_bool(input):
        _check_float_kernel("abs_cpu", input)
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
    if _is_bool(input):
        raise RuntimeError("Boolean inputs not supported for relu")
    return Relu.apply(input)


def clamp(input: Any, min: Any = None, max: Any = None) -> Any:
    """Limit every element to ``[min, max]`` (either bound may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    tensor_bounds = [isinstance(operand(b), np.ndarray) for b in (min, max) if b is not None]
    if any(tensor_bounds):
        if not all(tensor_bounds):
            raise TypeError(
                "clamp() received an invalid combination of arguments: the bounds must be both "
                "tensors or both numbers"
            )
        return _clamp_tensor(input, min, max)
    array = operand(input)
    if array.dtype.kind != "f" and any(isinstance(b, float) for b in (min, max)):
        input = cast(input, np.dtype(np.float32))
    elif array.dtype == np.bool_:
        input = cast(input, np.dtype(np.int64))  # a bool tensor and int bounds: int64
    return Clamp.apply(input, min, max)


clip = clamp


def _float(input: Any) -> Any:
    # Integer tensors go through transcendental functions as the default float dtype.
    if isinstance(input, TensorBase) and input._array.dtype.kind == "f":
        return input  # the common case, without a call
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
    """y = sign(x), 0 for nan (PyTorch's);  dx = 0 (the gradient of a step function).

    Saves nothing.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return sign_of(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad * 0


def sign_of(x: Any) -> Any:
    """-1, 0 or 1 in ``x``'s dtype, computed as PyTorch does: ``(0 < x) - (x < 0)``.

    So nan has sign 0 (numpy's ``sign`` gives nan), and so does -0.0.
    """
    if not isinstance(x, np.ndarray):
        return x.sign()  # a tensor (create_graph): the op itself
    if x.dtype.kind == "b":
        return x.copy()
    return np.subtract(x > 0, x < 0, dtype=x.dtype)


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
    """-1, 0 or 1 by the sign of each element (a bool tensor: itself, copied)."""
    if operand(input).dtype == np.bool_:
        return Clone.apply(input)
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
        # PyTorch broadcasts the condition with input first, then the result with other.
        shape = np.shape(operand(condition))
        for value in (a, b):
            try:
                shape = np.broadcast_shapes(shape, np.shape(operand(value)))
            except ValueError:
                raise RuntimeError(
                    errors.broadcast_mismatch(shape, np.shape(operand(value)))
                ) from None
        raise RuntimeError(str(error)) from None


# --- more elementwise math (issue #4) --------------------------------------------------------
#
# Each op saves what PyTorch's derivatives.yaml saves: the input where the derivative is written
# with it (sin, log2, ...), the result where it is cheaper that way (exp2, tan, rsqrt, ...).

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


class _Step(Op):
    """A piecewise-constant op: dx = 0 everywhere (PyTorch: zeros).  Saves nothing."""

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad * 0


class Floor(_Step):
    """y = floor(x);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.floor(x)


class Ceil(_Step):
    """y = ceil(x);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.ceil(x)


class Trunc(_Step):
    """y = trunc(x) (rounded towards 0);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.trunc(x)


class Round(_Step):
    """y = x rounded half to even;  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.round(x)


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
        return grad * 0, None


class Frac(Op):
    """y = x - trunc(x);  dx = grad.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return x - np.trunc(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


class Remainder(Op):
    """z = x - floor(x / y) * y (Python's %);  dx = grad,  dy = -grad * floor(x / y).

    The result has the sign of y. Saves x and y only if y needs a gradient (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "RemainderBackward1"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, y, dtype)
        needs_y = ctx.needs_input_grad[1]
        ctx.save_for_backward(x if needs_y else None, y if needs_y else None)
        return np.remainder(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        dy = -grad * np.floor(x / y) if ctx.needs_input_grad[1] else None
        return grad, dy, None


class RemainderScalar(Op):
    """z = x % other (a number);  dx = grad.  Saves nothing."""

    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, other, dtype)
        return np.remainder(x, other, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad, None, None


class Maximum(Op):
    """z = max(x, y) elementwise (nan wins);  the gradient goes to the larger operand.

    On ties it is split evenly. Saves both operands (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return np.maximum(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        split = np.where(x == y, grad * 0.5, grad)
        needs = ctx.needs_input_grad
        return (
            np.where(x < y, 0, split) if needs[0] else None,
            np.where(x > y, 0, split) if needs[1] else None,
            None,
        )


class Atan2(Op):
    """z = atan2(x, y), the angle of the point (y, x);  dx = grad * y * r,  dy = grad * -x * r.

    ``r = 1 / (x**2 + y**2)``, taken as 0 where that is infinite: at the origin (or where the
    squares underflow) PyTorch's gradient is 0, not nan. Saves both operands (PyTorch).
    """

    num_inputs = 2
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return np.arctan2(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        reciprocal = 1 / (x * x + y * y)
        reciprocal = np.where(reciprocal == np.inf, 0, reciprocal)
        needs = ctx.needs_input_grad
        return (
            grad * y * reciprocal if needs[0] else None,
            grad * -x * reciprocal if needs[1] else None,
            None,
        )


class Minimum(Op):
    """z = min(x, y) elementwise (nan wins);  the gradient goes to the smaller operand.

    On ties it is split evenly. Saves both operands (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return np.minimum(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        split = np.where(x == y, grad * 0.5, grad)
        needs = ctx.needs_input_grad
        return (
            np.where(x > y, 0, split) if needs[0] else None,
            np.where(x < y, 0, split) if needs[1] else None,
            None,
        )


def _lerp_values(start: Any, end: Any, weight: Any) -> np.ndarray:
    # PyTorch's formula, exact at both ends: from start for |w| < 0.5, else from end.
    small = np.abs(weight) < 0.5
    return np.where(small, start + weight * (end - start), end - (end - start) * (1 - weight))


class Lerp(Op):
    """z = start + w * (end - start), w a number;  dstart = grad * (1 - w),  dend = grad * w.

    Saves nothing but the number.
    """

    fields = ("weight",)

    node_name = "LerpBackward0"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, start: Any, end: Any, weight: Any) -> np.ndarray:
        ctx.weight = weight
        return np.asarray(_lerp_values(start, end, weight), dtype=np.result_type(start, end))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        w = ctx.weight
        return grad * (1 - w), grad * w, None


class LerpTensor(Op):
    """z = start + w * (end - start), w a tensor;  dw = grad * (end - start).

    dstart = grad * (1 - w),  dend = grad * w.

    Saves weight always (two formulas use it), start and end only if weight needs a
    gradient (PyTorch saves a value conditionally only when a single formula uses it).
    """

    node_name = "LerpBackward1"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, start: Any, end: Any, weight: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(start if needs[2] else None, end if needs[2] else None, weight)
        return _lerp_values(start, end, weight).astype(start.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any]:
        start, end, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad * (1 - weight) if needs[0] else None,
            grad * weight if needs[1] else None,
            grad * (end - start) if needs[2] else None,
        )


class Addcmul(Op):
    """z = x + value * t1 * t2;  dx = grad,  dt1 = grad * t2 * value,  dt2 = grad * t1 * value.

    Saves t2 only if t1 needs a gradient and t1 only if t2 does (PyTorch).
    """

    fields = ("value",)

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, x: Any, t1: Any, t2: Any, value: Any, dtype: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(t1 if needs[2] else None, t2 if needs[1] else None)
        ctx.value = value
        product = np.multiply(t1, t2, dtype=dtype)
        return np.add(x, product if value == 1 else value * product, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        t1, t2 = ctx.saved_tensors
        needs, value = ctx.needs_input_grad, ctx.value
        scaled = grad if value == 1 else grad * value
        return (
            grad,
            scaled * t2 if needs[1] else None,
            scaled * t1 if needs[2] else None,
            None,
            None,
        )


class Addcdiv(Op):
    """z = x + value * t1 / t2;  dx = grad,  dt1 = grad * value / t2.

    dt2 = -grad * value * t1 / t2**2.

    Saves t2 always (two formulas use it), t1 only if t2 needs a gradient (PyTorch).
    """

    fields = ("value",)

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, x: Any, t1: Any, t2: Any, value: Any, dtype: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(t1 if needs[2] else None, t2)
        ctx.value = value
        quotient = np.true_divide(t1, t2, dtype=dtype)
        return np.add(x, quotient if value == 1 else value * quotient, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        t1, t2 = ctx.saved_tensors
        needs, value = ctx.needs_input_grad, ctx.value
        scaled = grad if value == 1 else grad * value
        return (
            grad,
            scaled / t2 if needs[1] else None,
            -scaled * t1 / (t2 * t2) if needs[2] else None,
            None,
            None,
        )


class ClampTensor(Op):
    """y = min(max(x, low), high) with tensor bounds (either may be None).  Saves x, low, high.

    dx = grad where low <= x <= high;  dlow = grad where x < low (and low < high);
    dhigh = grad where x > high (or high < low, where the result is high).
    """

    node_name = "ClampBackward0"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, x: Any, low: Any, high: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, low, high)
        y = np.asarray(x, dtype=dtype) if dtype is not None else x
        if low is not None:
            y = np.maximum(y, low, dtype=dtype)
        if high is not None:
            y = np.minimum(y, high, dtype=dtype)
        return y if y is not x else x.copy()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, low, high = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx = dlow = dhigh = None
        if low is not None and high is not None:
            if needs[0]:
                dx = np.where((x >= low) & (x <= high), grad, 0)
            if needs[1]:
                dlow = np.where((x < low) & (low < high), grad, 0)
            if needs[2]:
                dhigh = np.where((x > high) | (high < low), grad, 0)
        elif low is not None:
            dx = np.where(x >= low, grad, 0) if needs[0] else None
            dlow = np.where(x < low, grad, 0) if needs[1] else None
        else:
            dx = np.where(x <= high, grad, 0) if needs[0] else None
            dhigh = np.where(x > high, grad, 0) if needs[2] else None
        return dx, dlow, dhigh, None


class ClampMin(Op):
    """y = max(x, low), low a number;  dx = grad where x >= low.  Saves its input."""

    fields = ("low",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.low = low
        return np.maximum(x, low)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return np.where(x >= ctx.low, grad, 0), None  # an infinite grad outside stays 0


class ClampMax(Op):
    """y = min(x, high), high a number;  dx = grad where x <= high.  Saves its input."""

    fields = ("high",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, high: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.high = high
        return np.minimum(x, high)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return np.where(x <= ctx.high, grad, 0), None  # an infinite grad outside stays 0


class ClampMinTensor(Op):
    """y = max(x, low), low a tensor;  dx = grad where x >= low, dlow = grad where x < low.

    Saves x and low.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "ClampMinBackward1"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, low: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, low)
        return np.maximum(x, low, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, low = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            np.where(x >= low, grad, 0) if needs[0] else None,
            np.where(x < low, grad, 0) if needs[1] else None,
            None,
        )


class ClampMaxTensor(Op):
    """y = min(x, high), high a tensor;  dx = grad where x <= high, dhigh = grad elsewhere.

    Saves x and high.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "ClampMaxBackward1"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, high: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, high)
        return np.minimum(x, high, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, high = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            np.where(x <= high, grad, 0) if needs[0] else None,
            np.where(x > high, grad, 0) if needs[1] else None,
            None,
        )


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


# --- more public functions (issue #4) --------------------------------------------------------


def exp2(input: Any) -> Any:
    """``2 ** input``."""
    return Exp2.apply(_float(input))


def expm1(input: Any) -> Any:
    """``exp(input) - 1``, accurate for small inputs."""
    return Expm1.apply(_float(input))


def log2(input: Any) -> Any:
    """Base-2 logarithm."""
    return Log2.apply(_float(input))


def log10(input: Any) -> Any:
    """Base-10 logarithm."""
    return Log10.apply(_float(input))


def log1p(input: Any) -> Any:
    """``log(1 + input)``, accurate for small inputs."""
    return Log1p.apply(_float(input))


def rsqrt(input: Any) -> Any:
    """``1 / sqrt(input)``."""
    return Rsqrt.apply(_float(input))


def square(input: Any) -> Any:
    """``input ** 2`` (recorded as ``pow``, as in PyTorch; bool input gives int64)."""
    if operand(input).dtype == np.bool_:
        input = cast(input, np.dtype(np.int64))
    return pow(input, 2)


def sin(input: Any) -> Any:
    """Sine (radians).

    Example:
        >>> import minigrad
        >>> minigrad.sin(minigrad.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8415])
    """
    return Sin.apply(_float(input))


def cos(input: Any) -> Any:
    """Cosine (radians)."""
    return Cos.apply(_float(input))


def tan(input: Any) -> Any:
    """Tangent (radians)."""
    return Tan.apply(_float(input))


def asin(input: Any) -> Any:
    """Inverse sine (nan outside [-1, 1])."""
    return Asin.apply(_float(input))


def acos(input: Any) -> Any:
    """Inverse cosine (nan outside [-1, 1])."""
    return Acos.apply(_float(input))


def atan(input: Any) -> Any:
    """Inverse tangent."""
    return Atan.apply(_float(input))


def sinh(input: Any) -> Any:
    """Hyperbolic sine."""
    return Sinh.apply(_float(input))


def cosh(input: Any) -> Any:
    """Hyperbolic cosine."""
    return Cosh.apply(_float(input))


def erf(input: Any) -> Any:
    """The error function ``2 / sqrt(pi) * integral of exp(-t**2) from 0 to input``."""
    return Erf.apply(_float(input))


def _integer_copy(input: Any, kernel: str | None = None) -> Any:
    # Rounding an integer tensor is the identity: a copy, as PyTorch returns. PyTorch has no
    # rounding kernel for bool tensors (``kernel`` names it in the error).
    if kernel is not None and operand(input).dtype == np.bool_:
        _check_float_kernel(kernel, input)
    return Clone.apply(input)


def floor(input: Any) -> Any:
    """Round down to an integral value (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Floor.apply(input)
    return _integer_copy(input, "floor_vml_cpu")


def ceil(input: Any) -> Any:
    """Round up to an integral value (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Ceil.apply(input)
    return _integer_copy(input, "ceil_vml_cpu")


def trunc(input: Any) -> Any:
    """Round towards zero (integer tensors: a copy)."""
    if operand(input).dtype.kind == "f":
        return Trunc.apply(input)
    return _integer_copy(input, "trunc_vml_cpu")


fix = trunc


def round(input: Any, *, decimals: int = 0) -> Any:
    """Round half to even, to ``decimals`` decimal digits (integer tensors: a copy)."""
    if operand(input).dtype.kind != "f":
        if decimals:
            _check_float_kernel("round_cpu", input)
        return _integer_copy(input, "round_vml_cpu")
    if decimals:
        return RoundDecimals.apply(input, decimals)
    return Round.apply(input)


def frac(input: Any) -> Any:
    """``input - trunc(input)``: the fractional part, with the sign of ``input``."""
    _check_float_kernel("frac_cpu", input)
    return Frac.apply(input)


def _display(input: Any) -> str:
    from minigrad._dtype import display_name

    return display_name(operand(input).dtype)


def remainder(input: Any, other: Any) -> Any:
    """Python's ``%``: ``input - floor(input / other) * other`` (the sign of ``other``)."""
    a, b, dtype = promote(input, other)
    if (dtype if dtype is not None else operand(a).dtype) == np.bool_:
        _check_float_kernel("remainder_cpu", a)
    if isinstance(operand(b), np.ndarray):
        return Remainder.apply(a, b, dtype)
    return RemainderScalar.apply(a, b, dtype)


def _require_tensor(name: str, position: int, argname: str, value: Any) -> None:
    if not isinstance(value, TensorBase):
        raise TypeError(
            f"{name}(): argument '{argname}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def maximum(input: Any, other: Any) -> Any:
    """The larger of two tensors, elementwise (nan if either is nan)."""
    _require_tensor("maximum", 2, "other", other)
    a, b, dtype = promote(input, other)
    return Maximum.apply(a, b, dtype)


def minimum(input: Any, other: Any) -> Any:
    """The smaller of two tensors, elementwise (nan if either is nan)."""
    _require_tensor("minimum", 2, "other", other)
    a, b, dtype = promote(input, other)
    return Minimum.apply(a, b, dtype)


def atan2(input: Any, other: Any) -> Any:
    """The angle of the point ``(other, input)``: ``atan(input / other)`` in its quadrant."""
    _require_tensor("atan2", 2, "other", other)
    a, b, dtype = promote(input, other, true_divide=True)
    return Atan2.apply(a, b, dtype)


arctan2 = atan2


def lerp(input: Any, end: Any, weight: Any) -> Any:
    """Linear interpolation ``input + weight * (end - input)`` (weight a number or a tensor)."""
    _check_same_dtype("lerp", input, end, "end")
    if isinstance(operand(weight), np.ndarray):
        _check_same_dtype("lerp", input, weight, "weight")
        _check_float_kernel("lerp_kernel_tensor", input)
        return _call_ternary(LerpTensor.apply, (input, end, weight))
    _check_float_kernel("lerp_kernel_scalar", input)
    return _call_ternary(Lerp.apply, (input, end, weight))


# The C++ names some PyTorch messages use for dtypes.
C_TYPE_NAMES = {
    "float16": "c10::Half", "float32": "float", "float64": "double", "uint8": "unsigned char",
    "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
    "bool": "bool",
}


def _check_same_dtype(name: str, input: Any, other: Any, argname: str) -> None:
    a, b = operand(input).dtype, operand(other).dtype
    if a != b:
        raise RuntimeError(
            f"expected dtype {C_TYPE_NAMES[a.name]} for `{argname}` but got dtype "
            f"{C_TYPE_NAMES[b.name]}"
        )


def _check_float_kernel(kernel: str, input: Any) -> None:
    if operand(input).dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_display(input)}\'')


def _call_ternary(apply: Any, args: tuple[Any, ...], *options: Any) -> Any:
    """Run a three-input op, with PyTorch's message when the shapes do not broadcast."""
    try:
        return apply(*args, *options)
    except ValueError as error:
        tensors = [a for a in args if a is not None and not isinstance(a, (int, float))]
        shape = np.shape(operand(tensors[0]))
        for value in tensors[1:]:
            try:
                shape = np.broadcast_shapes(shape, np.shape(operand(value)))
            except ValueError:
                raise RuntimeError(
                    errors.broadcast_mismatch(shape, np.shape(operand(value)))
                ) from None
        raise RuntimeError(str(error)) from None


def _common_dtype(*values: Any) -> Any:
    """The dtype PyTorch computes a multi-input op in, or None if every array already has it."""
    from minigrad._dtype import result_type

    arrays = [operand(v) for v in values if v is not None]
    dtype = result_type(*arrays)
    if all(isinstance(a, np.ndarray) and a.dtype == dtype for a in arrays):
        return None
    return dtype


def addcmul(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input + value * tensor1 * tensor2``."""
    dtype = _common_dtype(input, tensor1, tensor2)
    if (dtype if dtype is not None else operand(input).dtype) == np.bool_:
        _check_float_kernel("addcmul_cpu_out", input)
    return _call_ternary(Addcmul.apply, (input, tensor1, tensor2), _value_for(value, dtype, input),
                         dtype)


def addcdiv(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``input + value * tensor1 / tensor2``."""
    if operand(tensor1).dtype.kind != "f" and operand(tensor2).dtype.kind != "f":
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * minigrad.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )
    dtype = _common_dtype(input, tensor1, tensor2)
    return _call_ternary(Addcdiv.apply, (input, tensor1, tensor2), _value_for(value, dtype, input),
                         dtype)


def _value_for(value: Any, dtype: Any, input: Any) -> Any:
    """Addcmul's ``value`` in the result's dtype: an integer result truncates it (PyTorch)."""
    kind = np.dtype(dtype).kind if dtype is not None else operand(input).dtype.kind
    return int(value) if kind in "iu" and isinstance(value, float) else value


def clamp_min(input: Any, min: Any) -> Any:
    """``max(input, min)``: a lower bound only (a number or a tensor)."""
    if isinstance(operand(min), np.ndarray):
        a, b, dtype = promote(input, min)
        return ClampMinTensor.apply(a, b, dtype)
    return ClampMin.apply(_bound_dtype(input, min), min)


def clamp_max(input: Any, max: Any) -> Any:
    """``min(input, max)``: an upper bound only (a number or a tensor)."""
    if isinstance(operand(max), np.ndarray):
        a, b, dtype = promote(input, max)
        return ClampMaxTensor.apply(a, b, dtype)
    return ClampMax.apply(_bound_dtype(input, max), max)


def _bound_dtype(input: Any, bound: Any) -> Any:
    # An integer tensor clamped with a float bound becomes the default float dtype; a bool
    # tensor with an int bound, int64.
    if operand(input).dtype.kind != "f" and isinstance(bound, float):
        return cast(input, np.dtype(np.float32))
    if _is_bool(input):
        return cast(input, np.dtype(np.int64))
    return input


def _clamp_tensor(input: Any, min: Any, max: Any) -> Any:
    """Clamp with tensor bounds (ClampBackward0)."""
    dtype = _common_dtype(input, min, max)
    both = min is not None and max is not None  # one bound: PyTorch's clamp_min/max kernels
    if both and (dtype if dtype is not None else operand(input).dtype) == np.bool_:
        _check_float_kernel("clamp_cpu", input)
    return _call_ternary(ClampTensor.apply, (input, min, max), dtype)


def nan_to_num(
    input: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Any:
    """Replace nan by ``nan``, +inf by ``posinf``, -inf by ``neginf``.

    By default, infinities become the dtype's largest and smallest finite values.
    """
    if operand(input).dtype.kind != "f":
        return _integer_copy(input)
    return NanToNum.apply(input, nan, posinf, neginf)


# --- comparisons and logical ops: bool results, never differentiable --------------------------


def bool_op(ufunc: np.ufunc, input: Any, other: Any) -> Any:
    """``ufunc(input, other)`` as a bool (or integer, for bitwise ops) tensor, not recorded.

    Comparisons happen in PyTorch's common dtype. The one helper behind ``==``, ``&``, ``eq``,
    ``logical_and``... and numpy's comparisons on tensors (``_numpy_protocol``).
    """
    check_operand(other, "other")
    other = python_scalar(other)
    a, b = np.asarray(operand(input)), operand(other)
    dtype = None
    if ufunc in _COMPARISONS and isinstance(b, np.ndarray) and a.dtype != b.dtype:
        from minigrad._dtype import result_type

        dtype = result_type(a, b)  # compare in PyTorch's common dtype
        a, b = a.astype(dtype), b.astype(dtype)
    elif ufunc in _COMPARISONS and isinstance(b, float) and a.dtype.kind != "f":
        a = a.astype(np.float32)  # an integer tensor and a Python float: in float32
    try:
        result = ufunc(a, b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(np.shape(a), np.shape(b))) from None
    return TensorBase.output_class._make(np.asarray(result))


_COMPARISONS = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)


def eq(input: Any, other: Any) -> Any:
    """``input == other`` elementwise (a bool tensor)."""
    return bool_op(np.equal, input, other)


def ne(input: Any, other: Any) -> Any:
    """``input != other`` elementwise (a bool tensor)."""
    return bool_op(np.not_equal, input, other)


def lt(input: Any, other: Any) -> Any:
    """``input < other`` elementwise (a bool tensor)."""
    return bool_op(np.less, input, other)


def le(input: Any, other: Any) -> Any:
    """``input <= other`` elementwise (a bool tensor)."""
    return bool_op(np.less_equal, input, other)


def gt(input: Any, other: Any) -> Any:
    """``input > other`` elementwise (a bool tensor)."""
    return bool_op(np.greater, input, other)


def ge(input: Any, other: Any) -> Any:
    """``input >= other`` elementwise (a bool tensor)."""
    return bool_op(np.greater_equal, input, other)


def logical_and(input: Any, other: Any) -> Any:
    """Both nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_and, input, other)


def logical_or(input: Any, other: Any) -> Any:
    """Either nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_or, input, other)


def logical_xor(input: Any, other: Any) -> Any:
    """Exactly one nonzero, elementwise (a bool tensor)."""
    return bool_op(np.logical_xor, input, other)


def bool_unary(ufunc: np.ufunc, input: Any) -> Any:
    """``ufunc(input)`` as a tensor, not recorded (``isnan``, ``logical_not``, ``~``...)."""
    return TensorBase.output_class._make(np.asarray(ufunc(operand(input))))


def logical_not(input: Any) -> Any:
    """Zero elements become True, others False (a bool tensor)."""
    return bool_unary(np.logical_not, input)


def isnan(input: Any) -> Any:
    """True where ``input`` is nan."""
    return bool_unary(np.isnan, input)


def isinf(input: Any) -> Any:
    """True where ``input`` is +inf or -inf."""
    return bool_unary(np.isinf, input)


def isfinite(input: Any) -> Any:
    """True where ``input`` is neither nan nor infinite."""
    return bool_unary(np.isfinite, input)
