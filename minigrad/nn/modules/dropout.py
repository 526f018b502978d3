"""``Dropout``: zero random elements while training, scale the rest by ``1 / (1 - p)``."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["Dropout"]


class Dropout(Module):
    """Each element is zeroed with probability ``p`` in training mode; the identity in eval mode.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> drop = nn.Dropout(0.5).eval()
        >>> drop(minigrad.ones(3))
        tensor([1., 1., 1.])
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.dropout(input, p, training, inplace)``."""
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        """``p=.., inplace=..``."""
        return f"p={self.p}, inplace={self.inplace}"
