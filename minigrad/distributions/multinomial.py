"""``Multinomial(total_count=1, probs=None, logits=None)``: class counts of several draws."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.binomial import Binomial
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """How many of ``total_count`` categorical draws fall in each of the ``K`` classes.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Multinomial
        >>> Multinomial(2, minigrad.tensor([0.5, 0.5])).log_prob(minigrad.tensor([1.0, 1.0]))
        tensor(-0.6931)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(
        self,
        total_count: int = 1,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(
            self._categorical.batch_shape,
            self._categorical.param_shape[-1:],
            validate_args=validate_args,
        )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The categorical and binomial expanded."""
        new = super().expand(batch_shape, _instance)
        new._categorical = self._categorical.expand(batch_shape)
        new._binomial = self._binomial.expand(Size(batch_shape) + self.event_shape)
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        """Count vectors of total at most ``total_count``."""
        return constraints.multinomial(self.total_count)

    @property
    def mean(self) -> Any:
        """``probs * total_count``."""
        return self.probs * self.total_count

    @property
    def variance(self) -> Any:
        """``total_count * probs * (1 - probs)``."""
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def logits(self) -> Any:
        """The log-probabilities of the classes."""
        return self._categorical.logits

    @property
    def probs(self) -> Any:
        """The probabilities of the classes."""
        return self._categorical.probs

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._categorical.param_shape

    def sample(self, sample_shape: Any = ()) -> Any:
        """Counts (in the probabilities' dtype) of ``total_count`` categorical draws."""
        sample_shape = Size(sample_shape)
        samples = self._categorical.sample(Size((self.total_count,)) + sample_shape)
        order = list(range(samples.dim()))
        order.append(order.pop(0))  # (the draws' dim last, to be counted)
        samples = samples.permute(*order)
        counts = samples.new(self._extended_shape(sample_shape)).zero_()
        counts.scatter_add_(-1, samples, minigrad.ones_like(samples))
        return counts.type_as(self.probs)

    def entropy(self) -> Any:
        """PyTorch's closed form: ``n H(categorical) - lgamma(n + 1)`` plus binomial terms."""
        n = minigrad.tensor(self.total_count)
        cat_entropy = self._categorical.entropy()
        term1 = n * cat_entropy - minigrad.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = minigrad.exp(self._binomial.log_prob(support))
        weights = minigrad.lgamma(support + 1)
        term2 = (binomial_probs * weights).sum([0, -1])
        return term1 + term2

    def log_prob(self, value: Any) -> Any:
        """``lgamma(n + 1) - sum(lgamma(value + 1)) + sum(logits * value)``."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = minigrad.lgamma(value.sum(-1) + 1)
        log_factorial_xs = minigrad.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers
