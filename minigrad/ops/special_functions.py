"""Special functions: erfinv, Bessel's i0/i0e/i1/i1e, ndtr/ndtri/log_ndtr, erfcx, entr, zeta.

Also xlog1py. ``erfinv`` and ``i0`` are top-level functions and Tensor methods in PyTorch;
the others live in ``minigrad.special`` only. Integer inputs compute in the default float
dtype. Each op saves what PyTorch's derivatives.yaml saves (the input, the result or both:
``_saved_self``, ``_saved_result``) and records PyTorch's node name (``SpecialI0EBackward0``
...). ``zeta`` has no derivative with respect to its first argument in PyTorch: its backward
raises there.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.ops import _special_kernels as kernels
from minigrad.ops._helpers import float_input, operand, promote, raw, run
from minigrad.ops.arithmetic import AddScalar, MulScalar
from minigrad.ops.binary_extra import _computed_in, op_for_operands
from minigrad.ops.fill import MaskedFill
from minigrad.ops.gamma import in_input_dtype
from minigrad.ops.unary import Erf, SavesInput, float_inplace, sign_of
from minigrad.ops.unary_extra import _ONE

_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)
_SQRT_TWO_PI = math.sqrt(2.0 * math.pi)
_SQRT_HALF = math.sqrt(0.5)  # (PyTorch's M_SQRT1_2)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfinv(SavesInput):
    """y = erfinv(x);  dx = grad * sqrt(pi) / 2 * exp(erfinv(x)**2).  Saves its input."""

    kernel = staticmethod(in_input_dtype(kernels.erfinv))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        y = run(Erfinv, x)
        return grad * (np.exp(y * y) * _HALF_SQRT_PI)


def erfinv(input: Any) -> Any:
    """The inverse error function on [-1, 1] (+-inf at +-1, nan outside).

    Example:
        >>> import minigrad
        >>> minigrad.erfinv(minigrad.tensor([0.0, 0.5, -1.0]))
        tensor([0.0000, 0.4769,   -inf])
    """
    return Erfinv._record(float_input(input))


def erfinv_(input: Any) -> Any:
    """``erfinv`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Erfinv)


class SavesInputAndResult(Op):
    """A unary op y = kernel(x) whose derivative is written with both x and y."""

    saves = ("self", "result")
    elementwise = True
    result_layout = staticmethod(elementwise_result)
    kernel: Any

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray) -> np.ndarray:
        y = cls.kernel(x)
        ctx.save_for_backward(x, y)
        return y


def _overflowing(kernel: Any) -> Any:
    """An unscaled Bessel ``kernel`` in the input's dtype, ±inf where PyTorch's overflows.

    PyTorch's Cephes kernels compute ``exp(|x|) * series / sqrt(|x|)`` in the input's dtype
    (float16 in float32): exp overflows from |x| = log(max), 88.72 in float32 and 709.78 in
    float64, though I_0(90) = 1.1e38 still fits a float32.
    """
    inner = in_input_dtype(kernel)

    def apply(x: np.ndarray) -> np.ndarray:
        """The kernel of ``x`` in ``x``'s dtype, with PyTorch's overflow."""
        y = inner(x)
        if x.dtype == np.float16:  # (in float32, then rounded: inf anyway past 11.8)
            return y
        with np.errstate(over="ignore"):
            limit = np.log(np.finfo(x.dtype).max)
        # (at ±inf itself Cephes's inf / sqrt(inf) is nan, as the kernel gives)
        return np.where((np.abs(x) > limit) & np.isfinite(x), np.copysign(np.inf, y), y)

    apply.__doc__ = kernel.__doc__
    return apply


class I0(SavesInput):
    """y = I_0(x);  dx = grad * I_1(x).  Saves its input."""

    kernel = staticmethod(_overflowing(kernels.i0))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * run(I1, x)


def i0(input: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Example:
        >>> import minigrad
        >>> minigrad.i0(minigrad.tensor([0.0, 1.0, 2.0]))
        tensor([1.0000, 1.2661, 2.2796])
    """
    return I0._record(float_input(input))


def i0_(input: Any) -> Any:
    """``i0`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, I0)


class I0e(SavesInputAndResult):
    """y = exp(-|x|) I_0(x);  dx = grad * (i1e(x) - sgn(x) y).  Saves its input and result."""

    node_name = "SpecialI0EBackward0"
    kernel = staticmethod(in_input_dtype(kernels.i0e))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        return grad * (run(I1e, x) - sign_of(x) * y)


def i0e(input: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 0: ``exp(-|x|) i0(x)``.

    Example:
        >>> import minigrad
        >>> minigrad.special.i0e(minigrad.tensor([0.0, 1.0, 100.0]))
        tensor([1.0000, 0.4658, 0.0399])
    """
    return I0e.apply(float_input(input))


def _at_zero(x: Any, values: Any) -> Any:
    """``values`` with 0.5 unless |x| > eps (the limit of i1's and i1e's derivatives at 0).

    PyTorch's ``i1_backward``/``i1e_backward`` take 0.5 up to the dtype's epsilon, not at 0
    only (1 / x of a subnormal x is inf); they have no float16 kernel: backward raises.
    """
    array = raw(x)  # (not |x| > eps: nan too, as PyTorch's where(self.abs() > eps, ...))
    return np.where(np.abs(array) > np.finfo(array.dtype).eps, values, 0.5)


def _check_bessel_backward(kernel: str, x: Any) -> None:
    """PyTorch's ``i1_backward``/``i1e_backward`` dispatch float32 and float64 only."""
    dtype = raw(x).dtype
    if dtype == np.float16:
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(dtype)))


class I1(SavesInputAndResult):
    """y = I_1(x);  dx = grad * (i0(x) - y / x), 1/2 at 0.  Saves its input and result."""

    node_name = "SpecialI1Backward0"
    kernel = staticmethod(_overflowing(kernels.i1))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        _check_bessel_backward("i1_backward", x)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            return grad * _at_zero(x, run(I0, x) - y / x)


def i1(input: Any) -> Any:
    """The modified Bessel function of the first kind of order 1.

    Example:
        >>> import minigrad
        >>> minigrad.special.i1(minigrad.tensor([0.0, 1.0, -2.0]))
        tensor([ 0.0000,  0.5652, -1.5906])
    """
    return I1.apply(float_input(input))


class I1e(SavesInputAndResult):
    """y = exp(-|x|) I_1(x);  dx = grad * (i0e(x) - y (sgn(x) + 1/x)), 1/2 at 0.

    Saves its input and result.
    """

    node_name = "SpecialI1EBackward0"
    kernel = staticmethod(in_input_dtype(kernels.i1e))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        _check_bessel_backward("i1e_backward", x)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            return grad * _at_zero(x, run(I0e, x) - y * (sign_of(x) + 1 / x))


def i1e(input: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 1: ``exp(-|x|) i1(x)``.

    Example:
        >>> import minigrad
        >>> minigrad.special.i1e(minigrad.tensor([0.0, 1.0, 100.0]))
        tensor([0.0000, 0.2079, 0.0397])
    """
    return I1e.apply(float_input(input))


def ndtr(input: Any) -> Any:
    """The standard normal distribution function ``(1 + erf(input / sqrt(2))) / 2``.

    Composite, as PyTorch's graph: ``MulBackward1`` of ``AddBackward1`` of ``ErfBackward0``
    of ``MulBackward1``.

    Example:
        >>> import minigrad
        >>> minigrad.special.ndtr(minigrad.tensor([0.0, 1.0]))
        tensor([0.5000, 0.8413])
    """
    x = float_input(input)
    return MulScalar.apply(AddScalar.apply(Erf.apply(MulScalar.apply(x, _SQRT_HALF)), 1), 0.5)


class Ndtri(Op):
    """y = ndtri(x), the normal quantile;  dx = grad * sqrt(2 pi) * exp(y**2 / 2).

    Saves its result.
    """

    saves = ("result",)
    node_name = "SpecialNdtriBackward0"
    elementwise = True
    result_layout = staticmethod(elementwise_result)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = in_input_dtype(kernels.ndtri)(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        # (PyTorch's order: grad * sqrt(2 pi) first, so a small grad keeps a huge exp finite)
        return grad * _SQRT_TWO_PI * np.exp(y * y / 2)


def ndtri(input: Any) -> Any:
    """The inverse of ``ndtr``: the standard normal quantile of ``input`` in [0, 1].

    Example:
        >>> import minigrad
        >>> minigrad.special.ndtri(minigrad.tensor([0.5, 0.975, 0.0]))
        tensor([0.0000, 1.9600,   -inf])
    """
    return Ndtri.apply(_no_float16("ndtri_cpu", float_input(input)))


class LogNdtr(SavesInputAndResult):
    """y = log(ndtr(x));  dx = grad / sqrt(2 pi) * exp(-(y + x**2 / 2)).

    Saves its input and result.
    """

    node_name = "SpecialLogNdtrBackward0"
    kernel = staticmethod(in_input_dtype(kernels.log_ndtr))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        return grad / _SQRT_TWO_PI * np.exp(-(y + x * x / 2))


def log_ndtr(input: Any) -> Any:
    """``log(ndtr(input))``, accurate far into both tails.

    Example:
        >>> import minigrad
        >>> minigrad.special.log_ndtr(minigrad.tensor([0.0, -10.0]))
        tensor([ -0.6931, -53.2313])
    """
    return LogNdtr.apply(_no_float16("log_ndtr_cpu", float_input(input)))


class Erfcx(SavesInputAndResult):
    """y = exp(x**2) erfc(x);  dx = grad * (2 x y - 2 / sqrt(pi)).  Saves input and result."""

    node_name = "SpecialErfcxBackward0"
    kernel = staticmethod(in_input_dtype(kernels.erfcx))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, y = ctx.saved_tensors
        return (2.0 * x * y - _TWO_OVER_SQRT_PI) * grad


def erfcx(input: Any) -> Any:
    """The scaled complementary error function ``exp(input**2) * erfc(input)``.

    Example:
        >>> import minigrad
        >>> minigrad.special.erfcx(minigrad.tensor([0.0, 1.0, 30.0]))
        tensor([1.0000, 0.4276, 0.0188])
    """
    return Erfcx.apply(_no_float16("erfcx_cpu", float_input(input)))


def _no_float16(kernel: str, x: Any) -> Any:
    """``x``, or PyTorch's NotImplementedError for a float16 ``x`` (kernels without Half)."""
    dtype = operand(x).dtype
    if dtype == np.float16:
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(dtype)))
    return x


def _entr_array(x: np.ndarray) -> np.ndarray:
    """``-x log x`` for x > 0, 0 at 0, -inf below 0, nan at nan (PyTorch's kernel)."""
    with np.errstate(all="ignore"):
        value = -x * np.log(x)
    (zero,) = _ONE.of(x)
    value = np.where(x == 0, zero - zero, value)
    return np.where(x < 0, -np.inf, value).astype(x.dtype, copy=False)


class Entr(Op):
    """y = -x log x (0 at 0, -inf below 0);  dx = -grad * (1 + log x).  Saves its input."""

    node_name = "SpecialEntrBackward0"
    elementwise = True
    result_layout = staticmethod(elementwise_result)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return _entr_array(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * -(np.log(x) + 1)


def entr(input: Any) -> Any:
    """The elementwise entropy ``-input * log(input)`` (0 at 0, -inf for negative input).

    Example:
        >>> import minigrad
        >>> minigrad.special.entr(minigrad.tensor([0.0, 0.5, 1.0]))
        tensor([0.0000, 0.3466, -0.0000])
    """
    return Entr.apply(float_input(input))


# --- xlog1py ---------------------------------------------------------------------------------


def xlog1py_array(x: Any, y: Any, dtype: Any) -> np.ndarray:
    """``x * log1p(y)``, 0 where x is 0 (unless y is nan), PyTorch's kernel on arrays."""
    x, y = _computed_in(x, y, dtype)
    product = np.asarray(x * np.log1p(y))
    return np.where((np.asarray(x) == 0) & ~np.isnan(y), product.dtype.type(0), product)


class Xlog1py(Op):
    """z = x * log1p(y), 0 where x is 0 (nan where y is nan).

    dx = xlog1py(grad, y), 0 where x == 0 and y <= -1;  dy = grad * x / (y + 1).
    Saves both operands.
    """

    node_name = "SpecialXlog1PyBackward0"
    num_inputs = 2
    broadcasts = True

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return xlog1py_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx = None
        if needs[0]:
            kept = (raw(x) == 0) & (raw(y) <= -1)  # (a constant: the mask has no gradient)
            dx = run(MaskedFill, run(Xlog1py, grad, y, None), kept, 0)
        return dx, grad * x / (y + 1) if needs[1] else None, None


class Xlog1pyOfNumber(Op):
    """xlog1py of a tensor and a number: the node keeps the number (``number``), not saved."""

    num_inputs = 2
    broadcasts = True
    fields = ("number",)


class Xlog1pyFirstNumber(Xlog1pyOfNumber):
    """z = xlog1py(x, y) of a number x;  dy = grad * x / (y + 1).  Saves ``y``."""

    node_name = "SpecialXlog1PyBackward1"
    saves = ("other",)
    saved_options = {"self": "number"}

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(y)
        ctx.number = x
        return xlog1py_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[None, Any, None]:
        (y,) = ctx.saved_tensors
        return None, grad * ctx.number / (y + 1), None


class Xlog1pySecondNumber(Xlog1pyOfNumber):
    """z = xlog1py(x, y) of a number y;  dx = grad * log1p(y) (0 where x is 0 if y <= -1).

    Saves ``x``.
    """

    node_name = "SpecialXlog1PyBackward2"
    saves = ("self",)
    saved_options = {"other": "number"}

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.number = y
        return xlog1py_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        number = ctx.number
        mask = True if number > -1 else raw(x) != 0  # (a constant factor)
        return grad * xlog1py_array(mask, number, operand(x).dtype), None, None


def xlog1py(input: Any, other: Any) -> Any:
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is nan).

    Example:
        >>> import minigrad
        >>> minigrad.special.xlog1py(minigrad.tensor([0.0, 2.0]), minigrad.tensor([-1.0, 1.0]))
        tensor([0.0000, 1.3863])
    """
    a, b, dtype = promote(input, other, true_divide=True)
    op = op_for_operands(input, other, Xlog1py, Xlog1pyFirstNumber, Xlog1pySecondNumber)
    return op.apply(a, b, dtype)


# --- Hurwitz's zeta --------------------------------------------------------------------------


def zeta_array(x: Any, q: Any, dtype: Any) -> np.ndarray:
    """Hurwitz's zeta of arrays or numbers, in the promoted dtype."""
    x, q = _computed_in(x, q, dtype)
    result_dtype = np.result_type(x, q)
    return np.asarray(kernels.zeta(x, q)).astype(result_dtype, copy=False)


def _zeta_not_differentiable() -> NotImplementedError:
    """PyTorch's error for a gradient with respect to zeta's first argument."""
    return NotImplementedError("the derivative for 'zeta' is not implemented.")


class Zeta(Op):
    """z = zeta(x, q);  dq = -grad * x * zeta(x + 1, q);  no derivative for x.

    Saves both operands.
    """

    node_name = "SpecialZetaBackward0"
    num_inputs = 2
    broadcasts = True

    @staticmethod
    def forward(ctx: Any, x: Any, q: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, q)
        return zeta_array(x, q, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        if ctx.needs_input_grad[0]:
            raise _zeta_not_differentiable()
        x, q = ctx.saved_tensors
        return None, grad * -x * run(Zeta, x + 1, q, None), None


class ZetaFirstNumber(Op):
    """z = zeta(x, q) of a number x;  dq = -grad * x * zeta(x + 1, q).  Saves ``q``."""

    node_name = "SpecialZetaBackward1"
    num_inputs = 2
    broadcasts = True
    fields = ("number",)
    saves = ("other",)
    saved_options = {"self": "number"}

    @staticmethod
    def forward(ctx: Any, x: Any, q: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(q)
        ctx.number = x
        return zeta_array(x, q, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[None, Any, None]:
        (q,) = ctx.saved_tensors
        number = ctx.number
        return None, grad * -number * run(ZetaFirstNumber, number + 1, q, None), None


class ZetaSecondNumber(Op):
    """z = zeta(x, q) of a number q: no derivative for x (backward raises).  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = "SpecialZetaBackward2"
    num_inputs = 2
    broadcasts = True

    @staticmethod
    def forward(ctx: Any, x: Any, q: Any, dtype: Any) -> np.ndarray:
        return zeta_array(x, q, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        raise _zeta_not_differentiable()


def zeta(input: Any, other: Any) -> Any:
    """Hurwitz's zeta function ``sum over k >= 0 of (k + other) ** -input``.

    Example:
        >>> import minigrad
        >>> minigrad.special.zeta(minigrad.tensor([2.0, 4.0]), 1.0)
        tensor([1.6449, 1.0823])
    """
    a, b, dtype = promote(input, other, true_divide=True)
    op = op_for_operands(input, other, Zeta, ZetaFirstNumber, ZetaSecondNumber)
    return op.apply(a, b, dtype)
