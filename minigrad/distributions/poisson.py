"""``Poisson(rate)``: counts of events that happen at a constant rate."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import broadcast_all

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    """The Poisson distribution of mean ``rate``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Poisson
        >>> Poisson(2.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.3069)
    """

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        batch_shape = Size() if isinstance(rate, Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``rate``."""
        return self.rate

    @property
    def mode(self) -> Any:
        """``floor(rate)``."""
        return self.rate.floor()

    @property
    def variance(self) -> Any:
        """``rate``."""
        return self.rate

    def sample(self, sample_shape: Any = ()) -> Any:
        """Counts of shape ``sample_shape + batch_shape`` (floats, as the rate)."""
        shape = self._extended_shape(sample_shape)
        with minigrad.no_grad():
            return minigrad.poisson(self.rate.expand(shape))

    def log_prob(self, value: Any) -> Any:
        """``xlogy(value, rate) - rate - lgamma(value + 1)``."""
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self) -> tuple[Any]:
        return (minigrad.log(self.rate),)

    def _log_normalizer(self, x: Any) -> Any:
        return minigrad.exp(x)
