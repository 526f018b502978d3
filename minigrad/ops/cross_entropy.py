"""The negative log likelihood and cross entropy losses, as ``nn.functional`` exports them.

nll_loss records ``NllLossBackward0`` (``NllLoss2dBackward0`` for 4-d inputs); cross_entropy is
log_softmax then nll_loss, or, for class probabilities and label smoothing, the composition
PyTorch records.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, errors
from minigrad.autograd import grad_mode, record
from minigrad.autograd.debug_switches import modes_on
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.quiet import restore, silence
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, unary, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops._helpers import (
    Constants,
    check_no_grad,
    constant_tensor,
    dim_size,
    dtype_name,
    not_implemented,
    operand,
    run,
    shape_of,
    zeros_like_grad,
)
from minigrad.ops.arithmetic import AddScalar, DivScalar
from minigrad.ops.loss_common import (
    MEAN,
    NONE,
    SUM,
    mul_scalar,
    reduction_enum,
    reduction_name,
)
from minigrad.ops.softmax import LogSoftmax, log_softmax


class NllLoss(Op):
    """loss_i = -w[t_i] x[i, t_i], 0 where t_i == ignore_index; then reduced.

    'mean' divides by the total weight of the targets that count.
    dinput[i, t_i] = -w[t_i] grad_i (/ total weight for 'mean'), 0 elsewhere: a constant
    pattern times the incoming gradient (``NllLossGradient``, an op of its own as in PyTorch,
    whose derivative for the input is 0). Saves input, target,
    weight and the total weight (a private value): writing the input or the target in place
    before backward raises. The class dimension is 1 (0 for an unbatched input).
    """

    tensor_options = True  # an index or target tensor among the options
    gradient: ClassVar[type[Op]]  # its first backward, an op of its own (set below)

    # plain: forward took its common case (``_nll_forward_plain``), so backward does too
    fields = ("reduction", "ignore_index", "axis", "plain")
    saves = ("self", "target", "weight", "total_weight")
    saved_options = {"reduction": "reduction", "ignore_index": as_given("ignore_index")}

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
        if weight is None and x.ndim == 2 and _all_counted(target, classes, ignore_index):
            return _nll_forward_plain(ctx, x, given_target, reduction, ignore_index)
        valid = target != ignore_index
        bad = valid & ((target < 0) | (target >= classes))
        if bad.any():
            raise IndexError(errors.target_out_of_bounds(int(target[bad].flat[0])))
        safe = np.where(valid, target, 0).astype(np.intp)
        if valid.any():
            w = np.ones(classes, dtype=x.dtype) if weight is None else weight
            picked_w = np.where(valid, w[safe], 0).astype(x.dtype)
            picked = np.squeeze(np.take_along_axis(x, np.expand_dims(safe, axis), axis), axis)
        else:  # every target ignored, the only way through with no classes: nothing to pick
            picked_w = picked = np.zeros(target.shape, dtype=x.dtype)
        losses = np.where(valid, -picked_w * picked, 0).astype(x.dtype)
        total = np.asarray(picked_w.sum(dtype=x.dtype), dtype=x.dtype)
        # PyTorch leaves a batch's total weight at 0 without a reduction
        kept_total = np.zeros_like(total) if reduction == NONE and x.ndim > 1 else total
        ctx.save_for_backward(x, given_target, weight, kept_total)
        ctx.reduction, ctx.ignore_index, ctx.axis, ctx.plain = reduction, ignore_index, axis, False
        if reduction == NONE:
            # An unbatched input's loss is a sum in PyTorch's kernel, from 0: -0.0 becomes 0.0.
            return np.asarray(losses + x.dtype.type(0)) if x.ndim == 1 else losses
        summed = np.asarray(losses.sum(dtype=x.dtype), dtype=x.dtype)
        return summed / total if reduction == MEAN else summed

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, target, weight, total = ctx.saved_tensors
        gradient = run(cls.gradient, grad, x, target, weight, total, ctx.reduction,
                       ctx.ignore_index, ctx.axis, ctx.plain)
        return gradient, None, None, None, None


class NllLossGradient(Op):
    """nll_loss's gradient as an op of its own (PyTorch's ``nll_loss_backward``).

    f(g, x) = -w[t_i] g_i (/ total weight for 'mean') at each counted row's target entry, 0
    elsewhere (x gives only the shape and dtype).  d(g) = nll_loss(grad, target) (PyTorch's
    formula: the loss applied to the incoming gradient);  d(x) = 0 (``zeros_like``: f does not
    depend on x's values, but x is its input, as in PyTorch). Under create_graph it records
    NllLossBackwardBackward0. Saves the target and the weight; the total weight is an option
    forward reads (d(g) computes its own).
    """

    node_name = "NllLossBackwardBackward0"
    loss: ClassVar[type[NllLoss]] = NllLoss  # d(g)'s loss
    num_inputs = 2
    tensor_options = True  # the target, weight and total weight
    fields = ("reduction", "ignore_index")
    saves = ("target", "weight")
    saved_options = {"reduction": "reduction", "ignore_index": as_given("ignore_index")}

    @staticmethod
    def forward(
        ctx: Any, grad: Any, x: np.ndarray, target: np.ndarray, weight: Any, total: Any,
        reduction: int, ignore_index: int, axis: int, plain: bool,
    ) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(target, weight)
            ctx.reduction, ctx.ignore_index = reduction, ignore_index
        shape, dtype = x.shape, x.dtype
        # (The target forward checked is saved: unchanged, or backward raised, unless it was
        # written through ``.data``, which no counter sees: then the general way decides.)
        if plain and _all_counted(target, shape[1], ignore_index):
            return _nll_gradient_plain(reduction, shape, dtype, target, total, grad)
        if len(shape) == 1 and target.ndim == 1:
            # PyTorch's forward takes a (1,) target for a (C,) input; its backward does not.
            raise RuntimeError(errors.nll_size_mismatch(shape, target.shape))
        valid = target != ignore_index
        bad = valid & ((target < 0) | (target >= shape[axis]))
        if bad.any():
            if reduction != NONE or len(shape) == 1:
                # PyTorch's backward checks each counted target again, in order
                raise IndexError(errors.target_out_of_bounds(int(target[bad].flat[0])))
            # Per-element losses of a batch: its kernel checks nothing and writes where the
            # index points (outside the row: undefined); minigrad writes nothing for them.
            valid = valid & ~bad
        pattern = np.zeros(shape, dtype=dtype)
        # PyTorch writes the counted targets' entries only: the rest stay 0 even where the
        # incoming gradient is nan (a 'mean' over no counted target is 0 / 0, say)
        counted = np.zeros(shape, dtype=bool)
        if valid.any():  # (with no classes every target is ignored: no column to write into)
            safe = np.expand_dims(np.where(valid, target, 0).astype(np.intp), axis)
            w = np.ones(shape[axis], dtype=dtype) if weight is None else weight
            coef = np.where(valid, -w[safe.squeeze(axis)], 0).astype(dtype)
            if reduction == MEAN:
                coef = coef / total
            np.put_along_axis(pattern, safe, np.expand_dims(coef, axis), axis)
            np.put_along_axis(counted, safe, np.expand_dims(valid, axis), axis)
        if reduction == NONE:
            grad = np.expand_dims(grad, axis)
        return np.where(counted, grad * pattern, 0).astype(dtype)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        target, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_g = None
        if needs[0]:
            d_g = run(cls.loss, grad, target, weight, ctx.reduction, ctx.ignore_index)
        d_x = zeros_like_grad(grad) if needs[1] else None
        return d_g, d_x, None, None, None, None, None, None, None


def _all_counted(target: np.ndarray, classes: int, ignore_index: int) -> bool:
    """True if every target is a class index and none is ``ignore_index``: the common case.

    The plain paths' condition (the general checks' answer: no bad target, all valid), from
    one reduction instead of their seven numpy calls: read as unsigned (a view, no copy), a
    negative index is a huge one, so ``0 <= t < classes`` for all t is ``max < classes``;
    an ``ignore_index`` outside ``[0, classes)`` (the default -100) equals no target inside it.
    """
    if target.size == 0:
        return True
    if not _max_reduce(target.view(_UNSIGNED[target.dtype.itemsize]), None) < classes:
        return False
    return not 0 <= ignore_index < classes or bool((target != ignore_index).all())


_max_reduce, _sum_reduce = np.maximum.reduce, np.add.reduce
_UNSIGNED = {8: np.uint64, 1: np.uint8}  # (nll_loss's targets: int64 or uint8)
_MINUS_ONE = Constants(-1.0)


def _nll_forward_plain(
    ctx: Any, x: np.ndarray, target: np.ndarray, reduction: int, ignore_index: int
) -> np.ndarray:
    """NllLoss's forward for its common case: an (N, C) input, no weight, no ignored target.

    Every weight is 1, so the general path's ``where``/``take_along_axis`` pattern reduces to
    picking ``x[i, t_i]``; the values are the same: still ``-1 * v`` (not ``-v``, which
    flips a nan's sign bit), and the total weight, a sum of N ones, is N exactly.
    """
    rows = len(target)
    (minus_one,) = _MINUS_ONE.of(x)  # (a 0-d array: numpy's fast path, unlike a scalar's)
    losses = x[_arange(rows), target] * minus_one
    total = np.asarray(rows, dtype=x.dtype)
    if ctx is not NO_GRAD_CTX:
        ctx.save_for_backward(x, target, None, np.zeros_like(total) if reduction == NONE else total)
        ctx.reduction, ctx.ignore_index, ctx.axis, ctx.plain = reduction, ignore_index, 1, True
    if reduction == NONE:
        return losses
    summed = _sum_reduce(losses, None, x.dtype)  # (``losses.sum(dtype=)`` without its layers)
    return summed / total if reduction == MEAN else summed


_arange = np.arange


def _nll_gradient_plain(
    reduction: int, shape: tuple[int, ...], dtype: np.dtype, target: np.ndarray, total: Any,
    grad: Any,
) -> Any:
    """The backward's gradient in the forward's common case, without the general index arrays.

    The incoming gradient times ``-1`` (``-1 / N`` for 'mean') at each row's target, 0
    elsewhere. Only the targets' entries are written, as PyTorch's kernel writes them: the
    others stay 0 even where the incoming gradient is inf or nan (``inf * 0`` would make them
    nan). The products are written into zeros directly (per-row losses: one gradient per row).
    """
    (coef,) = _MINUS_ONE.arrays[dtype]  # (forward's ``_MINUS_ONE.of(x)`` made this dtype's)
    if reduction == MEAN and len(target):
        coef = coef / total
    out = np.zeros(shape, dtype=dtype)
    out[_arange(shape[0]), target] = grad * coef
    return out


class NllLoss2d(NllLoss):
    """The same loss for a (N, C, H, W) input and (N, H, W) target (``NllLoss2DBackward0``)."""

    node_name = "NllLoss2DBackward0"


class NllLoss2dGradient(NllLossGradient):
    """NllLoss2d's gradient (``nll_loss2d_backward``): NllLoss2DBackwardBackward0."""

    node_name = "NllLoss2DBackwardBackward0"
    loss = NllLoss2d


NllLoss.gradient = NllLossGradient
NllLoss2d.gradient = NllLoss2dGradient


def _check_nll_target_dtype(target: Any, weight: Any, input: Any, kernel: str) -> None:
    t, x = operand(target), operand(input)
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(errors.nll_target_dtype(dtype_name(target)))
    if x.dtype.kind != "f":
        raise not_implemented(kernel, input)
    if weight is not None and operand(weight).dtype != x.dtype:
        raise RuntimeError(
            errors.expected_scalar_type(operand(input).dtype, operand(weight).dtype)
        )


def _nll_loss_1d_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim > 1:
        raise RuntimeError(errors.NLL_MULTI_TARGET)
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(errors.nll_1d_target_size(t.shape[0]))
    if x.ndim != 1 and x.shape[0] != t.shape[0]:
        raise RuntimeError(errors.nll_size_mismatch(x.shape, t.shape))
    classes = x.shape[-1]
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(errors.weight_not_per_class(classes, shape_of(weight)))
    _check_nll_target_dtype(target, weight, input, "nll_loss_out_frame")
    check_no_grad(weight, "weight", "nll_loss_forward")
    return NllLoss.apply(input, target, weight, enum, ignore_index)


def _nll_loss_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim != 3:
        raise RuntimeError(errors.nll2d_target_dims(t.ndim))
    if weight is not None and operand(weight).size != x.shape[1]:
        raise RuntimeError(errors.NLL2D_WEIGHT_SIZE)
    if (x.shape[0], x.shape[2], x.shape[3]) != t.shape:
        raise RuntimeError(errors.nll_size_mismatch(x.shape, t.shape, spatial=True))
    _check_nll_target_dtype(target, weight, input, "nll_loss2d_forward_out_frame")
    check_no_grad(weight, "weight", "nll_loss2d_forward")
    return NllLoss2d.apply(input, target, weight, enum, ignore_index)


def _nll_loss_nd(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    """PyTorch's ``nll_loss_nd``: 1-D/2-D inputs, 4-D ones, and others folded into 4-D."""
    x, t = operand(input), operand(target)
    if x.ndim < 1:
        raise ValueError(errors.nll_input_dims(x.ndim))
    if x.ndim != 1 and (t.ndim == 0 or x.shape[0] != t.shape[0]):
        # (PyTorch reads a 0-d target's size 0 past the end of its sizes: it prints 0)
        batch = t.shape[0] if t.ndim else 0
        raise ValueError(errors.batch_size_mismatch(x.shape[0], batch))
    if x.ndim <= 2:
        return _nll_loss_1d_2d(input, target, weight, enum, ignore_index)
    if x.ndim == 4:
        return _nll_loss_2d(input, target, weight, enum, ignore_index)
    n, c = x.shape[0], x.shape[1]
    out_size = (n, *x.shape[2:])
    if t.shape[1:] != x.shape[2:]:
        raise RuntimeError(errors.expected_target_size(out_size, t.shape))
    folded = views.view(input.contiguous(), (n, c, 1, -1) if x.size else (n, c, 0, 0))
    folded_target = views.view(target.contiguous(), (n, 1, -1) if t.size else (n, 0, 0))
    out = _nll_loss_2d(folded, folded_target, weight, enum, ignore_index)
    return out if enum != NONE else views.view(out, out_size)


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
    reduction = reduction_name(reduction, size_average, reduce)
    enum = reduction_enum(reduction)
    _arguments.check_int64_arguments(ignore_index)  # (the parser's error comes first)
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
    reduction = reduction_name(reduction, size_average, reduce)
    enum = reduction_enum(reduction)
    _arguments.check_int64_arguments(ignore_index)  # (the parser's error comes first)
    x, t = operand(input), operand(target)
    if x.shape == t.shape:
        if t.dtype.kind != "f":
            raise RuntimeError(errors.probability_target_dtype(dtype_name(target)))
        if ignore_index >= 0:
            raise RuntimeError(errors.PROBABILITY_TARGET_IGNORE_INDEX)
        return _cross_entropy_probabilities(input, target, weight, enum, label_smoothing)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        return _cross_entropy_label_smoothing(
            input, target, weight, enum, ignore_index, label_smoothing
        )
    if weight is None:
        loss = _log_softmax_nll(input, target, enum, ignore_index)
        if loss is not None:
            return loss
    class_dim = 0 if x.ndim == 1 else 1
    logp = log_softmax(input, class_dim)
    return _nll_loss_nd(logp, target, weight, enum, ignore_index)


_NEEDS_FIRST_OF_5 = record.NEEDS[5][1]


def _log_softmax_nll(input: Any, target: Any, enum: int, ignore_index: int) -> Any:
    """``nll_loss(log_softmax(input, 1), target)`` with its checks answered once, or None.

    Recording, the graph is the general path's, node for node: ``LogSoftmaxBackward0``
    (saving its result), recorded by LogSoftmax's own recording function (which
    ``F.log_softmax`` reaches: its fast case is this one), and ``NllLossBackward0`` on it
    (saving that result, the target and the total weight), recorded by
    ``record.record_checked``. With nothing to record (grad mode off, or logits that need no
    gradient) the two forwards run on the arrays, as the general path's would, and the loss is
    a tensor without history. A bad target raises from NllLoss's forward as before. What it
    leaves out is the general path's per-argument work and checks, which this call's common
    case answers once: (N, C) logits of a floating dtype, an int64 or uint8 target of N
    entries, no class weight, no layout rule; recording, plain tensors (no view: none has a
    history to catch up with) and every thread recording with no mode watching
    (``debug_switches.modes_on``). Anything else returns None before anything ran.
    """
    if not (record.FAST_BRANCH and isinstance(input, TensorBase)
            and isinstance(target, TensorBase)):
        return None
    x, t = input._array, target._array
    if (x.ndim != 2 or x.dtype.kind != "f" or t.ndim != 1 or t.shape[0] != x.shape[0]
            or t.dtype not in _TARGET_DTYPES
            or LogSoftmax.result_layout is not None or NllLoss.result_layout is not None):
        return None
    if not modes_on:  # grad mode on in every thread, no mode watching recording
        if input._base is not None or target._base is not None:
            return None  # (a view first catches up with its base's writes: the general path)
        if input._grad_fn is not None or input._requires_grad:
            logp = LogSoftmax._record_options(input, 1)  # (its recording function: all of it)
            return record.record_checked(
                NllLoss, (logp, target, None, enum, ignore_index), _NEEDS_FIRST_OF_5)
    elif _grad_state.enabled:
        return None  # (a mode watching recording, or another thread in no_grad: the general path)
    # nothing records: this thread's grad mode is off, or the logits need no gradient
    token = silence()  # inf and nan are values, not warnings (autograd/quiet.py)
    try:
        loss = NllLoss.forward(NO_GRAD_CTX, LogSoftmax.forward(NO_GRAD_CTX, x, 1), t, None, enum,
                               ignore_index)
    finally:
        restore(token)
    return record.untracked(loss)


_TARGET_DTYPES = (np.dtype(np.int64), np.dtype(np.uint8))  # (what nll_loss takes)
_grad_state = grad_mode._state  # (this thread's grad mode: ``enabled``)


def _check_label_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError(errors.label_smoothing_range(_float_text(label_smoothing)))


def _float_text(value: float) -> str:
    # C++ prints a double with the shortest round-trip form, like Python's repr (1.5, 2).
    return f"{value:g}" if float(value).is_integer() else repr(float(value))


def _class_weight_view(weight: Any, ndim: int, class_dim: int) -> Any:
    """The per-class weight shaped to broadcast along ``class_dim`` (a view, as PyTorch)."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = shape_of(weight)[0]
    return views.view(weight, tuple(shape))


def _cross_entropy_probabilities(
    input: Any, target: Any, weight: Any, enum: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    classes = dim_size(x.shape, class_dim)  # (a 0-d input raises here, as in PyTorch)
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(
            errors.weight_not_per_class(classes, shape_of(weight), "cross_entropy")
        )
    logp = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        target = AddScalar.apply(
            mul_scalar(target, 1 - label_smoothing), _share(label_smoothing, classes)
        )
    product = arithmetic.mul(logp, target)
    if weight is not None:
        product = arithmetic.mul(product, _class_weight_view(weight, x.ndim, class_dim))
    if enum == MEAN:
        total = reduction_module.sum(product)
        if x.size == 0:
            return unary.neg(total.fill_(math.nan))
        return DivScalar.apply(unary.neg(total), x.size // classes)
    if enum == SUM:
        return unary.neg(reduction_module.sum(product))
    return unary.neg(reduction_module.sum(product, class_dim))


def _cross_entropy_label_smoothing(
    input: Any, target: Any, weight: Any, enum: int, ignore_index: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    logp = log_softmax(input, class_dim)
    nll = _nll_loss_nd(logp, target, weight, enum, ignore_index)
    classes = x.shape[class_dim]
    ignore_mask = target == ignore_index
    if weight is not None:
        weighted = arithmetic.mul(logp, _class_weight_view(weight, x.ndim, class_dim))
        smooth = unary.neg(reduction_module.sum(weighted, class_dim))
    else:
        smooth = unary.neg(reduction_module.sum(logp, class_dim))
    smooth.masked_fill_(ignore_mask, 0.0)
    if enum == MEAN:
        keep = ~operand(ignore_mask)
        if weight is not None:
            counted = operand(target)[keep].astype(np.intp)
            denominator = constant_tensor(operand(weight)[counted].sum(dtype=operand(weight).dtype))
        else:
            denominator = constant_tensor(np.asarray(keep.sum(), dtype=np.int64))
        ret = arithmetic.div(reduction_module.sum(smooth), denominator)
    elif enum == SUM:
        ret = reduction_module.sum(smooth)
    else:
        ret = smooth
    return arithmetic.add(
        mul_scalar(nll, 1 - label_smoothing), mul_scalar(ret, _share(label_smoothing, classes))
    )


def _share(label_smoothing: float, classes: int) -> float:
    """``label_smoothing / classes`` as PyTorch's C++ divides: inf for no classes.

    (The losses are then empty, or 0: not Python's ZeroDivisionError.)
    """
    return label_smoothing / classes if classes else math.inf
