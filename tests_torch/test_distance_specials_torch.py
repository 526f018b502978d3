"""cdist, pdist, pairwise_distance and dist with nan, inf and equal points, against PyTorch.

Inputs hold nan, +-inf, coordinates equal in both points and whole rows equal; the upstream
gradient is random. Forward values and gradients must agree: the same nan places, the same
infinities, the same finite values (bit for bit where PyTorch's kernel is plain scalar code:
cdist's direct path for p 0, 1 and inf, and every gradient's nan/inf/zero pattern; to a few
ulps elsewhere, where PyTorch's vector ``pow`` (Sleef) or fused multiply-adds round
differently from numpy's).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

_NAN, _INF = math.nan, math.inf
_PS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, _INF]
_DTYPES = [np.float32, np.float64]


def _points(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """x1 (5, 3) and x2 (4, 3) with nan, +-inf, a shared coordinate and a shared row."""
    rng = np.random.default_rng(8)
    x1 = rng.standard_normal((5, 3)).astype(dtype)
    x2 = rng.standard_normal((4, 3)).astype(dtype)
    x1[0, 1] = _NAN
    x1[1, 0] = _INF
    x1[2, 2] = -_INF
    x2[1] = x1[3]  # (an equal point: distance 0)
    x2[2, 0] = _INF
    x2[3, 1] = _NAN
    x1[4, 0] = x2[0, 0]  # (one coordinate's difference is 0)
    return x1, x2


def _assert_same(mine: np.ndarray, theirs: np.ndarray, exact: bool) -> None:
    """Same nan places, same infinities, same finite values (exactly or to a few ulps)."""
    assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
    np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
    finite = ~np.isnan(theirs)
    np.testing.assert_array_equal(np.isinf(mine[finite]), np.isinf(theirs[finite]))
    if exact:
        np.testing.assert_array_equal(mine[finite], theirs[finite])
    else:
        rtol = 1e-5 if mine.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(mine[finite], theirs[finite], rtol=rtol, atol=0)


def _compare(call: Any, arrays: tuple[np.ndarray, ...], exact: bool) -> None:
    """Run ``call(lib, *tensors)`` in both libraries, backward with one random gradient."""
    results = []
    for lib in (minigrad, torch):
        inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = call(lib, *inputs)
        grad = np.random.default_rng(3).standard_normal(tuple(y.shape)).astype(arrays[0].dtype)
        y.backward(lib.tensor(grad))
        results.append([y.detach().numpy()] + [t.grad.numpy() for t in inputs])
    for mine, theirs in zip(*results):
        _assert_same(mine, theirs, exact)


@parametrize_in_one("dtype", _DTYPES)
@parametrize_in_one("p", _PS)
def test_cdist_direct_path(p: float, dtype: type) -> None:
    """nan, inf and equal points through cdist's direct path, both inputs' gradients."""
    exact = p in (0.0, 1.0, _INF)

    def call(lib: Any, x1: Any, x2: Any) -> Any:
        return lib.cdist(x1, x2, p, compute_mode="donot_use_mm_for_euclid_dist")

    _compare(call, _points(dtype), exact)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_cdist_matrix_product_path(dtype: type) -> None:
    """The same points through the matrix-product path (p = 2)."""
    x1, x2 = _points(dtype)
    x1, x2 = x1[:, :1], x2[:, :1]  # (one column: no rounding of the product to tell apart)

    def call(lib: Any, a: Any, b: Any) -> Any:
        return lib.cdist(a, b, compute_mode="use_mm_for_euclid_dist")

    _compare(call, (x1, x2), False)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_cdist_batched(dtype: type) -> None:
    """Batched, broadcast inputs through the direct path, p = inf and 1."""
    x1, x2 = _points(dtype)
    for p in (1.0, _INF):
        _compare(lambda lib, a, b, p=p: lib.cdist(a, b, p),
                 (np.stack([x1, x1[::-1]]), x2[None]), True)


@parametrize_in_one("dtype", _DTYPES)
@parametrize_in_one("p", _PS)
def test_pdist(p: float, dtype: type) -> None:
    """pdist of the rows of both point sets (nan, inf, equal rows)."""
    x1, x2 = _points(dtype)
    exact = p in (0.0, 1.0, _INF)
    _compare(lambda lib, x: lib.nn.functional.pdist(x, p), (np.concatenate([x1, x2]),), exact)


def test_pdist_many_rows_adds_in_pytorch_order() -> None:
    """p = 1: a row's gradient is its pairs' gradients added in PyTorch's order, bit for bit."""
    x = np.random.default_rng(1).standard_normal((12, 5)).astype(np.float32)
    _compare(lambda lib, a: lib.nn.functional.pdist(a, 1.0), (x,), True)


@parametrize_in_one("dtype", _DTYPES)
@parametrize_in_one("p", [0.5, 1.0, 1.5, 2.0, 3.0, _INF])
def test_pairwise_distance_and_dist(p: float, dtype: type) -> None:
    """pairwise_distance, nn.PairwiseDistance and dist of row pairs with nan, inf, equal rows."""
    x1, x2 = _points(dtype)
    x1 = x1[:4]
    _compare(lambda lib, a, b: lib.nn.functional.pairwise_distance(a, b, p), (x1, x2), False)
    _compare(lambda lib, a, b: lib.nn.PairwiseDistance(p)(a, b), (x1, x2), False)
    _compare(lambda lib, a, b: lib.dist(a, b, p), (x1, x2), False)

