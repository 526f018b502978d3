"""``nn.MultiheadAttention``: attention with several heads over learned projections.

The module holds the projections and runs ``F.multi_head_attention_forward`` (PyTorch's
Python path; PyTorch's fused inference fast path gives the same values and is not copied).
"""

from __future__ import annotations

from typing import Any

from minigrad.creation import empty
from minigrad.nn import init
from minigrad.nn.modules.linear import Linear
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.ops.attention import _canonical_mask, multi_head_attention_forward
from minigrad.tensor import Tensor

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """``Linear`` under the name PyTorch gives ``MultiheadAttention.out_proj`` (in its repr)."""


class MultiheadAttention(Module):
    """``concat(head_1, ..., head_h) W_O`` with ``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``.

    Parameters as PyTorch registers them: ``in_proj_weight`` ``(3 E, E)`` (or, when ``kdim`` or
    ``vdim`` differ from ``embed_dim``, ``q_proj_weight``, ``k_proj_weight``,
    ``v_proj_weight``), ``in_proj_bias`` ``(3 E)``, ``bias_k``/``bias_v`` ``(1, 1, E)`` with
    ``add_bias_kv``, and ``out_proj`` (a ``Linear``); Xavier-uniform projections, zero biases.
    ``forward(query, key, value)`` takes ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``) or
    unbatched ``(L, E)`` and returns ``(output, weights)``; weights are ``None`` unless
    ``need_weights``, averaged over the heads unless ``average_attn_weights=False``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> attention = nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = minigrad.zeros(3, 5, 8)
        >>> output, weights = attention(x, x, x)
        >>> output.shape, weights.shape
        (minigrad.Size([3, 5, 8]), minigrad.Size([3, 5, 5]))
    """

    def __init__(
        self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
        add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
        vdim: int | None = None, batch_first: bool = False, device: Any = None,
        dtype: Any = None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead"
            )
        super().__init__()
        check_device(device)
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), dtype=dtype))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), dtype=dtype))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(empty((1, 1, embed_dim), dtype=dtype))
            self.bias_v = Parameter(empty((1, 1, embed_dim), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        """PyTorch's initialisation: Xavier-uniform projections, zero biases, Xavier-normal kv."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for bias in (self.bias_k, self.bias_v):
            if bias is not None:
                init.xavier_normal_(bias)

    def forward(
        self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
        need_weights: bool = True, attn_mask: Tensor | None = None,
        average_attn_weights: bool = True, is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """``(attention output, attention weights or None)``."""
        batched = query.dim() == 3
        key_padding_mask = _canonical_mask(
            key_padding_mask, "key_padding_mask",
            None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype,
        )
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if self.batch_first and batched:
            # (keeping which of query, key and value are the same tensor: the projections
            # of self-attention are made at once)
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {}
        if not self._qkv_same_embed_dim:
            separate = {"use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
                        "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        attn_output, attn_output_weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal, **separate,
        )
        if self.batch_first and batched:
            attn_output = attn_output.transpose(1, 0)
        return attn_output, attn_output_weights
