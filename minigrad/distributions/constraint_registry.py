"""``biject_to`` and ``transform_to``: from unconstrained reals to a constraint's region.

``biject_to(c)`` gives a bijective transform onto ``c`` (what a sampler such as HMC needs);
``transform_to(c)`` any transform onto it (softmax for the simplex, fine for optimisation).
Both look the constraint's class up; ``register`` adds a factory for a class of constraints.

Example:
    >>> import minigrad
    >>> from minigrad.distributions import constraints, transform_to
    >>> transform_to(constraints.positive)(minigrad.tensor([0.0, 1.0]))
    tensor([1.0000, 2.7183])
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Number
from typing import Any

from minigrad.distributions import constraints
from minigrad.distributions import transforms as T

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]

Factory = Callable[[constraints.Constraint], T.Transform]


class ConstraintRegistry:
    """A table from classes of constraints to factories of transforms onto them."""

    def __init__(self) -> None:
        self._registry: dict[type, Factory] = {}

    def register(self, constraint: Any, factory: Factory | None = None) -> Any:
        """Registers ``factory`` for ``constraint``'s class (usable as a decorator)."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(
                "Expected constraint to be either a Constraint subclass or "
                f"instance, but got {constraint}"
            )
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint: constraints.Constraint) -> T.Transform:
        """The registered transform onto ``constraint``."""
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            # (PyTorch's constraint classes are private: _Simplex, _LowerCholesky ...)
            name = type(constraint).__name__
            raise NotImplementedError(f"Cannot transform _{name} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _both(constraint: Any) -> Callable[[Factory], Factory]:
    """Registers a factory in both registries."""

    def decorator(factory: Factory) -> Factory:
        biject_to.register(constraint, factory)
        transform_to.register(constraint, factory)
        return factory

    return decorator


def _is_number(value: Any, number: float) -> bool:
    return isinstance(value, Number) and value == number


@_both(constraints.real)
def _to_real(constraint: constraints.Constraint) -> T.Transform:
    return T.identity_transform


@biject_to.register(constraints.independent)
def _biject_to_independent(constraint: Any) -> T.Transform:
    base = biject_to(constraint.base_constraint)
    return T.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


@transform_to.register(constraints.independent)
def _transform_to_independent(constraint: Any) -> T.Transform:
    base = transform_to(constraint.base_constraint)
    return T.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


@_both(constraints.greater_than)
@_both(constraints.greater_than_eq)
def _to_greater_than(constraint: Any) -> T.Transform:
    return T.ComposeTransform([T.ExpTransform(), T.AffineTransform(constraint.lower_bound, 1)])


@_both(constraints.less_than)
def _to_less_than(constraint: Any) -> T.Transform:
    return T.ComposeTransform([T.ExpTransform(), T.AffineTransform(constraint.upper_bound, -1)])


@_both(constraints.interval)
@_both(constraints.half_open_interval)
def _to_interval(constraint: Any) -> T.Transform:
    if _is_number(constraint.lower_bound, 0) and _is_number(constraint.upper_bound, 1):
        return T.SigmoidTransform()
    width = constraint.upper_bound - constraint.lower_bound
    return T.ComposeTransform(
        [T.SigmoidTransform(), T.AffineTransform(constraint.lower_bound, width)]
    )


@biject_to.register(constraints.simplex)
def _biject_to_simplex(constraint: constraints.Constraint) -> T.Transform:
    return T.StickBreakingTransform()


@transform_to.register(constraints.simplex)
def _transform_to_simplex(constraint: constraints.Constraint) -> T.Transform:
    return T.SoftmaxTransform()


@transform_to.register(constraints.lower_cholesky)
def _transform_to_lower_cholesky(constraint: constraints.Constraint) -> T.Transform:
    return T.LowerCholeskyTransform()


@_both(constraints.corr_cholesky)
def _to_corr_cholesky(constraint: constraints.Constraint) -> T.Transform:
    return T.CorrCholeskyTransform()


@transform_to.register(constraints.positive_definite)
@transform_to.register(constraints.positive_semidefinite)
def _transform_to_positive_definite(constraint: constraints.Constraint) -> T.Transform:
    return T.PositiveDefiniteTransform()


@biject_to.register(constraints.cat)
def _biject_to_cat(constraint: Any) -> T.Transform:
    return T.CatTransform(
        [biject_to(c) for c in constraint.cseq], constraint.dim, constraint.lengths
    )


@transform_to.register(constraints.cat)
def _transform_to_cat(constraint: Any) -> T.Transform:
    return T.CatTransform(
        [transform_to(c) for c in constraint.cseq], constraint.dim, constraint.lengths
    )


@biject_to.register(constraints.stack)
def _biject_to_stack(constraint: Any) -> T.Transform:
    return T.StackTransform([biject_to(c) for c in constraint.cseq], constraint.dim)


@transform_to.register(constraints.stack)
def _transform_to_stack(constraint: Any) -> T.Transform:
    return T.StackTransform([transform_to(c) for c in constraint.cseq], constraint.dim)
