"""``OneHotCategorical`` and ``OneHotCategoricalStraightThrough``: classes as one-hot vectors."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.distribution import Distribution
from minigrad.nn.functional import one_hot as _one_hot

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


class OneHotCategorical(Distribution):
    """A ``Categorical`` whose values are one-hot vectors of length ``K``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import OneHotCategorical
        >>> OneHotCategorical(minigrad.tensor([0.25, 0.75])).log_prob(minigrad.tensor([0.0, 1.0]))
        tensor(-0.2877)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        self._categorical = Categorical(probs, logits)
        super().__init__(
            self._categorical.batch_shape,
            self._categorical.param_shape[-1:],
            validate_args=validate_args,
        )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The categorical expanded."""
        new = super().expand(batch_shape, _instance)
        new._categorical = self._categorical.expand(batch_shape)
        return new

    @property
    def _param(self) -> Any:
        return self._categorical._param

    @property
    def probs(self) -> Any:
        """The probabilities of the classes."""
        return self._categorical.probs

    @property
    def logits(self) -> Any:
        """The log-probabilities of the classes."""
        return self._categorical.logits

    @property
    def mean(self) -> Any:
        """``probs``."""
        return self._categorical.probs

    @property
    def mode(self) -> Any:
        """The most likely class, one-hot."""
        probs = self._categorical.probs
        return _one_hot(probs.argmax(dim=-1), num_classes=probs.shape[-1]).to(probs)

    @property
    def variance(self) -> Any:
        """``probs * (1 - probs)``."""
        return self._categorical.probs * (1 - self._categorical.probs)

    @property
    def param_shape(self) -> Size:
        """The shape of the parameter given."""
        return self._categorical.param_shape

    def sample(self, sample_shape: Any = ()) -> Any:
        """One-hot vectors (in the probabilities' dtype) of the categorical's draws."""
        indices = self._categorical.sample(Size(sample_shape))
        probs = self._categorical.probs
        return _one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value: Any) -> Any:
        """The categorical's ``log_prob`` of the hot index."""
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Any:
        """The categorical's entropy."""
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Any:
        """The ``K`` one-hot vectors along dim 0."""
        n = self.event_shape[0]
        values = minigrad.eye(n, dtype=self._param.dtype)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n,) + self.batch_shape + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """``OneHotCategorical`` whose ``rsample`` passes the gradient of ``probs`` straight through.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import OneHotCategoricalStraightThrough
        >>> OneHotCategoricalStraightThrough(minigrad.tensor([0.5, 0.5])).has_rsample
        True
    """

    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A one-hot sample plus ``probs - probs.detach()`` (zero, with ``probs``'s gradient)."""
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
