"""``kl_divergence(p, q)`` and ``register_kl``: KL(p || q) by the pair of distribution types."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import minigrad
from minigrad.distributions.bernoulli import Bernoulli
from minigrad.distributions.beta import Beta
from minigrad.distributions.binomial import Binomial
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.cauchy import Cauchy
from minigrad.distributions.continuous_bernoulli import ContinuousBernoulli
from minigrad.distributions.dirichlet import Dirichlet
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.exponential import Exponential
from minigrad.distributions.gamma import Gamma
from minigrad.distributions.geometric import Geometric
from minigrad.distributions.gumbel import Gumbel
from minigrad.distributions.half_normal import HalfNormal
from minigrad.distributions.independent import Independent
from minigrad.distributions.laplace import Laplace
from minigrad.distributions.lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
)
from minigrad.distributions.multivariate_normal import MultivariateNormal, _batch_mahalanobis
from minigrad.distributions.normal import Normal
from minigrad.distributions.one_hot_categorical import OneHotCategorical
from minigrad.distributions.pareto import Pareto
from minigrad.distributions.poisson import Poisson
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.uniform import Uniform
from minigrad.distributions.utils import euler_constant, sum_rightmost
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
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type "
            f"{type(p).__name__} and q type {type(q).__name__}"
        )
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


# --- the families added with the transforms, the gamma family and the counts ----------------


def _batch_trace_xxt(bmat: Any) -> Any:
    """``trace(X X^T)`` (the squared Frobenius norm) of each matrix of ``bmat``."""
    n, m = bmat.size(-1), bmat.size(-2)
    return bmat.reshape(-1, m * n).pow(2).sum(-1).reshape(bmat.shape[:-2])


def _log_det_of_factor(scale_tril: Any) -> Any:
    """Half the log-determinant of ``L L^T``: ``sum(log diag L)``."""
    return scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)


def _same_event_shapes(p: Any, q: Any, what: str) -> None:
    if p.event_shape != q.event_shape:
        raise ValueError(
            f"KL-divergence between two {what} with                          different "
            "event shapes cannot be computed"
        )


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Beta, q: Beta) -> Any:
    sum_params_p = p.concentration1 + p.concentration0
    sum_params_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_params_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_params_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * minigrad.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * minigrad.digamma(p.concentration0)
    t5 = (sum_params_q - sum_params_p) * minigrad.digamma(sum_params_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p: Binomial, q: Binomial) -> Any:
    # (q's support must cover p's: more trials in q would need a sum over p's support)
    if (p.total_count < q.total_count).any():
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    inf_idxs = p.total_count > q.total_count
    kl[inf_idxs] = minigrad.full_like(kl[inf_idxs], math.inf)
    return kl


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p: Cauchy, q: Cauchy) -> Any:
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(
    p: ContinuousBernoulli, q: ContinuousBernoulli
) -> Any:
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + minigrad.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - minigrad.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Dirichlet, q: Dirichlet) -> Any:
    sum_p_concentration = p.concentration.sum(-1)
    sum_q_concentration = q.concentration.sum(-1)
    t1 = sum_p_concentration.lgamma() - sum_q_concentration.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p_concentration.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p: Gamma, q: Gamma) -> Any:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = minigrad.lgamma(q.concentration) - minigrad.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * minigrad.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p: Gumbel, q: Gumbel) -> Any:
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * euler_constant
    t3 = minigrad.exp(ct2 + (1 + ct1).lgamma() - ct3)
    return t1 + t2 + t3 - (1 + euler_constant)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Geometric, q: Geometric) -> Any:
    return -p.entropy() - minigrad.log1p(-q.probs) / p.probs - q.logits


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p: HalfNormal, q: HalfNormal) -> Any:
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p: LowRankMultivariateNormal, q: LowRankMultivariateNormal) -> Any:
    _same_event_shapes(p, q, "Low Rank Multivariate Normals")
    q_factor, q_diag = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    p_factor, p_diag = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag
    term1 = _batch_lowrank_logdet(q_factor, q_diag, q._capacitance_tril) - _batch_lowrank_logdet(
        p_factor, p_diag, p._capacitance_tril
    )
    term3 = _batch_lowrank_mahalanobis(q_factor, q_diag, q.loc - p.loc, q._capacitance_tril)
    # trace(q_cov^-1 p_cov) through Woodbury: A = C_q^-1 W_q^T D_q^-1
    a = minigrad.linalg.solve_triangular(
        q._capacitance_tril, q_factor.mT / q_diag.unsqueeze(-2), upper=False
    )
    term21 = (p_diag / q_diag).sum(-1)
    term22 = _batch_trace_xxt(p_factor * q_diag.rsqrt().unsqueeze(-1))
    term23 = _batch_trace_xxt(a * p_diag.sqrt().unsqueeze(-2))
    term24 = _batch_trace_xxt(a.matmul(p_factor))
    term2 = term21 + term22 - term23 - term24
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_mvn_lowrank(p: MultivariateNormal, q: LowRankMultivariateNormal) -> Any:
    _same_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    q_factor, q_diag = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    term1 = _batch_lowrank_logdet(q_factor, q_diag, q._capacitance_tril) - 2 * _log_det_of_factor(
        p._unbroadcasted_scale_tril
    )
    term3 = _batch_lowrank_mahalanobis(q_factor, q_diag, q.loc - p.loc, q._capacitance_tril)
    a = minigrad.linalg.solve_triangular(
        q._capacitance_tril, q_factor.mT / q_diag.unsqueeze(-2), upper=False
    )
    term21 = _batch_trace_xxt(p._unbroadcasted_scale_tril * q_diag.rsqrt().unsqueeze(-1))
    term22 = _batch_trace_xxt(a.matmul(p._unbroadcasted_scale_tril))
    return 0.5 * (term1 + term21 - term22 + term3 - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_mvn(p: LowRankMultivariateNormal, q: MultivariateNormal) -> Any:
    _same_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    p_factor, p_diag = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag
    term1 = 2 * _log_det_of_factor(q._unbroadcasted_scale_tril) - _batch_lowrank_logdet(
        p_factor, p_diag, p._capacitance_tril
    )
    term3 = _batch_mahalanobis(q._unbroadcasted_scale_tril, q.loc - p.loc)
    batch = minigrad.broadcast_shapes(q._unbroadcasted_scale_tril.shape[:-2], p_factor.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_cov_factor = p_factor.expand(batch + (n, p.cov_factor.size(-1)))
    p_cov_diag = minigrad.diag_embed(p_diag.sqrt()).expand(batch + (n, n))
    solve = minigrad.linalg.solve_triangular
    term21 = _batch_trace_xxt(solve(q_scale_tril, p_cov_factor, upper=False))
    term22 = _batch_trace_xxt(solve(q_scale_tril, p_cov_diag, upper=False))
    return 0.5 * (term1 + term21 + term22 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Any:
    _same_event_shapes(p, q, "Multivariate Normals")
    half_term1 = _log_det_of_factor(q._unbroadcasted_scale_tril) - _log_det_of_factor(
        p._unbroadcasted_scale_tril
    )
    batch = minigrad.broadcast_shapes(
        q._unbroadcasted_scale_tril.shape[:-2], p._unbroadcasted_scale_tril.shape[:-2]
    )
    n = p.event_shape[0]
    q_scale_tril = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_scale_tril = p._unbroadcasted_scale_tril.expand(batch + (n, n))
    term2 = _batch_trace_xxt(
        minigrad.linalg.solve_triangular(q_scale_tril, p_scale_tril, upper=False)
    )
    term3 = _batch_mahalanobis(q._unbroadcasted_scale_tril, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p: OneHotCategorical, q: OneHotCategorical) -> Any:
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p: Pareto, q: Pareto) -> Any:
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    t1 = q.alpha * scale_ratio.log()
    t2 = -alpha_ratio.log()
    result = t1 + t2 + alpha_ratio - 1
    result[p.support.lower_bound < q.support.lower_bound] = math.inf
    return result


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p: Poisson, q: Poisson) -> Any:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p: TransformedDistribution, q: TransformedDistribution) -> Any:
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)
