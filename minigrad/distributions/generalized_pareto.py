"""``GeneralizedPareto(loc, scale, concentration)``: the law of exceedances over a threshold."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution; ``concentration`` 0 is the shifted exponential.

    Where ``concentration`` is (close to) 0 the formulas take their limits, as in PyTorch.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import GeneralizedPareto
        >>> d = GeneralizedPareto(minigrad.tensor(0.0), minigrad.tensor(1.0), minigrad.tensor(0.5))
        >>> d.log_prob(minigrad.tensor(1.0))
        tensor(-1.2164)
    """

    arg_constraints = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(
        self, loc: Any, scale: Any, concentration: Any, validate_args: bool | None = None
    ) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        numbers = all(isinstance(v, Number) for v in (loc, scale, concentration))
        super().__init__(Size() if numbers else self.loc.size(), validate_args=validate_args)

    def _safe_concentration(self) -> tuple[Any, Any]:
        """Where the concentration is ~0, and the concentration with those set to 1."""
        eq_zero = minigrad.isclose(self.concentration, minigrad.tensor(0.0))
        safe = minigrad.where(eq_zero, minigrad.ones_like(self.concentration), self.concentration)
        return eq_zero, safe

    def _z(self, x: Any) -> Any:
        return (x - self.loc) / self.scale

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``icdf`` of uniform draws: gradients reach the parameters."""
        u = minigrad.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.icdf(u)

    def log_prob(self, value: Any) -> Any:
        """``-log(scale) - (1 / c + 1) log1p(c z)`` (``-log(scale) - z`` at ``c = 0``)."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + minigrad.ones_like(z)
        where_nonzero = minigrad.where(y == 0, y, y * minigrad.log1p(safe_conc * z))
        return -self.scale.log() - minigrad.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value: Any) -> Any:
        """``log P(X > value) = -log1p(c z) / c`` (``-z`` at ``c = 0``)."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        where_nonzero = -minigrad.log1p(safe_conc * z) / safe_conc
        return minigrad.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value: Any) -> Any:
        """``log1p(-exp(log_survival_function))``."""
        return minigrad.log1p(-minigrad.exp(self.log_survival_function(value)))

    def cdf(self, value: Any) -> Any:
        """``exp(log_cdf)``."""
        return minigrad.exp(self.log_cdf(value))

    def icdf(self, value: Any) -> Any:
        """``loc + scale / c * expm1(-c log1p(-value))`` (``loc - scale log1p(-value)``)."""
        concentration = self.concentration
        eq_zero = minigrad.isclose(concentration, minigrad.zeros_like(concentration))
        safe_conc = minigrad.where(eq_zero, minigrad.ones_like(concentration), concentration)
        logu = minigrad.log1p(-value)
        where_nonzero = self.loc + self.scale / safe_conc * minigrad.expm1(-safe_conc * logu)
        where_zero = self.loc - self.scale * logu
        return minigrad.where(eq_zero, where_zero, where_nonzero)

    @property
    def mean(self) -> Any:
        """``loc + scale / (1 - c)`` for ``c < 1``, else NaN."""
        valid = self.concentration < 1
        safe_conc = minigrad.where(valid, self.concentration, 0.5)
        return minigrad.where(valid, self.loc + self.scale / (1 - safe_conc), math.nan)

    @property
    def variance(self) -> Any:
        """``scale**2 / ((1 - c)**2 (1 - 2c))`` for ``c < 1/2``, else NaN."""
        valid = self.concentration < 0.5
        safe_conc = minigrad.where(valid, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return minigrad.where(valid, result, math.nan)

    def entropy(self) -> Any:
        """``log(scale) + c + 1``."""
        ans = minigrad.log(self.scale) + self.concentration + 1
        return minigrad.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        """``[loc, inf)``, or ``[loc, loc - scale / c]`` for ``c < 0``."""
        lower = self.loc
        upper = minigrad.where(
            self.concentration < 0, lower - self.scale / self.concentration, math.inf
        )
        return constraints.interval(lower, upper)
