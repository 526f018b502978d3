"""The gamma family: lgamma, digamma, polygamma, mvlgamma, igamma, igammac.

Each derivative is the next function of the family (d lgamma = digamma, d digamma =
polygamma(1), d polygamma(n) = polygamma(n + 1)), so every formula is differentiable again.
Integer and bool inputs compute in the default float dtype; the kernels (``_special_kernels``)
work in float64 and the result is rounded once to the input's float dtype. Each op saves its
input (PyTorch's ``_saved_self``) and its order (``_saved_n``, ``_saved_p``). The incomplete
gamma functions have a derivative with respect to ``other`` only, as in PyTorch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad._arguments import check_int64_arguments
from minigrad._dtype import default_float, display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace, refused_by_kernel
from minigrad.ops import _special_kernels as kernels
from minigrad.ops._helpers import float_input, is_bool, promote, promote_inplace, run
from minigrad.ops.binary_extra import _computed_in, _float_kernel_only
from minigrad.ops.unary import SavesInput, float_inplace


def in_input_dtype(kernel: Callable[[np.ndarray], np.ndarray]) -> Callable[..., np.ndarray]:
    """``kernel`` (float64) applied to an array of any float dtype, rounded once to that dtype."""

    def apply(x: np.ndarray) -> np.ndarray:
        """The kernel of ``x``, in ``x``'s dtype."""
        return np.asarray(kernel(x)).astype(x.dtype, copy=False)

    apply.__doc__ = kernel.__doc__
    return apply


class Lgamma(SavesInput):
    """y = log|gamma(x)|;  dx = grad * digamma(x).  Saves its input."""

    kernel = staticmethod(in_input_dtype(kernels.lgamma))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * run(Digamma, x)


def lgamma(input: Any) -> Any:
    """The logarithm of the absolute value of the gamma function (inf at 0, -1, -2, ...).

    Example:
        >>> import minigrad
        >>> minigrad.lgamma(minigrad.tensor([0.5, 1.0, 4.0]))
        tensor([0.5724, 0.0000, 1.7918])
    """
    return Lgamma._record(float_input(input))


def lgamma_(input: Any) -> Any:
    """``lgamma`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Lgamma)


class Digamma(SavesInput):
    """y = digamma(x) = d/dx lgamma(x);  dx = grad * polygamma(1, x).  Saves its input."""

    kernel = staticmethod(in_input_dtype(kernels.digamma))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * run(Polygamma, x, 1)


def digamma(input: Any) -> Any:
    """The logarithmic derivative of the gamma function (-inf at +0, nan at -1, -2, ...).

    Example:
        >>> import minigrad
        >>> minigrad.digamma(minigrad.tensor([1.0, 0.5]))
        tensor([-0.5772, -1.9635])
    """
    return Digamma._record(float_input(input))


def digamma_(input: Any) -> Any:
    """``digamma`` in place (a floating-point tensor only: the result cannot be an integer)."""
    return float_inplace(input, Digamma)


class Polygamma(Op):
    """y = polygamma(n, x), the n-th derivative of digamma;  dx = grad * polygamma(n + 1, x).

    Saves its input and ``n`` (PyTorch's ``_saved_self``, ``_saved_n``).
    """

    fields = ("n",)
    saved_options = ("n",)
    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, n: int) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.n = n
        # (float16 in float32, PyTorch's opmath type)
        computed_in = np.float32 if x.dtype.itemsize == 2 else x.dtype
        return kernels.polygamma(n, x, computed_in).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return grad * run(Polygamma, x, ctx.n + 1), None


class PolygammaInPlace(Polygamma):
    """``polygamma_``: Polygamma recorded under PyTorch's in-place node name."""

    node_name = "PolygammaBackward1"


def _check_order(n: int) -> None:
    """PyTorch's refusal of a negative order (and its parser's, of one past int64)."""
    check_int64_arguments(n)  # (past int64, the parser's error first)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


def polygamma(n: int, input: Any) -> Any:
    """The n-th derivative of digamma: ``polygamma(0, x)`` is ``digamma(x)``.

    Example:
        >>> import minigrad
        >>> minigrad.polygamma(1, minigrad.tensor([1.0, 2.0]))
        tensor([1.6449, 0.6449])
    """
    _check_order(n)
    return Polygamma.apply(float_input(input), n)


def polygamma_(input: Any, n: int) -> Any:
    """``polygamma(n, input)`` in place (``Tensor.polygamma_(n)``; floating-point tensors)."""
    _check_order(n)
    return float_inplace(input, PolygammaInPlace, n)


def _mvlgamma_shifts(p: int, x: Any) -> list[float]:
    """PyTorch's ``arange(-p/2 + 0.5, 0.5, 0.5)``: the shifts ``-(p-1)/2, ..., -1/2, 0``."""
    return [-(p - 1) / 2 + j / 2 for j in range(p)]


class Mvlgamma(Op):
    """y = sum over j < p of lgamma(x - j/2) + p (p - 1) / 4 log(pi).

    dx = grad * sum over j < p of digamma(x - j/2).  Saves its input and ``p``.
    """

    fields = ("p",)
    saved_options = ("p",)
    result_layout = staticmethod(elementwise_result)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, p: int) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.p = p
        # PyTorch's order: the lgammas of x + shift summed in the shifts' order, then the
        # constant, all in x's dtype.
        total = np.zeros_like(x)
        for shift in _mvlgamma_shifts(p, x):
            total = total + Lgamma.kernel(x + x.dtype.type(shift))
        return total + x.dtype.type(p * (p - 1) * math.log(math.pi) / 4)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        total = 0
        for shift in _mvlgamma_shifts(ctx.p, x):
            total = total + run(Digamma, x + shift)
        return grad * total, None


def _check_dimension(input: Any, p: int) -> None:
    """PyTorch's refusals of a bool tensor and of p < 1 (and its parser's, of p past int64)."""
    check_int64_arguments(p)  # (past int64, the parser's error first)
    if is_bool(input):
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


def mvlgamma(input: Any, p: int) -> Any:
    """The multivariate log-gamma function of dimension ``p``.

    ``sum over j < p of lgamma(input - j/2) + p (p - 1) / 4 log(pi)``.

    Example:
        >>> import minigrad
        >>> minigrad.mvlgamma(minigrad.tensor([2.5, 3.0]), 2)
        tensor([0.8570, 1.5502])
    """
    _check_dimension(input, p)
    return Mvlgamma.apply(float_input(input), p)


def mvlgamma_(input: Any, p: int) -> Any:
    """``mvlgamma`` in place (a floating-point tensor only: the result cannot be an integer)."""
    _check_dimension(input, p)
    if input._array.dtype.kind != "f":
        # (PyTorch's wording here names the input's dtype as the result's)
        message = (
            f"mvlgamma: result type {display_name(input._array.dtype)} can't be cast to the "
            f"desired output type {display_name(default_float())}"
        )
        raise refused_by_kernel(input, (), RuntimeError(message))
    return float_inplace(input, Mvlgamma, p)


class Igamma(Op):
    """z = P(a, x), the regularized lower incomplete gamma function of a = input, x = other.

    dx = grad * exp((a - 1) log x - x - lgamma(a)); PyTorch has no derivative for a (backward
    raises if a needs one). Saves both operands.
    """

    num_inputs = 2
    broadcasts = True
    kernel = staticmethod(kernels.igamma)
    sign = 1.0

    @classmethod
    def forward(cls, ctx: Any, a: np.ndarray, x: np.ndarray, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(a, x)
        a, x = _computed_in(a, x, dtype)
        return np.asarray(cls.kernel(a, x)).astype(np.result_type(a, x), copy=False)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[None, Any, None]:
        if ctx.needs_input_grad[0]:
            name = cls.__name__.lower()
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        a, x = ctx.saved_tensors
        density = np.exp((a - 1) * np.log(x) - x - run(Lgamma, a))
        return None, grad * density * cls.sign, None


class Igammac(Igamma):
    """z = Q(a, x) = 1 - P(a, x);  dx = -grad * exp((a - 1) log x - x - lgamma(a)).

    No derivative for a, as in PyTorch. Saves both operands.
    """

    kernel = staticmethod(kernels.igammac)
    sign = -1.0


def _incomplete_gamma(op: type[Igamma], input: Any, other: Any) -> Any:
    """``op`` of two tensors, in their promoted dtype (a floating one only, as PyTorch)."""
    a, b, dtype = promote(input, other)
    _float_kernel_only(f"{op.__name__.lower()}_cpu", a, dtype)
    return op.apply(a, b, dtype)


def _incomplete_gamma_(op: type[Igamma], input: Any, other: Any) -> Any:
    """``op`` written into ``input``."""
    other, dtype = promote_inplace(input, other)
    _float_kernel_only(f"{op.__name__.lower()}_cpu", input, dtype)
    return apply_inplace(op, input, other, dtype)


def igamma(input: Any, other: Any) -> Any:
    """The regularized lower incomplete gamma function ``P(input, other)``.

    ``1 / gamma(input) * integral of t**(input - 1) exp(-t) from 0 to other``.

    Example:
        >>> import minigrad
        >>> minigrad.igamma(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 3.0]))
        tensor([0.6321, 0.8009])
    """
    return _incomplete_gamma(Igamma, input, other)


def igamma_(input: Any, other: Any) -> Any:
    """``igamma`` in place."""
    return _incomplete_gamma_(Igamma, input, other)


def igammac(input: Any, other: Any) -> Any:
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P(...)``.

    Example:
        >>> import minigrad
        >>> minigrad.igammac(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 3.0]))
        tensor([0.3679, 0.1991])
    """
    return _incomplete_gamma(Igammac, input, other)


def igammac_(input: Any, other: Any) -> Any:
    """``igammac`` in place."""
    return _incomplete_gamma_(Igammac, input, other)
