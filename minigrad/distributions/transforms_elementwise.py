"""Elementwise transforms: exp, powers, sigmoid, softplus, tanh, abs, affine maps, CDFs.

Each maps every element on its own; ``log_abs_det_jacobian`` is elementwise too (an affine map
over events of ``event_dim`` dims sums it). Formulas are PyTorch's, op for op.
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.transform import Transform
from minigrad.distributions.utils import broadcast_all
from minigrad.nn.functional import softplus as _softplus

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "PowerTransform",
    "SigmoidTransform",
    "SoftplusTransform",
    "TanhTransform",
    "clipped_sigmoid",
]


class ExpTransform(Transform):
    """``y = exp(x)``; ``log |dy/dx| = x``."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpTransform)

    def _call(self, x: Any) -> Any:
        return x.exp()

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``x``."""
        return x


class PowerTransform(Transform):
    """``y = x ** exponent`` on positive numbers; ``log |dy/dx| = log |exponent y / x|``."""

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @property
    def sign(self) -> Any:
        """The exponent's sign."""
        return self.exponent.sign()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PowerTransform):
            return False
        return self.exponent.eq(other.exponent).all().item()

    def _call(self, x: Any) -> Any:
        return x.pow(self.exponent)

    def _inverse(self, y: Any) -> Any:
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``log |exponent * y / x|``."""
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape: Any) -> Any:
        """``shape`` broadcast with the exponent's."""
        return minigrad.broadcast_shapes(shape, self.exponent.shape)

    def inverse_shape(self, shape: Any) -> Any:
        """``shape`` broadcast with the exponent's."""
        return minigrad.broadcast_shapes(shape, self.exponent.shape)


def clipped_sigmoid(x: Any) -> Any:
    """``sigmoid(x)`` kept inside ``[tiny, 1 - eps]`` (so its logit stays finite)."""
    finfo = minigrad.finfo(x.dtype)
    return minigrad.clamp(minigrad.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class SigmoidTransform(Transform):
    """``y = sigmoid(x)``, ``x = logit(y)``; ``log |dy/dx| = -softplus(-x) - softplus(x)``."""

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SigmoidTransform)

    def _call(self, x: Any) -> Any:
        return clipped_sigmoid(x)

    def _inverse(self, y: Any) -> Any:
        finfo = minigrad.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``-softplus(-x) - softplus(x)``."""
        return -_softplus(-x) - _softplus(x)


class SoftplusTransform(Transform):
    """``y = log(1 + exp(x))``; ``log |dy/dx| = -softplus(-x)``."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftplusTransform)

    def _call(self, x: Any) -> Any:
        return _softplus(x)

    def _inverse(self, y: Any) -> Any:
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``-softplus(-x)``."""
        return -_softplus(-x)


class TanhTransform(Transform):
    """``y = tanh(x)``; ``log |dy/dx| = 2 (log 2 - x - softplus(-2x))`` (stable for large x)."""

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TanhTransform)

    def _call(self, x: Any) -> Any:
        return x.tanh()

    def _inverse(self, y: Any) -> Any:
        return minigrad.atanh(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``2 (log 2 - x - softplus(-2 x))``."""
        return 2.0 * (math.log(2.0) - x - _softplus(-2.0 * x))


class AbsTransform(Transform):
    """``y = |x|`` (not bijective: the inverse is the identity on non-negative numbers)."""

    domain = constraints.real
    codomain = constraints.positive

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbsTransform)

    def _call(self, x: Any) -> Any:
        return x.abs()

    def _inverse(self, y: Any) -> Any:
        return y


class AffineTransform(Transform):
    """``y = loc + scale * x`` elementwise, over events of ``event_dim`` dims.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import AffineTransform
        >>> AffineTransform(1.0, -2.0).log_abs_det_jacobian(minigrad.zeros(2), None)
        tensor([0.6931, 0.6931])
    """

    bijective = True

    def __init__(self, loc: Any, scale: Any, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        """The number of trailing dims that make one event."""
        return self._event_dim

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """Real events of ``event_dim`` dims."""
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """As the domain."""
        return self.domain

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        for mine, theirs in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(mine, Number) and isinstance(theirs, Number):
                if mine != theirs:
                    return False
            elif not (mine == theirs).all().item():
                return False
        return True

    @property
    def sign(self) -> Any:
        """The sign of ``scale``."""
        if isinstance(self.scale, Number):
            scale = float(self.scale)
            return 1 if scale > 0 else -1 if scale < 0 else 0
        return self.scale.sign()

    def _call(self, x: Any) -> Any:
        return self.loc + self.scale * x

    def _inverse(self, y: Any) -> Any:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``log |scale|``, summed over the event dims, in ``x``'s batch shape."""
        shape = x.shape
        if isinstance(self.scale, Number):
            result = minigrad.full_like(x, math.log(abs(self.scale)))
        else:
            result = minigrad.abs(self.scale).log()
        if self.event_dim:
            result = result.view(result.size()[: -self.event_dim] + (-1,)).sum(-1)
            shape = shape[: -self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape: Any) -> Any:
        """``shape`` broadcast with ``loc``'s and ``scale``'s."""
        return minigrad.broadcast_shapes(
            shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ())
        )

    def inverse_shape(self, shape: Any) -> Any:
        """``shape`` broadcast with ``loc``'s and ``scale``'s."""
        return self.forward_shape(shape)


class CumulativeDistributionTransform(Transform):
    """``y = distribution.cdf(x)``, into ``[0, 1]`` (a copula's marginals).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Normal
        >>> from minigrad.distributions.transforms import CumulativeDistributionTransform
        >>> CumulativeDistributionTransform(Normal(0.0, 1.0))(minigrad.tensor(0.0))
        tensor(0.5000)
    """

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The distribution's support."""
        return self.distribution.support

    def _call(self, x: Any) -> Any:
        return self.distribution.cdf(x)

    def _inverse(self, y: Any) -> Any:
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """The density: ``distribution.log_prob(x)``."""
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)
