"""Padding layers: constant, reflection, replication and circular, of 1, 2 or 3 dims.

``ConstantPad1d/2d/3d``, ``ZeroPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``,
``ReplicationPad1d/2d/3d``, ``CircularPad1d/2d/3d``. Each calls ``F.pad(input, padding,
mode)``; ``padding`` is kept as PyTorch keeps it: a tuple of two (1d), four (2d) or six (3d)
ints, an int repeated.
"""

from __future__ import annotations

from collections.abc import Sequence

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]


def _repeated(padding: int | Sequence[int], count: int) -> tuple[int, ...]:
    """``padding`` as a tuple: an int repeated ``count`` times (PyTorch's ``_ntuple``)."""
    if isinstance(padding, Sequence):
        return tuple(padding)
    return (padding,) * count


class _ConstantPadNd(Module):
    """Pads the last dims with ``value``; subclasses set ``padding``."""

    __constants__ = ["padding", "value"]
    padding: tuple[int, ...]

    def __init__(self, value: float) -> None:
        super().__init__()
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        """``F.pad(input, padding, "constant", value)``."""
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        """``padding=.., value=..``."""
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with ``value``: ``padding`` is ``(left, right)`` or one int for both.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.ConstantPad1d((1, 2), 3.5)(minigrad.tensor([[1.0]]))
        tensor([[3.5000, 1.0000, 3.5000, 3.5000]])
    """

    def __init__(self, padding: int | Sequence[int], value: float) -> None:
        super().__init__(value)
        self.padding = _repeated(padding, 2)


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dims with ``value``: ``(left, right, top, bottom)`` or one int."""

    def __init__(self, padding: int | Sequence[int], value: float) -> None:
        super().__init__(value)
        self.padding = _repeated(padding, 4)


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dims with ``value``: six ints (last dim first) or one int."""

    def __init__(self, padding: int | Sequence[int], value: float) -> None:
        super().__init__(value)
        self.padding = _repeated(padding, 6)


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        """The padding alone, as PyTorch shows it."""
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dims with zeros.

    Example:
        >>> from minigrad import nn
        >>> nn.ZeroPad2d(1)
        ZeroPad2d((1, 1, 1, 1))
    """

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        """The padding alone, as PyTorch shows it."""
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last three dims with zeros."""

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        """The padding alone, as PyTorch shows it."""
        return f"{self.padding}"


class _PadByValuesNd(Module):
    """Pads the last ``dims`` dims in ``mode``; subclasses set ``mode`` and ``dims``."""

    __constants__ = ["padding"]
    padding: tuple[int, ...]
    mode: str
    dims: int

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__()
        self.padding = _repeated(padding, 2 * self.dims)

    def forward(self, input: Tensor) -> Tensor:
        """``F.pad(input, padding, mode)``."""
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        """The padding alone, as PyTorch shows it."""
        return f"{self.padding}"


class ReflectionPad1d(_PadByValuesNd):
    """Pads the last dim with its reflection (edges not repeated): ``(left, right)`` or an int.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.ReflectionPad1d(2)(minigrad.tensor([[0.0, 1.0, 2.0]]))
        tensor([[2., 1., 0., 1., 2., 1., 0.]])
    """

    mode, dims = "reflect", 1


class ReflectionPad2d(_PadByValuesNd):
    """Pads the last two dims by reflection: ``(left, right, top, bottom)`` or an int."""

    mode, dims = "reflect", 2


class ReflectionPad3d(_PadByValuesNd):
    """Pads the last three dims by reflection: six ints (last dim first) or an int."""

    mode, dims = "reflect", 3


class ReplicationPad1d(_PadByValuesNd):
    """Pads the last dim by repeating its edge values: ``(left, right)`` or an int.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.ReplicationPad1d((1, 2))(minigrad.tensor([[0.0, 1.0]]))
        tensor([[0., 0., 1., 1., 1.]])
    """

    mode, dims = "replicate", 1


class ReplicationPad2d(_PadByValuesNd):
    """Pads the last two dims by repeating the edges: ``(left, right, top, bottom)`` or an int."""

    mode, dims = "replicate", 2


class ReplicationPad3d(_PadByValuesNd):
    """Pads the last three dims by repeating the edges: six ints (last dim first) or an int."""

    mode, dims = "replicate", 3


class _CircularPadNd(_PadByValuesNd):
    """Circular padding; the module checks the input's number of dims itself, as PyTorch's."""

    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        """``F.pad(input, padding, "circular")`` of an input with ``dims + 1`` or ``+ 2`` dims."""
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(
                f"expected {self.dims + 1}D or {self.dims + 2}D input (got {input.dim()}D input)"
            )
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pads the last dim by wrapping around: ``(left, right)`` or an int.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.CircularPad1d((2, 1))(minigrad.tensor([[0.0, 1.0, 2.0]]))
        tensor([[1., 2., 0., 1., 2., 0.]])
    """

    dims = 1


class CircularPad2d(_CircularPadNd):
    """Pads the last two dims by wrapping around: ``(left, right, top, bottom)`` or an int."""

    dims = 2


class CircularPad3d(_CircularPadNd):
    """Pads the last three dims by wrapping around: six ints (last dim first) or an int."""

    dims = 3
