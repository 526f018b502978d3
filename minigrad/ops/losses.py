"""Loss functions, as ``minigrad.nn.functional`` exports them.

mse, l1, smooth l1, huber, binary cross entropy (with logits), nll, cross entropy, kl_div, and
cosine similarity (``loss_common.py`` holds what the losses share).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name, result_type
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.ops import arithmetic, unary, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops._helpers import (
    _check_no_grad,
    _dtype_name,
    _is_tensor,
    _not_implemented,
    _shape,
    _size,
    _tensor,
    cast,
    operand,
)
from minigrad.ops.loss_common import (
    _MEAN,
    _NONE,
    _SUM,
    AddScalar,
    DivScalar,
    _apply_loss_reduction,
    _broadcast_tensors,
    _expand_outplace,
    _legacy_reduction,
    _mul_scalar,
    _norm,
    _reduce_array,
    _reduction,
    _reduction_enum,
    _warn_target_size,
)
from minigrad.ops.normalization import _vector_norm


def _difference(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``x - t`` in PyTorch's result dtype (numpy would make float32 - int64 a float64)."""
    dtype = result_type(x, t)
    return x.astype(dtype, copy=False) - t.astype(dtype, copy=False)


class MseLoss(Op):
    """loss = reduce((input - target) ** 2);  dinput = 2 (input - target) grad / n.

    n is the element count for 'mean', 1 otherwise;  dtarget = -dinput. Saves input and
    target (PyTorch): writing either in place before backward raises.
    """

    fields = ("reduction",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        ctx.save_for_backward(x, t)
        ctx.reduction = reduction
        d = _difference(x, t)
        return _reduce_array(d * d, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, t = ctx.saved_tensors
        dx = (x - t) * grad * (2 * _norm(ctx.reduction, int(np.prod(_shape(x)))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None


class SmoothL1Loss(Op):
    """loss = reduce(0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta), d = input - target.

    dinput = grad * clamp(d / beta, -1, 1) / n,  dtarget = -dinput.  Saves input and target.
    """

    fields = ("reduction", "beta")

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int, beta: float) -> Any:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.beta = reduction, beta
        z = np.abs(_difference(x, t))
        return _reduce_array(np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t = ctx.saved_tensors
        beta, d = ctx.beta, x - t
        slope = np.where(d <= -beta, -1.0, np.where(d >= beta, 1.0, d / beta))
        dx = slope * grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None, None


class HuberLoss(Op):
    """loss = reduce(0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)), d = input - target.

    dinput = grad * clamp(d, -delta, delta) / n,  dtarget = -dinput.  Saves input and target.
    The result has the input's dtype; PyTorch's backward refuses a target of another dtype.
    """

    fields = ("reduction", "delta")

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int, delta: float) -> Any:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.delta = reduction, delta
        z = np.abs(_difference(x, t))
        loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(x.dtype)
        return _reduce_array(loss, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t = ctx.saved_tensors
        if operand(t).dtype != operand(x).dtype:
            raise RuntimeError(f"Found dtype {_dtype_name(t)} but expected {_dtype_name(x)}")
        delta, d = ctx.delta, x - t
        slope = np.where(d < -delta, -delta, np.where(d > delta, delta, d))
        dx = slope * grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None, None


def _check_loss_kernel_dtypes(input: Any, target: Any, kernel: str) -> None:
    # An integer input is accepted only if promotion makes the computation floating point.
    x, t = operand(input), operand(target)
    if x.dtype.kind in "iub" and t.dtype.kind in "iub":
        raise _not_implemented(kernel, input)


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
    raise ValueError(
        f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
    )


def _check_weight_size(weight: Any, input: Any) -> None:
    if _shape(weight) != _shape(input):
        raise ValueError("Weights and input must have the same size.")


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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if weight is not None:
        _arguments.check_has_attribute(weight, "size")
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(arithmetic.pow(arithmetic.sub(x, t), 2), weight, reduction, True)
    enum = _reduction_enum(reduction)
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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if weight is not None:
        _arguments.check_has_attribute(weight, "size")
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(unary.abs(arithmetic.sub(x, t)), weight, reduction, True)
    enum = _reduction_enum(reduction)
    return _apply_loss_reduction(unary.abs(arithmetic.sub(x, t)), enum)


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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    enum = _reduction_enum(reduction)
    if beta == 0.0:
        return _apply_loss_reduction(unary.abs(arithmetic.sub(x, t)), enum)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if weight is not None:
        _arguments.check_has_attribute(weight, "size")
    _warn_target_size(input, target)
    x, t = _broadcast_tensors(input, target)
    if weight is None:
        enum = _reduction_enum(reduction)
    else:
        _check_weight_size(weight, input)
        enum = _NONE
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    xa, ta = operand(x), operand(t)
    if xa.dtype.kind in "iub":
        if ta.dtype.kind in "iub":
            raise _not_implemented("huber_cpu", x)
        raise RuntimeError(
            f"result type {_dtype_name(t)} can't be cast to the desired output type "
            f"{_dtype_name(x)}"
        )
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
        return _reduce_array(loss.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t, weight = ctx.saved_tensors
        scale = grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            p = x * (1 - x)
            dx = scale * (x - t) / np.where(p > 1e-12, p, 1e-12)
        if ctx.needs_input_grad[1]:
            dt = scale * (np.log(1 - x) - np.log(x))
        return dx, dt, None, None


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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        enum = _reduction_enum(reduction)
    if _shape(target) != _shape(input):
        raise ValueError(
            f"Using a target size ({_size(_shape(target))}) that is different to the input "
            f"size ({_size(_shape(input))}) is deprecated. Please ensure they have the same "
            "size."
        )
    if weight is not None:
        weight = views.expand(weight, _broadcast_to_target(_shape(target), _shape(weight)))
    _check_no_grad(weight, "weight", "binary_cross_entropy")
    x, t = operand(input), operand(target)
    if t.dtype != x.dtype:  # checked before the kernel is chosen by the input's dtype
        raise RuntimeError(f"Found dtype {_dtype_name(target)} but expected {_dtype_name(input)}")
    if x.dtype.kind != "f":
        raise _not_implemented("binary_cross_entropy", input)
    if not np.all((x >= 0) & (x <= 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not np.all((t >= 0) & (t <= 1)):
        raise RuntimeError("all elements of target should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight, enum)


def _broadcast_to_target(target: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    """``torch.broadcast_shapes(target, other)`` with its message for the second shape."""
    result = list((1,) * (len(other) - len(target)) + target)
    for i in range(-1, -len(other) - 1, -1):
        if other[i] == 1 or other[i] == result[i]:
            continue
        if result[i] != 1:
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {other[i]} at {i}! Mismatching "
                f"argument at index 1 had {_size(other)}; but expected shape should be "
                f"broadcastable to {errors.format_size(result)}"
            )
        result[i] = other[i]
    return tuple(result)


def _log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))``, stable for any x."""
    tail = np.exp(-np.abs(x))
    return np.where(x < 0, x, 0) - (np.log(1 + tail) if _is_tensor(x) else np.log1p(tail))


def _sigmoid(x: Any) -> Any:
    return (np.tanh(x * 0.5) + 1) * 0.5


class BinaryCrossEntropyWithLogits(Op):
    """loss = w ((1 - t) x - (1 + (pw - 1) t) log(sigmoid(x))), from logits x.

    dinput = grad w ((pw t + 1 - t) sigmoid(x) - pw t) / n (pw = 1 without ``pos_weight``);
    dtarget = grad w (log(sigmoid(-x)) - pw log(sigmoid(x))) / n.
    Saves input, target, weight and pos_weight (neither weight takes a gradient).
    The result has the target's dtype (PyTorch computes it in place on ``1 - target``).
    """

    fields = ("reduction",)

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
        return _reduce_array(loss.astype(t.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None]:
        x, t, weight, pos_weight = ctx.saved_tensors
        scale = grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                dx = scale * (_sigmoid(x) - t)
            else:
                pt = pos_weight * t
                dx = scale * ((pt + 1 - t) * _sigmoid(x) - pt)
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
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _arguments.check_has_attribute(target, "size")
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        enum = _reduction_enum(reduction)
    if _shape(target) != _shape(input):
        raise ValueError(
            f"Target size ({_size(_shape(target))}) must be the same as input size "
            f"({_size(_shape(input))})"
        )
    _check_no_grad(weight, "weight", "binary_cross_entropy_with_logits")
    _check_no_grad(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    x, t = operand(input), operand(target)
    if pos_weight is not None:
        _check_broadcast(_shape(pos_weight), t.shape)
    if weight is not None:
        _check_broadcast(x.shape, _shape(weight))
    if x.dtype.kind != "f":
        raise _not_implemented("log_sigmoid_cpu", input)
    if t.dtype.kind != "f":
        raise RuntimeError(
            f"result type {display_name(result_type(x, t))} can't be cast to the desired "
            f"output type {_dtype_name(target)}"
        )
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, enum)


def _check_broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a, b)) from None


# ==========================================================================================
# negative log likelihood and cross entropy
# ==========================================================================================


class NllLoss(Op):
    """loss_i = -w[t_i] x[i, t_i], 0 where t_i == ignore_index; then reduced.

    'mean' divides by the total weight of the targets that count.
    dinput[i, t_i] = -w[t_i] grad_i (/ total weight for 'mean'), 0 elsewhere: a constant
    pattern times the incoming gradient, so the second derivative is 0. Saves input, target,
    weight and the total weight (a private value): writing the input or the target in place
    before backward raises. The class dimension is 1 (0 for an unbatched input).
    """

    fields = ("reduction", "ignore_index", "axis")

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, given_target: np.ndarray, weight: Any, reduction: int,
        ignore_index: int,
    ) -> np.ndarray:
        target = given_target
        axis = 0 if x.ndim == 1 else 1
        classes = x.shape[axis]
        if x.ndim == 1:
            target = target.reshape(())  # an unbatched target may be (1,)
        valid = target != ignore_index
        bad = valid & ((target < 0) | (target >= classes))
        if bad.any():
            raise IndexError(f"Target {int(target[bad].flat[0])} is out of bounds.")
        safe = np.where(valid, target, 0).astype(np.intp)
        w = np.ones(classes, dtype=x.dtype) if weight is None else weight
        picked_w = np.where(valid, w[safe], 0).astype(x.dtype)
        picked = np.squeeze(np.take_along_axis(x, np.expand_dims(safe, axis), axis), axis)
        losses = np.where(valid, -picked_w * picked, 0).astype(x.dtype)
        total = np.asarray(picked_w.sum(dtype=x.dtype), dtype=x.dtype)
        ctx.save_for_backward(x, given_target, weight, total)
        ctx.reduction, ctx.ignore_index, ctx.axis = reduction, ignore_index, axis
        if reduction == _NONE:
            return losses
        summed = np.asarray(losses.sum(dtype=x.dtype), dtype=x.dtype)
        return summed / total if reduction == _MEAN else summed

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, target, weight, total = ctx.saved_tensors
        target = operand(target)
        if len(_shape(x)) == 1 and target.ndim == 1:
            # PyTorch's forward takes a (1,) target for a (C,) input; its backward does not.
            raise RuntimeError(
                f"size mismatch (got input: {errors.format_size(_shape(x))}, target: "
                f"{errors.format_size(target.shape)})"
            )
        weight = None if weight is None else operand(weight)
        axis, shape = ctx.axis, _shape(x)
        dtype = operand(x).dtype
        valid = target != ctx.ignore_index
        safe = np.where(valid, target, 0).astype(np.intp)
        w = np.ones(shape[axis], dtype=dtype) if weight is None else weight
        coef = np.where(valid, -w[safe], 0).astype(dtype)
        if ctx.reduction == _MEAN and valid.any():
            coef = coef / total
        pattern = np.zeros(shape, dtype=dtype)
        np.put_along_axis(pattern, np.expand_dims(safe, axis), np.expand_dims(coef, axis), axis)
        if ctx.reduction == _NONE:
            grad = np.expand_dims(grad, axis)
        return grad * pattern, None, None, None, None


class NllLoss2d(NllLoss):
    """The same loss for a (N, C, H, W) input and (N, H, W) target (``NllLoss2DBackward0``)."""

    node_name = "NllLoss2DBackward0"


def _check_nll_target_dtype(target: Any, weight: Any, input: Any, kernel: str) -> None:
    t, x = operand(target), operand(input)
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_dtype_name(target)}"
        )
    if x.dtype.kind != "f":
        raise _not_implemented(kernel, input)
    if weight is not None and operand(weight).dtype != x.dtype:
        raise RuntimeError(
            f"expected scalar type {_dtype_name(input)} but found {_dtype_name(weight)}"
        )


def _nll_loss_1d_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(
            f"For 1D input, 1D target must have size 1, but got target size: {t.shape[0]}"
        )
    if x.ndim != 1 and x.shape[0] != t.shape[0]:
        raise RuntimeError(
            f"size mismatch (got input: {errors.format_size(x.shape)}, target: "
            f"{errors.format_size(t.shape)})"
        )
    classes = x.shape[-1]
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes "
            f"but got weight tensor of shape: {errors.format_size(_shape(weight))}"
        )
    _check_nll_target_dtype(target, weight, input, "nll_loss_out_frame")
    _check_no_grad(weight, "weight", "nll_loss_forward")
    return NllLoss.apply(input, target, weight, enum, ignore_index)


def _nll_loss_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {t.ndim}"
        )
    if weight is not None and operand(weight).size != x.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (x.shape[0], x.shape[2], x.shape[3]) != t.shape:
        raise RuntimeError(
            f"size mismatch (got input: {errors.format_size(x.shape)} , target: "
            f"{errors.format_size(t.shape)}"
        )
    _check_nll_target_dtype(target, weight, input, "nll_loss2d_forward_out_frame")
    _check_no_grad(weight, "weight", "nll_loss2d_forward")
    return NllLoss2d.apply(input, target, weight, enum, ignore_index)


def _nll_loss_nd(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    """PyTorch's ``nll_loss_nd``: 1-D/2-D inputs, 4-D ones, and others folded into 4-D."""
    x, t = operand(input), operand(target)
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim != 1 and (t.ndim == 0 or x.shape[0] != t.shape[0]):
        batch = t.shape[0] if t.ndim else 1
        raise ValueError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({batch})."
        )
    if x.ndim <= 2:
        return _nll_loss_1d_2d(input, target, weight, enum, ignore_index)
    if x.ndim == 4:
        return _nll_loss_2d(input, target, weight, enum, ignore_index)
    n, c = x.shape[0], x.shape[1]
    out_size = (n, *x.shape[2:])
    if t.shape[1:] != x.shape[2:]:
        raise RuntimeError(
            f"Expected target size {errors.format_size(out_size)}, got "
            f"{errors.format_size(t.shape)}"
        )
    folded = views.view(input.contiguous(), (n, c, 1, -1) if x.size else (n, c, 0, 0))
    folded_target = views.view(target.contiguous(), (n, 1, -1) if t.size else (n, 0, 0))
    out = _nll_loss_2d(folded, folded_target, weight, enum, ignore_index)
    return out if enum != _NONE else views.view(out, out_size)


def nll_loss(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Negative log likelihood of class indices: ``-weight[target[i]] * input[i, target[i]]``.

    'mean' averages over the counted targets' total weight.

    ``input`` holds log-probabilities, with classes on dimension 1 ((N, C), (N, C, d1, ...))
    or 0 for an unbatched (C,) input; ``target`` holds int64 (or uint8) class indices;
    entries equal to ``ignore_index`` count for nothing. Gradient: ``-weight[t]`` at each
    target's position (divided by the total weight for 'mean'), 0 elsewhere.
    Records ``NllLossBackward0`` (``NllLoss2DBackward0`` from 3 dimensions on, with views
    around it), which saves input and target.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logp = minigrad.tensor([[-1.0, -2.0], [-3.0, -0.5]])
        >>> F.nll_loss(logp, minigrad.tensor([0, 1]))
        tensor(0.7500)
    """
    _arguments.check_tensor(input, "nll_loss_nd", "input", 1)
    _arguments.check_tensor(target, "nll_loss_nd", "target", 2)
    reduction = _reduction(reduction, size_average, reduce)
    enum = _reduction_enum(reduction)
    return _nll_loss_nd(input, target, weight, enum, ignore_index)


def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Any:
    """Cross entropy between logits ``input`` and class indices or class probabilities.

    With class indices it is ``nll_loss(log_softmax(input, class_dim), target)``: nodes
    ``LogSoftmaxBackward0`` (saves its result) and ``NllLossBackward0`` (saves that result
    and the target), so writing the logits in place afterwards is legal and writing the target
    is not. ``label_smoothing`` mixes in the uniform distribution: ``(1 - s) * nll + s / C *
    smooth`` where ``smooth = -sum(log_softmax)`` over classes (ignored targets excluded).

    With a float ``target`` of the input's shape (class probabilities) it is
    ``-(log_softmax(input) * target).sum() / (N * d1 ...)`` (or 'sum', or 'none': summed over
    classes), optionally weighted per class.

    Gradient (indices, no weight, 'mean'): ``(softmax(input) - onehot(target)) / N``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logits = minigrad.tensor([[2.0, 0.0], [0.0, 2.0]], requires_grad=True)
        >>> F.cross_entropy(logits, minigrad.tensor([0, 1]))
        tensor(0.1269, grad_fn=<NllLossBackward0>)
    """
    _arguments.check_tensor(input, "cross_entropy_loss", "input", 1)
    _arguments.check_tensor(target, "cross_entropy_loss", "target", 2)
    reduction = _reduction(reduction, size_average, reduce)
    enum = _reduction_enum(reduction)
    x, t = operand(input), operand(target)
    if x.shape == t.shape:
        if t.dtype.kind != "f":
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{_dtype_name(target)}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, enum, label_smoothing)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        return _cross_entropy_label_smoothing(
            input, target, weight, enum, ignore_index, label_smoothing
        )
    class_dim = 0 if x.ndim == 1 else 1
    logp = reduction_module.log_softmax(input, class_dim)
    return _nll_loss_nd(logp, target, weight, enum, ignore_index)


def _check_label_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {_float_text(label_smoothing)}"
        )


def _float_text(value: float) -> str:
    # C++ prints a double with the shortest round-trip form, like Python's repr (1.5, 2).
    return f"{value:g}" if float(value).is_integer() else repr(float(value))


def _class_weight_view(weight: Any, ndim: int, class_dim: int) -> Any:
    """The per-class weight shaped to broadcast along ``class_dim`` (a view, as PyTorch)."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = _shape(weight)[0]
    return views.view(weight, tuple(shape))


def _cross_entropy_probabilities(
    input: Any, target: Any, weight: Any, enum: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    classes = x.shape[class_dim]
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {classes} classes "
            f"or no classes but got weight tensor of shape: {errors.format_size(_shape(weight))}"
        )
    logp = reduction_module.log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        target = AddScalar.apply(
            _mul_scalar(target, 1 - label_smoothing), label_smoothing / classes
        )
    product = arithmetic.mul(logp, target)
    if weight is not None:
        product = arithmetic.mul(product, _class_weight_view(weight, x.ndim, class_dim))
    if enum == _MEAN:
        total = reduction_module.sum(product)
        if x.size == 0:
            return unary.neg(total.fill_(math.nan))
        return DivScalar.apply(unary.neg(total), x.size // classes)
    if enum == _SUM:
        return unary.neg(reduction_module.sum(product))
    return unary.neg(reduction_module.sum(product, class_dim))


def _cross_entropy_label_smoothing(
    input: Any, target: Any, weight: Any, enum: int, ignore_index: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    logp = reduction_module.log_softmax(input, class_dim)
    nll = _nll_loss_nd(logp, target, weight, enum, ignore_index)
    classes = x.shape[class_dim]
    ignore_mask = target == ignore_index
    if weight is not None:
        weighted = arithmetic.mul(logp, _class_weight_view(weight, x.ndim, class_dim))
        smooth = unary.neg(reduction_module.sum(weighted, class_dim))
    else:
        smooth = unary.neg(reduction_module.sum(logp, class_dim))
    smooth.masked_fill_(ignore_mask, 0.0)
    if enum == _MEAN:
        keep = ~operand(ignore_mask)
        if weight is not None:
            counted = operand(target)[keep].astype(np.intp)
            denominator = _tensor(operand(weight)[counted].sum(dtype=operand(weight).dtype))
        else:
            denominator = _tensor(np.asarray(keep.sum(), dtype=np.int64))
        ret = arithmetic.div(reduction_module.sum(smooth), denominator)
    elif enum == _SUM:
        ret = reduction_module.sum(smooth)
    else:
        ret = smooth
    return arithmetic.add(
        _mul_scalar(nll, 1 - label_smoothing), _mul_scalar(ret, label_smoothing / classes)
    )


# ==========================================================================================
# kl_div and cosine_similarity
# ==========================================================================================


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
    _arguments.check_value(log_target, "bool", "kl_div", "log_target", 4)
    _arguments.check_tensor(input, "kl_div", "input", 1)
    _arguments.check_tensor(target, "kl_div", "target", 2)
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the "
                "support size.'batchmean' divides only by the batch size, and aligns with the "
                "KL div math definition.'mean' will be changed to behave the same as "
                "'batchmean' in the next major release.",
                stacklevel=2,
            )
        enum = _reduction_enum("sum" if reduction == "batchmean" else reduction)
    if operand(input).dtype.kind in "iub" or operand(target).dtype.kind in "iub":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        output = arithmetic.mul(unary.exp(target), arithmetic.sub(target, input))
    else:
        output = arithmetic.sub(Xlogy.apply(target, target), arithmetic.mul(target, input))
    reduced = _apply_loss_reduction(output, enum)
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
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            f"{display_name(common)}"
        )
    if a.dtype.kind != "f":
        x1 = cast(x1, common)
    if b.dtype.kind != "f":
        x2 = cast(x2, common)
    x1, x2 = _expand_outplace(x1, x2)
    ndim = len(_shape(x1))
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    axis = dim % max(ndim, 1)
    norms = []
    for x in (x1, x2):
        norm = unary.clone(_vector_norm(x, axis))
        with grad_mode.no_grad():
            norm.clamp_(min=eps)
        norms.append(norm)
    product = arithmetic.mul(arithmetic.div(x1, norms[0]), arithmetic.div(x2, norms[1]))
    return reduction_module.sum(product, dim)
