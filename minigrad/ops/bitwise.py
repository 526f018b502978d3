"""Bitwise ops: ``bitwise_and``/``or``/``xor``/``not``, the shifts, and the operators behind them.

``&``, ``|``, ``^``, ``~``, ``<<`` and ``>>`` (with their reflected and in-place forms) are these
functions. They exist in PyTorch for integer and bool tensors only (the shifts for integers
only): a floating operand, or a Python float that promotes to one, gets the kernel's
NotImplementedError (``"bitwise_and_cpu" not implemented for 'Float'``). Integer and bool
tensors never require grad, so nothing is recorded; the ops are classes for ``apply_inplace``
(``x &= y``). Operands promote as in any binary op (``bool_tensor & 1`` is int64).

Shifts follow PyTorch's C++ kernels, not numpy's: an amount that is negative or not below the
bit width shifts everything out (``<<`` gives 0, ``>>`` the sign: 0 or -1).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._layout import elementwise_result, elementwise_with_number
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    broadcast_shapes,
    operand,
    promote,
    promote_inplace,
    shape_of,
)


def check_kernel(kernel: str, kinds: str, dtype: np.dtype, *operands: Any) -> None:
    """PyTorch's NotImplementedError where ``kernel`` has no version for ``dtype``.

    ``kinds``: numpy's kind letters the kernel exists for (``"biu"``: bool and integers).
    ``operands`` that do not broadcast get the broadcasting error instead: PyTorch finds the
    result's shape before it picks a kernel.
    """
    if dtype.kind not in kinds:
        if len(operands) == 2:
            broadcast_shapes(shape_of(operands[0]), shape_of(operands[1]))
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(dtype)))


def computed_dtype(a: Any, dtype: Any) -> np.dtype:
    """The dtype a binary op computes in: ``promote``'s, or its first operand's where None."""
    return dtype if dtype is not None else operand(a).dtype


class IntegerKernel(Op):
    """z = kernel(x, y) of integer (or bool) tensors: not differentiable, never recorded.

    Integer and bool tensors cannot require grad, so there is no node to make: the function
    runs ``forward`` on the arrays; the class exists for ``apply_inplace`` (``gcd_``,
    ``x &= y``). Each op names PyTorch's kernel (for
    its message) and the kinds of dtypes it exists for. Saves nothing.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2
    kernel: ClassVar[np.ufunc]
    kernel_name: ClassVar[str]  # PyTorch's, as its NotImplementedError names it
    kinds: ClassVar[str] = "biu"

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        return cls.kernel(x, y, dtype=dtype)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> Any:
        raise AssertionError(f"{cls.__name__} has integer inputs: nothing to differentiate")


def integer_binary(op: type[IntegerKernel], input: Any, other: Any) -> Any:
    """``op(input, other)`` in the promoted dtype, or PyTorch's error for a dtype it lacks."""
    a, b, dtype = promote(input, other)
    check_kernel(op.kernel_name, op.kinds, computed_dtype(a, dtype), a, b)
    # Integer and bool tensors never require grad: nothing to record, so the kernel runs on
    # the arrays (as comparisons do), without the recording machinery (mask & mask is common).
    x, y = operand(a), operand(b)
    try:
        result = op.forward(NO_GRAD_CTX, x, y, dtype)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(np.shape(x), np.shape(y))) from None
    if result.ndim > 1:  # laid out as PyTorch's TensorIterator lays it out
        both = isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
        result = (elementwise_result if both else elementwise_with_number)(result, (x, y))
    return TensorBase.output_class._make(result)


def integer_binary_(op: type[IntegerKernel], input: Any, other: Any, method: str) -> Any:
    """``op`` written into ``input``: the cast check first, then the kernel's (PyTorch's order)."""
    other, dtype = promote_inplace(input, other, method=method)
    check_kernel(op.kernel_name, op.kinds, dtype, input, other)
    return apply_inplace(op, input, other, dtype)


class BitwiseAnd(IntegerKernel):
    """z = x & y, bit by bit (for bools: both True)."""

    kernel = np.bitwise_and
    kernel_name = "bitwise_and_cpu"


class BitwiseOr(IntegerKernel):
    """z = x | y, bit by bit (for bools: either True)."""

    kernel = np.bitwise_or
    kernel_name = "bitwise_or_cpu"


class BitwiseXor(IntegerKernel):
    """z = x ^ y, bit by bit (for bools: exactly one True)."""

    kernel = np.bitwise_xor
    kernel_name = "bitwise_xor_cpu"


def _as_arrays(x: Any, y: Any, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both operands as arrays of the dtype the op computes in."""
    dtype = dtype if dtype is not None else np.result_type(x)
    return np.asarray(x, dtype=dtype), np.asarray(y, dtype=dtype)


class LeftShift(IntegerKernel):
    """z = x << y, wrapping around; 0 where y is negative or not below x's bit width."""

    kernel_name = "lshift_cpu"
    kinds = "iu"

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        x, y = _as_arrays(x, y, dtype)
        outside = (y < 0) | (y >= 8 * x.dtype.itemsize)
        shifted = np.left_shift(x, np.where(outside, 0, y))
        return np.where(outside, x.dtype.type(0), shifted)


class RightShift(IntegerKernel):
    """z = x >> y (arithmetic); where y is negative or not below x's bit width, x's sign.

    PyTorch shifts a signed x by its width less one there (0 or -1), an unsigned one out.
    """

    kernel_name = "rshift_cpu"
    kinds = "iu"

    @classmethod
    def forward(cls, ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        x, y = _as_arrays(x, y, dtype)
        bits = 8 * x.dtype.itemsize
        outside = (y < 0) | (y >= bits)
        shifted = np.right_shift(x, np.where(outside, bits - 1, y))
        if x.dtype.kind == "u":
            return np.where(outside, x.dtype.type(0), shifted)
        return shifted


def bitwise_and(input: Any, other: Any) -> Any:
    """``input & other``, bit by bit, of integer or bool tensors (or numbers).

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_and(minigrad.tensor([12, -1]), minigrad.tensor([10, 6]))
        tensor([8, 6])
    """
    return integer_binary(BitwiseAnd, input, other)


def bitwise_and_(input: Any, other: Any) -> Any:
    """``input &= other`` in place."""
    return integer_binary_(BitwiseAnd, input, other, "bitwise_and_")


def bitwise_or(input: Any, other: Any) -> Any:
    """``input | other``, bit by bit, of integer or bool tensors (or numbers).

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_or(minigrad.tensor([True, False]), minigrad.tensor([False, False]))
        tensor([ True, False])
    """
    return integer_binary(BitwiseOr, input, other)


def bitwise_or_(input: Any, other: Any) -> Any:
    """``input |= other`` in place."""
    return integer_binary_(BitwiseOr, input, other, "bitwise_or_")


def bitwise_xor(input: Any, other: Any) -> Any:
    """``input ^ other``, bit by bit, of integer or bool tensors (or numbers).

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_xor(minigrad.tensor([12, -1]), 10)
        tensor([  6, -11])
    """
    return integer_binary(BitwiseXor, input, other)


def bitwise_xor_(input: Any, other: Any) -> Any:
    """``input ^= other`` in place."""
    return integer_binary_(BitwiseXor, input, other, "bitwise_xor_")


def bitwise_left_shift(input: Any, other: Any) -> Any:
    """``input << other`` of integer tensors (or numbers), wrapping around as C does.

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_left_shift(minigrad.tensor([1, -3, 5]), minigrad.tensor([4, 1, 64]))
        tensor([16, -6,  0])
    """
    return integer_binary(LeftShift, input, other)


def bitwise_left_shift_(input: Any, other: Any) -> Any:
    """``input <<= other`` in place."""
    return integer_binary_(LeftShift, input, other, "bitwise_left_shift_")


def bitwise_right_shift(input: Any, other: Any) -> Any:
    """``input >> other`` of integer tensors (or numbers), keeping the sign.

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_right_shift(minigrad.tensor([16, -7, 5]), minigrad.tensor([2, 1, 64]))
        tensor([ 4, -4,  0])
    """
    return integer_binary(RightShift, input, other)


def bitwise_right_shift_(input: Any, other: Any) -> Any:
    """``input >>= other`` in place."""
    return integer_binary_(RightShift, input, other, "bitwise_right_shift_")


class BitwiseNot(Op):
    """y = ~x, every bit flipped (for bools: not). Integers and bools only: never recorded."""

    elementwise = True
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.invert(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise AssertionError("BitwiseNot has an integer input: nothing to differentiate")


def bitwise_not(input: Any) -> Any:
    """``~input``: every bit flipped, of an integer or bool tensor.

    Example:
        >>> import minigrad
        >>> minigrad.bitwise_not(minigrad.tensor([0, 5, -1]))
        tensor([-1, -6,  0])
    """
    check_kernel("bitwise_not_cpu", "biu", operand(input).dtype)
    return BitwiseNot.apply(input)


def bitwise_not_(input: Any) -> Any:
    """``bitwise_not(input)``, in place."""
    check_kernel("bitwise_not_cpu", "biu", input._array.dtype)
    return apply_inplace(BitwiseNot, input)


def invert(input: Any) -> Any:
    """The ``~`` operator: ``bitwise_not``, with Python's TypeError for a floating tensor."""
    if operand(input).dtype.kind == "f":
        raise TypeError(errors.INVERT_FLOAT)
    return bitwise_not(input)
