"""Adam's variants, step by step as PyTorch's single-tensor implementations.

``Adamax`` (the infinity norm), ``NAdam`` (Nesterov momentum), ``RAdam`` (rectified variance).

Each writes its parameter with the same in-place ops as PyTorch's (so versions move as there)
and keeps the same state (``step`` as a 0-d float tensor, ``exp_avg``, ...).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from minigrad.creation import tensor, zeros_like
from minigrad.ops.arithmetic import maximum
from minigrad.optim.optimizer import (
    Optimizer,
    check_adam_settings,
    check_non_negative,
    evaluate_closure,
    gradients,
    new_state,
    optimizer_step,
    step_count,
)

__all__ = ["Adamax", "NAdam", "RAdam"]


class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm in place of the second moment.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``), at step ``t``::

        g = g + weight_decay * p                       (if weight_decay)
        m = lerp(m, g, 1 - beta1)       u = max(beta2 * u, |g| + eps)
        p -= lr / (1 - beta1**t) * m / u

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, -1.0]))
        >>> opt = optim.Adamax([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *,
        maximize: bool = False, differentiable: bool = False, capturable: bool = False,
    ) -> None:
        check_adam_settings(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay = group["weight_decay"]
            for param, grad in gradients(group):
                state = new_state(self.state[param], param, "exp_avg", "exp_inf")
                step_t, exp_avg, exp_inf = state["step"], state["exp_avg"], state["exp_inf"]
                step_t += 1
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_inf.copy_(maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
                clr = lr / (1 - beta1 ** step_t.item())
                param.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum (Dozat), the momentum decaying by ``momentum_decay``.

    At step ``t``, with ``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))`` and their
    running product ``P_t``::

        m = lerp(m, g, 1 - beta1)       v = beta2 * v + (1 - beta2) * g * g
        d = sqrt(v / (1 - beta2**t)) + eps
        p -= lr * (1 - mu_t) / (1 - P_t) * g / d + lr * mu_{t+1} / (1 - P_t * mu_{t+1}) * m / d

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, -1.0]))
        >>> opt = optim.NAdam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.8944, -0.8944], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
        maximize: bool = False, capturable: bool = False, differentiable: bool = False,
    ) -> None:
        check_adam_settings(lr, betas, eps, weight_decay)
        check_non_negative(momentum_decay=momentum_decay)
        defaults = {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _state_of(self, param: Any) -> dict[str, Any]:
        state = self.state[param]
        if not state:  # (PyTorch's keys, in its order: mu_product after step)
            state["step"] = step_count()
            state["mu_product"] = tensor(1.0, dtype=state["step"].dtype)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        return state

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
            for param, grad in gradients(group):
                state = self._state_of(param)
                step_t, mu_product = state["step"], state["mu_product"]
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                step_t += 1
                step = step_t.item()
                bias_correction2 = 1 - beta2**step
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
                mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
                mu_product *= mu
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()
                product = mu_product.item()
                denom.add_(eps)
                param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - product))
                param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1.0 - product * mu_next))
        return loss


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive step waits until its variance is tractable (rectified Adam).

    The adaptive step is switched on once ``rho_t > 5``, and scaled by ``r_t`` then.

    At step ``t``, with ``rho_inf = 2 / (1 - beta2) - 1`` and
    ``rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)``::

        m = lerp(m, g, 1 - beta1)       v = beta2 * v + (1 - beta2) * g * g
        p -= lr * m / (1 - beta1**t) * (r_t * sqrt(1 - beta2**t) / (sqrt(v) + eps)   if rho_t > 5
                                        else 1)

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, -1.0]))
        >>> opt = optim.RAdam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.8000, -0.8000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
        foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_settings(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay, "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay = group["weight_decay"]
            for param, grad in gradients(group):
                state = new_state(self.state[param], param, "exp_avg", "exp_avg_sq")
                step_t, exp_avg, exp_avg_sq = state["step"], state["exp_avg"], state["exp_avg_sq"]
                step_t += 1
                step = step_t.item()
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                corrected = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * beta2**step / bias_correction2
                if rho_t > 5.0:
                    rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                                     / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                    adaptive = bias_correction2**0.5 / exp_avg_sq.sqrt().add_(eps)
                    param.add_(corrected * lr * adaptive * rect, alpha=-1.0)
                else:
                    param.add_(corrected * lr, alpha=-1.0)
        return loss


