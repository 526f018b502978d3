"""``Bernoulli(probs=None, logits=None)``: a coin that shows 1 with probability ``probs``."""

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
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)
from minigrad.nn.functional import binary_cross_entropy_with_logits

__all__ = ["Bernoulli"]


class Bernoulli(ExponentialFamily):
    """0 or 1, given ``probs`` (of 1) or ``logits`` (its log-odds), not both.

    The other parameter is computed on first use. ``log_prob`` and ``entropy`` are
    ``binary_cross_entropy_with_logits``, as in PyTorch.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Bernoulli
        >>> Bernoulli(probs=0.25).log_prob(minigrad.tensor(1.0))
        tensor(-1.3863)
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
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
        """The log-odds of 1."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        """The probability of 1."""
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._param.size()

    @property
    def mean(self) -> Any:
        """``probs``."""
        return self.probs

    @property
    def mode(self) -> Any:
        """1 where ``probs > 1/2``, 0 where below, NaN at 1/2."""
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> Any:
        """``probs * (1 - probs)``."""
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Any:
        """Draws of shape ``sample_shape + batch_shape``, without gradients."""
        shape = self._extended_shape(sample_shape)
        with minigrad.no_grad():
            return minigrad.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Any) -> Any:
        """``-binary_cross_entropy_with_logits(logits, value)``, element by element."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Any:
        """``binary_cross_entropy_with_logits(logits, probs)``, element by element."""
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand: bool = True) -> Any:
        """``[0, 1]`` along dim 0 (expanded over the batch unless ``expand=False``)."""
        values = minigrad.arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
