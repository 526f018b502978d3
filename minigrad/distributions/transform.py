"""``Transform`` and the transforms that combine others (compose, inverse, independent, reshape).

A transform ``t`` maps ``x`` in ``t.domain`` to ``y = t(x)`` in ``t.codomain``; ``t.inv`` maps
back and ``t.log_abs_det_jacobian(x, y)`` is ``log |dy/dx|``. The concrete maps live in
``transforms_elementwise.py`` and ``transforms_structured.py``; ``transforms.py`` gathers them
all (PyTorch's ``torch.distributions.transforms``).
"""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.utils import sum_rightmost

__all__ = [
    "CatTransform",
    "ComposeTransform",
    "IndependentTransform",
    "ReshapeTransform",
    "StackTransform",
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


def _check_slices(dim: int, value: Any, size: int, name: str, what: str, expected: str) -> None:
    if not (-value.dim() <= dim < value.dim()):
        raise AssertionError(f"dim {dim} out of range for {what} with {value.dim()} dimensions")
    if value.size(dim) != size:
        raise AssertionError(f"{name}.size({dim}) = {value.size(dim)} must equal {expected}")


class CatTransform(Transform):
    """Transforms ``tseq`` on consecutive slices (of ``lengths``) along ``dim``, as ``cat``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import (
        ...     CatTransform, ExpTransform, identity_transform)
        >>> CatTransform([ExpTransform(), identity_transform], 0, [1, 2])(minigrad.zeros(3))
        tensor([1., 0., 0.])
    """

    def __init__(self, tseq: Any, dim: int = 0, lengths: Any = None, cache_size: int = 0) -> None:
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})"
            )
        self.dim = dim

    @property
    def event_dim(self) -> int:
        """The largest of the parts'."""
        return max(t.event_dim for t in self.transforms)

    @property
    def length(self) -> int:
        """The total length along ``dim``."""
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _slices(self, value: Any) -> list[Any]:
        slices, start = [], 0
        for length in self.lengths:
            slices.append(value.narrow(self.dim, start, length))
            start = start + length
        return slices

    def _call(self, x: Any) -> Any:
        _check_slices(self.dim, x, self.length, "x", "tensor", f"length {self.length}")
        parts = [t(s) for t, s in zip(self.transforms, self._slices(x))]
        return minigrad.cat(parts, dim=self.dim)

    def _inverse(self, y: Any) -> Any:
        _check_slices(self.dim, y, self.length, "y", "tensor", f"length {self.length}")
        parts = [t.inv(s) for t, s in zip(self.transforms, self._slices(y))]
        return minigrad.cat(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """The parts' log-Jacobians, concatenated (or summed if ``dim`` is an event dim)."""
        _check_slices(self.dim, x, self.length, "x", "x", f"length {self.length}")
        _check_slices(self.dim, y, self.length, "y", "y", f"length {self.length}")
        terms = []
        for t, xs, ys in zip(self.transforms, self._slices(x), self._slices(y)):
            term = t.log_abs_det_jacobian(xs, ys)
            if t.event_dim < self.event_dim:
                term = sum_rightmost(term, self.event_dim - t.event_dim)
            terms.append(term)
        dim = self.dim - x.dim() if self.dim >= 0 else self.dim
        dim = dim + self.event_dim
        return minigrad.cat(terms, dim=dim) if dim < 0 else sum(terms)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        """Whether every part is."""
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The parts' domains, concatenated."""
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The parts' codomains, concatenated."""
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """Transforms ``tseq`` on the successive entries along ``dim``, as ``stack``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions.transforms import (
        ...     ExpTransform, StackTransform, identity_transform)
        >>> StackTransform([ExpTransform(), identity_transform], 1)(minigrad.zeros(1, 2))
        tensor([[1., 0.]])
    """

    def __init__(self, tseq: Any, dim: int = 0, cache_size: int = 0) -> None:
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The same with a cache of ``cache_size``."""
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z: Any) -> list[Any]:
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _expected(self) -> str:
        return f"len(transforms) {len(self.transforms)}"

    def _call(self, x: Any) -> Any:
        _check_slices(self.dim, x, len(self.transforms), "x", "tensor", self._expected())
        return minigrad.stack([t(s) for s, t in zip(self._slice(x), self.transforms)], self.dim)

    def _inverse(self, y: Any) -> Any:
        _check_slices(self.dim, y, len(self.transforms), "y", "tensor", self._expected())
        parts = [t.inv(s) for s, t in zip(self._slice(y), self.transforms)]
        return minigrad.stack(parts, self.dim)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        """The parts' log-Jacobians, stacked."""
        _check_slices(self.dim, x, len(self.transforms), "x", "x", self._expected())
        _check_slices(self.dim, y, len(self.transforms), "y", "y", self._expected())
        terms = [
            t.log_abs_det_jacobian(xs, ys)
            for xs, ys, t in zip(self._slice(x), self._slice(y), self.transforms)
        ]
        return minigrad.stack(terms, dim=self.dim)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        """Whether every part is."""
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The parts' domains, stacked."""
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The parts' codomains, stacked."""
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
