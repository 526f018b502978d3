"""The per-pair formulas of PyTorch's distance kernels (its ``Dist`` struct), for cdist and pdist.

Written as PyTorch's CPU kernel writes them, so that nan, inf and equal points give what it
gives: a nan difference has sign nan (``np.sign``, as the kernel's ceil/floor/min/max sign),
an infinite distance minus an infinite difference is nan, a 0-norm of a nan difference is nan.

- ``map``: what each coordinate's ``|a - b|`` adds to the pair's aggregate;
- ``finish``: the aggregate back to a norm (``agg ** (1 / p)`` in double, as ``std::pow(agg,
  1.0 / p)`` is for a float agg);
- ``pair_gradient``: the gradient of one pair's distance for its first row, times ``grad``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def mapped(magnitude: np.ndarray, p: float) -> np.ndarray:
    """Each coordinate's share of the aggregate, for p 0, 1, 2, inf and others.

    ``min(ceil(|d|), 1)``, ``|d|``, ``d * d``, ``|d|`` (aggregated by max), ``|d| ** p``.
    ``np.power``, not ``**``: numpy's operator turns ``** 0.5`` into a square root, which is
    not always ``pow``'s result.
    """
    if p == 0:
        return np.minimum(np.ceil(magnitude), 1)  # (nan stays nan, as std::min keeps it)
    if p == 1 or p == math.inf:
        return magnitude
    if p == 2:
        return magnitude * magnitude
    return np.power(magnitude, magnitude.dtype.type(p))


def finish(aggregate: np.ndarray, p: float) -> np.ndarray:
    """The norm from its aggregate: itself for p 0, 1 and inf, sqrt for 2, else ``** (1 / p)``.

    PyTorch's ``std::pow(agg, 1.0 / p)`` with ``p`` in the tensor's dtype: the power is taken in
    double and rounded once to the dtype.
    """
    if p in (0, 1) or p == math.inf:
        return aggregate
    if p == 2:
        return np.sqrt(aggregate)
    dtype = aggregate.dtype
    exponent = 1.0 / float(dtype.type(p))
    return np.power(aggregate.astype(np.float64), exponent).astype(dtype)


def pair_gradient(diff: Any, grad: Any, dist: Any, p: float) -> Any:
    """Each coordinate's d dist / d diff times ``grad``: PyTorch's ``backward`` of each norm.

    ``grad`` and ``dist`` broadcast against ``diff`` (one value per pair). 0 for p 0 and
    where the distance is 0 (p > 1); for p < 1 also where the coordinate's difference is 0.
    Exponents are ``p - 1`` and ``p - 2`` computed in the dtype, as the kernel's ``Vec(p)``.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if p == 1:
            return grad * np.sign(diff)
        if p == math.inf:  # (1 - min(1, ceil(||d| - dist|))): 1 where |d| == dist, nan for nan
            at_max = 1 - np.minimum(1, np.ceil(np.abs(np.abs(diff) - dist)))
            return grad * np.sign(diff) * at_max
        zero = dist == 0
        if p == 2:
            return np.where(zero, 0, grad * diff / dist)
        pv = diff.dtype.type(p)
        if p < 2:
            pair = np.sign(diff) * np.power(np.abs(diff), pv - 1) * grad / np.power(dist, pv - 1)
            pair = np.where(zero, 0, pair)
            return np.where((diff == 0) & (p < 1), 0, pair)
        pair = diff * np.power(np.abs(diff), pv - 2) * grad / np.power(dist, pv - 1)
        return np.where(zero, 0, pair)
