"""Trigonometric and hyperbolic ops: sin, cos, tan, their inverses, and the hyperbolic ones.

asin, acos, atan, sinh, cosh, asinh, acosh and atanh answer to NumPy's names too (arcsin, ...).

All are uniform unary ops (``unary.SavesInput`` / ``unary.SavesResult``): each declares whether
its backward is written with its input or its result, as PyTorch's derivatives.yaml does.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.ops._helpers import float_input
from minigrad.ops.unary import SavesInput, SavesResult, UnaryOp, float_inplace


class Sin(SavesInput):
    """y = sin(x);  dx = grad * cos(x).  Saves its input."""

    kernel = np.sin

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
    return Sin.apply(float_input(input))


def sin_(input: Any) -> Any:
    """``sin`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Sin)


class Cos(SavesInput):
    """y = cos(x);  dx = -grad * sin(x).  Saves its input."""

    kernel = np.cos

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * -np.sin(x)


def cos(input: Any) -> Any:
    """Cosine (radians)."""
    return Cos.apply(float_input(input))


def cos_(input: Any) -> Any:
    """``cos`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Cos)


class Tan(SavesResult):
    """y = tan(x);  dx = grad * (1 + y**2).  Saves its result."""

    kernel = np.tan

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return grad * (y * y + 1)


def tan(input: Any) -> Any:
    """Tangent (radians)."""
    return Tan.apply(float_input(input))


def tan_(input: Any) -> Any:
    """``tan`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Tan)


class Asin(SavesInput):
    """y = asin(x) (nan outside [-1, 1]);  dx = grad / sqrt(1 - x**2).  Saves its input."""

    kernel = np.arcsin

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * (1 / np.sqrt(1 - x * x))  # (PyTorch's grad * rsqrt: MulBackward0)


def asin(input: Any) -> Any:
    """Inverse sine (nan outside [-1, 1])."""
    return Asin.apply(float_input(input))


def asin_(input: Any) -> Any:
    """``asin`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Asin)


class Acos(SavesInput):
    """y = acos(x) (nan outside [-1, 1]);  dx = -grad / sqrt(1 - x**2).  Saves its input."""

    kernel = np.arccos

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * -(1 / np.sqrt(1 - x * x))  # (PyTorch's grad * -rsqrt: MulBackward0)


def acos(input: Any) -> Any:
    """Inverse cosine (nan outside [-1, 1])."""
    return Acos.apply(float_input(input))


def acos_(input: Any) -> Any:
    """``acos`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Acos)


class Atan(SavesInput):
    """y = atan(x);  dx = grad / (1 + x**2).  Saves its input."""

    kernel = np.arctan

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (x * x + 1)


def atan(input: Any) -> Any:
    """Inverse tangent."""
    return Atan.apply(float_input(input))


def atan_(input: Any) -> Any:
    """``atan`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Atan)


class Sinh(SavesInput):
    """y = sinh(x);  dx = grad * cosh(x).  Saves its input."""

    kernel = np.sinh

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.cosh(x)


def sinh(input: Any) -> Any:
    """Hyperbolic sine."""
    return Sinh.apply(float_input(input))


def sinh_(input: Any) -> Any:
    """``sinh`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Sinh)


class Cosh(SavesInput):
    """y = cosh(x);  dx = grad * sinh(x).  Saves its input."""

    kernel = np.cosh

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * np.sinh(x)


def cosh(input: Any) -> Any:
    """Hyperbolic cosine."""
    return Cosh.apply(float_input(input))


def cosh_(input: Any) -> Any:
    """``cosh`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Cosh)


class Asinh(SavesInput):
    """y = asinh(x);  dx = grad / sqrt(x**2 + 1).  Saves its input."""

    kernel = np.arcsinh

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * (1 / np.sqrt(x * x + 1))  # (PyTorch's rsqrt, for its rounding)


def asinh(input: Any) -> Any:
    """Inverse hyperbolic sine."""
    return Asinh.apply(float_input(input))


class InplaceWithoutDerivative(Op):
    """PyTorch's in-place asinh_, acosh_ and atanh_: y = kernel(x) into x, saving nothing.

    PyTorch records them (``AsinhBackward1`` ...) but has no formula for them: their backward
    raises "the derivative for 'inplace version of asinh' is not implemented.".
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    of: ClassVar[type[UnaryOp]]  # the out-of-place op, whose kernel this runs

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.node_name = f"{cls.of.__name__}Backward1"  # (before the node class is made)
        super().__init_subclass__(**kwargs)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        return cls.of.kernel(x)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> Any:
        name = cls.of.__name__.lower()
        raise NotImplementedError(
            errors.derivative_not_implemented_quoted(f"inplace version of {name}"))


class AsinhInplace(InplaceWithoutDerivative):
    """``asinh_`` (see InplaceWithoutDerivative)."""

    of = Asinh


def asinh_(input: Any) -> Any:
    """``asinh`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, AsinhInplace)


class Acosh(SavesInput):
    """y = acosh(x) (nan below 1);  dx = grad / sqrt(x**2 - 1).  Saves its input."""

    kernel = np.arccosh

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * (1 / np.sqrt(x * x - 1))  # (PyTorch's rsqrt, for its rounding)


def acosh(input: Any) -> Any:
    """Inverse hyperbolic cosine (nan below 1)."""
    return Acosh.apply(float_input(input))


class AcoshInplace(InplaceWithoutDerivative):
    """``acosh_`` (see InplaceWithoutDerivative)."""

    of = Acosh


def acosh_(input: Any) -> Any:
    """``acosh`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, AcoshInplace)


class Atanh(SavesInput):
    """y = atanh(x) (nan outside [-1, 1]);  dx = grad / (1 - x**2).  Saves its input."""

    kernel = np.arctanh

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad / (1 - x * x)


def atanh(input: Any) -> Any:
    """Inverse hyperbolic tangent (nan outside [-1, 1], +-inf at +-1)."""
    return Atanh.apply(float_input(input))


class AtanhInplace(InplaceWithoutDerivative):
    """``atanh_`` (see InplaceWithoutDerivative)."""

    of = Atanh


def atanh_(input: Any) -> Any:
    """``atanh`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, AtanhInplace)


# NumPy's names, which PyTorch takes too (the same functions: the same nodes and messages)
arcsin, arcsin_ = asin, asin_
arccos, arccos_ = acos, acos_
arctan, arctan_ = atan, atan_
arcsinh, arcsinh_ = asinh, asinh_
arccosh, arccosh_ = acosh, acosh_
arctanh, arctanh_ = atanh, atanh_
