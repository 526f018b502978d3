"""The margin and likelihood losses PyTorch composes from other ops.

``margin_ranking_loss``, ``hinge_embedding_loss``, ``cosine_embedding_loss``,
``triplet_margin_loss`` and ``poisson_nll_loss`` are composites in PyTorch (ATen's
``Loss.cpp``): each is written here with the same steps, so autograd records the same nodes
(``ClampMinBackward0``, ``WhereBackward0``, ... then ``MeanBackward0`` / ``SumBackward0``).
"""

from __future__ import annotations

import math
from typing import Any

from minigrad import _arguments
from minigrad.creation import empty_like, zeros_like
from minigrad.ops.arithmetic import minimum
from minigrad.ops.comparison import where
from minigrad.ops.loss_common import apply_loss_reduction, reduction_enum, reduction_name
from minigrad.ops.norms import pairwise_distance

__all__ = [
    "cosine_embedding_loss", "hinge_embedding_loss", "margin_ranking_loss", "poisson_nll_loss",
    "triplet_margin_loss",
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
    _arguments.check_value(margin, "float", "margin_ranking_loss", "margin", 4)
    # (margin is a double in ATen: an integer input gives a float loss)
    loss = (-target * (input1 - input2) + float(margin)).clamp_min_(0)
    return apply_loss_reduction(loss, enum)


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
    zeros = zeros_like(input)
    # ATen's ``margin - input`` is ``empty_like(input).fill_(margin).sub_(input)``: in the
    # input's dtype (an integer input stays integer)
    margin_clamp = empty_like(input).fill_(margin).sub_(input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return apply_loss_reduction(output_margin + output_self, enum)


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
    output_neg = where(target == -1, (cos - margin).clamp_min_(0), zeros)
    return apply_loss_reduction(output_pos + output_neg, enum)


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
    for position, (name, tensor) in enumerate(
        (("anchor", anchor), ("positive", positive), ("negative", negative)), 1
    ):
        _arguments.check_tensor(tensor, "triplet_margin_loss", name, position)
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
    return apply_loss_reduction((margin + dist_pos - dist_neg).clamp_min(0), enum)


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
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)
    return apply_loss_reduction(loss, reduction_enum(reduction))
