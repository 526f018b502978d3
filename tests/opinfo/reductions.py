"""Op-table rows of the reduction family (ops/reduction.py, cumulative.py, softmax.py).

Reductions are called with their options as plain arguments (``dim``, ``keepdim``), so one row
covers full reductions, single dims (negative too), tuples of dims and both ``keepdim``s.
Samples named ``edge...`` hold ties (max/min) or zeros (prod, cumprod) where the function is not
differentiable in the ordinary sense: checked against PyTorch, skipped by finite differences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample

Samples = Callable[[np.random.Generator], list[Sample]]


def real(rng: np.random.Generator, *shape: int, low: float = -2.0, high: float = 2.0) -> Any:
    return rng.uniform(low, high, size=shape)


def distinct(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Values at least 0.1 apart (no near-ties for max/min/sort under finite differences)."""
    count = int(np.prod(shape))
    values = rng.permutation(count) * 0.25 - count * 0.125 + rng.uniform(0, 0.1, size=count)
    return values.reshape(shape)


def nonzero(rng: np.random.Generator, *shape: int) -> np.ndarray:
    magnitude = rng.uniform(0.5, 1.5, size=shape)
    return np.where(rng.random(shape) < 0.5, -magnitude, magnitude)


def full_samples(make: Callable[..., np.ndarray] = real, zero_d: bool = True) -> Samples:
    """``(x,)`` for a reduction over everything: 0-d, 1-d, 2-d, transposed, 3-d."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [
            Sample((make(rng, 5),), name="1d"),
            Sample((make(rng, 3, 4),), name="2d"),
            Sample((make(rng, 3, 4),), name="transposed", transposed=True),
            Sample((make(rng, 2, 3, 2),), name="3d"),
        ]
        if zero_d:
            out.insert(0, Sample((make(rng),), name="0d"))
        return out

    return samples


def dim_samples(make: Callable[..., np.ndarray] = real, tuples: bool = True,
                zero_d: bool = True) -> Samples:
    """``(x, dim, keepdim)``: single dims (negative too), tuples of dims, keepdim both ways."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [
            Sample((make(rng, 3, 4), 1, False), name="dim1"),
            Sample((make(rng, 3, 4), -2, True), name="dim_neg_keepdim"),
            Sample((make(rng, 3, 4), 0, False), name="transposed", transposed=True),
            Sample((make(rng, 2, 3, 4), -1, True), name="3d_last_keepdim"),
            Sample((make(rng, 2, 3, 4), 1, False), name="3d_middle"),
            Sample((make(rng, 5), 0, False), name="1d"),
        ]
        if zero_d:
            out.append(Sample((make(rng), 0, False), name="0d"))
            out.append(Sample((make(rng), -1, True), name="0d_keepdim"))
        if tuples:
            out.append(Sample((make(rng, 2, 3, 4), (0, 2), False), name="tuple"))
            out.append(Sample((make(rng, 2, 3, 4), (-1, 0), True), name="tuple_keepdim"))
        return out

    return samples


def with_nans(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Real values, about a third of them NaN (nansum's edge everywhere)."""
    values = real(rng, *shape)
    return np.where(rng.random(shape) < 0.3, np.nan, values)


def and_with_nans(samples: Callable[..., Samples]) -> Samples:
    """``samples()``, then ``samples(with_nans)`` (the first sample, which the misuse sweep
    varies and casts to integers, without NaN)."""

    def both(rng: np.random.Generator) -> list[Sample]:
        nans = [replace(sample, name=f"nan_{sample.name}")
                for sample in samples(with_nans)(rng)]
        return [*samples()(rng), *nans]

    return both


def count_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, dim)`` for count_nonzero: zeros, NaNs (nonzero), dims, tuples, transposed."""
    mixed = np.where(rng.random((3, 4)) < 0.4, 0.0, with_nans(rng, 3, 4))
    return [
        Sample((np.where(rng.random((3, 4)) < 0.4, 0.0, real(rng, 3, 4)), 1), name="first"),
        Sample((mixed, None), name="full"),
        Sample((mixed, 1), name="dim"),
        Sample((mixed, -2), name="dim_neg"),
        Sample((mixed, 0), name="transposed", transposed=True),
        Sample((mixed, (0, 1)), name="tuple"),
        Sample((np.zeros((2, 3, 2)), (2, 0)), name="3d_zeros"),
        Sample((np.ones(()), None), name="0d"),
    ]


def with_edge(base: Samples, *edges: tuple[Any, ...]) -> Samples:
    """``base`` plus ``edge`` samples (arguments given as they are)."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        extra = [Sample(tuple(np.array(a, dtype=np.float64) if isinstance(a, list) else a
                              for a in args), name=f"edge{i}") for i, args in enumerate(edges)]
        return base(rng) + extra

    return samples


BAD_DIM = (
    BadInput((np.ones((2, 3)), 2, False), name="dim_out_of_range"),
    BadInput((np.ones((2, 3)), -3, False), name="dim_negative_out_of_range"),
)
BAD_DIMS = (*BAD_DIM, BadInput((np.ones((2, 3)), (0, 0), False), name="dim_repeated"))
BAD_EMPTY_FULL = (BadInput((np.ones((0, 3)),), name="empty"),)
BAD_EMPTY_DIM = (BadInput((np.ones((0, 3)), 0, False), name="empty_dim"),)
TIES = [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]
# Ties around the middle (PyTorch's index: the stable sort's middle position).
MEDIAN_TIES = [[2.0, 2.0, 2.0, 1.0, 2.0], [0.0, 5.0, 5.0, 5.0, 5.0]]
# nanmedian's NaN cases: a row of NaNs only, a row with some.
NAN_ROWS = [[np.nan, np.nan, np.nan, np.nan], [1.0, np.nan, 3.0, 2.0], [2.0, 2.0, np.nan, 2.0]]


def var_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 5), None, None, None, False), name="full"),
        Sample((real(rng, 3, 4), 1, None, None, False), name="dim"),
        Sample((real(rng, 3, 4), -2, False, None, True), name="biased_keepdim"),
        Sample((real(rng, 3, 4), (0, 1), None, 0, False), name="correction0"),
        Sample((real(rng, 3, 4), 0, None, 2, False), name="correction2"),
        Sample((real(rng, 3, 4), 1, True, None, False), name="transposed", transposed=True),
        Sample((real(rng, 2, 3, 4), (0, 2), None, 1.5, True), name="3d_tuple"),
    ]


def var_kwargs(dim: Any, unbiased: Any, correction: Any, keepdim: bool) -> dict[str, Any]:
    """The keyword arguments of a ``var_samples`` call (options left out when None)."""
    kwargs: dict[str, Any] = {"keepdim": keepdim}
    if unbiased is not None:
        kwargs["unbiased"] = unbiased
    if correction is not None:
        kwargs["correction"] = correction
    if dim is not None:
        kwargs["dim"] = dim
    return kwargs


def call_var(name: str) -> Callable[..., Any]:
    def call(lib: Any, x: Any, dim: Any, unbiased: Any, correction: Any, keepdim: bool) -> Any:
        return getattr(x, name)(**var_kwargs(dim, unbiased, correction, keepdim))

    return call


def call_moments(name: str, output: int | None = None) -> Callable[..., Any]:
    """``lib.var_mean`` or ``lib.std_mean`` called as ``call_var``'s methods: one of the two
    results, or (``output`` None) both in one expression (both gradients reach one node)."""

    def call(lib: Any, x: Any, dim: Any, unbiased: Any, correction: Any, keepdim: bool) -> Any:
        kwargs = var_kwargs(dim, unbiased, correction, keepdim)
        first, second = getattr(lib, name)(x, **kwargs)
        return first * 2 + second if output is None else (first, second)[output]

    return call


def softmax_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 1), name="dim1"),
        Sample((real(rng, 3, 4), 0), name="dim0"),
        Sample((real(rng, 3, 4), -1), name="transposed", transposed=True),
        Sample((real(rng, 2, 3, 4), 1), name="3d"),
        Sample((real(rng, 5), 0), name="1d"),
        Sample((real(rng), 0), name="0d"),
        Sample((np.array([[50.0, 0.0, -50.0], [1000.0, 1000.0, 999.0]]), 1), name="large"),
    ]


def cumulative_samples(make: Callable[..., np.ndarray] = real) -> Samples:
    def samples(rng: np.random.Generator) -> list[Sample]:
        return [
            Sample((make(rng, 3, 4), 1), name="dim1"),
            Sample((make(rng, 3, 4), -2), name="dim_neg"),
            Sample((make(rng, 3, 4), 0), name="transposed", transposed=True),
            Sample((make(rng, 2, 3, 2), 1), name="3d"),
            Sample((make(rng, 5), 0), name="1d"),
            Sample((make(rng), 0), name="0d"),
        ]

    return samples


def selection_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, dim)`` of distinct values, each dim of size 2 or more (kthvalue's k = 2)."""
    return [
        Sample((distinct(rng, 3, 4), 1), name="dim1"),
        Sample((distinct(rng, 3, 4), -2), name="dim_neg"),
        Sample((distinct(rng, 3, 4), 0), name="transposed", transposed=True),
        Sample((distinct(rng, 2, 3, 2), 1), name="3d"),
        Sample((distinct(rng, 5), 0), name="1d"),
    ]


def tie_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, dim)`` of few distinct values and some NaNs: the index PyTorch picks among ties.

    (``edge``: a tie has no gradient in the ordinary sense; compared with PyTorch only.)
    """
    ties = rng.integers(0, 3, size=(4, 7)).astype(np.float64)
    with_nan = ties.copy()
    with_nan[rng.random((4, 7)) < 0.2] = np.nan
    return [
        Sample((ties, 1), name="edge_ties"),
        Sample((ties.T.copy(), 0), name="edge_ties_dim0"),
        Sample((with_nan, 1), name="edge_nans"),
    ]


def logical_samples(rng: np.random.Generator) -> list[Sample]:
    mixed = np.where(rng.random((3, 4)) < 0.3, 0.0, real(rng, 3, 4))
    return [
        Sample((mixed, None, False), name="full"),
        Sample((mixed, 1, False), name="dim"),
        Sample((mixed, 0, True), name="keepdim"),
        Sample((mixed, (0, 1), False), name="tuple"),
        Sample((np.ones((2, 3)), -1, False), name="all_true"),
        Sample((np.zeros(()), None, False), name="0d"),
    ]


def reduce_call(method: str) -> Callable[..., Any]:
    """``x.method(dim, keepdim)``, or ``x.method()`` when dim is None."""

    def call(lib: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        if dim is None:
            return getattr(x, method)()
        return getattr(x, method)(dim, keepdim)

    return call


def norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((nonzero(rng, 3, 4), "fro", None, False), name="default"),
        Sample((nonzero(rng, 3, 4), 2, 1, False), name="p2_dim"),
        Sample((nonzero(rng, 3, 4), 1, 0, True), name="p1_keepdim"),
        Sample((distinct(rng, 3, 4), float("inf"), 1, False), name="inf"),
        Sample((distinct(rng, 3, 4), -float("inf"), None, False), name="neg_inf"),
        Sample((nonzero(rng, 3, 4), 3, -1, False), name="p3"),
        Sample((nonzero(rng, 3, 4), 1.5, (0, 1), True), name="p1_5"),
        Sample((nonzero(rng, 3, 4), 0.5, 0, False), name="p0_5"),
        Sample((nonzero(rng, 3, 4), 0, 1, False), name="p0"),
        Sample((nonzero(rng, 3, 4), 2, None, False), name="transposed", transposed=True),
        Sample((nonzero(rng), 2, None, False), name="0d"),
        Sample((np.array([[0.0, 0.0], [1.0, -2.0]]), 2, 1, False), name="edge_zero_row"),
    ]


OPS: list[OpInfo] = [
    # --- sum and mean -------------------------------------------------------------------------
    OpInfo("sum", lambda lib, x: x.sum(), full_samples()),
    OpInfo("sum_dim", reduce_call("sum"), dim_samples(), bad_inputs=BAD_DIMS),
    OpInfo("sum_function", lambda lib, x, dim, keepdim: lib.sum(x, dim, keepdim=keepdim),
           dim_samples(zero_d=False)),
    OpInfo("mean", lambda lib, x: x.mean(), full_samples()),
    OpInfo("mean_dtype", lambda lib, x: x.mean(dtype=lib.float64), full_samples()),
    OpInfo("mean_dim_dtype",
           lambda lib, x, dim, keepdim: lib.mean(x, dim, keepdim, dtype=lib.float64),
           dim_samples(zero_d=False)),
    OpInfo("empty_dim_list", lambda lib, x: x.sum(dim=[]) + x.mean(dim=[], keepdim=True).sum()
           + x.norm(dim=[]) + x.amax(dim=[]), full_samples(distinct, zero_d=False)),
    # An empty list of dims reduces everything forward, but PyTorch's var/std backward then
    # divides by n - correction with n = 1: infinite gradients (reproduced; no finite
    # differences).
    OpInfo("var_empty_dim_list", lambda lib, x: x.var(dim=[]) + x.std(dim=[], correction=0),
           lambda rng: [Sample((real(rng, 3, 4),), name="edge_2d"),
                        Sample((real(rng, 2, 3, 2),), name="edge_3d")]),
    OpInfo("mean_dim", reduce_call("mean"), dim_samples(), bad_inputs=BAD_DIMS),
    # --- prod ---------------------------------------------------------------------------------
    OpInfo("prod", lambda lib, x: x.prod(),
           with_edge(full_samples(nonzero), ([[1.5, 0.0], [2.0, -1.0]],),
                     ([[0.0, 2.0], [0.0, -1.0]],))),
    OpInfo("prod_dim", lambda lib, x, dim, keepdim: lib.prod(x, dim, keepdim=keepdim),
           with_edge(dim_samples(nonzero, tuples=False),
                     ([[1.5, 0.0, 2.0], [0.0, 0.0, 1.0]], 1, False),
                     ([[1.5, 0.0], [2.0, 3.0]], 0, True)),
           bad_inputs=BAD_DIM),
    # --- var and std --------------------------------------------------------------------------
    OpInfo("var", call_var("var"), var_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), 2, None, None, False), name="dim"),)),
    OpInfo("std", call_var("std"), var_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), (1, 1), None, None, False), name="dims"),)),
    OpInfo("var_function", lambda lib, x: lib.var(x, -1, keepdim=True),
           full_samples(zero_d=False)),
    OpInfo("std_function", lambda lib, x: lib.std(x), full_samples(zero_d=False)),
    # --- max and min --------------------------------------------------------------------------
    OpInfo("max", lambda lib, x: x.max(), with_edge(full_samples(distinct), (TIES,)),
           bad_inputs=BAD_EMPTY_FULL),
    OpInfo("min", lambda lib, x: lib.min(x), with_edge(full_samples(distinct), (TIES,)),
           bad_inputs=BAD_EMPTY_FULL),
    OpInfo("max_dim", lambda lib, x, dim, keepdim: x.max(dim, keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, False), (TIES, 0, True)),
           output_index=0, bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM)),
    OpInfo("max_dim_keyword", lambda lib, x, dim: lib.max(x, dim=dim, keepdim=True).values,
           lambda rng: [Sample((distinct(rng, 3, 4), 1), name="2d")]),
    OpInfo("max_dim_indices", lambda lib, x, dim, keepdim: x.max(dim, keepdim).indices,
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, False)),
           differentiable=False),
    OpInfo("min_dim", lambda lib, x, dim, keepdim: lib.min(x, dim, keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, True)),
           output_index=0, bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM)),
    OpInfo("amax", reduce_call("amax"),
           with_edge(dim_samples(distinct), (TIES, 1, False), (TIES, (0, 1), True), (TIES, None)),
           bad_inputs=(*BAD_DIMS, *BAD_EMPTY_DIM)),
    OpInfo("amin", lambda lib, x, dim, keepdim: lib.amin(x, dim, keepdim),
           with_edge(dim_samples(distinct), (TIES, 0, False), ([[1.0, 1.0], [1.0, 1.0]], (), True)),
           bad_inputs=(*BAD_DIMS, *BAD_EMPTY_DIM)),
    OpInfo("argmax", reduce_call("argmax"),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, False), (TIES, None)),
           differentiable=False,
           bad_inputs=(*BAD_DIM, BadInput((np.ones((0, 3)),), name="empty"))),
    OpInfo("argmin", lambda lib, x, dim, keepdim: lib.argmin(x, dim, keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 0, True)),
           differentiable=False, bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM)),
    # --- median, nanmedian (ops/median.py) -------------------------------------------------
    OpInfo("median", lambda lib, x: x.median(),
           with_edge(full_samples(distinct), (TIES,), ([[1.0, np.nan], [2.0, 3.0]],),
                     ([[2.0, 2.0], [2.0, 1.0]],)),
           bad_inputs=(BadInput((np.ones(3, dtype=bool),), name="bool"),)),
    OpInfo("median_dim", lambda lib, x, dim, keepdim: x.median(dim, keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, False), (TIES, 0, True),
                     (MEDIAN_TIES, 1, False), ([[1.0, np.nan, 2.0], [3.0, 1.0, 2.0]], 1, True)),
           output_index=0,
           bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM,
                       BadInput((np.ones((2, 3), dtype=bool), 0, False), name="bool"))),
    OpInfo("median_dim_indices", lambda lib, x, dim, keepdim: lib.median(x, dim, keepdim).indices,
           with_edge(dim_samples(distinct, tuples=False), (MEDIAN_TIES, 1, False),
                     (MEDIAN_TIES, 0, True)),
           differentiable=False, op="median"),
    OpInfo("nanmedian", lambda lib, x: lib.nanmedian(x),
           with_edge(full_samples(distinct), (TIES,), ([[1.0, np.nan], [2.0, 3.0]],),
                     ([[np.nan, np.nan]],))),
    OpInfo("nanmedian_dim", lambda lib, x, dim, keepdim: x.nanmedian(dim, keepdim),
           with_edge(dim_samples(distinct, tuples=False), (MEDIAN_TIES, 1, False),
                     (NAN_ROWS, 1, False), (NAN_ROWS, 0, True)),
           output_index=0, bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM), op="nanmedian"),
    # --- var_mean, std_mean, aminmax (ops/reduction_pairs.py) --------------------------------
    OpInfo("var_mean", call_moments("var_mean", 0), var_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), 2, None, None, False), name="dim"),
                       BadInput((np.ones((2, 3), dtype=np.int64), 1, None, None, False),
                                name="integer"))),
    OpInfo("var_mean_mean", call_moments("var_mean", 1), var_samples, op="var_mean"),
    OpInfo("var_mean_both", call_moments("var_mean"), var_samples, op="var_mean"),
    OpInfo("std_mean", call_moments("std_mean", 0), var_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), (1, 1), None, None, False), name="dims"),)),
    OpInfo("std_mean_mean", call_moments("std_mean", 1), var_samples, op="std_mean"),
    OpInfo("std_mean_both", call_moments("std_mean"), var_samples, op="std_mean"),
    OpInfo("aminmax", lambda lib, x, dim, keepdim: x.aminmax(dim=dim, keepdim=keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 1, False), (TIES, None, True),
                     ([[1.0, np.nan], [2.0, 3.0]], 0, False)),
           output_index=0,
           bad_inputs=(*BAD_DIM, *BAD_EMPTY_DIM,
                       BadInput((np.ones((0, 3)), None, False), name="empty"))),
    OpInfo("aminmax_max", lambda lib, x, dim, keepdim: lib.aminmax(x, dim=dim, keepdim=keepdim),
           with_edge(dim_samples(distinct, tuples=False), (TIES, 0, True)),
           output_index=1, op="aminmax"),
    OpInfo("aminmax_both", lambda lib, x: (lambda r: r.min * 2 + r.max)(lib.aminmax(x)),
           with_edge(full_samples(distinct), (TIES,)), op="aminmax"),
    # --- logsumexp, norm ----------------------------------------------------------------------
    OpInfo("logsumexp", lambda lib, x, dim, keepdim: x.logsumexp(dim, keepdim),
           with_edge(dim_samples(), ([[-1000.0, -1000.0], [1000.0, 999.0]], 1, False)),
           bad_inputs=BAD_DIMS),
    OpInfo("norm", lambda lib, x, p, dim, keepdim: x.norm(p, dim, keepdim), norm_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), 2, 2, False), name="dim"),
                       BadInput((np.ones((2, 3)), "abc", None, False), name="order"))),
    # --- cumulative ---------------------------------------------------------------------------
    OpInfo("cumsum", lambda lib, x, dim: x.cumsum(dim), cumulative_samples(),
           bad_inputs=(BadInput((np.ones((2, 3)), 2), name="dim"),)),
    OpInfo("cumprod", lambda lib, x, dim: lib.cumprod(x, dim),
           with_edge(cumulative_samples(nonzero),
                     ([[1.5, 0.0, 2.0, -1.0], [0.0, 0.0, 1.0, 2.0]], 1),
                     ([[0.5, 2.0], [0.0, 3.0], [2.0, 0.0]], 0)),
           bad_inputs=(BadInput((np.ones((2, 3)), -3), name="dim"),)),
    OpInfo("logcumsumexp", lambda lib, x, dim: lib.logcumsumexp(x, dim),
           with_edge(cumulative_samples(),
                     ([[-1000.0, 1000.0, 999.0], [np.inf, 0.0, -np.inf]], 1),
                     ([[-np.inf, -np.inf], [0.0, np.nan]], 0),
                     (np.zeros((0, 3)), 1)),
           bad_inputs=(BadInput((np.ones((2, 3)), 2), name="dim"),
                       BadInput((np.ones((2, 3), dtype=np.int64), 0), name="integer"))),
    OpInfo("logcumsumexp_method", lambda lib, x, dim: x.logcumsumexp(dim), cumulative_samples(),
           op="logcumsumexp"),
    # --- softmax ------------------------------------------------------------------------------
    OpInfo("softmax", lambda lib, x, dim: lib.softmax(x, dim), softmax_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), 2), name="dim"),
                       BadInput((np.ones((2, 3), dtype=np.int64), 0), name="integer"),
                       BadInput((np.ones((2, 3), dtype=np.int64), 1), name="integer_last"))),
    OpInfo("softmax_method", lambda lib, x, dim: x.softmax(dim), softmax_samples),
    OpInfo("softmax_dtype", lambda lib, x, dim: x.softmax(dim, dtype=lib.float64),
           softmax_samples),
    OpInfo("log_softmax", lambda lib, x, dim: x.log_softmax(dim), softmax_samples,
           bad_inputs=(BadInput((np.ones((2, 3), dtype=np.int64), 0), name="integer"),)),
    OpInfo("log_softmax_function", lambda lib, x, dim: lib.log_softmax(x, dim), softmax_samples),
    # --- all and any --------------------------------------------------------------------------
    # --- kthvalue, mode, cummax, cummin (ops/selection.py) --------------------------------------
    OpInfo("kthvalue", lambda lib, x, dim: x.kthvalue(2, dim)[0], selection_samples,
           bad_inputs=(BadInput((np.ones((2, 1)), 1), name="k_too_large"),)),
    OpInfo("kthvalue_keepdim", lambda lib, x, dim: lib.kthvalue(x, 1, dim, True)[0],
           selection_samples, op="kthvalue"),
    OpInfo("kthvalue_ties", lambda lib, x, dim: lib.kthvalue(x, 3, dim)[0], tie_samples,
           op="kthvalue"),
    OpInfo("mode", lambda lib, x, dim: lib.mode(x, dim)[0], tie_samples),
    OpInfo("mode_keepdim", lambda lib, x, dim: x.mode(dim, keepdim=True)[0], selection_samples,
           op="mode"),
    OpInfo("cummax", lambda lib, x, dim: lib.cummax(x, dim)[0], cumulative_samples()),
    OpInfo("cummax_ties", lambda lib, x, dim: x.cummax(dim)[0], tie_samples, op="cummax"),
    OpInfo("cummin", lambda lib, x, dim: x.cummin(dim)[0], cumulative_samples()),
    OpInfo("cummin_ties", lambda lib, x, dim: lib.cummin(x, dim)[0], tie_samples, op="cummin"),
    # the indices PyTorch picks among ties and NaNs
    *[OpInfo(f"{name}_indices", call, tie_samples, differentiable=False, op=name)
      for name, call in (("kthvalue", lambda lib, x, dim: x.kthvalue(3, dim).indices),
                         ("mode", lambda lib, x, dim: x.mode(dim).indices),
                         ("cummax", lambda lib, x, dim: x.cummax(dim).indices),
                         ("cummin", lambda lib, x, dim: x.cummin(dim).indices))],
    # --- nansum, count_nonzero (ops/reduction_extra.py) ------------------------------------
    OpInfo("nansum", reduce_call("nansum"),
           with_edge(and_with_nans(dim_samples), ([[np.nan, np.nan], [1.0, 2.0]], 1, False),
                     ([[np.nan, 2.0]], (), True), ([[np.nan, 2.0], [3.0, 4.0]], None)),
           bad_inputs=BAD_DIMS),
    OpInfo("nansum_function", lambda lib, x: lib.nansum(x), and_with_nans(full_samples),
           op="nansum"),
    OpInfo("nansum_dtype", lambda lib, x, dim: lib.nansum(x, dim, dtype=lib.float64),
           lambda rng: [Sample((real(rng, 3, 4), 1), name="2d"),
                        Sample((with_nans(rng, 3, 4), 0), name="nan_2d")], op="nansum"),
    OpInfo("count_nonzero", lambda lib, x, dim: x.count_nonzero() if dim is None else
           lib.count_nonzero(x, dim), count_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones((2, 3)), 2), name="dim_out_of_range"),
                       BadInput((np.ones((2, 3)), (1, 1)), name="dim_repeated"))),
    OpInfo("all", reduce_call("all"), logical_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones((2, 3)), 3, False), name="dim"),)),
    OpInfo("any", lambda lib, x, dim, keepdim: lib.any(x) if dim is None else
           lib.any(x, dim, keepdim), logical_samples, differentiable=False),
]
