"""``MaxPool2d`` and ``AvgPool2d``: pooling over windows of (N, C, H, W) inputs."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["AvgPool2d", "MaxPool2d"]


class MaxPool2d(Module):
    """The maximum of each ``kernel_size`` window; ``stride`` defaults to the kernel size.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.MaxPool2d(2)
        >>> pool
        MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
        >>> pool(minigrad.arange(16.0).reshape(1, 1, 4, 4))
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
        return_indices: bool = False, ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool2d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=.., dilation=.., ceil_mode=..``."""
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class AvgPool2d(Module):
    """The mean of each ``kernel_size`` window; ``stride`` defaults to the kernel size.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AvgPool2d(2)(minigrad.ones(1, 1, 4, 4)).shape
        minigrad.Size([1, 1, 2, 2])
    """

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
        count_include_pad: bool = True, divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        """``F.avg_pool2d(input, ...)``."""
        return F.avg_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad, self.divisor_override,
        )

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=..``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
