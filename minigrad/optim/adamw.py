"""``AdamW``: Adam with decoupled weight decay (``p *= 1 - lr * weight_decay`` each step)."""

from __future__ import annotations

from typing import Any

from minigrad.optim.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameters directly instead of adding to the gradient.

    The same as ``Adam(..., decoupled_weight_decay=True)``, with PyTorch's default
    ``weight_decay=1e-2``.

    Example:
        >>> from minigrad import nn, optim
        >>> opt = optim.AdamW(nn.Linear(2, 1).parameters(), amsgrad=True)
        >>> opt.param_groups[0]["weight_decay"], opt.param_groups[0]["decoupled_weight_decay"]
        (0.01, True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
        maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
        differentiable: bool = False, fused: bool | None = None,
    ) -> None:
        super().__init__(
            params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
            capturable=capturable, differentiable=differentiable, fused=fused,
            decoupled_weight_decay=True,
        )
