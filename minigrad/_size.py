"""``minigrad.Size``: a tensor's shape, a tuple that prints like ``torch.Size``."""

from __future__ import annotations

import math


class Size(tuple):
    """The shape of a tensor: a tuple of ints.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).shape
        minigrad.Size([2, 3])
    """

    __slots__ = ()

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        return math.prod(self)

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"
