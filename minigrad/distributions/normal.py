"""``Normal(loc, scale)``: the Gaussian distribution."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import broadcast_all

__all__ = ["Normal"]


class Normal(ExponentialFamily):
    """The normal distribution of mean ``loc`` and standard deviation ``scale``.

    Its formulas are PyTorch's, op for op, so the graphs of ``log_prob``, ``rsample`` and
    ``entropy`` have PyTorch's nodes.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Normal
        >>> Normal(0.0, 1.0).log_prob(minigrad.tensor(0.0))
        tensor(-0.9189)
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
    def stddev(self) -> Any:
        """``scale``."""
        return self.scale

    @property
    def variance(self) -> Any:
        """``scale ** 2``."""
        return self.stddev.pow(2)

    def sample(self, sample_shape: Any = ()) -> Any:
        """Draws of shape ``sample_shape + batch_shape``, without gradients."""
        shape = self._extended_shape(sample_shape)
        with minigrad.no_grad():
            return minigrad.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``loc + eps * scale`` with ``eps`` standard normal: gradients reach the parameters."""
        shape = self._extended_shape(sample_shape)
        eps = minigrad.empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Any:
        """``-(value - loc)**2 / (2 scale**2) - log(scale) - log(sqrt(2 pi))``."""
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        log_scale = math.log(self.scale) if isinstance(self.scale, Number) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value: Any) -> Any:
        """``(1 + erf((value - loc) / (scale sqrt 2))) / 2``."""
        if self._validate_args:
            self._validate_sample(value)
        standardized = (value - self.loc) * self.scale.reciprocal() / math.sqrt(2)
        return 0.5 * (1 + minigrad.erf(standardized))

    def icdf(self, value: Any) -> Any:
        """``loc + scale * erfinv(2 value - 1) * sqrt(2)``."""
        return self.loc + self.scale * minigrad.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Any:
        """``1/2 + log(2 pi)/2 + log(scale)``."""
        return 0.5 + 0.5 * math.log(2 * math.pi) + minigrad.log(self.scale)
