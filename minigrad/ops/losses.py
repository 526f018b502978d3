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
from minigrad.ops import arithmetic, unary, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops._helpers import (
    broadcast_shapes,
    cast,
    check_no_grad,
    dtype_name,
    is_tensor,
    not_implemented,
    operand,
    shape_of,
    size_text,
)
from minigrad.ops.loss_common import (
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
        dx = (x - t) * grad * (2 * reduction_norm(ctx.reduction, math.prod(shape_of(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None


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
        c, d = ctx.threshold, x - t
        slope = np.where(d <= -c, -c, np.where(d >= c, c, d))  # |d| = c: slope flat (PyTorch)
        if cls.per_threshold:
            slope = slope / c
        dx = slope * grad * reduction_norm(ctx.reduction, int(np.prod(shape_of(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None, None


class SmoothL1Loss(HuberShapedLoss):
    """loss = reduce(0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta), d = input - target.

    dinput = grad * clamp(d / beta, -1, 1) / n,  dtarget = -dinput.  Saves input and target.
    """

    saved_options = {"reduction": "reduction", "beta": "threshold"}
    per_threshold = True
    input_dtype_only = False


class HuberLoss(HuberShapedLoss):
    """loss = reduce(0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)), d = input - target.

    dinput = grad * clamp(d, -delta, delta) / n,  dtarget = -dinput.  Saves input and target.
    The result has the input's dtype; PyTorch's backward refuses a target of another dtype.
    """

    saved_options = {"reduction": "reduction", "delta": "threshold"}
    per_threshold = False
    input_dtype_only = True


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
        return _weighted(arithmetic.pow(arithmetic.sub(x, t), 2), weight, reduction, True)
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
        scale = grad * reduction_norm(ctx.reduction, int(np.prod(shape_of(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            p = x * (1 - x)
            dx = scale * (x - t) / np.where(p > 1e-12, p, 1e-12)
        if ctx.needs_input_grad[1]:
            dt = scale * (np.log(1 - x) - np.log(x))
        return dx, dt, None, None


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
        x, t, weight, pos_weight = ctx.saved_tensors
        scale = grad * reduction_norm(ctx.reduction, int(np.prod(shape_of(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                dx = scale * (unary.sigmoid_of(x) - t)
            else:
                pt = pos_weight * t
                dx = scale * ((pt + 1 - t) * unary.sigmoid_of(x) - pt)
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                dt = scale * -x
            else:
                dt = scale * (_log_sigmoid(-x) - _log_sigmoid(x) * pos_weight)
        return dx, dt, None, None, None


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
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, enum)


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
    if operand(input).dtype.kind in "iub" or operand(target).dtype.kind in "iub":
        raise RuntimeError(errors.KL_DIV_INTEGRAL)
    if log_target:
        output = arithmetic.mul(unary.exp(target), arithmetic.sub(target, input))
    else:
        output = arithmetic.sub(Xlogy.apply(target, target), arithmetic.mul(target, input))
    reduced = apply_loss_reduction(output, enum)
    if reduction == "batchmean" and operand(input).ndim != 0:
        reduced = arithmetic.div(reduced, operand(input).shape[0])
    return reduced


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
            norm.clamp_(min=eps)
        norms.append(norm)
    product = arithmetic.mul(arithmetic.div(x1, norms[0]), arithmetic.div(x2, norms[1]))
    return reduction_module.sum(product, dim)
