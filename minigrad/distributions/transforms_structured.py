"""Transforms of whole vectors and matrices: onto the simplex and onto Cholesky factors.

``SoftmaxTransform`` and ``StickBreakingTransform`` map to the simplex (the second
bijectively, one dim longer), ``LowerCholeskyTransform``, ``PositiveDefiniteTransform`` and
``CorrCholeskyTransform`` map to matrices. Formulas are PyTorch's, op for op.
"""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.transform import Transform
from minigrad.distributions.transforms_elementwise import clipped_sigmoid
from minigrad.distributions.utils import tril_matrix_to_vec, vec_to_tril_matrix
from minigrad.nn.functional import logsigmoid as _logsigmoid
from minigrad.nn.functional import pad as _pad
from minigrad.nn.functional import softplus as _softplus

__all__ = [
    "CorrCholeskyTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "SoftmaxTransform",
    "StickBreakingTransform",
]


def _at_least_one_dim(shape: Any) -> None:
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


class SoftmaxTransform(Transform):
    """``y = exp(x) / sum(exp(x))`` over the last dim (not bijective; its inverse is ``log``)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftmaxTransform)

    def _call(self, x: Any) -> Any:
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def forward_shape(self, shape: Any) -> Any:
        """``shape`` (at least one dim)."""
        _at_least_one_dim(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        """``shape`` (at least one dim)."""
        _at_least_one_dim(shape)
        return shape


def _stick_offsets(x: Any, length: int) -> Any:
    """``length, length - 1, ..., 1``: the sticks left, centring each sigmoid at 1/k."""
    return length + 1 - x.new_ones(length).cumsum(-1)


class StickBreakingTransform(Transform):
    """``K - 1`` reals to the ``K``-simplex: each sigmoid takes a share of the stick left.

    Bijective (unlike ``SoftmaxTransform``), the map behind ``biject_to(simplex)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import StickBreakingTransform
        >>> StickBreakingTransform()(minigrad.zeros(2))
        tensor([0.3333, 0.3333, 0.3333])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StickBreakingTransform)

    def _call(self, x: Any) -> Any:
        offset = _stick_offsets(x, x.shape[-1])
        z = clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        return _pad(z, [0, 1], value=1) * _pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        remaining = minigrad.clamp(1 - y_crop.cumsum(-1), min=minigrad.finfo(y.dtype).tiny)
        return y_crop.log() - remaining.log() + offset.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``sum(-x' + logsigmoid(x') + log y[:-1])`` with ``x'`` the centred inputs."""
        x = x - _stick_offsets(x, x.shape[-1]).log()
        return (-x + _logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape: Any) -> Any:
        """One more element in the last dim."""
        _at_least_one_dim(shape)
        return Size(shape[:-1]) + (shape[-1] + 1,)

    def inverse_shape(self, shape: Any) -> Any:
        """One element fewer in the last dim."""
        _at_least_one_dim(shape)
        return Size(shape[:-1]) + (shape[-1] - 1,)


class LowerCholeskyTransform(Transform):
    """Square matrices to Cholesky factors: the strict lower part kept, the diagonal ``exp``-ed."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LowerCholeskyTransform)

    def _call(self, x: Any) -> Any:
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y: Any) -> Any:
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    """Square matrices to positive-definite ones: ``L L^T`` of their ``LowerCholeskyTransform``."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x: Any) -> Any:
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y: Any) -> Any:
        return LowerCholeskyTransform().inv(minigrad.linalg.cholesky(y))


class CorrCholeskyTransform(Transform):
    """``D (D - 1) / 2`` reals to the Cholesky factor of a ``D x D`` correlation matrix.

    Each row of the strict lower triangle goes through ``tanh``, then a signed stick breaking
    makes the row a unit vector with a positive diagonal entry.
    """

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x: Any) -> Any:
        x = minigrad.tanh(x)
        eps = minigrad.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        # each row's squares share the stick left by the entries before them
        z1m_cumprod_sqrt = (1 - r**2).sqrt().cumprod(-1)
        r = r + minigrad.eye(r.shape[-1], dtype=r.dtype)
        return r * _pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_cumsum = 1 - minigrad.cumsum(y * y, dim=-1)
        y_cumsum_shifted = _pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # (atanh)

    def log_abs_det_jacobian(self, x: Any, y: Any, intermediates: Any = None) -> Any:
        """The stick breaking's and the ``tanh``'s log-Jacobians."""
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        y1m_cumsum_tril = tril_matrix_to_vec(y1m_cumsum, diag=-2)
        stick_breaking_logdet = 0.5 * y1m_cumsum_tril.log().sum(-1)
        tanh_logdet = -2 * (x + _softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape: Any) -> Any:
        """``(..., N)`` to ``(..., D, D)`` with ``N = D (D - 1) / 2``."""
        _at_least_one_dim(shape)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return Size(shape[:-1]) + (d, d)

    def inverse_shape(self, shape: Any) -> Any:
        """``(..., D, D)`` to ``(..., D (D - 1) / 2)``."""
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return Size(shape[:-2]) + (d * (d - 1) // 2,)
