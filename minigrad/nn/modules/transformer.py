"""``nn.Transformer``, its encoder and decoder and their layers (PyTorch's Python path).

An encoder layer is self-attention and a feed-forward block, each with dropout, a residual
connection and a ``LayerNorm`` (after the sum, or before the block with ``norm_first``); a
decoder layer adds attention over the encoder's output (``memory``) between the two. PyTorch's
fused inference fast path gives the same values and is not copied.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from minigrad.creation import full
from minigrad.nn import functional as F
from minigrad.nn.init import xavier_uniform_
from minigrad.nn.modules.activation import GELU, ReLU
from minigrad.nn.modules.attention import MultiheadAttention
from minigrad.nn.modules.container import ModuleList
from minigrad.nn.modules.dropout import Dropout
from minigrad.nn.modules.linear import Linear
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.normalization import LayerNorm
from minigrad.ops.attention import _canonical_mask
from minigrad.tensor import Tensor

__all__ = [
    "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
    "TransformerEncoderLayer",
]


def _activation(activation: str | Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    """``F.relu`` or ``F.gelu`` for their names; a callable as it is."""
    if not isinstance(activation, str):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward network, each added back and normalised.

    ``x = norm1(x + dropout1(self_attn(x, x, x)))``, ``x = norm2(x + dropout2(ff(x)))`` with
    ``ff(x) = linear2(dropout(activation(linear1(x))))``; with ``norm_first`` the norms apply
    to each block's input instead: ``x = x + dropout1(self_attn(norm1(x), ...))``, ...

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
        >>> layer(minigrad.zeros(3, 5, 8)).shape
        minigrad.Size([3, 5, 8])
    """

    def __init__(
        self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu, layer_norm_eps: float = 1e-5,
        batch_first: bool = False, norm_first: bool = False, bias: bool = True,
        device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        activation = _activation(activation)
        # (PyTorch's code of the activation for its fused path: 1 relu, 2 gelu, 0 other)
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(
        self, src: Tensor, src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None, is_causal: bool = False,
    ) -> Tensor:
        """The layer's output, of ``src``'s shape."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask",
            None if src_mask is None else src_mask.dtype, "src_mask", src.dtype,
        )
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype, False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _is_causal_mask(mask: Tensor | None, is_causal: bool | None, size: int) -> bool:
    """PyTorch's ``_detect_is_causal_mask``: the hint if given, else whether ``mask`` is causal."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = full((size, size), float("-inf"), dtype=mask.dtype).triu(1)
    return mask.size() == causal.size() and bool((mask == causal).all())


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` applied in turn, then ``norm`` if given.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
        >>> encoder = nn.TransformerEncoder(layer, num_layers=2)
        >>> encoder(minigrad.zeros(3, 5, 8)).shape
        minigrad.Size([3, 5, 8])
    """

    def __init__(
        self, encoder_layer: TransformerEncoderLayer, num_layers: int,
        norm: Module | None = None, enable_nested_tensor: bool = True, mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        # PyTorch warns when its nested-tensor fast path cannot be used (minigrad has none,
        # but says so in the same cases).
        why_not = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(
                "enable_nested_tensor is True, but self.use_nested_tensor is False because "
                f"{why_not}",
                stacklevel=2,
            )
            self.use_nested_tensor = False

    def forward(
        self, src: Tensor, mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None, is_causal: bool | None = None,
    ) -> Tensor:
        """Every layer on ``src`` in turn (with the same masks), then ``norm``."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask",
            None if mask is None else mask.dtype, "mask", src.dtype,
        )
        mask = _canonical_mask(mask, "mask", None, "", src.dtype, False)
        batch_first = self.layers[0].self_attn.batch_first
        seq_len = src.size(0 if src.dim() == 2 or not batch_first else 1)
        is_causal = _is_causal_mask(mask, is_causal, seq_len)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


def _why_not_nested(layer: Any) -> str:
    """Why PyTorch's nested-tensor fast path would not apply to ``layer`` ("" if it would)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{name}.self_attn.batch_first was not True(use batch_first for better "
                "inference performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


class TransformerDecoderLayer(Module):
    """Self-attention, attention over ``memory``, then a feed-forward network.

    Each block is added back and normalised: ``x = norm1(x + dropout1(self_attn(x, x, x)))``,
    ``x = norm2(x + dropout2(multihead_attn(x, memory, memory)))``,
    ``x = norm3(x + dropout3(ff(x)))``; with ``norm_first`` the norms apply to each block's
    input instead.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, batch_first=True)
        >>> layer(minigrad.zeros(3, 5, 8), minigrad.zeros(3, 4, 8)).shape
        minigrad.Size([3, 5, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu, layer_norm_eps: float = 1e-5,
        batch_first: bool = False, norm_first: bool = False, bias: bool = True,
        device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(
        self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """The layer's output, of ``tgt``'s shape."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(
            x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        )
        return self.norm3(x + self._ff_block(x))

    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(
        self, x: Tensor, mem: Tensor, attn_mask: Tensor | None,
        key_padding_mask: Tensor | None, is_causal: bool = False,
    ) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _seq_len(x: Tensor, batch_first: bool) -> int:
    """The sequence length of (S, E), (S, N, E) or, batch first, (N, S, E)."""
    return x.size(0 if x.dim() == 2 or not batch_first else 1)


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer`` applied in turn, then ``norm`` if given.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16)
        >>> decoder = nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(minigrad.zeros(5, 3, 8), minigrad.zeros(4, 3, 8)).shape
        minigrad.Size([5, 3, 8])
    """

    __constants__ = ["norm"]

    def __init__(
        self, decoder_layer: TransformerDecoderLayer, num_layers: int,
        norm: Module | None = None,
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """Every layer on ``tgt`` and ``memory`` in turn (with the same masks), then ``norm``."""
        seq_len = _seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for layer in self.layers:
            output = layer(
                output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder of ``src`` and a decoder of ``tgt`` attending to the encoder's output.

    Each is a stack of layers followed by a ``LayerNorm`` (or ``custom_encoder`` /
    ``custom_decoder``); every weight matrix is initialised by ``xavier_uniform_``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> model = nn.Transformer(8, 2, 1, 1, dim_feedforward=16, batch_first=True)
        >>> model(minigrad.zeros(3, 4, 8), minigrad.zeros(3, 5, 8)).shape
        minigrad.Size([3, 5, 8])
        >>> nn.Transformer.generate_square_subsequent_mask(3)
        tensor([[0., -inf, -inf],
                [0., 0., -inf],
                [0., 0., 0.]])
    """

    def __init__(
        self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
        num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu, custom_encoder: Any = None,
        custom_decoder: Any = None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
        norm_first: bool = False, bias: bool = True, device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        layer_options = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*layer_options, **factory), num_encoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory),
            )
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*layer_options, **factory), num_decoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory),
            )
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None, src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None, memory_is_causal: bool = False,
    ) -> Tensor:
        """Encode ``src`` into a memory, then decode ``tgt`` against it."""
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.size(batch_dim) != tgt.size(batch_dim):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(
            tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
        """A causal mask: ``-inf`` above the diagonal (later positions), 0 elsewhere."""
        return full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)

    def _reset_parameters(self) -> None:
        """``xavier_uniform_`` on every parameter of two or more dims."""
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)
