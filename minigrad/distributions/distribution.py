"""``Distribution``: the base class (shapes, argument validation, sampling without gradients)."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.utils import lazy_property

__all__ = ["Distribution"]


def _is_lazy(kind: type, name: str) -> bool:
    return isinstance(getattr(kind, name, None), lazy_property)


def _all_true(valid: Any) -> bool:
    return bool(valid.all()) if isinstance(valid, minigrad.Tensor) else bool(valid)


def _distribution_defining_expand(kind: type) -> type | None:
    """The class whose ``expand`` PyTorch would run for ``kind``: its nearest distribution.

    That is the first of minigrad's own classes in ``kind``'s MRO (PyTorch's distributions
    each define ``expand``), or None if that is a base class that defines none.
    """
    for klass in kind.__mro__:
        if klass.__module__.startswith("minigrad.distributions."):
            return None if klass.__dict__.get("_defines_no_expand") else klass
    return None


class Distribution:
    """A probability distribution with ``batch_shape`` independent members of ``event_shape``.

    Subclasses declare ``arg_constraints`` (what each parameter must satisfy) and ``support``;
    with validation on (the default, as PyTorch's under ``__debug__``) bad parameters and
    values outside the support raise PyTorch's ``ValueError``.
    """

    has_rsample = False
    has_enumerate_support = False
    # Whether PyTorch's class of this name defines no ``expand`` (its base classes): read from
    # each class's own namespace by ``_distribution_defining_expand``
    _defines_no_expand = True
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument validation on or off for distributions made from now on."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(
        self, batch_shape: Any = (), event_shape: Any = (), validate_args: bool | None = None
    ) -> None:
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for name, constraint in self.arg_constraints.items():
                if constraints.is_dependent(constraint) or (
                    name not in self.__dict__ and _is_lazy(type(self), name)
                ):
                    continue  # (a parameter computed only when asked: probs or logits)
                value = getattr(self, name)
                if not _all_true(constraint.check(value)):
                    raise ValueError(
                        f"Expected parameter {name} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}"
                    )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The same distribution with its parameters expanded (as views) to ``batch_shape``.

        Each parameter keeps its trailing (event) dims; nothing is copied, no validation runs.
        PyTorch's distributions each define ``expand``; minigrad's share this one, and a class
        of one's own gets what PyTorch gives it: ``NotImplementedError`` if it derives from
        ``Distribution`` or ``ExponentialFamily`` (which define none), PyTorch's message if it
        derives from a distribution but has its own ``__init__`` (``_get_checked_instance``).
        """
        if _instance is None:  # (a subclass's expand passes its checked instance)
            owner = _distribution_defining_expand(type(self))
            if owner is None:
                raise NotImplementedError
            _instance = self._get_checked_instance(owner)
        batch_shape = Size(batch_shape)
        new = _instance
        new.__dict__.update(self.__dict__)
        for name in self._expanded_names():
            value = self.__dict__[name]
            if isinstance(value, minigrad.Tensor):
                kept = value.shape[value.dim() - self._param_event_dims(value) :]
                new.__dict__[name] = value.expand(batch_shape + kept)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _get_checked_instance(self, cls: type, _instance: Any = None) -> Any:
        """PyTorch's helper for ``expand`` overrides: a fresh instance of this class.

        A subclass with its own ``__init__`` must define its own ``expand``.
        """
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {type(self).__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method."
            )
        return type(self).__new__(type(self)) if _instance is None else _instance

    def _expanded_names(self) -> list[str]:
        """The attributes ``expand`` expands: the parameters present (and a ``_param``)."""
        # this class's parameters, and its bases' (Chi2's df is Gamma's concentration and rate)
        declared = list(self.arg_constraints) + [
            n
            for kind in type(self).__mro__
            if isinstance(kind.__dict__.get("arg_constraints"), dict)
            for n in kind.__dict__["arg_constraints"]
        ]
        names = [n for n in dict.fromkeys(declared) if n in self.__dict__]
        return names + [n for n in ("_param",) if n in self.__dict__]

    def _param_event_dims(self, value: Any) -> int:
        """How many trailing dims of a parameter are not batch dims."""
        return value.dim() - len(self._batch_shape)

    @property
    def batch_shape(self) -> Size:
        """The shape over which the parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of one sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict[str, constraints.Constraint]:
        """The constraint each tensor parameter must satisfy."""
        raise NotImplementedError

    @property
    def support(self) -> constraints.Constraint:
        """The region the values lie in."""
        raise NotImplementedError

    @property
    def mean(self) -> Any:
        """The mean."""
        raise NotImplementedError

    @property
    def mode(self) -> Any:
        """The mode."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Any:
        """The variance."""
        raise NotImplementedError

    @property
    def stddev(self) -> Any:
        """The standard deviation: the variance's square root."""
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = ()) -> Any:
        """A sample of shape ``sample_shape + batch_shape + event_shape``, without gradients."""
        with minigrad.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A reparameterised sample: gradients flow to the parameters."""
        raise NotImplementedError

    def log_prob(self, value: Any) -> Any:
        """The log of the density (or mass) at ``value``."""
        raise NotImplementedError

    def cdf(self, value: Any) -> Any:
        """The cumulative distribution function at ``value``."""
        raise NotImplementedError

    def icdf(self, value: Any) -> Any:
        """The inverse of the cumulative distribution function at ``value``."""
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Any:
        """Every value of a discrete distribution's support, along dim 0."""
        raise NotImplementedError

    def entropy(self) -> Any:
        """The entropy, of shape ``batch_shape``."""
        raise NotImplementedError

    def perplexity(self) -> Any:
        """``exp(entropy)``."""
        return minigrad.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        """``sample_shape + batch_shape + event_shape``."""
        return Size(Size(sample_shape) + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Any) -> None:
        """PyTorch's checks of a value to score: a tensor, broadcastable, in the support."""
        if not isinstance(value, minigrad.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError(
                "The right-most size of value must match event_shape: "
                f"{value.size()} vs {self._event_shape}."
            )
        actual, expected = value.size(), self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{actual} vs {Size(expected)}."
                )
        support = self.support
        if not _all_true(support.check(value)):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}"
            )

    def __repr__(self) -> str:
        shown = []
        for name in self.arg_constraints:
            if name in self.__dict__:
                value = self.__dict__[name]
                shown.append(f"{name}: {value if value.numel() == 1 else value.size()}")
        return f"{type(self).__name__}({', '.join(shown)})"
