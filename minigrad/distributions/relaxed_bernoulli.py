"""``RelaxedBernoulli(temperature, probs, logits)``: a coin smoothed into ``(0, 1)`` (Concrete)."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import SigmoidTransform
from minigrad.distributions.utils import (
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(Distribution):
    """The logit of a ``RelaxedBernoulli`` draw: ``(logistic noise + logits) / temperature``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
        >>> LogitRelaxedBernoulli(minigrad.tensor(1.0), 0.5).log_prob(minigrad.tensor(0.0))
        tensor(-1.3863)
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        self.temperature = temperature
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            self.probs = param
        else:
            self.logits = param
        self._param = param
        batch_shape = Size() if isinstance(given, Number) else param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @lazy_property
    def logits(self) -> Any:
        """The log-odds."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        """The probability of 1 of the coin being relaxed."""
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._param.size()

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``(logit(u) + logit(probs)) / temperature`` with ``u`` uniform."""
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(minigrad.rand(shape, dtype=probs.dtype))
        noise = uniforms.log() - (-uniforms).log1p()
        return (noise + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value: Any) -> Any:
        """``log(t) + d - 2 log1p(exp(d))`` with ``d = logits - t * value``."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """The sigmoid of a ``LogitRelaxedBernoulli``: values in ``(0, 1)``, reparameterised.

    Low ``temperature`` pushes the values towards 0 and 1.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import RelaxedBernoulli
        >>> RelaxedBernoulli(minigrad.tensor(0.5), probs=0.3).log_prob(minigrad.tensor(0.5))
        tensor(-0.8675)
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    @property
    def temperature(self) -> Any:
        """The relaxation's temperature."""
        return self.base_dist.temperature

    @property
    def logits(self) -> Any:
        """The log-odds."""
        return self.base_dist.logits

    @property
    def probs(self) -> Any:
        """The probability of 1."""
        return self.base_dist.probs
