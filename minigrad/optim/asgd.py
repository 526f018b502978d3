"""``ASGD``: averaged stochastic gradient descent, as PyTorch's single-tensor implementation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.creation import tensor, zeros_like
from minigrad.optim.optimizer import (
    Optimizer,
    check_non_negative,
    evaluate_closure,
    gradients,
    optimizer_step,
    step_count,
)

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Averaged SGD: decayed SGD steps, and ``ax``, a running average of the iterates.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``), at step ``t``::

        g = g + weight_decay * p                          (if weight_decay)
        p = p * (1 - lambd * eta);  p -= eta * g          (two in-place ops: two bumps)
        ax = p if mu == 1 else ax + mu * (p - ax)
        eta = lr / (1 + lambd * lr * t) ** alpha;  mu = 1 / max(1, t - t0)

    The average ``ax`` lives in ``optimizer.state[p]["ax"]`` (with ``step``, ``eta``, ``mu``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
        >>> opt = optim.ASGD([w], lr=0.1, lambd=0.0)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w, opt.state[w]["ax"]
        (Parameter containing:
        tensor([0.8000, 1.6000], requires_grad=True), tensor([0.8000, 1.6000]))
    """

    def __init__(
        self, params: Any, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
        t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None,
        maximize: bool = False, differentiable: bool = False, capturable: bool = False,
    ) -> None:  # fmt: skip
        check_non_negative(lr=lr, weight_decay=weight_decay)
        defaults = {
            "lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
            "capturable": capturable,
        }  # fmt: skip
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            weight_decay = group["weight_decay"]
            for param, grad in gradients(group):
                state = self.state[param]
                if not state:
                    state["step"] = step_count()
                    state["eta"] = tensor(float(lr), dtype=state["step"].dtype)
                    state["mu"] = tensor(1.0, dtype=state["step"].dtype)
                    state["ax"] = zeros_like(param)
                step_t, eta, mu, ax = state["step"], state["eta"], state["mu"], state["ax"]
                step_t += 1
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                eta_value = eta.item()
                param.mul_(1 - lambd * eta_value)  # the decay
                param.add_(grad, alpha=-eta_value)  # the step
                if mu.item() != 1:
                    ax.add_(param.sub(ax).mul_(mu))
                else:
                    ax.copy_(param)
                step = step_t.item()
                eta.copy_(tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                mu.copy_(tensor(1 / max(1, step - t0)))
        return loss
