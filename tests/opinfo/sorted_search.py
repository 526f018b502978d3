"""Op-table rows of ``searchsorted``, ``bucketize`` and ``isin`` (ops/sorted_search.py).

None has a gradient; the generic tests compare values and dtypes with PyTorch, on float, int64
(rounded) and bool inputs. PyTorch warns once per program about a non-contiguous input of
searchsorted/bucketize: the rows with transposed samples call ``quietly``.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample, quietly


def sorted_rows(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values sorted along the last dimension, with repeats (ties decide left from right)."""
    return np.sort(rng.choice([-1.5, -0.5, 0.0, 0.5, 2.0, 3.0], size=shape), axis=-1)


def values(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values on and between the boundaries, and beyond them."""
    return rng.choice([-2.0, -1.5, 0.0, 0.25, 0.5, 2.0, 4.0], size=shape)


def search_samples(rng: np.random.Generator) -> list[Sample]:
    """``(sorted_sequence, values)``."""
    return [
        Sample((sorted_rows(rng, 6), values(rng, 3, 4)), name="1d_boundaries"),
        Sample((sorted_rows(rng, 6), values(rng, 5)), name="1d"),
        Sample((sorted_rows(rng, 3, 5), values(rng, 3, 4)), name="rows"),
        Sample((sorted_rows(rng, 2, 3, 4), values(rng, 2, 3, 2)), name="3d"),
        Sample((sorted_rows(rng, 5), values(rng)), name="0d_value"),
        Sample((sorted_rows(rng, 3, 5), values(rng, 3, 4)), name="transposed", transposed=True),
        Sample((sorted_rows(rng, 4), np.zeros((2, 0))), name="empty_values"),
        Sample((np.zeros(0), values(rng, 3)), name="empty_boundaries"),
        Sample((np.array([1.0, np.nan]), np.array([np.nan, 1.0, 3.0])), name="nan_boundary"),
        Sample((sorted_rows(rng, 4), np.array([np.nan, -np.inf, np.inf])), name="nan_value"),
    ]


def sorter_samples(rng: np.random.Generator) -> list[Sample]:
    """``(sequence, values, sorter)``: an unsorted sequence and its argsort."""
    sequence = rng.permutation(np.array([-1.0, 0.0, 0.5, 0.5, 2.0, 3.0]))
    rows = rng.standard_normal((3, 4)).round(1)
    return [
        Sample((sequence, values(rng, 3, 4), np.argsort(sequence, kind="stable")), name="1d"),
        Sample((rows, values(rng, 3, 2), np.argsort(rows, axis=-1, kind="stable")),
               name="rows"),
    ]


def bucketize_samples(rng: np.random.Generator) -> list[Sample]:
    """``(values, boundaries)``."""
    return [
        Sample((values(rng, 3, 4), sorted_rows(rng, 6)), name="2d"),
        Sample((values(rng), sorted_rows(rng, 4)), name="0d"),
        Sample((values(rng, 3, 4), sorted_rows(rng, 6)), name="transposed", transposed=True),
        Sample((values(rng, 3), np.zeros(0)), name="empty_boundaries"),
    ]


def isin_samples(rng: np.random.Generator) -> list[Sample]:
    """``(elements, test_elements)``: values from few levels, so that both answers occur."""

    def levels(*shape: int) -> np.ndarray:
        return rng.choice([-1.0, 0.0, -0.0, 0.5, 2.0], size=shape)

    return [
        Sample((levels(3, 4), levels(3)), name="2d"),
        Sample((levels(5), levels(2, 2)), name="2d_test"),
        Sample((levels(), levels(4)), name="0d"),
        Sample((levels(4), levels()), name="0d_test"),
        Sample((levels(3, 4), levels(3)), name="transposed", transposed=True),
        Sample((levels(0), levels(3)), name="empty"),
        Sample((levels(3), np.zeros(0)), name="empty_test"),
        Sample((np.array([np.nan, 0.5, -0.0]), np.array([0.0, np.nan])), name="nan"),
    ]


BAD_SEARCHES = (
    BadInput((np.ones((2, 3)), np.ones((3, 1))), name="rows"),
    BadInput((np.ones((2, 3)), np.ones((2, 1, 1))), name="ndim"),
    BadInput((np.asarray(1.0), np.ones(2)), name="0d_boundaries"),
    BadInput((np.ones((2, 3)), np.asarray(1.0)), name="0d_value_rows"),
    BadInput((np.ones(3), [1.0]), name="list"),
)

OPS: list[OpInfo] = [
    OpInfo("searchsorted", quietly(lambda lib, s, v: lib.searchsorted(s, v)), search_samples,
           differentiable=False, bad_inputs=BAD_SEARCHES),
    OpInfo("searchsorted_right", quietly(lambda lib, s, v: lib.searchsorted(s, v, right=True)),
           search_samples, differentiable=False),
    OpInfo("searchsorted_side",
           quietly(lambda lib, s, v: lib.searchsorted(s, v, side="right", out_int32=True)),
           search_samples, differentiable=False),
    OpInfo("searchsorted_number", lambda lib, s, v: lib.searchsorted(s, v),
           lambda rng: [Sample((sorted_rows(rng, 6), 0.5), name="float"),
                        Sample((np.arange(5.0), 2), name="int")],
           differentiable=False),
    OpInfo("searchsorted_sorter",
           quietly(lambda lib, s, v, order: lib.searchsorted(s, v, sorter=order)),
           sorter_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones(3), np.ones(2), np.array([0, 1])), name="size"),
                       BadInput((np.ones(3), np.ones(2), np.array([0, 1, 3])), name="range"),
                       BadInput((np.ones(3), np.ones(2), np.array([0.0, 1.0, 2.0])),
                                name="float"))),
    OpInfo("searchsorted_sides",
           lambda lib, s, v, side, right: lib.searchsorted(s, v, side=side, right=right),
           lambda rng: [Sample((sorted_rows(rng, 6), values(rng, 4), "left", False),
                               name="left")],
           differentiable=False,
           bad_inputs=(BadInput((np.ones(3), np.ones(2), "left", True), name="opposites"),
                       BadInput((np.ones(3), np.ones(2), "middle", False), name="side"))),
    OpInfo("bucketize", quietly(lambda lib, v, b: lib.bucketize(v, b)), bucketize_samples,
           differentiable=False,
           bad_inputs=(BadInput((np.ones(3), np.ones((2, 2))), name="2d_boundaries"),
                       BadInput((np.ones(3), [1.0, 2.0]), name="list"))),
    OpInfo("bucketize_right",
           quietly(lambda lib, v, b: lib.bucketize(v, b, right=True, out_int32=True)),
           bucketize_samples, differentiable=False),
    OpInfo("bucketize_number", lambda lib, b: lib.bucketize(0.5, b),
           lambda rng: [Sample((sorted_rows(rng, 6),), name="1d")], differentiable=False),
    OpInfo("isin", lambda lib, e, t: lib.isin(e, t), isin_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones(3), np.array([True])), name="bool"),
                       BadInput((np.ones(3), [1.0]), name="list"),
                       BadInput((1.0, 2.0), name="numbers"))),
    OpInfo("isin_invert", lambda lib, e, t: lib.isin(e, t, invert=True, assume_unique=True),
           isin_samples, differentiable=False),
    OpInfo("isin_number", lambda lib, e, t: lib.isin(e, t),
           lambda rng: [Sample((0.5, np.array([0.5, 1.0])), name="element"),
                        Sample((np.array([[0.5, 2.0]]), 2.0), name="test_element")],
           differentiable=False),
]
