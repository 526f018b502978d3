"""``Dirichlet(concentration)``: probability vectors (points of the simplex)."""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.nn.functional import one_hot as _one_hot
from minigrad.ops.gamma_sampling import sample_dirichlet

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution of the vector ``concentration`` (last dim: the event).

    ``rsample`` passes gradients to the concentration through PyTorch's implicit
    reparameterisation (the ``_DirichletBackward`` node).

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Dirichlet
        >>> Dirichlet(minigrad.tensor([1.0, 1.0, 1.0])).log_prob(minigrad.tensor([0.2, 0.3, 0.5]))
        tensor(0.6931)
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Any, validate_args: bool | None = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(
            concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args
        )

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A draw (normalised gammas), differentiable in the concentration."""
        shape = self._extended_shape(sample_shape)
        return sample_dirichlet(self.concentration.expand(shape))

    def log_prob(self, value: Any) -> Any:
        """``sum(xlogy(c - 1, value)) + lgamma(sum c) - sum(lgamma(c))``."""
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return (
            minigrad.xlogy(c - 1.0, value).sum(-1)
            + minigrad.lgamma(c.sum(-1))
            - minigrad.lgamma(c).sum(-1)
        )

    @property
    def mean(self) -> Any:
        """``concentration / sum(concentration)``."""
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Any:
        """``(c - 1)+ / sum((c - 1)+)``; a corner where every ``c < 1``."""
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        corners = _one_hot(mode[mask].argmax(dim=-1), concentrationm1.shape[-1])
        mode[mask] = corners.to(mode)
        return mode

    @property
    def variance(self) -> Any:
        """``c (c0 - c) / (c0**2 (c0 + 1))`` with ``c0 = sum(c)``."""
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self) -> Any:
        """``sum(lgamma(c)) - lgamma(a0) - (k - a0) digamma(a0) - sum((c - 1) digamma(c))``."""
        c = self.concentration
        k = c.size(-1)
        a0 = c.sum(-1)
        return (
            minigrad.lgamma(c).sum(-1)
            - minigrad.lgamma(a0)
            - (k - a0) * minigrad.digamma(a0)
            - ((c - 1.0) * minigrad.digamma(c)).sum(-1)
        )

    @property
    def _natural_params(self) -> tuple[Any]:
        return (self.concentration,)

    def _log_normalizer(self, x: Any) -> Any:
        return x.lgamma().sum(-1) - minigrad.lgamma(x.sum(-1))
