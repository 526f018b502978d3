"""The margin losses PyTorch computes with kernels of their own (ATen's ``Loss*.cpp``).

``soft_margin_loss`` (``SoftMarginLossBackward0``), ``multi_margin_loss``
(``MultiMarginLossBackward0``) and ``multilabel_margin_loss``
(``MultilabelMarginLossBackward0``): one node each, saving what PyTorch saves. Soft margin's
first backward is an op of its own, as in PyTorch, which can be differentiated again
(``SoftMarginLossBackwardBackward0``); PyTorch has no derivative of the other two's gradients:
under create_graph they record its ``torch::autograd::NotImplemented`` node, whose backward
raises PyTorch's error.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _arguments, _dtype, errors
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.ops._helpers import (
    NoDerivativeOfGradient,
    check_no_grad,
    dtype_name,
    is_tensor,
    not_implemented,
    operand,
    run,
)
from minigrad.ops.loss_common import (
    MEAN,
    NONE,
    reduce_array,
    reduction_enum,
    reduction_name,
    reduction_norm,
)

__all__ = ["multi_margin_loss", "multilabel_margin_loss", "soft_margin_loss"]


def _reduction(reduction: str, size_average: Any, reduce: Any) -> int:
    return reduction_enum(reduction_name(reduction, size_average, reduce))


# ==========================================================================================
# soft margin loss
# ==========================================================================================


class SoftMarginLoss(Op):
    """loss = log(1 + exp(-t x)), reduced;  dinput = -t z / (1 + z) grad / n, z = exp(-t x).

    n is the element count for 'mean', 1 otherwise; the target takes no gradient (PyTorch
    refuses one that requires grad). Saves input and target.
    """

    fields = ("reduction",)
    saves = ("self", "target")
    saved_options = ("reduction",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        ctx.save_for_backward(x, t)
        ctx.reduction = reduction
        loss = np.log1p(np.exp(-x * t)).astype(x.dtype, copy=False)  # (t may be bool)
        return reduce_array(loss, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, t = ctx.saved_tensors
        return run(SoftMarginLossGradient, grad, x, t, ctx.reduction), None, None


class SoftMarginLossGradient(Op):
    """soft_margin_loss's gradient as an op of its own (PyTorch's ``soft_margin_loss_backward``).

    f(g, x, t) = -t z / (1 + z) g / n with z = exp(-t x).  d(g) = f(grad, x, t) (summed to
    g's shape);  d(x) = grad g t^2 z / (1 + z)^2 / n (PyTorch's
    ``soft_margin_loss_double_backward``). Saves g, x and t.
    """

    node_name = "SoftMarginLossBackwardBackward0"
    num_inputs = 3
    fields = ("reduction",)
    saves = ("grad_output", "self", "target")
    saved_options = ("reduction",)

    @staticmethod
    def forward(ctx: Any, g: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(g, x, t)
            ctx.reduction = reduction
        z = np.exp(-x * t)
        norm = reduction_norm(reduction, math.prod(np.shape(x)))
        return (-(t * z) / (1 + z) * norm * g).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        g, x, t = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = run(SoftMarginLossGradient, grad, x, t, ctx.reduction) if needs[0] else None
        d_x = None
        if needs[1]:
            z = np.exp(-x * t)
            norm = reduction_norm(ctx.reduction, math.prod(np.shape(x)))
            d_x = grad * g * norm * t * t * z / ((1 + z) * (1 + z))
        return d_g, d_x, None, None


def soft_margin_loss(
    input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean"
) -> Any:
    """Two-class logistic loss ``log(1 + exp(-target * input))`` for targets of 1 and -1, reduced.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.soft_margin_loss(minigrad.tensor([2.0, -1.0]), minigrad.tensor([1.0, -1.0]))
        tensor(0.2201)
    """
    enum = _reduction(reduction, size_average, reduce)
    _arguments.check_tensor(input, "soft_margin_loss", "input", 1)
    _arguments.check_tensor(target, "soft_margin_loss", "target", 2)
    x, t = operand(input), operand(target)
    try:  # (the kernel broadcasts: it saves the target as given)
        np.broadcast_shapes(np.shape(x), np.shape(t))
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(np.shape(x), np.shape(t))) from None
    if x.dtype.kind != "f":
        raise RuntimeError(errors.inplace_dtype_mismatch("Float", dtype_name(input)))
    check_no_grad(target, "target", "soft_margin_loss")
    return SoftMarginLoss.apply(input, target, enum)


# ==========================================================================================
# multi-class margin loss
# ==========================================================================================


def _frames(x: np.ndarray) -> tuple[int, int]:
    """(samples, classes) of a (C,), 0-d or (N, C) input."""
    return (1, max(x.size, 1)) if x.ndim <= 1 else (x.shape[0], x.shape[1])


def _check_matrix(x: np.ndarray) -> None:
    if not ((x.ndim <= 1 and x.size != 0) or (x.ndim == 2 and x.shape[1] != 0)):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(x.shape)}"
        )


def _reduce_frames(losses: np.ndarray, reduction: int, keep: tuple[int, ...]) -> np.ndarray:
    """Per-sample losses reduced: 'none' gives ``keep``'s shape, 'mean' divides by the count."""
    if reduction == NONE:
        return losses.reshape(keep)
    total = losses.sum(dtype=losses.dtype)
    if reduction == MEAN:
        total = total / losses.size if losses.size else np.zeros((), losses.dtype)
    return np.asarray(total, dtype=losses.dtype)


def _frame_scale(grad: Any, reduction: int, frames: int, classes: int) -> np.ndarray:
    """The incoming gradient of each sample times 1 / C (and 1 / N for 'mean'), as a column."""
    scale = 1.0 / (frames * classes) if reduction == MEAN else 1.0 / classes
    if reduction == NONE:
        return np.reshape(grad, (frames, 1)) * scale
    return np.full((frames, 1), np.asarray(grad).item() * scale)


class MultiMarginLoss(Op):
    """loss_i = sum_{j != y} w_y max(0, margin - x[i, y] + x[i, j]) ** p / C, y = target[i].

    Reduced over the samples. The gradient: each active term adds
    its slope (1, or 2 z for p = 2) times w_y / C to x[i, j] and takes it from x[i, y]. Saves
    input, target and weight.
    """

    tensor_options = True  # the target and the weight
    fields = ("p", "margin", "reduction")
    saves = ("self", "target", "weight")
    saved_options = ("p", "margin", "reduction")

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        target: np.ndarray,
        weight: Any,
        p: int,
        margin: float,
        reduction: int,
    ) -> np.ndarray:
        ctx.save_for_backward(x, target, weight)
        ctx.p, ctx.margin, ctx.reduction = p, margin, reduction
        frames, classes = _frames(x)
        slopes, terms = _multi_margin_terms(x, target, weight, p, margin)
        keep = (frames,) if target.ndim > 0 else ()
        return _reduce_frames(terms.sum(axis=1, dtype=x.dtype) / classes, reduction, keep)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None, None]:
        x, target, weight = ctx.saved_tensors
        gradient = _multi_margin_gradient(
            operand(grad),
            operand(x),
            operand(target),
            operand(weight),
            ctx.p,
            ctx.margin,
            ctx.reduction,
        )
        return _not_differentiable_again(gradient, grad, x, "multi_margin_loss"), *(None,) * 5


def _multi_margin_terms(
    x: np.ndarray, target: np.ndarray, weight: Any, p: int, margin: float
) -> tuple[np.ndarray, np.ndarray]:
    """Each (sample, class) term of the loss and its slope in x[i, j], as (N, C) arrays."""
    frames, classes = _frames(x)
    rows = x.reshape(frames, classes)
    y = target.reshape(frames).astype(np.intp)
    if ((y < 0) | (y >= classes)).any():
        raise RuntimeError("target out of range")
    z = margin - rows[np.arange(frames), y][:, None] + rows
    active = (z > 0) & (np.arange(classes) != y[:, None])
    z = np.where(active, z, 0).astype(x.dtype)
    terms, slopes = (z, active.astype(x.dtype)) if p == 1 else (z * z, 2 * z)
    if weight is not None:
        w = weight.reshape(-1)[y][:, None]
        terms, slopes = terms * w, slopes * w
    return slopes, terms


def _multi_margin_gradient(
    grad: Any,
    x: np.ndarray,
    target: np.ndarray,
    weight: Any,
    p: int,
    margin: float,
    reduction: int,
) -> np.ndarray:
    """PyTorch's ``multi_margin_loss_backward``: each active term's slope w_y / C (/ N)."""
    frames, classes = _frames(x)
    slopes, _ = _multi_margin_terms(x, target, weight, p, margin)
    slopes = slopes * _frame_scale(grad, reduction, frames, classes)
    gradient = slopes.copy()
    gradient[np.arange(frames), target.reshape(frames)] -= slopes.sum(axis=1)
    return gradient.astype(x.dtype, copy=False).reshape(x.shape)


def _not_differentiable_again(gradient: np.ndarray, grad: Any, x: Any, kernel: str) -> Any:
    """The gradient; under create_graph (x a tensor) PyTorch's NotImplemented node over it.

    With edges to ``grad`` and ``x``, as PyTorch's.
    """
    if is_tensor(x):
        return NoDerivativeOfGradient.apply(grad, x, gradient, f"aten::{kernel}_backward")
    return gradient


def multi_margin_loss(
    input: Any,
    target: Any,
    p: int = 1,
    margin: float = 1.0,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Multi-class hinge loss: each wrong class's score within ``margin`` of the right one's.

    ``sum_{j != y} max(0, margin - x[y] + x[j]) ** p / C`` per sample (``p`` 1 or 2), each
    term scaled by ``weight[y]``; ``target`` holds class indices (int64).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.multi_margin_loss(minigrad.tensor([[0.1, 0.2, 0.4, 0.8]]), minigrad.tensor([3]))
        tensor(0.3250)
    """
    enum = _reduction(reduction, size_average, reduce)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _arguments.check_tensor(input, "multi_margin_loss", "input", 1)
    _arguments.check_tensor(target, "multi_margin_loss", "target", 2)
    _dtype.check_scalar_arguments(p, margin)  # (the parser's error comes first)
    x, t = operand(input), operand(target)
    _check_matrix(x)
    frames, classes = _frames(x)
    if t.ndim > 1 or t.size != frames:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{frames}], but got "
            f"{list(t.shape)}. Input has shape {list(x.shape)}."
        )
    if weight is not None and operand(weight).size != classes:
        raise RuntimeError(
            f"inconsistent weight size, expected {classes} but got {list(weight.shape)}"
        )
    if x.dtype.kind != "f":
        raise not_implemented("multi_margin_loss_cpu_kernel", input)
    _check_dtype(t, np.dtype(np.int64))
    if weight is not None:
        _check_dtype(operand(weight), x.dtype)
    check_no_grad(weight, "weight", "multi_margin_loss")
    return MultiMarginLoss.apply(input, target, weight, int(p), float(margin), enum)


def _check_dtype(value: np.ndarray, expected: np.dtype) -> None:
    if value.dtype != expected:
        raise RuntimeError(errors.expected_scalar_type(expected, value.dtype))


# ==========================================================================================
# multi-label margin loss
# ==========================================================================================


def _multilabel_terms(x: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The active hinge terms (N, K, C) of each target entry k against class j, and is_target.

    A row's targets are its entries before the first -1; each is compared with every class
    that is not a target (a repeated target counts twice, as in PyTorch's loop).
    """
    frames, classes = _frames(x)
    rows = x.reshape(frames, classes)
    labels = target.reshape(frames, classes)
    counted = np.cumprod(labels != -1, axis=1).astype(bool)
    safe = np.where(counted, labels, 0).astype(np.intp)
    is_target = np.zeros((frames, classes), dtype=x.dtype)
    is_target[np.nonzero(counted)[0], labels[counted]] = 1
    picked = np.take_along_axis(rows, safe, axis=1)
    z = 1 - picked[:, :, None] + rows[:, None, :]
    active = counted[:, :, None] & (is_target[:, None, :] == 0) & (z > 0)
    return np.where(active, z, 0).astype(x.dtype), is_target


class MultilabelMarginLoss(Op):
    """loss_i = sum_{targets y} sum_{non-targets j} max(0, 1 - (x[i, y] - x[i, j])) / C.

    Reduced over the samples. The gradient: each active term
    adds 1 / C to x[i, j] and takes it from x[i, y]. Saves input, target and ``is_target`` (1
    where a class is among the row's targets), as PyTorch.
    """

    tensor_options = True  # the target
    fields = ("reduction",)
    saves = ("self", "target", "is_target")
    saved_options = ("reduction",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, target: np.ndarray, reduction: int) -> np.ndarray:
        frames, classes = _frames(x)
        z, is_target = _multilabel_terms(x, target)
        ctx.save_for_backward(x, target, is_target.reshape(target.shape))
        ctx.reduction = reduction
        keep = (frames,) if x.ndim == 2 else ()
        losses = z.sum(axis=(1, 2), dtype=x.dtype) / x.dtype.type(classes)
        return _reduce_frames(losses, reduction, keep)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, target, _is_target = ctx.saved_tensors
        gradient = _multilabel_gradient(operand(grad), operand(x), operand(target), ctx.reduction)
        return (
            _not_differentiable_again(gradient, grad, x, "multilabel_margin_loss"), None, None
        )


def _multilabel_gradient(
    grad: Any, x: np.ndarray, target: np.ndarray, reduction: int
) -> np.ndarray:
    """PyTorch's ``multilabel_margin_loss_backward``: +1 / C at j, -1 / C at y, per term."""
    frames, classes = _frames(x)
    z, _ = _multilabel_terms(x, target)
    active = (z > 0) * _frame_scale(grad, reduction, frames, classes)[:, :, None]
    gradient = active.sum(axis=1)
    labels = np.where(target.reshape(frames, classes) == -1, 0, target.reshape(frames, -1))
    np.add.at(gradient, (np.arange(frames)[:, None], labels.astype(np.intp)), -active.sum(axis=2))
    return gradient.astype(x.dtype, copy=False).reshape(x.shape)


def multilabel_margin_loss(
    input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean"
) -> Any:
    """Multi-label hinge loss: every target class's score 1 above every other class's.

    ``target`` (int64, the input's shape) lists each sample's target classes, ended by -1.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> F.multilabel_margin_loss(x, minigrad.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    enum = _reduction(reduction, size_average, reduce)
    _arguments.check_tensor(input, "multilabel_margin_loss", "input", 1)
    _arguments.check_tensor(target, "multilabel_margin_loss", "target", 2)
    x, t = operand(input), operand(target)
    _check_matrix(x)
    frames, classes = _frames(x)
    fits = t.ndim <= 1 and t.size == classes if x.ndim <= 1 else t.shape == (frames, classes)
    if not fits:
        raise RuntimeError(
            f"inconsistent target size: {list(t.shape)} for input of size: {list(x.shape)}"
        )
    if t.size and (t.min() < -1 or t.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    if x.dtype.kind != "f":
        raise not_implemented("multilabel_margin_loss_forward_out_frame", input)
    _check_dtype(t, np.dtype(np.int64))
    return MultilabelMarginLoss.apply(input, target, enum)
