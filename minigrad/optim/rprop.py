"""``Rprop``: resilient backpropagation (each element's step follows its gradient's sign)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad.creation import full_like, zeros_like
from minigrad.optim.optimizer import (
    Optimizer,
    check_non_negative,
    evaluate_closure,
    gradients,
    optimizer_step,
    step_count,
)

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop, step by step as PyTorch's single-tensor implementation.

    For each element, with ``s = sign(g * g_prev)``: the step size is multiplied by
    ``etas[1]`` where ``s > 0``, by ``etas[0]`` where ``s < 0`` (and the gradient taken as 0
    there), kept where ``s == 0``, then clamped to ``step_sizes``;
    ``p -= sign(g) * step_size``. The state keeps ``prev`` (the gradient used) and
    ``step_size`` (starting at ``lr``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.tensor([1.0, -1.0]))
        >>> opt = optim.Rprop([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.9000, -0.9000], requires_grad=True)
    """

    def __init__(
        self, params: Any, lr: float = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
        foreach: bool | None = None, maximize: bool = False, differentiable: bool = False,
    ) -> None:
        check_non_negative(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "capturable": capturable,
        }
        super().__init__(params, defaults)

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for param, grad in gradients(group):
                state = self.state[param]
                if not state:
                    state["step"] = step_count()
                    state["prev"] = zeros_like(param)
                    state["step_size"] = full_like(grad, group["lr"])
                prev, step_size = state["prev"], state["step_size"]
                state["step"] += 1
                sign = grad.mul(prev).sign()
                sign[sign.gt(0)] = etaplus
                sign[sign.lt(0)] = etaminus
                sign[sign.eq(0)] = 1
                step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                grad = grad.clone()
                grad[sign.eq(etaminus)] = 0
                param.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
