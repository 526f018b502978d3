"""Weight normalisation: ``w = g * v / ||v||`` with the norm over every dim but one.

PyTorch's ``torch._weight_norm(v, g, dim)`` runs its fused kernel (one node,
``WeightNormInterfaceBackward0``) when ``dim`` is the first or the last dim, and otherwise the
composition ``v * (g / norm_except_dim(v, 2, dim))``; ``dim=-1`` means "the norm of the whole
tensor". ``nn.utils.weight_norm`` and ``nn.utils.parametrizations.weight_norm`` call it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.ops._helpers import is_tensor

__all__ = ["WeightNormInterface", "norm_except_dim", "weight_norm"]


def _other_axes(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(axis for axis in range(ndim) if axis != dim)


class WeightNormInterface(Op):
    """w = v * (g / n), n = ||v|| over every dim but ``dim`` (kept as size-1 dims).

    With s = sum(grad * v) over the same dims: dg = s / n,  dv = (g / n) (grad - v s / n^2).
    Saves v, g and the norms n (PyTorch's ``result1``), as PyTorch's fused kernel does.
    """

    node_name = "WeightNormInterfaceBackward0"
    num_inputs = 2
    fields = ("dim",)
    saves = ("v", "g", "result1")
    saved_options = ("dim",)

    @staticmethod
    def forward(ctx: Any, v: np.ndarray, g: np.ndarray, dim: int) -> np.ndarray:
        norms = np.sqrt(np.sum(v * v, axis=_other_axes(v.ndim, dim), keepdims=True))
        norms = norms.astype(v.dtype, copy=False)
        ctx.save_for_backward(v, g, norms)
        ctx.dim = dim
        return (v * (g / norms)).astype(v.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        v, g, norms = ctx.saved_tensors
        axes = _other_axes(len(np.shape(v)), ctx.dim)
        if is_tensor(v):  # create_graph: the norms as a function of v
            norms = np.sqrt(np.sum(v * v, axis=axes, keepdims=True))
        dot = np.sum(grad * v, axis=axes, keepdims=True)
        grad_g = dot / norms
        grad_v = (g / norms) * (grad - v * (dot / (norms * norms)))
        return grad_v, grad_g, None


def norm_except_dim(v: Any, pow: float = 2, dim: int = 0) -> Any:
    """The ``pow``-norm of ``v`` over every dim but ``dim``, keeping them as size-1 dims.

    ``dim=-1`` is the norm of the whole tensor (a 0-d tensor), as in PyTorch.
    """
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return (
            v.contiguous()
            .view(v.shape[0], -1)
            .norm(pow, 1)
            .view(v.shape[0], *([1] * (v.dim() - 1)))
        )
    if dim == v.dim() - 1:
        return (
            v.contiguous()
            .view(-1, v.shape[-1])
            .norm(pow, 0)
            .view(*([1] * (v.dim() - 1)), v.shape[-1])
        )
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm(v: Any, g: Any, dim: int = 0) -> Any:
    """``v * (g / norm_except_dim(v, 2, dim))``; one fused node when ``dim`` is first or last."""
    if dim in (0, v.dim() - 1) and dim != -1:
        return WeightNormInterface.apply(v, g, dim)
    return v * (g / norm_except_dim(v, 2, dim))
