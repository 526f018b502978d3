"""``ExponentialFamily``: the base of Normal and Bernoulli (for KL's dispatch, as PyTorch's)."""

from __future__ import annotations

from minigrad.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution of the exponential family.

    minigrad registers the KL divergence of each pair of members it has directly; between two
    different members PyTorch's generic Bregman route refuses, and so does minigrad.
    """

    _defines_no_expand = True  # (as PyTorch's: a subclass of one's own must define expand)
