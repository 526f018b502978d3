"""``ContinuousBernoulli(probs=None, logits=None)``: a density on ``[0, 1]`` shaped like a coin.

The density is ``C(probs) probs**x (1 - probs)**(1 - x)``; its normaliser ``C`` is singular
at ``probs = 1/2``, so inside ``lims`` around it PyTorch (and minigrad) use Taylor expansions.
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.utils import (
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)
from minigrad.nn.functional import binary_cross_entropy_with_logits as _bce_with_logits

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli distribution (Loaiza-Ganem and Cunningham, 2019).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import ContinuousBernoulli
        >>> ContinuousBernoulli(minigrad.tensor(0.8)).mean
        tensor(0.6120)
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(
        self,
        probs: Any = None,
        logits: Any = None,
        lims: tuple[float, float] = (0.499, 0.501),
        validate_args: bool | None = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            if (
                validate_args is not None
                and not self.arg_constraints["probs"].check(self.probs).all()
            ):
                raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        self._lims = lims
        batch_shape = Size() if isinstance(given, Number) else self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def _outside_unstable_region(self) -> Any:
        return minigrad.max(
            minigrad.le(self.probs, self._lims[0]), minigrad.gt(self.probs, self._lims[1])
        )

    def _cut_probs(self) -> Any:
        """``probs``, with those near 1/2 replaced by ``lims[0]`` (the formulas stay finite)."""
        return minigrad.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * minigrad.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self) -> Any:
        """``log C(probs)``: ``log |2 atanh(1 - 2p) / (1 - 2p)|``, Taylor-expanded near 1/2."""
        cut_probs = self._cut_probs()
        below_half = minigrad.where(
            minigrad.le(cut_probs, 0.5), cut_probs, minigrad.zeros_like(cut_probs)
        )
        above_half = minigrad.where(
            minigrad.ge(cut_probs, 0.5), cut_probs, minigrad.ones_like(cut_probs)
        )
        log_norm = minigrad.log(
            minigrad.abs(minigrad.log1p(-cut_probs) - minigrad.log(cut_probs))
        ) - minigrad.where(
            minigrad.le(cut_probs, 0.5),
            minigrad.log1p(-2.0 * below_half),
            minigrad.log(2.0 * above_half - 1.0),
        )
        x = minigrad.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return minigrad.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Any:
        """``p / (2p - 1) + 1 / (log(1 - p) - log p)`` (Taylor near 1/2)."""
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (
            minigrad.log1p(-cut_probs) - minigrad.log(cut_probs)
        )
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * minigrad.pow(x, 2)) * x
        return minigrad.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self) -> Any:
        """The variance's square root."""
        return minigrad.sqrt(self.variance)

    @property
    def variance(self) -> Any:
        """PyTorch's closed form (Taylor near 1/2)."""
        cut_probs = self._cut_probs()
        variances = cut_probs * (cut_probs - 1.0) / minigrad.pow(1.0 - 2.0 * cut_probs, 2) + 1.0 / (
            minigrad.pow(minigrad.log1p(-cut_probs) - minigrad.log(cut_probs), 2)
        )
        x = minigrad.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return minigrad.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self) -> Any:
        """The log-odds of ``probs``."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        """The shape parameter in ``(0, 1)``."""
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._param.size()

    def sample(self, sample_shape: Any = ()) -> Any:
        """``icdf`` of uniform draws, without gradients."""
        u = minigrad.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        with minigrad.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``icdf`` of uniform draws: gradients reach ``probs``."""
        u = minigrad.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        return self.icdf(u)

    def log_prob(self, value: Any) -> Any:
        """``-binary_cross_entropy_with_logits(logits, value) + log C``."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_bce_with_logits(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value: Any) -> Any:
        """``(p**x (1 - p)**(1 - x) + p - 1) / (2p - 1)``, clamped to ``[0, 1]``."""
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = (
            minigrad.pow(cut_probs, value) * minigrad.pow(1.0 - cut_probs, 1.0 - value)
            + cut_probs
            - 1.0
        ) / (2.0 * cut_probs - 1.0)
        unbounded_cdfs = minigrad.where(self._outside_unstable_region(), cdfs, value)
        return minigrad.where(
            minigrad.le(value, 0.0),
            minigrad.zeros_like(value),
            minigrad.where(minigrad.ge(value, 1.0), minigrad.ones_like(value), unbounded_cdfs),
        )

    def icdf(self, value: Any) -> Any:
        """The inverse of ``cdf`` (the identity near ``probs = 1/2``)."""
        cut_probs = self._cut_probs()
        inverse = (
            minigrad.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0))
            - minigrad.log1p(-cut_probs)
        ) / (minigrad.log(cut_probs) - minigrad.log1p(-cut_probs))
        return minigrad.where(self._outside_unstable_region(), inverse, value)

    def entropy(self) -> Any:
        """``mean (log(1 - p) - log p) - log C - log(1 - p)``."""
        log_probs0 = minigrad.log1p(-self.probs)
        log_probs1 = minigrad.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self) -> tuple[Any]:
        return (self.logits,)
