"""Constraints: what a distribution's parameters and values must satisfy (PyTorch's reprs).

``check(value)`` gives a bool tensor, True where ``value`` satisfies the constraint. The reprs
(``GreaterThan(lower_bound=0.0)``) appear in the validation errors, so they are PyTorch's.
"""

from __future__ import annotations

from typing import Any

import minigrad

__all__ = [
    "Constraint",
    "MixtureSameFamilyConstraint",
    "boolean",
    "cat",
    "corr_cholesky",
    "dependent",
    "dependent_property",
    "greater_than",
    "greater_than_eq",
    "half_open_interval",
    "independent",
    "integer_interval",
    "interval",
    "is_dependent",
    "less_than",
    "lower_cholesky",
    "lower_triangular",
    "multinomial",
    "nonnegative",
    "nonnegative_integer",
    "one_hot",
    "positive",
    "positive_definite",
    "positive_semidefinite",
    "positive_integer",
    "real",
    "real_vector",
    "simplex",
    "stack",
    "square",
    "symmetric",
    "unit_interval",
]


class Constraint:
    """A region of values; ``check`` tells which elements lie in it."""

    is_discrete = False  # continuous unless said otherwise
    event_dim = 0  # univariate: each element is checked on its own

    def check(self, value: Any) -> Any:
        """A bool tensor of ``value``'s shape: True where the constraint holds."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class Real(Constraint):
    """Any real number (NaN is not one)."""

    def check(self, value: Any) -> Any:
        """True where ``value`` is not NaN."""
        return value == value


class Boolean(Constraint):
    """The values 0 and 1."""

    is_discrete = True

    def check(self, value: Any) -> Any:
        """True where ``value`` is 0 or 1."""
        return (value == 0) | (value == 1)


class GreaterThan(Constraint):
    """Values above ``lower_bound`` (a number or a tensor)."""

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Any) -> Any:
        """True where ``value > lower_bound``."""
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class GreaterThanEq(Constraint):
    """Values at or above ``lower_bound`` (a number or a tensor)."""

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Any) -> Any:
        """True where ``value >= lower_bound``."""
        return self.lower_bound <= value

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class LessThan(Constraint):
    """Values below ``upper_bound`` (a number or a tensor)."""

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        """True where ``value < upper_bound``."""
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={self.upper_bound})"


class Interval(Constraint):
    """Values in the closed interval ``[lower_bound, upper_bound]``."""

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        """True where ``lower_bound <= value <= upper_bound``."""
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class IntegerInterval(Constraint):
    """Whole numbers in ``[lower_bound, upper_bound]``."""

    is_discrete = True

    def __init__(self, lower_bound: int, upper_bound: int) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        """True where ``value`` is whole and within the bounds."""
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class Simplex(Constraint):
    """Vectors (the last dim) of non-negative values summing to 1 (within 1e-6)."""

    event_dim = 1

    def check(self, value: Any) -> Any:
        """True for each vector on the simplex."""
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class HalfOpenInterval(Constraint):
    """Values in ``[lower_bound, upper_bound)``."""

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        """True where ``lower_bound <= value < upper_bound``."""
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self) -> str:
        return f"HalfOpenInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class IntegerGreaterThan(Constraint):
    """Whole numbers at or above ``lower_bound`` (counts: 0, 1, 2 ...)."""

    is_discrete = True

    def __init__(self, lower_bound: int) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Any) -> Any:
        """True where ``value`` is whole and at least ``lower_bound``."""
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self) -> str:
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"


class Dependent(Constraint):
    """A placeholder for a region that depends on other parameters: it cannot be checked.

    ``is_discrete`` and ``event_dim`` may be declared (``dependent(event_dim=1)``); otherwise
    asking for them raises.
    """

    def __init__(
        self, *, is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented
    ) -> None:
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        """As declared."""
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """As declared."""
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(
        self, *, is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented
    ) -> Dependent:
        """A placeholder with these static attributes."""
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, value: Any) -> Any:
        """Always raises: the region is not known on its own."""
        raise ValueError("Cannot determine validity of dependent constraint")


class DependentProperty(property, Dependent):
    """A property that reads as ``dependent`` on the class (a support computed from parameters).

    ``@constraints.dependent_property(is_discrete=False, event_dim=0)`` over ``def support``.
    """

    def __init__(
        self, fn: Any = None, *, is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented
    ) -> None:
        property.__init__(self, fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn: Any) -> DependentProperty:  # type: ignore[override]
        """The decorated function, with the declared static attributes."""
        return DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


def is_dependent(constraint: Any) -> bool:
    """Whether ``constraint`` is the ``dependent`` placeholder (skipped by validation)."""
    return isinstance(constraint, Dependent)


class LowerCholesky(Constraint):
    """Lower-triangular square matrices with a positive diagonal (Cholesky factors)."""

    event_dim = 2

    def check(self, value: Any) -> Any:
        """True for each matrix that is lower triangular with a positive diagonal."""
        lower = (value.tril() == value).reshape(*value.shape[:-2], -1).all(-1)
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)
        return lower & positive_diagonal


class LowerTriangular(Constraint):
    """Lower-triangular square matrices."""

    event_dim = 2

    def check(self, value: Any) -> Any:
        """True for each matrix equal to its lower triangle."""
        return (value.tril() == value).reshape(*value.shape[:-2], -1).all(-1)


class CorrCholesky(Constraint):
    """Cholesky factors of correlation matrices: rows of unit length, positive diagonal."""

    event_dim = 2

    def check(self, value: Any) -> Any:
        """True for each lower-Cholesky matrix whose rows have norm 1 (within 10 n eps)."""
        tol = minigrad.finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = minigrad.linalg.norm(value.detach(), dim=-1)
        unit_row_norm = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        return LowerCholesky().check(value) & unit_row_norm


class Square(Constraint):
    """Square matrices."""

    event_dim = 2

    def check(self, value: Any) -> Any:
        """True for each matrix (of the batch) if the last two dims are equal."""
        square = value.shape[-2] == value.shape[-1]
        return minigrad.full(value.shape[:-2], square, dtype=minigrad.bool)


class Symmetric(Square):
    """Symmetric square matrices (within 1e-6)."""

    def check(self, value: Any) -> Any:
        """True for each matrix equal to its transpose."""
        square = super().check(value)
        if not square.all():
            return square
        return minigrad.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class PositiveSemidefinite(Symmetric):
    """Symmetric matrices with no negative eigenvalue."""

    def check(self, value: Any) -> Any:
        """True for each symmetric matrix whose eigenvalues are all >= 0."""
        symmetric = super().check(value)
        if not symmetric.all():
            return symmetric
        return minigrad.linalg.eigvalsh(value).ge(0).all(-1)


class PositiveDefinite(Symmetric):
    """Symmetric matrices with a Cholesky factorisation."""

    def check(self, value: Any) -> Any:
        """True for each symmetric matrix that is positive definite."""
        symmetric = super().check(value)
        if not symmetric.all():
            return symmetric
        return minigrad.linalg.cholesky_ex(value).info.eq(0)


class OneHot(Constraint):
    """One-hot vectors (the last dim): zeros and a single one."""

    is_discrete = True
    event_dim = 1

    def check(self, value: Any) -> Any:
        """True for each vector of 0s and 1s that sums to 1."""
        is_boolean = (value == 0) | (value == 1)
        return is_boolean.all(-1) & value.sum(-1).eq(1)


class Multinomial(Constraint):
    """Count vectors (the last dim) of non-negative entries summing to at most ``upper_bound``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: int) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        """True for each vector of non-negative counts of total at most ``upper_bound``."""
        return (value >= 0).all(dim=-1) & (value.sum(dim=-1) <= self.upper_bound)


def _check_dim(dim: int, value: Any) -> None:
    if not (-value.dim() <= dim < value.dim()):
        raise AssertionError(f"dim {dim} out of range for value with {value.dim()} dimensions")


class Cat(Constraint):
    """Constraints ``cseq`` on consecutive slices (of ``lengths``) along ``dim``, as ``cat``."""

    def __init__(self, cseq: Any, dim: int = 0, lengths: Any = None) -> None:
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match cseq ({len(self.cseq)})"
            )
        self.dim = dim

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        """Whether any part is."""
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """The largest of the parts'."""
        return max(c.event_dim for c in self.cseq)

    def check(self, value: Any) -> Any:
        """Each slice checked by its constraint, the results concatenated."""
        _check_dim(self.dim, value)
        checks = []
        start = 0
        for constraint, length in zip(self.cseq, self.lengths):
            checks.append(constraint.check(value.narrow(self.dim, start, length)))
            start = start + length
        return minigrad.cat(checks, self.dim)


class Stack(Constraint):
    """Constraints ``cseq`` on the successive entries along ``dim``, as ``stack``."""

    def __init__(self, cseq: Any, dim: int = 0) -> None:
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.dim = dim

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        """Whether any part is."""
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """The largest of the parts', one more if ``dim`` falls among the event dims."""
        dim = max(c.event_dim for c in self.cseq)
        if self.dim + dim < 0:
            dim += 1
        return dim

    def check(self, value: Any) -> Any:
        """Each entry along ``dim`` checked by its constraint, the results stacked."""
        _check_dim(self.dim, value)
        entries = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return minigrad.stack([c.check(v) for v, c in zip(entries, self.cseq)], self.dim)


class MixtureSameFamilyConstraint(Constraint):
    """The components' support, checked with the component dim added back to the value."""

    def __init__(self, base_constraint: Constraint) -> None:
        self.base_constraint = base_constraint

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        """As the components' support."""
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """As the components' support."""
        return self.base_constraint.event_dim

    def check(self, value: Any) -> Any:
        """True where ``value`` lies in every component's support."""
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        kept = value.dim() - self.event_dim
        return result.reshape(result.shape[:kept] + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_constraint!r})"


class IndependentConstraint(Constraint):
    """``base_constraint`` over whole events: its last ``reinterpreted_batch_ndims`` dims at once.

    An event satisfies it if every element does.
    """

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        """As the base constraint."""
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """The base constraint's event dims plus the reinterpreted ones."""
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value: Any) -> Any:
        """True for each event whose elements all satisfy the base constraint."""
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        kept = result.shape[: result.dim() - self.reinterpreted_batch_ndims]
        return result.reshape(*kept, -1).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


# PyTorch's public names: instances for the fixed regions, classes for the parametrised ones.
real = Real()
dependent = Dependent()
dependent_property = DependentProperty
boolean = Boolean()
positive = GreaterThan(0.0)
nonnegative = GreaterThanEq(0.0)
unit_interval = Interval(0.0, 1.0)
simplex = Simplex()
independent = IndependentConstraint
greater_than = GreaterThan
greater_than_eq = GreaterThanEq
less_than = LessThan
interval = Interval
integer_interval = IntegerInterval
cat = Cat
stack = Stack
half_open_interval = HalfOpenInterval
nonnegative_integer = IntegerGreaterThan(0)
positive_integer = IntegerGreaterThan(1)
real_vector = IndependentConstraint(real, 1)
lower_cholesky = LowerCholesky()
positive_definite = PositiveDefinite()
positive_semidefinite = PositiveSemidefinite()
lower_triangular = LowerTriangular()
corr_cholesky = CorrCholesky()
square = Square()
symmetric = Symmetric()
one_hot = OneHot()
multinomial = Multinomial
