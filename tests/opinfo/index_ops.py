"""Op-table rows of writing at indices and of diagonals (ops/index_ops.py, constructions.py):
index_add, index_copy, index_fill, scatter(reduce=), scatter_reduce, masked_scatter, take,
diag, diag_embed, cartesian_prod; each in-place variant through a clone.

Index tensors are int64 arrays (the mutation matrix writes them too: most of these ops save
them). Rows named ``..._src_only`` / ``..._self_only`` make one operand require grad: PyTorch
saves the source of index_add and index_copy only when it needs a gradient. Samples named
``edge...`` hold ties (amax, amin) or zeros (prod): compared with PyTorch, left out of finite
differences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first, quietly
from opinfo.shape import distinct, index, real

Samples = Callable[[np.random.Generator], list[Sample]]


# --- index_add, index_copy, index_fill --------------------------------------------------------


def index_add_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), 0, index(0, 2, 0), real(rng, 3, 3), 1), name="repeated"),
        Sample((real(rng, 4, 3), 1, index(2, 1), real(rng, 4, 2), 2.5), name="dim1_alpha"),
        Sample((real(rng, 2, 3, 4), -1, index(3), real(rng, 2, 3, 1), -1), name="3d"),
        Sample((real(rng, 4, 3), 0, index(3, 1), real(rng, 2, 3), 1), name="transposed",
               transposed=True),
        Sample((real(rng), 0, np.array(0), real(rng), 1), name="0d"),
    ]


def index_add_call(lib: Any, x: Any, dim: int, idx: Any, src: Any, alpha: Any) -> Any:
    return x.index_add(dim, idx, src, alpha=alpha)


BAD_INDEX_ADD = (
    BadInput((np.ones((4, 3)), 0, index(0, 4), np.ones((2, 3)), 1), name="out_of_bounds"),
    BadInput((np.ones((4, 3)), 0, index(0, -1), np.ones((2, 3)), 1), name="negative"),
    BadInput((np.ones((4, 3)), 0, index(0, 1).astype(np.float64), np.ones((2, 3)), 1),
             name="float_index"),
    BadInput((np.ones((4, 3)), 0, index([0, 1]), np.ones((2, 3)), 1), name="2d_index"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((3, 3)), 1), name="count"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 4)), 1), name="shape"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 3), dtype=np.int64), 1),
             name="dtype"),
    BadInput((np.ones((4, 3)), 2, index(0, 1), np.ones((2, 3)), 1), name="dim"),
    BadInput((np.ones(()), 0, index(0), np.ones(1), 1), name="0d_self"),
)


def index_copy_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), 0, index(3, 0), real(rng, 2, 3)), name="dim0"),
        Sample((real(rng, 4, 3), -1, index(2, 0, 1), real(rng, 4, 3)), name="permute"),
        Sample((real(rng, 2, 3, 4), 1, index(1), real(rng, 2, 1, 4)), name="3d"),
        Sample((real(rng, 4, 3), 0, index(1, 2), real(rng, 2, 3)), name="transposed",
               transposed=True),
        Sample((real(rng, 3), 0, index(1), real(rng)), name="scalar_source"),
    ]


BAD_INDEX_COPY = (
    BadInput((np.ones((4, 3)), 0, index(0, 4), np.ones((2, 3))), name="out_of_bounds"),
    BadInput((np.ones((4, 3)), 0, index(0, -1), np.ones((2, 3))), name="negative"),
    BadInput((np.ones((4, 3)), 0, index(0, 1).astype(np.int32), np.ones((2, 3))),
             name="int32_index"),
    BadInput((np.ones((4, 3)), 0, index([0, 1]), np.ones((2, 3))), name="2d_index"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((3, 3))), name="count"),
    BadInput((np.ones((4, 3, 2)), 0, index(0), np.ones((1, 2, 2))), name="slice_shape"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 3, 1))), name="ndim"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones(())), name="scalar_source"),
    BadInput((np.ones((4, 3)), 0, index(0, 1), np.ones((2, 3), dtype=np.int64)),
             name="dtype"),
)


def index_fill_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), 0, index(0, 2, 0), 1.5), name="repeated"),
        Sample((real(rng, 4, 3), 1, index(-1), -2.0), name="negative_index"),
        Sample((real(rng, 2, 3, 4), -1, index(1, 3), 0.0), name="3d"),
        Sample((real(rng, 4, 3), 0, index(1), 2.0), name="transposed", transposed=True),
        Sample((real(rng), 0, np.array(0), 3.0), name="0d"),
    ]


def index_fill_tensor_samples(rng: np.random.Generator) -> list[Sample]:
    # (Not with negative indices: PyTorch's backward for the value's gradient then raises
    # "INDICES element is out of DATA bounds", a bug minigrad does not copy.)
    return [Sample((*s.args[:3], real(rng)), name=s.name, transposed=s.transposed)
            for s in index_fill_samples(rng) if s.name != "negative_index"]


BAD_INDEX_FILL = (
    BadInput((np.ones((4, 3)), 0, index(0, 4), 1.0), name="out_of_bounds"),
    BadInput((np.ones((4, 3)), 0, index(0, 1).astype(np.int32), 1.0), name="int32_index"),
    BadInput((np.ones((4, 3)), 0, index([0, 1]), 1.0), name="2d_index"),
    BadInput((np.ones((4, 3)), 2, index(0), 1.0), name="dim"),
)

# --- scatter_reduce and scatter(reduce=) -----------------------------------------------------

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
SCATTER_INDEX = index([0, 1, 2], [3, 0, 1], [0, 1, 1])


def scatter_reduce_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduce in REDUCTIONS:
        for include_self in (True, False):
            out.append(Sample((distinct(rng, 4, 3), 0, SCATTER_INDEX, distinct(rng, 3, 3),
                               reduce, include_self), name=f"{reduce}_{include_self}"))
    out += [
        Sample((distinct(rng, 3, 4), 1, index([3, 3], [0, 1], [2, 2]), distinct(rng, 3, 2),
                "mean", True), name="transposed", transposed=True),
        Sample((distinct(rng, 2, 3, 2), -1, index([[1], [0], [1]], [[0], [0], [1]]),
                distinct(rng, 2, 3, 1), "amax", False), name="3d"),
        Sample((real(rng), 0, np.array(0), real(rng), "prod", True), name="0d"),
        # Ties and zeros: PyTorch's conventions (an even split; zeros counted apart).
        Sample((np.ones((3, 2)), 0, index([0, 0], [0, 1]), np.ones((2, 2)), "amax", True),
               name="edge_ties"),
        Sample((np.array([[0.0, 2.0], [3.0, 0.0]]), 0, index([0, 0], [0, 1]),
                np.array([[0.0, 0.5], [2.0, 0.0]]), "prod", True), name="edge_zeros"),
        Sample((np.array([[1.0, 2.0], [3.0, 4.0]]), 0, index([0, 0], [0, 0]),
                np.array([[0.0, 0.5], [0.0, 0.0]]), "prod", False), name="edge_two_zeros"),
    ]
    return out


BAD_SCATTER_REDUCE = (
    BadInput((np.ones((3, 4)), 0, index([0, 5, 1, 0]), np.ones((1, 4)), "sum", True),
             name="out_of_bounds"),
    BadInput((np.ones((3, 4)), 0, index([0, 5, 1, 0]), np.ones((1, 4)), "add", True),
             name="reduce_before_bounds"),
    BadInput((np.ones((3, 4)), 0, index([0, 1]).astype(np.float64), np.ones((1, 2)), "sum",
              True), name="float_index"),
    BadInput((np.ones((3, 4)), 0, index([0, 1]), np.ones((1, 2), dtype=np.int64), "sum", True),
             name="src_dtype"),
    BadInput((np.ones((3, 4)), 0, np.zeros((2, 5), dtype=np.int64), np.ones((2, 5)), "sum",
              True), name="shape"),
)


def scatter_legacy_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), 0, SCATTER_INDEX, real(rng, 3, 3), "add"), name="add"),
        Sample((real(rng, 4, 3), 0, SCATTER_INDEX, real(rng, 3, 3), "multiply"),
               name="multiply"),
        Sample((real(rng, 4, 3), 1, index([2, 2], [0, 1]), 2.5, "multiply"), name="value"),
    ]


# --- masked_scatter, take ---------------------------------------------------------------------


def masked_scatter_samples(rng: np.random.Generator) -> list[Sample]:
    mask = rng.random((4, 3)) < 0.5
    return [
        Sample((real(rng, 4, 3), mask, real(rng, 4, 3)), name="plain"),
        Sample((real(rng, 4, 3), np.array([True, False, True]), real(rng, 3, 4)),
               name="mask_broadcast"),
        Sample((real(rng, 3), rng.random((2, 3)) < 0.5, real(rng, 7)), name="self_broadcast"),
        Sample((real(rng, 4, 3), mask, real(rng, 4, 3)), name="transposed", transposed=True),
        Sample((real(rng), np.array(True), real(rng, 2)), name="0d"),
    ]


BAD_MASKED_SCATTER = (
    BadInput((np.ones((4, 3)), np.ones((4, 3)), np.ones(12)), name="float_mask"),
    BadInput((np.ones((4, 3)), np.ones((4, 3), dtype=np.uint8), np.ones(12)), name="byte_mask"),
    BadInput((np.ones((4, 3)), np.ones((4, 3), dtype=bool), np.ones(5)), name="source_small"),
    BadInput((np.ones((4, 3)), np.ones((4, 3), dtype=bool), np.ones(12, dtype=np.int64)),
             name="source_dtype"),
    BadInput((np.ones((4, 3)), np.ones(2, dtype=bool), np.ones(12)), name="broadcast"),
)


def take_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), index([0, 5], [11, 5])), name="2d_index"),
        Sample((real(rng, 4, 3), index(-1, 0, -12)), name="negative"),
        Sample((real(rng, 2, 3, 2), np.array(7)), name="0d_index"),
        Sample((real(rng, 4, 3), index(1, 2, 3)), name="transposed", transposed=True),
        Sample((real(rng), index(0, 0)), name="0d"),
    ]


BAD_TAKE = (
    BadInput((np.ones((4, 3)), index(12)), name="out_of_bounds"),
    BadInput((np.ones((4, 3)), index(-13)), name="negative_out_of_bounds"),
    BadInput((np.ones((4, 3)), index(1).astype(np.int32)), name="int32_index"),
)

# --- diag, diag_embed, cartesian_prod ---------------------------------------------------------


def diag_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3), 0), name="vector"),
        Sample((real(rng, 3), 2), name="vector_above"),
        Sample((real(rng, 2), -1), name="vector_below"),
        Sample((real(rng, 3, 4), 0), name="matrix"),
        Sample((real(rng, 3, 4), 2), name="matrix_above"),
        Sample((real(rng, 4, 3), -3), name="matrix_below"),
        Sample((real(rng, 2, 3), 5), name="matrix_empty"),
        Sample((real(rng, 3, 4), -1), name="transposed", transposed=True),
    ]


def diag_embed_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3), 0, -2, -1), name="default"),
        Sample((real(rng, 2, 3), 1, 0, 2), name="outer_dims"),
        Sample((real(rng, 2, 3), -2, 2, 0), name="swapped_dims"),
        Sample((real(rng, 3), 0, 1, 0), name="vector"),
        Sample((real(rng, 2, 3), 1, -1, -3), name="transposed", transposed=True),
    ]


def cartesian_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2), real(rng, 3)), name="two"),
        Sample((real(rng, 2), real(rng, 1), real(rng, 3)), name="three"),
    ]


def combinations_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4), 2, False), name="pairs"),
        Sample((real(rng, 4), 3, True), name="triples_with_replacement"),
        Sample((real(rng, 3), 1, False), name="singles"),
        Sample((real(rng, 2), 3, False), name="edge_none"),
    ]


OPS: list[OpInfo] = [
    # --- index_add -----------------------------------------------------------------------------
    OpInfo("index_add", index_add_call, index_add_samples, bad_inputs=BAD_INDEX_ADD),
    OpInfo("index_add_function",
           lambda lib, x, dim, idx, src, alpha: lib.index_add(x, dim, idx, src, alpha=alpha),
           first(index_add_samples, 2)),
    OpInfo("index_add_self_only", index_add_call, index_add_samples, grad_args=(0,)),
    OpInfo("index_add_src_only", index_add_call, index_add_samples, grad_args=(3,)),
    OpInfo("index_add_inplace",
           lambda lib, x, dim, idx, src, alpha: x.clone().index_add_(dim, idx, src, alpha=alpha),
           first(index_add_samples, 3), inplace=True, op="index_add_"),
    # --- index_copy ----------------------------------------------------------------------------
    OpInfo("index_copy", lambda lib, x, dim, idx, src: x.index_copy(dim, idx, src),
           index_copy_samples, bad_inputs=BAD_INDEX_COPY),
    OpInfo("index_copy_self_only", lambda lib, x, dim, idx, src: lib.index_copy(x, dim, idx, src),
           index_copy_samples, grad_args=(0,)),
    OpInfo("index_copy_inplace",
           lambda lib, x, dim, idx, src: x.clone().index_copy_(dim, idx, src),
           first(index_copy_samples, 3), grad_args=(3,), inplace=True, op="index_copy_"),
    # --- index_fill ----------------------------------------------------------------------------
    OpInfo("index_fill", lambda lib, x, dim, idx, value: x.index_fill(dim, idx, value),
           index_fill_samples, bad_inputs=BAD_INDEX_FILL),
    OpInfo("index_fill_tensor", lambda lib, x, dim, idx, value: lib.index_fill(x, dim, idx, value),
           index_fill_tensor_samples,
           bad_inputs=(BadInput((np.ones((4, 3)), 0, index(0), np.ones(1)), name="1d_value"),)),
    OpInfo("index_fill_inplace",
           lambda lib, x, dim, idx, value: x.clone().index_fill_(dim, idx, value),
           first(index_fill_tensor_samples, 2), inplace=True, op="index_fill_"),
    # --- scatter_reduce, scatter(reduce=), scatter_add_ ---------------------------------------
    OpInfo("scatter_reduce",
           lambda lib, x, dim, idx, src, reduce, include_self:
           x.scatter_reduce(dim, idx, src, reduce, include_self=include_self),
           scatter_reduce_samples, bad_inputs=BAD_SCATTER_REDUCE),
    OpInfo("scatter_reduce_inplace",
           lambda lib, x, dim, idx, src, reduce, include_self:
           x.clone().scatter_reduce_(dim, idx, src, reduce, include_self=include_self),
           lambda rng: scatter_reduce_samples(rng)[::3], inplace=True, op="scatter_reduce_"),
    OpInfo("scatter_reduce_max_alias",  # forward only: backward raises, as PyTorch
           lambda lib, x, dim, idx, src, reduce: lib.scatter_reduce(x, dim, idx, src, reduce),
           lambda rng: [Sample((distinct(rng, 4, 3), 0, SCATTER_INDEX, distinct(rng, 3, 3), r),
                               name=r) for r in ("max", "min")],
           differentiable=False),
    OpInfo("scatter_legacy_reduce",  # PyTorch's NotImplemented node: backward raises
           quietly(lambda lib, x, dim, idx, src, reduce: x.scatter(dim, idx, src, reduce=reduce)),
           scatter_legacy_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones((4, 3)), 0, index([5, 0, 0]), np.ones((1, 3)), "mean"),
                                name="reduce"),)),
    OpInfo("scatter_legacy_reduce_inplace",
           quietly(lambda lib, x, dim, idx, src, reduce:
                   x.clone().scatter_(dim, idx, src, reduce=reduce)),
           scatter_legacy_samples, differentiable=False, inplace=True, op="scatter_"),
    OpInfo("scatter_add_inplace",
           lambda lib, x, dim, idx, src, reduce: x.clone().scatter_add_(dim, idx, src),
           lambda rng: scatter_legacy_samples(rng)[:1], inplace=True, op="scatter_add_"),
    # --- masked_scatter, take ------------------------------------------------------------------
    OpInfo("masked_scatter", lambda lib, x, mask, src: x.masked_scatter(mask, src),
           masked_scatter_samples, bad_inputs=BAD_MASKED_SCATTER),
    OpInfo("masked_scatter_inplace", lambda lib, x, mask, src: x.clone().masked_scatter_(mask, src),
           lambda rng: [s for s in masked_scatter_samples(rng) if s.name != "self_broadcast"],
           bad_inputs=(BadInput((np.ones(3), np.ones((2, 3), dtype=bool), np.ones(6)),
                                name="mask_larger"),), inplace=True, op="masked_scatter_"),
    OpInfo("take", lambda lib, x, idx: lib.take(x, idx), take_samples, bad_inputs=BAD_TAKE),
    OpInfo("take_method", lambda lib, x, idx: x.take(idx), first(take_samples, 1)),
    # --- diag, diag_embed, cartesian_prod ------------------------------------------------------
    OpInfo("diag", lambda lib, x, diagonal: lib.diag(x, diagonal), diag_samples,
           bad_inputs=(BadInput((np.ones((2, 2, 2)), 0), name="3d"),
                       BadInput((np.ones(()), 0), name="0d"))),
    OpInfo("diag_method", lambda lib, x, diagonal: x.diag(diagonal),
           lambda rng: diag_samples(rng)[::3]),
    OpInfo("diag_embed",
           lambda lib, x, offset, dim1, dim2: lib.diag_embed(x, offset, dim1, dim2),
           diag_embed_samples,
           bad_inputs=(BadInput((np.ones(()), 0, -2, -1), name="0d"),
                       BadInput((np.ones(3), 0, 0, 0), name="same_dims"),
                       BadInput((np.ones(3), 0, 0, 2), name="dim"))),
    OpInfo("diag_embed_method",
           lambda lib, x, offset, dim1, dim2: x.diag_embed(offset, dim1, dim2),
           first(diag_embed_samples, 1)),
    OpInfo("cartesian_prod", lambda lib, *xs: lib.cartesian_prod(*xs), cartesian_samples,
           bad_inputs=(BadInput((np.ones((2, 2)), np.ones(2)), name="2d"),
                       BadInput((np.ones(()), np.ones(2)), name="0d"),
                       BadInput((np.ones(2), np.ones(2, dtype=np.int64)), name="dtype"),
                       BadInput((), name="none"))),
    OpInfo("combinations", lambda lib, x, r, repeat: lib.combinations(x, r, repeat),
           combinations_samples,
           bad_inputs=(BadInput((np.ones((2, 2)), 2, False), name="2d"),
                       BadInput((np.ones(3), -1, False), name="negative"))),
]
