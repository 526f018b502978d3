"""``PixelShuffle`` and ``PixelUnshuffle``: channels traded for resolution and back."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r) with r = ``upscale_factor``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> shuffle = nn.PixelShuffle(2)
        >>> shuffle
        PixelShuffle(upscale_factor=2)
        >>> shuffle(minigrad.zeros(1, 8, 3, 3)).shape
        minigrad.Size([1, 2, 6, 6])
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        """``F.pixel_shuffle(input, upscale_factor)``."""
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        """``upscale_factor=..``."""
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W) with r = ``downscale_factor``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.PixelUnshuffle(2)(minigrad.zeros(1, 2, 6, 6)).shape
        minigrad.Size([1, 8, 3, 3])
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        """``F.pixel_unshuffle(input, downscale_factor)``."""
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        """``downscale_factor=..``."""
        return f"downscale_factor={self.downscale_factor}"
