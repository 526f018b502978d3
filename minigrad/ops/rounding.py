"""Rounding ops: floor, ceil, trunc (fix), round, frac.

Their derivative is zero almost everywhere (frac's is one). On integer tensors rounding is the
identity: the out-of-place ops return a copy and the in-place ones only bump the version, as in
PyTorch; bool tensors raise PyTorch's "not implemented for 'Bool'" (the kernel's name).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._arguments import check_int64
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.ops._helpers import check_float_kernel, operand, zeros_like_grad
from minigrad.ops.unary import Clone


class _Step(Op):
    """A piecewise-constant op: dx = 0 everywhere (PyTorch: zeros).  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

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


def floor_(input: Any) -> Any:
    """``floor`` in place (integer tensors keep their values: a version bump)."""
    return _rounding_inplace(input, Floor)


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


def ceil_(input: Any) -> Any:
    """``ceil`` in place (integer tensors keep their values: a version bump)."""
    return _rounding_inplace(input, Ceil)


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


def trunc_(input: Any) -> Any:
    """``trunc`` in place (integer tensors keep their values: a version bump)."""
    return _rounding_inplace(input, Trunc)


class Round(_Step):
    """y = x rounded half to even;  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.round(x)


def round(input: Any, *, decimals: int = 0) -> Any:
    """Round half to even, to ``decimals`` decimal digits (integer tensors: a copy)."""
    check_int64(decimals)  # (past int64, the parser's error comes first)
    if operand(input).dtype.kind != "f":
        if decimals:
            check_float_kernel("round_cpu", input)
        return _integer_copy(input, "round_vml_cpu")
    if decimals:
        return RoundDecimals.apply(input, decimals)
    return Round.apply(input)


def round_(input: Any, *, decimals: int = 0) -> Any:
    """Round half to even in place (integer tensors keep their values: a version bump)."""
    check_int64(decimals)  # (past int64, the parser's error comes first)
    if decimals:
        if input._array.dtype.kind != "f":
            check_float_kernel("round_cpu", input)
        else:
            return apply_inplace(RoundDecimals, input, decimals)
    return _rounding_inplace(input, Round)


def _rounding_inplace(input: Any, op: type[Op]) -> Any:
    """floor_, ceil_, trunc_, round_: on an integer tensor the values stay (a version bump)."""
    if input._array.dtype == np.bool_:
        check_float_kernel(f"{op.__name__.lower()}_vml_cpu", input)
    return apply_inplace(op if input._array.dtype.kind == "f" else Clone, input)


class RoundDecimals(Op):
    """y = x rounded half to even at ``decimals`` digits;  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

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

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

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


def frac_(input: Any) -> Any:
    """``input - trunc(input)``, in place."""
    check_float_kernel("frac_cpu", input)
    return apply_inplace(Frac, input)


fix = trunc
