"""``minigrad.special``'s orthogonal polynomials against PyTorch over wide grids.

Float64 values agree to ~1e-12 of max(1, |value|) (the same special cases, trigonometric forms
and recurrences as PyTorch's kernels), float32 to ~1e-4 (1e-3 for degrees from 25, whose
trigonometric forms multiply float32's acos error by the degree), where the value fits in a
float32 with room (near overflow the two float32 loops' infs and nans differ). NaN inputs
are left out: PyTorch's CPU kernels return an uninitialized value for them (their recurrence
loop stops at a NaN before its first step), minigrad returns NaN.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo.polynomials import NAMES

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(20261208)
GRID = np.concatenate(
    [
        np.linspace(-3.0, 3.0, 241),
        _RNG.uniform(-1.0, 1.0, 200),
        _RNG.uniform(0.0, 1.0, 200),
        [-1.0, 1.0, 0.0, 0.5, -0.5, np.inf, -np.inf, 1e-300, 40.0, -40.0],
    ]
)
DEGREES = [-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 25, 50, 2.7]


@parametrize_in_one("name", NAMES)
@parametrize_in_one(("dtype", "tolerance"), [("float64", 1e-12), ("float32", 1e-4)])
def test_values_match_over_a_wide_grid(name: str, dtype: str, tolerance: float) -> None:
    for n in DEGREES:
        mine = getattr(minigrad.special, name)(
            minigrad.tensor(GRID, dtype=getattr(minigrad, dtype)), n
        )
        theirs = getattr(torch.special, name)(torch.tensor(GRID, dtype=getattr(torch, dtype)), n)
        assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
        got, expected = mine.numpy().astype(np.float64), theirs.numpy().astype(np.float64)
        exact = getattr(torch.special, name)(torch.tensor(GRID), n).numpy()
        scale = tolerance * (10.0 if dtype == "float32" and n >= 25 else 1.0)
        with np.errstate(all="ignore"):
            close = np.abs(got - expected) <= scale * np.maximum(1.0, np.abs(expected))
        overflow = (dtype == "float32") & ~(np.abs(exact) < 1e30)
        same = close | (got == expected) | (np.isnan(got) & np.isnan(expected)) | overflow
        assert same.all(), (n, GRID[~same][:4], got[~same][:4], expected[~same][:4])


@parametrize_in_one("name", NAMES)
def test_tensor_degrees_promotion_and_no_gradient(name: str) -> None:
    x, n = np.array([[0.25], [-0.75], [1.5]]), np.array([0, 3, 9, 12])
    results = []
    for lib in (minigrad, torch):
        function = getattr(lib.special, name)
        floats = function(lib.tensor(x, requires_grad=True), lib.tensor(n))
        ints = function(lib.tensor([1, 2]), 3)
        number = function(0.5, lib.tensor(n))
        results.append(
            (
                floats.detach().numpy(),
                floats.requires_grad,
                floats.grad_fn,
                str(ints.dtype).split(".")[-1],
                ints.numpy(),
                number.numpy(),
            )
        )
    mine, theirs = results
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-12)
    assert mine[1:4] == theirs[1:4] == (False, None, "float32")
    np.testing.assert_allclose(mine[4], theirs[4], rtol=1e-6)
    np.testing.assert_allclose(mine[5], theirs[5], rtol=1e-6)
