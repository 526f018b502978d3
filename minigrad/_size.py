"""``minigrad.Size``: a tensor's shape, a tuple that prints like ``torch.Size``."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any, SupportsIndex


class Size(tuple):
    """The shape of a tensor: a tuple of ints.

    Slicing, ``+`` and ``*`` give a ``Size`` again, as ``torch.Size``'s do.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).shape
        minigrad.Size([2, 3])
        >>> minigrad.zeros(2, 3, 4).shape[1:]
        minigrad.Size([3, 4])
    """

    __slots__ = ()

    def __new__(cls, sizes: Iterable[Any] = ()) -> Size:
        sizes = tuple(sizes)
        # (A shape read off an array is ints already: one pass over it, no new tuple.)
        if not all(type(size) is int for size in sizes):
            sizes = tuple(_as_int(size, index) for index, size in enumerate(sizes))
        return tuple.__new__(cls, sizes)

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        return math.prod(self)

    def __getitem__(self, index: Any) -> Any:
        item = tuple.__getitem__(self, index)
        return tuple.__new__(Size, item) if isinstance(index, slice) else item

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, tuple):
            raise TypeError(
                f"can only concatenate tuple (not {type(other).__name__}) to minigrad.Size"
            )
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Any:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, count: SupportsIndex) -> Size:
        return tuple.__new__(Size, tuple.__mul__(self, count))

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"


def _as_int(size: Any, index: int) -> int:
    """``size`` as an int (anything with ``__index__``: a bool, a numpy int, a 0-d tensor)."""
    try:
        return operator.index(size)
    except TypeError:
        raise TypeError(
            f"minigrad.Size() takes an iterable of 'int' (item {index} is "
            f"'{type(size).__name__}')"
        ) from None
