"""Margin and likelihood losses as modules (PyTorch's, in ``torch.nn.modules.loss``)."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.loss import _Loss
from minigrad.tensor import Tensor

__all__ = [
    "CosineEmbeddingLoss", "HingeEmbeddingLoss", "MarginRankingLoss", "PoissonNLLLoss",
    "TripletMarginLoss",
]


class MarginRankingLoss(_Loss):
    """``max(0, -target * (input1 - input2) + margin)``, reduced (``F.margin_ranking_loss``)."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        """The loss of ranking ``input1`` above ``input2`` where ``target`` is 1."""
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1."""

    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The hinge loss of distances ``input`` for targets of 1 or -1."""
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where -1."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        """The loss of pairs that should be similar (1) or dissimilar (-1)."""
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """``max(0, margin + d(a, p) - d(a, n))`` with the p-norm distance ``d``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.TripletMarginLoss(margin=2.0)(minigrad.zeros(1, 2), minigrad.ones(1, 2),
        ...                                  minigrad.ones(1, 2))
        tensor(2.)
    """

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        """The loss of ``anchor`` being nearer ``positive`` than ``negative`` by ``margin``."""
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """Poisson negative log-likelihood (``F.poisson_nll_loss``)."""

    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None,
                 eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        """The loss of rates ``log_input`` (their logs, by default) for counts ``target``."""
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)
