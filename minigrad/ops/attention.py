"""Attention: ``scaled_dot_product_attention`` as PyTorch's math path computes it.

``softmax(q @ k.T * scale + mask) @ v``, composed from public ops as PyTorch's CPU math path
composes it (``_scaled_dot_product_attention_math``), so autograd records the same steps and
the same things are saved. Its softmax is ``SafeSoftmax`` (PyTorch's ``_safe_softmax``): a
query masked from every key gets zeros, not NaN.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _dtype, errors
from minigrad.creation import full, ones
from minigrad.ops.comparison import where
from minigrad.ops.linalg import matmul
from minigrad.ops.normalization import dropout
from minigrad.ops.repeating import repeat_interleave
from minigrad.ops.softmax import Softmax

__all__ = ["scaled_dot_product_attention"]


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
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool_, _dtype.float32,
                                                         query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {errors.CPP_TYPE_NAMES[attn_mask.dtype.name]} and  query.dtype: "
            f"{names[0]} instead."
        )


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
    return (repeat_interleave(key, heads // key_heads, -3),
            repeat_interleave(value, heads // value_heads, -3))


def scaled_dot_product_attention(
    query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0,
    is_causal: bool = False, scale: float | None = None, enable_gqa: bool = False,
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

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> q = k = v = minigrad.eye(2).reshape(1, 2, 2)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tensor([[[1.0000, 0.0000],
                 [0.3302, 0.6698]]])
    """
    _check_inputs(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    if dropout_p > 1:  # (a negative p means no dropout, as in PyTorch)
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if attn_mask is not None:
        attn_mask = _additive(attn_mask, query)
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    root = math.sqrt(abs(scale))
    query = query * (-root if scale < 0 else root)
    if is_causal:
        attn_mask = _additive(ones(query.size(-2), key.size(-2), dtype=_dtype.bool_).tril(), query)
    if enable_gqa:
        key, value = _grouped(query, key, value)
    attn = matmul(query, key.transpose(-2, -1) * root)
    if attn_mask is not None:
        attn.add_(attn_mask)
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, value)
