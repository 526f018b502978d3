"""The rest of minigrad.distributions side by side with torch.distributions (PyTorch 2.13).

Transforms, TransformedDistribution and the distributions built on them, the gamma family, the
discrete counts and the multivariate ones: the same parameters in both libraries, and what does
not depend on the random numbers compared (errors, reprs, shapes, values, dtypes, grad_fn
names, the gradients reaching the parameters, the shapes and dtypes of samples).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")


def dists(lib: Any) -> Any:
    return importlib.import_module(f"{lib.__name__}.distributions")


def _same_value(mine: Any, theirs: Any, where: str, atol: float = 1e-6) -> None:
    """Tensors: dtype, grad_fn name and values; anything else: its repr (torch -> minigrad)."""
    if isinstance(theirs, torch.Tensor):
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1], where
        assert (mine.grad_fn and mine.grad_fn.name()) == (
            theirs.grad_fn and theirs.grad_fn.name()
        ), where
        np.testing.assert_allclose(
            mine.detach().numpy(),
            theirs.detach().numpy(),
            rtol=2e-5,
            atol=atol,
            equal_nan=True,
            err_msg=where,
        )
    else:
        assert repr(mine) == repr(theirs).replace("torch", "minigrad"), where


def _compare(build: Callable[[Any], tuple[list[Any], list[Any]]], atol: float = 1e-6) -> None:
    """``build(lib)`` gives (results, parameters): compare the results, then the gradients of
    a weighted sum of the finite floating ones."""
    mine, my_params = build(minigrad)
    theirs, their_params = build(torch)
    assert len(mine) == len(theirs)
    for index, (m, t) in enumerate(zip(mine, theirs)):
        _same_value(m, t, str(index), atol)
    for lib, results in ((minigrad, mine), (torch, theirs)):
        floats = [
            r
            for r in results
            if isinstance(r, lib.Tensor)
            and r.dtype.is_floating_point
            and r.requires_grad
            and r.isfinite().all()
        ]
        lib.stack([(r * (i + 1)).sum() for i, r in enumerate(floats)]).sum().backward()
    for m, t in zip(my_params, their_params):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-6)


def _everything(
    d: Any, value: Any, prob: Any, sample_shape: tuple[int, ...] = (3,), cdf_has_grad: bool = True
) -> list[Any]:
    """What a distribution computes: log_prob, entropy, moments, cdf/icdf, shapes, reprs.

    ``cdf_has_grad=False``: the CDF has no derivative in the parameters (igamma's in PyTorch):
    its node's name is compared, its value without history.
    """

    def outcome(compute: Callable[[], Any]) -> Any:
        found, error = run(compute)
        return type(error).__name__ if error else found

    results = [
        d.log_prob(value),
        d.batch_shape,
        d.event_shape,
        repr(d),
        repr(d.support),
        d.has_rsample,
        outcome(lambda: d.sample(sample_shape).shape),
        outcome(lambda: d.sample(sample_shape).dtype),
    ]
    for name in ("entropy", "cdf", "icdf"):
        argument = {"entropy": (), "cdf": (value,), "icdf": (prob,)}[name]
        found = outcome(lambda name=name, argument=argument: getattr(d, name)(*argument))
        if (
            name == "cdf"
            and not cdf_has_grad
            and isinstance(found, (minigrad.Tensor, torch.Tensor))
        ):
            results.append(found.grad_fn and found.grad_fn.name())
            found = found.detach()
        results.append(found)
    for name in ("mean", "variance", "stddev", "mode"):
        results.append(outcome(lambda name=name: getattr(d, name)))
    if d.has_rsample:
        results.append(d.rsample(sample_shape).shape)
    expanded = d.expand((2,) + tuple(d.batch_shape))
    results += [expanded.batch_shape, outcome(lambda: expanded.log_prob(value).shape)]
    return results


# --- transforms -------------------------------------------------------------------------------


def _transforms(lib: Any) -> tuple[list[Any], list[Any]]:
    T, t = dists(lib).transforms, lib.tensor
    x = t([[0.3, -1.2, 0.5], [1.0, 2.0, -0.5]], requires_grad=True)
    loc = t([1.0, 2.0, 3.0], requires_grad=True)
    scale = t([0.5, -1.0, 2.0], requires_grad=True)
    exponent = t(2.5, requires_grad=True)
    cases = [
        T.ExpTransform(),
        T.AffineTransform(1.0, -2.0),
        T.AffineTransform(loc, scale, event_dim=1),
        T.AffineTransform(loc, scale),
        T.SigmoidTransform(),
        T.TanhTransform(),
        T.SoftplusTransform(),
        T.PowerTransform(exponent),
        T.AbsTransform(),
        T.SoftmaxTransform(),
        T.StickBreakingTransform(),
        T.IndependentTransform(T.SigmoidTransform(), 1),
        T.ReshapeTransform((3,), (3, 1)),
        T.identity_transform,
        T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)]),
        T.ComposeTransform([T.AffineTransform(loc, 2.0), T.StickBreakingTransform()]),
        T.ExpTransform().inv,
        T.ComposeTransform([T.SigmoidTransform()]).inv,
        T.ExpTransform().with_cache(),
        T.LowerCholeskyTransform(),
        T.PositiveDefiniteTransform(),
        T.CorrCholeskyTransform(),
        T.CumulativeDistributionTransform(dists(lib).Normal(0.5, 2.0)),
        T.CatTransform([T.ExpTransform(), T.identity_transform], 1, [1, 2]),
        T.CatTransform([T.SigmoidTransform(), T.AffineTransform(1.0, 2.0)], 0, [1, 1]),
        T.CatTransform([T.SigmoidTransform(), T.ExpTransform()], -1, [2, 1]),
        T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], 0),
        T.StackTransform([T.ExpTransform(), T.TanhTransform(), T.AbsTransform()], -1),
    ]
    results: list[Any] = []
    for transform in cases:
        source = x.exp() if isinstance(transform, T.PowerTransform) else x
        if repr(transform).startswith("_InverseTransform"):
            source = source.sigmoid()
        if isinstance(transform, (T.LowerCholeskyTransform, T.PositiveDefiniteTransform)):
            source = x[:, :2]
        y = transform(source)
        results += [
            repr(transform),
            y,
            transform.forward_shape(source.shape),
            repr(transform.domain),
            repr(transform.codomain),
            transform.bijective,
        ]
        if not isinstance(
            transform,
            (
                T.AbsTransform,
                T.SoftmaxTransform,
                T.LowerCholeskyTransform,
                T.PositiveDefiniteTransform,
            ),
        ):
            results.append(transform.inv(y))
        if transform.bijective:
            results.append(transform.log_abs_det_jacobian(source, y))
        results.append(transform.inverse_shape(y.shape))
    return results, [x, loc, scale, exponent]


def test_transforms_are_pytorchs() -> None:
    _compare(_transforms)


def test_cached_transforms_invert_to_the_same_tensor() -> None:
    T = dists(minigrad).transforms
    for transform in (T.ExpTransform(cache_size=1), T.SigmoidTransform().with_cache()):
        x = minigrad.tensor([0.5, 2.0])
        assert transform.inv(transform(x)) is x
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        T.ExpTransform(cache_size=2)


def _registries(lib: Any) -> list[Any]:
    D = dists(lib)
    C = D.constraints
    found = []
    for constraint in (
        C.real,
        C.positive,
        C.nonnegative,
        C.greater_than(1.0),
        C.greater_than_eq(2.0),
        C.less_than(1.0),
        C.unit_interval,
        C.interval(-1.0, 2.0),
        C.half_open_interval(0.0, 2.0),
        C.simplex,
        C.independent(C.positive, 1),
        C.lower_cholesky,
        C.real_vector,
        C.corr_cholesky,
        C.positive_definite,
        C.positive_semidefinite,
        C.cat([C.real, C.positive], 1, [1, 1]),
        C.stack([C.unit_interval, C.greater_than(1.0)], 0),
    ):
        for registry in (D.biject_to, D.transform_to):
            transform, error = run(
                lambda registry=registry, constraint=constraint: registry(constraint)
            )
            found.append(repr(error) if error else repr(transform))
            if transform is not None and constraint.event_dim < 2:
                y = transform(lib.tensor([[0.5, -1.0], [2.0, 0.0]]))
                found.append(bool(constraint.check(y).all()))
    return found


def test_biject_to_and_transform_to_are_pytorchs() -> None:
    mine, theirs = _registries(minigrad), _registries(torch)
    assert [repr(m) for m in mine] == [repr(t).replace("torch", "minigrad") for t in theirs]


# --- distributions built on transforms --------------------------------------------------------


def _transformed(lib: Any) -> tuple[list[Any], list[Any]]:
    D, T, t = dists(lib), dists(lib).transforms, lib.tensor
    loc = t([0.3, -1.2], requires_grad=True)
    scale = t([0.7, 1.9], requires_grad=True)
    value, prob = t([0.5, 2.1]), t([0.2, 0.7])
    cases = [
        D.LogNormal(loc, scale),
        D.Gumbel(loc, scale),
        D.HalfNormal(scale),
        D.Cauchy(loc, scale),
        D.HalfCauchy(scale),
        D.Weibull(scale, scale + 1),
        D.Pareto(scale * 0.1, scale),
        D.LogNormal(0.0, 1.0),
        D.Gumbel(1.0, 2.0),
        D.TransformedDistribution(
            D.Normal(loc, scale), [T.AffineTransform(1.0, -2.0), T.ExpTransform()]
        ),
    ]
    results = [r for d in cases for r in _everything(d, value, prob)]
    temperature = t(0.7, requires_grad=True)
    probs = t([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], requires_grad=True)
    logits = t([[0.5, -1.0, 0.0], [2.0, 0.1, -0.3]], requires_grad=True)
    point = t([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    for d in (
        D.LogisticNormal(loc, scale),
        D.LogisticNormal(0.5, 1.5),
        D.RelaxedOneHotCategorical(temperature, probs),
        D.RelaxedOneHotCategorical(temperature, logits=logits),
    ):
        results += _everything(
            d,
            point[..., : d.event_shape[0]] / point[..., : d.event_shape[0]].sum(-1, keepdim=True),
            prob,
        )
    for d in (
        D.RelaxedBernoulli(temperature, probs[0]),
        D.RelaxedBernoulli(temperature, logits=logits[1]),
    ):
        results += _everything(d, t([0.2, 0.5, 0.9]), prob) + [d.probs, d.logits]
    results.append(
        dists(lib)
        .relaxed_bernoulli.LogitRelaxedBernoulli(temperature, 0.3)
        .log_prob(t([-1.0, 2.0]))
    )
    affine = D.TransformedDistribution(
        D.Normal(lib.zeros(2), 1.0), T.AffineTransform(loc, scale, event_dim=1)
    )
    results += [affine.batch_shape, affine.event_shape, affine.log_prob(value)]
    stick = D.TransformedDistribution(D.Normal(loc, scale), T.StickBreakingTransform())
    simplex_point = t([0.2, 0.3, 0.5])
    results += [
        stick.batch_shape,
        stick.event_shape,
        stick.log_prob(simplex_point),
        stick.sample().shape,
    ]
    return results, [loc, scale, temperature, probs, logits]


def test_transformed_distributions_are_pytorchs() -> None:
    _compare(_transformed)


# --- errors and reprs -------------------------------------------------------------------------

CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "lognormal negative scale": lambda lib, D: D.LogNormal(0.0, lib.tensor([1.0, -1.0])),
    "halfnormal zero scale": lambda lib, D: D.HalfNormal(lib.tensor([0.0, 1.0])),
    "halfnormal negative value": lambda lib, D: D.HalfNormal(1.0).log_prob(lib.tensor(-1.0)),
    "halfcauchy number value": lambda lib, D: D.HalfCauchy(1.0).log_prob(2.0),
    "halfcauchy unchecked number": lambda lib, D: D.HalfCauchy(1.0, validate_args=False).log_prob(
        2.0
    ),
    "cauchy nan loc": lambda lib, D: D.Cauchy(float("nan"), 1.0),
    "gumbel negative scale": lambda lib, D: D.Gumbel(0.0, -1.0),
    "weibull zero concentration": lambda lib, D: D.Weibull(1.0, 0.0),
    "pareto value below scale": lambda lib, D: D.Pareto(2.0, 1.0).log_prob(lib.tensor(1.0)),
    "relaxed bernoulli neither": lambda lib, D: D.RelaxedBernoulli(lib.tensor(1.0)),
    "relaxed bernoulli probs": lambda lib, D: D.RelaxedBernoulli(lib.tensor(1.0), 1.5),
    "relaxed categorical probs": lambda lib, D: D.RelaxedOneHotCategorical(
        lib.tensor(1.0), lib.tensor([-0.5, 1.5])
    ),
    "relaxed categorical value": lambda lib, D: D.RelaxedOneHotCategorical(
        lib.tensor(1.0), lib.tensor([0.5, 0.5])
    ).log_prob(lib.tensor([0.5, 0.6])),
    "logistic normal value": lambda lib, D: D.LogisticNormal(0.0, 1.0).log_prob(
        lib.tensor([0.5, 0.6])
    ),
    "gamma zero rate": lambda lib, D: D.Gamma(1.0, lib.tensor([0.0, 1.0])),
    "gamma negative value": lambda lib, D: D.Gamma(1.0, 1.0).log_prob(lib.tensor(-1.0)),
    "chi2 negative df": lambda lib, D: D.Chi2(lib.tensor([-1.0])),
    "beta zero": lambda lib, D: D.Beta(0.0, 1.0),
    "beta value outside": lambda lib, D: D.Beta(1.0, 1.0).log_prob(lib.tensor(1.5)),
    "dirichlet 0-d": lambda lib, D: D.Dirichlet(lib.tensor(1.0)),
    "dirichlet negative": lambda lib, D: D.Dirichlet(lib.tensor([1.0, -1.0])),
    "dirichlet value off simplex": lambda lib, D: D.Dirichlet(lib.ones(2)).log_prob(
        lib.tensor([0.5, 0.6])
    ),
    "student negative df": lambda lib, D: D.StudentT(-1.0),
    "fisher negative df": lambda lib, D: D.FisherSnedecor(1.0, -2.0),
    "inverse gamma negative": lambda lib, D: D.InverseGamma(-1.0, 1.0),
    "poisson negative": lambda lib, D: D.Poisson(lib.tensor([-1.0, 1.0])),
    "poisson fractional value": lambda lib, D: D.Poisson(1.0).log_prob(lib.tensor(0.5)),
    "binomial fractional count": lambda lib, D: D.Binomial(lib.tensor(2.5), lib.tensor(0.5)),
    "binomial value above count": lambda lib, D: D.Binomial(2, lib.tensor(0.5)).log_prob(
        lib.tensor(3.0)
    ),
    "binomial mixed entropy": lambda lib, D: D.Binomial(
        lib.tensor([2.0, 3.0]), lib.tensor(0.5)
    ).entropy(),
    "geometric zero probs": lambda lib, D: D.Geometric(lib.tensor([0.0, 0.5])),
    "negative binomial probs one": lambda lib, D: D.NegativeBinomial(2.0, lib.tensor(1.0)),
    "multinomial tensor count": lambda lib, D: D.Multinomial(lib.tensor(2), lib.ones(2)),
    "multinomial value above count": lambda lib, D: D.Multinomial(2, lib.ones(2)).log_prob(
        lib.tensor([2.0, 1.0])
    ),
    "one hot value": lambda lib, D: D.OneHotCategorical(lib.ones(3)).log_prob(
        lib.tensor([1.0, 1.0, 0.0])
    ),
    "one hot 0-d": lambda lib, D: D.OneHotCategorical(lib.tensor(1.0)),
    "mvn 0-d loc": lambda lib, D: D.MultivariateNormal(lib.tensor(0.0), lib.eye(1)),
    "mvn two matrices": lambda lib, D: D.MultivariateNormal(
        lib.zeros(2), lib.eye(2), scale_tril=lib.eye(2)
    ),
    "mvn 1-d covariance": lambda lib, D: D.MultivariateNormal(lib.zeros(2), lib.ones(2)),
    "mvn not positive definite": lambda lib, D: D.MultivariateNormal(
        lib.zeros(2), lib.tensor([[1.0, 2.0], [2.0, 1.0]])
    ),
    "mvn not lower": lambda lib, D: D.MultivariateNormal(
        lib.zeros(2), scale_tril=lib.tensor([[1.0, 2.0], [0.0, 1.0]])
    ),
    "mvn value shape": lambda lib, D: D.MultivariateNormal(lib.zeros(2), lib.eye(2)).log_prob(
        lib.zeros(3)
    ),
    "lowrank factor shape": lambda lib, D: D.LowRankMultivariateNormal(
        lib.zeros(2), lib.zeros(3, 1), lib.ones(2)
    ),
    "lowrank diag shape": lambda lib, D: D.LowRankMultivariateNormal(
        lib.zeros(2), lib.zeros(2, 1), lib.ones(3)
    ),
    "lowrank batches": lambda lib, D: D.LowRankMultivariateNormal(
        lib.zeros(2, 2), lib.zeros(3, 2, 1), lib.ones(2)
    ),
    "mixture not categorical": lambda lib, D: D.MixtureSameFamily(
        D.Normal(0.0, 1.0), D.Normal(lib.zeros(2), 1.0)
    ),
    "mixture not distribution": lambda lib, D: D.MixtureSameFamily(
        D.Categorical(lib.ones(2)), lib.zeros(2)
    ),
    "mixture counts differ": lambda lib, D: D.MixtureSameFamily(
        D.Categorical(lib.ones(3)), D.Normal(lib.zeros(2), 1.0)
    ),
    "mixture batches differ": lambda lib, D: D.MixtureSameFamily(
        D.Categorical(lib.ones(3, 2)), D.Normal(lib.zeros(4, 2), 1.0)
    ),
    "kl binomial more trials": lambda lib, D: D.kl_divergence(
        D.Binomial(2, lib.tensor(0.5)), D.Binomial(3, lib.tensor(0.5))
    ),
    "kl mvn event shapes": lambda lib, D: D.kl_divergence(
        D.MultivariateNormal(lib.zeros(2), lib.eye(2)),
        D.MultivariateNormal(lib.zeros(3), lib.eye(3)),
    ),
    "kl lowrank event shapes": lambda lib, D: D.kl_divergence(
        D.LowRankMultivariateNormal(lib.zeros(2), lib.ones(2, 1), lib.ones(2)),
        D.LowRankMultivariateNormal(lib.zeros(3), lib.ones(3, 1), lib.ones(3)),
    ),
    "kl transformed other transforms": lambda lib, D: D.kl_divergence(
        D.LogNormal(0.0, 1.0),
        D.TransformedDistribution(D.Normal(0.0, 1.0), D.transforms.SigmoidTransform()),
    ),
    "kl two exponential families": lambda lib, D: D.kl_divergence(
        D.Dirichlet(lib.ones(2)), D.Beta(1.0, 1.0)
    ),
    "lkj dim 1": lambda lib, D: D.LKJCholesky(1),
    "lkj negative": lambda lib, D: D.LKJCholesky(2, -1.0),
    "lkj not correlation": lambda lib, D: D.LKJCholesky(2).log_prob(lib.eye(2) * 2),
    "kumaraswamy zero": lambda lib, D: D.Kumaraswamy(0.0, 1.0),
    "continuous bernoulli checked probs": lambda lib, D: D.ContinuousBernoulli(
        lib.tensor(1.5), validate_args=True
    ),
    "continuous bernoulli neither": lambda lib, D: D.ContinuousBernoulli(),
    "wishart two matrices": lambda lib, D: D.Wishart(3.0, lib.eye(2), scale_tril=lib.eye(2)),
    "wishart df too low": lambda lib, D: D.Wishart(0.5, lib.eye(2)),
    "wishart 1-d": lambda lib, D: D.Wishart(3.0, lib.ones(2)),
    "wishart value": lambda lib, D: D.Wishart(3.0, lib.eye(2)).log_prob(
        lib.tensor([[1.0, 2.0], [2.0, 1.0]])
    ),
    "pareto negative alpha": lambda lib, D: D.Pareto(1.0, -1.0),
    "transformed bad list": lambda lib, D: D.TransformedDistribution(D.Normal(0.0, 1.0), [1]),
    "transformed bad type": lambda lib, D: D.TransformedDistribution(D.Normal(0.0, 1.0), 1),
    "transformed too few dims": lambda lib, D: D.TransformedDistribution(
        D.Normal(0.0, 1.0), D.transforms.StickBreakingTransform()
    ),
    "reshape numel": lambda lib, D: D.transforms.ReshapeTransform((2, 3), (5,)),
    "reshape shape": lambda lib, D: D.transforms.ReshapeTransform((2, 3), (6,)).forward_shape(
        (4, 3)
    ),
    "stick breaking 0-d": lambda lib, D: D.transforms.StickBreakingTransform().forward_shape(()),
    "transform event_dim": lambda lib, D: D.transforms.StickBreakingTransform().event_dim,
    "no transform to": lambda lib, D: D.biject_to(D.constraints.lower_cholesky),
    "dependent check": lambda lib, D: D.constraints.dependent.check(lib.zeros(1)),
    "dependent event_dim": lambda lib, D: D.constraints.dependent.event_dim,
    "dependent is_discrete": lambda lib, D: D.Binomial.support.is_discrete,
    "corr cholesky shape": lambda lib, D: D.transforms.CorrCholeskyTransform().forward_shape((2,)),
    "corr cholesky not square": lambda lib, D: D.transforms.CorrCholeskyTransform().inverse_shape(
        (2, 3)
    ),
    "cat lengths": lambda lib, D: D.transforms.CatTransform(
        [D.transforms.ExpTransform()], 0, [1, 2]
    ),
    "cat wrong length": lambda lib, D: D.transforms.CatTransform(
        [D.transforms.ExpTransform()], 0, [2]
    )(lib.zeros(3)),
    "cat not transforms": lambda lib, D: D.transforms.CatTransform([1]),
    "stack wrong count": lambda lib, D: D.transforms.StackTransform(
        [D.transforms.ExpTransform()], 0
    )(lib.zeros(3)),
    "stack dim out of range": lambda lib, D: D.transforms.StackTransform(
        [D.transforms.ExpTransform()], 2
    )(lib.zeros(3)),
    "cat constraint lengths": lambda lib, D: D.constraints.cat([D.constraints.real], 0, [1, 2]),
    "tril vector size": lambda lib, D: D.transforms.CorrCholeskyTransform()(lib.zeros(2)),
    "constraints": lambda lib, D: [
        D.constraints.lower_cholesky,
        D.constraints.positive_definite,
        D.constraints.positive_semidefinite,
        D.constraints.lower_triangular,
        D.constraints.corr_cholesky,
        D.constraints.square,
        D.constraints.symmetric,
        D.constraints.dependent(event_dim=1),
        D.constraints.cat([D.constraints.real, D.constraints.positive], 1, [1, 2]),
        D.constraints.cat([D.constraints.real, D.constraints.simplex], 0, [1, 2]).event_dim,
        D.constraints.stack([D.constraints.real, D.constraints.simplex], -1).event_dim,
        D.constraints.cat([D.constraints.real, D.constraints.positive], 1, [1, 2]).check(
            lib.tensor([[-1.0, 2.0, 0.0], [1.0, 1.0, 1.0]])
        ),
        D.constraints.stack([D.constraints.real, D.constraints.positive], 0).check(
            lib.tensor([[-1.0], [0.0]])
        ),
        D.Binomial.support,
        D.Pareto.support,
        D.constraints.square.check(lib.ones(2, 2, 3)),
        D.constraints.symmetric.check(lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
        D.constraints.positive_semidefinite.check(lib.tensor([[1.0, 1.0], [1.0, 1.0]])),
        D.constraints.positive_semidefinite.check(lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
        D.constraints.lower_triangular.check(lib.tensor([[1.0, 0.0], [2.0, -3.0]])),
        D.constraints.corr_cholesky.check(lib.tensor([[1.0, 0.0], [0.6, 0.8]])),
        D.constraints.corr_cholesky.check(lib.tensor([[1.0, 0.0], [0.6, 0.7]])),
        D.constraints.real_vector,
        D.constraints.nonnegative_integer,
        D.constraints.positive_integer,
        D.constraints.half_open_interval(0.0, 1.0),
        D.constraints.dependent,
        D.constraints.lower_cholesky.check(lib.tensor([[1.0, 0.0], [2.0, 3.0]])),
        D.constraints.lower_cholesky.check(lib.tensor([[1.0, 1.0], [2.0, 3.0]])),
        D.constraints.positive_definite.check(lib.tensor([[2.0, 1.0], [1.0, 2.0]])),
        D.constraints.positive_definite.check(lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
        D.constraints.positive_definite.check(lib.tensor([[1.0, 2.0], [0.0, 1.0]])),
        D.constraints.nonnegative_integer.check(lib.tensor([0.0, 1.5, -1.0])),
        D.constraints.is_dependent(D.constraints.dependent),
        D.constraints.is_dependent(D.constraints.real),
    ],
}


@parametrize_in_one("name", list(CALLS))
def test_errors_and_reprs_are_pytorchs(name: str) -> None:
    mine, my_error = run(lambda: CALLS[name](minigrad, dists(minigrad)))
    theirs, their_error = run(lambda: CALLS[name](torch, dists(torch)))
    assert_same_outcome(my_error, their_error)
    if their_error is None:
        assert repr(mine) == repr(theirs).replace("torch", "minigrad")


# --- the gamma family -------------------------------------------------------------------------


def _gamma_family(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    concentration = t([0.7, 2.5], requires_grad=True)
    rate = t([1.5, 0.4], requires_grad=True)
    df = t([0.8, 1.5, 3.0, 6.0], requires_grad=True)
    alpha = t([[0.5, 2.0, 1.5], [3.0, 0.4, 0.9]], requires_grad=True)
    value, prob = t([0.5, 2.1]), t([0.2, 0.7])
    cases = [
        (D.Gamma(concentration, rate), value),
        (D.Gamma(2.0, 0.5), value),
        (D.Chi2(concentration), value),
        (D.InverseGamma(concentration + 2, rate), value),
        (D.Beta(concentration, rate), t([0.3, 0.9])),
        (D.Beta(0.5, 1.5), t([0.3, 0.9])),
        (D.Dirichlet(alpha), t([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])),
        (D.StudentT(df, t(0.5), t(2.0)), t([0.5, -1.0, 3.0, 0.0])),
        (D.StudentT(3.0), value),
        (D.FisherSnedecor(df, df.flip(0)), t([0.5, 1.0, 3.0, 0.1])),
        (D.FisherSnedecor(3.0, 5.0), value),
    ]
    results = [r for d, v in cases for r in _everything(d, v, prob, cdf_has_grad=False)]
    results += [
        D.Gamma(concentration, rate).log_prob(2.0),
        D.Chi2(concentration).df,
        D.Dirichlet(t([[0.5, 0.5], [2.0, 3.0]])).mode,
        D.Beta(concentration, rate).concentration1,
    ]
    return results, [concentration, rate, df, alpha]


def test_gamma_family_is_pytorchs() -> None:
    _compare(_gamma_family)


def test_standard_gamma_grad_is_pytorchs_and_the_cdfs() -> None:
    """The implicit gradient: against torch._standard_gamma_grad (PyTorch's approximation is
    good to ~1e-3) and against finite differences of the CDF (exact)."""
    from minigrad.ops.gamma_sampling import standard_gamma_grad

    rng = np.random.default_rng(0)
    for a in (0.1, 1.0, 4.0, 150.0):
        x = rng.standard_gamma(a, size=300) + 1e-30
        mine = standard_gamma_grad(a, x)
        theirs = torch._standard_gamma_grad(
            torch.full((300,), a, dtype=torch.float64), torch.tensor(x)
        ).numpy()
        np.testing.assert_allclose(mine, theirs, rtol=3e-3, atol=1e-10)
        # dx/da = -(dP/da) / p(x): P by torch.special.gammainc, p by torch's log_prob
        step = 1e-6 * a
        upper = torch.special.gammainc(torch.tensor(a + step, dtype=torch.float64), torch.tensor(x))
        lower = torch.special.gammainc(torch.tensor(a - step, dtype=torch.float64), torch.tensor(x))
        density = (
            torch.distributions.Gamma(torch.tensor(a, dtype=torch.float64), 1.0)
            .log_prob(torch.tensor(x))
            .exp()
        )
        numerical = (-(upper - lower) / (2 * step) / density).numpy()
        np.testing.assert_allclose(mine, numerical, rtol=1e-5, atol=1e-9)


def test_dirichlet_grad_is_pytorchs() -> None:
    from minigrad.ops.gamma_sampling import dirichlet_grad

    rng = np.random.default_rng(1)
    for a, b in ((0.3, 0.5), (2.0, 3.0), (10.0, 0.2), (0.1, 20.0), (50.0, 60.0)):
        x = np.clip(rng.beta(a, b, size=300), 1e-12, 1 - 1e-12)
        alpha, total = np.full_like(x, a), np.full_like(x, a + b)
        theirs = torch._dirichlet_grad(*(torch.tensor(v) for v in (x, alpha, total))).numpy()
        np.testing.assert_allclose(dirichlet_grad(x, alpha, total), theirs, rtol=3e-3, atol=1e-9)


def test_gamma_and_dirichlet_sample_nodes_are_pytorchs() -> None:
    from minigrad.ops.gamma_sampling import standard_gamma

    def nodes(lib: Any, gamma: Any) -> list[Any]:
        a = lib.tensor([[0.5, 2.0, 1.5]], dtype=lib.float64, requires_grad=True)
        x, y = gamma(a), dists(lib).Dirichlet(a).rsample((2,))
        saved = sorted(n for n in dir(x.grad_fn) if n.startswith("_saved_"))
        return [
            x.grad_fn.name(),
            x.dtype,
            x.shape,
            saved,
            y.grad_fn.name(),
            y.shape,
            y.dtype,
            np.allclose(y.detach().sum(-1).numpy(), 1.0),
        ]

    mine, theirs = nodes(minigrad, standard_gamma), nodes(torch, torch._standard_gamma)
    assert repr(mine) == repr(theirs).replace("torch", "minigrad")


def test_gamma_rsample_gradient_matches_pytorchs_on_the_same_draws() -> None:
    """Backward of the gamma draw itself: the same draws given to torch's formula."""
    from minigrad.ops.gamma_sampling import sample_dirichlet, standard_gamma

    minigrad.manual_seed(0)
    alpha = minigrad.tensor([0.3, 1.0, 5.0] * 50, dtype=minigrad.float64, requires_grad=True)
    x = standard_gamma(alpha)
    weights = minigrad.linspace(-1, 1, 150, dtype=minigrad.float64)
    (x * weights).sum().backward()
    theirs = torch._standard_gamma_grad(
        torch.tensor(alpha.detach().numpy()), torch.tensor(x.detach().numpy())
    )
    np.testing.assert_allclose(
        alpha.grad.numpy(), theirs.numpy() * weights.numpy(), rtol=3e-3, atol=1e-9
    )
    concentration = minigrad.tensor(
        [[0.5, 2.0, 1.5], [3.0, 0.4, 0.9]], dtype=minigrad.float64, requires_grad=True
    )
    y = sample_dirichlet(concentration)
    grad_output = minigrad.tensor([[1.0, -2.0, 0.5], [0.3, 0.0, 1.0]], dtype=minigrad.float64)
    (y * grad_output).sum().backward()
    their_y, their_c = (
        torch.tensor(y.detach().numpy()),
        torch.tensor(concentration.detach().numpy()),
    )
    their_go = torch.tensor(grad_output.numpy())
    total = their_c.sum(-1, True).expand_as(their_c)
    expected = torch._dirichlet_grad(their_y, their_c, total) * (
        their_go - (their_y * their_go).sum(-1, True)
    )
    np.testing.assert_allclose(concentration.grad.numpy(), expected.numpy(), rtol=3e-3, atol=1e-9)


# --- counts and one-hot vectors ---------------------------------------------------------------


def _discrete(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    rate = t([0.5, 3.0], requires_grad=True)
    probs = t([0.3, 0.8], requires_grad=True)
    logits = t([-0.5, 1.2], requires_grad=True)
    weights = t([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], requires_grad=True)
    counts, prob = t([0.0, 2.0]), t([0.2, 0.7])
    one_hot = t([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    cases = [
        (D.Poisson(rate), counts),
        (D.Poisson(2.0), counts),
        (D.Binomial(5, probs), counts),
        (D.Binomial(t([3.0, 5.0]), logits=logits), counts),
        (D.Geometric(probs), counts),
        (D.Geometric(logits=logits), counts),
        (D.NegativeBinomial(t([2.0, 3.5]), probs), counts),
        (D.NegativeBinomial(2.0, logits=logits), counts),
        (D.OneHotCategorical(weights), one_hot),
        (D.OneHotCategorical(logits=weights.log()), one_hot),
        (D.OneHotCategoricalStraightThrough(weights), one_hot),
        (D.Multinomial(4, weights), t([[1.0, 2.0, 1.0], [0.0, 0.0, 4.0]])),
        (D.Multinomial(3, logits=weights.log()), t([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]])),
    ]
    results = [r for d, v in cases for r in _everything(d, v, prob)]
    results += [
        D.Binomial(5, probs).enumerate_support(),
        D.Binomial(2, probs).entropy(),
        D.Binomial(t([[2.0], [3.0]]), probs).log_prob(counts),
        D.OneHotCategorical(weights).enumerate_support(),
        D.OneHotCategorical(weights).enumerate_support(False),
        D.OneHotCategoricalStraightThrough(weights).rsample((2,)).grad_fn.name(),
        D.Multinomial(4, weights).sample((5,)).sum(-1),
    ]
    return results, [rate, probs, logits, weights]


def test_discrete_distributions_are_pytorchs() -> None:
    _compare(_discrete)


# --- Gaussian vectors -------------------------------------------------------------------------


def _gaussian_vectors(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    loc = t([[0.3, -1.2, 0.5], [1.0, 0.0, 2.0]], requires_grad=True)
    raw = t([[1.0, 0.2, -0.3], [0.5, 1.5, 0.1], [-0.4, 0.3, 0.8]], requires_grad=True)
    covariance = raw @ raw.mT + 0.5 * lib.eye(3)
    scale_tril = lib.linalg.cholesky(covariance)
    precision = lib.linalg.inv(covariance)
    factor = t([[[0.5, -1.0], [0.2, 0.3], [1.0, 0.0]]], requires_grad=True)
    diag = t([0.5, 1.5, 0.8], requires_grad=True)
    value = t([[[0.1, 0.2, 0.3], [1.0, -1.0, 0.0]], [[2.0, 0.0, -0.5], [0.4, 0.4, 0.4]]])
    cases = [
        D.MultivariateNormal(loc, covariance),
        D.MultivariateNormal(loc, scale_tril=scale_tril),
        D.MultivariateNormal(loc[0], precision_matrix=precision),
        D.MultivariateNormal(loc, scale_tril=scale_tril.expand(2, 3, 3)),
        D.LowRankMultivariateNormal(loc, factor, diag),
        D.LowRankMultivariateNormal(loc[1], factor[0], diag),
    ]
    results = [r for d in cases for r in _everything(d, value, None)]
    for d in cases:
        results += [d.covariance_matrix, d.precision_matrix, d.scale_tril]
    return results, [loc, raw, factor, diag]


def test_gaussian_vectors_are_pytorchs() -> None:
    _compare(_gaussian_vectors)


# --- mixtures ---------------------------------------------------------------------------------


def _mixtures(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    weights = t([[1.0, 2.0, 3.0], [0.5, 0.5, 1.0]], requires_grad=True)
    loc = t([[-1.0, 0.0, 2.0], [0.5, 1.5, -0.5]], requires_grad=True)
    scale = t([0.5, 1.0, 2.0], requires_grad=True)
    mixture = D.MixtureSameFamily(D.Categorical(weights), D.Normal(loc, scale))
    shared = D.MixtureSameFamily(D.Categorical(weights[0]), D.Normal(loc, scale))
    vectors = D.MixtureSameFamily(
        D.Categorical(weights[0]), D.Independent(D.Normal(loc.mT, scale.unsqueeze(-1)), 1)
    )
    results = _everything(mixture, t([0.3, -2.0]), None)
    results += _everything(shared, t([[0.3], [1.0]]), None)
    results += _everything(vectors, t([0.3, -2.0]), None)
    results += [
        repr(mixture.support),
        mixture.mixture_distribution.probs,
        mixture.component_distribution.mean,
    ]
    return results, [weights, loc, scale]


def test_mixtures_are_pytorchs() -> None:
    _compare(_mixtures)


# --- KL divergences ---------------------------------------------------------------------------


def _kl_values(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    a = t([0.7, 2.5], requires_grad=True)
    b = t([1.5, 0.4], requires_grad=True)
    loc = t([[0.3, -1.2], [1.0, 0.5]], requires_grad=True)
    raw = t([[1.0, 0.2], [0.5, 1.5]], requires_grad=True)
    cov = raw @ raw.mT + 0.3 * lib.eye(2)
    factor = t([[0.5], [-1.0]], requires_grad=True)
    w = t([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], requires_grad=True)
    families = {
        "Normal": D.Normal(a - 1, b),
        "Exponential": D.Exponential(b),
        "Gamma": D.Gamma(a, b),
        "Beta": D.Beta(a, b),
        "Uniform": D.Uniform(a * 0.1, a + 1),
        "Gumbel": D.Gumbel(a, b),
        "Laplace": D.Laplace(a, b),
        "Pareto": D.Pareto(b, a + 1.5),
        "Poisson": D.Poisson(a),
        "Bernoulli": D.Bernoulli(b / 2),
        "Binomial": D.Binomial(t([3.0, 3.0]), b / 2),
    }
    others = {
        "Normal": D.Normal(b, a),
        "Exponential": D.Exponential(a),
        "Gamma": D.Gamma(b, a),
        "Beta": D.Beta(b, a),
        "Uniform": D.Uniform(a * 0.05, a + 2),
        "Gumbel": D.Gumbel(b, a),
        "Laplace": D.Laplace(b, a),
        "Pareto": D.Pareto(b * 0.5, a),
        "Poisson": D.Poisson(b),
        "Bernoulli": D.Bernoulli(a / 3),
        "Binomial": D.Binomial(t([3.0, 2.0]), a / 3),
    }
    results = []
    for p_name, p in families.items():
        for q_name, q in others.items():
            found, error = run(lambda p=p, q=q: D.kl_divergence(p, q))
            results.append((p_name, q_name, type(error).__name__) if error else found)
    pairs = [
        (D.Dirichlet(w), D.Dirichlet(w.flip(-1))),
        (D.Cauchy(a, b), D.Cauchy(b, a)),
        (D.Geometric(b / 2), D.Geometric(a / 3)),
        (D.HalfNormal(a), D.HalfNormal(b)),
        (D.OneHotCategorical(w), D.OneHotCategorical(w.flip(0))),
        (D.LogNormal(a, b), D.LogNormal(b, a)),
        (D.Chi2(a), D.Gamma(b, a)),
        (
            D.MultivariateNormal(loc, cov),
            D.MultivariateNormal(loc.flip(0), scale_tril=raw.tril() + lib.eye(2)),
        ),
        (
            D.LowRankMultivariateNormal(loc, factor, b),
            D.LowRankMultivariateNormal(loc.flip(0), factor.flip(0), a),
        ),
        (D.MultivariateNormal(loc, cov), D.LowRankMultivariateNormal(loc.flip(0), factor, a)),
        (D.LowRankMultivariateNormal(loc, factor, b), D.MultivariateNormal(loc.flip(0), cov)),
        (D.Independent(D.Gamma(a, b), 1), D.Independent(D.Gamma(b, a), 1)),
    ]
    results += [D.kl_divergence(p, q) for p, q in pairs]
    return results, [a, b, loc, raw, factor, w]


def test_kl_divergences_are_pytorchs() -> None:
    _compare(_kl_values)


def _von_mises(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    loc = t([0.3, -2.0, 1.0], requires_grad=True)
    concentration = t([0.5, 4.0, 30.0], requires_grad=True)
    results = _everything(D.VonMises(loc, concentration), t([0.1, 3.0, -1.0]), None)
    results += _everything(D.VonMises(t(0.0), t(2.0)), t([0.1, 3.0, -1.0]), None)
    return results, [loc, concentration]


def test_von_mises_is_pytorchs() -> None:
    # (PyTorch's log I0 and I1 are polynomial fits good to ~1e-7 absolute; minigrad's are the
    # exponentially scaled Bessel functions, exact to float precision)
    _compare(_von_mises, atol=1e-5)


def _expanded_first_set(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    loc = t([0.3, -1.2], requires_grad=True)
    logits = t([[0.1, 2.0, -1.0], [0.5, 0.5, 0.0]], requires_grad=True)
    cases = [
        (D.Normal(loc, 1.0), t([0.5, 0.1])),
        (D.Uniform(loc, 2.0), t([0.5, 0.1])),
        (D.Exponential(loc.exp()), t([0.5, 0.1])),
        (D.Laplace(loc, 2.0), t([0.5, 0.1])),
        (D.Bernoulli(logits=loc), t([1.0, 0.0])),
        (D.Categorical(logits=logits), t([2, 0])),
        (D.Independent(D.Normal(logits, 1.0), 1), t([0.5, 0.1, 0.0])),
    ]
    results = []
    for d, value in cases:
        expanded = d.expand((4, 2))
        results += [
            expanded.batch_shape,
            expanded.event_shape,
            expanded.log_prob(value),
            expanded.sample().shape,
            repr(expanded),
        ]
    return results, [loc, logits]


def test_expand_of_the_first_set_is_pytorchs() -> None:
    _compare(_expanded_first_set)


def _kumaraswamy_and_lkj(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    c1 = t([0.7, 2.5], requires_grad=True)
    c0 = t([1.5, 3.0], requires_grad=True)
    concentration = t([0.5, 2.0], requires_grad=True)
    results = _everything(D.Kumaraswamy(c1, c0), t([0.3, 0.9]), t([0.2, 0.7]))
    factor = t([[[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]]])
    results += _everything(D.LKJCholesky(3, concentration), factor, None)
    results += _everything(D.LKJCholesky(2), t([[1.0, 0.0], [0.28, 0.96]]), None)
    return results, [c1, c0, concentration]


def test_kumaraswamy_and_lkj_cholesky_are_pytorchs() -> None:
    _compare(_kumaraswamy_and_lkj)


def _continuous_bernoulli(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    probs = t([0.2, 0.4995, 0.9], requires_grad=True)
    logits = t([-1.0, 0.001, 2.0], requires_grad=True)
    value, prob = t([0.3, 0.5, 0.95]), t([0.2, 0.7, 0.5])
    results = _everything(D.ContinuousBernoulli(probs), value, prob)
    results += _everything(D.ContinuousBernoulli(logits=logits), value, prob)
    p, q = D.ContinuousBernoulli(probs), D.ContinuousBernoulli(logits=logits)
    others = [
        D.Beta(probs + 1, 2.0),
        D.Exponential(probs + 0.5),
        D.Normal(logits, 2.0),
        D.Uniform(t([0.0, -1.0, 0.2]), 2.0),
        D.Pareto(probs + 1, 2.0),
    ]
    for other in others:
        results += [
            run(lambda other=other: D.kl_divergence(p, other))[0],
            run(lambda other=other: D.kl_divergence(other, q))[0],
        ]
    results.append(D.kl_divergence(p, q))
    return results, [probs, logits]


def test_continuous_bernoulli_is_pytorchs() -> None:
    _compare(_continuous_bernoulli)


def _generalized_pareto(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    loc = t([0.3, -1.0, 0.0], requires_grad=True)
    scale = t([0.7, 2.0, 1.0], requires_grad=True)
    concentration = t([0.3, 0.0, -0.2], requires_grad=True)
    d = D.GeneralizedPareto(loc, scale, concentration)
    value, prob = t([0.5, 2.0, 1.0]), t([0.2, 0.7, 0.5])
    results = _everything(d, value, prob)
    results += [d.log_survival_function(value), d.log_cdf(value)]
    results += _everything(D.GeneralizedPareto(0.0, 1.0, 0.8), value, prob)
    return results, [loc, scale, concentration]


def test_generalized_pareto_is_pytorchs() -> None:
    _compare(_generalized_pareto)


def _wishart(lib: Any) -> tuple[list[Any], list[Any]]:
    D, t = dists(lib), lib.tensor
    df = t([3.0, 5.0], requires_grad=True)
    raw = t([[1.0, 0.2], [0.5, 1.5]], requires_grad=True)
    covariance = raw @ raw.mT + 0.3 * lib.eye(2)
    value = t([[1.5, 0.2], [0.2, 0.8]])
    results = []
    for d in (
        D.Wishart(df, covariance),
        D.Wishart(df, scale_tril=lib.linalg.cholesky(covariance)),
        D.Wishart(4.0, precision_matrix=lib.linalg.inv(covariance)),
    ):
        results += [
            d.log_prob(value),
            d.entropy(),
            d.mean,
            d.variance,
            d.mode,
            d.batch_shape,
            d.event_shape,
            repr(d),
            d.covariance_matrix,
            d.precision_matrix,
            d.scale_tril,
            d.expand((3,) + tuple(d.batch_shape)).log_prob(value),
        ]
    return results, [df, raw]


def test_wishart_is_pytorchs() -> None:
    _compare(_wishart)


def test_wishart_samples_warn_as_pytorchs() -> None:
    """PyTorch's rsample flags the positive-definite draws as singular, warns and draws them
    again: minigrad does the same (shapes, dtypes, nodes and the warning)."""
    outcomes = []
    for lib in (minigrad, torch):
        df = lib.tensor([3.0, 5.0], requires_grad=True)
        d = dists(lib).Wishart(df, lib.eye(2))
        with pytest.warns(UserWarning, match="Singular sample detected."):
            sample = d.rsample((4,))
        outcomes.append(
            (tuple(sample.shape), str(sample.dtype).split(".")[1], sample.requires_grad)
        )
    assert outcomes[0] == outcomes[1]
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="Low df values detected"):
            dists(lib).Wishart(lib.tensor(2.5), lib.eye(3))


def test_standard_gamma_saves_what_pytorchs_saves() -> None:
    """Modifying the concentration or the draw after sampling: backward raises iff PyTorch's
    does (both are saved), with PyTorch's message."""
    from minigrad.ops.gamma_sampling import standard_gamma

    for which in ("input", "output", "neither"):
        outcomes = []
        for lib, gamma in ((minigrad, standard_gamma), (torch, torch._standard_gamma)):
            leaf = lib.tensor([0.5, 2.0], requires_grad=True)
            alpha = leaf * 1.0
            x = gamma(alpha)
            with lib.no_grad():
                if which == "input":
                    alpha.add_(1.0)
                elif which == "output":
                    x.mul_(2.0)
            outcomes.append(run(lambda x=x: x.sum().backward())[1])
        assert_same_outcome(*outcomes)


# --- expand on classes of one's own (PyTorch's base defines none) ----------------------------


def _own_classes(lib: Any) -> dict[str, Callable[[], Any]]:
    """Subclasses a user writes, and how to make one of each (batch shape (2,))."""
    D = dists(lib)

    class Mine(D.Distribution):
        arg_constraints = {"loc": D.constraints.real}  # (declared: still no expand)

        def __init__(self, loc: Any) -> None:
            self.loc = loc
            super().__init__(loc.shape, validate_args=False)

    class MineOfTheFamily(D.ExponentialFamily):
        arg_constraints: dict[str, Any] = {}

        def __init__(self, loc: Any) -> None:
            self.loc = loc
            super().__init__(loc.shape, validate_args=False)

    class MyNormal(D.Normal):
        def __init__(self, loc: Any) -> None:
            super().__init__(loc, lib.ones(loc.shape))

    class PlainNormal(D.Normal):
        pass

    class MyGumbel(D.Gumbel):
        def __init__(self, loc: Any) -> None:
            super().__init__(loc, lib.ones(loc.shape))

    class MyChi2(D.Chi2):
        def __init__(self, df: Any) -> None:
            super().__init__(df)

    loc = lib.zeros(2)
    return {
        "distribution": lambda: Mine(loc),
        "exponential_family": lambda: MineOfTheFamily(loc),
        "normal_with_init": lambda: MyNormal(loc),
        "normal_without_init": lambda: PlainNormal(loc, lib.ones(2)),
        "gumbel_with_init": lambda: MyGumbel(loc),
        "chi2_with_init": lambda: MyChi2(lib.ones(2)),
    }


@pytest.mark.parametrize("name", list(_own_classes(minigrad)))
def test_expand_of_a_class_of_ones_own_as_pytorch(name: str) -> None:
    outcomes = []
    for lib in (minigrad, torch):
        d = _own_classes(lib)[name]()
        try:
            expanded = d.expand((3, 2))
            outcomes.append(("ok", type(expanded).__name__, tuple(expanded.batch_shape)))
        except NotImplementedError as error:
            outcomes.append(("NotImplementedError", str(error)))
    assert outcomes[0] == outcomes[1]
