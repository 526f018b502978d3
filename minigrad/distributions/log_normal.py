"""``LogNormal(loc, scale)``: ``exp`` of a normal variable."""

from __future__ import annotations

from typing import Any

from minigrad.distributions import constraints
from minigrad.distributions.normal import Normal
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import ExpTransform

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    """``exp(X)`` for ``X ~ Normal(loc, scale)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import LogNormal
        >>> LogNormal(0.0, 1.0).mean
        tensor(1.6487)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    @property
    def loc(self) -> Any:
        """The mean of the underlying normal."""
        return self.base_dist.loc

    @property
    def scale(self) -> Any:
        """The standard deviation of the underlying normal."""
        return self.base_dist.scale

    @property
    def mean(self) -> Any:
        """``exp(loc + scale**2 / 2)``."""
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self) -> Any:
        """``exp(loc - scale**2)``."""
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self) -> Any:
        """``expm1(scale**2) * exp(2 loc + scale**2)``."""
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self) -> Any:
        """The normal's entropy plus ``loc``."""
        return self.base_dist.entropy() + self.loc
