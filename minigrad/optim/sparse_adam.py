"""``SparseAdam``: PyTorch's Adam for sparse gradients, which minigrad does not have.

PyTorch's ``SparseAdam`` refuses dense gradients at ``step()`` ("SparseAdam does not support
dense gradients, please consider Adam instead"). minigrad has no sparse tensors, so every
gradient is dense: the class checks its settings as PyTorch's constructor does and gives
PyTorch's error at the first step that meets a gradient. Use ``Adam``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.autograd.tensor_base import TensorBase
from minigrad.optim.optimizer import Optimizer, evaluate_closure, optimizer_step

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam for sparse gradients; with minigrad's dense gradients ``step()`` raises PyTorch's error.

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.ones(2))
        >>> opt = optim.SparseAdam([w])
        >>> w.sum().backward()
        >>> opt.step()
        Traceback (most recent call last):
          ...
        RuntimeError: SparseAdam does not support dense gradients, please consider Adam instead
    """

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr > 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps > 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for index, beta in enumerate(betas[:2]):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Raise PyTorch's error at the first gradient (all of minigrad's are dense)."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    raise RuntimeError(
                        "SparseAdam does not support dense gradients, please consider Adam instead"
                    )
        return loss
