"""``Exponential(rate)``: waiting times of a memoryless process."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import broadcast_all

__all__ = ["Exponential"]


class Exponential(ExponentialFamily):
    """The exponential distribution of rate ``rate`` (mean ``1 / rate``).

    PyTorch's formulas, op for op: ``log_prob = log(rate) - rate * value``,
    ``entropy = 1 - log(rate)``; ``rsample`` divides a standard exponential draw by ``rate``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Exponential
        >>> Exponential(2.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.3069)
    """

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        batch_shape = Size() if isinstance(rate, Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def mode(self) -> Any:
        """0."""
        return minigrad.zeros_like(self.rate)

    @property
    def stddev(self) -> Any:
        """``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def variance(self) -> Any:
        """``rate ** -2``."""
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A standard exponential draw divided by ``rate``: gradients reach ``rate``."""
        shape = self._extended_shape(sample_shape)
        return self.rate.new(shape).exponential_() / self.rate

    def log_prob(self, value: Any) -> Any:
        """``log(rate) - rate * value``."""
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Any) -> Any:
        """``1 - exp(-rate * value)``."""
        if self._validate_args:
            self._validate_sample(value)
        return 1 - minigrad.exp(-self.rate * value)

    def icdf(self, value: Any) -> Any:
        """``-log1p(-value) / rate``."""
        return -minigrad.log1p(-value) / self.rate

    def entropy(self) -> Any:
        """``1 - log(rate)``."""
        return 1.0 - minigrad.log(self.rate)

    @property
    def _natural_params(self) -> tuple[Any]:
        return (-self.rate,)

    def _log_normalizer(self, x: Any) -> Any:
        return -minigrad.log(-x)
