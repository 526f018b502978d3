"""``NegativeBinomial(total_count, probs=None, logits=None)``: successes before failures."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.gamma import Gamma
from minigrad.distributions.utils import (
    broadcast_all,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)
from minigrad.nn.functional import logsigmoid as _logsigmoid

__all__ = ["NegativeBinomial"]


class NegativeBinomial(Distribution):
    """Successes (probability ``probs`` each) before ``total_count`` failures.

    Sampling draws a Poisson of a gamma rate (the gamma-Poisson mixture).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import NegativeBinomial
        >>> NegativeBinomial(2.0, minigrad.tensor(0.5)).log_prob(minigrad.tensor(1.0))
        tensor(-1.3863)
    """

    arg_constraints = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(
        self,
        total_count: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """Expanded parameters (the mixing gamma made again when asked)."""
        new = super().expand(batch_shape, _instance)
        new.__dict__.pop("_gamma", None)
        return new

    @property
    def mean(self) -> Any:
        """``total_count * exp(logits)``."""
        return self.total_count * minigrad.exp(self.logits)

    @property
    def mode(self) -> Any:
        """``floor((total_count - 1) exp(logits))``, at least 0."""
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Any:
        """``mean / sigmoid(-logits)``."""
        return self.mean / minigrad.sigmoid(-self.logits)

    @lazy_property
    def logits(self) -> Any:
        """The log-odds of a success."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        """The probability of a success."""
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._param.size()

    @lazy_property
    def _gamma(self) -> Gamma:
        return Gamma(
            concentration=self.total_count, rate=minigrad.exp(-self.logits), validate_args=False
        )

    def sample(self, sample_shape: Any = ()) -> Any:
        """A Poisson draw of a gamma-distributed rate."""
        with minigrad.no_grad():
            rate = self._gamma.sample(sample_shape=sample_shape)
            return minigrad.poisson(rate)

    def log_prob(self, value: Any) -> Any:
        """PyTorch's formula in ``logsigmoid(+-logits)`` and ``lgamma``."""
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized_prob = self.total_count * _logsigmoid(-self.logits) + value * _logsigmoid(
            self.logits
        )
        log_normalization = (
            -minigrad.lgamma(self.total_count + value)
            + minigrad.lgamma(1.0 + value)
            + minigrad.lgamma(self.total_count)
        )
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
