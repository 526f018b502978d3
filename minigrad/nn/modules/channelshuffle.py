"""``ChannelShuffle``: ``F.channel_shuffle`` as a layer (ShuffleNet)."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Interleaves the channels of ``groups`` groups of (N, C, *) inputs.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> shuffle = nn.ChannelShuffle(2)
        >>> shuffle
        ChannelShuffle(groups=2)
        >>> shuffle(minigrad.arange(4.0).reshape(1, 4, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    __constants__ = ["groups"]

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        """``F.channel_shuffle(input, groups)``."""
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        """``groups=..``."""
        return f"groups={self.groups}"
