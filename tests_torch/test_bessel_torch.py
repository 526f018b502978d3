"""``minigrad.special``'s Bessel functions and Airy's Ai against PyTorch over wide grids.

The same Cephes expansions as PyTorch's kernels, computed in the input's dtype: float64 values
agree to ~1e-13 relative, float32 to ~1e-5 relative or 1e-6 absolute (next to the zeros of J
and Y), overflow to inf included, across both sides of the expansions' switches, tiny, huge,
negative and special arguments.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo.polynomials import BESSEL_NAMES

import minigrad

torch = pytest.importorskip("torch")

GRID = np.concatenate(
    [
        np.linspace(-50.0, 50.0, 2001),
        np.exp(np.linspace(-30.0, 6.6, 400)),
        -np.exp(np.linspace(-30.0, 6.6, 300)),
        [
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
            2.0,
            5.0,
            8.0,
            1e-300,
            1e-6,
            88.9,
            700.0,
            710.0,
            800.0,
        ],
    ]
)


@parametrize_in_one("name", BESSEL_NAMES)
@parametrize_in_one(("dtype", "tolerance"), [("float64", 1e-13), ("float32", 1e-5)])
def test_values_match_over_a_wide_grid(name: str, dtype: str, tolerance: float) -> None:
    mine = getattr(minigrad.special, name)(minigrad.tensor(GRID, dtype=getattr(minigrad, dtype)))
    theirs = getattr(torch.special, name)(torch.tensor(GRID, dtype=getattr(torch, dtype)))
    assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
    got, expected = mine.numpy().astype(np.float64), theirs.numpy().astype(np.float64)
    with np.errstate(all="ignore"):
        close = np.abs(got - expected) <= tolerance * np.abs(expected)
        if dtype == "float32":
            close |= np.abs(got - expected) <= 1e-6
    same = close | (got == expected) | (np.isnan(got) & np.isnan(expected))
    assert same.all(), (GRID[~same][:4], got[~same][:4], expected[~same][:4])


@parametrize_in_one("name", BESSEL_NAMES)
def test_integers_half_and_no_gradient(name: str) -> None:
    outcomes = []
    for lib in (minigrad, torch):
        function = getattr(lib.special, name)
        ints = function(lib.tensor([1, 3]))
        floats = function(lib.tensor([0.5, 2.5], requires_grad=True))
        with pytest.raises(NotImplementedError) as info:
            function(lib.ones(2, dtype=lib.float16))
        outcomes.append(
            (str(ints.dtype).split(".")[-1], floats.requires_grad, floats.grad_fn, str(info.value))
        )
    assert outcomes[0] == outcomes[1]
