"""``FisherSnedecor(df1, df2)``: the F distribution, a ratio of two scaled chi-squareds."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.gamma import Gamma
from minigrad.distributions.utils import broadcast_all

__all__ = ["FisherSnedecor"]


class FisherSnedecor(Distribution):
    """The F distribution of ``df1`` and ``df2`` degrees of freedom.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import FisherSnedecor
        >>> FisherSnedecor(2.0, 4.0).log_prob(minigrad.tensor(1.0))
        tensor(-1.2164)
    """

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1: Any, df2: Any, validate_args: bool | None = None) -> None:
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        scalars = isinstance(df1, Number) and isinstance(df2, Number)
        super().__init__(Size() if scalars else self.df1.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """Expanded parameters and gammas."""
        new = super().expand(batch_shape, _instance)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        """``df2 / (df2 - 2)`` (NaN for ``df2 <= 2``)."""
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Any:
        """``(df1 - 2) / df1 * df2 / (df2 + 2)`` (NaN for ``df1 <= 2``)."""
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self) -> Any:
        """PyTorch's closed form (NaN for ``df2 <= 4``)."""
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape: Any = ()) -> Any:
        """The ratio of the two gamma draws (each at least tiny)."""
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = minigrad.finfo(x2.dtype).tiny
        x2.clamp_(min=tiny)
        y = x1 / x2
        y.clamp_(min=tiny)
        return y

    def log_prob(self, value: Any) -> Any:
        """PyTorch's closed form in ``df1 / 2``, ``df2 / 2`` and ``df1 / df2``."""
        if self._validate_args:
            self._validate_sample(value)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * minigrad.log(value)
        t3 = (ct1 + ct2) * minigrad.log1p(ct3 * value)
        return t1 + t2 - t3
