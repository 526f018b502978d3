"""Constant padding layers: ``ConstantPad1d``, ``ConstantPad2d``, ``ZeroPad1d``, ``ZeroPad2d``.

Each calls ``F.pad(input, padding, "constant", value)``; ``padding`` is kept as PyTorch keeps
it: a tuple of two (1d) or four (2d) ints, an int repeated.
"""

from __future__ import annotations

from collections.abc import Sequence

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d"]


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
