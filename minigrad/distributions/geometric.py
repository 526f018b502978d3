"""``Geometric(probs=None, logits=None)``: failures before the first success."""

from __future__ import annotations

from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import (
    broadcast_all,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)
from minigrad.nn.functional import binary_cross_entropy_with_logits as _bce_with_logits

__all__ = ["Geometric"]


class Geometric(Distribution):
    """The number of failures before the first success of trials of probability ``probs``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Geometric
        >>> Geometric(0.5).log_prob(minigrad.tensor(2.0))
        tensor(-2.0794)
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        batch_shape = Size() if isinstance(given, Number) else given.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            valid = value > 0
            if not valid.all():
                raise ValueError(
                    f"Expected parameter probs ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to be positive but found "
                    f"invalid values:\n{value.data[~valid]}"
                )

    @property
    def mean(self) -> Any:
        """``1 / probs - 1``."""
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Any:
        """0."""
        return minigrad.zeros_like(self.probs)

    @property
    def variance(self) -> Any:
        """``(1 / probs - 1) / probs``."""
        return (1.0 / self.probs - 1.0) / self.probs

    @lazy_property
    def logits(self) -> Any:
        """The log-odds of a success."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        """The probability of a success."""
        return logits_to_probs(self.logits, is_binary=True)

    def sample(self, sample_shape: Any = ()) -> Any:
        """``floor(log u / log(1 - probs))`` for ``u`` uniform in ``(tiny, 1)``."""
        shape = self._extended_shape(sample_shape)
        tiny = minigrad.finfo(self.probs.dtype).tiny
        with minigrad.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Any) -> Any:
        """``value * log1p(-probs) + log(probs)`` (0 failures of a sure success: 0)."""
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Any:
        """``binary_cross_entropy_with_logits(logits, probs) / probs``."""
        return _bce_with_logits(self.logits, self.probs, reduction="none") / self.probs
