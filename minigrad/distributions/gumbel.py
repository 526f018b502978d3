"""``Gumbel(loc, scale)``: the law of maxima (``loc - scale * log(-log U)``)."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import AffineTransform, ExpTransform
from minigrad.distributions.uniform import Uniform
from minigrad.distributions.utils import broadcast_all, euler_constant

__all__ = ["Gumbel"]


class Gumbel(TransformedDistribution):
    """The Gumbel distribution: a uniform draw through ``-log``, negation, ``-log``, affine.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Gumbel
        >>> Gumbel(0.0, 1.0).log_prob(minigrad.tensor(0.0))
        tensor(-1.)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = minigrad.finfo(self.loc.dtype)
        if isinstance(loc, Number) and isinstance(scale, Number):
            base_dist = Uniform(finfo.tiny, 1 - finfo.eps, validate_args=validate_args)
        else:
            base_dist = Uniform(
                minigrad.full_like(self.loc, finfo.tiny),
                minigrad.full_like(self.loc, 1 - finfo.eps),
                validate_args=validate_args,
            )
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-minigrad.ones_like(self.scale)),
            ExpTransform().inv,
            AffineTransform(loc=loc, scale=-self.scale),
        ]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def log_prob(self, value: Any) -> Any:
        """``y - exp(y) - log(scale)`` with ``y = (loc - value) / scale``."""
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Any:
        """``loc + scale * euler_constant``."""
        return self.loc + self.scale * euler_constant

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @property
    def stddev(self) -> Any:
        """``pi / sqrt(6) * scale``."""
        return math.pi / math.sqrt(6) * self.scale

    @property
    def variance(self) -> Any:
        """``stddev ** 2``."""
        return self.stddev.pow(2)

    def entropy(self) -> Any:
        """``log(scale) + 1 + euler_constant``."""
        return self.scale.log() + (1 + euler_constant)
