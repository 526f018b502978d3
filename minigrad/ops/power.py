"""Powers: ``x ** p`` (a number exponent), ``x ** y`` (two tensors), ``p ** x``, and ``pow_``.

Each op is one class (forward, backward, what it saves); ``pow`` and ``pow_`` pick the class.
The kernels (``scalar_power``, ``_power``) compute what PyTorch's do, which differ from numpy's
power at signed zeros, for 0.5/-0.5/3/-2, for float32 operands and for negative integer
exponents. What each op saves is what PyTorch 2.13 saves: it decides which later in-place writes
make backward raise.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import check_python_int, check_scalar_arguments, checked_value
from minigrad._layout import elementwise_result, elementwise_with_number
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    check_float_kernel,
    operand,
    promote,
    promote_inplace,
    zeros_like_grad,
)
from minigrad.ops.opmath import times_number


class PowScalar(Op):
    """y = x ** p (p a number);  dx = grad * p * x**(p-1), and 0 where p == 0.  Saves x."""

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("exponent",)
    saved_options = ("exponent",)

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, exponent: Any, dtype: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (the no-grad ctx would drop both through Python calls)
            ctx.save_for_backward(x)
            ctx.exponent = exponent
        x_dtype = x.dtype
        if x_dtype is _BOOL and dtype in (None, _BOOL):  # (a bool exponent: no numpy loop)
            return np.logical_or(x, not exponent)  # (0 ** 0 is 1)
        if x_dtype is _FLOAT16:
            checked_value(exponent, x_dtype)  # (PyTorch's kernel takes it as a float16)
        return scalar_power(x, exponent, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return zeros_like_grad(grad), None, None
        # (C++'s ``exponent * self.pow(exponent - 1)``: a float16 power times p in float32)
        return grad * times_number(scalar_power(x, p - 1), p), None, None


# A floating tensor's Python numbers that numpy combines with it as PyTorch promotes them (a
# bool takes the general way: promote and its checks)
_PLAIN_NUMBERS = (int, float)


def pow(input: Any, exponent: Any) -> Any:
    """``input ** exponent``: tensor ** number, tensor ** tensor, or number ** tensor."""
    if type(exponent) is int and (exponent > 0x3FFFFFFF or exponent < -0x3FFFFFFF):
        check_python_int(exponent)  # (the parser's error first; one-digit ints skip the call)
    if type(exponent) in _PLAIN_NUMBERS and isinstance(input, TensorBase) and (
            input._array.dtype.kind == "f"):
        # nothing to promote or check: straight to PowScalar's recording function (``apply``
        # would call it, record.py's options recorder)
        return _record_power(input, exponent, None)
    check_scalar_arguments(input)  # (a number base: the parser's error comes first)
    _check_integer_exponent(input, exponent)
    a, b, dtype = promote(input, exponent)
    if isinstance(operand(b), np.ndarray):
        if (dtype if dtype is not None else operand(b).dtype) == np.bool_:
            check_float_kernel("pow", b)  # (no kernel for a bool exponent tensor)
        if isinstance(operand(a), np.ndarray):
            return Pow.apply(a, b, dtype)
        return RpowScalar.apply(b, a, dtype)
    _check_integer_power(a, b)
    return PowScalar.apply(a, b, dtype)


_record_power = PowScalar._record_options


def _check_integer_exponent(input: Any, exponent: Any) -> None:
    """An integer or bool tensor's int exponent, checked before promotion as PyTorch's kernel.

    No negative power, and an exponent the result's dtype holds (int64 for a bool tensor):
    ``int32_tensor ** 2**31`` raises where ``int32_tensor * 2**31`` wraps.
    """
    if type(exponent) is int and isinstance(input, TensorBase):
        check_python_int(exponent)  # (the parser's error comes first)
        dtype = input._array.dtype
        if dtype.kind in "iub":
            if exponent < 0:
                raise RuntimeError(errors.NEGATIVE_INTEGER_POWER)
            checked_value(exponent, _INT64)  # (an int64 first: 2**63 names int64_t)
            if dtype != np.bool_:
                checked_value(exponent, dtype)


_INT64, _BOOL, _FLOAT16 = np.dtype(np.int64), np.dtype(np.bool_), np.dtype(np.float16)
_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)
_ndarray = np.ndarray


def _check_integer_power(base: Any, exponent: Any) -> None:
    if isinstance(exponent, int) and exponent < 0 and operand(base).dtype.kind in "iub":
        raise RuntimeError(errors.NEGATIVE_INTEGER_POWER)


def scalar_power(x: Any, exponent: Any, dtype: Any = None) -> Any:
    """``x ** exponent`` for a number exponent, as PyTorch's kernel computes it.

    PyTorch computes the exponents 0.5 and -0.5 as sqrt and rsqrt, which differ from a power at
    signed zeros and infinities: sqrt(-0.0) = -0.0, rsqrt(-0.0) = -inf, rsqrt(-inf) = nan
    (``pow`` gives 0.0, inf and 0.0); 3 and -2 as ``x * x * x`` and ``1 / (x * x)`` (a power
    differs from those on ~27 % of values); any other exponent of a float32 tensor through
    ``_power``. A tensor (create_graph) goes through the op itself.
    """
    if not isinstance(x, np.ndarray):
        return x**exponent
    if (x.dtype if dtype is None else dtype) is _FLOAT16:
        # PyTorch's float16 kernel has none of these detours: std::pow in float32 of x and
        # the exponent as float16 (a power of -0.0 or -inf differs from sqrt's), rounded once.
        # Here in double (as ``_power``'s float32), the exponent an array: numpy's loop takes
        # a scalar 0.5 as sqrt (a 0-d x too: as a vector of one).
        wide = x.astype(_FLOAT16, copy=False).astype(_FLOAT64).reshape(-1)
        powers = np.power(wide, np.full(wide.shape, float(np.float16(exponent))))
        return powers.astype(_FLOAT16).reshape(x.shape)
    if exponent == 2:  # (numpy squares: x * x, as PyTorch)
        return np.power(x, exponent, dtype=dtype)
    if exponent == 0.5:
        return np.sqrt(x, dtype=dtype)
    if exponent == -0.5:
        return np.divide(1, np.sqrt(x, dtype=dtype), dtype=dtype)
    if exponent == 3 or exponent == -2:
        if dtype is not None:
            x = x.astype(dtype, copy=False)
        if exponent == 3:
            return x * x * x
        if x.dtype.kind == "f":
            return np.divide(1, x * x, dtype=x.dtype)
    return _power(x, exponent, dtype)


class Pow(Op):
    """z = x ** y (two tensors).  Saves x, y and its result.

    dx = grad * y * x**(y-1) (0 where y == 0);  dy = grad * z * log(x) (0 where x == 0, y >= 0).
    """

    saves = ("self", "exponent", "result")
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    node_name = "PowBackward1"
    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `exponent` before `self` (names' order)

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
            dx = np.where(y == 0, 0, grad * (y * x ** (y - 1)))
        if ctx.needs_input_grad[1]:
            # PyTorch's order: the mask first, the gradient multiplied last (MulBackward0).
            dy = grad * np.where((x == 0) & (y >= 0), 0, z * np.log(x))
        return dx, dy, None


class RpowScalar(Op):
    """z = base ** y (base a number);  dy = grad * z * log(base).  Saves y and its result."""

    result_layout = staticmethod(elementwise_with_number)  # (TensorIterator's)

    fields = ("base",)
    saves = ("exponent", "result")
    saved_options = {"self": "base"}

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
        if ctx.base == 0:  # (PyTorch's order: the mask first, the gradient multiplied last)
            return grad * np.where(y >= 0, 0, z * -np.inf), None, None
        return grad * z * np.log(ctx.base), None, None


def pow_(input: Any, exponent: Any) -> Any:
    """``input **= exponent`` in place (tensor or number exponent)."""
    _check_integer_exponent(input, exponent)
    exponent, dtype = promote_inplace(input, exponent)
    if isinstance(exponent, TensorBase):
        if (dtype if dtype is not None else exponent._array.dtype) == np.bool_:
            check_float_kernel("pow", exponent)  # (as pow's)
        return apply_inplace(Pow, input, exponent, dtype)
    return apply_inplace(PowScalar, input, exponent, dtype)


def _float32_operand(value: Any) -> Any:
    """An operand of a float32 power as PyTorch's kernel takes it: a number rounded to float32.

    (By ``struct``: a third of ``np.float32``'s cost. Past float32's range: inf.)
    """
    if type(value) is _ndarray:
        return value if value.dtype == _FLOAT32 else value.astype(_FLOAT32)
    try:
        return _FLOAT32_FORMAT.unpack(_FLOAT32_FORMAT.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


_FLOAT32_FORMAT = struct.Struct("f")


def _power(x: Any, y: Any, dtype: Any) -> np.ndarray:
    """``x ** y``; for integers a negative exponent gives 0 (1 for 1, +-1 for -1), as PyTorch.

    A float32 power is PyTorch's powf: of both operands as float32 (a Python number too),
    computed here in double and rounded once: ~2 % of values an ulp off PyTorch's (its
    vectorised powf is within an ulp), where numpy's float32 pow is off on ~20 %.
    """
    # (without a dtype the operands' arrays share theirs: a tensor and a number, or promoted)
    if type(y) is _ndarray and y.ndim == 0 and y == 0.5:
        # numpy's loop takes an exponent of one element 0.5 as sqrt (sqrt(-inf) is nan,
        # sqrt(-0.0) -0.0); PyTorch's kernel of two tensors is std::pow's (inf, 0.0).
        shape = np.broadcast_shapes(np.shape(x), y.shape)
        x = np.broadcast_to(x, shape).reshape(-1)
        return _power(x, np.full(x.shape, y, dtype=y.dtype), dtype).reshape(shape)
    if (dtype if dtype is not None else (x if type(x) is _ndarray else y).dtype) == _FLOAT32:
        x, y = _float32_operand(x), _float32_operand(y)
        return np.power(x, y, dtype=_FLOAT64).astype(_FLOAT32)
    try:
        return np.power(x, y, dtype=dtype)
    except ValueError:  # numpy: "Integers to negative integer powers are not allowed."
        negative = np.asarray(y) < 0
        z = np.power(x, np.where(negative, 0, y), dtype=dtype)
        odd = np.asarray(y) % 2 != 0
        special = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0))
        return np.where(negative, special, z).astype(z.dtype, copy=False)
