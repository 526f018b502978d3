"""Loss functions, as ``minigrad.nn.functional`` exports them.

mse, l1, smooth l1, huber, binary cross entropy (with logits), kl_div and cosine similarity
(nll and cross entropy are in ``cross_entropy.py``; ``loss_common.py`` holds what the losses
share).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name, result_type
from minigrad.autograd import grad_mode
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.ops import arithmetic, power, unary, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops._helpers import (
    broadcast_shapes,
    cast,
    check_no_grad,
    dtype_name,
    is_tensor,
    not_implemented,
    operand,
    run,
    shape_of,
    size_text,
)
from minigrad.ops.activations import LogSigmoid
from minigrad.ops.binary_extra import Logit
from minigrad.ops.loss_common import (
    MEAN,
    NONE,
    apply_loss_reduction,
    broadcast_pair,
    expand_outplace,
    legacy_reduction,
    reduce_array,
    reduction_enum,
    reduction_name,
    reduction_norm,
    warn_target_size,
)
from minigrad.ops.norms import vector_norm


def _difference(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``x - t`` in PyTorch's result dtype (numpy would make float32 - int64 a float64)."""
    if x.dtype is t.dtype:  # (the common case: that dtype, whatever the shapes)
        return x - t
    dtype = result_type(x, t)
    return x.astype(dtype, copy=False) - t.astype(dtype, copy=False)


class MseLoss(Op):
    """loss = reduce((input - target) ** 2);  dinput = 2 (input - target) grad / n.

    n is the element count for 'mean', 1 otherwise;  dtarget = -dinput. Saves input and
    target (PyTorch): writing either in place before backward raises.
    """

    fields = ("reduction",)
    saves = ("self", "target")
    saved_options = ("reduction",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (the no-grad ctx drops both, through Python calls)
            ctx.save_for_backward(x, t)
            ctx.reduction = reduction
        d = _difference(x, t)
        return reduce_array(d * d, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, t = ctx.saved_tensors
        return (*_pointwise_loss_gradients(ctx, MseLossGradient, grad, x, t, ctx.reduction),
                None)


def _pointwise_loss_gradients(
    ctx: Any, gradient: type[Op], grad: Any, x: Any, t: Any, *options: Any
) -> tuple[Any, Any]:
    """A pointwise loss's input and target gradients through its first-backward op.

    PyTorch's: ``f(grad, input, target)`` and ``f(grad, target, input)``, two nodes under
    create_graph. On arrays the target's is the input's negated, which is the same value bit
    for bit (x - t = -(t - x) exactly; every slope is odd in it) and saves a pass.
    """
    needs = ctx.needs_input_grad
    dx = run(gradient, grad, x, t, *options) if needs[0] else None
    if not needs[1]:
        return dx, None
    if dx is not None and not is_tensor(dx):
        return dx, -dx
    return dx, run(gradient, grad, t, x, *options)


def _by_mean(value: Any, reduction: int, x: Any) -> Any:
    """``value``, divided by ``x``'s element count for 'mean' (C++'s ``/ numel``: DivBackward1)."""
    return run(arithmetic.DivScalar, value, math.prod(shape_of(x))) if reduction == MEAN else value


class MseLossGradient(Op):
    """mse_loss's gradient as an op of its own (PyTorch's ``mse_loss_backward``).

    f(g, x, t) = (x - t) g 2 / n (n the element count for 'mean', else 1).  d(g) = f(grad, x, t)
    (summed to g's shape);  d(x) = 2 grad g / n;  d(t) = -d(x): PyTorch's
    ``mse_loss_double_backward``. Under create_graph it records MseLossBackwardBackward0.
    Saves g (only if x or t needs a gradient: only their formulas read it), x and t.
    """

    node_name = "MseLossBackwardBackward0"
    num_inputs = 3
    fields = ("reduction",)
    saves = ("grad_output", "self", "target")
    saved_options = ("reduction",)

    @staticmethod
    def forward(ctx: Any, g: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            needs = ctx.needs_input_grad
            ctx.save_for_backward(g if needs[1] or needs[2] else None, x, t)
            ctx.reduction = reduction
        return (x - t) * g * (2 * reduction_norm(reduction, math.prod(shape_of(x))))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any, None]:
        g, x, t = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(MseLossGradient, grad, x, t, ctx.reduction) if needs[0] else None
        d_x = _by_mean(grad * g * 2, ctx.reduction, x) if needs[1] else None
        d_t = -_by_mean(grad * g * 2, ctx.reduction, t) if needs[2] else None
        return d_g, d_x, d_t, None


class HuberShapedLoss(Op):
    """Huber's piecewise loss of d = input - target, which smooth L1 shares.

    huber_c(d) = 0.5 d**2 where |d| < c, else c (|d| - 0.5 c);  dinput = grad clamp(d, -c, c)
    / n,  dtarget = -dinput.  Smooth L1 with beta is huber_beta / beta (``per_threshold``),
    each piece divided where it is written (c / scale is exactly 1 or c): dividing the whole
    loss would round differently from PyTorch's kernel.  Saves input and target.
    """

    fields = ("reduction", "threshold")
    saves = ("self", "target")

    num_inputs = 2
    per_threshold: ClassVar[bool]  # smooth L1: huber / beta
    gradient: ClassVar[type[Op]]  # its first backward, an op of its own
    input_dtype_only: ClassVar[bool]  # huber: the input's dtype; backward refuses another one

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int, c: float) -> Any:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.threshold = reduction, c
        scale = c if cls.per_threshold else 1.0
        z = np.abs(_difference(x, t))
        loss = np.where(z < c, 0.5 * z * z / scale, c / scale * (z - 0.5 * c))
        return reduce_array(loss.astype(x.dtype) if cls.input_dtype_only else loss, reduction)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t = ctx.saved_tensors
        if cls.input_dtype_only and operand(t).dtype != operand(x).dtype:
            raise RuntimeError(errors.found_dtype(dtype_name(t), dtype_name(x)))
        return (*_pointwise_loss_gradients(ctx, cls.gradient, grad, x, t, ctx.reduction,
                                           ctx.threshold), None, None)


class HuberShapedGradient(Op):
    """A Huber-shaped loss's gradient as an op of its own (``huber_loss_backward`` ...).

    f(g, x, t) = clamp(d, -c, c) g / n, d = x - t (divided by c for smooth L1).
    d(g) = f(grad, x, t) (summed to g's shape);  d(x) = grad g / n where |d| < c, else 0
    (divided by c for smooth L1);  d(t) = -d(x): PyTorch's ``huber_loss_double_backward``
    and ``smooth_l1_loss_double_backward``. Saves g (only if x or t needs a gradient), x, t.
    """

    num_inputs = 3
    fields = ("reduction", "threshold")
    saves = ("grad_output", "self", "target")
    per_threshold: ClassVar[bool]  # smooth L1: huber / beta

    @classmethod
    def forward(cls, ctx: Any, g: Any, x: np.ndarray, t: np.ndarray, reduction: int,
                c: float) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            needs = ctx.needs_input_grad
            ctx.save_for_backward(g if needs[1] or needs[2] else None, x, t)
            ctx.reduction, ctx.threshold = reduction, c
        d = x - t
        slope = np.where(d <= -c, -c, np.where(d >= c, c, d))  # |d| = c: slope flat (PyTorch)
        if cls.per_threshold:
            slope = slope / c
        return slope * g * reduction_norm(reduction, math.prod(shape_of(x)))

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, Any, None, None]:
        g, x, t = ctx.saved_tensors
        needs = ctx.needs_input_grad
        c = ctx.threshold
        d_g = run(cls, grad, x, t, ctx.reduction, c) if needs[0] else None
        d_x = d_t = None
        if needs[1] or needs[2]:
            curvature = grad * g * (np.abs(x - t) < c)
            if cls.per_threshold:
                curvature = curvature / c
            d_x = _by_mean(curvature, ctx.reduction, x) if needs[1] else None
            d_t = -_by_mean(curvature, ctx.reduction, x) if needs[2] else None
        return d_g, d_x, d_t, None, None


class SmoothL1LossGradient(HuberShapedGradient):
    """smooth_l1_loss's gradient (``smooth_l1_loss_backward``): SmoothL1LossBackwardBackward0."""

    node_name = "SmoothL1LossBackwardBackward0"
    saved_options = {"reduction": "reduction", "beta": "threshold"}
    per_threshold = True


class HuberLossGradient(HuberShapedGradient):
    """huber_loss's gradient (``huber_loss_backward``): HuberLossBackwardBackward0."""

    node_name = "HuberLossBackwardBackward0"
    saved_options = {"reduction": "reduction", "delta": "threshold"}
    per_threshold = False


class SmoothL1Loss(HuberShapedLoss):
    """loss = reduce(0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta), d = input - target.

    dinput = grad * clamp(d / beta, -1, 1) / n,  dtarget = -dinput.  Saves input and target.
    """

    saved_options = {"reduction": "reduction", "beta": "threshold"}
    per_threshold = True
    input_dtype_only = False
    gradient = SmoothL1LossGradient


class HuberLoss(HuberShapedLoss):
    """loss = reduce(0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)), d = input - target.

    dinput = grad * clamp(d, -delta, delta) / n,  dtarget = -dinput.  Saves input and target.
    The result has the input's dtype; PyTorch's backward refuses a target of another dtype.
    """

    saved_options = {"reduction": "reduction", "delta": "threshold"}
    per_threshold = False
    input_dtype_only = True
    gradient = HuberLossGradient


def _check_loss_kernel_dtypes(input: Any, target: Any, kernel: str) -> None:
    # An integer input is accepted only if promotion makes the computation floating point.
    x, t = operand(input), operand(target)
    if x.dtype.kind in "iub" and t.dtype.kind in "iub":
        raise not_implemented(kernel, input)


def _weighted(loss: Any, weight: Any, reduction: str, mean_by_weight: bool) -> Any:
    """The Python-level weighted variant of mse / l1 / huber loss (PyTorch 2.13)."""
    loss = arithmetic.mul(loss, weight)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return reduction_module.sum(loss)
    if reduction == "mean":
        if mean_by_weight:
            return arithmetic.div(reduction_module.sum(loss), reduction_module.sum(weight))
        return reduction_module.mean(loss)
    raise ValueError(errors.invalid_reduction_mode(reduction))


def _check_loss_arguments(input: Any, target: Any, weight: Any = None) -> None:
    """PyTorch's Python-level checks: ``.size()`` of each argument, a warning if sizes differ."""
    _arguments.check_has_attribute(input, "size")
    _arguments.check_has_attribute(target, "size")
    if weight is not None:
        _arguments.check_has_attribute(weight, "size")
    warn_target_size(input, target, stacklevel=4)  # at the line that called the loss


def _check_weight_size(weight: Any, input: Any) -> None:
    if shape_of(weight) != shape_of(input):
        raise ValueError(errors.WEIGHTS_INPUT_SIZE)


def mse_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Any:
    """Mean squared error: ``mean((input - target) ** 2)`` (or 'sum', or 'none').

    Input and target are broadcast together first (PyTorch warns when their sizes differ).
    Gradient ``2 (input - target) / n`` for both (negated for the target). One
    ``MseLossBackward0`` node that saves input and target: writing either in place before
    backward raises. With ``weight`` (same size as input): ``sum(w (input - target)**2) /
    sum(w)`` for 'mean', recorded as pow, mul, sum and div.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.mse_loss(minigrad.tensor([1.0, 2.0]), minigrad.tensor([0.0, 0.0]))
        tensor(2.5000)
    """
    _check_loss_arguments(input, target, weight)
    reduction = reduction_name(reduction, size_average, reduce)
    x, t = broadcast_pair(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(power.pow(arithmetic.sub(x, t), 2), weight, reduction, True)
    enum = reduction_enum(reduction)
    _check_loss_kernel_dtypes(x, t, "mse_cpu")
    return MseLoss.apply(x, t, enum)


def l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Any:
    """Mean absolute error: ``mean(|input - target|)`` (or 'sum', or 'none').

    A composite in PyTorch: ``SubBackward0``, ``AbsBackward0`` (which saves the difference, a
    private tensor), then ``MeanBackward0`` / ``SumBackward0``; so writing the input or target
    in place after the loss is legal. Gradient ``sign(input - target) / n``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.l1_loss(minigrad.tensor([1.0, -2.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.5000)
    """
    _check_loss_arguments(input, target, weight)
    reduction = reduction_name(reduction, size_average, reduce)
    x, t = broadcast_pair(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(unary.abs(arithmetic.sub(x, t)), weight, reduction, True)
    enum = reduction_enum(reduction)
    return apply_loss_reduction(unary.abs(arithmetic.sub(x, t)), enum)


def _check_float_option(value: Any, function: str, parameter: str) -> None:
    """The parser's TypeError for a loss's float option (``beta``, ``delta``).

    It is the kernel's 4th argument (after input, target and the reduction); a 0-d tensor is
    taken, as a number.
    """
    if not is_tensor(value):
        _arguments.check_value(value, "float", function, parameter, 4)


def smooth_l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Any:
    """Smooth L1: ``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``.

    ``d = input - target``. Gradient ``clamp(d / beta, -1, 1) / n``. One
    ``SmoothL1LossBackward0`` node saving input and target; with ``beta == 0`` it is
    ``l1_loss`` (PyTorch switches too).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.smooth_l1_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    _check_loss_arguments(input, target)
    reduction = reduction_name(reduction, size_average, reduce)
    x, t = broadcast_pair(input, target)
    enum = reduction_enum(reduction)
    _check_float_option(beta, "smooth_l1_loss", "beta")
    if beta == 0.0:
        return apply_loss_reduction(unary.abs(arithmetic.sub(x, t)), enum)
    if beta < 0:
        raise RuntimeError(errors.SMOOTH_L1_NEGATIVE_BETA)
    _check_loss_kernel_dtypes(x, t, "smooth_l1_cpu")
    return SmoothL1Loss.apply(x, t, enum, float(beta))


def huber_loss(
    input: Any, target: Any, reduction: str = "mean", delta: float = 1.0, weight: Any = None
) -> Any:
    """Huber loss: ``0.5 d**2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``.

    ``d = input - target``. Gradient ``clamp(d, -delta, delta) / n``. One
    ``HuberLossBackward0`` node saving input and target. With ``weight``: the unreduced loss
    times the weight, then mean (not divided by the weights' sum) or sum.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.huber_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]), delta=2.0)
        tensor(2.0625)
    """
    _check_loss_arguments(input, target, weight)
    x, t = broadcast_pair(input, target)
    if weight is None:
        enum = reduction_enum(reduction)
    else:
        _check_weight_size(weight, input)
        enum = NONE
    _check_float_option(delta, "huber_loss", "delta")
    if delta <= 0:
        raise RuntimeError(errors.HUBER_NONPOSITIVE_DELTA)
    xa, ta = operand(x), operand(t)
    if xa.dtype.kind in "iub":
        if ta.dtype.kind in "iub":
            raise not_implemented("huber_cpu", x)
        raise RuntimeError(errors.inplace_dtype_mismatch(dtype_name(t), dtype_name(x)))
    loss = HuberLoss.apply(x, t, enum, float(delta))
    if weight is None:
        return loss
    return _weighted(loss, weight, reduction, False)


# ==========================================================================================
# binary cross entropy
# ==========================================================================================


class BinaryCrossEntropy(Op):
    """loss = -w (t log(x) + (1 - t) log(1 - x)), each log clamped at -100 (PyTorch).

    dinput = grad w (x - t) / max(x (1 - x), 1e-12) / n;  dtarget = grad w (log(1 - x) -
    log(x)) / n.  Saves input, target and weight (the weight takes no gradient).
    """

    fields = ("reduction",)
    saves = ("self", "target", "weight")
    saved_options = ("reduction",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, weight: Any, reduction: int) -> Any:
        ctx.save_for_backward(x, t, weight)
        ctx.reduction = reduction
        log_x = np.maximum(np.log(x), -100)
        log_1mx = np.maximum(np.log1p(-x), -100)
        loss = (t - 1) * log_1mx - t * log_x
        if weight is not None:
            loss = loss * weight
        return reduce_array(loss.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t, weight = ctx.saved_tensors
        reduction = ctx.reduction
        dx = dt = None
        if ctx.needs_input_grad[0]:
            dx = run(BinaryCrossEntropyGradient, grad, x, t, weight, reduction)
        if ctx.needs_input_grad[1]:  # PyTorch's binary_cross_entropy_target_backward
            dt = -run(Logit, x) * grad
            if weight is not None:
                dt = dt * weight
            dt = _by_mean(dt, reduction, t)
        return dx, dt, None, None


_BCE_EPSILON = 1e-12  # (PyTorch's, for every dtype)


class BinaryCrossEntropyGradient(Op):
    """binary_cross_entropy's input gradient as an op of its own (``..._backward``).

    f(g, x, t) = g w (x - t) / max(x (1 - x), 1e-12) / n.  d(g) = f(grad, x, t) (summed to
    g's shape);  d(x) = gg w (x**2 - 2 x t + t) / ((x + eps)**2 (1 - x + eps)**2) / n;
    d(t) = -gg w / max(x (1 - x), eps) / n, gg = grad * g: PyTorch's
    ``binary_cross_entropy_double_backward`` (and ``..._target``). Under create_graph it records
    BinaryCrossEntropyBackwardBackward0. Saves g (if x or t needs a gradient), x, t, weight.
    """

    node_name = "BinaryCrossEntropyBackwardBackward0"
    num_inputs = 3
    fields = ("reduction",)
    saves = ("grad_output", "self", "target", "weight")
    saved_options = ("reduction",)

    @staticmethod
    def forward(ctx: Any, g: Any, x: np.ndarray, t: np.ndarray, weight: Any,
                reduction: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            needs = ctx.needs_input_grad
            ctx.save_for_backward(g if needs[1] or needs[2] else None, x, t, weight)
            ctx.reduction = reduction
        scale = g * reduction_norm(reduction, math.prod(shape_of(x)))
        if weight is not None:
            scale = scale * weight
        p = x * (1 - x)
        return scale * (x - t) / np.where(p > _BCE_EPSILON, p, _BCE_EPSILON)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any, None, None]:
        g, x, t, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        reduction = ctx.reduction
        d_g = run(BinaryCrossEntropyGradient, grad, x, t, weight, reduction) if needs[0] else None
        d_x = d_t = None
        if needs[1]:
            eps = _BCE_EPSILON
            d_x = (x * x - x * t * 2 + t) / ((x + eps) ** 2 * (1 - x + eps) ** 2) * (grad * g)
            if weight is not None:
                d_x = d_x * weight
            d_x = _by_mean(d_x, reduction, x)
        if needs[2]:
            d_t = -grad * g
            if weight is not None:
                d_t = d_t * weight
            p = (1 - x) * x
            d_t = _by_mean(d_t / np.where(p > _BCE_EPSILON, p, _BCE_EPSILON), reduction, t)
        return d_g, d_x, d_t, None, None


def _bce_arguments(input: Any, target: Any, reduction: str, size_average: Any, reduce: Any,
                   size_error: Any) -> int:
    """The BCE losses' reduction, after their Python-level checks.

    ``size_error``: the message for a target of another size than the input.
    """
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if size_average is not None or reduce is not None:
        enum = reduction_enum(legacy_reduction(size_average, reduce))
    else:
        enum = reduction_enum(reduction)
    if shape_of(target) != shape_of(input):
        raise ValueError(size_error(size_text(shape_of(target)), size_text(shape_of(input))))
    return enum


def binary_cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Binary cross entropy between probabilities ``input`` and ``target`` (both in [0, 1]).

    ``loss = -w (t log(x) + (1 - t) log(1 - x))``, logs clamped at -100. Gradient
    ``w (x - t) / (x (1 - x))``. One ``BinaryCrossEntropyBackward0`` node saving input, target
    and the (expanded) weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.binary_cross_entropy(minigrad.tensor([0.5, 0.9]), minigrad.tensor([1.0, 1.0]))
        tensor(0.3993)
    """
    enum = _bce_arguments(input, target, reduction, size_average, reduce,
                          errors.target_size_deprecated)
    if weight is not None:
        weight = views.expand(weight, _broadcast_to_target(shape_of(target), shape_of(weight)))
    check_no_grad(weight, "weight", "binary_cross_entropy")
    x, t = operand(input), operand(target)
    if t.dtype != x.dtype:  # checked before the kernel is chosen by the input's dtype
        raise RuntimeError(errors.found_dtype(dtype_name(target), dtype_name(input)))
    if x.dtype.kind != "f":
        raise not_implemented("binary_cross_entropy", input)
    if not np.all((x >= 0) & (x <= 1)):
        raise RuntimeError(errors.not_between_0_and_1("input"))
    if not np.all((t >= 0) & (t <= 1)):
        raise RuntimeError(errors.not_between_0_and_1("target"))
    return BinaryCrossEntropy.apply(input, target, weight, enum)


def _broadcast_to_target(target: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    """``torch.broadcast_shapes(target, other)`` with its message for the second shape."""
    result = list((1,) * (len(other) - len(target)) + target)
    for i in range(-1, -len(other) - 1, -1):
        if other[i] == 1 or other[i] == result[i]:
            continue
        if result[i] != 1:
            raise RuntimeError(errors.broadcast_to_target(other[i], i, size_text(other), result))
        result[i] = other[i]
    return tuple(result)


def _log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))``, stable for any x."""
    tail = np.exp(-np.abs(x))
    return np.where(x < 0, x, 0) - (np.log(1 + tail) if is_tensor(x) else np.log1p(tail))


class BinaryCrossEntropyWithLogits(Op):
    """loss = w ((1 - t) x - (1 + (pw - 1) t) log(sigmoid(x))), from logits x.

    dinput = grad w ((pw t + 1 - t) sigmoid(x) - pw t) / n (pw = 1 without ``pos_weight``);
    dtarget = grad w (log(sigmoid(-x)) - pw log(sigmoid(x))) / n.
    Saves input, target, weight and pos_weight (neither weight takes a gradient).
    The result has the target's dtype (PyTorch computes it in place on ``1 - target``).
    """

    fields = ("reduction",)
    saves = ("self", "target", "weight", "pos_weight")
    saved_options = ("reduction",)

    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, t: np.ndarray, weight: Any, pos_weight: Any, reduction: int
    ) -> Any:
        ctx.save_for_backward(x, t, weight, pos_weight)
        ctx.reduction = reduction
        log_sig = _log_sigmoid(x)
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight - 1) * t + 1)
        loss = (1 - t) * x - log_sig
        if weight is not None:
            loss = loss * weight
        return reduce_array(loss.astype(t.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None]:
        # PyTorch's binary_cross_entropy_with_logits_backward and ..._target_backward: the
        # pointwise factor, times grad, times weight, over n for 'mean' (the steps a
        # create_graph records: MulBackward0, MulBackward0, DivBackward1)
        x, t, weight, pos_weight = ctx.saved_tensors
        dx = dt = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                dx = unary.sigmoid_of(x) - t
            else:
                pt = pos_weight * t
                dx = (run(arithmetic.AddScalar, pt, 1) - t) * unary.sigmoid_of(x) - pt
            dx = _weighted_by_mean(dx * grad, weight, ctx.reduction, x)
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                dt = -x * grad
            else:
                dt = (run(LogSigmoid, -x) - run(LogSigmoid, x) * pos_weight) * grad
            dt = _weighted_by_mean(dt, weight, ctx.reduction, t)
        return dx, dt, None, None, None


def _weighted_by_mean(value: Any, weight: Any, reduction: int, x: Any) -> Any:
    """``value`` times ``weight`` (if any), over ``x``'s element count for 'mean'."""
    return _by_mean(value if weight is None else value * weight, reduction, x)


def binary_cross_entropy_with_logits(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> Any:
    """Binary cross entropy on logits: ``sigmoid`` and BCE in one numerically stable step.

    ``loss = w ((1 - t) x - (1 + (pw - 1) t) log(sigmoid(x)))``. Gradient
    ``w ((pw t + 1 - t) sigmoid(x) - pw t)``. One ``BinaryCrossEntropyWithLogitsBackward0``
    node saving input, target, weight and pos_weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.binary_cross_entropy_with_logits(minigrad.tensor([0.0]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """
    enum = _bce_arguments(input, target, reduction, size_average, reduce,
                          errors.target_size_mismatch)
    return binary_cross_entropy_with_logits_aten(input, target, weight, pos_weight, enum)


def binary_cross_entropy_with_logits_aten(
    input: Any, target: Any, weight: Any = None, pos_weight: Any = None, reduction: int = 0
) -> Any:
    """``minigrad.binary_cross_entropy_with_logits``: ATen's form (``pos_weight`` 4th).

    ``reduction`` is a number (see kl_div); a target of another shape broadcasts if it can.

    Example:
        >>> import minigrad
        >>> minigrad.binary_cross_entropy_with_logits(minigrad.tensor([0.0]),
        ...                                           minigrad.tensor([1.0]), reduction=1)
        tensor(0.6931)
    """
    _arguments.check_tensor(input, "binary_cross_entropy_with_logits", "input", 1)
    _arguments.check_tensor(target, "binary_cross_entropy_with_logits", "target", 2)
    shape, target_shape = shape_of(input), shape_of(target)
    if target_shape != shape:  # (ATen's kernel writes (1 - target) * input into the former)
        broadcast = broadcast_shapes(target_shape, shape)
        if broadcast != target_shape:
            raise RuntimeError(errors.inplace_shape_mismatch(target_shape, broadcast))
        input = views.expand(input, broadcast)
    check_no_grad(weight, "weight", "binary_cross_entropy_with_logits")
    check_no_grad(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    x, t = operand(input), operand(target)
    if pos_weight is not None:
        broadcast_shapes(shape_of(pos_weight), t.shape)
    if weight is not None:
        broadcast_shapes(x.shape, shape_of(weight))
    if x.dtype.kind != "f":
        raise not_implemented("log_sigmoid_cpu", input)
    # (PyTorch's kernel computes ``(1 - target).mul_(input)``: a bool target fails the
    # subtraction, an integer one the in-place product)
    if t.dtype == np.bool_:
        raise RuntimeError(errors.SUBTRACT_TWO_BOOLS)
    if t.dtype.kind != "f":
        raise RuntimeError(
            errors.inplace_dtype_mismatch(display_name(result_type(x, t)), dtype_name(target))
        )
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


binary_cross_entropy_with_logits_aten.__qualname__ = "binary_cross_entropy_with_logits"


class Xlogy(Op):
    """z = x log(y), 0 where x == 0 (unless y is nan);  dx = grad log(y),  dy = grad x / y.

    dx is 0 where x == 0. Saves both operands.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, y)
        dtype = result_type(x, y)
        x, y = x.astype(dtype, copy=False), y.astype(dtype, copy=False)
        return np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            grad * np.where(x != 0, np.log(y), 0) if ctx.needs_input_grad[0] else None,
            grad * x / y if ctx.needs_input_grad[1] else None,
        )


def kl_div(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Any:
    """Kullback-Leibler divergence of ``target`` from ``input`` (log-probabilities).

    Pointwise ``target * (log(target) - input)`` (``xlogy(t, t) - t * input``), or
    ``exp(t) * (t - input)`` with ``log_target``; then reduced. 'batchmean' divides the sum by
    the batch size (the mathematical KL divergence); 'mean' divides by every element and warns.
    A composite, as in PyTorch: ``MulBackward0`` (saves the target), ``SubBackward0``, then the
    reduction. Gradient with respect to the input: ``-target / n``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logp, target = minigrad.tensor([[-1.0, -0.5]]), minigrad.tensor([[0.5, 0.5]])
        >>> F.kl_div(logp, target, reduction="batchmean")
        tensor(0.0569)
    """
    _arguments.check_value(log_target, "bool", "kl_div", "log_target")  # (a keyword)
    _arguments.check_tensor(input, "kl_div", "input", 1)
    _arguments.check_tensor(target, "kl_div", "target", 2)
    if size_average is not None or reduce is not None:
        enum = reduction_enum(legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            warnings.warn(errors.KL_DIV_MEAN_REDUCTION, stacklevel=2)
        enum = reduction_enum("sum" if reduction == "batchmean" else reduction)
    reduced = kl_div_aten(input, target, enum, log_target=log_target)
    if reduction == "batchmean" and operand(input).ndim != 0:
        reduced = arithmetic.div(reduced, operand(input).shape[0])
    return reduced


def kl_div_aten(input: Any, target: Any, reduction: int = 0, *, log_target: bool = False) -> Any:
    """``minigrad.kl_div``: ATen's form, ``reduction`` a number: 1 'mean', 2 'sum', else none.

    As PyTorch's argument parser, which reads the schema's default ``at::Reduction::Mean`` as
    0, a call without ``reduction`` does not reduce (likewise the other losses' top-level
    forms). No 'batchmean' and no warning: those are ``nn.functional.kl_div``'s.

    Example:
        >>> import minigrad
        >>> logp, target = minigrad.tensor([-1.0, -0.5]), minigrad.tensor([0.5, 0.5])
        >>> minigrad.kl_div(logp, target, 2)
        tensor(0.0569)
    """
    _arguments.check_tensor(input, "kl_div", "input", 1)
    _arguments.check_tensor(target, "kl_div", "target", 2)
    if operand(input).dtype.kind in "iub" or operand(target).dtype.kind in "iub":
        raise RuntimeError(errors.KL_DIV_INTEGRAL)
    if log_target:
        output = arithmetic.mul(unary.exp(target), arithmetic.sub(target, input))
    else:
        output = arithmetic.sub(Xlogy.apply(target, target), arithmetic.mul(target, input))
    return apply_loss_reduction(output, reduction)


# (the name Python's TypeErrors give it, which the argument checks of minigrad.kl_div reword)
kl_div_aten.__qualname__ = "kl_div"


def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Any:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcast together).

    ``sum((x1 / max(|x1|, eps)) * (x2 / max(|x2|, eps)), dim)``, as PyTorch 2.13 computes it:
    each input divided by its norm first (``LinalgVectorNormBackward0``, a clone, clamped to
    ``eps`` without recording), then ``DivBackward0``, ``MulBackward0`` and ``SumBackward1``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.cosine_similarity(minigrad.tensor([[1.0, 0.0]]), minigrad.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    _arguments.check_int64_arguments(dim)  # (the parser's error comes first)
    a, b = operand(x1), operand(x2)
    common = result_type(a, b)
    if common.kind != "f":
        raise RuntimeError(errors.common_dtype_not_float(display_name(common)))
    if a.dtype.kind != "f":
        x1 = cast(x1, common)
    if b.dtype.kind != "f":
        x2 = cast(x2, common)
    x1, x2 = expand_outplace(x1, x2)
    ndim = len(shape_of(x1))
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    norms = []
    for x in (x1, x2):
        # (dim as given: the norm's node shows it so, as PyTorch's)
        norm = unary.clone(vector_norm(x, 2, dim=dim, keepdim=True))
        with grad_mode.no_grad():
            norm.clamp_(min=float(eps))  # (a double: any Python int converts)
        norms.append(norm)
    product = arithmetic.mul(arithmetic.div(x1, norms[0]), arithmetic.div(x2, norms[1]))
    return reduction_module.sum(product, dim)
