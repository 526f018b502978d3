"""``Pareto(scale, alpha)``: ``scale * exp(E)``, E exponential of rate ``alpha``."""

from __future__ import annotations

from typing import Any

from minigrad.distributions import constraints
from minigrad.distributions.exponential import Exponential
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import AffineTransform, ExpTransform
from minigrad.distributions.utils import broadcast_all

__all__ = ["Pareto"]


class Pareto(TransformedDistribution):
    """The Pareto (type I) distribution: values from ``scale`` up, tail index ``alpha``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Pareto
        >>> Pareto(1.0, 2.0).log_prob(minigrad.tensor(2.0))
        tensor(-1.3863)
    """

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale: Any, alpha: Any, validate_args: bool | None = None) -> None:
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base_dist = Exponential(self.alpha, validate_args=validate_args)
        transforms = [ExpTransform(), AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``alpha scale / (alpha - 1)`` (infinite for ``alpha <= 1``)."""
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self) -> Any:
        """``scale``."""
        return self.scale

    @property
    def variance(self) -> Any:
        """``scale**2 alpha / ((alpha - 1)**2 (alpha - 2))`` (infinite for ``alpha <= 2``)."""
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        """``[scale, inf)``."""
        return constraints.greater_than_eq(self.scale)

    def entropy(self) -> Any:
        """``log(scale / alpha) + 1 + 1 / alpha``."""
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())
