"""``Binomial(total_count=1, probs=None, logits=None)``: successes in ``total_count`` trials."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad import _random
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import (
    broadcast_all,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["Binomial"]


def _clamp_by_zero(x: Any) -> Any:
    """``max(x, 0)`` with the gradient 1/2 at 0 (PyTorch's, for ``log_prob`` at logits 0)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _one_total_count(distribution: Any, method: str) -> int:
    """The total count, when it is one for the whole batch."""
    total_count = int(distribution.total_count.max())
    if not distribution.total_count.min() == total_count:
        raise NotImplementedError(f"Inhomogeneous total count not supported by `{method}`.")
    return total_count


class Binomial(Distribution):
    """Successes in ``total_count`` independent trials of probability ``probs`` (or ``logits``).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Binomial
        >>> Binomial(4, minigrad.tensor(0.5)).log_prob(minigrad.tensor(2.0))
        tensor(-0.9808)
    """

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(
        self,
        total_count: Any = 1,
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

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        """``0 .. total_count``."""
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self) -> Any:
        """``total_count * probs``."""
        return self.total_count * self.probs

    @property
    def mode(self) -> Any:
        """``floor((total_count + 1) probs)``, at most ``total_count``."""
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Any:
        """``total_count * probs * (1 - probs)``."""
        return self.total_count * self.probs * (1 - self.probs)

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

    def sample(self, sample_shape: Any = ()) -> Any:
        """Counts of shape ``sample_shape + batch_shape`` (floats), from minigrad's generator."""
        shape = self._extended_shape(sample_shape)
        with minigrad.no_grad():
            counts = self.total_count.expand(shape).numpy().astype("int64")
            probs = self.probs.expand(shape).numpy()
            draws = _random.generator(None).binomial(counts, probs)
            return minigrad.tensor(draws, dtype=self._param.dtype).reshape(shape)

    def log_prob(self, value: Any) -> Any:
        """The log of ``C(n, k) p**k (1 - p)**(n - k)``, written in ``logits`` (stably)."""
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = minigrad.lgamma(self.total_count + 1)
        log_factorial_k = minigrad.lgamma(value + 1)
        log_factorial_nmk = minigrad.lgamma(self.total_count - value + 1)
        normalize_term = (
            self.total_count * _clamp_by_zero(self.logits)
            + self.total_count * minigrad.log1p(minigrad.exp(-minigrad.abs(self.logits)))
            - log_factorial_n
        )
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self) -> Any:
        """``-sum p log p`` over the support (one total count for the whole batch)."""
        _one_total_count(self, "entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(minigrad.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Any:
        """``0 .. total_count`` along dim 0 (one total count for the whole batch)."""
        total_count = _one_total_count(self, "enumerate_support")
        values = minigrad.arange(1 + total_count, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
