"""``RelaxedOneHotCategorical(temperature, probs, logits)``: smoothed one-hot vectors."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import ExpTransform
from minigrad.distributions.utils import broadcast_all, clamp_probs

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


class ExpRelaxedCategorical(Distribution):
    """The log of a ``RelaxedOneHotCategorical`` draw: ``log_softmax((logits + g) / t)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.relaxed_categorical import ExpRelaxedCategorical
        >>> ExpRelaxedCategorical(minigrad.tensor(1.0), minigrad.ones(2)).event_shape
        minigrad.Size([2])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The categorical expanded, the temperature kept."""
        new = super().expand(batch_shape, _instance)
        new._categorical = self._categorical.expand(batch_shape)
        return new

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._categorical.param_shape

    @property
    def logits(self) -> Any:
        """The normalised log-probabilities."""
        return self._categorical.logits

    @property
    def probs(self) -> Any:
        """The probabilities."""
        return self._categorical.probs

    def rsample(self, sample_shape: Any = ()) -> Any:
        """``log_softmax((logits + gumbel noise) / temperature)``."""
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(minigrad.rand(shape, dtype=self.logits.dtype))
        gumbels = -(-uniforms.log()).log()
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Any) -> Any:
        """The Concrete density of ``value`` (log-probabilities), PyTorch's formula."""
        count = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = minigrad.full_like(
            self.temperature, float(count)
        ).lgamma() - self.temperature.log().mul(-(count - 1))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """``exp`` of an ``ExpRelaxedCategorical``: points of the simplex, reparameterised.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import RelaxedOneHotCategorical
        >>> d = RelaxedOneHotCategorical(minigrad.tensor(0.5), minigrad.tensor([0.2, 0.8]))
        >>> d.log_prob(minigrad.tensor([0.5, 0.5]))
        tensor(-1.1394)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    @property
    def temperature(self) -> Any:
        """The relaxation's temperature."""
        return self.base_dist.temperature

    @property
    def logits(self) -> Any:
        """The normalised log-probabilities."""
        return self.base_dist.logits

    @property
    def probs(self) -> Any:
        """The probabilities."""
        return self.base_dist.probs
