"""``MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril)``: Gaussian vectors.

Every computation goes through the Cholesky factor ``L`` of the covariance (``L L^T``): the
Mahalanobis distance is ``|L^-1 (x - loc)|^2`` (a triangular solve) and the log-determinant
twice the sum of ``log diag(L)``, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat: Any, bvec: Any) -> Any:
    """Matrix-vector products over broadcast batch dims."""
    return minigrad.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL: Any, bx: Any) -> Any:  # noqa: N803 - L is the factor's usual name
    """``|L^-1 x|^2`` for each vector ``x`` of ``bx``, whose batch dims may extend ``bL``'s.

    The vectors are regrouped so each factor solves all its vectors in one triangular solve.
    """
    n = bx.size(-1)
    bx_batch_shape = bx.shape[:-1]
    bx_batch_dims = len(bx_batch_shape)
    bL_batch_dims = bL.dim() - 2  # noqa: N806
    outer_batch_dims = bx_batch_dims - bL_batch_dims
    old_batch_dims = outer_batch_dims + bL_batch_dims
    new_batch_dims = outer_batch_dims + 2 * bL_batch_dims
    # split each of x's batch dims matched by L's into (repeats, L's size)
    bx_new_shape = tuple(bx.shape[:outer_batch_dims])
    for sL, sx in zip(bL.shape[:-2], bx.shape[outer_batch_dims:-1]):  # noqa: N806
        bx_new_shape += (sx // sL, sL)
    bx = bx.reshape(bx_new_shape + (n,))
    permute_dims = (
        list(range(outer_batch_dims))
        + list(range(outer_batch_dims, new_batch_dims, 2))
        + list(range(outer_batch_dims + 1, new_batch_dims, 2))
        + [new_batch_dims]
    )
    bx = bx.permute(permute_dims)
    flat_L = bL.reshape(-1, n, n)  # noqa: N806
    flat_x = bx.reshape(-1, flat_L.size(0), n)
    flat_x_swap = flat_x.permute(1, 2, 0)
    m_swap = minigrad.linalg.solve_triangular(flat_L, flat_x_swap, upper=False).pow(2).sum(-2)
    permuted_m = m_swap.t().reshape(bx.shape[:-1])
    permute_inv_dims = list(range(outer_batch_dims))
    for i in range(bL_batch_dims):
        permute_inv_dims += [outer_batch_dims + i, old_batch_dims + i]
    return permuted_m.permute(permute_inv_dims).reshape(bx_batch_shape)


def _precision_to_scale_tril(precision: Any) -> Any:
    """The covariance's Cholesky factor from the precision matrix, without inverting it."""
    lf = minigrad.linalg.cholesky(minigrad.flip(precision, (-2, -1)))
    l_inv = minigrad.transpose(minigrad.flip(lf, (-2, -1)), -2, -1)
    identity = minigrad.eye(precision.shape[-1], dtype=precision.dtype)
    return minigrad.linalg.solve_triangular(l_inv, identity, upper=False)


class MultivariateNormal(Distribution):
    """The Gaussian of mean vector ``loc`` and one of covariance, precision or Cholesky factor.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import MultivariateNormal
        >>> MultivariateNormal(minigrad.zeros(2), minigrad.eye(2)).log_prob(minigrad.zeros(2))
        tensor(-1.8379)
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril "
                "may be specified."
            )
        names = {
            "scale_tril": scale_tril,
            "covariance_matrix": covariance_matrix,
            "precision_matrix": precision_matrix,
        }
        name, matrix = next((k, v) for k, v in names.items() if v is not None)
        if matrix.dim() < 2:
            raise ValueError(
                f"{name} must be at least two-dimensional, with optional leading batch dimensions"
            )
        batch_shape = minigrad.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = minigrad.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def _matrix_shape(self) -> Any:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Any:
        """The lower Cholesky factor of the covariance."""
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Any:
        """``L L^T``."""
        factor = self._unbroadcasted_scale_tril
        return minigrad.matmul(factor, factor.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Any:
        """The inverse covariance (``cholesky_inverse`` of the factor)."""
        inverse = minigrad.cholesky_inverse(self._unbroadcasted_scale_tril)
        return inverse.expand(self._matrix_shape())

    @property
    def mean(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def variance(self) -> Any:
        """The covariance's diagonal: the rows' squared norms of ``L``."""
        variance = self._unbroadcasted_scale_tril.pow(2).sum(-1)
        return variance.expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc + L eps`` with ``eps`` standard normal."""
        shape = self._extended_shape(sample_shape)
        eps = minigrad.empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value: Any) -> Any:
        """``-(k log(2 pi) + |L^-1 (value - loc)|^2) / 2 - sum(log diag L)``."""
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        m = _batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - half_log_det

    def entropy(self) -> Any:
        """``k (1 + log(2 pi)) / 2 + sum(log diag L)``."""
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        entropy = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)
