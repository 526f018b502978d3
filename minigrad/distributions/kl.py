"""``kl_divergence(p, q)`` and ``register_kl``: KL(p || q) by the pair of distribution types."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import minigrad
from minigrad.distributions.bernoulli import Bernoulli
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.exponential import Exponential
from minigrad.distributions.independent import Independent
from minigrad.distributions.laplace import Laplace
from minigrad.distributions.normal import Normal
from minigrad.distributions.uniform import Uniform
from minigrad.distributions.utils import sum_rightmost
from minigrad.nn.functional import softplus

__all__ = ["kl_divergence", "register_kl"]

_REGISTRY: dict[tuple[type, type], Callable[[Any, Any], Any]] = {}
_FOUND: dict[tuple[type, type], Any] = {}  # (the lookup of each pair of types, made once)


def register_kl(type_p: type, type_q: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the function computes KL(p || q) for ``p`` of ``type_p``, ``q`` of ``type_q``.

    The most specific registration (by the types' method resolution orders) applies.
    """
    for kind in (type_p, type_q):
        if not isinstance(kind, type) or not issubclass(kind, Distribution):
            name = "type_p" if kind is type_p else "type_q"
            raise TypeError(f"Expected {name} to be a Distribution subclass but got {kind}")

    def decorator(function: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTRY[type_p, type_q] = function
        _FOUND.clear()
        return function

    return decorator


def _lookup(type_p: type, type_q: type) -> Any:
    """The registered function of the closest pair of base types, or NotImplemented."""
    matches = [(p, q) for p, q in _REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return NotImplemented
    by_p = min(matches, key=lambda m: (type_p.__mro__.index(m[0]), type_q.__mro__.index(m[1])))
    by_q = min(matches, key=lambda m: (type_q.__mro__.index(m[1]), type_p.__mro__.index(m[0])))
    if by_p != by_q:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). Please register_kl"
            f"({by_p[0].__name__}, {by_q[1].__name__})",
            RuntimeWarning,
            stacklevel=3,
        )
    return _REGISTRY[by_p]


def kl_divergence(p: Distribution, q: Distribution) -> Any:
    """KL(p || q), batched over the distributions' batch shape.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Normal, kl_divergence
        >>> kl_divergence(Normal(0.0, 1.0), Normal(1.0, 1.0))
        tensor(0.5000)
    """
    key = (type(p), type(q))
    if key not in _FOUND:
        _FOUND[key] = _lookup(*key)
    function = _FOUND[key]
    if function is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{type(p).__name__} and q type {type(q).__name__}")
    return function(p, q)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Bernoulli, q: Bernoulli) -> Any:
    ones = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    ones[q.probs == 0] = math.inf
    ones[p.probs == 0] = 0
    zeros = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    zeros[q.probs == 1] = math.inf
    zeros[p.probs == 1] = 0
    return ones + zeros


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Categorical, q: Categorical) -> Any:
    terms = p.probs * (p.logits - q.logits)
    terms[(q.probs == 0).expand_as(terms)] = math.inf
    terms[(p.probs == 0).expand_as(terms)] = 0
    return terms.sum(-1)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: ExponentialFamily, q: ExponentialFamily) -> Any:
    # (PyTorch's generic route between members of one family; minigrad registers each of its
    # members' pairs directly, so only a mixed pair gets here, and PyTorch refuses it too)
    raise NotImplementedError(
        "The cross KL-divergence between different exponential families cannot "
        "                            be computed using Bregman divergences"
    )


@register_kl(Independent, Independent)
def _kl_independent_independent(p: Independent, q: Independent) -> Any:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Exponential, q: Exponential) -> Any:
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Laplace, q: Laplace) -> Any:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * minigrad.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(Normal, Normal)
def _kl_normal_normal(p: Normal, q: Normal) -> Any:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Normal, Uniform)
def _kl_normal_uniform(p: Normal, q: Uniform) -> Any:
    # (a normal puts mass outside every interval: infinite everywhere)
    return minigrad.full_like(p.loc, math.inf)


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p: Uniform, q: Normal) -> Any:
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t2 = width.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Uniform, q: Uniform) -> Any:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result
