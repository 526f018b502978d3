"""More binary math: logaddexp, logaddexp2, hypot, xlogy; and logit, sigmoid's inverse.

Each follows PyTorch's derivatives.yaml: what it saves (``_saved_self``, ``_saved_other``,
``_saved_result``), its formulas, its node names (xlogy has three: a number as either operand
makes ``XlogyBackward1``/``XlogyBackward2``) and its dtype rules (logaddexp, logaddexp2 and
hypot have floating kernels only; xlogy and logit compute integers in the default float).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import float_input, operand, promote, promote_inplace, raw, run
from minigrad.ops.fill import MaskedFill
from minigrad.ops.unary import float_inplace


def _computed_in(x: Any, y: Any, dtype: Any) -> tuple[Any, Any]:
    """The operands as arrays of the dtype the op computes in (None: numpy's own choice)."""
    if dtype is None:
        return x, y
    return np.asarray(x, dtype=dtype), np.asarray(y, dtype=dtype)


def _float_kernel_only(kernel: str, a: Any, dtype: Any) -> None:
    """PyTorch's NotImplementedError where the op's kernel exists for floating types only."""
    result = dtype if dtype is not None else a._array.dtype
    if result.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(result)))


class Logaddexp(Op):
    """z = log(exp(x) + exp(y));  dx = grad / (1 + exp(y - x)),  dy = grad / (1 + exp(x - y)).

    Saves both operands (PyTorch).
    """

    num_inputs = 2
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return np.logaddexp(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad / (1 + np.exp(y - x)) if needs[0] else None,
            grad / (1 + np.exp(x - y)) if needs[1] else None,
            None,
        )


def logaddexp(input: Any, other: Any) -> Any:
    """``log(exp(input) + exp(other))``, without overflow."""
    a, b, dtype = promote(input, other)
    _float_kernel_only("logaddexp_cpu", a, dtype)
    return Logaddexp.apply(a, b, dtype)


class Logaddexp2(Op):
    """z = log2(2**x + 2**y);  dx = grad / (1 + 2**(y - x)),  dy = grad / (1 + 2**(x - y)).

    Saves both operands (PyTorch).
    """

    num_inputs = 2
    broadcasts = True

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return np.logaddexp2(x, y, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad / (1 + 2 ** (y - x)) if needs[0] else None,
            grad / (1 + 2 ** (x - y)) if needs[1] else None,
            None,
        )


def logaddexp2(input: Any, other: Any) -> Any:
    """``log2(2 ** input + 2 ** other)``, without overflow."""
    a, b, dtype = promote(input, other)
    _float_kernel_only("logaddexp2_cpu", a, dtype)
    return Logaddexp2.apply(a, b, dtype)


class Hypot(Op):
    """z = sqrt(x**2 + y**2);  dx = grad * x / z,  dy = grad * y / z.

    Saves the result, and each operand that needs a gradient (PyTorch).
    """

    num_inputs = 2
    broadcasts = True

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        z = np.hypot(x, y, dtype=dtype)
        needs = ctx.needs_input_grad  # (each operand only for its own gradient: PyTorch)
        ctx.save_for_backward(x if needs[0] else None, y if needs[1] else None, z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y, z = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad * x / z if needs[0] else None,
            grad * y / z if needs[1] else None,
            None,
        )


def hypot(input: Any, other: Any) -> Any:
    """``sqrt(input ** 2 + other ** 2)``, without overflow."""
    a, b, dtype = promote(input, other)
    _float_kernel_only("hypot_cpu", a, dtype)
    return Hypot.apply(a, b, dtype)


def hypot_(input: Any, other: Any) -> Any:
    """``hypot(input, other)``, in place."""
    other, dtype = promote_inplace(input, other)  # (the cast's error comes first)
    _float_kernel_only("hypot_cpu", input, dtype)
    return apply_inplace(Hypot, input, other, dtype)


def xlogy_array(x: Any, y: Any, dtype: Any) -> np.ndarray:
    """``x * log(y)``, 0 where x is 0 (unless y is nan), PyTorch's kernel on arrays."""
    x, y = _computed_in(x, y, dtype)
    product = np.asarray(x * np.log(y))
    return np.where((np.asarray(x) == 0) & ~np.isnan(y), product.dtype.type(0), product)


class Xlogy(Op):
    """z = x * log(y), 0 where x is 0 (nan where y is nan).

    dx = xlogy(grad, y), 0 where x == 0 and y <= 0 (PyTorch's ``masked_fill``);
    dy = grad * x / y. Saves both operands (PyTorch).
    """

    num_inputs = 2
    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, y)
        return xlogy_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx = None
        if needs[0]:
            kept = (raw(x) == 0) & (raw(y) <= 0)  # (a constant: the mask has no gradient)
            dx = run(MaskedFill, run(Xlogy, grad, y, None), kept, 0)
        return dx, grad * x / y if needs[1] else None, None


class XlogyOfNumber(Op):
    """xlogy of a tensor and a number: the node keeps the number (``number``), not saved."""

    num_inputs = 2
    broadcasts = True
    fields = ("number",)


class XlogyFirstNumber(XlogyOfNumber):
    """z = xlogy(x, y) of a number x (PyTorch's ``XlogyBackward1``);  dy = grad * x / y.

    Saves ``y``, and shows the number as ``_saved_self``.
    """

    node_name = "XlogyBackward1"
    saves = ("other",)
    saved_options = {"self": "number"}

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(y)
        ctx.number = x
        return xlogy_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[None, Any, None]:
        (y,) = ctx.saved_tensors
        return None, grad * ctx.number / y, None


class XlogySecondNumber(XlogyOfNumber):
    """z = xlogy(x, y) of a number y (PyTorch's ``XlogyBackward2``).

    dx = grad * log(y), or grad * xlogy(x != 0, y) where y <= 0 (so 0 where x is 0).
    Saves ``x``, and shows the number as ``_saved_other``.
    """

    node_name = "XlogyBackward2"
    saves = ("self",)
    saved_options = {"other": "number"}

    @staticmethod
    def forward(ctx: Any, x: Any, y: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.number = y
        return xlogy_array(x, y, dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        number = ctx.number
        # (a constant factor: the mask x != 0 has no gradient, nor has the number)
        mask = True if number > 0 else raw(x) != 0
        return grad * xlogy_array(mask, number, operand(x).dtype), None, None


def op_for_operands(
    input: Any, other: Any, both: type[Op], first: type[Op], second: type[Op]
) -> type[Op]:
    """The op class of a two-operand function whose PyTorch nodes depend on which is a number.

    ``both`` for two tensors, ``first`` when ``input`` is a number, ``second`` when ``other``
    is (xlogy's ``XlogyBackward0/1/2``, xlog1py's and zeta's alike).
    """
    if not isinstance(input, TensorBase):
        return first
    return both if isinstance(other, TensorBase) else second


def _xlogy_class(input: Any, other: Any) -> type[Op]:
    return op_for_operands(input, other, Xlogy, XlogyFirstNumber, XlogySecondNumber)


def xlogy(input: Any, other: Any) -> Any:
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is nan)."""
    a, b, dtype = promote(input, other, true_divide=True)
    return _xlogy_class(input, other).apply(a, b, dtype)


def xlogy_(input: Any, other: Any) -> Any:
    """``xlogy(input, other)``, in place."""
    other, dtype = promote_inplace(input, other, true_divide=True)
    return apply_inplace(_xlogy_class(input, other), input, other, dtype)


class Logit(Op):
    """y = log(z / (1 - z)), z = x clamped to [eps, 1 - eps] if eps is given.

    dx = grad / (x * (1 - x)): nan outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it
    (a negative eps counts as none, as in PyTorch's kernels).
    Saves its input and ``eps`` (PyTorch's ``_saved_eps``, None if not given).
    """

    fields = ("eps",)
    saved_options = ("eps",)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, eps: Any = None) -> np.ndarray:
        ctx.save_for_backward(x)  # (eps, a field with a default: recording keeps it)
        if eps is not None and eps >= 0:  # (a negative eps is PyTorch's "none": no clamp)
            x = np.clip(x, *_logit_bounds(x, eps))
        return np.log(x / (1 - x))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        eps = ctx.eps
        if eps is None or eps < 0:  # (PyTorch's kernel: eps < 0 means no eps)
            # (PyTorch gives grad * inf at 0 and 1: the abs keeps -0.0 from flipping its sign)
            return np.where((x < 0) | (x > 1), np.nan, grad / np.abs(x * (1 - x))), None
        low, high = _logit_bounds(x, eps)
        return np.where((x < low) | (x > high), 0, grad / (x * (1 - x))), None


def _logit_bounds(x: Any, eps: float) -> tuple[Any, Any]:
    """``eps`` and ``1 - eps`` in ``x``'s dtype, computed there as PyTorch's kernel does."""
    dtype = operand(x).dtype.type
    low = dtype(eps)
    return low, dtype(1) - low


def logit(input: Any, eps: float | None = None) -> Any:
    """``log(input / (1 - input))``, sigmoid's inverse; ``eps`` clamps ``input`` first."""
    options = () if eps is None else (float(eps),)
    return Logit.apply(float_input(input), *options)


def logit_(input: Any, eps: float | None = None) -> Any:
    """``logit(input, eps)``, in place (a floating-point tensor only)."""
    return float_inplace(input, Logit, *(() if eps is None else (float(eps),)))
