"""var / std / var_mean / std_mean with ``dim`` on large float32 inputs, against PyTorch.

PyTorch's CPU kernel accumulates float32 moments in double (Welford's update) and rounds
once: its results are float32's rounding of the exact ones. minigrad's var and std once
summed in float32, which along a strided axis (numpy's sum there is not pairwise) drifted:
the variance of 10^5 values near 10^4 came out 55 times too large. The same inputs in both
libraries must agree to float32's rounding (a few units in the last place).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

# (shape, dim): 10^6 elements of mean 10^4, reduced along contiguous and strided axes
CASES = [((10**6,), 0), ((1000, 1000), 0), ((1000, 1000), 1), ((100000, 10), 0),
         ((10, 100000), 1), ((100, 100, 100), (0, 2))]
FUNCTIONS = ("var", "std", "var_mean", "std_mean")


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize(("shape", "dim"), CASES)
def test_moments_of_large_float32_as_pytorch(function: str, shape: tuple[int, ...],
                                             dim: int | tuple[int, ...]) -> None:
    values = (np.random.default_rng(0).standard_normal(shape) + 1e4).astype(np.float32)
    expected = getattr(torch, function)(torch.from_numpy(values), dim=dim)
    actual = getattr(minigrad, function)(minigrad.tensor(values), dim=dim)
    if isinstance(expected, tuple):
        expected, actual = expected[0], actual[0]  # (the mean is compared elsewhere)
    assert actual.dtype == minigrad.float32
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=4e-7, atol=0)
