"""Binary arithmetic: + - * / //, remainder, maximum, minimum, atan2.

``**`` (pow and its kernels) lives in ``power.py``; the three-input ops (lerp, addcmul, addcdiv)
in ``ternary.py``. Each op is one class (forward, backward, what it saves) followed by its public
function.

What each op saves is what PyTorch 2.13 saves: it decides which later in-place writes make
backward raise. Formulas are written with operators and numpy ufuncs only, so they read like the
math (and run on tensors under create_graph).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._arguments import NOT_GIVEN
from minigrad._dtype import (
    check_python_int,
    check_scalar_arguments,
    checked_value,
    default_float,
    result_type,
)
from minigrad._layout import elementwise_with_number
from minigrad.autograd.function import Op
from minigrad.autograd.grad_versions import written
from minigrad.autograd.inplace import (
    apply_inplace,
    is_plain_update,
    refused_by_kernel,
    write_plain,
)
from minigrad.autograd.record import binary_operator
from minigrad.autograd.saved_attributes import constant
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    NOT_IMPLEMENTED,
    check_float_kernel,
    check_operand,
    constant_tensor,
    is_bool,
    operand,
    promote,
    promote_inplace,
    run,
    wrap_integer,
    zeros_like_grad,
)
from minigrad.ops.fill import MaskedFill
from minigrad.ops.fused import fused_dtype, fused_multiply_add
from minigrad.ops.opmath import (
    FLOAT16,
    in_float32,
    is_wide_scalar,
    scalar_loop_mask,
    with_scalar,
)


class Add(Op):
    """z = x + alpha * y;  dx = grad,  dy = alpha * grad.  Saves nothing."""

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("alpha",)
    saves = ()  # (declared: no generic naming to wait for, autograd/function.py)
    saved_options = ("alpha",)
    forward_kernel = np.add  # forward's work on the inputs alone (alpha=1): recording calls it
    keeps_dtype = True  # np.add of two arrays of one dtype gives that dtype

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any = 1, dtype: Any = None) -> np.ndarray:
        # (``alpha`` is a declared option with a default: recording notes it, Function.fields)
        if alpha != 1:
            return _with_scaled(np.add, ctx, x, y, alpha, dtype)
        return np.add(x, y) if dtype is None else np.add(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        # (PyTorch's maybe_multiply: C++'s ``grad * alpha``, MulBackward1 under create_graph)
        return grad, grad if ctx.alpha == 1 else run(MulScalar, grad, ctx.alpha), None, None


def _with_scaled(kernel: Any, ctx: Any, x: Any, y: Any, alpha: Any, dtype: Any) -> np.ndarray:
    """``kernel(x, alpha * y)`` (add's and sub's ``alpha``) with as few arrays as it can.

    The product is a temporary the result can go into (``SGD``'s update: one temporary, not
    two); in place with nothing recorded (``ctx.out`` is x), the result goes straight into x.
    A float16 result is PyTorch's: ``x + alpha * y`` in float32, rounded once, alpha and a
    number ``y`` taken as float16 (the common dtype) first; but where PyTorch's scalar loop
    computes it (strided operands, a tail shorter than a vector step: opmath.scalar_loop_mask),
    in float16 steps, each rounded.
    """
    if (getattr(x, "dtype", None) if dtype is None else dtype) is FLOAT16:
        y = y if isinstance(y, np.ndarray) else np.asarray(y, FLOAT16)
        half_alpha = np.asarray(alpha, FLOAT16)
        result = in_float32(_SCALED[kernel], x, y, half_alpha)
        if type(x) is np.ndarray and x.dtype is FLOAT16 and y.dtype is FLOAT16:
            scalar = scalar_loop_mask(x, y)
            if scalar is not None:  # (float16 arrays: numpy's float16 ops round each step)
                result = np.where(scalar, kernel(x, half_alpha * y), result)
        return result
    into = x if getattr(ctx, "out", None) is x else None
    fused = fused_dtype(x, y, dtype=dtype)
    if fused is not None and _broadcasts_into(x, y, into):
        # PyTorch's float32/float64 kernel: one FMA, fma(alpha, y, x)
        result = fused_multiply_add(alpha if kernel is np.add else -alpha, y, x, fused, into)
        if into is not None and result is not x:
            np.copyto(x, result)
            return x
        return result
    y = alpha * y
    if _fresh_like(y, x, dtype):
        return kernel(x, y, out=x if getattr(ctx, "out", None) is x else y)
    return kernel(x, y) if dtype is None else kernel(x, y, dtype=dtype)


def _broadcasts_into(x: Any, y: Any, into: Any) -> bool:
    """Whether ``x`` and ``y`` broadcast (into ``x``'s shape if ``into`` is ``x``).

    Otherwise the unfused path runs, whose numpy error the recording turns into PyTorch's.
    """
    shape, target = np.shape(y), np.shape(x)  # (x may be a number: add(2, tensor))
    if shape == target or not shape:
        return True
    try:
        broadcast = np.broadcast_shapes(target, shape)
    except ValueError:
        return False
    return into is None or broadcast == target


def _add_scaled(x: np.ndarray, y: np.ndarray, alpha: Any) -> np.ndarray:
    """``x + alpha * y`` (add's formula, on float32 arrays for a float16 result)."""
    return np.add(x, alpha * y)


def _subtract_scaled(x: np.ndarray, y: np.ndarray, alpha: Any) -> np.ndarray:
    """``x - alpha * y`` (sub's formula, on float32 arrays for a float16 result)."""
    return np.subtract(x, alpha * y)


_SCALED = {np.add: _add_scaled, np.subtract: _subtract_scaled}


def _fresh_like(scaled: Any, x: Any, dtype: Any) -> bool:
    """Whether ``scaled`` (a product just computed) can hold the result of ``x`` and it.

    True when both are C-contiguous arrays of the result's shape and dtype: the op then writes
    into it instead of allocating a second array (same values: the operation is the same).
    """
    return (
        type(scaled) is np.ndarray
        and type(x) is np.ndarray
        and scaled.shape == x.shape
        and scaled.dtype == x.dtype
        and (dtype is None or dtype == x.dtype)
        and scaled.flags.c_contiguous
        and x.flags.c_contiguous
    )


def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input + alpha * other``, with broadcasting.

    Example:
        >>> import minigrad
        >>> minigrad.add(minigrad.tensor([1.0, 2.0]), 1.0)
        tensor([2., 3.])
    """
    if alpha == 1 and type(alpha) is int:  # the default: as ``input + other``
        return _record_add(input, other)
    a, b, dtype = promote(input, other)
    # (Add's recording function for options, which ``apply`` would call: two calls less)
    return Add._record_options(a, b, _checked_alpha(a, dtype, alpha), dtype)


def add_promoted(input: Any, other: Any) -> Any:
    """``input + other`` for operands that are not two tensors of one dtype: promoted."""
    a, b, dtype = promote(input, other)
    return Add.apply(a, b) if dtype is None else Add.apply(a, b, 1, dtype)


# Two tensors of one dtype need neither promotion nor checks: Add's recording function takes
# them at once (as ``Tensor.__add__``), and hands anything else to the promoting function.
_record_add = binary_operator(Add, add_promoted, floats_only=False)


def add_(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input += alpha * other`` in place."""
    if type(alpha) is float and is_plain_update(input, other):
        # An optimizer's update (``p.add_(g, alpha=-lr)`` under no_grad): the checks below
        # all pass (same floating dtype, a float alpha), so only the write is left.
        return write_plain(Add, input, other, alpha, input._array.dtype)
    other, dtype = promote_inplace(input, other, method="add_")
    alpha = _checked_alpha_inplace(input, other, dtype, alpha)
    return apply_inplace(Add, input, other, alpha, dtype)


def _checked_alpha_inplace(
    input: Any, other: Any, dtype: Any, alpha: Any, subtract: bool = False
) -> Any:
    """``_checked_alpha`` for add_ and sub_, its error after the kernel's set-up checks.

    As PyTorch's alpha check: an operand overlapping ``input``, or their sizes, raise first.
    """
    try:  # (an integer tensor takes no float alpha)
        return _checked_alpha(input, dtype, alpha, subtract)
    except RuntimeError as error:
        raise refused_by_kernel(input, (other,), error) from None


def _checked_alpha(a: Any, dtype: Any, alpha: Any, subtract: bool = False) -> Any:
    """The ``alpha`` of add and sub, checked (PyTorch's texts), as their kernels take it.

    PyTorch's kernels convert it to the result's type: a bool tensor's ``alpha=2`` is True
    (``b.add_(b, alpha=2)`` stays bool; numpy's ``2 * b`` would be an int64 array), a number
    the type cannot hold raises (``value cannot be converted to type int without overflow``),
    uint8's -1 is 255. ``subtract``: PyTorch's sub adds ``-alpha``, negated as a Scalar (an
    int as an int64, wrapping) and then converted; the alpha returned gives Sub that product.
    """
    if alpha == 1 and type(alpha) is int:
        return alpha  # the common case (not True: a bool alpha is checked, it equals 1 too)
    if type(alpha) is int:  # (inline: no call for the float alphas of updates)
        check_python_int(alpha)  # (the parser's error comes first)
    numpy_dtype = np.dtype(dtype) if dtype is not None else np.asarray(operand(a)).dtype
    kind = numpy_dtype.kind
    if isinstance(alpha, (bool, np.bool_)) and kind != "b":
        raise RuntimeError(errors.BOOL_ALPHA)
    if kind != "f" and isinstance(alpha, (float, np.floating)):
        raise RuntimeError(errors.FLOAT_ALPHA_FOR_INTEGERS)
    if kind == "b":
        return bool(alpha)
    if not subtract:
        return checked_value(alpha, numpy_dtype)
    if isinstance(alpha, (int, np.integer)):
        negated = (0x8000000000000000 - int(alpha)) % (1 << 64) - 0x8000000000000000
    else:
        negated = -alpha
    checked = checked_value(negated, numpy_dtype)
    if not checked == negated == -alpha:  # (a wrap on the way: Sub takes what PyTorch adds)
        alpha = -checked
    return wrap_integer(alpha, numpy_dtype) if kind in "iu" else alpha


class Sub(Op):
    """z = x - alpha * y;  dx = grad,  dy = -alpha * grad.  Saves nothing."""

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("alpha",)
    saves = ()  # (declared: no generic naming to wait for, autograd/function.py)
    saved_options = ("alpha",)
    forward_kernel = np.subtract  # forward's work on the inputs alone (alpha=1), as Add's

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, alpha: Any = 1, dtype: Any = None) -> np.ndarray:
        # (``alpha`` is a declared option with a default: recording notes it, Function.fields)
        if alpha != 1:
            return _with_scaled(np.subtract, ctx, x, y, alpha, dtype)
        return x - y if dtype is None else np.subtract(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        # (PyTorch's maybe_multiply(-grad, alpha): NegBackward0, then MulBackward1)
        return grad, -grad if ctx.alpha == 1 else run(MulScalar, -grad, ctx.alpha), None, None


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input - alpha * other``, with broadcasting."""
    if alpha == 1 and type(alpha) is int:  # the default: as ``input - other``
        return _record_sub(input, other)
    a, b, dtype = _promote_subtraction(input, other, alpha)
    return Sub._record_options(a, b, _checked_alpha(a, dtype, alpha, subtract=True), dtype)


def sub_promoted(input: Any, other: Any) -> Any:
    """``input - other`` for operands that are not two floating tensors of one dtype."""
    a, b, dtype = _promote_subtraction(input, other)
    return Sub.apply(a, b) if dtype is None else Sub.apply(a, b, 1, dtype)


# (as ``_record_add``; floating tensors only: bool - bool raises)
_record_sub = binary_operator(Sub, sub_promoted, floats_only=True)


def sub_(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``input -= alpha * other`` in place."""
    check_scalar_arguments(other, alpha)  # (the parser's errors come first)
    check_bool_subtraction(input, other)
    other, dtype = promote_inplace(input, other, method="sub_")
    alpha = _checked_alpha_inplace(input, other, dtype, alpha, subtract=True)
    return apply_inplace(Sub, input, other, alpha, dtype)


def _promote_subtraction(input: Any, other: Any, *options: Any) -> tuple[Any, Any, Any]:
    """``promote`` for sub and rsub, after PyTorch's checks in its order.

    The parser's first (a non-number operand, an int no Scalar holds, among ``options`` too),
    then sub's refusal of bools (before promotion: ``bool_tensor - 2**63`` names the bool).
    """
    check_operand(other, "other")
    check_scalar_arguments(input, other, *options)  # (``input`` a number too: sub(2, x))
    check_bool_subtraction(input, other)
    return promote(input, other)


def check_bool_subtraction(a: Any, b: Any) -> None:
    """PyTorch's refusal to subtract bools (``a - b`` with either a bool tensor or number)."""
    a_bool, b_bool = (isinstance(v, bool) or is_bool(v) for v in (a, b))  # True counts too
    if a_bool and b_bool:
        raise RuntimeError(errors.SUBTRACT_TWO_BOOLS)
    if a_bool or b_bool:
        raise RuntimeError(errors.SUBTRACT_BOOL)


class Rsub(Op):
    """z = other - alpha * x for a number ``other`` (``2 - x``);  dx = -alpha * grad.

    Saves nothing. This class records ``alpha = 1`` (the operator's case: its node keeps no
    option, which keeps ``2 - x`` as quick as before); ``RsubAlpha`` declares ``alpha``.
    """

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    result_layout = staticmethod(elementwise_with_number)  # (TensorIterator's)

    saved_options = {"alpha": constant(1)}
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: Any, dtype: Any, alpha: Any = 1) -> np.ndarray:
        if alpha != 1:
            return _with_scaled(np.subtract, ctx, other, x, alpha, dtype)
        return np.subtract(other, x, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        # (PyTorch's maybe_multiply(-grad, alpha), as Sub's; Rsub's own node has no alpha)
        alpha = getattr(ctx, "alpha", 1)
        return -grad if alpha == 1 else run(MulScalar, -grad, alpha), None, None, None


class RsubAlpha(Rsub):
    """``Rsub`` with an ``alpha`` other than the int 1, which its node keeps (``_saved_alpha``)."""

    fields = ("alpha",)
    saved_options = ("alpha",)
    node_name = "RsubBackward1"


class RsubTensor(Sub):
    """z = other - alpha * x of two tensors: ``Sub`` with its inputs in ``rsub``'s order.

    The node's edges follow rsub's arguments (``x`` first), PyTorch's ``RsubBackward0``;
    forward and backward are Sub's, the inputs and their gradients swapped.
    """

    node_name = "RsubBackward0"
    forward_kernel = None  # (Sub's kernel would take the inputs in sub's order)
    no_grad_kernel = None

    @staticmethod
    def forward(ctx: Any, x: Any, other: Any, alpha: Any = 1, dtype: Any = None) -> np.ndarray:
        return Sub.forward(ctx, other, x, alpha, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        d_other, d_x, _, _ = Sub.backward(ctx, grad)
        return d_x, d_other, None, None


def rsub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``other - alpha * input``: ``sub`` with its operands swapped.

    Example:
        >>> import minigrad
        >>> minigrad.rsub(minigrad.tensor([1.0, 2.0]), 5, alpha=2)
        tensor([3., 1.])
    """
    if not isinstance(other, TensorBase):
        if alpha == 1 and type(alpha) is int:
            return rsub_number(input, other)
        a, b, dtype = _promote_subtraction(input, other, alpha)
        return RsubAlpha.apply(a, b, dtype, _checked_alpha(a, dtype, alpha, subtract=True))
    a, b, dtype = _promote_subtraction(input, other, alpha)
    shape_a, shape_b = a._array.shape, b._array.shape
    if shape_a != shape_b:  # (PyTorch's kernel is ``other - input``: its text names them so)
        try:
            np.broadcast_shapes(shape_b, shape_a)
        except ValueError:
            raise RuntimeError(errors.broadcast_mismatch(shape_b, shape_a)) from None
    alpha = _checked_alpha(a, dtype, alpha, subtract=True)
    if alpha == 1 and type(alpha) is int and dtype is None:
        return RsubTensor.apply(a, b)  # (options left to forward's defaults: the fast branch)
    return RsubTensor.apply(a, b, alpha, dtype)


def rsub_number(input: Any, other: Any) -> Any:
    """``other - input`` for a number ``other``, promoted and checked.

    ``2 - x`` comes here for what ``Tensor.__rsub__``'s fast branch leaves (ints past one
    digit, integer tensors): ``promote`` raises the parser's OverflowError for an int no
    Scalar holds (``2**70 - x``).
    """
    a, b, dtype = _promote_subtraction(input, other)
    return Rsub.apply(a, b, dtype)


class Mul(Op):
    """z = x * y;  dx = grad * y,  dy = grad * x.

    Saves each operand only if the *other* one needs a gradient, as PyTorch does: after
    ``z = x * y`` with only ``x`` requiring grad, writing ``x`` in place is still legal.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `other` before `self` (names' order)
    saved_as_arguments = True  # backward(ctx, grad, x, y): the runner hands them over (Op)
    saves_for_the_other = True  # x if y needs a gradient, y if x does: recording saves them
    keeps_dtype = True  # np.multiply of two arrays of one dtype gives that dtype
    forward_kernel = np.multiply  # forward's work on the inputs alone: recording calls it

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any = None) -> np.ndarray:
        # (float16 times a number: PyTorch takes the number in float32, ops/opmath.py; x is
        # an array when dtype is None: promote's fast branch)
        if (x.dtype if dtype is None else dtype) is FLOAT16 and is_wide_scalar(y):
            return with_scalar(np.multiply, x, y)
        return np.multiply(x, y) if dtype is None else np.multiply(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any, x: Any, y: Any) -> tuple[Any, Any, None]:
        # Each operand is saved exactly when the other needs a gradient (``saves_for_the_other``):
        # a None says that no gradient is needed, without reading ``ctx.needs_input_grad``.
        return (
            None if y is None else grad * y,
            None if x is None else grad * x,
            None,
        )


def mul(input: Any, other: Any) -> Any:
    """``input * other``, with broadcasting."""
    return _record_mul(input, other)


def mul_promoted(input: Any, other: Any) -> Any:
    """``input * other`` for operands that are not two tensors of one dtype: promoted."""
    a, b, dtype = promote(input, other)
    return Mul.apply(a, b) if dtype is None else Mul.apply(a, b, dtype)


_record_mul = binary_operator(Mul, mul_promoted, floats_only=False)  # (as ``_record_add``)


def mul_(input: Any, other: Any) -> Any:
    """``input *= other`` in place."""
    other, dtype = promote_inplace(input, other, method="mul_")
    return apply_inplace(Mul, input, other, dtype)


class Div(Op):
    """z = x / y;  dx = grad / y,  dy = -grad * ((x / y) / y).

    Saves ``y`` whenever anything needs a gradient, and ``x`` only if ``y`` does (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `other` before `self` (names' order)

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any = None) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        if (x.dtype if dtype is None else dtype) is FLOAT16 and is_wide_scalar(y):
            return with_scalar(np.true_divide, x, y)  # (as Mul's)
        return x / y if dtype is None else np.true_divide(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            grad / y if ctx.needs_input_grad[0] else None,
            -grad * ((x / y) / y) if ctx.needs_input_grad[1] else None,  # PyTorch's order
            None,
        )


def div(input: Any, other: Any, *, rounding_mode: Any = NOT_GIVEN) -> Any:
    """``input / other`` (true division: integers give float32), with broadcasting.

    ``rounding_mode``: ``"trunc"`` rounds the quotient toward zero, ``"floor"`` down (integers
    then stay integers); given, even as None, PyTorch records ``DivBackward2`` (DivMode).
    """
    if rounding_mode is not NOT_GIVEN:
        return _div_mode(input, other, rounding_mode)
    return _record_div(input, other)


def div_promoted(input: Any, other: Any) -> Any:
    """``input / other`` for operands that are not two floating tensors of one dtype."""
    a, b, dtype = promote(input, other, true_divide=True)
    return Div.apply(a, b) if dtype is None else Div.apply(a, b, dtype)


# (as ``_record_add``; floating tensors only: integers divide in float32)
_record_div = binary_operator(Div, div_promoted, floats_only=True)


def div_(input: Any, other: Any, *, rounding_mode: Any = NOT_GIVEN) -> Any:
    """``input /= other`` in place (an integer tensor cannot hold a true quotient)."""
    if rounding_mode is not NOT_GIVEN:
        return _div_mode(input, other, rounding_mode, method="div_")
    other, dtype = promote_inplace(input, other, true_divide=True, method="div_")
    return apply_inplace(Div, input, other, dtype)


# --- PyTorch's nodes for a tensor times / over / plus a number in C++ -------------------------
# (``tensor * double`` in a C++ formula records MulBackward1, not the MulBackward0 of Python's
# ``x * 2.0``). Some loss graphs and some backward formulas (mean's) contain them.


class MulScalar(Op):
    """y = x * c for a number c (C++'s ``tensor * double``);  dx = grad * c.  Saves nothing.

    PyTorch records ``MulBackward1`` here, not the ``MulBackward0`` of Python's ``x * 2.0``.
    """

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    fields = ("c",)
    saved_options = {"other": "c"}

    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: float) -> np.ndarray:
        ctx.c = c
        if x.dtype.kind in "biu":  # (PyTorch's promotion: an integer tensor times a float
            # number computes in the default float dtype, not numpy's float64)
            return np.multiply(x, c, dtype=result_type(x, c))
        if x.dtype is FLOAT16:  # (the number in float32: Mul's rule, ops/opmath.py)
            return with_scalar(np.multiply, x, c)
        return x * c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        # (C++'s ``grad * other`` again: a create_graph records MulBackward1, as PyTorch's)
        return run(MulScalar, grad, ctx.c), None


class DivScalar(Op):
    """y = x / c for a number c (C++'s ``tensor / int``);  dx = grad / c.  Saves nothing."""

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    fields = ("c",)
    saved_options = {"other": "c"}

    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: Any) -> np.ndarray:
        ctx.c = c
        if x.dtype.kind in "biu":  # (true division of integers: in the default float dtype)
            return np.true_divide(x, c, dtype=default_float())
        if x.dtype is FLOAT16:  # (as MulScalar's)
            return with_scalar(np.true_divide, x, c)
        return x / c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad / ctx.c, None


class AddScalar(Op):
    """y = x + c for a number c (C++'s ``tensor + double``);  dx = grad.  Saves nothing."""

    saves = ()  # (declared: its node has no slot for saved values, autograd/function.py)
    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: Any) -> np.ndarray:
        return x + c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad, None


class DivMode(Op):
    """z = x / y rounded by ``rounding_mode``: None (true division), "trunc" or "floor".

    dx = grad / y and dy = -grad * ((x / y) / y) for true division; zeros for a rounding mode
    (the quotient is a step function). Whatever the mode, saves ``other`` and, if ``other``
    needs a gradient, ``self`` (PyTorch's DivBackward2).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("rounding_mode",)
    saved_options = ("rounding_mode",)

    node_name = "DivBackward2"
    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `other` before `self` (names' order)

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, rounding_mode: str | None, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None, y)
        ctx.rounding_mode = rounding_mode
        if rounding_mode is None:
            return np.true_divide(x, y, dtype=dtype)
        _check_integer_divisor(x, y, dtype)
        if rounding_mode == "floor":
            return floor_divide_kernel(x, y, dtype)
        if np.dtype(dtype).kind == "f":
            if dtype is FLOAT16 and np.size(y) == 1:  # (in float32, as floor_divide_kernel)
                return with_scalar(_truncated_quotient, x, y)
            return _truncated_quotient(x, y, dtype)
        # Integers: floor division, one up where it rounded a negative inexact quotient down.
        inexact = np.remainder(x, y, dtype=dtype) != 0
        return np.floor_divide(x, y, dtype=dtype) + (inexact & ((x < 0) != (y < 0)))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        if ctx.rounding_mode is not None:
            return (zeros_like_grad(grad) if needs[0] else None,
                    zeros_like_grad(grad) if needs[1] else None, None, None)
        return (
            grad / y if needs[0] else None,
            -grad * ((x / y) / y) if needs[1] else None,  # PyTorch's order
            None,
            None,
        )


def div_method(input: Any, other: Any, *, rounding_mode: Any = NOT_GIVEN) -> Any:
    """``Tensor.div``: ``div``, whose TypeErrors list the method's overloads."""
    if rounding_mode is not NOT_GIVEN:
        return _div_mode(input, other, rounding_mode, method="div")
    return div(input, other)


def _div_mode(input: Any, other: Any, rounding_mode: Any, method: str | None = None) -> Any:
    """``div`` with a ``rounding_mode`` (DivBackward2), out of place or (``div_``) in place.

    ``method``: the Tensor method called (``div``, ``div_``), which PyTorch's messages name
    without the ``input`` argument.
    """
    if rounding_mode is not None and not isinstance(rounding_mode, str):
        _raise_invalid_div(input, other, rounding_mode, method)
    if rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError(errors.div_rounding_mode(rounding_mode))
    true_divide = rounding_mode is None
    try:
        if method == "div_":
            b, dtype = promote_inplace(input, other, true_divide=true_divide, method="div_")
        else:
            input, b, dtype = promote(input, other, true_divide=true_divide)
    except TypeError:  # other is no tensor nor number: no overload fits
        _raise_invalid_div(input, other, rounding_mode, method)
    dtype = dtype if dtype is not None else input._array.dtype
    if dtype == np.bool_ and not true_divide:  # (a bool result: no kernel rounds it)
        # (the tensor's name in the message: ``input`` may be a number, a wrapped one)
        check_float_kernel(f"div_{rounding_mode}_cpu",
                           input if isinstance(input, TensorBase) else b)
    if not isinstance(b, TensorBase):
        # PyTorch wraps a number into a 0-d tensor (float64, int64 or bool) and saves that.
        b = constant_tensor(np.asarray(b, dtype=_WRAPPED_NUMBER_DTYPES[type(b)]))
    if method == "div_":
        return apply_inplace(DivMode, input, b, rounding_mode, dtype)
    return DivMode.apply(input, b, rounding_mode, dtype)


_WRAPPED_NUMBER_DTYPES = {bool: np.bool_, int: np.int64, float: np.float64}


def _raise_invalid_div(input: Any, other: Any, rounding_mode: Any, method: str | None) -> None:
    """PyTorch's TypeError when no overload of ``div`` fits the arguments."""
    if method is None:
        text = errors.invalid_arguments(
            "div", (input, other), {"rounding_mode": rounding_mode}, errors.DIV_SIGNATURES)
    else:
        text = errors.invalid_arguments(
            method, (other,), {"rounding_mode": rounding_mode}, errors.DIV_METHOD_SIGNATURES)
    raise TypeError(text)


class FloorDivide(Op):
    """z = floor(x / y).  PyTorch has no derivative for it: backward raises, as there.

    Its node is PyTorch's ``torch::autograd::NotImplemented`` (printed ``<NotImplemented>``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = NOT_IMPLEMENTED
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, y, dtype)
        return floor_divide_kernel(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::floor_divide"))


def floor_divide(input: Any, other: Any) -> Any:
    """``input // other``: division rounded down (not differentiable, as in PyTorch)."""
    a, b, dtype = promote(input, other)
    tensor = a if isinstance(a, TensorBase) else b
    if (dtype if dtype is not None else tensor._array.dtype) == np.bool_:
        check_float_kernel("div_floor_cpu", tensor)  # (bool // bool: no kernel)
    # (one node for every operand: its edges go only to the operands that require grad, as
    # PyTorch's NotImplemented node's: graph.NOT_IMPLEMENTED_EDGES)
    return FloorDivide.apply(a, b, dtype)




class FloorDivideInplace(FloorDivide):
    """``floor_divide_``: PyTorch's message names the in-place op."""

    node_name = NOT_IMPLEMENTED

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::floor_divide_"))





def floor_divide_(input: Any, other: Any) -> Any:
    """``input //= other`` in place."""
    other, dtype = promote_inplace(input, other)
    if dtype == np.bool_:
        check_float_kernel("div_floor_cpu", input)
    return apply_inplace(FloorDivideInplace, input, other, dtype)


def true_divide(input: Any, other: Any) -> Any:
    """Alias of ``div``."""
    return div(input, other)


def remainder_kernel(x: Any, y: Any, dtype: Any = None) -> Any:
    """``x % y`` as PyTorch's kernel: ``fmod``, plus ``y`` where the signs differ.

    numpy's ``remainder`` gives a zero the sign of ``y`` (``0.0 % -2.0`` is -0.0); PyTorch's
    keeps fmod's, the sign of ``x`` (0.0). Integers: numpy's is PyTorch's.
    """
    mod = np.fmod(x, y, dtype=dtype)
    if mod.dtype.kind != "f":
        return np.remainder(x, y, dtype=dtype)
    differs = (mod != 0) & ((np.less(y, 0)) != (mod < 0))
    return np.where(differs, np.add(mod, y, dtype=mod.dtype), mod)


class Remainder(Op):
    """z = x - floor(x / y) * y (Python's %);  dx = grad,  dy = -grad * floor(x / y).

    The result has the sign of y. Saves x and y only if y needs a gradient (PyTorch).
    ``Fmod`` (ops/elementwise_extra.py) is the same with the quotient truncated.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "RemainderBackward1"
    num_inputs = 2
    kernel: ClassVar[Callable[..., Any]] = staticmethod(remainder_kernel)
    rounding: ClassVar[np.ufunc] = np.floor  # how the kernel rounds the quotient x / y

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, y, dtype)
        needs_y = ctx.needs_input_grad[1]
        ctx.save_for_backward(x if needs_y else None, y if needs_y else None)
        return cls.kernel(x, y, dtype=dtype)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        dy = -grad * cls.rounding(x / y) if ctx.needs_input_grad[1] else None
        return grad, dy, None


class RemainderScalar(Op):
    """z = x % other (a number);  dx = grad.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_with_number)  # (TensorIterator's)

    node_name = "RemainderBackward0"
    kernel: ClassVar[Callable[..., Any]] = staticmethod(remainder_kernel)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, other: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(x, other, dtype)
        return cls.kernel(x, other, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad, None, None


class RemainderOfNumber(Op):
    """z = other % y for a number ``other`` (``3 % x``, PyTorch's ``remainder.Scalar_Tensor``).

    PyTorch has no derivative for it: its node is ``torch::autograd::NotImplemented``, with an
    edge to ``y`` alone, and backward raises. It computes with ``Remainder``'s kernel.
    """

    node_name = NOT_IMPLEMENTED

    @staticmethod
    def forward(ctx: Any, y: np.ndarray, other: Any, dtype: Any) -> np.ndarray:
        _check_integer_divisor(other, y, dtype)
        return Remainder.kernel(other, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::remainder"))




def remainder(input: Any, other: Any) -> Any:
    """Python's ``%``: ``input - floor(input / other) * other`` (the sign of ``other``)."""
    a, b, dtype = promote(input, other)
    if (dtype if dtype is not None else operand(a).dtype) == np.bool_:
        check_float_kernel("remainder_cpu", a if isinstance(a, TensorBase) else b)
    if not isinstance(operand(a), np.ndarray):
        return RemainderOfNumber.apply(b, a, dtype)  # (``3 % x``: no derivative)
    if isinstance(operand(b), np.ndarray):
        return Remainder.apply(a, b, dtype)
    return RemainderScalar.apply(a, b, dtype)


def remainder_(input: Any, other: Any) -> Any:
    """``input %= other`` in place."""
    other, dtype = promote_inplace(input, other)
    if dtype == np.bool_:
        check_float_kernel("remainder_cpu", input)
    if isinstance(other, TensorBase):
        return apply_inplace(Remainder, input, other, dtype)
    return apply_inplace(RemainderScalar, input, other, dtype)


class PairwiseExtreme(Op):
    """z = max(x, y) (``Maximum``) or min(x, y) (``Minimum``) elementwise (nan wins).

    The gradient goes to the operand taken; on ties it is split evenly. Saves both operands
    (PyTorch).
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `other` before `self` (names' order)

    kernel: ClassVar[np.ufunc]  # np.maximum or np.minimum
    loses: ClassVar[Callable[[Any, Any], Any]]  # where the first operand is not taken: < or >

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return cls.kernel(y, x, dtype=dtype)  # equal: PyTorch gives x (0.0 vs -0.0)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            _taken_share(grad, x, y, cls.loses(x, y)) if needs[0] else None,
            _taken_share(grad, x, y, cls.loses(y, x)) if needs[1] else None,
            None,
        )


def _taken_share(grad: Any, x: Any, y: Any, lost: Any) -> Any:
    """An operand's gradient of max/min: ``grad``, halved on ties, 0 where ``lost``.

    PyTorch's formula, per operand: ``where(self == other, grad / 2, grad).masked_fill_(lost,
    0)``, which a double backward shows as MaskedFillBackward0, WhereBackward0, DivBackward1;
    its ``masked_fill_`` leaves the gradient at version 1.
    """
    share = run(MaskedFill, np.where(x == y, run(DivScalar, grad, 2), grad), lost, 0)
    if isinstance(share, TensorBase):
        share._version_counter().bump()
        return share
    return written(share, 1)


class Maximum(PairwiseExtreme):
    """z = max(x, y) elementwise (nan wins);  the gradient goes to the larger operand."""

    kernel = np.maximum
    loses = staticmethod(operator.lt)


def maximum(input: Any, other: Any) -> Any:
    """The larger of two tensors, elementwise (nan if either is nan)."""
    _require_tensor("maximum", 2, "other", other)
    a, b, dtype = promote(input, other)
    return Maximum.apply(a, b, dtype)


def _require_tensor(name: str, position: int, argname: str, value: Any) -> None:
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(name, argname, "Tensor", type(value).__name__, position)
        )


class Atan2(Op):
    """z = atan2(x, y), the angle of the point (y, x);  dx = grad * y * r,  dy = grad * -x * r.

    ``r = 1 / (x**2 + y**2)``, taken as 0 where that is infinite: at the origin (or where the
    squares underflow) PyTorch's gradient is 0, not nan. Saves both operands (PyTorch).
    """

    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `other` before `self` (names' order)
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


def atan2(input: Any, other: Any) -> Any:
    """The angle of the point ``(other, input)``: ``atan(input / other)`` in its quadrant."""
    _require_tensor("atan2", 2, "other", other)
    a, b, dtype = promote(input, other, true_divide=True)
    return Atan2.apply(a, b, dtype)


def atan2_(input: Any, other: Any) -> Any:
    """``atan2(input, other)``, in place."""
    _require_tensor("atan2", 2, "other", other)
    other, dtype = promote_inplace(input, other, true_divide=True)
    return apply_inplace(Atan2, input, other, dtype)


class Minimum(PairwiseExtreme):
    """z = min(x, y) elementwise (nan wins);  the gradient goes to the smaller operand."""

    kernel = np.minimum
    loses = staticmethod(operator.gt)


def minimum(input: Any, other: Any) -> Any:
    """The smaller of two tensors, elementwise (nan if either is nan)."""
    _require_tensor("minimum", 2, "other", other)
    a, b, dtype = promote(input, other)
    return Minimum.apply(a, b, dtype)


arctan2 = atan2
# NumPy's names, which PyTorch takes too (the same functions: the same nodes and messages)
subtract, subtract_ = sub, sub_
multiply, multiply_ = mul, mul_
divide, divide_ = div, div_


def floor_divide_kernel(x: Any, y: Any, dtype: Any) -> np.ndarray:
    """``x // y`` as PyTorch's ``div_floor_kernel`` (Python's floor division, via fmod).

    numpy's floor_divide is the same algorithm, and gives PyTorch's values but for float16
    (PyTorch's one-element divisor is its ``is_scalar(2)``):
    - divided by one element (a number, a 0-d or one-element tensor): in float32, the divisor
      at its own value (a number is not rounded to float16 first), rounded once
      (``half(1.5) // 0.1`` is 14, as float32's; 15 with 0.1 as float16);
    - otherwise PyTorch's vectorized float16 kernel, every step rounded to float16
      (``_floor_divide_in_half_steps``); numpy computes in float32 and rounds once.
    """
    if (getattr(x, "dtype", None) if dtype is None else dtype) is FLOAT16:
        if np.size(y) == 1:
            return with_scalar(np.floor_divide, x, y)
        return _floor_divide_in_half_steps(np.asarray(x, FLOAT16), np.asarray(y, FLOAT16))
    return np.floor_divide(x, y, dtype=dtype)


def _floor_divide_in_half_steps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """PyTorch's ``div_floor_floating_vec`` on float16 vectors: each operation rounded.

    (Its Vectorized<Half> computes each operation in float32 and rounds it to float16, as
    numpy's float16 arithmetic does.)
    """
    one, zero = np.float16(1), np.float16(0)
    mod = np.fmod(a, b)
    quotient = (a - mod) / b
    quotient = np.where((mod != 0) & ((b < 0) ^ (mod < 0)), quotient - one, quotient)
    floored = np.floor(quotient)
    floored = np.where(quotient - floored > 0.5, floored + one, floored)
    direct = a / b
    floored = np.where(quotient == 0, np.copysign(zero, direct), floored)
    return np.where(b == 0, direct, floored)


def _truncated_quotient(x: Any, y: Any, dtype: Any = None) -> np.ndarray:
    """``trunc(x / y)``: div's ``rounding_mode="trunc"`` for floating dtypes."""
    return np.trunc(np.true_divide(x, y, dtype=dtype))


def _check_integer_divisor(x: Any, y: Any, dtype: Any) -> None:
    # Integer division by zero is an error in PyTorch (numpy would give 0 with a warning).
    kind = (np.dtype(dtype) if dtype is not None else np.result_type(x, y)).kind
    if kind in "iub" and np.any(np.asarray(y) == 0):
        # (shapes first, as PyTorch's TensorIterator: numpy's error is then the op's
        # broadcasting error, from the recording)
        np.broadcast_shapes(np.shape(x), np.shape(y))
        raise RuntimeError(errors.INTEGER_DIVISION_BY_ZERO)
