"""Op-table rows of the writes into a copy (ops/view_scatters.py, index_writes.py, indexing.py):
slice_scatter, select_scatter, diagonal_scatter, index_put (and index_put_), put (and put_),
index_reduce (and index_reduce_).

Index tensors are int64 arrays, masks bool arrays (the mutation matrix writes them too: put,
index_put and index_reduce save them). index_reduce warns once that it is beta (in PyTorch too):
its rows call it ``quietly``. Samples named ``edge...`` hold ties (amax, amin) or zeros (prod):
compared with PyTorch, left out of finite differences.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first, quietly
from opinfo.shape import distinct, index, real

# --- slice_scatter, select_scatter, diagonal_scatter ----------------------------------------------


def slice_scatter_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 2, 3), 0, 1, 3, 1), name="dim0"),
        Sample((real(rng, 3, 5), real(rng, 3, 2), -1, None, None, 3), name="step"),
        Sample((real(rng, 2, 3, 4), real(rng, 2, 1, 4), 1, -1, 9, 1), name="negative_start"),
        Sample(
            (real(rng, 4, 3), real(rng, 4, 2), 1, 1, None, 1), name="transposed", transposed=True
        ),
        Sample((real(rng, 4), real(rng, 0), 0, 3, 1, 1), name="edge_empty"),
    ]


BAD_SLICE_SCATTER = (
    BadInput((np.ones((4, 3)), np.ones((3, 3)), 0, 1, 3, 1), name="src_shape"),
    BadInput((np.ones((4, 3)), np.ones((2, 3)), 0, 1, 3, 0), name="step_zero"),
    BadInput((np.ones((4, 3)), np.ones((2, 3)), 2, 1, 3, 1), name="dim"),
    BadInput((np.ones(()), np.ones(()), 0, None, None, 1), name="0d"),
)


def select_scatter_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 4), 0, -1), name="dim0"),
        Sample((real(rng, 2, 3, 4), real(rng, 2, 4), 1, 1), name="3d"),
        Sample((real(rng, 3, 4), real(rng, 3), -1, 2), name="transposed", transposed=True),
        Sample((real(rng, 4), np.asarray(real(rng)), 0, 2), name="vector"),
    ]


BAD_SELECT_SCATTER = (
    BadInput((np.ones((4, 3)), np.ones(4), 0, 1), name="src_shape"),
    BadInput((np.ones((4, 3)), np.ones(3), 0, 4), name="index"),
    BadInput((np.ones(()), np.ones(()), 0, 0), name="0d"),
)


def diagonal_scatter_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3), 0, 0, 1), name="main"),
        Sample((real(rng, 3, 4), real(rng, 2), 2, 0, 1), name="above"),
        Sample((real(rng, 2, 3, 4), real(rng, 3, 2), -1, 2, 0), name="3d_below"),
        Sample((real(rng, 4, 4), real(rng, 4), 0, 1, 0), name="transposed", transposed=True),
    ]


BAD_DIAGONAL_SCATTER = (
    BadInput((np.ones((4, 3)), np.ones(4), 0, 0, 1), name="src_shape"),
    BadInput((np.ones((4, 3)), np.ones(3), 0, 1, -1), name="same_dims"),
)

# --- index_put, put -------------------------------------------------------------------------------


def index_put_call(lib: Any, x: Any, values: Any, accumulate: bool, *indices: Any) -> Any:
    return x.index_put(indices, values, accumulate=accumulate)


def index_put_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 2, 3), False, index(0, 2)), name="rows"),
        Sample((real(rng, 4, 3), real(rng, 3, 3), True, index(0, 3, 0)), name="accumulate"),
        Sample(
            (real(rng, 4, 3), real(rng, 3), True, index(1, 2, 1), index(0, -1, 0)),
            name="two_indices",
        ),
        Sample(
            (real(rng, 4, 3), np.asarray(real(rng)), False, rng.uniform(size=(4, 3)) > 0.5),
            name="mask",
        ),
        Sample(
            (real(rng, 4, 3), real(rng, 1, 3), False, index(3, 1)),
            name="transposed",
            transposed=True,
        ),
        Sample(
            (real(rng, 2, 3, 4), real(rng, 2, 4), True, index(0, 1), index(2, 0)),
            name="3d_broadcast_values",
        ),
    ]


BAD_INDEX_PUT = (
    BadInput(
        (np.ones((4, 3)), np.ones((2, 3), dtype=np.int64), False, index(0, 1)), name="values_dtype"
    ),
    BadInput((np.ones((4, 3)), np.ones(3), False, index(0), index(0), index(0)), name="too_many"),
    BadInput((np.ones((4, 3)), np.ones(3), False, np.ones(1)), name="float_index"),
    BadInput((np.ones((4, 3)), np.ones(2), False, index(0, 1)), name="broadcast"),
    BadInput((np.ones((4, 3)), np.ones(3), True, index(4)), name="out_of_bounds"),
)


def put_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), index(0, 5, -1), real(rng, 3), False), name="write"),
        Sample((real(rng, 3, 4), index([0, 1], [1, 0]), real(rng, 2, 2), True), name="accumulate"),
        Sample(
            (real(rng, 3, 4), index(2, 7), real(rng, 2), False), name="transposed", transposed=True
        ),
        Sample((real(rng, 2, 3, 2), index(11, -12, 4), real(rng, 3), True), name="3d"),
    ]


BAD_PUT = (
    BadInput(
        (np.ones((3, 4)), index(0, 1).astype(np.int32), np.ones(2), False), name="int32_index"
    ),
    BadInput(
        (np.ones((3, 4)), index(0, 1), np.ones(2, dtype=np.int64), False), name="source_dtype"
    ),
    BadInput((np.ones((3, 4)), index(0, 1), np.ones(3), False), name="count"),
    BadInput((np.ones((3, 4)), index(0, 12), np.ones(2), False), name="out_of_range"),
    BadInput((np.ones((3, 4)), index(0, -13), np.ones(2), True), name="negative_out_of_range"),
)

# --- index_reduce ---------------------------------------------------------------------------------


def index_reduce_call(
    lib: Any, x: Any, dim: int, idx: Any, src: Any, reduce: str, include_self: bool
) -> Any:
    return x.index_reduce(dim, idx, src, reduce, include_self=include_self)


def index_reduce_samples(rng: np.random.Generator) -> list[Sample]:
    ties_x = np.array([[1.0, 2.0], [3.0, 0.5], [1.0, 1.0]])
    ties_src = np.array([[1.0, 0.0], [1.0, 2.0]])
    zeros = np.array([[0.0, 2.0], [0.0, 0.0]])
    return [
        Sample(
            (distinct(rng, 4, 3), 0, index(0, 2, 0), distinct(rng, 3, 3), "prod", True), name="prod"
        ),
        Sample(
            (distinct(rng, 4, 3), 0, index(0, 2, 0), distinct(rng, 3, 3), "prod", False),
            name="prod_without_self",
        ),
        Sample(
            (distinct(rng, 3, 4), 1, index(3, 3, 1), distinct(rng, 3, 3), "mean", True), name="mean"
        ),
        Sample(
            (distinct(rng, 3, 4), -1, index(3, 3, 1), distinct(rng, 3, 3), "mean", False),
            name="mean_without_self",
            transposed=True,
        ),
        Sample(
            (distinct(rng, 4, 3), 0, index(1, 1, 2), distinct(rng, 3, 3), "amax", True), name="amax"
        ),
        Sample(
            (distinct(rng, 2, 3, 2), 1, index(0, 0), distinct(rng, 2, 2, 2), "amin", False),
            name="amin_without_self",
        ),
        Sample((ties_x, 0, index(0, 2), ties_src, "amax", True), name="edge_ties_amax"),
        Sample((ties_x, 0, index(2, 2), ties_src, "amin", False), name="edge_ties_amin"),
        Sample(
            (np.array([[0.0, 1.0], [2.0, 3.0]]), 0, index(0, 1), zeros, "prod", True),
            name="edge_zeros_prod",
        ),
    ]


BAD_INDEX_REDUCE = (
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 3)), "sum", True), name="reduce"),
    BadInput(
        (np.ones((4, 3)), 0, index(0, 1), np.ones((2, 3), dtype=np.int64), "prod", True),
        name="source_dtype",
    ),
    BadInput((np.ones((4, 3)), 0, index(0, 4), np.ones((2, 3)), "prod", True), name="out_of_range"),
    BadInput((np.ones((4, 3)), 0, index(0, 1, 2), np.ones((2, 3)), "amax", True), name="count"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 2)), "amin", True), name="shape"),
)


OPS: list[OpInfo] = [
    # --- slice_scatter, select_scatter, diagonal_scatter ----------------------------------------
    OpInfo(
        "slice_scatter",
        lambda lib, x, src, *options: lib.slice_scatter(x, src, *options),
        slice_scatter_samples,
        bad_inputs=BAD_SLICE_SCATTER,
    ),
    OpInfo(
        "slice_scatter_method",
        lambda lib, x, src, dim, start, end, step: x.slice_scatter(
            src, dim=dim, start=start, end=end, step=step
        ),
        first(slice_scatter_samples, 2),
        op="slice_scatter",
    ),
    OpInfo(
        "select_scatter",
        lambda lib, x, src, dim, i: lib.select_scatter(x, src, dim, i),
        select_scatter_samples,
        bad_inputs=BAD_SELECT_SCATTER,
    ),
    OpInfo(
        "select_scatter_src_only",
        lambda lib, x, src, dim, i: x.select_scatter(src, dim, i),
        first(select_scatter_samples, 2),
        grad_args=(1,),
        op="select_scatter",
    ),
    OpInfo(
        "diagonal_scatter",
        lambda lib, x, src, *options: lib.diagonal_scatter(x, src, *options),
        diagonal_scatter_samples,
        bad_inputs=BAD_DIAGONAL_SCATTER,
    ),
    OpInfo(
        "diagonal_scatter_method",
        lambda lib, x, src, offset, dim1, dim2: x.diagonal_scatter(src, offset, dim1, dim2),
        first(diagonal_scatter_samples, 2),
        op="diagonal_scatter",
    ),
    # --- index_put, put ---------------------------------------------------------------------------
    OpInfo("index_put", index_put_call, index_put_samples, bad_inputs=BAD_INDEX_PUT),
    OpInfo(
        "index_put_function",
        lambda lib, x, values, accumulate, *indices: lib.index_put(x, indices, values, accumulate),
        first(index_put_samples, 2),
        op="index_put",
    ),
    OpInfo("index_put_values_only", index_put_call, first(index_put_samples, 3), grad_args=(1,)),
    OpInfo(
        "index_put_inplace",
        lambda lib, x, values, accumulate, *indices: x.clone().index_put_(
            indices, values, accumulate
        ),
        first(index_put_samples, 4),
        inplace=True,
        op="index_put_",
    ),
    OpInfo(
        "put",
        lambda lib, x, idx, src, accumulate: x.put(idx, src, accumulate),
        put_samples,
        bad_inputs=BAD_PUT,
    ),
    OpInfo(
        "put_function",
        lambda lib, x, idx, src, accumulate: lib.put(x, idx, src, accumulate=accumulate),
        first(put_samples, 2),
        op="put",
    ),
    OpInfo(
        "put_inplace",
        lambda lib, x, idx, src, accumulate: x.clone().put_(idx, src, accumulate),
        first(put_samples, 2),
        inplace=True,
        op="put_",
    ),
    # --- index_reduce -----------------------------------------------------------------------------
    OpInfo(
        "index_reduce",
        quietly(index_reduce_call),
        index_reduce_samples,
        bad_inputs=BAD_INDEX_REDUCE,
    ),
    OpInfo(
        "index_reduce_function",
        quietly(
            lambda lib, x, dim, idx, src, reduce, include_self: lib.index_reduce(
                x, dim, idx, src, reduce, include_self=include_self
            )
        ),
        first(index_reduce_samples, 1),
        op="index_reduce",
    ),
    OpInfo(
        "index_reduce_source_only",
        quietly(index_reduce_call),
        lambda rng: index_reduce_samples(rng)[1:6:2],
        grad_args=(3,),
    ),
    OpInfo(
        "index_reduce_inplace",
        quietly(
            lambda lib, x, dim, idx, src, reduce, include_self: x.clone().index_reduce_(
                dim, idx, src, reduce, include_self=include_self
            )
        ),
        lambda rng: index_reduce_samples(rng)[:6:2],
        inplace=True,
        op="index_reduce_",
    ),
]
