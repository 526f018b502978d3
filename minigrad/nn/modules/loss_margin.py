"""More margin and likelihood losses as modules (PyTorch's, in ``torch.nn.modules.loss``).

``SoftMarginLoss``, ``MultiMarginLoss``, ``MultiLabelMarginLoss``, ``MultiLabelSoftMarginLoss``,
``GaussianNLLLoss`` and ``TripletMarginWithDistanceLoss``: each stores its options and calls
its function in ``nn.functional``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.distance import PairwiseDistance
from minigrad.nn.modules.loss import _Loss, _WeightedLoss
from minigrad.tensor import Tensor

__all__ = [
    "GaussianNLLLoss",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "SoftMarginLoss",
    "TripletMarginWithDistanceLoss",
]


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))`` for targets of 1 and -1, reduced.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.SoftMarginLoss()(minigrad.tensor([2.0, -1.0]), minigrad.tensor([1.0, -1.0]))
        tensor(0.2201)
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.soft_margin_loss(input, target, reduction)``."""
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """Multi-class hinge loss of scores (N, C) against class indices (``F.multi_margin_loss``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.MultiMarginLoss(p=2)(minigrad.tensor([[0.1, 0.2, 0.4, 0.8]]), minigrad.tensor([3]))
        tensor(0.1525)
    """

    __constants__ = ["p", "margin", "reduction"]

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                "MultiMarginLoss: expected weight to be None or 1D tensor, got "
                f"{weight.dim()}D instead"
            )
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.multi_margin_loss`` with the module's options and weight."""
        return F.multi_margin_loss(
            input,
            target,
            p=self.p,
            margin=self.margin,
            weight=self.weight,
            reduction=self.reduction,
        )


class MultiLabelMarginLoss(_Loss):
    """Multi-label hinge loss; each target row lists classes, ended by -1.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.MultiLabelMarginLoss()(minigrad.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                           minigrad.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.multilabel_margin_loss(input, target, reduction)``."""
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class logistic loss averaged over the classes (``F.multilabel_soft_margin_loss``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.MultiLabelSoftMarginLoss()(minigrad.tensor([[0.0, 2.0]]),
        ...                               minigrad.tensor([[1.0, 0.0]]))
        tensor(1.4100)
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.multilabel_soft_margin_loss`` with the module's weight."""
        return F.multilabel_soft_margin_loss(
            input, target, weight=self.weight, reduction=self.reduction
        )


class GaussianNLLLoss(_Loss):
    """Gaussian negative log-likelihood of ``target`` given means and variances.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.GaussianNLLLoss()(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 0.0]),
        ...                      minigrad.tensor([1.0, 4.0]))
        tensor(0.5966)
    """

    __constants__ = ["full", "eps", "reduction"]

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        """``F.gaussian_nll_loss(input, target, var, full, eps, reduction)``."""
        return F.gaussian_nll_loss(
            input, target, var, full=self.full, eps=self.eps, reduction=self.reduction
        )


class TripletMarginWithDistanceLoss(_Loss):
    """Triplet loss with any distance (by default ``nn.PairwiseDistance()``, a submodule).

    Example:
        >>> from minigrad import nn
        >>> nn.TripletMarginWithDistanceLoss()
        TripletMarginWithDistanceLoss(
          (distance_function): PairwiseDistance()
        )
    """

    __constants__ = ["margin", "swap", "reduction"]

    def __init__(
        self,
        *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            )
        self.distance_function = (
            distance_function if distance_function is not None else PairwiseDistance()
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        """``F.triplet_margin_with_distance_loss`` with the module's options."""
        return F.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )
