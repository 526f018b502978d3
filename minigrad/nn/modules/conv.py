"""``Conv1d``/``2d``/``3d`` and their transposes: convolution layers, PyTorch's initialisation.

The weight has shape (out_channels, in_channels / groups, *kernel_size); weight and bias start
in U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with ``fan_in = in_channels / groups * prod(kernel)``.
Besides zero padding, ``padding_mode`` may be ``'reflect'``, ``'replicate'`` or ``'circular'``:
the input is then padded first by gathering its own border elements (``index_select``, so the
gradient flows back to them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._size import Size
from minigrad.creation import empty, tensor
from minigrad.nn import functional as F
from minigrad.nn.modules.linear import reset_affine_parameters
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device, ntuple
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]

_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _border_indices(size: int, before: int, after: int, mode: str, dim: int,
                    shape: Any, argument: int) -> np.ndarray:
    """Which input positions fill a dimension of ``size`` padded by ``before`` and ``after``.

    ``argument``: the position PyTorch's reflection-pad check names (4, 6, 8 for the last,
    second-last, third-last dimension).
    """
    positions = np.arange(-before, size + after)
    if mode == "reflect":
        if before >= size or after >= size:
            raise RuntimeError(
                f"Argument #{argument}: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({before}, {after}) at dimension {dim} of input "
                f"{list(shape)}"
            )
        positions = np.abs(positions)
        return np.where(positions > size - 1, 2 * (size - 1) - positions, positions)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    if before > size or after > size:
        raise RuntimeError("Padding value causes wrapping around more than once.")
    return positions % size  # circular


def _pad_from_input(input: Tensor, pads: list[int], mode: str) -> Tensor:
    """``F.pad(input, pads, mode)`` for reflect/replicate/circular, built from index_select.

    Every dimension is checked (against the input as given) before any is padded.
    """
    shape = input.shape
    indices = [
        _border_indices(shape[-1 - i], pads[2 * i], pads[2 * i + 1], mode, len(shape) - 1 - i,
                        shape, 4 + 2 * i)
        for i in range(len(pads) // 2)
    ]
    for i, index in enumerate(indices):
        input = input.index_select(input.dim() - 1 - i, tensor(index))
    return input


class _ConvNd(Module):
    """Shared by the convolutions (which set ``_dims`` and ``_conv``): the whole layer.

    The transposed ones (``_ConvTransposeNd``) take their arguments in another order; both
    set the layer up with ``_set_up``.
    """

    _dims = 0
    _conv: Any = None  # staticmethod(F.conv1d), (F.conv2d) or (F.conv3d)

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
        padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
        padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        self._set_up(in_channels, out_channels, kernel_size, stride, padding, dilation, False,
                     0, groups, bias, padding_mode, device, dtype)

    def _set_up(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any,
        padding: Any, dilation: Any, transposed: bool, output_padding: Any, groups: int,
        bias: bool, padding_mode: str, device: Any, dtype: Any,
    ) -> None:
        """PyTorch's ``_ConvNd.__init__``: check the options, keep them, make the parameters.

        The weight is (out, in / groups, *kernel), or (in, out / groups, *kernel) when
        ``transposed``.
        """
        check_device(device)
        kernel_size, stride, dilation = (
            ntuple(kernel_size, self._dims), ntuple(stride, self._dims),
            ntuple(dilation, self._dims),
        )
        if not isinstance(padding, str):
            padding = ntuple(padding, self._dims)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}"
                )
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {_PADDING_MODES}, but got "
                f"padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = ntuple(output_padding, self._dims)
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's order: (left, right) of the last dim first.
        self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
        for i, (d, k) in enumerate(zip(reversed(dilation), reversed(kernel_size))):
            if padding == "same":
                total = d * (k - 1)
                self._reversed_padding_repeated_twice[2 * i: 2 * i + 2] = [
                    total // 2, total - total // 2
                ]
            elif not isinstance(padding, str):
                pad = padding[len(kernel_size) - 1 - i]
                self._reversed_padding_repeated_twice[2 * i: 2 * i + 2] = [pad, pad]
        channels = (in_channels, out_channels // groups) if transposed else (
            out_channels, in_channels // groups)
        self.weight = Parameter(empty((*channels, *kernel_size), dtype=dtype))
        self.register_parameter(
            "bias", Parameter(empty(out_channels, dtype=dtype)) if bias else None
        )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw weight and bias afresh (PyTorch's default initialisation)."""
        reset_affine_parameters(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        """``F.conv1d`` / ``2d`` / ``3d`` (after padding the input itself for non-zero modes)."""
        padding = self.padding
        if self.padding_mode != "zeros":
            input = _pad_from_input(
                input, self._reversed_padding_repeated_twice, self.padding_mode
            )
            padding = 0
        return self._conv(
            input, self.weight, self.bias, self.stride, padding, self.dilation, self.groups
        )

    def extra_repr(self) -> str:
        """``in, out, kernel_size=.., stride=..`` and the non-default settings."""
        text = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L) or (C_in, L) inputs.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> conv = nn.Conv1d(2, 4, 3, padding=1)
        >>> conv
        Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=(1,))
        >>> conv(minigrad.zeros(5, 2, 10)).shape
        minigrad.Size([5, 4, 10])
    """

    _dims = 1
    _conv = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W) or (C_in, H, W) inputs.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> conv = nn.Conv2d(1, 8, 3)
        >>> conv
        Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1))
        >>> conv(minigrad.zeros(2, 1, 8, 8)).shape
        minigrad.Size([2, 8, 6, 6])
    """

    _dims = 2
    _conv = staticmethod(F.conv2d)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W) or (C_in, D, H, W) inputs (volumes, video).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> conv = nn.Conv3d(1, 4, 3, padding=1)
        >>> conv
        Conv3d(1, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))
        >>> conv(minigrad.zeros(2, 1, 4, 5, 5)).shape
        minigrad.Size([2, 4, 4, 5, 5])
    """

    _dims = 3
    _conv = staticmethod(F.conv3d)


class _ConvTransposeNd(_ConvNd):
    """Shared by the transposed convolutions: zero padding only, an ``output_size``."""

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
        padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
        dilation: Any = 1, padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:
        if padding_mode != "zeros":
            raise ValueError(
                f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        Module.__init__(self)
        self._set_up(in_channels, out_channels, ntuple(kernel_size, self._dims),
                     ntuple(stride, self._dims), ntuple(padding, self._dims),
                     ntuple(dilation, self._dims), True, output_padding, groups, bias,
                     padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        """``F.conv_transpose1d`` / ``2d`` / ``3d``; ``output_size`` picks the output padding."""
        output_padding = self._output_padding(input, output_size)
        return self._conv(input, self.weight, self.bias, self.stride, self.padding,
                          output_padding, self.groups, self.dilation)

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple[int, ...]:
        """The output padding that gives ``output_size`` (PyTorch's checks and texts)."""
        if output_size is None:
            return self.output_padding
        dims = self._dims
        non_spatial = 2 if input.dim() == dims + 2 else 1
        output_size = list(output_size)
        if len(output_size) == non_spatial + dims:
            output_size = output_size[non_spatial:]
        if len(output_size) != dims:
            raise ValueError(
                f"ConvTranspose{dims}D: for {input.dim()}D input, output_size must have {dims} "
                f"or {non_spatial + dims} elements (got {len(output_size)})"
            )
        smallest = [(input.size(d + non_spatial) - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(dims)]
        largest = [size + self.stride[d] - 1 for d, size in enumerate(smallest)]
        for size, low, high in zip(output_size, smallest, largest):
            if size < low or size > high:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"{smallest} to {largest} (for an input of {Size(input.size()[2:])})"
                )
        return tuple(size - low for size, low in zip(output_size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C_in, L) or (C_in, L) inputs.

    The weight is (in_channels, out_channels / groups, kernel_size).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> up = nn.ConvTranspose1d(4, 2, 3, stride=2)
        >>> up
        ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))
        >>> up(minigrad.zeros(5, 4, 10)).shape
        minigrad.Size([5, 2, 21])
    """

    _dims = 1
    _conv = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C_in, H, W) or (C_in, H, W) inputs.

    The weight is (in_channels, out_channels / groups, kH, kW).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        >>> up
        ConvTranspose2d(8, 4, kernel_size=(2, 2), stride=(2, 2))
        >>> up(minigrad.zeros(1, 8, 5, 5)).shape
        minigrad.Size([1, 4, 10, 10])
    """

    _dims = 2
    _conv = staticmethod(F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C_in, D, H, W) or (C_in, D, H, W) inputs.

    The weight is (in_channels, out_channels / groups, kD, kH, kW).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> up = nn.ConvTranspose3d(4, 2, 2, stride=2)
        >>> up
        ConvTranspose3d(4, 2, kernel_size=(2, 2, 2), stride=(2, 2, 2))
        >>> up(minigrad.zeros(1, 4, 2, 3, 3)).shape
        minigrad.Size([1, 2, 4, 6, 6])
    """

    _dims = 3
    _conv = staticmethod(F.conv_transpose3d)
