"""Op-table rows of finding and counting (ops/search.py, ops/histogram.py).

None of these ops has a gradient. ``unique`` and weighted ``bincount`` of tensors that require
grad still record a node whose backward raises (as in PyTorch): the generic tests check that
backward raises the same error in both libraries.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def with_zeros_and_repeats(rng: np.random.Generator) -> list[Sample]:
    """Values drawn from a few levels, so that zeros and repeats are common; nan and inf too."""

    def levels(shape: tuple[int, ...]) -> np.ndarray:
        return np.asarray(rng.choice([0.0, -1.5, 0.5, 2.0], size=shape))

    return [
        Sample((levels((3, 4)),), name="2d"),
        Sample((levels(()),), name="0d"),
        Sample((np.asarray(0.0),), name="0d_zero"),
        Sample((levels((7,)),), name="1d"),
        Sample((levels((3, 4)),), name="transposed", transposed=True),
        Sample((levels((2, 3, 2)),), name="3d"),
        Sample((np.zeros((0, 3)),), name="empty"),
        Sample((np.array([np.nan, 1.0, np.nan, -np.inf, 1.0, 0.0]),), name="special"),
    ]


def rows_with_repeats(rng: np.random.Generator) -> list[Sample]:
    """Matrices with repeated rows and columns (``unique`` along a dimension)."""
    base = rng.choice([0.0, 1.0, 2.5], size=(3, 4))
    return [
        Sample((base[[0, 1, 0, 2, 1]],), name="repeated_rows"),
        Sample((base[:, [0, 1, 0, 3]],), name="repeated_columns"),
        Sample((base[[0, 1, 0]],), name="transposed", transposed=True),
        Sample((np.stack([base, base[[1, 0, 2]]]),), name="3d"),
    ]


def spread(rng: np.random.Generator) -> list[Sample]:
    """Values for histograms, with some on bin edges and some outside a fixed range."""
    return [
        Sample((rng.uniform(-1, 4, size=(20,)),), name="1d"),
        Sample((rng.uniform(0, 3, size=(4, 5)),), name="2d"),
        Sample((np.array([0.0, 0.3, 0.7, 1.0, 1.5, 3.0, 3.5, -0.2]),), name="edges"),
        Sample((np.full(4, 2.0),), name="constant"),
        Sample((np.asarray(2.5),), name="0d"),
        Sample((np.zeros(0),), name="empty"),
    ]


def counts(rng: np.random.Generator) -> list[Sample]:
    """Non-negative integer indices, with and without float weights."""
    indices = rng.integers(0, 5, size=12)
    return [
        Sample((indices, rng.uniform(-1, 1, size=12)), name="weights"),
        Sample((np.array([3, 3, 0]), np.array([0.5, 0.25, 2.0])), name="gap"),
        Sample((np.zeros(0, dtype=np.int64), np.zeros(0)), name="empty"),
    ]


def nonzero_column(index: int):  # noqa: ANN201 - a row's call
    """The ``index``-th tensor of ``nonzero(as_tuple=True)`` (the last one if fewer)."""
    return lambda lib, x: x.nonzero(as_tuple=True)[min(index, max(x.dim(), 1) - 1)]


def consecutive_along(dim: int | None, part: int):  # noqa: ANN201 - a row's call
    """Output ``part`` (values, inverse, counts) of ``unique_consecutive`` (along ``dim``)."""
    return lambda lib, x: lib.unique_consecutive(x, True, True, dim)[part]


def unique_along(dim: int, part: int):  # noqa: ANN201 - a row's call
    """Output ``part`` (values, inverse, counts) of ``unique`` along ``dim``."""
    return lambda lib, x: lib.unique(x, dim=dim, return_inverse=True, return_counts=True)[part]


NOT_A_TENSOR = (BadInput(([1.0, 0.0],), name="list"),)

OPS: list[OpInfo] = [
    OpInfo("nonzero", lambda lib, x: lib.nonzero(x), with_zeros_and_repeats,
           differentiable=False, bad_inputs=NOT_A_TENSOR),
    OpInfo("nonzero_method", lambda lib, x: x.nonzero(), with_zeros_and_repeats,
           differentiable=False),
    *[
        OpInfo(f"nonzero_as_tuple_{i}", nonzero_column(i), with_zeros_and_repeats,
               differentiable=False)
        for i in range(3)
    ],
    OpInfo("argwhere", lambda lib, x: lib.argwhere(x), with_zeros_and_repeats,
           differentiable=False),
    OpInfo("where_condition", lambda lib, x: lib.where(x)[0], with_zeros_and_repeats,
           differentiable=False),
    OpInfo("unique", lambda lib, x: lib.unique(x), with_zeros_and_repeats,
           differentiable=False, bad_inputs=NOT_A_TENSOR),
    OpInfo("unique_inverse", lambda lib, x: x.unique(return_inverse=True)[1],
           with_zeros_and_repeats, differentiable=False),
    OpInfo("unique_counts", lambda lib, x: lib.unique(x, return_counts=True)[1],
           with_zeros_and_repeats, differentiable=False),
    OpInfo("unique_unsorted", lambda lib, x: lib.unique(x, sorted=False), with_zeros_and_repeats,
           differentiable=False),
    *[
        OpInfo(f"unique_dim{dim}_{part}", unique_along(dim, part), rows_with_repeats,
               differentiable=False)
        for dim in (0, 1, -1)
        for part in (0, 1, 2)
    ],
    OpInfo("unique_dim2", lambda lib, x: lib.unique(x, dim=2),
           lambda rng: [s for s in rows_with_repeats(rng) if s.args[0].ndim == 3],
           differentiable=False, bad_inputs=(BadInput((np.ones((2, 2)),), name="2d"),)),
    OpInfo("unique_consecutive", lambda lib, x: lib.unique_consecutive(x),
           with_zeros_and_repeats, differentiable=False, bad_inputs=NOT_A_TENSOR),
    OpInfo("unique_consecutive_method", lambda lib, x: x.unique_consecutive(return_counts=True)[1],
           with_zeros_and_repeats, differentiable=False, op="unique_consecutive"),
    *[
        OpInfo(f"unique_consecutive_dim{dim}_{part}", consecutive_along(dim, part),
               rows_with_repeats, differentiable=False, op="unique_consecutive")
        for dim in (None, 0, -1)
        for part in (0, 1, 2)
    ],
    OpInfo("histc", lambda lib, x: lib.histc(x, bins=5), spread, differentiable=False),
    OpInfo("histc_range", lambda lib, x: x.histc(bins=7, min=0, max=3), spread,
           differentiable=False),
    OpInfo("histc_many_bins", lambda lib, x: lib.histc(x, 100, 0.0, 1.0), spread,
           differentiable=False),
    OpInfo("histogram", lambda lib, x: lib.histogram(x, 5).hist, spread, differentiable=False),
    OpInfo("histogram_edges", lambda lib, x: x.histogram(7, range=(0.0, 3.0)).bin_edges, spread,
           differentiable=False, op="histogram"),
    OpInfo("histogram_given_edges",
           lambda lib, x: x.histogram(lib.tensor([0.0, 0.5, 1.5, 3.0], dtype=x.dtype),
                                      density=True).hist, spread, differentiable=False,
           op="histogram"),
    OpInfo("histogramdd",
           lambda lib, x: lib.histogramdd(lib.stack([x.reshape(-1), 2 * x.reshape(-1)], 1),
                                          [3, 2]).hist, spread, differentiable=False),
    OpInfo("bincount", lambda lib, i, w: lib.bincount(i), counts, differentiable=False),
    OpInfo("bincount_minlength", lambda lib, i, w: i.bincount(minlength=7), counts,
           differentiable=False),
    OpInfo("bincount_weights", lambda lib, i, w: lib.bincount(i, weights=w), counts,
           differentiable=False),
]
