"""Op-table rows of ``quantile``, ``nanquantile`` and ``nanmean`` (ops/statistics.py).

quantile's gradient goes to the values it picks: distinct values keep finite differences away
from ties (where the sort's order, and so the gradient, jumps).
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def distinct(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values at least 0.1 apart, shuffled."""
    count = int(np.prod(shape))
    return rng.permutation(np.arange(count) * 0.37 - 1.0).reshape(shape)


def with_nan(rng: np.random.Generator, *shape: int) -> np.ndarray:
    values = distinct(rng, *shape)
    values.reshape(-1)[:: 3] = np.nan
    return values


def quantile_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, q, dim, keepdim)``; a float q is a number, an array q a tensor."""
    return [
        Sample((distinct(rng, 3, 4), 0.3, None, False), name="all"),
        Sample((distinct(rng, 3, 4), 0.5, 1, False), name="dim1"),
        Sample((distinct(rng, 3, 4), 0.25, 0, True), name="dim0_keepdim"),
        Sample((distinct(rng, 3, 4), np.array([0.2, 0.5, 1.0]), 0, False), name="tensor_q"),
        Sample((distinct(rng, 2, 3, 4), np.array([0.0, 0.7]), -2, True), name="3d_tensor_q"),
        Sample((distinct(rng, 3, 4), np.array(0.6), None, True), name="0d_q_keepdim"),
        Sample((distinct(rng, 5), 0.9, 0, False), name="1d"),
        Sample((np.asarray(0.5), 0.3, None, False), name="0d"),
        Sample((distinct(rng, 3, 4), 0.4, 1, False), name="transposed", transposed=True),
        Sample((with_nan(rng, 3, 4), 0.4, 1, False), name="edge_nan"),
    ]


def q_grad_samples(rng: np.random.Generator) -> list[Sample]:
    """Tensor q's that require grad: away from 0 and 1 and from whole-number ranks ``q * (n - 1)``
    (where the gradient jumps), so that finite differences see one slope."""
    return [
        Sample((distinct(rng, 3, 4), np.array([0.2, 0.45]), 1, False), name="tensor_q"),
        Sample((distinct(rng, 2, 3, 4), np.array([0.3, 0.8]), -2, True), name="3d_keepdim"),
        Sample((distinct(rng, 3, 4), np.array(0.35), None, False), name="0d_q"),
        Sample((distinct(rng, 3, 4), np.array([0.3, 0.6]), 0, False), name="transposed",
               transposed=True),
    ]


def nan_q_grad_samples(rng: np.random.Generator) -> list[Sample]:
    """As ``q_grad_samples``, then among rows of 2 or 3 values that are not NaN."""
    return [
        Sample((distinct(rng, 3, 4), np.array([0.3, 0.7]), 1, False), name="tensor_q"),
        Sample((with_nan(rng, 3, 4), np.array([0.3, 0.7]), 1, False), name="nan_rows"),
        Sample((with_nan(rng, 3, 4), np.array(0.4), None, True), name="nan_0d_q_keepdim"),
    ]


BAD_QUANTILES = (
    BadInput((np.ones((2, 3)), 1.5, None, False), name="q_above"),
    BadInput((np.ones((2, 3)), np.array([0.5, -0.1]), None, False), name="tensor_q_below"),
    BadInput((np.ones((2, 3)), np.ones((2, 2)) / 2, None, False), name="2d_q"),
    BadInput((np.ones((2, 3)), 0.5, 2, False), name="dim"),
    BadInput((np.zeros((0, 3)), 0.5, None, False), name="empty"),
    BadInput((np.ones((2, 3)), [0.5], None, False), name="list"),
)


def nanmean_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, dim, keepdim)``, with NaN in places (a row of NaN too)."""
    rows = with_nan(rng, 3, 4)
    rows[2] = np.nan
    return [
        Sample((rng.standard_normal((3, 4)), None, False), name="all"),
        Sample((with_nan(rng, 3, 4), 1, False), name="dim1"),
        Sample((with_nan(rng, 2, 3, 4), (0, 2), True), name="dims_keepdim"),
        Sample((rows, 1, False), name="edge_nan_row"),
        Sample((np.asarray(1.5), None, False), name="0d"),
        Sample((with_nan(rng, 3, 4), 0, False), name="transposed", transposed=True),
    ]


def interpolated(interpolation: str, nan: bool = False):  # noqa: ANN201 - a row's call
    """``quantile`` (or ``nanquantile``) with ``interpolation``."""

    def call(lib, x, q, dim, keepdim):  # noqa: ANN001, ANN202
        function = lib.nanquantile if nan else lib.quantile
        return function(x, q, dim, keepdim, interpolation=interpolation)

    return call


# (q's gradient, through the linear interpolation's weights: the *_q_grad rows)
OPS: list[OpInfo] = [
    OpInfo("quantile", interpolated("linear"), quantile_samples, grad_args=(0,),
           bad_inputs=BAD_QUANTILES),
    *[
        OpInfo(f"quantile_{mode}", interpolated(mode), quantile_samples, grad_args=(0,))
        for mode in ("lower", "higher", "nearest", "midpoint")
    ],
    OpInfo("quantile_method", lambda lib, x, q, dim, keepdim: x.quantile(q, dim, keepdim),
           quantile_samples, grad_args=(0,)),
    OpInfo("quantile_q_grad", interpolated("linear"), q_grad_samples, grad_args=(0, 1)),
    OpInfo("nanquantile", interpolated("linear", nan=True), quantile_samples, grad_args=(0,)),
    OpInfo("nanquantile_q_grad", interpolated("linear", nan=True), nan_q_grad_samples,
           grad_args=(0, 1)),
    OpInfo("nanquantile_nearest", interpolated("nearest", nan=True), quantile_samples,
           grad_args=(0,)),
    OpInfo("nanquantile_method", lambda lib, x, q, dim, keepdim: x.nanquantile(q, dim, keepdim),
           lambda rng: [Sample((distinct(rng, 3, 4), 0.5, 1, True), name="2d"),
                        Sample((with_nan(rng, 3, 4), 0.5, 1, True), name="nan")]),
    OpInfo("quantile_interpolation", lambda lib, x, mode: lib.quantile(x, 0.5, interpolation=mode),
           lambda rng: [Sample((distinct(rng, 4), "higher"), name="higher")],
           bad_inputs=(BadInput((np.ones(3), "cubic"), name="unknown"),)),
    OpInfo("nanmean", lambda lib, x, dim, keepdim: lib.nanmean(x, dim, keepdim), nanmean_samples),
    OpInfo("nanmean_method", lambda lib, x, dim, keepdim: x.nanmean(dim, keepdim=keepdim),
           nanmean_samples),
    OpInfo("nanmean_dtype", lambda lib, x: lib.nanmean(x, dtype=lib.float64),
           lambda rng: [Sample((distinct(rng, 3, 4),), name="2d"),
                        Sample((with_nan(rng, 3, 4),), name="nan")]),
]
