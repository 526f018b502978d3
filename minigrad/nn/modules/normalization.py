"""``LayerNorm``, ``RMSNorm``, ``GroupNorm``, ``LocalResponseNorm`` and ``BatchNorm1d/2d/3d``.

BatchNorm keeps running statistics as buffers: in training mode each call normalises with the
batch's own mean and variance and moves ``running_mean``/``running_var`` towards them (by
``momentum``; a cumulative average if ``momentum=None``) and counts ``num_batches_tracked``;
in eval mode it normalises with the running statistics.
"""

from __future__ import annotations

import numbers
from typing import Any

from minigrad._dtype import int64
from minigrad.creation import empty, ones, tensor, zeros
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.ops.cross_map_lrn import cross_map_lrn2d
from minigrad.tensor import Tensor

__all__ = [
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "CrossMapLRN2d", "GroupNorm", "LayerNorm",
    "LocalResponseNorm", "RMSNorm",
]  # fmt: skip


def _identity_affine(weight: Parameter, bias: Parameter | None) -> None:
    """An affine map that changes nothing: weight to ones, bias (if any) to zeros."""
    init.ones_(weight)
    if bias is not None:
        init.zeros_(bias)


def _register_affine(module: Module, shape: Any, dtype: Any, affine: bool, bias: bool) -> None:
    """Register ``weight`` and ``bias`` of ``shape`` (None where not wanted), uninitialised."""
    module.register_parameter("weight", Parameter(empty(shape, dtype=dtype)) if affine else None)
    module.register_parameter(
        "bias", Parameter(empty(shape, dtype=dtype)) if affine and bias else None
    )


class LayerNorm(Module):
    """Normalise over the last dims (``normalized_shape``), then scale and shift elementwise.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LayerNorm(2)
        LayerNorm((2,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> nn.LayerNorm(2)(minigrad.tensor([[1.0, 3.0]]))
        tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _register_affine(self, self.normalized_shape, dtype, elementwise_affine, bias)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight to ones, bias to zeros."""
        if self.elementwise_affine:
            _identity_affine(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        """``F.layer_norm(input, normalized_shape, weight, bias, eps)``."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        """``(shape,), eps=.., elementwise_affine=.., bias=..``."""
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class RMSNorm(Module):
    """Divide by the root mean square over the last dims (``normalized_shape``), then scale.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.RMSNorm(2)
        RMSNorm((2,), eps=None, elementwise_affine=True)
        >>> nn.RMSNorm(2, eps=0.0)(minigrad.tensor([[3.0, 4.0]]))
        tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(
        self,
        normalized_shape: Any,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        self.register_parameter(
            "weight",
            Parameter(empty(self.normalized_shape, dtype=dtype)) if elementwise_affine else None,
        )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight to ones."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        """``F.rms_norm(x, normalized_shape, weight, eps)``."""
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        """``(shape,), eps=.., elementwise_affine=..``."""
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )


class GroupNorm(Module):
    """Normalise groups of channels (dim 1) of each sample, then scale and shift per channel.

    Example:
        >>> from minigrad import nn
        >>> nn.GroupNorm(2, 6)
        GroupNorm(2, 6, eps=1e-05, affine=True, bias=True)
    """

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        check_device(device)
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _register_affine(self, num_channels, dtype, affine, bias)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight to ones, bias to zeros."""
        if self.affine:
            _identity_affine(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        """``F.group_norm(input, num_groups, weight, bias, eps)``."""
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        """``groups, channels, eps=.., affine=.., bias=..``."""
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self.bias is not None}"
        )


class _BatchNorm(Module):
    """Shared by BatchNorm1d and BatchNorm2d; subclasses check the input's rank."""

    _version = 2  # version 2 added num_batches_tracked (state dicts without it still load)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        check_device(device)
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        self.register_parameter(
            "weight", Parameter(empty(num_features, dtype=dtype)) if affine else None
        )
        self.register_parameter(
            "bias", Parameter(empty(num_features, dtype=dtype)) if affine and bias else None
        )
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean to 0, running variance to 1, batch count to 0 (in place)."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Reset the running statistics; weight to ones, bias to zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        """Normalise with batch statistics (training) or running statistics (eval)."""
        self._check_input_dim(input)
        average_factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative moving average
                average_factor = 1.0 / float(self.num_batches_tracked)
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        # The running statistics are passed only to be updated (training) or used (eval).
        track = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if track else None,
            self.running_var if track else None,
            self.weight,
            self.bias,
            use_batch_stats,
            average_factor,
            self.eps,
        )

    def extra_repr(self) -> str:
        """``features, eps=.., momentum=.., affine=.., bias=.., track_running_stats=..``."""
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )

    def _plan_load_from_state_dict(
        self, state_dict: dict[str, Any], prefix: str, local_metadata: dict[str, Any], *args: Any
    ) -> None:
        # State dicts of version < 2 (or without metadata) may lack num_batches_tracked.
        version = local_metadata.get("version")
        key = prefix + "num_batches_tracked"
        if (
            (version is None or version < 2)
            and self.track_running_stats
            and (key not in state_dict)
        ):
            state_dict[key] = (
                self.num_batches_tracked
                if self.num_batches_tracked is not None
                else tensor(0, dtype=int64)
            )
        super()._plan_load_from_state_dict(state_dict, prefix, local_metadata, *args)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs over the batch (and length).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> bn = nn.BatchNorm1d(1)
        >>> bn(minigrad.tensor([[1.0], [3.0]]))
        tensor([[-1.0000],
                [ 1.0000]], grad_fn=<NativeBatchNormBackward0>)
        >>> bn.running_mean, bn.num_batches_tracked
        (tensor([0.2000]), tensor(1))
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs, per channel over batch and pixels."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) inputs, per channel over batch and voxels.

    Example:
        >>> from minigrad import nn
        >>> nn.BatchNorm3d(4)
        BatchNorm3d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class LocalResponseNorm(Module):
    """Divide each value by ``(k + alpha * mean of squares over size channels) ** beta``.

    Example:
        >>> from minigrad import nn
        >>> nn.LocalResponseNorm(2)
        LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    """

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        """``F.local_response_norm(input, size, alpha, beta, k)``."""
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        """``size, alpha=.., beta=.., k=..``."""
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Module):
    """PyTorch's legacy cross-channel normalisation of (N, C, H, W) inputs (from Lua Torch).

    ``x * (k + alpha / size * sum of squares over a window of channels) ** -beta``, computed
    with PyTorch's loops, whose window and gradient are its own (``ops/cross_map_lrn.py``):
    prefer ``LocalResponseNorm``. No parameters.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.CrossMapLRN2d(3)
        >>> layer, layer(minigrad.ones(1, 2, 1, 1)).shape
        (CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1), minigrad.Size([1, 2, 1, 1]))
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        """The normalised input, with PyTorch's ``CrossMapLRN2dBackward`` node."""
        return cross_map_lrn2d(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        """``size, alpha=.., beta=.., k=..``."""
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
