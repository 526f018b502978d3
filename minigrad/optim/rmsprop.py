"""``RMSprop``: divide the gradient by a running root mean square of recent gradients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.creation import zeros_like
from minigrad.optim.optimizer import (
    Optimizer,
    check_non_negative,
    evaluate_closure,
    gradients,
    optimizer_step,
    step_count,
)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, step by step as PyTorch's single-tensor implementation.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``)::

        g = g + weight_decay * p                     (if weight_decay)
        v = alpha * v + (1 - alpha) * g * g
        avg = sqrt(v - a * a) + eps, a = lerp(a, g, 1 - alpha)   (centered)
        avg = sqrt(v) + eps                          (otherwise)
        b = momentum * b + g / avg; p -= lr * b      (momentum > 0)
        p -= lr * g / avg                            (otherwise)

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0]))
        >>> opt = optim.RMSprop([w], lr=0.01)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([0.9000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
        weight_decay: float = 0, momentum: float = 0, centered: bool = False,
        capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_non_negative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay,
                           alpha=alpha)
        defaults = {
            "lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
            "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _state_of(self, param: Any, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[param]
        if not state:  # lazily, on the parameter's first step
            state["step"] = step_count()
            state["square_avg"] = zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        return state

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            weight_decay, momentum = group["weight_decay"], group["momentum"]
            for param, grad in gradients(group):
                state = self._state_of(param, group)
                state["step"] += 1
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                square_avg = state["square_avg"]
                square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add_(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).addcdiv_(grad, avg)
                    param.add_(buf, alpha=-lr)
                else:
                    param.addcdiv_(grad, avg, value=-lr)
        return loss
