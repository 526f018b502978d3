"""``Upsample``, ``UpsamplingNearest2d``, ``UpsamplingBilinear2d``: ``F.interpolate`` as layers."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]


class Upsample(Module):
    """Resamples (N, C, *spatial) inputs to ``size`` or by ``scale_factor`` (``F.interpolate``).

    ``scale_factor`` is kept as a float (or a tuple of floats), as PyTorch keeps it.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> up = nn.Upsample(scale_factor=2, mode="nearest")
        >>> up
        Upsample(scale_factor=2.0, mode='nearest')
        >>> up(minigrad.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2., 2.]]])
    """

    __constants__ = [
        "size",
        "scale_factor",
        "mode",
        "align_corners",
        "name",
        "recompute_scale_factor",
    ]

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        """``F.interpolate`` with the layer's options."""
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        """``scale_factor=..`` (or ``size=..``) and ``mode=..``."""
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour upsampling of (N, C, H, W) inputs.

    Example:
        >>> from minigrad import nn
        >>> nn.UpsamplingNearest2d(scale_factor=2)
        UpsamplingNearest2d(scale_factor=2.0, mode='nearest')
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear upsampling of (N, C, H, W) inputs with ``align_corners=True``.

    Example:
        >>> from minigrad import nn
        >>> nn.UpsamplingBilinear2d(size=5)
        UpsamplingBilinear2d(size=5, mode='bilinear')
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
