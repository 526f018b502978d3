"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.optim.optimizer import (
    Optimizer,
    check_non_negative,
    evaluate_closure,
    gradients,
    optimizer_step,
)

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, step by step as PyTorch's single-tensor implementation.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``)::

        g = g + weight_decay * p                      (if weight_decay)
        b = g (first step), else momentum * b + (1 - dampening) * g
        g = g + momentum * b (nesterov), else b      (if momentum)
        p -= lr * g                                   (one in-place add_: one version bump)

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
        >>> opt = optim.SGD([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w, w._version
        (Parameter containing:
        tensor([0.8000, 1.6000], requires_grad=True), 1)
    """

    def __init__(
        self, params: Any, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
        weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
        foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None,
    ) -> None:
        check_non_negative(lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening,
            "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
            "foreach": foreach, "differentiable": differentiable, "fused": fused,
        }
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            weight_decay, nesterov = group["weight_decay"], group["nesterov"]
            updated = list(gradients(group))
            # PyTorch reads every buffer before the first update and stores them back after
            # the last (a parameter listed twice starts from no buffer both times).
            buffers = [self.state[p].get("momentum_buffer") for p, _ in updated] if (
                momentum != 0) else []
            for index, (param, grad) in enumerate(updated):
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                if momentum != 0:
                    buf = buffers[index]
                    if buf is None:
                        buf = buffers[index] = grad.detach().clone()
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                    grad = grad.add(buf, alpha=momentum) if nesterov else buf
                param.add_(grad, alpha=-lr)
            for (param, _), buf in zip(updated, buffers):
                self.state[param]["momentum_buffer"] = buf
        return loss
