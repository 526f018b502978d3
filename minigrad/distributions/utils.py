"""Helpers shared by the distributions: broadcasting parameters, probabilities and logits."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Number
from typing import Any

import minigrad
from minigrad.nn import functional as F

__all__ = [
    "broadcast_all",
    "clamp_probs",
    "euler_constant",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
    "sum_rightmost",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]


euler_constant = 0.57721566490153286060  # (Euler-Mascheroni: the Gumbel mean's constant)


def broadcast_all(*values: Any) -> tuple[Any, ...]:
    """The values as tensors of one broadcast shape (numbers take the first tensor's dtype).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.utils import broadcast_all
        >>> [t.shape for t in broadcast_all(minigrad.zeros(2), 1.0)]
        [minigrad.Size([2]), minigrad.Size([2])]
    """
    if not all(isinstance(v, (minigrad.Tensor, Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, minigrad.Tensor or "
            "objects implementing __torch_function__."
        )
    first = next((v for v in values if isinstance(v, minigrad.Tensor)), None)
    dtype = minigrad.get_default_dtype() if first is None else first.dtype
    tensors = [
        v if isinstance(v, minigrad.Tensor) else minigrad.tensor(v, dtype=dtype) for v in values
    ]
    return minigrad.broadcast_tensors(*tensors)


def sum_rightmost(value: Any, dims: int) -> Any:
    """``value`` summed over its last ``dims`` dims (as one flattened dim)."""
    if dims == 0:
        return value
    return value.reshape(*value.shape[:-dims], -1).sum(-1)


def clamp_probs(probs: Any) -> Any:
    """``probs`` clamped into ``[eps, 1 - eps]`` (``eps``: the dtype's machine epsilon)."""
    eps = minigrad.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    """Log-odds of binary probabilities, or log-probabilities of categorical ones."""
    clamped = clamp_probs(probs)
    if is_binary:
        return minigrad.log(clamped) - minigrad.log1p(-clamped)
    return minigrad.log(clamped)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    """Probabilities of log-odds (a sigmoid) or of log-probabilities (a softmax over -1)."""
    if is_binary:
        return minigrad.sigmoid(logits)
    return F.softmax(logits, dim=-1)


class lazy_property:  # noqa: N801 - PyTorch's name
    """A property computed once, on first access (with gradients recorded), then stored.

    A distribution given ``probs`` computes ``logits`` only when asked, and the other way round.
    """

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__
        self.__name__ = wrapped.__name__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with minigrad.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.__name__, value)
        return value


def _tril_mask(n: int, diag: int) -> Any:
    """The ``n x n`` bool mask of the lower triangle up to diagonal ``diag``."""
    arange = minigrad.arange(n)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat: Any, diag: int = 0) -> Any:
    """The lower triangle (up to diagonal ``diag``) of each matrix, in row order.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.utils import tril_matrix_to_vec
        >>> tril_matrix_to_vec(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([1., 3., 4.])
    """
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec: Any, diag: int = 0) -> Any:
    """Lower-triangular matrices (up to diagonal ``diag``) filled in row order from ``vec``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.utils import vec_to_tril_matrix
        >>> vec_to_tril_matrix(minigrad.tensor([1.0, 3.0, 4.0]))
        tensor([[1., 0.],
                [3., 4.]])
    """
    # the n with n (n + 1) / 2 entries (shifted by diag): the root of a quadratic
    n = (
        -(1 + 2 * diag)
        + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5
    ) / 2
    if round(n) - n > minigrad.finfo(vec.dtype).eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
