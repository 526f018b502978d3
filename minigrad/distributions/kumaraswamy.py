"""``Kumaraswamy(concentration1, concentration0)``: a Beta look-alike with a closed-form CDF."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import AffineTransform, PowerTransform
from minigrad.distributions.uniform import Uniform
from minigrad.distributions.utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a: Any, b: Any, n: int) -> Any:
    """``E[X**n] = b B(1 + n / a, b)``."""
    arg1 = 1 + n / a
    log_value = minigrad.lgamma(arg1) + minigrad.lgamma(b) - minigrad.lgamma(arg1 + b)
    return b * minigrad.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """``(1 - U ** (1 / c0)) ** (1 / c1)`` for ``U`` uniform on ``[0, 1]``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Kumaraswamy
        >>> Kumaraswamy(minigrad.tensor(2.0), minigrad.tensor(3.0)).mean
        tensor(0.4571)
    """

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self, concentration1: Any, concentration0: Any, validate_args: bool | None = None
    ) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(
            minigrad.full_like(self.concentration0, 0),
            minigrad.full_like(self.concentration0, 1),
            validate_args=validate_args,
        )
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``c0 B(1 + 1 / c1, c0)``."""
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Any:
        """``((c1 - 1) / (c1 c0 - 1)) ** (1 / c1)``; NaN if either concentration is below 1."""
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        log_mode[(c0 < 1) | (c1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self) -> Any:
        """The second moment minus the squared mean."""
        return _moments(self.concentration1, self.concentration0, 2) - minigrad.pow(self.mean, 2)

    def entropy(self) -> Any:
        """PyTorch's closed form (a digamma of ``c0 + 1``)."""
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = minigrad.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * h0 - minigrad.log(self.concentration1) - minigrad.log(self.concentration0)
