"""``Cauchy(loc, scale)``: the ratio of two centred normals (no mean, infinite variance)."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["Cauchy"]


class Cauchy(Distribution):
    """The Cauchy (Lorentz) distribution of median ``loc`` and half-width ``scale``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Cauchy
        >>> Cauchy(0.0, 1.0).cdf(minigrad.tensor(1.0))
        tensor(0.7500)
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
        """NaN: the mean does not exist."""
        return minigrad.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def variance(self) -> Any:
        """Infinity."""
        return minigrad.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc + eps * scale`` with ``eps`` standard Cauchy."""
        shape = self._extended_shape(sample_shape)
        eps = self.loc.new(shape).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Any:
        """``-log(pi) - log(scale) - log1p(((value - loc) / scale) ** 2)``."""
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - (z**2).log1p()

    def cdf(self, value: Any) -> Any:
        """``atan((value - loc) / scale) / pi + 1/2``."""
        if self._validate_args:
            self._validate_sample(value)
        return minigrad.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value: Any) -> Any:
        """``tan(pi (value - 1/2)) * scale + loc``."""
        return minigrad.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self) -> Any:
        """``log(4 pi) + log(scale)``."""
        return math.log(4 * math.pi) + self.scale.log()
