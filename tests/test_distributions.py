"""minigrad.distributions: draws follow their distributions, rsample passes gradients.

The numbers are minigrad's own (not PyTorch's), so the checks are of what any correct sampler
gives: moments of 20,000 seeded draws within a few standard errors, supports, and the gradients
of reparameterised samples. (tests_torch/test_distributions_torch.py compares everything that
does not depend on the random numbers with PyTorch.)
"""

import numpy as np
import pytest
from _backend import mg

D = pytest.importorskip(f"{mg.__name__}.distributions")
N = 20_000


def test_normal_draws_have_its_mean_and_standard_deviation():
    mg.manual_seed(0)
    draws = D.Normal(mg.tensor([2.0, -1.0]), mg.tensor([0.5, 3.0])).sample((N,)).numpy()
    assert draws.shape == (N, 2)
    np.testing.assert_allclose(draws.mean(0), [2.0, -1.0], atol=4 * 3.0 / np.sqrt(N))
    np.testing.assert_allclose(draws.std(0), [0.5, 3.0], rtol=0.03)


def test_bernoulli_and_categorical_draws_have_their_frequencies():
    mg.manual_seed(1)
    coins = D.Bernoulli(logits=mg.tensor([0.0, 2.0])).sample((N,)).numpy()
    assert set(np.unique(coins)) <= {0.0, 1.0}
    np.testing.assert_allclose(coins.mean(0), [0.5, 1 / (1 + np.exp(-2.0))], atol=0.015)
    classes = D.Categorical(probs=mg.tensor([1.0, 3.0, 0.0, 4.0])).sample((N,)).numpy()
    frequencies = np.bincount(classes, minlength=4) / N
    np.testing.assert_allclose(frequencies, [0.125, 0.375, 0.0, 0.5], atol=0.015)


def test_uniform_draws_stay_inside_and_spread_evenly():
    mg.manual_seed(2)
    draws = D.Uniform(mg.tensor(-1.0), mg.tensor(3.0)).sample((N,)).numpy()
    assert draws.min() >= -1.0 and draws.max() < 3.0
    np.testing.assert_allclose([draws.mean(), draws.var()], [1.0, 16 / 12], rtol=0.03, atol=0.03)


def test_rsample_passes_gradients_to_the_parameters():
    mg.manual_seed(3)
    loc = mg.tensor(1.0, requires_grad=True)
    scale = mg.tensor(2.0, requires_grad=True)
    draws = D.Normal(loc, scale).rsample((N,))
    # d mean(loc + eps * scale) / d loc = 1;  d / d scale = mean(eps) = (mean - loc) / scale
    draws.mean().backward()
    assert loc.grad.item() == pytest.approx(1.0)
    assert scale.grad.item() == pytest.approx((draws.mean().item() - 1.0) / 2.0, abs=1e-5)
    assert not D.Normal(loc, scale).sample().requires_grad
