"""``Embedding`` and ``EmbeddingBag``: lookup tables of trainable vectors, one row per index.

``EmbeddingBag`` sums, averages or takes the maximum of the rows of each bag of indices.
"""

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

__all__ = ["Embedding", "EmbeddingBag"]


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


class EmbeddingBag(Module):
    """The sum, mean or max of the rows of ``weight`` over each bag of indices.

    The weight starts as N(0, 1) samples (the row ``padding_idx``, if given, at zero).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag
        EmbeddingBag(10, 3, mode='sum')
        >>> bag(minigrad.tensor([1, 2, 4, 5, 4]), minigrad.tensor([0, 2])).shape
        minigrad.Size([2, 3])
    """

    def __init__(
        self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
        norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
        sparse: bool = False, _weight: Tensor | None = None, include_last_offset: bool = False,
        padding_idx: int | None = None, device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self) -> None:
        """Draw the weight from N(0, 1); zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(
        self, input: Tensor, offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        """``F.embedding_bag`` with the module's weight and options."""
        return F.embedding_bag(
            input, self.weight, offsets, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
            self.include_last_offset, self.padding_idx,
        )

    def extra_repr(self) -> str:
        """``num_embeddings, embedding_dim``, the non-default settings and ``mode``."""
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm!r}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type!r}"
        if self.scale_grad_by_freq is not False:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq!r}"
        text += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx!r}"
        return text

    @classmethod
    def from_pretrained(
        cls, embeddings: Tensor, freeze: bool = True, max_norm: float | None = None,
        norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
        sparse: bool = False, include_last_offset: bool = False, padding_idx: int | None = None,
    ) -> EmbeddingBag:
        """An EmbeddingBag whose weight is ``embeddings`` (shared memory), frozen unless told."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(
            num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
            norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode,
            sparse=sparse, include_last_offset=include_last_offset, padding_idx=padding_idx,
        )
        bag.weight.requires_grad = not freeze
        return bag
