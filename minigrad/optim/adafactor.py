"""``Adafactor``: Adam-like steps with a factored second moment (PyTorch's implementation).

For a matrix-shaped parameter the second moment is kept as one row and one column of
averages (their product estimates the full matrix), so the state costs O(rows + cols).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.creation import zeros_like
from minigrad.optim.optimizer import (
    Optimizer,
    evaluate_closure,
    gradients,
    optimizer_step,
    step_count,
)

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """Adafactor (Shazeer and Stern, 2018), step by step as PyTorch's single-tensor version.

    For each parameter ``p`` with gradient ``g`` (``-g`` if ``maximize``), at step ``t``::

        beta = t ** beta2_decay;  rho = min(lr, 1 / sqrt(t))
        alpha = max(eps2, rms(p)) * rho
        p *= 1 - lr * weight_decay                                  (if weight_decay)
        matrices: row_var = lerp(row_var, mean(g**2, -1), beta), the same for col_var,
                  v = row_var @ col_var / max(mean(row_var), eps1)
        vectors:  v = variance = lerp(variance, g**2, beta)
        u = g / sqrt(max(v, eps1**2));  p -= alpha / max(1, rms(u) / d) * u

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.ones(2, 2))
        >>> opt = optim.Adafactor([w])
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> sorted(opt.state[w])
        ['col_var', 'row_var', 'step']
    """

    def __init__(
        self, params: Any, lr: float = 1e-2, beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
        weight_decay: float = 0.0, *, foreach: bool | None = None, maximize: bool = False,
    ) -> None:  # fmt: skip
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not beta2_decay <= 0.0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
            "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
        }  # fmt: skip
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(state: dict[str, Any], grad: Any) -> None:
        """``step`` 0 and zeros: a row and a column of averages for matrices, else a full one."""
        state["step"] = step_count()
        if grad.dim() > 1:
            row_shape, col_shape = list(grad.shape), list(grad.shape)
            row_shape[-1] = 1
            col_shape[-2] = 1
            state["row_var"] = grad.new_zeros(row_shape)
            state["col_var"] = grad.new_zeros(col_shape)
        else:
            state["variance"] = zeros_like(grad)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, beta2_decay, d = group["lr"], group["beta2_decay"], group["d"]
            weight_decay, (eps1, eps2) = group["weight_decay"], group["eps"]
            for param, grad in gradients(group):
                state = self.state[param]
                if not state:
                    self._new_state(state, param.grad)
                if eps1 is None:
                    eps1 = float(np.finfo(param.detach().numpy().dtype).eps)
                step_t = state["step"]
                step_t += 1
                step = step_t.item()
                one_minus_beta2_t = step**beta2_decay
                rho_t = min(lr, 1 / (step**0.5))
                alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
                if weight_decay != 0:
                    param.mul_(1 - lr * weight_decay)
                if grad.dim() > 1:
                    row_var, col_var = state["row_var"], state["col_var"]
                    row_mean = grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1))
                    row_var.lerp_(row_mean, one_minus_beta2_t)
                    col_mean = grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2))
                    col_var.lerp_(col_mean, one_minus_beta2_t)
                    var_estimate = row_var @ col_var
                    var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
                else:
                    variance = state["variance"]
                    variance.lerp_(grad * grad, one_minus_beta2_t)
                    var_estimate = variance.clone()
                update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
                update.mul_(grad)
                denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
                param.add_(update, alpha=-alpha / denom)
        return loss
