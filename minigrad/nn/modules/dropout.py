"""The dropout layers: zero random elements (or whole channels) while training.

``Dropout`` zeroes elements and scales the rest by ``1 / (1 - p)``; ``Dropout1d/2d/3d`` zero
whole channels; ``AlphaDropout`` and ``FeatureAlphaDropout`` (for SELU networks) keep the mean
and variance. All are the identity in eval mode.
"""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = [
    "AlphaDropout",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "FeatureAlphaDropout",
]


class _DropoutNd(Module):
    """What the dropout layers share: ``p`` (checked), ``inplace`` and their repr."""

    __constants__ = ["p", "inplace"]

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        """``p=.., inplace=..``."""
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Each element is zeroed with probability ``p`` in training mode; the identity in eval mode.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> drop = nn.Dropout(0.5).eval()
        >>> drop(minigrad.ones(3))
        tensor([1., 1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.dropout(input, p, training, inplace)``."""
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability ``p`` in training.

    Example:
        >>> from minigrad import nn
        >>> nn.Dropout1d(0.2)
        Dropout1d(p=0.2, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.dropout1d(input, p, training, inplace)``."""
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) inputs with probability ``p`` in training.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Dropout2d(1.0)(minigrad.ones(1, 2, 1, 1)).flatten()
        tensor([0., 0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.dropout2d(input, p, training, inplace)``."""
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p``.

    Example:
        >>> from minigrad import nn
        >>> nn.Dropout3d()
        Dropout3d(p=0.5, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.dropout3d(input, p, training, inplace)``."""
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps a SELU network's mean and variance (``inplace`` is not used).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.AlphaDropout(0.3).eval()(minigrad.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.alpha_dropout(input, p, training)``."""
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels (dim 1); ``inplace`` is not used (as in PyTorch).

    Example:
        >>> from minigrad import nn
        >>> nn.FeatureAlphaDropout(0.1)
        FeatureAlphaDropout(p=0.1, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.feature_alpha_dropout(input, p, training)``."""
        return F.feature_alpha_dropout(input, self.p, self.training)
