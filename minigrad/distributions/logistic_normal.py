"""``LogisticNormal(loc, scale)``: a normal vector mapped onto the simplex by stick breaking."""

from __future__ import annotations

from typing import Any

from minigrad.distributions import constraints
from minigrad.distributions.normal import Normal
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


class LogisticNormal(TransformedDistribution):
    """``StickBreakingTransform()(X)`` for ``X ~ Normal(loc, scale)``: ``K + 1`` probabilities.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import LogisticNormal
        >>> LogisticNormal(minigrad.zeros(2), minigrad.ones(2)).event_shape
        minigrad.Size([3])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    @property
    def loc(self) -> Any:
        """The underlying normal's mean."""
        return self.base_dist.base_dist.loc

    @property
    def scale(self) -> Any:
        """The underlying normal's standard deviation."""
        return self.base_dist.base_dist.scale
