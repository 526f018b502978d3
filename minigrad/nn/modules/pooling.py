"""Pooling layers: over fixed windows, adaptive bins (the output size is given), fractional ones."""

from __future__ import annotations

from typing import Any

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import ntuple
from minigrad.tensor import Tensor

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "FractionalMaxPool2d", "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "MaxPool1d",
    "MaxPool2d", "MaxPool3d",
]


class _MaxPoolNd(Module):
    """What the max pools share: their options and their repr."""

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

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=.., dilation=.., ceil_mode=..``."""
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPoolNd):
    """The maximum of each ``kernel_size`` window of a (N, C, L) or (C, L) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.MaxPool1d(2)
        >>> pool
        MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
        >>> pool(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]))
        tensor([[3., 2.]])
    """

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool1d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.max_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )


class MaxPool2d(_MaxPoolNd):
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

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool2d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )


class MaxPool3d(_MaxPoolNd):
    """The maximum of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.MaxPool3d(2)
        >>> pool
        MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
        >>> pool(minigrad.arange(8.0).reshape(1, 2, 2, 2))
        tensor([[[[7.]]]])
    """

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool3d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )


class AvgPool1d(Module):
    """The mean of each ``kernel_size`` window of a (N, C, L) or (C, L) input.

    Its sizes are kept as 1-tuples, as PyTorch's.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.AvgPool1d(2)
        >>> pool
        AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))
        >>> pool(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]))
        tensor([[2., 1.]])
    """

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__()
        self.kernel_size = ntuple(kernel_size, 1)
        self.stride = ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        """``F.avg_pool1d(input, ...)``."""
        return F.avg_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad,
        )

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=..``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    """The mean of each ``kernel_size`` window; ``stride`` defaults to the kernel size.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AvgPool2d(2)(minigrad.ones(1, 1, 4, 4)).shape
        minigrad.Size([1, 1, 2, 2])
    """

    _pool = staticmethod(F.avg_pool2d)

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
        """``F.avg_pool2d(input, ...)`` (``F.avg_pool3d`` for ``AvgPool3d``)."""
        return self._pool(
            input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
            self.count_include_pad, self.divisor_override,
        )

    def extra_repr(self) -> str:
        """``kernel_size=.., stride=.., padding=..``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(AvgPool2d):
    """The mean of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.AvgPool3d(2, stride=1)
        >>> pool
        AvgPool3d(kernel_size=2, stride=1, padding=0)
        >>> pool(minigrad.ones(1, 1, 3, 3, 3)).shape
        minigrad.Size([1, 1, 2, 2, 2])
    """

    _pool = staticmethod(F.avg_pool3d)


class _AdaptiveAvgPoolNd(Module):
    """What the adaptive average pools share: their output size and its repr."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        """``output_size=..``."""
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """The mean of each of ``output_size`` adaptive bins of a (N, C, L) or (C, L) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AdaptiveAvgPool1d(2)(minigrad.arange(5.0).reshape(1, 5))
        tensor([[1., 3.]])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.adaptive_avg_pool1d(input, output_size)``."""
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """The mean of each of ``output_size`` adaptive bins (None: the input's size there).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AdaptiveAvgPool2d((1, None))(minigrad.ones(2, 3, 4, 5)).shape
        minigrad.Size([2, 3, 1, 5])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.adaptive_avg_pool2d(input, output_size)``."""
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """The mean of each of ``output_size`` adaptive bins of a (N, C, D, H, W) or (C, D, H, W) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.AdaptiveAvgPool3d((1, None, 2))
        >>> pool
        AdaptiveAvgPool3d(output_size=(1, None, 2))
        >>> pool(minigrad.ones(2, 3, 4, 5, 6)).shape
        minigrad.Size([2, 3, 1, 5, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.adaptive_avg_pool3d(input, output_size)``."""
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    """What the adaptive max pools share: output size, ``return_indices`` and the repr."""

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        """``output_size=..``."""
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """The maximum of each of ``output_size`` adaptive bins of a (N, C, L) or (C, L) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AdaptiveMaxPool1d(2)(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]))
        tensor([[3., 2.]])
    """

    def forward(self, input: Tensor) -> Any:
        """``F.adaptive_max_pool1d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """The maximum of each of ``output_size`` adaptive bins (None: the input's size there).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AdaptiveMaxPool2d(1)(minigrad.arange(4.0).reshape(1, 2, 2))
        tensor([[[3.]]])
    """

    def forward(self, input: Tensor) -> Any:
        """``F.adaptive_max_pool2d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """The maximum of each of ``output_size`` adaptive bins of a (N, C, D, H, W) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.AdaptiveMaxPool3d(1, return_indices=True)
        >>> pool
        AdaptiveMaxPool3d(output_size=1)
        >>> pool(minigrad.arange(8.0).reshape(1, 2, 2, 2))
        (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """

    def forward(self, input: Tensor) -> Any:
        """``F.adaptive_max_pool3d(input, ...)`` (values, or ``(values, indices)``)."""
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    """What the power-average pools share: their options and their repr."""

    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    def __init__(
        self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        """``norm_type=.., kernel_size=.., stride=.., ceil_mode=..``."""
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window of a (N, C, L) or (C, L) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.LPPool1d(2, 2)(minigrad.tensor([[[3.0, 4.0]]]))
        tensor([[[5.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.lp_pool1d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool1d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool2d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input.

    Example:
        >>> from minigrad import nn
        >>> nn.LPPool2d(2, 3)
        LPPool2d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.lp_pool2d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool2d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool3d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W) input.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.LPPool3d(2, 2)
        >>> pool
        LPPool3d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)
        >>> pool(minigrad.ones(1, 1, 2, 2, 2))
        tensor([[[[[2.8284]]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.lp_pool3d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool3d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class _FractionalMaxPoolNd(Module):
    """What the fractional max pools share: PyTorch's checks, options and buffer.

    ``_random_samples`` (if given) is a buffer, so it is in the ``state_dict``; without it
    each call draws its windows afresh.
    """

    _dims = 0
    _pool: Any = None  # staticmethod(F.fractional_max_pool2d) or (F.fractional_max_pool3d)

    def __init__(
        self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
        return_indices: bool = False, _random_samples: Any = None,
    ) -> None:
        super().__init__()
        dims = self._dims
        self.kernel_size = ntuple(kernel_size, dims)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = ntuple(output_size, dims) if output_size is not None else None
        self.output_ratio = ntuple(output_ratio, dims) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output size, "
                             "or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor) -> Any:
        """``F.fractional_max_pool2d/3d`` with the layer's options (and samples, if any)."""
        return self._pool(input, self.kernel_size, self.output_size, self.output_ratio,
                          self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, H, W) or (C, H, W) inputs (windows at random starts).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> pool = nn.FractionalMaxPool2d(2, output_ratio=0.5)
        >>> pool
        FractionalMaxPool2d()
        >>> pool(minigrad.ones(1, 3, 8, 6)).shape
        minigrad.Size([1, 3, 4, 3])
    """

    _dims = 2
    _pool = staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, T, H, W) or (C, T, H, W) inputs.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.FractionalMaxPool3d(2, output_size=(2, 3, 2))(minigrad.ones(1, 4, 5, 4)).shape
        minigrad.Size([1, 2, 3, 2])
    """

    _dims = 3
    _pool = staticmethod(F.fractional_max_pool3d)
