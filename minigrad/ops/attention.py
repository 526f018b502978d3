"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward``.

``softmax(q @ k.T * scale + mask) @ v``, composed from public ops as PyTorch's CPU math path
composes it (``_scaled_dot_product_attention_math``), so autograd records the same steps and
the same things are saved. Its softmax is ``SafeSoftmax`` (PyTorch's ``_safe_softmax``): a
query masked from every key gets zeros, not NaN. ``multi_head_attention_forward`` (what
``nn.MultiheadAttention`` runs) follows PyTorch's Python function step by step.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, _dtype, errors
from minigrad.creation import full, ones, zeros, zeros_like
from minigrad.ops.comparison import where
from minigrad.ops.dropout import dropout
from minigrad.ops.linalg import baddbmm, bmm, matmul
from minigrad.ops.loss_common import mul_scalar
from minigrad.ops.repeating import repeat_interleave
from minigrad.ops.shape import cat, pad
from minigrad.ops.softmax import Softmax, softmax

__all__ = ["multi_head_attention_forward", "scaled_dot_product_attention"]


class SafeSoftmax(Softmax):
    """softmax along ``dim``, but 0 along a slice whose every entry is -inf.

    PyTorch's ``_safe_softmax``: a fully masked query attends to nothing. The gradient is
    softmax's (``y * (grad - sum(grad * y))``, so 0 on such a slice); saves its result.
    """

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        y = super().forward(ctx, x, dim)
        if x.ndim and x.size:
            fully_masked = np.all(x == -np.inf, axis=dim % x.ndim, keepdims=True)
            if fully_masked.any():  # (y is forward's own new array: written in place)
                y[np.broadcast_to(fully_masked, y.shape)] = 0
        return y


def _check_inputs(query: Any, key: Any, value: Any, attn_mask: Any) -> None:
    """PyTorch's ``validate_sdpa_input`` checks, in its order and with its texts.

    (Integer inputs pass: as in PyTorch, the scaled query and key become float and the last
    product, with the integer value, raises the matrix product's dtype error.)
    """
    inputs = (("query", query), ("key", key), ("value", value))
    for position, (name, tensor) in enumerate(inputs, 1):
        _arguments.check_tensor(tensor, "scaled_dot_product_attention", name, position)
    if attn_mask is not None:  # (named: it is nearly always passed by keyword)
        _arguments.check_tensor(attn_mask, "scaled_dot_product_attention", "attn_mask")
    names = [errors.CPP_TYPE_NAMES[t.dtype.name] for t in (query, key, value)]
    if len(set(names)) > 1:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{names[0]} key.dtype: {names[1]} and value.dtype: {names[2]} instead."
        )
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            "instead."
        )
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool_, _dtype.float32, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {errors.CPP_TYPE_NAMES[attn_mask.dtype.name]} and  query.dtype: "
            f"{names[0]} instead."
        )


def _check_flash_mask_rows(
    query: Any, key: Any, value: Any, attn_mask: Any, dropout_p: float, enable_gqa: bool
) -> None:
    """PyTorch's IndexError for a 0-d or 1-d ``attn_mask`` where its CPU flash kernel is tried.

    Choosing the backend, PyTorch's gates (``use_flash_attention_cpp``) read
    ``attn_mask.size(-2)`` once the inputs passed the ones before: no dropout, 4-d query, key
    and value of one batch size and one number of heads (or grouped heads with
    ``enable_gqa``), a mask that does not require grad. A mask of fewer than 2 dims then
    raises there, before anything else (even the ``is_causal`` check); elsewhere it
    broadcasts.
    """
    if attn_mask is None or attn_mask.dim() >= 2 or attn_mask.requires_grad or dropout_p > 0:
        return
    if not query.dim() == key.dim() == value.dim() == 4:
        return
    if not query.size(0) == key.size(0) == value.size(0):
        return
    heads, key_heads, value_heads = query.size(1), key.size(1), value.size(1)
    if enable_gqa:
        if not key_heads or key_heads != value_heads or heads % key_heads:
            return
    elif not heads == key_heads == value_heads:
        return
    # (measured: PyTorch returns before the gates when the result or the keys are empty)
    batch, _, rows, _ = query.shape
    if batch * heads * rows * value.size(-1) == 0 or key.size(2) == 0:
        return
    if attn_mask.dim() == 0:
        raise IndexError(errors.dim_of_0d(-2))
    raise IndexError(errors.dim_out_of_range(-2, 1))


def _additive(mask: Any, like: Any) -> Any:
    """A boolean mask as PyTorch converts it: 0 where True, -inf where False (``like``'s dtype)."""
    if mask.dtype != _dtype.bool_:
        return mask
    # (-inf into an integer dtype is PyTorch's overflow error, before any product)
    negative_infinity = _dtype.checked_value(-math.inf, np.dtype(like.dtype.name))
    return where(mask, 0.0, full((), negative_infinity, dtype=like.dtype))


def _grouped(query: Any, key: Any, value: Any) -> tuple[Any, Any]:
    """Key and value with their heads repeated to the query's (grouped-query attention)."""
    heads, key_heads, value_heads = query.size(-3), key.size(-3), value.size(-3)
    if heads == key_heads == value_heads:
        return key, value
    if heads % key_heads or heads % value_heads:
        # (PyTorch's text ends so: its message stops after "in ")
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    return (
        repeat_interleave(key, heads // key_heads, -3),
        repeat_interleave(value, heads // value_heads, -3),
    )


def scaled_dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Any:
    """``softmax(query @ key.T * scale + attn_mask) @ value`` over the last two dimensions.

    ``query`` is ``(..., L, E)``, ``key`` ``(..., S, E)``, ``value`` ``(..., S, Ev)``; the result
    ``(..., L, Ev)``. ``scale`` defaults to ``1 / sqrt(E)``; as PyTorch, ``sqrt(scale)``
    multiplies both ``query`` and ``key`` (for stability). ``attn_mask`` broadcasts to
    ``(..., L, S)``: a boolean one says which keys a query may attend to, a float one is added.
    ``is_causal`` masks the keys after each query (a lower-triangular mask). A query masked
    from every key gets zeros. ``dropout_p > 0`` drops attention weights (always: this function
    has no training flag), from minigrad's generator. ``enable_gqa`` repeats the heads
    (dim -3) of key and value to the query's.

    Always PyTorch's math path (the result's node is the last product's: ``UnsafeViewBackward0``
    or ``MmBackward0``). For 4-d inputs whose query and value have the same last size, PyTorch's
    CPU runs its fused flash kernel instead: the same values, but one node
    (``ScaledDotProductFlashAttentionForCpuBackward0``) that saves query, key and value and has
    no second derivative.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> q = k = v = minigrad.eye(2).reshape(1, 2, 2)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tensor([[[1.0000, 0.0000],
                 [0.3302, 0.6698]]])
    """
    _check_inputs(query, key, value, attn_mask)
    _check_flash_mask_rows(query, key, value, attn_mask, dropout_p, enable_gqa)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    if dropout_p > 1:  # (a negative p means no dropout, as in PyTorch)
        shown = errors.double_text(dropout_p)
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {shown}")
    if attn_mask is not None:
        attn_mask = _additive(attn_mask, query)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    root = math.sqrt(abs(scale))
    # (C++'s tensor * double: MulBackward1, as PyTorch records it; an integer input takes
    # Python's product, which promotes it to float as C++'s does)
    times = mul_scalar if query.is_floating_point() else (lambda x, c: x * c)
    query = times(query, -root if scale < 0 else root)
    if is_causal:
        attn_mask = _additive(ones(query.size(-2), key.size(-2), dtype=_dtype.bool_).tril(), query)
    if enable_gqa:
        key, value = _grouped(query, key, value)
    attn = matmul(query, times(key.transpose(-2, -1), root))
    if attn_mask is not None:
        attn.add_(attn_mask)
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, value)


# --- multi-head attention (PyTorch's F.multi_head_attention_forward, its Python) -----------------


def _canonical_mask(
    mask: Any,
    mask_name: str,
    other_type: Any,
    other_name: str,
    target_type: Any,
    check_other: bool = True,
) -> Any:
    """A boolean mask as an additive float mask of ``target_type`` (-inf where True)."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype != _dtype.bool_ and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type "
            "for both instead.",
            stacklevel=3,
        )
    if not is_float:
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, -math.inf)
    return mask


def _shape_check(
    query: Any, key: Any, value: Any, key_padding_mask: Any, attn_mask: Any, num_heads: int
) -> bool:
    """PyTorch's ``_mha_shape_check``: whether the inputs are batched, or its AssertionError."""
    if query.dim() not in (2, 3):
        raise AssertionError(
            "query should be unbatched 2D or batched 3D tensor but received "
            f"{query.dim()}-D query tensor"
        )
    batched = query.dim() == 3
    what = "batched (3-D)" if batched else "unbatched (2-D)"
    rank = query.dim()
    if key.dim() != rank or value.dim() != rank:
        raise AssertionError(
            f"For {what} `query`, expected `key` and `value` to be {rank}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively"
        )
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise AssertionError(
            f"For {what} `query`, expected `key_padding_mask` to be `None` or {rank - 1}-D but "
            f"found {key_padding_mask.dim()}-D tensor instead"
        )
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(
                f"For {what} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead"
            )
        if not batched and attn_mask.dim() == 3:
            expected_shape = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.shape != expected_shape:
                raise AssertionError(
                    f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}"
                )
    return batched


def linear(input: Any, weight: Any, bias: Any = None) -> Any:
    """``F.linear`` as users call it, its arguments checked (PyTorch's attention calls that one)."""
    from minigrad.nn import functional  # (at call time: that module imports this one)

    return functional.linear(input, weight, bias)


def _packed_projections(q: Any, k: Any, v: Any, w: Any, b: Any) -> tuple[Any, Any, Any]:
    """q, k and v projected by the packed ``(3 E, E)`` weight (PyTorch's ``_in_projection_packed``).

    Self-attention projects once and splits; a shared key and value project together.
    """
    embed_dim = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, embed_dim))
            proj = proj.unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([embed_dim, embed_dim * 2])
        b_q, b_kv = (None, None) if b is None else b.split([embed_dim, embed_dim * 2])
        kv_proj = linear(k, w_kv, b_kv).unflatten(-1, (2, embed_dim))
        kv_proj = kv_proj.unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None,) * 3 if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _separate_projections(
    q: Any, k: Any, v: Any, weights: tuple[Any, Any, Any], b: Any
) -> tuple[Any, Any, Any]:
    """q, k and v projected by their own weights (PyTorch's ``_in_projection``), checked."""
    biases = (None,) * 3 if b is None else b.chunk(3)
    sizes = (q.size(-1), k.size(-1), v.size(-1))
    embed_dim = sizes[0]
    for name, weight, size in zip(("query", "key", "value"), weights, sizes):
        if weight.shape != (embed_dim, size):
            raise AssertionError(
                f"expecting {name} weights shape of {(embed_dim, size)}, but got {weight.shape}"
            )
    for name, bias in zip(("query", "key", "value"), biases):
        if bias is not None and bias.shape != (embed_dim,):
            raise AssertionError(
                f"expecting {name} bias shape of {(embed_dim,)}, but got {bias.shape}"
            )
    return tuple(linear(x, w, bias) for x, w, bias in zip((q, k, v), weights, biases))


def multi_head_attention_forward(
    query: Any,
    key: Any,
    value: Any,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Any,
    in_proj_bias: Any,
    bias_k: Any,
    bias_v: Any,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Any,
    out_proj_bias: Any,
    training: bool = True,
    key_padding_mask: Any = None,
    need_weights: bool = True,
    attn_mask: Any = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Any = None,
    k_proj_weight: Any = None,
    v_proj_weight: Any = None,
    static_k: Any = None,
    static_v: Any = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Any, Any]:
    """Multi-head attention of ``(L, N, E)`` queries over ``(S, N, E_k)`` keys.

    What ``nn.MultiheadAttention`` runs; PyTorch's function step by step: project q, k, v
    (packed or separate weights), append ``bias_k``/``bias_v`` and a zero key if asked, split
    the heads, then either (``need_weights``) ``softmax(mask + q k^T / sqrt(d))`` by
    ``baddbmm`` and its product with v, returning the weights (averaged over heads by default),
    or ``scaled_dot_product_attention`` (no weights); finally the output projection. Masks
    may be boolean (True: not attended) or additive floats; ``key_padding_mask`` is ``(N, S)``.
    Unbatched ``(L, E)`` inputs are accepted.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.ones(3, 1, 4)
        >>> out, weights = F.multi_head_attention_forward(
        ...     x, x, x, 4, 2, minigrad.ones(12, 4), None, None, None, False, 0.0,
        ...     minigrad.eye(4), None)
        >>> out.shape, weights.shape
        (minigrad.Size([3, 1, 4]), minigrad.Size([1, 3, 3]))
    """
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(
        key_padding_mask,
        "key_padding_mask",
        None if attn_mask is None else attn_mask.dtype,
        "attn_mask",
        query.dtype,
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # (scaled_dot_product_attention makes the causal mask)
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                f"{value.shape[:2]}"
            )
        for name, weight in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if weight is None:
                raise AssertionError(
                    f"use_separate_proj_weight is True but {name}_proj_weight is None"
                )
        q, k, v = _separate_projections(
            query, key, value, (q_proj_weight, k_proj_weight, v_proj_weight), in_proj_bias
        )
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _packed_projections(query, key, value, in_proj_weight, in_proj_bias)

    if attn_mask is not None:
        expected = (
            (tgt_len, src_len) if attn_mask.dim() == 2 else (bsz * num_heads, tgt_len, src_len)
        )
        if attn_mask.shape != expected:
            raise RuntimeError(
                f"The shape of the {attn_mask.dim()}D attn_mask is {attn_mask.shape}, but should "
                f"be {expected}."
            )
        if attn_mask.dim() == 2:
            attn_mask = attn_mask.unsqueeze(0)
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _heads(v, static_v, "static_v", bsz * num_heads, head_dim)
    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zero_attn_shape, dtype=k.dtype)], dim=1)
        v = cat([v, zeros(zero_attn_shape, dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(
                f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                f"{key_padding_mask.shape[0]}"
            )
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(
                f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                f"{key_padding_mask.shape[1]}"
            )
        key_padding_mask = (
            key_padding_mask.view(bsz, 1, 1, src_len)
            .expand(-1, num_heads, -1, -1)
            .reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        attn_output = bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            attn_output, weights = attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    return (attn_output if batched else attn_output.squeeze(1)), None


def _heads(x: Any, static: Any, name: str, batch_heads: int, head_dim: int) -> Any:
    """Keys or values split into ``(N * heads, S, head_dim)``, or the given static ones."""
    if static is None:
        return x.view(x.shape[0], batch_heads, head_dim).transpose(0, 1)
    if static.size(0) != batch_heads:
        raise AssertionError(f"expecting {name}.size(0) of {batch_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static
