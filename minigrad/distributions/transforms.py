"""Transforms: invertible maps with a log-Jacobian, the pieces of ``TransformedDistribution``.

A transform ``t`` maps ``x`` in ``t.domain`` to ``y = t(x)`` in ``t.codomain``; ``t.inv`` maps
back and ``t.log_abs_det_jacobian(x, y)`` is ``log |dy/dx|`` (summed over the event dims of a
transform of vectors or matrices). Formulas are PyTorch's, op for op, so gradients follow the
same graph. ``cache_size=1`` remembers the last pair ``(x, y)``: inverting ``y`` gives back
that very ``x`` (no round-off).

Example:
    >>> import minigrad
    >>> from minigrad.distributions.transforms import ExpTransform
    >>> t = ExpTransform()
    >>> t.inv(t(minigrad.tensor([0.0, 1.0])))
    tensor([0., 1.])
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.utils import (
    broadcast_all,
    sum_rightmost,
    tril_matrix_to_vec,
    vec_to_tril_matrix,
)
from minigrad.nn.functional import logsigmoid as _logsigmoid
from minigrad.nn.functional import pad as _pad
from minigrad.nn.functional import softplus as _softplus

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


class Transform:
    """An invertible map ``x -> y`` with a computable ``log |dy/dx|``.

    Subclasses set ``domain`` and ``codomain`` and write ``_call`` and ``_inverse`` (and
    ``log_abs_det_jacobian`` if ``bijective``).
    """

    bijective = False
    domain: constraints.Constraint
    codomain: constraints.Constraint

    def __init__(self, cache_size: int = 0) -> None:
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._inv: Transform | None = None
        self._cached_x_y: tuple[Any, Any] = (None, None)

    @property
    def event_dim(self) -> int:
        """The event dims of the domain, when they are those of the codomain."""
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self) -> Transform:
        """The inverse transform (``t.inv.inv is t``)."""
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    @property
    def sign(self) -> Any:
        """The sign of ``dy/dx`` of a monotone univariate transform (+1 or -1)."""
        raise NotImplementedError

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same transform with the given cache size."""
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __call__(self, x: Any) -> Any:
        """``y = t(x)`` (the cached ``y`` if ``x`` is the last input)."""
        if self._cache_size == 0:
            return self._call(x)
        x_old, y_old = self._cached_x_y
        if x is x_old:
            return y_old
        y = self._call(x)
        self._cached_x_y = x, y
        return y

    def _inv_call(self, y: Any) -> Any:
        """``x = t.inv(y)`` (the cached ``x`` if ``y`` is the last output)."""
        if self._cache_size == 0:
            return self._inverse(y)
        x_old, y_old = self._cached_x_y
        if y is y_old:
            return x_old
        x = self._inverse(y)
        self._cached_x_y = x, y
        return x

    def _call(self, x: Any) -> Any:
        raise NotImplementedError

    def _inverse(self, y: Any) -> Any:
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``log |dy/dx|`` at ``x`` (with ``y = t(x)``)."""
        raise NotImplementedError

    def forward_shape(self, shape: Any) -> Any:
        """The shape of ``t(x)`` for ``x`` of ``shape``."""
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        """The shape of ``t.inv(y)`` for ``y`` of ``shape``."""
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    """``t.inv``: the transform run backwards (domain and codomain swapped)."""

    def __init__(self, transform: Transform) -> None:
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The inverted transform's codomain."""
        return self._inv.codomain  # type: ignore[union-attr]

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The inverted transform's domain."""
        return self._inv.domain  # type: ignore[union-attr]

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        """As the inverted transform."""
        return self._inv.bijective  # type: ignore[union-attr]

    @property
    def sign(self) -> Any:
        """As the inverted transform."""
        return self._inv.sign  # type: ignore[union-attr]

    @property
    def inv(self) -> Transform:
        """The transform this one inverts."""
        return self._inv  # type: ignore[return-value]

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The inverse of the inverted transform with that cache size."""
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x: Any) -> Any:
        """The inverted transform's inverse (sharing its cache)."""
        return self._inv._inv_call(x)  # type: ignore[union-attr]

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """Minus the inverted transform's, at ``(y, x)``."""
        return -self._inv.log_abs_det_jacobian(y, x)  # type: ignore[union-attr]

    def forward_shape(self, shape: Any) -> Any:
        """The inverted transform's inverse shape."""
        return self._inv.inverse_shape(shape)  # type: ignore[union-attr]

    def inverse_shape(self, shape: Any) -> Any:
        """The inverted transform's forward shape."""
        return self._inv.forward_shape(shape)  # type: ignore[union-attr]


class ComposeTransform(Transform):
    """``parts`` applied in order; the log-Jacobians add up (over matching event dims).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import (
        ...     AffineTransform, ComposeTransform, ExpTransform)
        >>> ComposeTransform([ExpTransform(), AffineTransform(1.0, 2.0)])(minigrad.tensor(0.0))
        tensor(3.)
    """

    def __init__(self, parts: list[Transform], cache_size: int = 0) -> None:
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The first part's domain, over as many event dims as the chain needs."""
        if not self.parts:
            return constraints.real
        domain = self.parts[0].domain
        event_dim = self.parts[-1].codomain.event_dim
        for part in reversed(self.parts):
            event_dim += part.domain.event_dim - part.codomain.event_dim
            event_dim = max(event_dim, part.domain.event_dim)
        if event_dim > domain.event_dim:
            domain = constraints.independent(domain, event_dim - domain.event_dim)
        return domain

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The last part's codomain, over as many event dims as the chain needs."""
        if not self.parts:
            return constraints.real
        codomain = self.parts[-1].codomain
        event_dim = self.parts[0].domain.event_dim
        for part in self.parts:
            event_dim += part.codomain.event_dim - part.domain.event_dim
            event_dim = max(event_dim, part.codomain.event_dim)
        if event_dim > codomain.event_dim:
            codomain = constraints.independent(codomain, event_dim - codomain.event_dim)
        return codomain

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        """Whether every part is."""
        return all(part.bijective for part in self.parts)

    @property
    def sign(self) -> Any:
        """The product of the parts' signs."""
        sign = 1
        for part in self.parts:
            sign = sign * part.sign
        return sign

    @property
    def inv(self) -> Transform:
        """The inverted parts in reverse order."""
        if self._inv is None:
            inverse = ComposeTransform([part.inv for part in reversed(self.parts)])
            inverse._inv = self
            self._inv = inverse
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The chain with every part caching."""
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x: Any) -> Any:
        """Each part in turn (each caches on its own)."""
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """The parts' log-Jacobians, each summed over the dims the chain treats as events."""
        if not self.parts:
            return minigrad.zeros_like(x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        total = None
        event_dim = self.domain.event_dim
        for part, x_in, y_out in zip(self.parts, xs[:-1], xs[1:]):
            term = sum_rightmost(
                part.log_abs_det_jacobian(x_in, y_out), event_dim - part.domain.event_dim
            )
            total = term if total is None else total + term
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return total

    def forward_shape(self, shape: Any) -> Any:
        """Each part's forward shape in turn."""
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        """Each part's inverse shape, last part first."""
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        inner = ",\n    ".join(repr(part) for part in self.parts)
        return f"{type(self).__name__}(\n    {inner}\n)"


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """``base_transform`` with its last ``reinterpreted_batch_ndims`` dims read as event dims.

    The map is the base's; the log-Jacobian is summed over those dims.
    """

    def __init__(
        self, base_transform: Transform, reinterpreted_batch_ndims: int, cache_size: int = 0
    ) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The base's domain over the extra event dims."""
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The base's codomain over the extra event dims."""
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        """As the base."""
        return self.base_transform.bijective

    @property
    def sign(self) -> Any:
        """As the base."""
        return self.base_transform.sign

    def _call(self, x: Any) -> Any:
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y: Any) -> Any:
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """The base's, summed over the reinterpreted dims."""
        result = self.base_transform.log_abs_det_jacobian(x, y)
        return sum_rightmost(result, self.reinterpreted_batch_ndims)

    def forward_shape(self, shape: Any) -> Any:
        """As the base."""
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape: Any) -> Any:
        """As the base."""
        return self.base_transform.inverse_shape(shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"


class ReshapeTransform(Transform):
    """The rightmost ``in_shape`` dims reshaped to ``out_shape`` (a Jacobian of 1)."""

    bijective = True

    def __init__(self, in_shape: Any, out_shape: Any, cache_size: int = 0) -> None:
        self.in_shape = Size(in_shape)
        self.out_shape = Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """Real arrays of ``in_shape``."""
        return constraints.independent(constraints.real, len(self.in_shape))

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """Real arrays of ``out_shape``."""
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x: Any) -> Any:
        batch_shape = x.shape[: x.dim() - len(self.in_shape)]
        return x.reshape(batch_shape + self.out_shape)

    def _inverse(self, y: Any) -> Any:
        batch_shape = y.shape[: y.dim() - len(self.out_shape)]
        return y.reshape(batch_shape + self.in_shape)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """Zeros of the batch shape."""
        return x.new_zeros(x.shape[: x.dim() - len(self.in_shape)])

    def _reshaped(self, shape: Any, given: Size, other: Size) -> Any:
        if len(shape) < len(given):
            raise ValueError("Too few dimensions on input")
        cut = len(shape) - len(given)
        if shape[cut:] != given:
            raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {given}")
        return Size(shape[:cut]) + other

    def forward_shape(self, shape: Any) -> Any:
        """The batch dims followed by ``out_shape``."""
        return self._reshaped(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape: Any) -> Any:
        """The batch dims followed by ``in_shape``."""
        return self._reshaped(shape, self.out_shape, self.in_shape)


# --- elementwise transforms -------------------------------------------------------------------


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


def _clipped_sigmoid(x: Any) -> Any:
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
        return _clipped_sigmoid(x)

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


# --- transforms of vectors and matrices -------------------------------------------------------


def _at_least_one_dim(shape: Any) -> None:
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


class SoftmaxTransform(Transform):
    """``y = exp(x) / sum(exp(x))`` over the last dim (not bijective; its inverse is ``log``)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftmaxTransform)

    def _call(self, x: Any) -> Any:
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def forward_shape(self, shape: Any) -> Any:
        """``shape`` (at least one dim)."""
        _at_least_one_dim(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        """``shape`` (at least one dim)."""
        _at_least_one_dim(shape)
        return shape


def _stick_offsets(x: Any, length: int) -> Any:
    """``length, length - 1, ..., 1``: the sticks left, centring each sigmoid at 1/k."""
    return length + 1 - x.new_ones(length).cumsum(-1)


class StickBreakingTransform(Transform):
    """``K - 1`` reals to the ``K``-simplex: each sigmoid takes a share of the stick left.

    Bijective (unlike ``SoftmaxTransform``), the map behind ``biject_to(simplex)``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import StickBreakingTransform
        >>> StickBreakingTransform()(minigrad.zeros(2))
        tensor([0.3333, 0.3333, 0.3333])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StickBreakingTransform)

    def _call(self, x: Any) -> Any:
        offset = _stick_offsets(x, x.shape[-1])
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        return _pad(z, [0, 1], value=1) * _pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        remaining = minigrad.clamp(1 - y_crop.cumsum(-1), min=minigrad.finfo(y.dtype).tiny)
        return y_crop.log() - remaining.log() + offset.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """``sum(-x' + logsigmoid(x') + log y[:-1])`` with ``x'`` the centred inputs."""
        x = x - _stick_offsets(x, x.shape[-1]).log()
        return (-x + _logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape: Any) -> Any:
        """One more element in the last dim."""
        _at_least_one_dim(shape)
        return Size(shape[:-1]) + (shape[-1] + 1,)

    def inverse_shape(self, shape: Any) -> Any:
        """One element fewer in the last dim."""
        _at_least_one_dim(shape)
        return Size(shape[:-1]) + (shape[-1] - 1,)


class LowerCholeskyTransform(Transform):
    """Square matrices to Cholesky factors: the strict lower part kept, the diagonal ``exp``-ed."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LowerCholeskyTransform)

    def _call(self, x: Any) -> Any:
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y: Any) -> Any:
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    """Square matrices to positive-definite ones: ``L L^T`` of their ``LowerCholeskyTransform``."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x: Any) -> Any:
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y: Any) -> Any:
        return LowerCholeskyTransform().inv(minigrad.linalg.cholesky(y))


class CorrCholeskyTransform(Transform):
    """``D (D - 1) / 2`` reals to the Cholesky factor of a ``D x D`` correlation matrix.

    Each row of the strict lower triangle goes through ``tanh``, then a signed stick breaking
    makes the row a unit vector with a positive diagonal entry.
    """

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x: Any) -> Any:
        x = minigrad.tanh(x)
        eps = minigrad.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        # each row's squares share the stick left by the entries before them
        z1m_cumprod_sqrt = (1 - r**2).sqrt().cumprod(-1)
        r = r + minigrad.eye(r.shape[-1], dtype=r.dtype)
        return r * _pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_cumsum = 1 - minigrad.cumsum(y * y, dim=-1)
        y_cumsum_shifted = _pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # (atanh)

    def log_abs_det_jacobian(self, x: Any, y: Any, intermediates: Any = None) -> Any:
        """The stick breaking's and the ``tanh``'s log-Jacobians."""
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        y1m_cumsum_tril = tril_matrix_to_vec(y1m_cumsum, diag=-2)
        stick_breaking_logdet = 0.5 * y1m_cumsum_tril.log().sum(-1)
        tanh_logdet = -2 * (x + _softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape: Any) -> Any:
        """``(..., N)`` to ``(..., D, D)`` with ``N = D (D - 1) / 2``."""
        _at_least_one_dim(shape)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return Size(shape[:-1]) + (d, d)

    def inverse_shape(self, shape: Any) -> Any:
        """``(..., D, D)`` to ``(..., D (D - 1) / 2)``."""
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return Size(shape[:-2]) + (d * (d - 1) // 2,)


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
