"""``MaxUnpool1d/2d/3d``: ``F.max_unpool1d/2d/3d`` as layers (PyTorch's pooling.py)."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


def _tuple(value: Any, count: int) -> tuple[Any, ...]:
    """PyTorch's ``_single`` / ``_pair``: a sequence as a tuple, a number repeated."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * count


class _MaxUnpoolNd(Module):
    """Keeps ``kernel_size``, ``stride`` (the kernel size by default) and ``padding``."""

    dims: int

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _tuple(kernel_size, self.dims)
        self.stride = _tuple(stride if stride is not None else kernel_size, self.dims)
        self.padding = _tuple(padding, self.dims)

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=..``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Puts a ``MaxPool1d``'s values back at their indices, zeros elsewhere.

    Example:
        >>> from minigrad import nn
        >>> nn.MaxUnpool1d(2)
        MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))
    """

    dims = 1

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """``F.max_unpool1d`` with the layer's options."""
        return F.max_unpool1d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool2d(_MaxUnpoolNd):
    """Puts a ``MaxPool2d``'s values back at their indices, zeros elsewhere.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool, unpool = nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)
        >>> unpool(*pool(minigrad.tensor([[[[1.0, 3.0], [2.0, 0.0]]]])))
        tensor([[[[0., 3.],
                  [0., 0.]]]])
    """

    dims = 2

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """``F.max_unpool2d`` with the layer's options."""
        return F.max_unpool2d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool3d(_MaxUnpoolNd):
    """Puts a ``MaxPool3d``'s values back at their indices, zeros elsewhere.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool, unpool = nn.MaxPool3d(2, return_indices=True), nn.MaxUnpool3d(2)
        >>> unpool(*pool(minigrad.arange(8.0).reshape(1, 2, 2, 2))).shape
        minigrad.Size([1, 2, 2, 2])
    """

    dims = 3

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """``F.max_unpool3d`` with the layer's options."""
        return F.max_unpool3d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )
