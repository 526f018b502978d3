"""Folding an eval-mode BatchNorm into the convolution or linear layer before it.

In eval mode BatchNorm is the affine map ``y = (x - mean) / sqrt(var + eps) * w + b`` per
channel, so ``bn(conv(x))`` is one convolution with a rescaled weight and a shifted bias (the
same for a linear layer): PyTorch's ``torch.nn.utils.fusion``.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from minigrad.creation import ones_like, zeros_like
from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]

ModuleT = TypeVar("ModuleT", bound=Module)


def fuse_conv_bn_eval(conv: ModuleT, bn: Any, transpose: bool = False) -> ModuleT:
    """A copy of ``conv`` computing ``bn(conv(x))`` (both in eval mode).

    ``transpose=True`` for a transposed convolution (its output channels are weight dim 1).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> conv, bn = nn.Conv2d(2, 3, 3).eval(), nn.BatchNorm2d(3).eval()
        >>> fused = nn.utils.fuse_conv_bn_eval(conv, bn)
        >>> x = minigrad.randn(1, 2, 5, 5)
        >>> bool(fused(x).allclose(bn(conv(x)), atol=1e-6))
        True
    """
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose,
    )  # fmt: skip
    return fused


def fuse_conv_bn_weights(
    conv_w: Tensor,
    conv_b: Tensor | None,
    bn_rm: Tensor,
    bn_rv: Tensor,
    bn_eps: float,
    bn_w: Tensor | None,
    bn_b: Tensor | None,
    transpose: bool = False,
) -> tuple[Parameter, Parameter]:
    """The fused convolution's weight and bias, as parameters.

    ``w' = w * (bn_w / sqrt(bn_rv + eps))`` per output channel,
    ``b' = (b - bn_rm) * bn_w / sqrt(bn_rv + eps) + bn_b``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> w, b = nn.utils.fuse_conv_bn_weights(
        ...     minigrad.ones(1, 1, 1), None, minigrad.zeros(1), minigrad.full((1,), 3.0), 1.0,
        ...     None, None)
        >>> w.detach().flatten(), b.detach()
        (tensor([0.5000]), tensor([0.]))
    """
    weight_dtype = conv_w.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    if conv_b is None:
        conv_b = zeros_like(bn_rm)
    if bn_w is None:
        bn_w = ones_like(bn_rm)
    if bn_b is None:
        bn_b = zeros_like(bn_rm)
    bn_var_rsqrt = (bn_rv + bn_eps).rsqrt()
    extra = [1] * (len(conv_w.shape) - 2)
    shape = [1, -1, *extra] if transpose else [-1, 1, *extra]
    fused_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=weight_dtype)
    fused_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, conv_w.requires_grad), Parameter(fused_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: ModuleT, bn: Any) -> ModuleT:
    """A copy of ``linear`` computing ``bn(linear(x))`` (both in eval mode).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> linear, bn = nn.Linear(2, 3).eval(), nn.BatchNorm1d(3).eval()
        >>> x = minigrad.randn(4, 2)
        >>> bool(nn.utils.fuse_linear_bn_eval(linear, bn)(x).allclose(bn(linear(x)), atol=1e-6))
        True
    """
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}"
        )
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused


def fuse_linear_bn_weights(
    linear_w: Tensor,
    linear_b: Tensor | None,
    bn_rm: Tensor,
    bn_rv: Tensor,
    bn_eps: float,
    bn_w: Tensor,
    bn_b: Tensor,
) -> tuple[Parameter, Parameter]:
    """The fused linear layer's weight and bias, as parameters.

    ``W' = W * scale[:, None]``, ``b' = (b - bn_rm) * scale + bn_b`` with
    ``scale = bn_w / sqrt(bn_rv + eps)``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> w, b = nn.utils.fuse_linear_bn_weights(
        ...     minigrad.ones(1, 2), None, minigrad.zeros(1), minigrad.full((1,), 3.0), 1.0,
        ...     minigrad.ones(1), minigrad.zeros(1))
        >>> w
        Parameter containing:
        tensor([[0.5000, 0.5000]])
    """
    weight_dtype = linear_w.dtype
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    if linear_b is None:
        linear_b = zeros_like(bn_rm)
    bn_scale = bn_w * (bn_rv + bn_eps).rsqrt()
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
