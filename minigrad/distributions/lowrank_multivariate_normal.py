"""``LowRankMultivariateNormal(loc, cov_factor, cov_diag)``: covariance ``W W^T + diag(D)``.

The ``m x m`` capacitance matrix ``I + W^T D^-1 W`` (Woodbury's identity) replaces the
``n x n`` covariance in the Mahalanobis distance and the log-determinant.
"""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.multivariate_normal import _batch_mahalanobis, _batch_mv
from minigrad.distributions.utils import lazy_property

__all__ = ["LowRankMultivariateNormal"]


def _plus_identity(matrices: Any) -> Any:
    """``matrices + I`` (batched square matrices)."""
    return matrices + minigrad.eye(matrices.shape[-1], dtype=matrices.dtype)


def _batch_capacitance_tril(W: Any, D: Any) -> Any:  # noqa: N803
    """The Cholesky factor of ``I + W^T D^-1 W``."""
    wt_dinv = W.mT / D.unsqueeze(-2)
    return minigrad.linalg.cholesky(_plus_identity(minigrad.matmul(wt_dinv, W)))


def _batch_lowrank_logdet(W: Any, D: Any, capacitance_tril: Any) -> Any:  # noqa: N803
    """``log det(W W^T + D) = 2 sum(log diag C) + sum(log D)`` (matrix determinant lemma)."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _batch_lowrank_mahalanobis(W: Any, D: Any, x: Any, capacitance_tril: Any) -> Any:  # noqa: N803
    """``x^T (W W^T + D)^-1 x`` by Woodbury: ``x^T D^-1 x - |C^-1 W^T D^-1 x|^2``."""
    wt_dinv = W.mT / D.unsqueeze(-2)
    wt_dinv_x = _batch_mv(wt_dinv, x)
    return (x.pow(2) / D).sum(-1) - _batch_mahalanobis(capacitance_tril, wt_dinv_x)


class LowRankMultivariateNormal(Distribution):
    """A Gaussian of covariance ``cov_factor cov_factor^T + diag(cov_diag)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import LowRankMultivariateNormal
        >>> d = LowRankMultivariateNormal(minigrad.zeros(2), minigrad.zeros(2, 1), minigrad.ones(2))
        >>> d.log_prob(minigrad.zeros(2))
        tensor(-1.8379)
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "cov_factor": constraints.independent(constraints.real, 2),
        "cov_diag": constraints.independent(constraints.positive, 1),
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self, loc: Any, cov_factor: Any, cov_diag: Any, validate_args: bool | None = None
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError(
                "cov_factor must be at least two-dimensional, with optional leading "
                "batch dimensions"
            )
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(
                f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m"
            )
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = minigrad.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1)
            )
        except RuntimeError as e:
            raise ValueError(
                f"Incompatible batch shapes: loc {loc.shape}, cov_factor "
                f"{cov_factor.shape}, cov_diag {cov_diag.shape}"
            ) from e
        self.loc = loc_[..., 0]
        self.cov_diag = cov_diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _batch_capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def _matrix_shape(self) -> Any:
        return self._batch_shape + self._event_shape + self._event_shape

    @property
    def mean(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @lazy_property
    def variance(self) -> Any:
        """``sum(W**2, -1) + D``."""
        variance = self._unbroadcasted_cov_factor.pow(2).sum(-1) + self._unbroadcasted_cov_diag
        return variance.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self) -> Any:
        """The covariance's Cholesky factor: ``sqrt(D) chol(I + D^-1/2 W W^T D^-1/2)``."""
        cov_diag_sqrt_unsqueeze = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        dinvsqrt_w = self._unbroadcasted_cov_factor / cov_diag_sqrt_unsqueeze
        k = _plus_identity(minigrad.matmul(dinvsqrt_w, dinvsqrt_w.mT))
        scale_tril = cov_diag_sqrt_unsqueeze * minigrad.linalg.cholesky(k)
        return scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Any:
        """``W W^T + diag(D)``."""
        factor = self._unbroadcasted_cov_factor
        covariance = minigrad.matmul(factor, factor.mT) + minigrad.diag_embed(
            self._unbroadcasted_cov_diag
        )
        return covariance.expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Any:
        """``D^-1 - A^T A`` with ``A = C^-1 W^T D^-1`` (Woodbury)."""
        wt_dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        a = minigrad.linalg.solve_triangular(self._capacitance_tril, wt_dinv, upper=False)
        precision = minigrad.diag_embed(self._unbroadcasted_cov_diag.reciprocal()) - a.mT @ a
        return precision.expand(self._matrix_shape())

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc + W eps_W + sqrt(D) eps_D``."""
        shape = self._extended_shape(sample_shape)
        w_shape = shape[:-1] + self.cov_factor.shape[-1:]
        eps_w = minigrad.empty(w_shape, dtype=self.loc.dtype).normal_()
        eps_d = minigrad.empty(shape, dtype=self.loc.dtype).normal_()
        return (
            self.loc
            + _batch_mv(self._unbroadcasted_cov_factor, eps_w)
            + self._unbroadcasted_cov_diag.sqrt() * eps_d
        )

    def log_prob(self, value: Any) -> Any:
        """``-(k log(2 pi) + log det + Mahalanobis) / 2``."""
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        m = _batch_lowrank_mahalanobis(w, d, diff, self._capacitance_tril)
        log_det = _batch_lowrank_logdet(w, d, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + log_det + m)

    def entropy(self) -> Any:
        """``(k (1 + log(2 pi)) + log det) / 2``."""
        log_det = _batch_lowrank_logdet(
            self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, self._capacitance_tril
        )
        entropy = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + log_det)
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)
