"""``Adam`` (and, with ``decoupled_weight_decay=True``, AdamW): adaptive moment estimation."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from minigrad.ops.arithmetic import (
    maximum,
)
from minigrad.optim.optimizer import (
    Optimizer,
    check_adam_settings,
    evaluate_closure,
    gradients,
    new_state,
    optimizer_step,
)

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam, step by step as PyTorch's single-tensor implementation.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``), at step ``t``::

        p *= 1 - lr * weight_decay          (decoupled_weight_decay, i.e. AdamW)
        g = g + weight_decay * p            (otherwise, if weight_decay)
        m = lerp(m, g, 1 - beta1)           v = beta2 * v + (1 - beta2) * g * g
        v_max = max(v_max, v)               (amsgrad; then used instead of v)
        p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    The state per parameter: ``step`` (a float32 0-d tensor), ``exp_avg`` (m), ``exp_avg_sq``
    (v) and, with amsgrad, ``max_exp_avg_sq``. The parameter is written with one in-place op
    per step (two for AdamW with weight decay), so its version moves as in PyTorch.

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, -1.0]))
        >>> opt = optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
        foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
        differentiable: bool = False, fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        check_adam_settings(lr, betas, eps, weight_decay)
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
            "capturable": capturable, "differentiable": differentiable, "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def _state_of(self, param: Any, amsgrad: bool) -> dict[str, Any]:
        # (lazily, on the parameter's first step)
        moments = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq") if amsgrad else (
            "exp_avg", "exp_avg_sq")
        return new_state(self.state[param], param, *moments)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            for param, grad in gradients(group):
                state = self._state_of(param, amsgrad)
                step_t, exp_avg, exp_avg_sq = state["step"], state["exp_avg"], state["exp_avg_sq"]
                step_t += 1
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                step = step_t.item()
                step_size = lr / (1 - beta1**step)
                bias_correction2_sqrt = math.sqrt(1 - beta2**step)
                if amsgrad:
                    max_exp_avg_sq = state["max_exp_avg_sq"]
                    max_exp_avg_sq.copy_(maximum(max_exp_avg_sq, exp_avg_sq))
                    second_moment = max_exp_avg_sq
                else:
                    second_moment = exp_avg_sq
                denom = (second_moment.sqrt() / bias_correction2_sqrt).add_(eps)
                param.addcdiv_(exp_avg, denom, value=-step_size)
        return loss
