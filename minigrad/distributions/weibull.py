"""``Weibull(scale, concentration)``: ``scale * E ** (1 / concentration)``, E exponential."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.exponential import Exponential
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import AffineTransform, PowerTransform
from minigrad.distributions.utils import broadcast_all, euler_constant

__all__ = ["Weibull"]


def _transforms(scale: Any, concentration_reciprocal: Any) -> list[Any]:
    return [PowerTransform(exponent=concentration_reciprocal), AffineTransform(0, scale)]


class Weibull(TransformedDistribution):
    """The Weibull distribution of ``scale`` and shape ``concentration``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Weibull
        >>> Weibull(1.0, 1.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.)
    """

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale: Any, concentration: Any, validate_args: bool | None = None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(minigrad.ones_like(self.scale), validate_args=validate_args)
        super().__init__(
            base_dist,
            _transforms(self.scale, self.concentration_reciprocal),
            validate_args=validate_args,
        )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """Expanded parameters, with the transforms rebuilt on them."""
        new = super().expand(batch_shape, _instance)
        new.concentration_reciprocal = new.concentration.reciprocal()
        new.transforms = _transforms(new.scale, new.concentration_reciprocal)
        return new

    @property
    def mean(self) -> Any:
        """``scale * Gamma(1 + 1 / concentration)``."""
        return self.scale * minigrad.exp(minigrad.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self) -> Any:
        """``scale * ((k - 1) / k) ** (1 / k)`` with ``k = concentration``."""
        k = self.concentration
        return self.scale * ((k - 1) / k) ** k.reciprocal()

    @property
    def variance(self) -> Any:
        """``scale**2 (Gamma(1 + 2/k) - Gamma(1 + 1/k)**2)``."""
        twice = minigrad.exp(minigrad.lgamma(1 + 2 * self.concentration_reciprocal))
        once_squared = minigrad.exp(2 * minigrad.lgamma(1 + self.concentration_reciprocal))
        return self.scale.pow(2) * (twice - once_squared)

    def entropy(self) -> Any:
        """``euler_constant (1 - 1/k) + log(scale / k) + 1``."""
        return (
            euler_constant * (1 - self.concentration_reciprocal)
            + minigrad.log(self.scale * self.concentration_reciprocal)
            + 1
        )
