"""``Beta(concentration1, concentration0)``: probabilities, as a two-class Dirichlet."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.dirichlet import Dirichlet
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import broadcast_all

__all__ = ["Beta"]


class Beta(ExponentialFamily):
    """The beta distribution: the first coordinate of ``Dirichlet([c1, c0])``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Beta
        >>> Beta(2.0, 2.0).log_prob(minigrad.tensor(0.5))
        tensor(0.4055)
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
        if isinstance(concentration1, Number) and isinstance(concentration0, Number):
            both = minigrad.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            both = minigrad.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The two-class Dirichlet expanded."""
        new = super().expand(batch_shape, _instance)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        """``c1 / (c1 + c0)``."""
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Any:
        """The Dirichlet's mode's first coordinate."""
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Any:
        """``c1 c0 / ((c1 + c0)**2 (c1 + c0 + 1))``."""
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Any = ()) -> Any:
        """The first coordinate of a Dirichlet draw."""
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value: Any) -> Any:
        """The Dirichlet's ``log_prob`` of ``[value, 1 - value]``."""
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = minigrad.stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self) -> Any:
        """The Dirichlet's entropy."""
        return self._dirichlet.entropy()

    @property
    def concentration1(self) -> Any:
        """The first concentration (of 1s)."""
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Any:
        """The second concentration (of 0s)."""
        return self._dirichlet.concentration[..., 1]

    @property
    def _natural_params(self) -> tuple[Any, Any]:
        return (self.concentration1, self.concentration0)

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        return minigrad.lgamma(x) + minigrad.lgamma(y) - minigrad.lgamma(x + y)
