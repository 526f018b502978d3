"""More elementwise math: fmod, copysign, fmax, fmin, heaviside, nextafter, float_power, ...

Also gcd and lcm, sgn, and the tests signbit, isneginf, isposinf and isreal.

Each follows PyTorch's derivatives.yaml: what it saves (``_saved_self``, ``_saved_other``,
``_saved_result``), its formulas and node names (a number as ``other`` picks the Scalar
overload: ``FmodBackward0`` and ``CopysignBackward1``), and its dtype rules: copysign computes
integers in the default float; nextafter exists for floating types only, gcd and lcm for
integers only; float_power computes in float64 whatever its inputs; heaviside wants one dtype.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, display_name
from minigrad._layout import elementwise_result, elementwise_with_number
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, comparison, power
from minigrad.ops._helpers import (
    NOT_IMPLEMENTED,
    cast,
    float_input,
    operand,
    promote,
    promote_inplace,
    raw,
    zero_where,
    zeros_like_grad,
)
from minigrad.ops.bitwise import (
    IntegerKernel,
    check_kernel,
    computed_dtype,
    integer_binary,
    integer_binary_,
)
from minigrad.ops.unary import Clone, sign_of

_FLOAT64 = np.dtype(np.float64)


# --- fmod: C's remainder (the sign of the dividend) ------------------------------------------


class Fmod(arithmetic.Remainder):
    """z = x - trunc(x / y) * y (C's fmod);  dx = grad,  dy = -grad * trunc(x / y).

    The result has the sign of x. Saves x and y only if y needs a gradient (PyTorch).
    """

    node_name = "FmodBackward1"
    kernel = np.fmod
    rounding = np.trunc


class FmodScalar(arithmetic.RemainderScalar):
    """z = fmod(x, other) of a number ``other``;  dx = grad.  Saves nothing."""

    node_name = "FmodBackward0"
    kernel = np.fmod


def fmod(input: Any, other: Any) -> Any:
    """C's remainder: ``input - trunc(input / other) * other`` (the sign of ``input``).

    Example:
        >>> import minigrad
        >>> minigrad.fmod(minigrad.tensor([-3.0, 3.0, 5.5]), 2)
        tensor([-1.0000,  1.0000,  1.5000])
    """
    a, b, dtype = promote(input, other)
    check_kernel("fmod_cpu", "iuf", computed_dtype(a, dtype), a, b)
    if isinstance(operand(b), np.ndarray):
        return Fmod.apply(a, b, dtype)
    return FmodScalar.apply(a, b, dtype)


def fmod_(input: Any, other: Any) -> Any:
    """``fmod(input, other)``, in place."""
    other, dtype = promote_inplace(input, other, method="fmod_")
    check_kernel("fmod_cpu", "iuf", dtype, input, other)
    return apply_inplace(Fmod if isinstance(other, TensorBase) else FmodScalar, input, other,
                         dtype)


# --- copysign --------------------------------------------------------------------------------


def _copysign_gradient(grad: Any, x: Any, z: Any) -> Any:
    """``grad * z / x``, 0 where x is 0: PyTorch's ``copysign_tensor_self_backward``."""
    return grad * np.where(x == 0, 0, z / x)


class Copysign(Op):
    """z = |x| with the sign of y;  dx = grad * z / x (0 where x is 0),  dy = 0.

    Saves x (if it needs a gradient) and the result (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    # grad_fn(grad): PyTorch's dy is zeros_like(other); this formula's is grad-shaped
    unsummed_when_called = False
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        z = np.copysign(x, y, dtype=dtype)
        ctx.save_for_backward(x if ctx.needs_input_grad[0] else None, z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, z = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            _copysign_gradient(grad, x, z) if needs[0] else None,
            zeros_like_grad(grad) if needs[1] else None,
            None,
        )


class CopysignScalar(Op):
    """z = |x| with the sign of a number;  dx = grad * z / x (0 where x is 0).

    PyTorch's ``CopysignBackward1``: saves x and the result.
    """

    result_layout = staticmethod(elementwise_with_number)  # (TensorIterator's)

    node_name = "CopysignBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: Any, dtype: Any) -> np.ndarray:
        z = np.copysign(x, other, dtype=dtype)
        ctx.save_for_backward(x, z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, z = ctx.saved_tensors
        return _copysign_gradient(grad, x, z), None, None


def copysign(input: Any, other: Any) -> Any:
    """``|input|`` with the sign of ``other`` (integers compute in the default float).

    Example:
        >>> import minigrad
        >>> minigrad.copysign(minigrad.tensor([1.0, -2.0, 3.0]), -0.0)
        tensor([-1., -2., -3.])
    """
    a, b, dtype = promote(input, other, true_divide=True)  # (integers: in float32)
    if isinstance(operand(b), np.ndarray):
        return Copysign.apply(a, b, dtype)
    return CopysignScalar.apply(a, b, dtype)


def copysign_(input: Any, other: Any) -> Any:
    """``copysign(input, other)``, in place (a floating-point tensor only)."""
    other, dtype = promote_inplace(input, other, true_divide=True, method="copysign_")
    return apply_inplace(Copysign if isinstance(other, TensorBase) else CopysignScalar, input,
                         other, dtype)


# --- fmax, fmin: maximum and minimum that ignore nan ------------------------------------------


class PairwiseExtremeIgnoringNan(Op):
    """z = fmax(x, y) (``Fmax``) or fmin(x, y) (``Fmin``): a nan loses unless both are nan.

    The gradient goes wholly to x where x is taken (ties too: PyTorch's formula), else to y.
    Saves both operands (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    keeps: ClassVar[np.ufunc]  # where x is taken over a y that is not nan: >= or <=

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        if dtype is not None:
            x, y = np.asarray(x, dtype=dtype), np.asarray(y, dtype=dtype)
        # PyTorch's kernels take x on a tie (0.0 against -0.0 too), where numpy's fmax/fmin
        # may give either: the backward's own mask.
        return np.where(cls.keeps(x, y) | (y != y), x, y)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        # (on the arrays: the mask has no gradient)
        x_taken = cls.keeps(raw(x), raw(y)) | np.isnan(raw(y))
        needs = ctx.needs_input_grad
        return (
            zero_where(~x_taken, grad) if needs[0] else None,
            zero_where(x_taken, grad) if needs[1] else None,
            None,
        )


class Fmax(PairwiseExtremeIgnoringNan):
    """z = the larger of x and y, the number where one is nan."""

    keeps = np.greater_equal


class Fmin(PairwiseExtremeIgnoringNan):
    """z = the smaller of x and y, the number where one is nan."""

    keeps = np.less_equal


def fmax(input: Any, other: Any) -> Any:
    """The larger of two tensors, elementwise; where one is nan, the other.

    Example:
        >>> import minigrad
        >>> minigrad.fmax(minigrad.tensor([1.0, float("nan")]), minigrad.tensor([2.0, 0.5]))
        tensor([2.0000, 0.5000])
    """
    a, b, dtype = promote(input, other)
    return Fmax.apply(a, b, dtype)


def fmin(input: Any, other: Any) -> Any:
    """The smaller of two tensors, elementwise; where one is nan, the other.

    Example:
        >>> import minigrad
        >>> minigrad.fmin(minigrad.tensor([1.0, float("nan")]), minigrad.tensor([2.0, 0.5]))
        tensor([1.0000, 0.5000])
    """
    a, b, dtype = promote(input, other)
    return Fmin.apply(a, b, dtype)


# --- heaviside ------------------------------------------------------------------------------


class Heaviside(Op):
    """z = 0 where x < 0, ``values`` where x == 0, 1 where x > 0.

    PyTorch has no derivative for it: its node is ``torch::autograd::NotImplemented`` and
    backward raises. Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = NOT_IMPLEMENTED
    num_inputs = 2
    aten_name: ClassVar[str] = "aten::heaviside"

    @staticmethod
    def forward(ctx: Any, x: Any, values: Any) -> np.ndarray:
        return np.where(x == 0, values, x > 0).astype(x.dtype, copy=False)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented(cls.aten_name))


class HeavisideInplace(Heaviside):
    """``heaviside_``: PyTorch's message names the in-place op."""

    node_name = NOT_IMPLEMENTED
    aten_name = "aten::heaviside_"




def _check_same_dtype(input: Any, values: Any) -> None:
    if operand(input).dtype != operand(values).dtype:
        raise RuntimeError(errors.HEAVISIDE_DTYPES)


def heaviside(input: Any, values: Any) -> Any:
    """The Heaviside step of ``input``: 0 below zero, 1 above, ``values`` at zero.

    Example:
        >>> import minigrad
        >>> minigrad.heaviside(minigrad.tensor([-1.5, 0.0, 2.0]), minigrad.tensor(0.5))
        tensor([0.0000, 0.5000, 1.0000])
    """
    _check_same_dtype(input, values)
    return Heaviside.apply(input, values)


def heaviside_(input: Any, values: Any) -> Any:
    """``heaviside(input, values)``, in place."""
    _check_same_dtype(input, values)
    return apply_inplace(HeavisideInplace, input, values)


# --- nextafter ------------------------------------------------------------------------------


class Nextafter(Op):
    """z = the next float after x towards y;  dx = grad where x != y (else 0),  dy = 0.

    Saves both operands if x needs a gradient (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    # grad_fn(grad): PyTorch's dy is zeros_like(other); this formula's is grad-shaped
    unsummed_when_called = False
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        needs_x = ctx.needs_input_grad[0]
        ctx.save_for_backward(x if needs_x else None, y if needs_x else None)
        z = np.nextafter(x, y, dtype=dtype)
        if z.dtype == np.float16:  # (numpy's float16 loop returns x on a tie, C's returns y:
            z = np.where(x == y, np.asarray(y, z.dtype), z)  # nextafter(-0., 0.) is 0.)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            zero_where(raw(x) == raw(y), grad) if needs[0] else None,
            zeros_like_grad(grad) if needs[1] else None,
            None,
        )


def nextafter(input: Any, other: Any) -> Any:
    """The next floating-point value after ``input`` towards ``other``, elementwise.

    Example:
        >>> import minigrad
        >>> one = minigrad.tensor([1.0], dtype=minigrad.float64)
        >>> (minigrad.nextafter(one, one * 2) - one).item() == 2.0 ** -52
        True
    """
    a, b, dtype = promote(input, other)
    check_kernel("nextafter_cpu", "f", computed_dtype(a, dtype), a, b)
    return Nextafter.apply(a, b, dtype)


def nextafter_(input: Any, other: Any) -> Any:
    """``nextafter(input, other)``, in place."""
    other, dtype = promote_inplace(input, other)
    check_kernel("nextafter_cpu", "f", dtype, input, other)
    return apply_inplace(Nextafter, input, other, dtype)


# --- float_power: pow in float64 ------------------------------------------------------------


def _as_float64(value: Any) -> Any:
    """A tensor cast to float64 (recorded, as PyTorch's ``to``), a number as a Python float."""
    return cast(value, _FLOAT64) if isinstance(value, TensorBase) else float(value)


def float_power(input: Any, exponent: Any) -> Any:
    """``input ** exponent`` computed in float64, whatever the inputs' dtypes (as PyTorch).

    PyTorch composes it: both operands go to float64 (a ``ToCopyBackward0`` node each), then
    ``pow`` (``PowBackward0/1/2``).

    Example:
        >>> import minigrad
        >>> minigrad.float_power(minigrad.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=minigrad.float64)
    """
    check_scalar_arguments(input, exponent)  # (the parser's error comes first)
    return power.pow(_as_float64(input), _as_float64(exponent))


def float_power_(input: Any, exponent: Any) -> Any:
    """``float_power(input, exponent)``, in place: ``input`` must be float64."""
    check_scalar_arguments(exponent)  # (the parser's error comes first)
    if input._array.dtype != _FLOAT64:
        raise RuntimeError(errors.FLOAT_POWER_DTYPE.format(
            role="base", function="float_power_", found=display_name(input._array.dtype)))
    return power.pow_(input, _as_float64(exponent))


# --- gcd, lcm (integers only) -----------------------------------------------------------------


class Gcd(IntegerKernel):
    """z = the greatest common divisor of x and y (non-negative; gcd(0, 0) = 0)."""

    kernel = np.gcd
    kernel_name = "gcd_cpu"
    kinds = "iu"


class Lcm(IntegerKernel):
    """z = the least common multiple of x and y (non-negative; 0 if either is 0)."""

    kernel = np.lcm
    kernel_name = "lcm_cpu"
    kinds = "iu"


def gcd(input: Any, other: Any) -> Any:
    """The greatest common divisor of integer tensors, elementwise.

    Example:
        >>> import minigrad
        >>> minigrad.gcd(minigrad.tensor([12, -9, 0]), minigrad.tensor([18, 6, 0]))
        tensor([6, 3, 0])
    """
    return integer_binary(Gcd, input, other)


def gcd_(input: Any, other: Any) -> Any:
    """``gcd(input, other)``, in place."""
    return integer_binary_(Gcd, input, other, "gcd_")


def lcm(input: Any, other: Any) -> Any:
    """The least common multiple of integer tensors, elementwise.

    Example:
        >>> import minigrad
        >>> minigrad.lcm(minigrad.tensor([4, -3, 0]), minigrad.tensor([6, 5, 7]))
        tensor([12, 15,  0])
    """
    return integer_binary(Lcm, input, other)


def lcm_(input: Any, other: Any) -> Any:
    """``lcm(input, other)``, in place."""
    return integer_binary_(Lcm, input, other, "lcm_")


# --- sgn ------------------------------------------------------------------------------------


class Sgn(Op):
    """y = sgn(x): for real x, sign(x) (0 for nan);  dx = 0.

    Saves x and the result, as PyTorch does (its formula needs them for complex inputs only).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = sign_of(x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


def sgn(input: Any) -> Any:
    """The sign of each element, ``x / |x|`` (0 at 0): ``sign`` for real tensors.

    Example:
        >>> import minigrad
        >>> minigrad.sgn(minigrad.tensor([-2.0, 0.0, 3.0]))
        tensor([-1.,  0.,  1.])
    """
    if operand(input).dtype == np.bool_:
        return Clone.apply(input)  # (a bool tensor is its own sign)
    return Sgn.apply(input)


def sgn_(input: Any) -> Any:
    """``sgn(input)``, in place (a bool tensor keeps its values)."""
    return apply_inplace(Clone if input._array.dtype == np.bool_ else Sgn, input)


# --- angle ----------------------------------------------------------------------------------


class Angle(Op):
    """y = angle(x): for real x, pi where x < 0, else 0 (nan at nan; -0. gives 0);  dx = 0.

    Saves its input, as PyTorch does (its formula reads it for complex inputs only).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)
    saves = ("self",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        pi = x.dtype.type(math.pi)  # (rounded to the dtype: 3.140625 in float16)
        return np.where(np.isnan(x), x, np.where(x < 0, pi, x.dtype.type(0)))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


def angle(input: Any) -> Any:
    """The argument of each element in radians: pi for negative reals, 0 otherwise.

    Integer and bool tensors give the default float dtype.

    Example:
        >>> import minigrad
        >>> minigrad.angle(minigrad.tensor([-2.0, 0.0, 3.0]))
        tensor([3.1416, 0.0000, 0.0000])
    """
    return Angle.apply(float_input(input))


# --- tests of the sign and of infinities (bool results) ---------------------------------------


def signbit(input: Any) -> Any:
    """True where the sign bit is set: negative values, -0.0 and a negative nan.

    Example:
        >>> import minigrad
        >>> minigrad.signbit(minigrad.tensor([-1.0, -0.0, 0.0, 2.0]))
        tensor([ True,  True, False, False])
    """
    return comparison.bool_unary(np.signbit, input)


def isneginf(input: Any) -> Any:
    """True where ``input`` is -inf."""
    return comparison.bool_unary(np.isneginf, input)


def isposinf(input: Any) -> Any:
    """True where ``input`` is +inf."""
    return comparison.bool_unary(np.isposinf, input)


def isreal(input: Any) -> Any:
    """True where the imaginary part is 0: everywhere, for minigrad's real dtypes."""
    return comparison.bool_unary(np.isreal, input)
