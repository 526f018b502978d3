"""``Flatten`` and ``Unflatten``: reshape between a layer's 2-D and N-D views (views, no copy)."""

from __future__ import annotations

from typing import Any

from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Merge dims ``start_dim..end_dim`` into one (by default all but the batch dim).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Flatten()(minigrad.zeros(2, 3, 4)).shape
        minigrad.Size([2, 12])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        """``input.flatten(start_dim, end_dim)``."""
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        """``start_dim=.., end_dim=..``."""
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Unflatten(1, (3, 4))(minigrad.zeros(2, 12)).shape
        minigrad.Size([2, 3, 4])
    """

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(
                "unflattened_size must be a tuple of ints, but found type "
                f"{type(unflattened_size).__name__}"
            )
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(
                    "unflattened_size must be tuple of ints, but found element of type "
                    f"{type(elem).__name__} at pos {idx}"
                )
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        """``input.unflatten(dim, unflattened_size)``."""
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        """``dim=.., unflattened_size=..``."""
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
