"""The margin and likelihood losses PyTorch composes from other ops.

``margin_ranking_loss``, ``hinge_embedding_loss``, ``cosine_embedding_loss``,
``triplet_margin_loss`` and ``poisson_nll_loss`` are composites in PyTorch (ATen's
``Loss.cpp``), and ``gaussian_nll_loss``, ``multilabel_soft_margin_loss`` and
``triplet_margin_with_distance_loss`` (PyTorch's Python): each is written here with the same
steps, so autograd records the same nodes (``ClampMinBackward0``, ``WhereBackward0``, ... then
``MeanBackward0`` / ``SumBackward0``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from minigrad import _arguments
from minigrad.autograd import grad_mode
from minigrad.creation import empty_like, ones_like, zeros_like
from minigrad.ops.activations import logsigmoid
from minigrad.ops.arithmetic import minimum
from minigrad.ops.comparison import where
from minigrad.ops.loss_common import apply_loss_reduction, reduction_enum, reduction_name
from minigrad.ops.norms import pairwise_distance

__all__ = [
    "cosine_embedding_loss", "gaussian_nll_loss", "hinge_embedding_loss", "margin_ranking_loss",
    "multilabel_soft_margin_loss", "poisson_nll_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]

_EPSILON = 1e-12  # (ATen's, in cosine_embedding_loss's norms)


def _reduction(reduction: str, size_average: Any, reduce: Any) -> int:
    return reduction_enum(reduction_name(reduction, size_average, reduce))


def margin_ranking_loss(
    input1: Any, input2: Any, target: Any, margin: float = 0, size_average: Any = None,
    reduce: Any = None, reduction: str = "mean",
) -> Any:
    """``max(0, -target * (input1 - input2) + margin)``, reduced.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.margin_ranking_loss(minigrad.tensor([1.0, 2.0]), minigrad.tensor([2.0, 0.0]),
        ...                       minigrad.tensor([1.0, 1.0]))
        tensor(0.5000)
    """
    enum = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} "
        )
    return margin_ranking_loss_aten(input1, input2, target, margin, enum)


def margin_ranking_loss_aten(
    input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: int = 0
) -> Any:
    """``minigrad.margin_ranking_loss``: ATen's form, ``reduction`` a number (see kl_div).

    Example:
        >>> import minigrad
        >>> minigrad.margin_ranking_loss(minigrad.tensor([1.0]), minigrad.tensor([2.0]),
        ...                              minigrad.tensor([1.0]), 0.5, 2)
        tensor(1.5000)
    """
    _arguments.check_value(margin, "float", "margin_ranking_loss", "margin", 4)
    # (margin is a double in ATen: an integer input gives a float loss)
    loss = (-target * (input1 - input2) + float(margin)).clamp_min_(0)
    return apply_loss_reduction(loss, reduction)


def hinge_embedding_loss(
    input: Any, target: Any, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1, reduced.

    (As PyTorch computes it: the first term where ``target != -1``, the second where
    ``target != 1``, summed.)

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.hinge_embedding_loss(minigrad.tensor([0.3, 0.4]), minigrad.tensor([1.0, -1.0]))
        tensor(0.4500)
    """
    enum = _reduction(reduction, size_average, reduce)
    return hinge_embedding_loss_aten(input, target, margin, enum)


def hinge_embedding_loss_aten(
    input: Any, target: Any, margin: float = 1.0, reduction: int = 0
) -> Any:
    """``minigrad.hinge_embedding_loss``: ATen's form, ``reduction`` a number (see kl_div).

    Example:
        >>> import minigrad
        >>> minigrad.hinge_embedding_loss(minigrad.tensor([0.3, 0.4]),
        ...                               minigrad.tensor([1.0, -1.0]))
        tensor([0.3000, 0.6000])
    """
    zeros = zeros_like(input)
    # ATen's ``margin - input`` is ``empty_like(input).fill_(margin).sub_(input)``: in the
    # input's dtype (an integer input stays integer); margin is a double there, as below
    margin_clamp = empty_like(input).fill_(float(margin)).sub_(input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return apply_loss_reduction(output_margin + output_self, reduction)


def cosine_embedding_loss(
    input1: Any, input2: Any, target: Any, margin: float = 0, size_average: Any = None,
    reduce: Any = None, reduction: str = "mean",
) -> Any:
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where -1.

    The cosine is taken along the last dimension of 2-D inputs with a 1-D target (or of 1-D
    inputs with a 0-d target).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> F.cosine_embedding_loss(x, minigrad.tensor([[1.0, 0.0], [1.0, 0.0]]),
        ...                         minigrad.tensor([1.0, -1.0]))
        tensor(0.3536)
    """
    enum = _reduction(reduction, size_average, reduce)
    return cosine_embedding_loss_aten(input1, input2, target, margin, enum)


def cosine_embedding_loss_aten(
    input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: int = 0
) -> Any:
    """``minigrad.cosine_embedding_loss``: ATen's form, ``reduction`` a number (see kl_div).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0, 0.0]])
        >>> minigrad.cosine_embedding_loss(x, x, minigrad.tensor([1.0]))
        tensor([0.])
    """
    target_dim = target.dim()
    if target_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target_dim == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(
            "1D target tensor expects 2D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    if target_dim == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(
            "0D target tensor expects 1D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    prod_sum = (input1 * input2).sum(target_dim)
    mag_square1 = (input1 * input1).sum(target_dim) + _EPSILON
    mag_square2 = (input2 * input2).sum(target_dim) + _EPSILON
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = zeros_like(cos)
    output_pos = where(target == 1, 1 - cos, zeros)
    output_neg = where(target == -1, (cos - float(margin)).clamp_min_(0), zeros)
    return apply_loss_reduction(output_pos + output_neg, reduction)


def triplet_margin_loss(
    anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2,
    eps: float = 1e-6, swap: bool = False, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` the p-distance.

    With ``swap``, the negative distance is the smaller of ``d(anchor, negative)`` and
    ``d(positive, negative)``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> a = minigrad.tensor([[0.0, 0.0]])
        >>> F.triplet_margin_loss(a, a + 1, a + 2)
        tensor(0.)
    """
    enum = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return triplet_margin_loss_aten(anchor, positive, negative, margin, p, eps, swap, enum)


def triplet_margin_loss_aten(
    anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2,
    eps: float = 1e-6, swap: bool = False, reduction: int = 1,
) -> Any:
    """``minigrad.triplet_margin_loss``: PyTorch's ATen function, ``reduction`` as a number.

    0 for 'none', 1 for 'mean', 2 for 'sum' (any other number: none); no check of ``margin``
    (``nn.functional.triplet_margin_loss`` checks it, and takes the reduction's name).

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([[0.0, 0.0]])
        >>> minigrad.triplet_margin_loss(a, a + 1, a + 2, reduction=2)
        tensor(0.)
    """
    for position, (name, tensor) in enumerate(
        (("anchor", anchor), ("positive", positive), ("negative", negative)), 1
    ):
        _arguments.check_tensor(tensor, "triplet_margin_loss", name, position)
    _arguments.check_int64_arguments(reduction)  # (past int64, the parser's error first)
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) > 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return apply_loss_reduction((float(margin) + dist_pos - dist_neg).clamp_min(0), reduction)


def poisson_nll_loss(
    input: Any, target: Any, log_input: bool = True, full: bool = False,
    size_average: Any = None, eps: float = 1e-8, reduce: Any = None, reduction: str = "mean",
) -> Any:
    """Negative log-likelihood of ``target ~ Poisson(rate)``: ``exp(input) - target * input``.

    With ``log_input=False`` the rate is ``input`` itself: ``input - target * log(input +
    eps)``. ``full`` adds Stirling's approximation of ``log(target!)`` where ``target > 1``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.poisson_nll_loss(minigrad.tensor([0.0, 1.0]), minigrad.tensor([1.0, 2.0]))
        tensor(0.8591)
    """
    reduction = reduction_name(reduction, size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return poisson_nll_loss_aten(input, target, log_input, full, eps, reduction_enum(reduction))


def poisson_nll_loss_aten(
    input: Any, target: Any, log_input: bool, full: bool, eps: float, reduction: int
) -> Any:
    """``minigrad.poisson_nll_loss``: ATen's form, every argument given, ``reduction`` a number.

    Example:
        >>> import minigrad
        >>> minigrad.poisson_nll_loss(minigrad.tensor([0.0, 1.0]), minigrad.tensor([1.0, 2.0]),
        ...                           True, False, 1e-8, 1)
        tensor(0.8591)
    """
    _arguments.check_int64_arguments(reduction)  # (past int64, the parser's error first)
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)
    return apply_loss_reduction(loss, reduction)


def gaussian_nll_loss(
    input: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-6,
    reduction: str = "mean",
) -> Any:
    """Negative log-likelihood of ``target ~ Normal(input, var)``, reduced.

    ``(log(var) + (input - target) ** 2 / var) / 2``, with ``var`` clamped at ``eps`` (without
    recording the clamp). ``var`` has the input's shape, or one dim fewer, or a 1 in one dim
    (one variance shared), or is a float. ``full`` adds the constant ``log(2 pi) / 2``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.gaussian_nll_loss(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 0.0]),
        ...                     minigrad.tensor([1.0, 4.0]))
        tensor(0.5966)
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():  # one variance per sample, shared by the last dim
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim
            and sum(y for x, y in zip(input.size(), var.size(), strict=True) if x != y) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():  # clamped for stability: the gradient ignores the clamp
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def multilabel_soft_margin_loss(
    input: Any, target: Any, weight: Any = None, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Binary cross entropy of each class's logit, averaged over the classes (the last dim).

    ``-(target log(sigmoid(input)) + (1 - target) log(sigmoid(-input)))``, times ``weight``,
    then the mean over the classes, then ``reduction`` over the samples.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.multilabel_soft_margin_loss(minigrad.tensor([[0.0, 2.0]]),
        ...                               minigrad.tensor([[1.0, 0.0]]))
        tensor(1.4100)
    """
    if size_average is not None or reduce is not None:
        reduction = reduction_name(reduction, size_average, reduce)
    _arguments.check_tensor(input, "log_sigmoid", "input", 1)  # (logsigmoid sees it first)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)  # one value per sample
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def triplet_margin_with_distance_loss(
    anchor: Any, positive: Any, negative: Any, *,
    distance_function: Callable[[Any, Any], Any] | None = None, margin: float = 1.0,
    swap: bool = False, reduction: str = "mean",
) -> Any:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` for any distance ``d``.

    ``distance_function`` defaults to ``pairwise_distance``; with ``swap`` the negative
    distance is the smaller of ``d(anchor, negative)`` and ``d(positive, negative)``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> a = minigrad.tensor([[0.0, 0.0]])
        >>> F.triplet_margin_with_distance_loss(
        ...     a, a + 1, a + 2, distance_function=lambda x, y: (x - y).abs().sum(-1))
        tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) > 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    return loss.sum() if reduction == "sum" else loss.mean() if reduction == "mean" else loss
