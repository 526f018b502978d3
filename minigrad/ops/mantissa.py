"""Floating-point numbers as mantissa and exponent: frexp, ldexp (and ldexp_).

``frexp`` splits ``x = mantissa * 2 ** exponent`` (mantissa in (-1, 1), exponent int32);
``ldexp`` puts them back together: ``input * 2 ** other``. What each saves is PyTorch 2.13's:
frexp the exponent (FrexpBackward0), ldexp ``other`` and its result (LdexpBackward0).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import promote, raw, run
from minigrad.ops.arithmetic import MulScalar
from minigrad.ops.return_types import return_types

_LN2 = math.log(2.0)


class Frexp(Op):
    """(mantissa, exponent) = frexp(x);  dx = grad_mantissa / 2 ** exponent.

    The exponent (int32) has no gradient. Saves the exponent (PyTorch's ``_saved_exponent``).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)
    saves = ("exponent",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mantissa, exponent = np.frexp(x)
        exponent = exponent.astype(np.int32)
        ctx.save_for_backward(exponent)
        return mantissa, exponent

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> Any:
        (exponent,) = ctx.saved_tensors
        return grad / np.exp2(exponent)


def frexp(input: Any) -> Any:
    """``input`` as ``mantissa * 2 ** exponent``: a named tuple (mantissa, exponent).

    The mantissa has ``input``'s dtype and lies in (-1, 1); the exponent is int32. Floating
    inputs only.

    Example:
        >>> import minigrad
        >>> minigrad.frexp(minigrad.tensor([8.0, -0.75]))
        minigrad.return_types.frexp(
        mantissa=tensor([ 0.5000, -0.7500]),
        exponent=tensor([4, 0], dtype=minigrad.int32))
    """
    if input._array.dtype.kind != "f":
        raise RuntimeError(errors.FREXP_NOT_FLOAT)
    mantissa, exponent = Frexp.apply(input)
    return return_types.frexp(mantissa, exponent)


class Ldexp(Op):
    """y = x * 2 ** other;  dx = grad * 2 ** other,  dother = grad * y * ln 2.

    (PyTorch's dx computes ``2 ** other`` in other's dtype: for integers, 0 where other < 0.)

    In the floating dtype both promote to (integers: the default float). Saves ``other`` and
    the result (PyTorch's LdexpBackward0).
    """

    num_inputs = 2
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    saves = ("other", "result")
    fields = ()

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: np.ndarray, dtype: Any = None) -> np.ndarray:
        if dtype is not None:
            x = x.astype(dtype)
        if other.dtype.kind in "iub":  # exactly, as PyTorch's (1e-45 * 2**200 is 2.3e15)
            with np.errstate(over="ignore"):
                result = np.ldexp(x, np.clip(other, -(2**31), 2**31 - 1).astype(np.int32))
        else:
            result = x * np.exp2(other).astype(x.dtype)
        ctx.save_for_backward(other, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        other, result = ctx.saved_tensors
        # (a float grad times an integer tensor keeps the float dtype, as PyTorch's promotion)
        dx = grad * _as_float(_power_of_two(other), grad) if ctx.needs_input_grad[0] else None
        # (C++'s ``tensor * double``: MulBackward1 under create_graph, as PyTorch's)
        dother = run(MulScalar, grad * result, _LN2) if ctx.needs_input_grad[1] else None
        return dx, dother, None


def _power_of_two(other: Any) -> Any:
    """``2 ** other`` as PyTorch's formula computes it: in ``other``'s dtype.

    For an integer ``other`` that is an integer power, wrapping as int64 does: 0 for a
    negative exponent and from 2**64 on, -2**63 at 63 (so PyTorch's gradient of ``ldexp`` is
    0 there, not ``2 ** other``); integers have no gradient of their own, so the value needs
    no history.
    """
    exponent = raw(other)
    if exponent.dtype.kind in "iub":
        inside = (exponent >= 0) & (exponent < 64)
        power = np.left_shift(np.int64(1), np.where(inside, exponent, 0).astype(np.int64))
        return np.where(inside, power, 0)
    return np.exp2(other)


def _as_float(power: Any, grad: Any) -> Any:
    """An integer ``power`` in ``grad``'s float dtype (a float one as it is)."""
    array = raw(power)
    if array.dtype.kind in "iub":
        return array.astype(raw(grad).dtype)
    return power


def _ldexp_call(input: Any, other: Any) -> tuple[Any, Any, Any]:
    """``input``, ``other`` and the floating dtype to compute in (None: input's own)."""
    if isinstance(other, TensorBase) and other._array.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for("ldexp_cpu_exp", "Bool"))
    input, other, dtype = promote(input, other, true_divide=True)
    return input, other, dtype


def ldexp(input: Any, other: Any) -> Any:
    """``input * 2 ** other`` (a floating result; ``other`` is a tensor, often of integers).

    Example:
        >>> import minigrad
        >>> minigrad.ldexp(minigrad.tensor([1.0, 3.0]), minigrad.tensor([3, -1]))
        tensor([8.0000, 1.5000])
    """
    input, other, dtype = _ldexp_call(input, other)
    return Ldexp.apply(input, other) if dtype is None else Ldexp.apply(input, other, dtype)


def ldexp_(input: Any, other: Any) -> Any:
    """``input *= 2 ** other``, in place (a floating ``input`` only)."""
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError(errors.ldexp_cast(array.dtype))
    _, other, dtype = _ldexp_call(input, other)
    if dtype is None or dtype == array.dtype:
        return apply_inplace(Ldexp, input, other)
    return apply_inplace(Ldexp, input, other, dtype)
