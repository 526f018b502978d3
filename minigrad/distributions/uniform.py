"""``Uniform(low, high)``: the continuous uniform distribution on ``[low, high)``."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["Uniform"]


class Uniform(Distribution):
    """Values spread evenly over ``[low, high)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Uniform
        >>> Uniform(0.0, 4.0).entropy()
        tensor(1.3863)
    """

    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: bool | None = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        scalars = isinstance(low, Number) and isinstance(high, Number)
        super().__init__(Size() if scalars else self.low.size(), validate_args=validate_args)

    @property
    def arg_constraints(self) -> dict[str, constraints.Constraint]:
        """``low < high``, each checked against the other."""
        return {"low": constraints.less_than(self.high),
                "high": constraints.greater_than(self.low)}

    @property
    def support(self) -> constraints.Constraint:
        """``[low, high]``."""
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Any:
        """``(low + high) / 2``."""
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Any:
        """NaN: every value is as likely."""
        return math.nan * self.high

    @property
    def stddev(self) -> Any:
        """``(high - low) / sqrt(12)``."""
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Any:
        """``(high - low)**2 / 12``."""
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``low + u * (high - low)`` with ``u`` uniform on ``[0, 1)``."""
        shape = self._extended_shape(sample_shape)
        rand = minigrad.rand(shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Any) -> Any:
        """``-log(high - low)`` inside ``[low, high)``, ``-inf`` outside."""
        if self._validate_args:
            self._validate_sample(value)
        inside_low = self.low.le(value).type_as(self.low)
        inside_high = self.high.gt(value).type_as(self.low)
        return minigrad.log(inside_low.mul(inside_high)) - minigrad.log(self.high - self.low)

    def cdf(self, value: Any) -> Any:
        """``(value - low) / (high - low)``, clamped into ``[0, 1]``."""
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value: Any) -> Any:
        """``value * (high - low) + low``."""
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Any:
        """``log(high - low)``."""
        return minigrad.log(self.high - self.low)
