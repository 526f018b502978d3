"""``nn.CrossMapLRN2d``'s op: PyTorch's legacy (Lua Torch) cross-channel normalisation.

``y = x * scale ** -beta`` with ``scale = k + alpha / size * (a running sum of squares over
channels)``. PyTorch computes both passes with loops inherited from Lua Torch, and minigrad
repeats them step for step, because they are not what their names promise:

- the forward's running window never drops channel 0 (it adds ``x[c + pre_pad - 1] ** 2`` and
  drops ``x[c - pre_pad] ** 2`` only from ``c > pre_pad``), so it is not a centred window;
- the backward is the textbook LRN gradient over another window (channels ``c - size + 1`` to
  ``c``), not the derivative of that forward: PyTorch's own ``gradcheck`` fails on this layer.

So the values and gradients match PyTorch's, and finite differences do not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.ops._helpers import is_tensor


class CrossMapLRN2d(Op):
    """y = x * scale ** -beta;  dx = PyTorch's legacy formula (see the module docstring).

    Saves input and output (``ctx.save_for_backward(input, output)`` in PyTorch's Function),
    and keeps ``scale`` on the node as PyTorch keeps it on ``ctx``. PyTorch names the node
    ``CrossMapLRN2dBackward`` (a Python Function's name).
    """

    node_name = "CrossMapLRN2dBackward"
    fields = ("options", "scale")

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, size: int, alpha: float, beta: float, k: float
    ) -> np.ndarray:
        real = x.dtype.type
        channels = x.shape[1]
        squares = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.empty_like(x)
        scale[:, 0] = squares[:, : min(pre_pad, channels)].sum(axis=1)
        for c in range(1, channels):  # the running sum, as PyTorch's loop keeps it
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += squares[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= squares[:, c - pre_pad]
        scale = scale * real(alpha / size) + real(k)
        output = scale ** real(-beta) * x
        ctx.save_for_backward(x, output)
        ctx.options = (size, alpha, beta)
        ctx.scale = scale
        return output

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, output = ctx.saved_tensors
        if is_tensor(grad) or is_tensor(x):
            raise RuntimeError(
                "minigrad: the second derivative of CrossMapLRN2d is not implemented"
            )
        size, alpha, beta = ctx.options
        scale = ctx.scale
        real = x.dtype.type
        batch, channels, height, width = x.shape
        start = int(size - (size - 1) / 2)  # PyTorch's inversePrePad
        if start + channels > channels + size - 1:  # PyTorch's narrow of its padded buffer
            raise RuntimeError(
                f"start ({start}) + length ({channels}) exceeds dimension size "
                f"({channels + size - 1})."
            )
        grad_input = scale ** real(-beta) * grad
        padded = np.zeros((batch, channels + size - 1, height, width), dtype=x.dtype)
        padded[:, start : start + channels] = grad * output / scale
        accumulated = padded[:, : size - 1].sum(axis=1)
        ratio = real(2 * alpha * beta / size)
        for c in range(channels):
            accumulated = accumulated + padded[:, c + size - 1]
            grad_input[:, c] -= ratio * x[:, c] * accumulated
            accumulated = accumulated - padded[:, c]
        return grad_input, None, None, None, None


def cross_map_lrn2d(input: Any, size: int, alpha: float, beta: float, k: float) -> Any:
    """``nn.CrossMapLRN2d``'s computation on an (N, C, H, W) ``input``."""
    if input.dim() != 4:
        raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
    return CrossMapLRN2d.apply(input, size, alpha, beta, k)
