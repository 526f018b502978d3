"""The random samplers draw from the distributions they name.

Expected values are the distributions' own moments (mean, variance, support); with a seeded
generator the draws are fixed, and 20,000 of them put each empirical mean within a few
standard errors of the true one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad

N = 20_000


def sample(method: str, *args: float, dtype: minigrad.dtype = minigrad.float64) -> np.ndarray:
    generator = minigrad.Generator().manual_seed(0)
    return getattr(minigrad.empty(N, dtype=dtype), method)(*args, generator=generator).numpy()


def assert_mean(values: np.ndarray, mean: float, variance: float) -> None:
    standard_error = math.sqrt(variance / values.size)
    assert abs(values.mean() - mean) < 5 * standard_error


@pytest.mark.parametrize(("method", "args", "mean", "variance"), [
    ("exponential_", (2.0,), 0.5, 0.25),
    ("geometric_", (0.25,), 4.0, 0.75 / 0.25**2),
    ("log_normal_", (0.0, 0.5), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    ("normal_", (1.0, 3.0), 1.0, 9.0),
    ("uniform_", (2.0, 4.0), 3.0, 4.0 / 12),
    ("bernoulli_", (0.3,), 0.3, 0.21),
    ("random_", (2, 6), 3.5, (4**2 - 1) / 12),
])
def test_fills_have_their_distributions_moments(method, args, mean, variance):
    assert_mean(sample(method, *args), mean, variance)


def test_cauchy_has_its_median_and_quartiles():
    values = sample("cauchy_", 1.0, 2.0)
    quartiles = np.quantile(values, [0.25, 0.5, 0.75])
    np.testing.assert_allclose(quartiles, [-1.0, 1.0, 3.0], atol=0.15)


def test_supports():
    assert set(np.unique(sample("random_", 3))) == {0, 1, 2}
    assert set(np.unique(sample("random_", dtype=minigrad.bool))) == {False, True}
    assert sample("geometric_", 0.5).min() >= 1
    assert sample("exponential_").min() >= 0


def test_random_whole_range_of_exact_integers():
    # float32 holds every integer up to 2^24: random_() draws from [0, 2^24]
    values = sample("random_", dtype=minigrad.float32)
    assert values.min() >= 0 and values.max() <= 2**24 and values.max() > 2**23


def test_normal_and_bernoulli_and_poisson_tensors():
    generator = minigrad.Generator().manual_seed(1)
    means = minigrad.full((N,), 2.0)
    assert_mean(minigrad.normal(means, 0.5, generator=generator).numpy(), 2.0, 0.25)
    assert_mean(minigrad.normal(-1.0, minigrad.full((N,), 2.0)).numpy(), -1.0, 4.0)
    probabilities = minigrad.full((N,), 0.7)
    assert_mean(minigrad.bernoulli(probabilities, generator=generator).numpy(), 0.7, 0.21)
    assert_mean(minigrad.poisson(minigrad.full((N,), 3.0)).numpy(), 3.0, 3.0)


def test_multinomial_frequencies_and_distinct_draws():
    generator = minigrad.Generator().manual_seed(2)
    weights = minigrad.tensor([1.0, 2.0, 7.0])
    draws = minigrad.multinomial(weights, N, replacement=True, generator=generator).numpy()
    frequencies = np.bincount(draws, minlength=3) / N
    np.testing.assert_allclose(frequencies, [0.1, 0.2, 0.7], atol=0.015)
    rows = minigrad.multinomial(minigrad.ones(100, 5), 5, generator=generator).numpy()
    assert all(sorted(row) == [0, 1, 2, 3, 4] for row in rows)  # without replacement
    # the first draw without replacement follows the weights too
    first = minigrad.multinomial(weights.expand(N, 3), 1, generator=generator).numpy()[:, 0]
    np.testing.assert_allclose(np.bincount(first, minlength=3) / N, [0.1, 0.2, 0.7], atol=0.015)
