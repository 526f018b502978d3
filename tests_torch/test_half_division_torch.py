"""float16 floor and trunc division as PyTorch's CPU kernels compute them.

PyTorch's ``div_floor_kernel`` takes a one-element divisor (a number, a 0-d tensor: its
``is_scalar(2)``) at its own value in float32 and rounds once (``half(1.5) // 0.1`` is 14,
not 15 as with 0.1 rounded to float16); two float16 tensors go through its vectorized
float16 kernel, each step rounded to float16. ``div(..., rounding_mode="trunc")`` by one
element is in float32 too. Same random values (and edge values) in both libraries, compared
bit for bit, sign of zero included (minigrad/ops/arithmetic.py, floor_divide_kernel).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

N = 4096
EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -1.5, 65504.0, 6e-8, 2049.0]


def _values(seed: int, decades: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(N) * 10.0 ** rng.integers(-2, decades, N)
    values[: len(EDGES) ** 2] = np.repeat(EDGES, len(EDGES)) if seed == 0 else np.tile(
        EDGES, len(EDGES))  # (every pair of edge values)
    return values.astype(np.float16)


PROGRAMS = {
    "div_floor": lambda L, x, y: L.div(x, y, rounding_mode="floor"),
    "floor_divide": lambda L, x, y: L.floor_divide(x, y),
    "operator": lambda L, x, y: x // y,
    "in_place": lambda L, x, y: x.clone().div_(y, rounding_mode="floor"),
    "number_first": lambda L, x, y: 7.3 // y,
    "strided": lambda L, x, y: L.div(x[::2], y[1::2], rounding_mode="floor"),
    "by_number": lambda L, x, y: L.div(x, 0.1, rounding_mode="floor"),
    "by_number_37": lambda L, x, y: L.div(x, 0.37, rounding_mode="floor"),
    "operator_by_number": lambda L, x, y: x // 0.1,
    "in_place_by_number": lambda L, x, y: x.clone().div_(0.1, rounding_mode="floor"),
    "floor_divide__by_number": lambda L, x, y: x.clone().floor_divide_(0.1),
    "by_0d_float32": lambda L, x, y: L.div(x, L.tensor(0.1), rounding_mode="floor"),
    "by_0d_float16": lambda L, x, y: L.div(x, L.tensor(0.1, dtype=L.float16),
                                           rounding_mode="floor"),
    "by_one_element": lambda L, x, y: L.div(x, y[:1], rounding_mode="floor"),
    "trunc_by_number": lambda L, x, y: L.div(x, 0.1, rounding_mode="trunc"),
    "trunc": lambda L, x, y: L.div(x, y, rounding_mode="trunc"),
}


def _run(lib: Any, name: str) -> np.ndarray:
    x, y = lib.tensor(_values(0, 3)), lib.tensor(_values(1, 2))
    return PROGRAMS[name](lib, x, y).numpy()


@parametrize_in_one("name", PROGRAMS)
def test_float16_division_rounds_as_pytorch(name):
    ours, theirs = _run(minigrad, name), _run(torch, name)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    assert (np.signbit(ours) == np.signbit(theirs))[~np.isnan(ours)].all()
