"""``VonMises(loc, concentration)``: the circular normal distribution on ``[-pi, pi)``."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad.distributions import constraints
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all, lazy_property

__all__ = ["VonMises"]


def _log_modified_bessel(x: Any, order: int = 0) -> Any:
    """``log I_order(x)`` for ``x > 0``, from the exponentially scaled Bessel functions.

    (PyTorch evaluates the polynomial fits of Abramowitz and Stegun 9.8; the scaled functions
    are exact to float precision and agree with them to ~1e-7.)
    """
    scaled = minigrad.special.i0e(x) if order == 0 else minigrad.special.i1e(x)
    return scaled.log() + x


def _rejection_sample(loc: Any, concentration: Any, proposal_r: Any, x: Any) -> Any:
    """Best and Fisher's (1979) wrapped-Cauchy rejection sampler, every element at once."""
    done = minigrad.zeros(x.shape, dtype=minigrad.bool)
    while not done.all():
        u1, u2, u3 = minigrad.rand((3,) + tuple(x.shape), dtype=loc.dtype).unbind()
        z = minigrad.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = (c * (2 - c) - u2 > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            x = minigrad.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """The von Mises distribution: angles around ``loc``, concentrated by ``concentration``.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import VonMises
        >>> VonMises(minigrad.tensor(0.0), minigrad.tensor(1.0)).log_prob(minigrad.tensor(0.0))
        tensor(-1.0738)
    """

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc: Any, concentration: Any, validate_args: bool | None = None) -> None:
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, (), validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """Expanded parameters (the sampler's cached values made again when asked)."""
        new = super().expand(batch_shape, _instance)
        for name in ("_loc", "_concentration", "_proposal_r", "variance"):
            new.__dict__.pop(name, None)
        return new

    def log_prob(self, value: Any) -> Any:
        """``concentration cos(value - loc) - log(2 pi) - log I0(concentration)``."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * minigrad.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel(self.concentration, order=0)

    @lazy_property
    def _loc(self) -> Any:
        return self.loc.to(minigrad.double)

    @lazy_property
    def _concentration(self) -> Any:
        return self.concentration.to(minigrad.double)

    @lazy_property
    def _proposal_r(self) -> Any:
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        proposal_r = (1 + rho**2) / (2 * rho)
        # (for tiny concentrations the formula cancels: its Taylor expansion instead)
        return minigrad.where(kappa < 1e-5, 1 / kappa + kappa, proposal_r)

    def sample(self, sample_shape: Any = ()) -> Any:
        """Angles in ``[-pi, pi)`` by rejection sampling (in float64, cast back)."""
        shape = self._extended_shape(sample_shape)
        with minigrad.no_grad():
            x = minigrad.empty(shape, dtype=self._loc.dtype)
            sample = _rejection_sample(self._loc, self._concentration, self._proposal_r, x)
            return sample.to(self.loc.dtype)

    @property
    def mean(self) -> Any:
        """``loc`` (the circular mean)."""
        return self.loc

    @property
    def mode(self) -> Any:
        """``loc``."""
        return self.loc

    @lazy_property
    def variance(self) -> Any:
        """The circular variance ``1 - I1(concentration) / I0(concentration)``."""
        log_ratio = _log_modified_bessel(self.concentration, order=1) - _log_modified_bessel(
            self.concentration, order=0
        )
        return 1 - log_ratio.exp()
