"""``InverseGamma(concentration, rate)``: ``1 / X`` for ``X ~ Gamma(concentration, rate)``."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.gamma import Gamma
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import PowerTransform

__all__ = ["InverseGamma"]


class InverseGamma(TransformedDistribution):
    """A gamma variable's reciprocal (a ``PowerTransform(-1)`` of it).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import InverseGamma
        >>> InverseGamma(3.0, 2.0).mean
        tensor(1.)
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    @property
    def concentration(self) -> Any:
        """The gamma's concentration."""
        return self.base_dist.concentration

    @property
    def rate(self) -> Any:
        """The gamma's rate."""
        return self.base_dist.rate

    @property
    def mean(self) -> Any:
        """``rate / (concentration - 1)`` (infinite for ``concentration <= 1``)."""
        result = self.rate / (self.concentration - 1)
        return minigrad.where(self.concentration > 1, result, math.inf)

    @property
    def mode(self) -> Any:
        """``rate / (concentration + 1)``."""
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Any:
        """``rate**2 / ((c - 1)**2 (c - 2))`` (infinite for ``c <= 2``)."""
        c = self.concentration
        result = self.rate.square() / ((c - 1).square() * (c - 2))
        return minigrad.where(c > 2, result, math.inf)

    def entropy(self) -> Any:
        """``c + log(rate) + lgamma(c) - (1 + c) digamma(c)``."""
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()
