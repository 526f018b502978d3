"""``Adagrad``: per-coordinate learning rates from the sum of all squared gradients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.creation import full_like
from minigrad.optim.optimizer import (
    Optimizer,
    check_non_negative,
    evaluate_closure,
    gradients,
    optimizer_step,
    step_count,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, step by step as PyTorch's single-tensor implementation.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``), at step ``t``::

        g = g + weight_decay * p                     (if weight_decay)
        s = s + g * g                                (s starts at initial_accumulator_value)
        p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0]))
        >>> opt = optim.Adagrad([w], lr=0.5)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([0.5000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
        initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None,
        *, maximize: bool = False, differentiable: bool = False, fused: bool | None = None,
    ) -> None:
        check_non_negative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                           initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:  # PyTorch makes Adagrad's state up front
            for param in group["params"]:
                self._state_of(param, group)

    def _state_of(self, param: Any, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[param]
        if not state:
            state["step"] = step_count()
            state["sum"] = full_like(param, group["initial_accumulator_value"])
        return state

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, lr_decay, eps, weight_decay = (
                group["lr"], group["lr_decay"], group["eps"], group["weight_decay"]
            )
            for param, grad in gradients(group):
                state = self._state_of(param, group)
                state["step"] += 1
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                clr = lr / (1 + (state["step"].item() - 1) * lr_decay)
                state_sum = state["sum"]
                state_sum.addcmul_(grad, grad, value=1)
                param.addcdiv_(grad, state_sum.sqrt().add_(eps), value=-clr)
        return loss
