"""``Unfold`` and ``Fold``: image windows as columns (im2col) and back (col2im), as layers."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Adds columns of sliding windows back into an image of ``output_size`` (``F.fold``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> fold = nn.Fold(output_size=(2, 3), kernel_size=2)
        >>> fold
        Fold(output_size=(2, 3), kernel_size=2, dilation=1, padding=0, stride=1)
        >>> fold(minigrad.ones(1, 4, 2)).shape
        minigrad.Size([1, 1, 2, 3])
    """

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]

    def __init__(
        self,
        output_size: Any,
        kernel_size: Any,
        dilation: Any = 1,
        padding: Any = 0,
        stride: Any = 1,
    ) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        """``F.fold`` with the layer's options."""
        return F.fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self) -> str:
        """The options, as PyTorch shows them."""
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    """The sliding windows of an image as columns (``F.unfold``, im2col).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Unfold(kernel_size=(2, 3))(minigrad.zeros(1, 2, 4, 5)).shape
        minigrad.Size([1, 12, 9])
    """

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]

    def __init__(
        self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        """``F.unfold`` with the layer's options."""
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        """The options, as PyTorch shows them."""
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )
