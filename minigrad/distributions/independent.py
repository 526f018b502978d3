"""``Independent(base, n)``: a base distribution's last ``n`` batch dims read as one event."""

from __future__ import annotations

from typing import Any

from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import sum_rightmost

__all__ = ["Independent"]


class Independent(Distribution):
    """A base distribution whose last ``reinterpreted_batch_ndims`` batch dims are event dims.

    ``log_prob`` and ``entropy`` sum over them (a diagonal Gaussian from a ``Normal``).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Independent, Normal
        >>> diagonal = Independent(Normal(minigrad.zeros(3), minigrad.ones(3)), 1)
        >>> diagonal.batch_shape, diagonal.event_shape
        (minigrad.Size([]), minigrad.Size([3]))
    """

    arg_constraints: dict[str, constraints.Constraint] = {}

    def __init__(
        self,
        base_distribution: Distribution,
        reinterpreted_batch_ndims: int,
        validate_args: bool | None = None,
    ) -> None:
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}"
            )
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(
            shape[: len(shape) - event_dim],
            shape[len(shape) - event_dim :],
            validate_args=validate_args,
        )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The base expanded over ``batch_shape`` and the reinterpreted dims."""
        new = super().expand(batch_shape, _instance)
        kept = self.event_shape[: self.reinterpreted_batch_ndims]
        new.base_dist = self.base_dist.expand(new.batch_shape + kept)
        return new

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        """As the base distribution."""
        return self.base_dist.has_rsample

    @property
    def has_enumerate_support(self) -> bool:  # type: ignore[override]
        """Only without reinterpreted dims (no enumeration of a cartesian product)."""
        return self.reinterpreted_batch_ndims == 0 and self.base_dist.has_enumerate_support

    @property
    def support(self) -> constraints.Constraint:
        """The base's support, over whole events."""
        support = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            support = constraints.independent(support, self.reinterpreted_batch_ndims)
        return support

    @property
    def mean(self) -> Any:
        """The base's mean."""
        return self.base_dist.mean

    @property
    def mode(self) -> Any:
        """The base's mode."""
        return self.base_dist.mode

    @property
    def variance(self) -> Any:
        """The base's variance."""
        return self.base_dist.variance

    def sample(self, sample_shape: Any = ()) -> Any:
        """The base's sample."""
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """The base's reparameterised sample."""
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Any) -> Any:
        """The base's ``log_prob``, summed over the event dims."""
        return sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> Any:
        """The base's entropy, summed over the event dims."""
        return sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def enumerate_support(self, expand: bool = True) -> Any:
        """The base's support, without reinterpreted dims."""
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self) -> str:
        return f"Independent({self.base_dist}, {self.reinterpreted_batch_ndims})"
