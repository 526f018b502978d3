"""``Categorical(probs=None, logits=None)``: one of ``K`` classes, by the last dim's weights."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Class indices ``0 .. K-1`` drawn with the weights along the last dim of the parameter.

    ``probs`` are normalised to sum to 1, ``logits`` to log-probabilities (minus their
    ``logsumexp``); the other parameter is computed on first use.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Categorical
        >>> Categorical(probs=minigrad.tensor([1.0, 3.0])).log_prob(minigrad.tensor(1))
        tensor(-0.2877)
    """

    arg_constraints = {"probs": constraints.simplex,
                       "logits": constraints.independent(constraints.real, 1)}
    has_enumerate_support = True

    def __init__(self, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def support(self) -> constraints.Constraint:
        """The class indices ``0 .. K-1``."""
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self) -> Any:
        """The log-probabilities of the classes."""
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self) -> Any:
        """The probabilities of the classes."""
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._param.size()

    @property
    def mean(self) -> Any:
        """NaN (class indices have no meaningful mean), of shape ``batch_shape``."""
        return minigrad.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self) -> Any:
        """The most likely class."""
        return self.probs.argmax(dim=-1)

    @property
    def variance(self) -> Any:
        """NaN, as the mean."""
        return minigrad.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = ()) -> Any:
        """Class indices (int64) of shape ``sample_shape + batch_shape``."""
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = minigrad.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Any) -> Any:
        """The log-probability of class ``value``: ``logits`` gathered at it."""
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = minigrad.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Any:
        """``-sum(probs * logits)`` over the classes (``logits`` clamped above ``-inf``)."""
        logits = minigrad.clamp(self.logits, min=minigrad.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Any:
        """``0 .. K-1`` along dim 0 (expanded over the batch unless ``expand=False``)."""
        values = minigrad.arange(self._num_events, dtype=minigrad.long)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
