"""``Wishart(df, covariance_matrix | precision_matrix | scale_tril)``: random covariance matrices.

Draws use Bartlett's decomposition: ``L A A^T L^T`` with ``A`` lower triangular, chi
variables on its diagonal and standard normals below it (``rsample`` is reparameterised
through the chi-squared draws' implicit gradients).
"""

from __future__ import annotations

import math
import warnings
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.gamma import Chi2
from minigrad.distributions.multivariate_normal import _precision_to_scale_tril
from minigrad.distributions.utils import lazy_property

__all__ = ["Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x: Any, p: int) -> Any:
    """The multivariate digamma: ``sum_i digamma(x - i / 2)`` for ``i < p``."""
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    shifts = minigrad.arange(p, dtype=x.dtype).div(2).expand(tuple(x.shape) + (-1,))
    return minigrad.digamma(x.unsqueeze(-1) - shifts).sum(-1)


def _clamp_above_eps(x: Any) -> Any:
    return x.clamp(min=minigrad.finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """The Wishart distribution of ``df`` degrees of freedom and scale matrix (one of three forms).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Wishart
        >>> Wishart(minigrad.tensor(3.0), minigrad.eye(2)).mean
        tensor([[3., 0.],
                [0., 3.]])
    """

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> dict[str, constraints.Constraint]:  # type: ignore[override]
        """The matrix forms, and ``df > p - 1``."""
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self,
        df: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise AssertionError(
                "Exactly one of covariance_matrix or precision_matrix or "
                "scale_tril may be specified."
            )
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional "
                "leading batch dimensions"
            )
        if isinstance(df, Number):
            batch_shape = Size(param.shape[:-2])
            self.df = minigrad.tensor(df, dtype=param.dtype)
        else:
            batch_shape = minigrad.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if self.df.le(event_shape[-1] - 1).any():
            raise ValueError(
                f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}."
            )
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
        if self.df.lt(event_shape[-1]).any():
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur "
                "for ndim - 1 < df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = minigrad.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._bartlett_chi2(batch_shape)

    def _bartlett_chi2(self, batch_shape: Any) -> Chi2:
        """The chi-squared laws of Bartlett's diagonal: ``df - i`` degrees of freedom."""
        steps = minigrad.arange(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=self.df.unsqueeze(-1) - steps.expand(tuple(batch_shape) + (-1,)))

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """Expanded parameters, factor and Bartlett laws."""
        batch_shape = Size(batch_shape)
        new = super().expand(batch_shape, _instance)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(
            batch_shape + self.event_shape
        )
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        new._dist_chi2 = new._bartlett_chi2(batch_shape)
        return new

    def _matrix_shape(self) -> Any:
        return self._batch_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Any:
        """The lower Cholesky factor of the scale matrix."""
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Any:
        """The scale matrix ``L L^T``."""
        factor = self._unbroadcasted_scale_tril
        return (factor @ factor.transpose(-2, -1)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Any:
        """The inverse scale matrix."""
        identity = minigrad.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        inverse = minigrad.cholesky_solve(identity, self._unbroadcasted_scale_tril)
        return inverse.expand(self._matrix_shape())

    @property
    def mean(self) -> Any:
        """``df * covariance_matrix``."""
        return self.df.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def mode(self) -> Any:
        """``(df - p - 1) * covariance_matrix`` (NaN where ``df <= p + 1``)."""
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self) -> Any:
        """``df (V_ij**2 + V_ii V_jj)``."""
        v = self.covariance_matrix
        diag_v = v.diagonal(dim1=-2, dim2=-1)
        outer = minigrad.einsum("...i,...j->...ij", diag_v, diag_v)
        return self.df.view(self._batch_shape + (1, 1)) * (v.pow(2) + outer)

    def _bartlett_sampling(self, sample_shape: Any = ()) -> Any:
        p = self._event_shape[-1]
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(
            dim1=-2, dim2=-1
        )
        i, j = minigrad.tril_indices(p, p, offset=-1)
        below = Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,)
        noise[..., i, j] = minigrad.randn(below, dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape: Any = (), max_try_correction: int | None = None) -> Any:
        """Bartlett draws; singular ones (rare, for low ``df``) are drawn again."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        # (PyTorch's flag: True where the sample IS positive definite; kept as it is)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not is_singular.any():
                    break
        return sample

    def log_prob(self, value: Any) -> Any:
        """The Wishart log-density (``slogdet`` of the value, ``cholesky_solve`` for the trace)."""
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        log_det_scale = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        trace = (
            minigrad.cholesky_solve(value, self._unbroadcasted_scale_tril)
            .diagonal(dim1=-2, dim2=-1)
            .sum(dim=-1)
        )
        return (
            -nu * (p * _LOG_2 / 2 + log_det_scale)
            - minigrad.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * minigrad.linalg.slogdet(value).logabsdet
            - trace / 2
        )

    def entropy(self) -> Any:
        """PyTorch's closed form (multivariate gamma and digamma of ``df / 2``)."""
        nu = self.df
        p = self._event_shape[-1]
        log_det_scale = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return (
            (p + 1) * (p * _LOG_2 / 2 + log_det_scale)
            + minigrad.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )
