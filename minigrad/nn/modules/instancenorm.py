"""``InstanceNorm1d``, ``InstanceNorm2d`` and ``InstanceNorm3d``.

Each channel of each sample is normalised by its own mean and variance. Unlike batch norm the
defaults are ``affine=False`` and ``track_running_stats=False``; with running statistics
tracked, training moves them (by ``momentum``) and eval mode normalises with them. A batch-less
input is given a batch of one.
"""

from __future__ import annotations

import warnings
from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.normalization import _BatchNorm
from minigrad.tensor import Tensor

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(_BatchNorm):
    """Shared by the three: the parameters and buffers of batch norm, another forward."""

    _no_batch_dim = 0  # the rank of a batch-less input (set by each subclass)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def _check_input_dim(self, input: Tensor) -> None:
        ranks = (self._no_batch_dim, self._no_batch_dim + 1)
        if input.dim() not in ranks:
            raise ValueError(
                f"expected {ranks[0]}D or {ranks[1]}D input (got {input.dim()}D input)"
            )

    def _apply_instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input: Tensor) -> Tensor:
        """``F.instance_norm`` with the module's statistics (a batch-less input: unsqueezed)."""
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can "
                "silence this warning by not passing in num_features, which is not used "
                "because affine=False",
                stacklevel=2,
            )
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) inputs, per sample and channel.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.InstanceNorm1d(1)(minigrad.tensor([[[1.0, 3.0]]]))
        tensor([[[-1.0000,  1.0000]]])
    """

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) inputs, per sample and channel.

    Example:
        >>> from minigrad import nn
        >>> nn.InstanceNorm2d(3, affine=True).weight.shape
        minigrad.Size([3])
    """

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W) inputs.

    Example:
        >>> from minigrad import nn
        >>> sorted(nn.InstanceNorm3d(3, track_running_stats=True).state_dict())
        ['num_batches_tracked', 'running_mean', 'running_var']
    """

    _no_batch_dim = 4
