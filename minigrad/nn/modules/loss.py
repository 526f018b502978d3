"""Loss functions as modules: each ``forward(input, target)`` calls the ``nn.functional`` loss.

``reduction`` is ``'mean'`` (default), ``'sum'`` or ``'none'``; the legacy ``size_average`` /
``reduce`` arguments are still accepted and translated with PyTorch's warning. Class weights
(``weight``, ``pos_weight``) are registered as buffers, so they appear in the ``state_dict``.
"""

from __future__ import annotations

import warnings
from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.ops.loss_common import legacy_reduction
from minigrad.tensor import Tensor

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CTCLoss", "CrossEntropyLoss", "HuberLoss", "KLDivLoss",
    "L1Loss", "MSELoss", "NLLLoss", "NLLLoss2d", "SmoothL1Loss",
]  # fmt: skip


class _Loss(Module):
    """A loss module: stores ``reduction``."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = legacy_reduction(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    """A loss with per-class ``weight`` (a buffer)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean (or sum) of ``|input - target|``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.l1_loss(input, target, reduction)``."""
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean (or sum) of ``(input - target) ** 2``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.MSELoss()(minigrad.tensor([1.0, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(5.)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.mse_loss(input, target, reduction)``."""
        return F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above (scaled to meet smoothly)."""

    def __init__(
        self,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
        beta: float = 1.0,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.smooth_l1_loss(input, target, reduction, beta)``."""
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below ``delta``, ``delta`` times the absolute error above."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.huber_loss(input, target, reduction, delta)``."""
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence; ``input`` holds log-probabilities."""

    def __init__(
        self,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
        log_target: bool = False,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.kl_div(input, target, reduction, log_target)``."""
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of the target classes; ``input`` holds log-probabilities."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        ignore_index: int = -100,
        reduce: Any = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.nll_loss(input, target, weight, ignore_index, reduction)``."""
        return F.nll_loss(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
        )


class NLLLoss2d(NLLLoss):
    """Deprecated alias of ``NLLLoss`` (it warns, as PyTorch's, when made).

    Example:
        >>> import warnings
        >>> from minigrad import nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     nn.NLLLoss2d(ignore_index=0).ignore_index
        0
    """

    def __init__(
        self, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100,
        reduce: Any = None, reduction: str = "mean",
    ) -> None:  # fmt: skip
        warnings.warn(
            "`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
            "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for "
            "more details.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """``nll_loss(log_softmax(input, 1), target)``: takes raw scores (logits).

    ``target`` holds class indices or class probabilities; ``label_smoothing`` mixes the
    target with the uniform distribution.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.CrossEntropyLoss()(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([1]))
        tensor(0.6931)
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        ignore_index: int = -100,
        reduce: Any = None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)``."""
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities ``input`` against targets in [0, 1]."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.binary_cross_entropy(input, target, weight, reduction)``."""
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy on logits: a stable ``sigmoid`` + BCE.

    ``pos_weight`` weighs the positive examples of each class.
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """``F.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)``."""
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class CTCLoss(_Loss):
    """The Connectionist Temporal Classification loss (``F.ctc_loss``) as a layer.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> log_probs = minigrad.full((2, 1, 2), 0.5).log()
        >>> nn.CTCLoss(reduction="sum")(log_probs, minigrad.tensor([[1]]), [2], [1])
        tensor(0.2877)
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(
        self, log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any
    ) -> Tensor:
        """``F.ctc_loss(log_probs, targets, input_lengths, target_lengths, ...)``."""
        return F.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )
