"""``Conv1d`` and ``Conv2d``: cross-correlation layers with PyTorch's initialisation.

The weight has shape (out_channels, in_channels / groups, *kernel_size); weight and bias start
in U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with ``fan_in = in_channels / groups * prod(kernel)``.
Besides zero padding, ``padding_mode`` may be ``'reflect'``, ``'replicate'`` or ``'circular'``:
the input is then padded first by gathering its own border elements (``index_select``, so the
gradient flows back to them).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.creation import empty, tensor
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.linear import _fan_in_bounds
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device, ntuple
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Conv1d", "Conv2d"]

_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _border_indices(size: int, before: int, after: int, mode: str, dim: int,
                    shape: Any) -> np.ndarray:
    """Which input positions fill a dimension of ``size`` padded by ``before`` and ``after``."""
    positions = np.arange(-before, size + after)
    if mode == "reflect":
        if before >= size or after >= size:
            raise RuntimeError(
                "Argument #4: Padding size should be less than the corresponding input "
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
    """``F.pad(input, pads, mode)`` for reflect/replicate/circular, built from index_select."""
    for i in range(len(pads) // 2):
        dim = input.dim() - 1 - i
        index = _border_indices(input.shape[dim], pads[2 * i], pads[2 * i + 1], mode, dim,
                                input.shape)
        input = input.index_select(dim, tensor(index))
    return input


class _ConvNd(Module):
    """Shared by Conv1d and Conv2d: parameters, checks, initialisation, repr."""

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: tuple[int, ...],
        stride: tuple[int, ...], padding: Any, dilation: tuple[int, ...], groups: int,
        bias: bool, padding_mode: str, device: Any, dtype: Any,
    ) -> None:
        super().__init__()
        check_device(device)
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
        self.transposed = False
        self.output_padding = (0,) * len(kernel_size)
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
        self.weight = Parameter(
            empty((out_channels, in_channels // groups, *kernel_size), dtype=dtype)
        )
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw weight and bias afresh (PyTorch's default initialisation)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            init.uniform_(self.bias, *_fan_in_bounds(self.weight))

    def _padded(self, input: Tensor) -> tuple[Tensor, Any]:
        """The input and the padding to give the convolution itself."""
        if self.padding_mode == "zeros":
            return input, self.padding
        padded = _pad_from_input(input, self._reversed_padding_repeated_twice, self.padding_mode)
        return padded, 0

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

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
        padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
        padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__(
            in_channels, out_channels, ntuple(kernel_size, 1), ntuple(stride, 1),
            padding if isinstance(padding, str) else ntuple(padding, 1), ntuple(dilation, 1),
            groups, bias, padding_mode, device, dtype,
        )

    def forward(self, input: Tensor) -> Tensor:
        """``F.conv1d`` (after padding the input itself, for non-zero padding modes)."""
        input, padding = self._padded(input)
        return F.conv1d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)


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

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
        padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
        padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__(
            in_channels, out_channels, ntuple(kernel_size, 2), ntuple(stride, 2),
            padding if isinstance(padding, str) else ntuple(padding, 2), ntuple(dilation, 2),
            groups, bias, padding_mode, device, dtype,
        )

    def forward(self, input: Tensor) -> Tensor:
        """``F.conv2d`` (after padding the input itself, for non-zero padding modes)."""
        input, padding = self._padded(input)
        return F.conv2d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)
