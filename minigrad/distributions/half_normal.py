"""``HalfNormal(scale)`` and ``HalfCauchy(scale)``: ``|X|`` for a centred normal or Cauchy X."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.cauchy import Cauchy
from minigrad.distributions.normal import Normal
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import AbsTransform

__all__ = ["HalfCauchy", "HalfNormal"]


class _Folded(TransformedDistribution):
    """``|X|`` for a symmetric ``X`` centred at 0: its density doubled on ``[0, inf)``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    @property
    def scale(self) -> Any:
        """The scale of the underlying distribution."""
        return self.base_dist.scale

    @property
    def mode(self) -> Any:
        """0."""
        return minigrad.zeros_like(self.scale)

    def log_prob(self, value: Any) -> Any:
        """The base's ``log_prob + log 2`` at non-negative values, ``-inf`` below."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return minigrad.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Any) -> Any:
        """``2 base.cdf(value) - 1``."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Any) -> Any:
        """``base.icdf((prob + 1) / 2)``."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Any:
        """The base's entropy minus ``log 2``."""
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    """``|X|`` for ``X ~ Normal(0, scale)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import HalfNormal
        >>> HalfNormal(1.0).log_prob(minigrad.tensor(0.0))
        tensor(-0.2258)
    """

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``scale * sqrt(2 / pi)``."""
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self) -> Any:
        """``scale**2 (1 - 2 / pi)``."""
        return self.scale.pow(2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    """``|X|`` for ``X ~ Cauchy(0, scale)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import HalfCauchy
        >>> HalfCauchy(1.0).cdf(minigrad.tensor(1.0))
        tensor(0.5000)
    """

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """Infinity."""
        return minigrad.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self) -> Any:
        """Infinity (the base's)."""
        return self.base_dist.variance

    def log_prob(self, value: Any) -> Any:
        """As the half-normal's (``value`` may be a number)."""
        if not isinstance(value, minigrad.Tensor) and not self._validate_args:
            value = minigrad.as_tensor(value, dtype=self.scale.dtype)
        return super().log_prob(value)
