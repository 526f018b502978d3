"""More activation functions: celu, threshold, the shrinks, glu, prelu, rrelu and the compositions.

The companion of ``activations.py`` (same conventions): each op is one ``Op`` declaring its
forward, its backward and what it saves, as PyTorch 2.13 records it; the functions have
``torch.nn.functional``'s names and signatures. Where PyTorch's function is a composition in
Python (``softsign`` is ``input / (input.abs() + 1)``: DivBackward0), it is the same
composition here, so users see the same nodes.

The first backwards of threshold, hardshrink, softshrink, glu and rrelu are ops of their own
(``run``), as in PyTorch: under ``create_graph`` they record ``ThresholdBackwardBackward0``,
``HardshrinkBackwardBackward0``, ``GluBackwardBackward0`` ...
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import _random
from minigrad._dtype import check_scalar_arguments, checked_value, display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given, part
from minigrad.ops import unary
from minigrad.ops._helpers import (
    along,
    check_float_kernel,
    operand,
    run,
    wrap_dim,
    zero_where,
    zeros_like_grad,
)
from minigrad.ops.activations import (
    _LEAKY_INPLACE_NEGATIVE,
    Elu,
    EluInplace,
    LeakyReluBackward,
    _in_float32,
)
from minigrad.ops.opmath import times_number
from minigrad.ops.softmax import implicit_softmax_dim

# --- celu -----------------------------------------------------------------------------------


class Celu(Elu):
    """y = x if x > 0 else alpha * (exp(x / alpha) - 1): elu with input_scale = 1 / alpha.

    PyTorch computes it with elu's kernel and derivative (``elu_backward(grad, alpha, 1,
    1 / alpha, self)``), so this is Elu's formula under its own node. Saves its input.
    """

    saved_options = {"alpha": part("coefficients", 0)}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, alpha: float) -> np.ndarray:
        return Elu.forward(ctx, x, alpha, 1.0, 1.0 / alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return Elu.backward(ctx, grad)[0], None


class CeluInplace(EluInplace):
    """``celu_``: elu_'s formula with input_scale = 1 / alpha; saves its result (PyTorch)."""

    saved_options = {"alpha": part("coefficients", 0)}
    node_name = "CeluBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, alpha: float) -> np.ndarray:
        return EluInplace.forward(ctx, x, alpha, 1.0, 1.0 / alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return EluInplace.backward(ctx, grad)[0], None


_CELU_ZERO_ALPHA = "ZeroDivisionError: alpha cannot be 0 for CELU"


def celu(input: Any, alpha: float = 1.0, inplace: bool = False) -> Any:
    """``max(0, input) + min(0, alpha * (exp(input / alpha) - 1))``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.celu(minigrad.tensor([-1.0, 2.0]), alpha=2.0)
        tensor([-0.7869,  2.0000])
    """
    check_scalar_arguments(alpha)  # (the parser's error comes first)
    if alpha == 0:
        raise RuntimeError(_CELU_ZERO_ALPHA)
    check_float_kernel("elu_cpu", input)
    if inplace:
        return apply_inplace(CeluInplace, input, alpha)
    return Celu.apply(input, alpha)


def celu_(input: Any, alpha: float = 1.0) -> Any:
    """``celu`` written into ``input`` (``CeluBackward1``, which saves the result)."""
    return celu(input, alpha, inplace=True)


def celu_aten(input: Any, alpha: float = 1.0) -> Any:
    """``minigrad.celu``: ``nn.functional.celu`` without its ``inplace`` (ATen's signature).

    Example:
        >>> import minigrad
        >>> minigrad.celu(minigrad.tensor([-1.0, 2.0]), 2.0)
        tensor([-0.7869,  2.0000])
    """
    return celu(input, alpha)


# --- gradients that pass outside a band: threshold, hardshrink, softshrink -------------------


class GradientMask(Op):
    """A first backward that is zero where ``stops(x, option)``: f(g, x) = 0 there, g elsewhere.

    d(g) = f(grad, x) (the same op again, as PyTorch's ``*BackwardBackward0``);  d(x) = 0
    (PyTorch's ``zeros_like``). Saves x (``self``). A nan x lets the gradient through, an
    infinite g is zeroed where stopped: PyTorch's ``cond ? 0 : grad``.
    """

    num_inputs = 2
    fields = ("option",)
    saves = ("self",)

    stops: ClassVar[Callable[[Any, Any], Any]]

    @classmethod
    def forward(cls, ctx: Any, g: np.ndarray, x: np.ndarray, option: float) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(x)
            ctx.option = option
        return zero_where(cls.stops(x, option), g)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        (x,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(cls, grad, x, ctx.option) if needs[0] else None
        return d_g, zeros_like_grad(grad) if needs[1] else None, None


def _inside(x: Any, lambd: float) -> Any:
    """-lambd <= x <= lambd (false for nan)."""
    return (x >= -lambd) & (x <= lambd)


class ThresholdGradient(GradientMask):
    """threshold's gradient (PyTorch's ``threshold_backward``): 0 where x <= threshold."""

    node_name = "ThresholdBackwardBackward0"
    saved_options = {"threshold": "option"}
    stops = staticmethod(operator.le)


class HardshrinkGradient(GradientMask):
    """hardshrink's gradient (``hardshrink_backward``): 0 where -lambd <= x <= lambd."""

    node_name = "HardshrinkBackwardBackward0"
    saved_options = {"lambd": "option"}
    stops = staticmethod(_inside)


class SoftshrinkGradient(HardshrinkGradient):
    """softshrink's gradient (``softshrink_backward``): the same band as hardshrink's."""

    node_name = "SoftshrinkBackwardBackward0"


_FLOAT32 = np.dtype(np.float32)


class Threshold(Op):
    """y = value where x <= threshold, else x;  dx = grad where x > threshold.  Saves its input.

    Both numbers are first converted to the input's dtype, as PyTorch's kernel does (an
    integer tensor compares with ``int(threshold)``).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("threshold",)
    saved_options = ("threshold",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, threshold: float, value: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        # (as the kernel converts them: a number the dtype cannot hold raises; float16's
        # threshold is compared as a float32)
        compared = _FLOAT32 if x.dtype == np.float16 else x.dtype
        bound = np.asarray(checked_value(threshold, compared), dtype=compared)
        fill = np.asarray(checked_value(value, x.dtype)).astype(x.dtype)
        return np.where(x <= bound, fill, x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        return run(ThresholdGradient, grad, x, ctx.threshold), None, None


class ThresholdInplace(Threshold):
    """``threshold_``: the same op; it keeps a private copy of the overwritten input (PyTorch)."""

    node_name = "ThresholdBackward1"


def threshold(input: Any, threshold: float, value: float, inplace: bool = False) -> Any:
    """``value`` where ``input <= threshold``, else ``input``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.threshold(minigrad.tensor([-1.0, 0.5, 2.0]), 1.0, 0.0)
        tensor([0., 0., 2.])
    """
    if inplace:
        return threshold_(input, threshold, value)
    _check_threshold(input, threshold, value)
    return Threshold.apply(input, threshold, value)


def threshold_(input: Any, threshold: float, value: float) -> Any:
    """``threshold`` written into ``input`` (``ThresholdBackward1``)."""
    _check_threshold(input, threshold, value)
    return apply_inplace(ThresholdInplace, input, threshold, value)


def threshold_aten(input: Any, threshold: float, value: float) -> Any:
    """``minigrad.threshold``: ``nn.functional.threshold`` without its ``inplace``.

    Example:
        >>> import minigrad
        >>> minigrad.threshold(minigrad.tensor([-1.0, 2.0]), 0.0, 5.0)
        tensor([5., 2.])
    """
    _check_threshold(input, threshold, value)
    return Threshold.apply(input, threshold, value)


def _check_threshold(input: Any, *scalars: Any) -> None:
    """PyTorch's threshold kernel takes every dtype but bool; its Scalars fit a uint64."""
    check_scalar_arguments(*scalars)  # (the parser's error comes first)
    if operand(input).dtype == np.bool_:
        check_float_kernel("threshold_cpu", input)


class Shrink(Op):
    """The shrinks: y = kernel(x, lambd);  dx = grad outside [-lambd, lambd].  Saves its input.

    Subclasses set the kernel and the first backward's op (its node under create_graph).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("lambd",)
    saved_options = ("lambd",)

    kernel: ClassVar[Callable[[np.ndarray, float], np.ndarray]]
    gradient: ClassVar[type[GradientMask]]

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, lambd: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        return cls.kernel(x, lambd)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(cls.gradient, grad, x, ctx.lambd), None


class Hardshrink(Shrink):
    """y = 0 where -lambd <= x <= lambd, else x (nan kept)."""

    kernel = staticmethod(lambda x, lambd: zero_where(_inside(x, lambd), x))
    gradient = HardshrinkGradient


def hardshrink(input: Any, lambd: float = 0.5) -> Any:
    """``input`` outside ``[-lambd, lambd]``, 0 inside.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.hardshrink(minigrad.tensor([-1.0, 0.2, 2.0]))
        tensor([-1.,  0.,  2.])
    """
    check_scalar_arguments(lambd)  # (the parser's error comes first)
    check_float_kernel("hardshrink_cpu", input)
    return Hardshrink.apply(input, lambd)


class Softshrink(Shrink):
    """y = x - lambd for x > lambd, x + lambd for x < -lambd, else 0 (x * 0: -0.0, nan kept)."""

    kernel = staticmethod(
        lambda x, lambd: np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0))
    )
    gradient = SoftshrinkGradient


def softshrink(input: Any, lambd: float = 0.5) -> Any:
    """Shrinks toward 0 by ``lambd``: ``input - lambd``, ``input + lambd`` or 0.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.softshrink(minigrad.tensor([-1.0, 0.2, 2.0]))
        tensor([-0.5000,  0.0000,  1.5000])
    """
    check_scalar_arguments(lambd)  # (the parser's error comes first)
    check_float_kernel("softshrink_check", input)
    dtype = operand(input).dtype
    largest = float(np.finfo(dtype).max)
    if not 0 <= lambd <= largest:
        raise RuntimeError(
            f"lambda must be in range [0, {largest:g}] for input dtype {display_name(dtype)}, "
            f"but found {lambd:g}"
        )
    return Softshrink.apply(input, lambd)


# --- glu --------------------------------------------------------------------------------------


class Glu(Op):
    """y = a * sigmoid(b), a and b the halves of x along ``dim``.  Saves its input.

    da = grad * s;  db = grad * a * s * (1 - s), s = sigmoid(b).
    """

    fields = ("dim",)
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = _halves(x, dim)
        return _in_float32(_glu, a, b)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(GluGradient, grad, x, ctx.dim), None


class GluGradient(Op):
    """glu's gradient as an op of its own (PyTorch's ``glu_backward``).

    f(g, x) = cat(g s, g a s (1 - s)), s = sigmoid(b), a and b the halves of x.
    d(g) = H_a s + H_b a s (1 - s) for the incoming H = cat(H_a, H_b);
    d(x) = cat(H_b g s', H_b a g s'' + H_a g s'), s' = s (1 - s), s'' = s' (1 - s) - s s':
    PyTorch's ``glu_double_backward``. Under create_graph it records GluBackwardBackward0.
    Saves g (only if x needs a gradient) and x.
    """

    node_name = "GluBackwardBackward0"
    num_inputs = 2
    fields = ("dim",)
    saves = ("grad_output", "self")
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, g: np.ndarray, x: np.ndarray, dim: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(g if ctx.needs_input_grad[1] else None, x)
            ctx.dim = dim
        a, b = _halves(x, dim)
        s = unary.sigmoid_array(b)
        da = g * s
        db = da * a * (1 - s)
        return np.concatenate((da, db), axis=wrap_dim(dim, x.ndim))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        g, x = ctx.saved_tensors
        needs = ctx.needs_input_grad
        a, b = _halves(x, ctx.dim)
        grad_a, grad_b = _halves(grad, ctx.dim)
        s = unary.sigmoid_of(b)
        one_minus_s = 1 - s
        s_prime = s * one_minus_s
        d_g = d_x = None
        if needs[0]:
            d_g = grad_a * s + grad_b * a * s_prime
        if needs[1]:
            s_second = s_prime * one_minus_s - s * s_prime
            d_a = grad_b * g * s_prime
            d_b = grad_b * a * g * s_second + grad_a * g * s_prime
            d_x = np.concatenate((d_a, d_b), axis=wrap_dim(ctx.dim, np.ndim(x)))
        return d_g, d_x, None


def _halves(x: Any, dim: int) -> tuple[Any, Any]:
    axis = wrap_dim(dim, np.ndim(x))
    half = np.shape(x)[axis] // 2
    return x[along(axis, slice(None, half))], x[along(axis, slice(half, None))]


def _glu(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a * unary.sigmoid_array(b)


def glu(input: Any, dim: int = -1) -> Any:
    """The gated linear unit: the first half of ``input`` along ``dim`` times sigmoid(the second).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.glu(minigrad.tensor([2.0, 0.0]))
        tensor([1.])
    """
    if input.dim() == 0:  # (PyTorch's Python: a non-tensor fails on .dim())
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = wrap_dim(dim, input.dim())
    check_float_kernel("glu_cpu", input)
    if input.shape[axis] % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {axis} is size {input.shape[axis]}"
        )
    return Glu.apply(input, dim)


# --- prelu ------------------------------------------------------------------------------------


class PreluKernel(Op):
    """y = x if x > 0 else weight * x (weight broadcast over x).  Saves input and weight.

    dx = grad if x > 0 else weight * grad;  dweight = 0 if x > 0 else x * grad, summed down to
    the weight's shape by the node.
    """

    num_inputs = 2
    broadcasts = True
    saves = ("self", "weight")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, weight: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, weight)
        return np.where(x > 0, x, weight * x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx, dweight = run(PreluKernelGradient, grad, x, weight)  # (both, as PyTorch's kernel)
        return dx if needs[0] else None, dweight if needs[1] else None


class PreluKernelGradient(Op):
    """prelu's two gradients as one op (PyTorch's ``_prelu_kernel_backward``).

    f(g, x, w) = (g where x > 0 else w g,  0 where x > 0 else x g): the input's gradient and
    the weight's, in x's shape (PreluKernel's node sums it down). For the incoming (A, B):
    d(g) = A where x >= 0 else A w + B x;  d(x) = 0 where x >= 0 else g B;  d(w) = 0 where
    x >= 0 else g A (PyTorch's formulas, with its ``>=``). Under create_graph it records
    PreluKernelBackwardBackward0. Saves g, x and w.
    """

    node_name = "PreluKernelBackwardBackward0"
    num_inputs = 3
    saves = ("grad_output", "self", "weight")

    @staticmethod
    def forward(ctx: Any, g: np.ndarray, x: np.ndarray, w: np.ndarray) -> tuple[Any, Any]:
        ctx.save_for_backward(g, x, w)
        positive = x > 0
        return np.where(positive, g, w * g), np.where(positive, 0, x * g).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad_x: Any, grad_w: Any) -> tuple[Any, Any, Any]:
        g, x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad
        nonnegative = x >= 0
        return (
            np.where(nonnegative, grad_x, grad_x * w + grad_w * x) if needs[0] else None,
            np.where(nonnegative, 0, g * grad_w) if needs[1] else None,
            np.where(nonnegative, 0, g * grad_x) if needs[2] else None,
        )


def prelu(input: Any, weight: Any) -> Any:
    """``input`` where positive, else ``weight * input`` (``PreluKernelBackward0``).

    ``weight`` holds one slope, or one per channel (``input``'s dim 1); it gets a gradient.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.prelu(minigrad.tensor([-2.0, 3.0]), minigrad.tensor([0.25]))
        tensor([-0.5000,  3.0000])
    """
    if input.dtype != weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {display_name(operand(input).dtype)} and "
            f"{display_name(operand(weight).dtype)}"
        )
    ndim = input.dim()
    if weight.numel() != 1:
        if ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers "
                f"= {weight.numel()} and channel size = {channels}."
            )
    if weight.dim() > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}"
        )
    if ndim != weight.dim():  # one slope per channel, broadcast over the other dims (a view)
        shape = [1] * ndim
        if ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    check_float_kernel("prelu_cpu", input)
    return PreluKernel.apply(input, weight)


# --- rrelu --------------------------------------------------------------------------------------


def _rrelu(x: np.ndarray, lower: float, upper: float, training: bool) -> tuple[Any, Any]:
    """(y, noise): in training each x <= 0 times a slope drawn from U(lower, upper).

    The noise is 1 elsewhere. Eval: leaky_relu with slope (lower + upper) / 2, and PyTorch's
    noise buffer is allocated but not written (its values are unspecified).
    """
    if not training:
        slope = (lower + upper) / 2
        return np.where(x > 0, x, times_number(x, slope)), np.empty_like(x)
    slopes = _random.generator().uniform(lower, upper, size=x.shape)
    noise = np.where(x <= 0, slopes, 1).astype(x.dtype)
    return x * noise, noise


class RreluGradient(Op):
    """rrelu's gradient as an op of its own (PyTorch's ``rrelu_with_noise_backward``).

    f(g, x) = g * noise when trained with a real range, else leaky_relu's gradient with slope
    (lower + upper) / 2 (x is the input, or the result for rrelu_: its sign is the same).
    d(g) = f(grad, x);  d(x) = 0 (``zeros_like``). Under create_graph it records
    RreluWithNoiseBackwardBackward0. Saves x (``self``) and the noise.
    """

    node_name = "RreluWithNoiseBackwardBackward0"
    num_inputs = 2
    tensor_options = True  # the noise
    fields = ("options",)
    saves = ("self", "noise")
    saved_options = {
        "lower": part("options", 0),
        "upper": part("options", 1),
        "training": part("options", 2),
    }

    @staticmethod
    def forward(
        ctx: Any,
        g: np.ndarray,
        x: np.ndarray,
        noise: np.ndarray,
        options: tuple[float, float, bool],
    ) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(x, noise)
            ctx.options = options
        lower, upper, training = options
        if training and upper - lower > 1e-6:
            return g * noise
        return LeakyReluBackward.forward(NO_GRAD_CTX, g, x, (lower + upper) / 2)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, noise = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(RreluGradient, grad, x, noise, ctx.options) if needs[0] else None
        return d_g, zeros_like_grad(grad) if needs[1] else None, None, None


class RreluWithNoise(Op):
    """y = x * noise, noise 1 for x > 0 and a random slope in [lower, upper] elsewhere.

    dx = grad * noise in training, else leaky_relu's gradient with slope (lower + upper) / 2.
    Saves its input and the noise (private: nothing else can write it).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("options",)
    saves = ("self", "noise")
    saved_options = {
        "lower": part("options", 0),
        "upper": part("options", 1),
        "training": part("options", 2),
    }

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, lower: float, upper: float, training: bool) -> Any:
        y, noise = _rrelu(x, lower, upper, training)
        ctx.save_for_backward(x, noise)
        ctx.options = lower, upper, training
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        x, noise = ctx.saved_tensors
        return run(RreluGradient, grad, x, noise, ctx.options), None, None, None


class RreluWithNoiseInplace(RreluWithNoise):
    """``rrelu_``: the same formula, but saves its result (whose sign is x's) and the noise."""

    node_name = "RreluWithNoiseBackward1"
    saves = ("result", "noise")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, lower: float, upper: float, training: bool) -> Any:
        y, noise = _rrelu(x, lower, upper, training)
        ctx.save_for_backward(y, noise)
        ctx.options = lower, upper, training
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        y, noise = ctx.saved_tensors
        lower, upper, training = ctx.options
        if not (training and upper - lower > 1e-6) and lower + upper < 0:
            raise RuntimeError(_LEAKY_INPLACE_NEGATIVE)  # (leaky_relu_backward of a result)
        return run(RreluGradient, grad, y, noise, ctx.options), None, None, None


def rrelu(
    input: Any,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Any:
    """Randomized leaky relu: slopes drawn from ``U(lower, upper)`` in training.

    In training each element <= 0 gets its own slope; in eval the slope is
    ``(lower + upper) / 2``.
    The slopes come from minigrad's generator (``minigrad.manual_seed``), so they differ from
    PyTorch's draws.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.rrelu(minigrad.tensor([-1.0, 2.0]), 0.1, 0.3)
        tensor([-0.2000,  2.0000])
    """
    check_scalar_arguments(lower, upper)  # (the parser's error comes first)
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    check_float_kernel("rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu", input)
    if inplace:
        return apply_inplace(RreluWithNoiseInplace, input, lower, upper, training)
    return RreluWithNoise.apply(input, lower, upper, training)


def rrelu_(
    input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Any:
    """``rrelu`` written into ``input`` (``RreluWithNoiseBackward1``, which saves the result)."""
    return rrelu(input, lower, upper, training, inplace=True)


def rrelu_aten(
    input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Any:
    """``minigrad.rrelu``: ``nn.functional.rrelu`` without its ``inplace`` (ATen's signature).

    Example:
        >>> import minigrad
        >>> minigrad.rrelu(minigrad.tensor([-1.0, 2.0]), 0.1, 0.3)
        tensor([-0.2000,  2.0000])
    """
    return rrelu(input, lower, upper, training)


# --- compositions (PyTorch writes them in Python) ---------------------------------------------


def softsign(input: Any) -> Any:
    """``input / (1 + |input|)`` (recorded as PyTorch's Python: DivBackward0 of AddBackward0).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.softsign(minigrad.tensor([-1.0, 3.0]))
        tensor([-0.5000,  0.7500])
    """
    return input / (input.abs() + 1)


def tanhshrink(input: Any) -> Any:
    """``input - tanh(input)`` (SubBackward0 of TanhBackward0).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.tanhshrink(minigrad.tensor([0.0, 1.0]))
        tensor([0.0000, 0.2384])
    """
    return input - input.tanh()


def softmin(input: Any, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """``softmax(-input)`` along ``dim`` (SoftmaxBackward0 of NegBackward0).

    Without ``dim`` PyTorch picks one and warns, as for ``softmax``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.softmin(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = implicit_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype)
