"""``Embedding``: a lookup table of trainable vectors, one row per index."""

from __future__ import annotations

from typing import Any

from minigrad.autograd.grad_mode import no_grad
from minigrad.creation import empty
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Embedding"]


class Embedding(Module):
    """Row ``i`` of ``weight`` (num_embeddings, embedding_dim) for each index ``i`` of the input.

    The weight starts as N(0, 1) samples; the row ``padding_idx`` (if given) starts at zero
    and never receives a gradient.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> emb = nn.Embedding(10, 3, padding_idx=0)
        >>> emb
        Embedding(10, 3, padding_idx=0)
        >>> emb(minigrad.tensor([[0, 2], [4, 0]])).shape
        minigrad.Size([2, 2, 3])
        >>> emb.weight[0]
        tensor([0., 0., 0.], grad_fn=<SelectBackward0>)
    """

    def __init__(
        self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
        max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
        sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False,
        device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(
                empty((num_embeddings, embedding_dim), dtype=dtype), requires_grad=not _freeze
            )
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self) -> None:
        """Draw the weight from N(0, 1); zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        """``F.embedding(input, weight, padding_idx, max_norm, ...)``."""
        return F.embedding(
            input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.sparse,
        )

    def extra_repr(self) -> str:
        """``num_embeddings, embedding_dim`` and the non-default settings."""
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(
        cls, embeddings: Tensor, freeze: bool = True, padding_idx: int | None = None,
        max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding whose weight is ``embeddings`` (shared memory), frozen unless told."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(
            num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
            padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq, sparse=sparse,
        )
