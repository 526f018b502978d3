"""``Laplace(loc, scale)``: the double-exponential distribution."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["Laplace"]


class Laplace(Distribution):
    """The Laplace distribution of location ``loc`` and scale ``scale``.

    PyTorch's formulas, op for op: ``log_prob = -log(2 scale) - |value - loc| / scale``,
    ``entropy = 1 + log(2 scale)``; ``rsample`` is the inverse cdf of a uniform draw.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Laplace
        >>> Laplace(0.0, 1.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.6931)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalars = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if scalars else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def variance(self) -> Any:
        """``2 scale ** 2``."""
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Any:
        """``sqrt(2) scale``."""
        return 2**0.5 * self.scale

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc - scale * sign(u) * log1p(-|u|)``, ``u`` uniform on ``(eps - 1, 1)``."""
        shape = self._extended_shape(sample_shape)
        eps = minigrad.finfo(self.loc.dtype).eps
        u = self.loc.new(shape).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * minigrad.log1p(-u.abs())

    def log_prob(self, value: Any) -> Any:
        """``-log(2 scale) - |value - loc| / scale``."""
        if self._validate_args:
            self._validate_sample(value)
        return -minigrad.log(2 * self.scale) - minigrad.abs(value - self.loc) / self.scale

    def cdf(self, value: Any) -> Any:
        """``1/2 - 1/2 sign(value - loc) expm1(-|value - loc| / scale)``."""
        if self._validate_args:
            self._validate_sample(value)
        difference = value - self.loc
        return 0.5 - 0.5 * difference.sign() * minigrad.expm1(-difference.abs() / self.scale)

    def icdf(self, value: Any) -> Any:
        """``loc - scale * sign(value - 1/2) * log1p(-2 |value - 1/2|)``."""
        term = value - 0.5
        return self.loc - self.scale * term.sign() * minigrad.log1p(-2 * term.abs())

    def entropy(self) -> Any:
        """``1 + log(2 scale)``."""
        return 1 + minigrad.log(2 * self.scale)
