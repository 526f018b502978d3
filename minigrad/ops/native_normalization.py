"""The native norms: layer, group and batch norm returning their statistics too.

``minigrad.native_layer_norm`` and friends are PyTorch's ATen kernels behind the norms: the
same ops (``NativeLayerNorm``, ``NativeGroupNorm``, ``NativeBatchNorm`` in ``normalization.py``,
same nodes) as ``nn.functional`` uses, but returning ``(output, mean, rstd)``:

- layer norm: the mean and 1/std of each normalized group, its dims kept (``(N, 1)`` for an
  ``(N, D)`` input normalized over ``D``);
- group norm: ``(N, group)``;
- batch norm: the batch's mean and 1/std per channel ``(C,)`` in training, empty tensors in
  evaluation.

PyTorch differentiates the statistics of group norm only (those of layer and batch norm come
out detached: no ``grad_fn``), and only when both of them receive a gradient (its backward's
rule, copied here).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments
from minigrad.ops._helpers import given_gradient, is_tensor, operand, shape_of
from minigrad.ops.normalization import (
    NativeBatchNorm,
    NativeGroupNorm,
    NativeLayerNorm,
    _batch_norm_types,
    _moments,
    batch_norm_arguments,
    group_norm_arguments,
    layer_norm_arguments,
)


class NativeLayerNormWithStats(NativeLayerNorm):
    """NativeLayerNorm's formula, also returning mean and rstd (PyTorch's result1, result2)."""

    node_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, count: int, eps: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return NativeLayerNorm.outputs(ctx, x, weight, bias, count, eps)

    @staticmethod
    def backward(ctx: Any, grad: Any, _mean: Any, _rstd: Any) -> tuple[Any, ...]:
        return NativeLayerNorm.backward(ctx, grad)


class NativeBatchNormWithStats(NativeBatchNorm):
    """NativeBatchNorm's formula, also returning the batch mean and invstd (empty in eval)."""

    node_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        weight: Any,
        bias: Any,
        running_mean: Any,
        running_var: Any,
        training: bool,
        momentum: float,
        eps: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return NativeBatchNorm.outputs(
            ctx, x, weight, bias, running_mean, running_var, training, momentum, eps
        )

    @staticmethod
    def backward(ctx: Any, grad: Any, _mean: Any, _invstd: Any) -> tuple[Any, ...]:
        return NativeBatchNorm.backward(ctx, grad)


class NativeGroupNormWithStats(NativeGroupNorm):
    """NativeGroupNorm's formula, also returning mean and rstd (N, group).

    As PyTorch's backward, it differentiates through the statistics only when both received a
    gradient: dx then gains ``g_mean / m - g_rstd rstd^3 (x - mean) / m`` in each group of m
    values; a gradient given to one of them alone is dropped.
    """

    node_name = "NativeGroupNormBackward0"

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, group: int, eps: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return NativeGroupNorm.outputs(ctx, x, weight, bias, group, eps)

    @staticmethod
    def backward(ctx: Any, grad: Any, g_mean: Any, g_rstd: Any) -> tuple[Any, ...]:
        g_mean, g_rstd = given_gradient(g_mean), given_gradient(g_rstd)
        dx = dw = db = None
        if given_gradient(grad) is not None:  # (else: PyTorch's undefined gradients)
            dx, dw, db, _, _ = NativeGroupNorm.backward(ctx, grad)
        if g_mean is None or g_rstd is None or not ctx.needs_input_grad[0]:
            return dx, dw, db, None, None
        x, _weight, mean, rstd = ctx.saved_tensors
        n, group = ctx.N, ctx.group
        grouped = np.reshape(x, (n, group, -1))
        if is_tensor(x):  # create_graph: the statistics as functions of x
            mean, rstd = _moments(grouped, (2,), ctx.eps)
        else:
            mean, rstd = np.reshape(mean, (n, group, 1)), np.reshape(rstd, (n, group, 1))
        m = shape_of(grouped)[2]
        g_mean, g_rstd = np.reshape(g_mean, (n, group, 1)), np.reshape(g_rstd, (n, group, 1))
        extra = np.reshape(g_mean / m - g_rstd * rstd**3 * (grouped - mean) / m, shape_of(x))
        return (extra if dx is None else dx + extra), dw, db, None, None


def native_layer_norm(
    input: Any, normalized_shape: Any, weight: Any | None, bias: Any | None, eps: float
) -> tuple[Any, Any, Any]:
    """``(output, mean, rstd)``: layer norm and its statistics (their dims kept).

    Example:
        >>> import minigrad
        >>> out, mean, rstd = minigrad.native_layer_norm(
        ...     minigrad.tensor([[1.0, 3.0]]), [2], None, None, 1e-5)
        >>> mean
        tensor([[2.]])
    """
    _arguments.check_tensor(input, "native_layer_norm", "input", 1)
    count = layer_norm_arguments("native_layer_norm", input, normalized_shape, weight, bias)
    out, mean, rstd = NativeLayerNormWithStats.apply(input, weight, bias, count, float(eps))
    return out, mean.detach(), rstd.detach()


def native_batch_norm(
    input: Any,
    weight: Any | None,
    bias: Any | None,
    running_mean: Any | None,
    running_var: Any | None,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[Any, Any, Any]:
    """``(output, save_mean, save_invstd)``: batch norm and the batch's statistics per channel.

    In evaluation the statistics are empty. In training the running statistics (if given) are
    updated in place, as ``nn.functional.batch_norm`` does.

    Example:
        >>> import minigrad
        >>> out, mean, invstd = minigrad.native_batch_norm(
        ...     minigrad.tensor([[1.0], [3.0]]), None, None, None, None, True, 0.1, 0.0)
        >>> mean, invstd
        (tensor([2.]), tensor([1.]))
    """
    _batch_norm_types(
        input, weight, bias, running_mean, running_var, training, momentum, "native_batch_norm"
    )
    if operand(input).size == 0:
        raise RuntimeError(
            "input tensor must have at least one element, but got input_sizes = "
            f"{list(shape_of(input))}"
        )
    batch_norm_arguments(input, weight, bias, running_mean, running_var, training)
    out, mean, invstd = NativeBatchNormWithStats.apply(
        input,
        weight,
        bias,
        running_mean,
        running_var,
        bool(training),
        float(momentum),
        float(eps),
    )
    return out, mean.detach(), invstd.detach()


_NUMEL_MISMATCH = (
    "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message be "
    "improved?  If so, please report an enhancement request to PyTorch.)"
)


_NOT_CONTIGUOUS = (
    "Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this error "
    "message be improved?  If so, please report an enhancement request to PyTorch.)"
)


def native_group_norm(
    input: Any,
    weight: Any | None,
    bias: Any | None,
    N: int,
    C: int,
    HxW: int,
    group: int,
    eps: float,
) -> tuple[Any, Any, Any]:
    """``(output, mean, rstd)``: group norm of ``input`` seen as ``(N, C, HxW)``; stats (N, group).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0, 3.0, 0.0, 4.0]])
        >>> out, mean, rstd = minigrad.native_group_norm(x, None, None, 1, 4, 1, 2, 0.0)
        >>> mean
        tensor([[2., 2.]])
    """
    _arguments.check_tensor(input, "native_group_norm", "input", 1)
    _arguments.check_int64_arguments(N, C, HxW, group)  # (the parser unpacks them first)
    shape = shape_of(input)
    if operand(input).size != N * C * HxW:
        raise RuntimeError(_NUMEL_MISMATCH)
    if not operand(input).flags.c_contiguous:
        raise RuntimeError(_NOT_CONTIGUOUS)
    seen = input if shape[:2] == (N, C) else input.reshape(N, C, HxW)
    group_norm_arguments(seen, group, weight, bias, eps, "native_group_norm")
    out, mean, rstd = NativeGroupNormWithStats.apply(seen, weight, bias, group, float(eps))
    return (out if seen is input else out.reshape(shape)), mean, rstd
