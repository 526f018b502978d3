"""``Muon``: momentum whose update is orthogonalised by a Newton-Schulz iteration (2-d only).

PyTorch 2.13's ``torch.optim.Muon`` (after Keller Jordan's): for each matrix parameter the
(Nesterov) momentum is replaced by an approximately orthogonal matrix with the same singular
vectors, five quintic Newton-Schulz steps from the momentum scaled to spectral norm <= 1.
PyTorch runs that iteration in bfloat16; numpy has no bfloat16, so minigrad keeps float32
arrays and rounds every intermediate PyTorch stores in bfloat16 to bfloat16's 8-bit
significand (``_bfloat16``). Each bfloat16 product is a float32 product of bfloat16 values
rounded once, as PyTorch's CPU matmul does, which gives PyTorch's iterates bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.tensor_base import TensorBase
from minigrad.creation import tensor, zeros_like
from minigrad.optim.optimizer import Optimizer, evaluate_closure, optimizer_step

__all__ = ["Muon"]

# Keller Jordan's constants, as PyTorch's.
EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _bfloat16(values: np.ndarray) -> np.ndarray:
    """float32 ``values`` rounded to bfloat16 (to nearest, ties to even), kept as float32."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    bits = (bits + (((bits >> 16) & 1) + 0x7FFF)) & 0xFFFF0000
    return bits.view(np.float32)


def _zeropower_via_newtonschulz(
    grad: Any, ns_coefficients: tuple[float, float, float], ns_steps: int, eps: float
) -> Any:
    """An approximately orthogonal matrix with ``grad``'s singular vectors (bfloat16 values).

    ``X = G / max(||G||, eps)`` (the wide way round), then ``ns_steps`` times
    ``X = a X + (b X X^T + c (X X^T)^2) X``: singular values of X move towards ~1.
    """
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = (np.float32(value) for value in ns_coefficients)
    tall = grad.shape[0] > grad.shape[1]
    x = _bfloat16(grad.numpy().astype(np.float32))
    if tall:
        x = x.T
    norm = _bfloat16(np.sqrt(np.sum(x * x, dtype=np.float32)))
    x = _bfloat16(x / np.maximum(norm, _bfloat16(np.float32(eps))))
    for _ in range(ns_steps):
        gram = _bfloat16(x @ x.T)
        gram_update = _bfloat16(b * gram + c * (gram @ gram))  # addmm(gram, gram, gram)
        x = _bfloat16(a * x + gram_update @ x)  # addmm(x, gram_update, x, beta=a)
    return tensor(x.T if tall else x)


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape: Any) -> float:
    """The learning rate for a (rows, cols) parameter: ``"original"`` or ``"match_rms_adamw"``."""
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    """Muon, step by step as PyTorch's single-tensor implementation (2-d parameters only).

    For each parameter ``p`` with gradient ``g``::

        b = lerp(b, g, 1 - momentum)                     (b starts at zeros)
        u = lerp(g, b, momentum) (nesterov), else b
        u = newton_schulz(u)                             (ns_steps, ns_coefficients, eps)
        p *= 1 - lr * weight_decay
        p -= adjusted_lr * u      (lr * sqrt(max(1, rows / cols)), or 0.2 * sqrt(max(rows, cols)))

    Use it for the weight matrices of hidden layers and another optimizer (AdamW) for the rest.

    Example:
        >>> import minigrad
        >>> from minigrad import nn, optim
        >>> w = nn.Parameter(minigrad.eye(2) * 3)
        >>> opt = optim.Muon([w], lr=0.1, weight_decay=0.0)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([[2.8875, 0.0000],
                [0.0000, 2.8875]], requires_grad=True)
    """

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        weight_decay: float = 0.1,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B, DEFAULT_C),
        eps: float = EPS,
        ns_steps: int = DEFAULT_NS_STEPS,
        adjust_lr_fn: str | None = None,
    ) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not momentum >= 0.0:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {
            "lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
            "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps,
            "adjust_lr_fn": adjust_lr_fn,
        }  # fmt: skip
        super().__init__(params, defaults)
        for group in self.param_groups:
            for param in group["params"]:
                if param.ndim != 2:
                    raise ValueError(
                        "Muon only supports 2D parameters whereas we found a parameter with "
                        f"size: {param.size()}"
                    )

    @optimizer_step
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given."""
        loss = evaluate_closure(closure)
        for group in self.param_groups:
            lr, weight_decay, momentum = group["lr"], group["weight_decay"], group["momentum"]
            lr = float(lr)
            # PyTorch makes every momentum buffer of the group before updating any parameter.
            updates = []
            for param in group["params"]:
                if param.grad is not None:
                    state = self.state[param]
                    if "momentum_buffer" not in state:
                        state["momentum_buffer"] = zeros_like(param.grad)
                    updates.append((param, param.grad, state["momentum_buffer"]))
            for param, grad, buf in updates:
                if grad.ndim != 2:
                    raise ValueError("Param gradient must be a 2D matrix")
                buf.lerp_(grad, 1 - momentum)
                update = grad.lerp(buf, momentum) if group["nesterov"] else buf
                update = _zeropower_via_newtonschulz(
                    update, group["ns_coefficients"], group["ns_steps"], group["eps"]
                )
                adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], param.shape)
                param.mul_(1 - lr * weight_decay)
                param.add_(update, alpha=-adjusted_lr)
        return loss
