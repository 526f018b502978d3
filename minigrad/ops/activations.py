"""Activation functions: each one Op (forward, backward, what it saves) plus its public function.

The public functions have ``torch.nn.functional``'s names and signatures (``inplace=``
included), so ``minigrad.nn.functional`` can re-export them as they are.

Each op saves what PyTorch 2.13 saves. Out of place that is the input (so writing the output
in place later is legal, writing the input is not). Where PyTorch's in-place variant has its
own derivative formula written with the *result* (``leaky_relu_``, ``elu_``),
there is a separate ``...Inplace`` op that saves the result: the tensor itself after the write.
The others (``hardtanh_``, ``silu_``, ``mish_``, ...) reuse the out-of-place op, which keeps
a private copy of the overwritten input (autograd/inplace.py).

Where PyTorch's first backward is an op of its own (``elu_backward``, ``gelu_backward``,
``softplus_backward`` ...), so is minigrad's (``ActivationGradient``, ``HardtanhBackward``,
``LeakyReluBackward``): under ``create_graph`` it records PyTorch's ``*BackwardBackward0`` node,
and its backward holds PyTorch's double-backward formula. Those formulas use operators and
numpy functions only, so they run on arrays and on tensors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, display_name
from minigrad._layout import elementwise_result
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import part
from minigrad.ops import _helpers, unary
from minigrad.ops._helpers import Constants, is_tensor, operand, run
from minigrad.ops.opmath import in_float32 as _in_float32
from minigrad.ops.opmath import times_number

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


_FLOAT16, _FLOAT32 = np.dtype(np.float16), np.dtype(np.float32)
_ONE_SIXTH = Constants(float(np.float32(1.0) / np.float32(6.0)))
_GELU_FORWARD = Constants(0.5, 1.0, _GELU_CUBIC, _SQRT_2_OVER_PI, _SQRT_HALF)
_GELU_BACKWARD = Constants(
    0.5, 1.0, _GELU_CUBIC, _SQRT_2_OVER_PI, _SQRT_HALF, 3 * _GELU_CUBIC, _INV_SQRT_2PI
)


def _tanh_softplus(v: Any) -> Any:
    """tanh(log(1 + exp(v))), in PyTorch's steps (exp overflowing to inf gives tanh(inf) = 1).

    On a tensor (create_graph) through the softplus op, as PyTorch's differentiable mish
    backward: differentiating exp(v) = inf would give nan.
    """
    if is_tensor(v):
        return np.tanh(softplus(v))
    return np.tanh(np.log1p(np.exp(v)))


# --- first backwards as ops of their own ----------------------------------------------------


class ActivationGradient(Op):
    """An activation's first backward as an op of its own (PyTorch's ``elu_backward`` ...).

    f(g, x) = ``derivative(g, x, options)``, the first-derivative formula on arrays.
    d(g) = f(grad, x) (the op is linear in g: the same op again, as PyTorch's
    ``*BackwardBackward0``);  d(x) = ``second(grad * g, x, options)``, PyTorch's double-backward
    formula, which runs on arrays or tensors. Saves x always (both formulas read it) and g only
    when x needs a gradient (only d(x) reads it), as PyTorch's generated nodes do.
    The plain backward calls ``run(cls, grad, x, options)``: the bare forward on arrays.
    """

    num_inputs = 2
    fields = ("options",)
    saves = ("grad_output", "self")

    @staticmethod
    def derivative(g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        """The first backward: the gradient of the activation at ``x`` for the gradient ``g``."""
        raise NotImplementedError

    @staticmethod
    def second(gg: Any, x: Any, options: tuple[Any, ...]) -> Any:
        """d(x) of the first backward, given ``gg = grad * g`` (arrays or tensors)."""
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx: Any, g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> Any:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(g if ctx.needs_input_grad[1] else None, x)
            ctx.options = options
        return cls.derivative(g, x, options)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        g, x = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(cls, grad, x, ctx.options) if needs[0] else None
        return d_g, cls.second(grad * g, x, ctx.options) if needs[1] else None, None


# --- hardtanh, relu6 ------------------------------------------------------------------------


class Hardtanh(Op):
    """y = clamp(x, min_val, max_val);  dx = grad where min_val < x < max_val.

    Strictly inside: at the bounds the gradient is 0, unlike clamp's. Saves its input.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("low", "high")
    saved_options = {"min_val": "low", "max_val": "high"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: Any, high: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return np.clip(x, low, high).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        return run(HardtanhBackward, grad, x, ctx.low, ctx.high), None, None


class HardtanhBackward(Op):
    """Hardtanh's gradient as an op of its own (PyTorch's ``hardtanh_backward``).

    f(g, x) = g where min_val < x < max_val, else 0.  d(g) = f(grad, x);  d(x) = 0 (PyTorch's
    ``zeros_like``: the first gradient depends on x, with a zero derivative). Under
    create_graph it records HardtanhBackwardBackward0. Saves x (PyTorch's ``self``).
    """

    node_name = "HardtanhBackwardBackward0"
    num_inputs = 2
    fields = ("low", "high")
    saves = ("self",)
    saved_options = {"min_val": "low", "max_val": "high"}

    @staticmethod
    def forward(ctx: Any, g: np.ndarray, x: np.ndarray, low: Any, high: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(x)
            ctx.low, ctx.high = low, high
        # where, not g * mask: outside the bounds PyTorch's kernel returns 0, never -0.
        return np.where((x > low) & (x < high), g, 0)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        (x,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(HardtanhBackward, grad, x, ctx.low, ctx.high) if needs[0] else None
        return d_g, _zero_derivative(grad, x) if needs[1] else None, None, None


def _zero_derivative(grad: Any, x: Any) -> np.ndarray:
    """PyTorch's ``zeros_like(grad)``: a derivative that is zero, with no history."""
    return np.zeros(np.shape(x), dtype=_helpers.raw(grad).dtype)


def hardtanh(
    input: Any, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Any:
    """``clamp(input, min_val, max_val)``, with gradient 0 at the bounds."""
    if min_val > max_val:
        raise ValueError(errors.HARDTANH_BOUNDS)
    check_scalar_arguments(min_val, max_val)  # (the parser's error comes first)
    if operand(input).dtype == np.bool_:
        raise RuntimeError(errors.HARDTANH_BOOL)
    if inplace:
        return apply_inplace(Hardtanh, input, min_val, max_val)
    return Hardtanh.apply(input, min_val, max_val)


def relu6(input: Any, inplace: bool = False) -> Any:
    """``min(max(input, 0), 6)`` (recorded as hardtanh, as in PyTorch)."""
    return hardtanh(input, 0.0, 6.0, inplace)


# --- leaky_relu -----------------------------------------------------------------------------


class LeakyRelu(Op):
    """y = x if x > 0 else slope * x;  dx = grad if x > 0 else slope * grad.  Saves its input."""

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("slope",)
    saved_options = {"negative_slope": "slope"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, slope: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.slope = slope
        return np.where(x > 0, x, times_number(x, slope))  # (float16: slope in float32)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(LeakyReluBackward, grad, x, ctx.slope), None


class LeakyReluBackward(Op):
    """leaky_relu's gradient as an op of its own (PyTorch's ``leaky_relu_backward``).

    f(g, x) = g where x > 0, else slope * g.  d(g) = f(grad, x);  d(x) = 0 (zeros_like).
    Under create_graph it records LeakyReluBackwardBackward0. Saves x (``self``; the result,
    for leaky_relu_, whose sign is x's).
    """

    node_name = "LeakyReluBackwardBackward0"
    num_inputs = 2
    fields = ("slope",)
    saves = ("self",)
    saved_options = {"negative_slope": "slope"}

    @staticmethod
    def forward(ctx: Any, g: np.ndarray, x: np.ndarray, slope: float) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(x)
            ctx.slope = slope
        return np.where(x > 0, g, times_number(g, slope))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        (x,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(LeakyReluBackward, grad, x, ctx.slope) if needs[0] else None
        return d_g, _zero_derivative(grad, x) if needs[1] else None, None


_LEAKY_INPLACE_NEGATIVE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward "
    "calculation with negative slope"
)


class LeakyReluInplace(Op):
    """``leaky_relu_``: the same formula, but saves its result (PyTorch).

    The sign of y is the sign of x for a positive slope; with a negative slope backward
    raises, as in PyTorch.
    """

    fields = ("slope",)
    saved_options = {"negative_slope": "slope"}

    node_name = "LeakyReluBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, slope: float) -> np.ndarray:
        y = np.where(x > 0, x, times_number(x, slope))
        ctx.save_for_backward(y)
        ctx.slope = slope
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (y,) = ctx.saved_tensors
        if ctx.slope < 0:
            raise RuntimeError(_LEAKY_INPLACE_NEGATIVE)
        return run(LeakyReluBackward, grad, y, ctx.slope), None


def leaky_relu(input: Any, negative_slope: float = 0.01, inplace: bool = False) -> Any:
    """``input`` where positive, else ``negative_slope * input``."""
    check_scalar_arguments(negative_slope)  # (the parser's error comes first)
    _check_float(input, "leaky_relu_cpu")
    if inplace:
        return apply_inplace(LeakyReluInplace, input, negative_slope)
    return LeakyRelu.apply(input, negative_slope)


# --- elu, selu ------------------------------------------------------------------------------


class Elu(Op):
    """y = scale * x if x > 0 else scale * alpha * (exp(x) - 1).  Saves its input.

    dx = grad * scale if x > 0 else grad * scale * alpha * exp(x).

    (``input_scale`` is PyTorch's third coefficient: it multiplies x inside the exp.)
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("coefficients",)
    saved_options = {"alpha": part("coefficients", 0), "scale": part("coefficients", 1),
                     "input_scale": part("coefficients", 2)}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, alpha: float, scale: float, input_scale: float) -> Any:
        ctx.save_for_backward(x)
        ctx.coefficients = alpha, scale, input_scale, False  # (elu_backward's is_result)
        negative = np.expm1(x * input_scale) * (alpha * scale)
        return np.where(x > 0, x * scale, negative)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (x,) = ctx.saved_tensors
        return run(EluGradient, grad, x, ctx.coefficients), None, None, None


class EluGradient(ActivationGradient):
    """elu's (selu's, celu's) gradient as an op of its own (PyTorch's ``elu_backward``).

    options = (alpha, scale, input_scale, is_result); x is elu's input, or its result y
    (is_result, elu_). f(g, x) = g * scale where x > 0, else
    g * input_scale * alpha * scale * exp(x * input_scale) (from y: g * input_scale *
    (y + alpha * scale)). d(x) = f(gg * input_scale, x) where x < 0, else 0 (from y:
    gg * input_scale where y < 0), gg = grad * g: PyTorch's ``elu_double_backward``.
    """

    node_name = "EluBackwardBackward0"
    saves = ("grad_output", "self_or_result")
    saved_options = {"alpha": part("options", 0), "scale": part("options", 1),
                     "input_scale": part("options", 2), "is_result": part("options", 3)}

    @staticmethod
    def derivative(g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        alpha, scale, input_scale, is_result = options
        if is_result:  # (y <= 0, as the kernel tests: a nan result takes the linear side)
            return np.where(x <= 0, g * ((x + alpha * scale) * input_scale), g * scale)
        negative = g * (np.exp(x * input_scale) * (input_scale * alpha * scale))
        # (x <= 0, PyTorch's test: a nan input takes the linear side, as in its kernel)
        return np.where(x <= 0, negative, g * scale)

    @staticmethod
    def second(gg: Any, x: Any, options: tuple[Any, ...]) -> Any:
        input_scale, is_result = options[2:]
        if is_result:
            return gg * input_scale * (x < 0)
        return run(EluGradient, gg * input_scale, x, options) * (x < 0)


_ELU_INPLACE_NEGATIVE = (
    "In-place elu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead."
)


class EluInplace(Op):
    """``elu_``: saves its result y; for y <= 0, dx = grad * input_scale * (y + scale*alpha)."""

    fields = ("coefficients",)
    saved_options = {"alpha": part("coefficients", 0), "scale": part("coefficients", 1),
                     "input_scale": part("coefficients", 2)}

    node_name = "EluBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, alpha: float, scale: float, input_scale: float) -> Any:
        y = np.where(x > 0, x * scale, np.expm1(x * input_scale) * (alpha * scale))
        ctx.save_for_backward(y)
        ctx.coefficients = alpha, scale, input_scale, True  # (elu_backward's is_result)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (y,) = ctx.saved_tensors
        if ctx.coefficients[0] < 0:
            raise RuntimeError(_ELU_INPLACE_NEGATIVE)
        return run(EluGradient, grad, y, ctx.coefficients), None, None, None


def elu(input: Any, alpha: float = 1.0, inplace: bool = False) -> Any:
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    _check_float(input, "elu_cpu")
    check_scalar_arguments(alpha)  # (the parser's error comes first)
    if inplace:
        return apply_inplace(EluInplace, input, alpha, 1.0, 1.0)
    return Elu.apply(input, alpha, 1.0, 1.0)


def selu(input: Any, inplace: bool = False) -> Any:
    """Scaled elu with PyTorch's fixed constants (recorded as elu, as in PyTorch)."""
    _check_float(input, "elu_cpu")
    if inplace:
        return apply_inplace(EluInplace, input, SELU_ALPHA, SELU_SCALE, 1.0)
    return Elu.apply(input, SELU_ALPHA, SELU_SCALE, 1.0)


# --- gelu -----------------------------------------------------------------------------------


class Gelu(Op):
    """y = x * Phi(x), Phi the standard normal CDF;  dx = grad * (Phi(x) + x * phi(x)).

    With ``approximate='tanh'``: y = x/2 * (1 + tanh(k)), k = sqrt(2/pi) * (x + 0.044715 x**3).
    Saves its input.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("approximate",)
    saved_options = ("approximate",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, approximate: str) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        return _in_float32(_gelu, x, approximate)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(GeluGradient, grad, x, (ctx.approximate,)), None


class GeluGradient(ActivationGradient):
    """gelu's gradient as an op of its own (PyTorch's ``gelu_backward``).

    f(g, x) = g * (Phi(x) + x * phi(x)) (its tanh form with ``approximate='tanh'``).
    d(x) = gg * (2 phi(x) - x**2 phi(x)), gg = grad * g, or the tanh form's derivative:
    PyTorch's ``gelu_double_backward``, in its steps.
    """

    node_name = "GeluBackwardBackward0"
    saved_options = {"approximate": part("options", 0)}

    @staticmethod
    def derivative(g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        return _in_float32(_gelu_backward, g, x, options[0])

    @staticmethod
    def second(gg: Any, x: Any, options: tuple[Any, ...]) -> Any:
        if options[0] == "tanh":
            inner = (x + x * x * x * _GELU_CUBIC) * _SQRT_2_OVER_PI
            t = np.tanh(inner)
            sech = 1 / np.cosh(inner)
            f = x * 0.5
            g = 1 - t * t
            h = (x * x * (3 * _GELU_CUBIC) + 1) * _SQRT_2_OVER_PI
            f_prime_gh = g * 0.5 * h
            g_prime_fh = f * h * (sech * 2 * (-sech * t) * h)
            h_prime_fg = f * g * (x * (6 * _GELU_CUBIC) * _SQRT_2_OVER_PI)
            return gg * (f_prime_gh * 2 + g_prime_fh + h_prime_fg)
        x_sq = x * x
        pdf = np.exp(x_sq * -0.5) * _INV_SQRT_2PI
        return gg * (pdf * 2 - x_sq * pdf)


def _gelu(x: np.ndarray, approximate: str) -> np.ndarray:
    half, one, cubic, sqrt_2_over_pi, sqrt_half = _GELU_FORWARD.of(x)
    if approximate == "tanh":
        inner = (x + x * x * x * cubic) * sqrt_2_over_pi
        return x * half * (np.tanh(inner) + one)
    return x * half * (unary.erf_array(x * sqrt_half) + one)


def _gelu_backward(grad: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    half, one, cubic, sqrt_2_over_pi, sqrt_half, three_cubic, inv_sqrt_2pi = (
        _GELU_BACKWARD.of(x)
    )
    if approximate == "tanh":
        x_sq = x * x
        t = np.tanh((x + x_sq * x * cubic) * sqrt_2_over_pi)
        dinner = (x_sq * three_cubic + one) * sqrt_2_over_pi
        return grad * ((t + one) * half + x * half * (one - t * t) * dinner)
    cdf = (unary.erf_array(x * sqrt_half) + one) * half
    pdf = np.exp(x * x * -half) * inv_sqrt_2pi
    return grad * (cdf + x * pdf)


def gelu(input: Any, approximate: str = "none") -> Any:
    """Gaussian error linear unit ``input * Phi(input)``.

    ``approximate='tanh'`` uses the tanh approximation of Phi.
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError(errors.GELU_APPROXIMATE)
    _check_float(input, "GeluKernelImpl")
    return Gelu.apply(input, approximate)


# --- silu, mish, softplus, logsigmoid --------------------------------------------------------


class Silu(Op):
    """y = x / (1 + exp(-x));  dx = grad * s * (1 + x * (1 - s)), s = sigmoid(x).  Saves its input.

    The forward divides, as PyTorch's kernel does: x * sigmoid(x) would lose bits where sigmoid
    is subnormal (x near -88 in float32). The backward takes sigmoid from ``unary``.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return _in_float32(_silu, x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return _in_float32(_silu_backward, grad, x)


def _silu(x: np.ndarray) -> np.ndarray:
    return x / (np.exp(-x) + 1)


def _silu_backward(grad: Any, x: Any) -> Any:
    s = unary.sigmoid_of(x)
    return grad * s * (x * (1 - s) + 1)


def silu(input: Any, inplace: bool = False) -> Any:
    """``input * sigmoid(input)`` (also called swish)."""
    _check_float(input, "silu_cpu")
    return apply_inplace(Silu, input) if inplace else Silu.apply(input)


class Mish(Op):
    """y = x * tanh(softplus(x));  dx = grad * (t + x * sigmoid(x) * (1 - t**2)).

    t = tanh(softplus(x)). Saves its input.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return _in_float32(_mish, x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return _in_float32(_mish_backward, grad, x)


def _mish(x: np.ndarray) -> np.ndarray:
    return x * _tanh_softplus(x)


def _mish_backward(grad: Any, x: Any) -> Any:
    t = _tanh_softplus(x)
    return grad * (t + x * unary.sigmoid_of(x) * (1 - t * t))


def mish(input: Any, inplace: bool = False) -> Any:
    """``input * tanh(softplus(input))``."""
    _check_float(input, "mish_cpu")
    return apply_inplace(Mish, input) if inplace else Mish.apply(input)


class Softplus(Op):
    """y = log(1 + exp(beta x)) / beta;  dx = grad * z / (z + 1), z = exp(beta x).  Saves its input.

    Where beta x > threshold it is linear: y = x, dx = grad. The gradient is sigmoid(beta x)
    in the form of PyTorch's kernel: z / (z + 1) keeps exp's tiny values (down to subnormals)
    where 1 / (1 + exp(-beta x)) has already overflowed to 0.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("beta", "threshold")
    saved_options = ("beta", "threshold")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        return _in_float32(_softplus, x, beta, threshold)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        return run(SoftplusGradient, grad, x, (ctx.beta, ctx.threshold)), None, None


class SoftplusGradient(ActivationGradient):
    """softplus's gradient as an op of its own (PyTorch's ``softplus_backward``).

    f(g, x) = g * sigmoid(beta x) (g where beta x > threshold).  d(x) = gg * s * (1 - s) * beta
    where beta x < threshold, else 0, s = sigmoid(beta x), gg = grad * g: PyTorch's
    ``softplus_double_backward`` (through sigmoid_backward).
    """

    node_name = "SoftplusBackwardBackward0"
    saved_options = {"beta": part("options", 0), "threshold": part("options", 1)}

    @staticmethod
    def derivative(g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        return _in_float32(_softplus_backward, g, x, *options)

    @staticmethod
    def second(gg: Any, x: Any, options: tuple[Any, ...]) -> Any:
        beta, threshold = options
        scaled = x * beta
        return run(unary.SigmoidBackward, gg, unary.sigmoid_of(scaled)) * (
            scaled < threshold) * beta


def _softplus(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    scaled = x * beta
    return np.where(scaled > threshold, x, np.log1p(np.exp(scaled)) / beta)


def _softplus_backward(grad: np.ndarray, x: np.ndarray, beta: float, threshold: float) -> Any:
    scaled = x * beta
    z = np.exp(scaled)
    return np.where(scaled > threshold, grad, grad * z / (z + 1))


def softplus(input: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    """A smooth relu: ``log(1 + exp(beta * input)) / beta`` (linear above ``threshold``)."""
    check_scalar_arguments(beta, threshold)  # (the parser's error comes first)
    _check_float(input, "softplus_cpu")
    return Softplus.apply(input, beta, threshold)


class LogSigmoid(Op):
    """y = log(sigmoid(x)) = min(x, 0) - log1p(b), b = exp(-|x|);  dx = grad * sigmoid(-x).

    sigmoid(-x) in the form of PyTorch's kernel, from the buffer b: 1 - b / (1 + b) for x < 0,
    else b / (1 + b), which keeps exp's tiny values where 1 / (1 + exp(x)) has overflowed to 0.
    Saves its input and the buffer, as PyTorch's ``log_sigmoid_forward`` (its second result, in
    x's dtype: a float16 buffer is rounded, and backward reads it so), private: nothing else can
    write it.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)
    saves = ("self", "buffer")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y, buffer = _logsigmoid(x)
        ctx.save_for_backward(x, buffer)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, buffer = ctx.saved_tensors
        return run(LogSigmoidGradient, grad, x, buffer)


class LogSigmoidGradient(Op):
    """logsigmoid's gradient as an op of its own (PyTorch's ``log_sigmoid_backward``).

    f(g, x, buffer) = g * sigmoid(-x), from the forward's buffer exp(-|x|).  d(g) = f(grad, x,
    buffer);  d(x) = gg * (z - 1) * z, z = sigmoid(x), gg = grad * g: PyTorch's
    ``log_sigmoid_double_backward``. Under create_graph it records LogSigmoidBackwardBackward0,
    which saves x and the buffer always and g only when x needs a gradient (only d(x) reads it).
    """

    node_name = "LogSigmoidBackwardBackward0"
    num_inputs = 2
    tensor_options = True  # the buffer
    saves = ("grad_output", "self", "buffer")

    @staticmethod
    def forward(ctx: Any, g: np.ndarray, x: np.ndarray, buffer: np.ndarray) -> np.ndarray:
        """LogSigmoid's gradient ``g * d logsigmoid(x)/dx`` from the buffer (saved as declared)."""
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(g if ctx.needs_input_grad[1] else None, x, buffer)
        return _in_float32(_logsigmoid_backward, g, x, buffer)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        """The gradients for ``g`` and ``x`` (none for the buffer), as PyTorch's double backward."""
        g, x, buffer = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(LogSigmoidGradient, grad, x, buffer) if needs[0] else None
        if not needs[1]:
            return d_g, None, None
        z = unary.sigmoid_of(x)
        return d_g, grad * g * (z - 1) * z, None


def _logsigmoid(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(y, buffer), float16 computed in float32: y from the buffer before it is rounded."""
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    buffer = np.exp(-np.abs(wide))
    y = np.minimum(wide, 0) - np.log1p(buffer)
    return y.astype(x.dtype, copy=False), buffer.astype(x.dtype, copy=False)


def _logsigmoid_backward(grad: np.ndarray, x: np.ndarray, buffer: np.ndarray) -> np.ndarray:
    """``grad * d logsigmoid(x)/dx`` from the saved buffer ``exp(-|x|)``, as PyTorch's kernel."""
    tail = buffer / (buffer + 1)
    return np.where(x < 0, 1 - tail, tail) * grad


def logsigmoid(input: Any) -> Any:
    """``log(sigmoid(input))``, computed without overflow."""
    _check_float(input, "log_sigmoid_cpu")
    return LogSigmoid.apply(input)


# --- hardsigmoid, hardswish -----------------------------------------------------------------


class Hardsigmoid(Op):
    """y = clamp(x + 3, 0, 6) / 6;  dx = grad / 6 where -3 < x < 3, else 0.  Saves its input.

    PyTorch has no second derivative for it: differentiating dx raises (see backward).
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return _in_float32(_hardsigmoid, x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        dx = _in_float32(_hardsigmoid_backward, _helpers.operand(grad), _helpers.operand(x))
        if _helpers.is_tensor(grad):  # create_graph
            # PyTorch has no derivative for hardsigmoid's backward: differentiating again raises.
            return _helpers.NoDerivativeOfGradient.apply(
                grad, x, dx, "aten::hardsigmoid_backward")
        return dx


def _hardsigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(x + 3, 0, 6) / 6


def _hardsigmoid_backward(grad: Any, x: Any) -> Any:
    # PyTorch multiplies by the float32 1/6 in every dtype (float64 too), not divides by 6.
    # where, not grad * mask: outside (-3, 3) PyTorch's kernel returns 0, never -0.
    return np.where((x > -3) & (x < 3), grad * _ONE_SIXTH.of(x)[0], 0)


def hardsigmoid(input: Any, inplace: bool = False) -> Any:
    """A piecewise-linear sigmoid: ``clamp(input + 3, 0, 6) / 6``."""
    _check_float(input, "hardsigmoid_cpu")
    return apply_inplace(Hardsigmoid, input) if inplace else Hardsigmoid.apply(input)


class Hardswish(Op):
    """y = x * clamp(x + 3, 0, 6) / 6;  dx = grad * (x/3 + 1/2) for -3 < x < 3.

    dx = 0 for x <= -3 and grad for x >= 3 (PyTorch's conventions at the kinks). Saves its
    input.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return _in_float32(_hardswish, x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return run(HardswishGradient, grad, x, ())


class HardswishGradient(ActivationGradient):
    """hardswish's gradient as an op of its own (PyTorch's ``hardswish_backward``).

    f(g, x) = g * (x/3 + 1/2) for -3 < x < 3, 0 below, g above.  d(x) = gg / 3 for
    -3 < x < 3, else 0, gg = grad * g (PyTorch's formula).
    """

    node_name = "HardswishBackwardBackward0"

    @staticmethod
    def derivative(g: np.ndarray, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        return _in_float32(_hardswish_backward, g, x)

    @staticmethod
    def second(gg: Any, x: Any, options: tuple[Any, ...]) -> Any:
        return np.where((x > -3) & (x < 3), gg / 3.0, 0)


def _hardswish(x: np.ndarray) -> np.ndarray:
    return x * np.clip(x + 3, 0, 6) / 6


def _hardswish_backward(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    middle = grad * (x / 3 + 0.5)
    return np.where(x <= -3, 0, np.where(x < 3, middle, grad))


def hardswish(input: Any, inplace: bool = False) -> Any:
    """``input * hardsigmoid(input)``."""
    _check_float(input, "hardswish_cpu")
    return apply_inplace(Hardswish, input) if inplace else Hardswish.apply(input)


def _check_float(input: Any, kernel: str) -> None:
    """PyTorch's activation kernels exist for floating-point tensors only."""
    dtype = operand(input).dtype
    if dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(dtype)))


# --- the in-place spellings of nn.functional ------------------------------------------------


def elu_(input: Any, alpha: float = 1.0) -> Any:
    """``elu`` written into ``input`` (``EluBackward1``, which saves the result)."""
    return elu(input, alpha, inplace=True)


def selu_(input: Any) -> Any:
    """``selu`` written into ``input`` (``EluBackward1``, which saves the result)."""
    return selu(input, inplace=True)


def leaky_relu_(input: Any, negative_slope: float = 0.01) -> Any:
    """``leaky_relu`` written into ``input`` (``LeakyReluBackward1``, which saves the result)."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    """``hardtanh`` written into ``input`` (``HardtanhBackward0``, on a copy of the input)."""
    return hardtanh(input, min_val, max_val, inplace=True)
