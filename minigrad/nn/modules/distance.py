"""``PairwiseDistance`` and ``CosineSimilarity``: modules over their ``nn.functional`` functions."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module
from minigrad.tensor import Tensor

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class PairwiseDistance(Module):
    """``norm(x1 - x2 + eps, p)`` over the last dim (the order is kept as ``norm``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.PairwiseDistance(eps=0.0)(minigrad.tensor([[3.0, 4.0]]), minigrad.zeros(1, 2))
        tensor([5.])
    """

    __constants__ = ["norm", "eps", "keepdim"]

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        """``F.pairwise_distance(x1, x2, norm, eps, keepdim)``."""
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """``x1 . x2 / max(|x1| |x2|, eps)`` along ``dim``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.CosineSimilarity(dim=0)(minigrad.tensor([1.0, 0.0]), minigrad.tensor([1.0, 1.0]))
        tensor(0.7071)
    """

    __constants__ = ["dim", "eps"]

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        """``F.cosine_similarity(x1, x2, dim, eps)``."""
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
