"""``StudentT(df, loc=0.0, scale=1.0)``: a normal over the root of a scaled chi-squared."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.gamma import Chi2
from minigrad.distributions.utils import broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t distribution of ``df`` degrees of freedom, shifted and scaled.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import StudentT
        >>> StudentT(1.0).log_prob(minigrad.tensor(0.0))
        tensor(-1.1447)
    """

    arg_constraints = {
        "df": constraints.positive,
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    support = constraints.real
    has_rsample = True

    def __init__(
        self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """Expanded parameters and chi-squared."""
        new = super().expand(batch_shape, _instance)
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        """``loc`` (NaN where ``df <= 1``)."""
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def variance(self) -> Any:
        """``scale**2 df / (df - 2)`` for ``df > 2``; infinite for ``1 < df <= 2``; else NaN."""
        m = self.df.clone()
        above = self.df > 2
        m[above] = self.scale[above].pow(2) * self.df[above] / (self.df[above] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc + scale * X / sqrt(Z / df)``, X standard normal, Z chi-squared."""
        shape = self._extended_shape(sample_shape)
        x = minigrad.empty(shape, dtype=self.df.dtype).normal_()
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * minigrad.rsqrt(z / self.df))

    def log_prob(self, value: Any) -> Any:
        """``-(df + 1)/2 log1p(y**2 / df) - Z`` with ``y`` standardised, ``Z`` the normaliser."""
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + minigrad.lgamma(0.5 * self.df)
            - minigrad.lgamma(0.5 * (self.df + 1.0))
        )
        return -0.5 * (self.df + 1.0) * minigrad.log1p(y**2.0 / self.df) - z

    def entropy(self) -> Any:
        """PyTorch's closed form (digammas of ``df / 2`` and ``(df + 1) / 2``)."""
        lbeta = (
            minigrad.lgamma(0.5 * self.df) + math.lgamma(0.5) - minigrad.lgamma(0.5 * (self.df + 1))
        )
        half_up = minigrad.digamma(0.5 * (self.df + 1)) - minigrad.digamma(0.5 * self.df)
        return self.scale.log() + 0.5 * (self.df + 1) * half_up + 0.5 * self.df.log() + lbeta
