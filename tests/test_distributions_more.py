"""More of minigrad.distributions: draws follow their laws, reparameterised gradients are right.

The numbers are minigrad's own (not PyTorch's), so the checks are of what any correct sampler
gives: moments or quantiles of 20,000 seeded draws within a few standard errors, supports,
and gradients of ``rsample`` whose expectation is known in closed form (the implicit
reparameterisation of the gamma and Dirichlet draws included).
"""

import math

import numpy as np
import pytest
from _backend import mg
from _cases import parametrize_in_one

D = pytest.importorskip(f"{mg.__name__}.distributions")
N = 20_000


@parametrize_in_one(
    "make, mean, variance",
    [
        (lambda: D.Gamma(mg.tensor([0.5, 3.0]), mg.tensor([2.0, 0.5])), [0.25, 6.0], [0.125, 12.0]),
        (lambda: D.Chi2(mg.tensor(4.0)), 4.0, 8.0),
        (
            lambda: D.Beta(mg.tensor([0.5, 2.0]), mg.tensor([0.5, 5.0])),
            [0.5, 2 / 7],
            [0.125, 10 / 392],
        ),
        (
            lambda: D.LogNormal(mg.tensor(0.2), mg.tensor(0.5)),
            math.exp(0.325),
            math.expm1(0.25) * math.exp(0.65),
        ),
        (
            lambda: D.Gumbel(mg.tensor(1.0), mg.tensor(2.0)),
            1 + 2 * 0.5772156649,
            math.pi**2 / 6 * 4,
        ),
        (lambda: D.HalfNormal(mg.tensor(2.0)), 2 * math.sqrt(2 / math.pi), 4 * (1 - 2 / math.pi)),
        (
            lambda: D.Weibull(mg.tensor(1.5), mg.tensor(2.0)),
            1.5 * math.gamma(1.5),
            2.25 * (1 - math.gamma(1.5) ** 2),
        ),
        (lambda: D.Pareto(mg.tensor(1.0), mg.tensor(5.0)), 1.25, 5 / (16 * 3)),
        (lambda: D.StudentT(mg.tensor(6.0), mg.tensor(1.0), mg.tensor(0.5)), 1.0, 0.25 * 1.5),
        (lambda: D.InverseGamma(mg.tensor(5.0), mg.tensor(2.0)), 0.5, 4 / (16 * 3)),
        (
            lambda: D.FisherSnedecor(mg.tensor(5.0), mg.tensor(10.0)),
            1.25,
            2 * 100 * 13 / (5 * 64 * 6),
        ),
        (lambda: D.Kumaraswamy(mg.tensor(2.0), mg.tensor(3.0)), 16 / 35, 0.25 - (16 / 35) ** 2),
        (
            lambda: D.ContinuousBernoulli(mg.tensor(0.8)),
            0.8 / 0.6 + 1 / math.log(0.2 / 0.8),
            -0.16 / 0.36 + 1 / math.log(0.25) ** 2,
        ),
        (
            lambda: D.GeneralizedPareto(mg.tensor(1.0), mg.tensor(2.0), mg.tensor([0.0, 0.2])),
            [3.0, 3.5],
            [4.0, 4 / (0.64 * 0.6)],
        ),
        (lambda: D.Poisson(mg.tensor([0.5, 7.0])), [0.5, 7.0], [0.5, 7.0]),
        (lambda: D.Binomial(10, mg.tensor([0.1, 0.5])), [1.0, 5.0], [0.9, 2.5]),
        (lambda: D.Geometric(mg.tensor(0.25)), 3.0, 12.0),
        (lambda: D.NegativeBinomial(mg.tensor(3.0), mg.tensor(0.4)), 2.0, 2.0 / 0.6),
        (lambda: D.Multinomial(5, mg.tensor([0.2, 0.8])), [1.0, 4.0], [0.8, 0.8]),
        (lambda: D.OneHotCategorical(mg.tensor([0.3, 0.7])), [0.3, 0.7], [0.21, 0.21]),
    ],
)
def test_draws_have_their_mean_and_variance(make, mean, variance):
    mg.manual_seed(0)
    d = make()
    draws = d.sample((N,)).double().numpy()
    assert draws.shape == (N, *d.batch_shape, *d.event_shape)
    assert np.all(d.support.check(mg.tensor(draws[:100]).to(d.mean.dtype)).numpy())
    standard_error = np.sqrt(np.asarray(variance) / N)
    assert np.all(np.abs(draws.mean(0) - mean) <= 5 * standard_error)
    np.testing.assert_allclose(draws.var(0), variance, rtol=0.1)


def test_dirichlet_draws_lie_on_the_simplex_with_its_moments():
    mg.manual_seed(1)
    alpha = mg.tensor([0.5, 2.0, 3.5])
    draws = D.Dirichlet(alpha).sample((N,)).numpy()
    np.testing.assert_allclose(draws.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(draws.mean(0), [0.5 / 6, 2 / 6, 3.5 / 6], atol=0.005)
    a = np.array([0.5, 2.0, 3.5])
    np.testing.assert_allclose(draws.var(0), a * (6 - a) / (36 * 7), rtol=0.06)


def test_cauchy_and_half_cauchy_draws_have_their_quartiles():
    mg.manual_seed(2)
    draws = D.Cauchy(mg.tensor(1.0), mg.tensor(2.0)).sample((N,)).numpy()
    np.testing.assert_allclose(np.quantile(draws, [0.25, 0.5, 0.75]), [-1.0, 1.0, 3.0], atol=0.1)
    halves = D.HalfCauchy(mg.tensor(2.0)).sample((N,)).numpy()
    assert halves.min() >= 0
    np.testing.assert_allclose(np.median(halves), 2.0, atol=0.1)


def test_relaxed_draws_stay_in_their_supports():
    mg.manual_seed(3)
    coins = D.RelaxedBernoulli(mg.tensor(0.1), probs=mg.tensor([0.2, 0.9])).sample((N,))
    coins = coins.numpy()
    assert coins.min() > 0 and coins.max() < 1
    # a cold relaxation is nearly a coin: the fraction above 1/2 is the probability
    np.testing.assert_allclose((coins > 0.5).mean(0), [0.2, 0.9], atol=0.015)
    hot = D.RelaxedOneHotCategorical(mg.tensor(0.1), mg.tensor([0.2, 0.3, 0.5])).sample((N,))
    hot = hot.numpy()
    np.testing.assert_allclose(hot.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(
        np.bincount(hot.argmax(-1), minlength=3) / N, [0.2, 0.3, 0.5], atol=0.015
    )
    simplex = D.LogisticNormal(mg.zeros(2), mg.ones(2)).sample((100,)).numpy()
    np.testing.assert_allclose(simplex.sum(-1), 1.0, rtol=1e-5)


def test_gamma_rsample_gradients_have_the_means_derivatives():
    """E[x] = concentration / rate: the average gradient of the draws is 1 / rate and
    -concentration / rate**2 (implicit reparameterisation of the gamma draw)."""
    mg.manual_seed(4)
    concentration = mg.tensor([0.3, 2.0, 9.0], dtype=mg.float64, requires_grad=True)
    rate = mg.tensor([1.0, 0.5, 3.0], dtype=mg.float64, requires_grad=True)
    D.Gamma(concentration, rate).rsample((N,)).mean(0).sum().backward()
    np.testing.assert_allclose(concentration.grad.numpy(), [1.0, 2.0, 1 / 3], rtol=0.04)
    np.testing.assert_allclose(rate.grad.numpy(), [-0.3, -8.0, -1.0], rtol=0.04)


def test_beta_and_dirichlet_rsample_gradients_have_the_means_derivatives():
    """E[x_i] = a_i / sum(a): d/da_j = (delta_ij sum(a) - a_i) / sum(a)**2."""
    mg.manual_seed(5)
    alpha = mg.tensor([0.5, 2.0, 1.5], dtype=mg.float64, requires_grad=True)
    weights = mg.tensor([1.0, -1.0, 2.0], dtype=mg.float64)
    (D.Dirichlet(alpha).rsample((N,)).mean(0) * weights).sum().backward()
    a = np.array([0.5, 2.0, 1.5])
    jacobian = (np.eye(3) * a.sum() - a[:, None]) / a.sum() ** 2
    np.testing.assert_allclose(alpha.grad.numpy(), weights.numpy() @ jacobian, atol=0.01)
    c1 = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    c0 = mg.tensor(3.0, dtype=mg.float64, requires_grad=True)
    D.Beta(c1, c0).rsample((N,)).mean().backward()
    np.testing.assert_allclose([c1.grad.item(), c0.grad.item()], [3 / 25, -2 / 25], atol=0.005)


def test_transformed_rsample_passes_gradients():
    mg.manual_seed(6)
    loc = mg.tensor(0.3, requires_grad=True)
    scale = mg.tensor(0.5, requires_grad=True)
    # E[exp(X)] = exp(loc + scale**2 / 2): d/dloc = the mean, d/dscale = scale * the mean
    D.LogNormal(loc, scale).rsample((N,)).mean().backward()
    mean = math.exp(0.3 + 0.125)
    np.testing.assert_allclose([loc.grad.item(), scale.grad.item()], [mean, 0.5 * mean], rtol=0.03)


def test_gaussian_vector_draws_have_their_covariance():
    mg.manual_seed(7)
    covariance = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    loc = mg.tensor([1.0, -1.0, 0.0])
    for d in (
        D.MultivariateNormal(loc, mg.tensor(covariance, dtype=mg.float32)),
        D.MultivariateNormal(
            loc, precision_matrix=mg.tensor(np.linalg.inv(covariance), dtype=mg.float32)
        ),
        D.LowRankMultivariateNormal(
            loc, mg.tensor([[1.0], [0.5], [-0.5]]), mg.tensor([1.0, 0.75, 0.25])
        ),
    ):
        draws = d.sample((N,)).double().numpy()
        expected = d.covariance_matrix.double().numpy()
        np.testing.assert_allclose(draws.mean(0), [1.0, -1.0, 0.0], atol=0.05)
        np.testing.assert_allclose(np.cov(draws.T), expected, atol=0.06)


def test_von_mises_draws_have_their_circular_moments():
    mg.manual_seed(8)
    d = D.VonMises(mg.tensor([0.5, -3.0]), mg.tensor([0.8, 10.0]))
    draws = d.sample((N,)).double().numpy()
    assert draws.min() >= -math.pi and draws.max() < math.pi
    # E[cos(x - loc)] = I1(k) / I0(k) = 1 - circular variance;  E[sin(x - loc)] = 0
    centred = draws - np.array([0.5, -3.0])
    np.testing.assert_allclose(np.cos(centred).mean(0), 1 - d.variance.double().numpy(), atol=0.01)
    np.testing.assert_allclose(np.sin(centred).mean(0), [0.0, 0.0], atol=0.015)


@pytest.mark.parametrize(
    "family, parameters, value",
    [
        ("LogNormal", ([0.3, -0.5], [0.7, 1.3]), [0.5, 2.0]),
        ("Gumbel", ([0.3, -0.5], [0.7, 1.3]), [0.5, 2.0]),
        ("Weibull", ([0.7, 1.3], [1.5, 0.8]), [0.5, 2.0]),
        ("Gamma", ([0.7, 2.5], [1.5, 0.4]), [0.5, 2.0]),
        ("Beta", ([0.7, 2.5], [1.5, 0.4]), [0.3, 0.9]),
        ("StudentT", ([2.5, 6.0], [0.3, -0.5], [0.7, 1.3]), [0.5, 2.0]),
        ("FisherSnedecor", ([2.5, 6.0], [3.0, 1.5]), [0.5, 2.0]),
        ("Dirichlet", ([[0.7, 2.5, 1.0]],), [[0.2, 0.3, 0.5]]),
        ("MultivariateNormal", ([0.3, -0.5], [[2.0, 0.3], [0.3, 1.0]]), [0.5, 2.0]),
    ],
)
def test_log_prob_and_entropy_pass_gradcheck(family, parameters, value):
    """Finite differences (float64) agree with the gradients of log_prob and entropy."""
    tensors = [mg.tensor(p, dtype=mg.float64, requires_grad=True) for p in parameters]
    point = mg.tensor(value, dtype=mg.float64)

    def scores(*params):
        if family == "MultivariateNormal":  # (a symmetric matrix from any square one)
            params = (params[0], (params[1] + params[1].mT) / 2)
        d = getattr(D, family)(*params)
        if family == "FisherSnedecor":  # (PyTorch gives it no entropy)
            return d.log_prob(point)
        return d.log_prob(point), d.entropy()

    assert mg.autograd.gradcheck(scores, tensors)


def test_lkj_cholesky_draws_are_correlation_factors():
    mg.manual_seed(9)
    factors = D.LKJCholesky(3, mg.tensor(1.0)).sample((N // 4,)).double().numpy()
    np.testing.assert_allclose(np.linalg.norm(factors, axis=-1), 1.0, rtol=1e-5)
    assert np.all(np.triu(factors, 1) == 0) and np.all(np.diagonal(factors, 0, -2, -1) > 0)
    # concentration 1 in dimension 3: each correlation is 2 Beta(3/2, 3/2) - 1, variance 1/4
    correlations = (factors @ np.swapaxes(factors, -1, -2))[:, 1, 0]
    np.testing.assert_allclose([correlations.mean(), correlations.var()], [0.0, 0.25], atol=0.015)


def test_wishart_draws_have_their_mean():
    mg.manual_seed(10)
    scale = np.array([[2.0, 0.3], [0.3, 1.0]])
    d = D.Wishart(mg.tensor(5.0), mg.tensor(scale, dtype=mg.float32))
    # (PyTorch's rsample warns about the positive-definite draws it redraws)
    with pytest.warns(UserWarning, match="Singular sample detected."):
        draws = d.sample((N // 4,)).double().numpy()
    assert np.all(np.linalg.eigvalsh(draws) > 0)
    np.testing.assert_allclose(draws.mean(0), 5 * scale, rtol=0.05, atol=0.05)
