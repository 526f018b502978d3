"""``Gamma(concentration, rate)`` and ``Chi2(df)``: waiting times of several exponential events."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import broadcast_all
from minigrad.ops.gamma_sampling import standard_gamma

__all__ = ["Chi2", "Gamma"]


class Gamma(ExponentialFamily):
    """The gamma distribution of shape ``concentration`` and inverse scale ``rate``.

    ``rsample`` is reparameterised implicitly: the standard gamma draw's gradient in the
    concentration holds its CDF level fixed (``minigrad.ops.gamma_sampling``).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Gamma
        >>> Gamma(2.0, 1.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.)
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalars = isinstance(concentration, Number) and isinstance(rate, Number)
        batch_shape = Size() if scalars else self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``concentration / rate``."""
        return self.concentration / self.rate

    @property
    def mode(self) -> Any:
        """``(concentration - 1) / rate``, at least 0."""
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Any:
        """``concentration / rate**2``."""
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A standard gamma draw of the concentration divided by ``rate`` (at least tiny)."""
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=minigrad.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value: Any) -> Any:
        """``xlogy(c, rate) + xlogy(c - 1, value) - rate * value - lgamma(c)``."""
        value = minigrad.as_tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        return (
            minigrad.xlogy(self.concentration, self.rate)
            + minigrad.xlogy(self.concentration - 1, value)
            - self.rate * value
            - minigrad.lgamma(self.concentration)
        )

    def cdf(self, value: Any) -> Any:
        """``gammainc(concentration, rate * value)``."""
        if self._validate_args:
            self._validate_sample(value)
        return minigrad.special.gammainc(self.concentration, self.rate * value)

    def entropy(self) -> Any:
        """``c - log(rate) + lgamma(c) + (1 - c) digamma(c)``."""
        c = self.concentration
        return c - minigrad.log(self.rate) + minigrad.lgamma(c) + (1.0 - c) * minigrad.digamma(c)

    @property
    def _natural_params(self) -> tuple[Any, Any]:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        return minigrad.lgamma(x + 1) + (x + 1) * minigrad.log(-y.reciprocal())


class Chi2(Gamma):
    """The chi-squared distribution of ``df`` degrees of freedom: ``Gamma(df / 2, 1 / 2)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Chi2
        >>> Chi2(minigrad.tensor([2.0])).mean
        tensor([2.])
    """

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Any, validate_args: bool | None = None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self) -> Any:
        """The degrees of freedom: ``2 * concentration``."""
        return self.concentration * 2
