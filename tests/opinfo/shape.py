"""Op-table rows of the shape-and-indexing (copies) family (ops/shape.py).

Index tensors are int64 arrays in the samples: they do not require grad, and the mutation
matrix writes them in place too (gather, scatter, index_select, sort... save them).
Samples named ``edge...`` hold ties (sort, topk): checked against PyTorch, skipped by finite
differences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample

Samples = Callable[[np.random.Generator], list[Sample]]


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, size=shape)


def distinct(rng: np.random.Generator, *shape: int) -> np.ndarray:
    count = int(np.prod(shape))
    values = rng.permutation(count) * 0.25 - count * 0.125 + rng.uniform(0, 0.1, size=count)
    return values.reshape(shape)


def index(*rows: Any) -> np.ndarray:
    return np.array(rows, dtype=np.int64)


def cat_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 4), real(rng, 3, 4), 0), name="dim0"),
        Sample((real(rng, 3, 2), real(rng, 3, 4), -1), name="dim_neg"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), 1), name="transposed", transposed=True),
        Sample((real(rng, 2, 1, 3), real(rng, 2, 2, 3), 1), name="3d"),
        Sample((real(rng, 4), real(rng, 0), 0), name="legacy_empty"),
        Sample((real(rng, 3), real(rng, 2), 0), name="1d"),
    ]


def stack_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3, 4), 0), name="dim0"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), 2), name="new_last"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), -2), name="dim_neg"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), 1), name="transposed", transposed=True),
        Sample((real(rng), real(rng), 0), name="0d"),
    ]


def pair_samples(rng: np.random.Generator) -> list[Sample]:
    """Two tensors of every dimension count the stacks grow (0-d to 3-d), and a transposed pair."""
    return [
        Sample((real(rng), real(rng)), name="0d"),
        Sample((real(rng, 3), real(rng, 3)), name="1d"),
        Sample((real(rng, 2, 3), real(rng, 2, 3)), name="2d"),
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="transposed", transposed=True),
        Sample((real(rng, 2, 3, 2), real(rng, 2, 3, 2)), name="3d"),
    ]


def one_of_each_rank(rng: np.random.Generator) -> list[Sample]:
    """One tensor of 0 to 3 dims, and a transposed matrix (atleast_Nd)."""
    return [
        Sample((real(rng),), name="0d"),
        Sample((real(rng, 3),), name="1d"),
        Sample((real(rng, 2, 3),), name="2d"),
        Sample((real(rng, 3, 4),), name="transposed", transposed=True),
        Sample((real(rng, 2, 1, 3),), name="3d"),
    ]


def broadcast_samples(rng: np.random.Generator) -> list[Sample]:
    """Pairs that broadcast: one way, both ways, with a 0-d tensor, of one shape."""
    return [
        Sample((real(rng, 3, 1), real(rng, 4)), name="both"),
        Sample((real(rng, 2, 3), real(rng, 3)), name="one_way"),
        Sample((real(rng), real(rng, 2, 2)), name="0d"),
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="same", transposed=True),
    ]


def grid_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3), real(rng, 2)), name="1d"),
        Sample((real(rng), real(rng, 4)), name="0d"),
    ]


def diff_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x,)`` with diff's options as keywords: orders, dims, prepend/append, transposed."""
    return [
        Sample((real(rng, 5),), name="1d"),
        Sample((real(rng, 5),), {"n": 2}, name="n2"),
        Sample((real(rng, 3),), {"n": 4}, name="n_past_length"),
        Sample((real(rng, 3, 4),), {"dim": 0}, name="dim0"),
        Sample((real(rng, 3, 4),), {"dim": -1, "n": 2}, name="transposed", transposed=True),
        Sample((real(rng, 3),), {"n": 0}, name="n0"),
    ]


def diff_joined_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3, 1), real(rng, 3, 2)), name="2d"),
        Sample((real(rng, 4), real(rng, 2), real(rng, 1)), name="1d"),
    ]


def trace_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 3),), name="square"),
        Sample((real(rng, 2, 4),), name="wide"),
        Sample((real(rng, 4, 2),), name="tall"),
        Sample((real(rng, 3, 4),), name="transposed", transposed=True),
    ]


def gather_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 0, index([0, 1, 2, 0], [2, 2, 1, 0])), name="dim0"),
        Sample((real(rng, 3, 4), 1, index([3, 0], [1, 1], [2, 0])), name="dim1_smaller"),
        Sample((real(rng, 3, 4), -2, index([0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 2],
                                           [1, 1, 1, 1], [0, 0, 0, 0])), name="larger_along_dim"),
        Sample((real(rng, 3, 4), 1, index([3, 0, 1], [1, 1, 2], [2, 0, 0])), name="transposed",
               transposed=True),
        Sample((real(rng, 2, 3, 2), 2, index([[1], [0], [1]], [[0], [0], [1]])), name="3d"),
        Sample((real(rng), 0, np.array(0)), name="0d"),
    ]


BAD_GATHER = (
    BadInput((np.ones((3, 4)), 0, index([0, 1, 2, 0]).astype(np.float64)), name="float_index"),
    BadInput((np.ones((3, 4)), 0, index([0, 5, 1, 0])[None]), name="out_of_bounds"),
    BadInput((np.ones((3, 4)), 0, index([0, -1, 1, 0])[None]), name="negative"),
    BadInput((np.ones((3, 4)), 0, index(0, 1)), name="ndim"),
    BadInput((np.ones((3, 4)), 0, np.zeros((2, 5), dtype=np.int64)), name="too_large"),
    BadInput((np.ones((3, 4)), 2, index([0])), name="dim"),
)


def scatter_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 0, index([0, 1, 2, 0], [2, 0, 1, 1]), real(rng, 2, 4)),
               name="dim0"),
        Sample((real(rng, 3, 4), 1, index([3, 0], [1, 2]), real(rng, 2, 2)), name="dim1_partial"),
        Sample((real(rng, 3, 4), -1, index([3, 0, 1], [1, 2, 0], [0, 1, 2]), real(rng, 3, 3)),
               name="transposed", transposed=True),
        Sample((real(rng), 0, np.array(0), real(rng)), name="0d"),
    ]


BAD_SCATTER = (
    BadInput((np.ones((3, 4)), 0, index([0, 5, 1, 0]).reshape(1, 4), np.ones((1, 4))),
             name="out_of_bounds"),
    BadInput((np.ones((3, 4)), 0, index([0, 1]).astype(np.float64).reshape(1, 2),
              np.ones((1, 2))), name="float_index"),
    BadInput((np.ones((3, 4)), 0, index([0, 1, 2, 0], [1, 1, 1, 1]), np.ones((1, 4))),
             name="src_too_small"),
    BadInput((np.ones((3, 4)), 0, index(0, 1), np.ones(2)), name="ndim"),
    BadInput((np.ones((3, 4)), 0, index([0, 1]), np.ones((1, 2), dtype=np.int64)),
             name="src_dtype"),
)


def scatter_value_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 0, index([0, 1, 2, 0], [2, 0, 1, 1]), 1.5), name="dim0"),
        Sample((real(rng, 3, 4), 1, index([3, 0], [1, 2]), -2.0), name="transposed",
               transposed=True),
        Sample((real(rng), 0, np.array(0), 0.5), name="0d"),
    ]


def index_select_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 0, index(2, 0, 2)), name="dim0_repeat"),
        Sample((real(rng, 3, 4), -1, index(3, 1)), name="dim_neg"),
        Sample((real(rng, 3, 4), 1, index(0, 0, 1, 3, 3)), name="transposed", transposed=True),
        Sample((real(rng, 2, 3, 2), 1, np.array(1)), name="0d_index"),
        Sample((real(rng), 0, index(0)), name="0d"),
        Sample((real(rng, 3, 4), 0, np.zeros(0, dtype=np.int64)), name="edge_empty_index"),
    ]


def masked_select_samples(rng: np.random.Generator) -> list[Sample]:
    mask = rng.random((3, 4)) < 0.5
    return [
        Sample((real(rng, 3, 4), mask), name="same_shape"),
        Sample((real(rng, 3, 4), np.array([True, False, True, True])), name="broadcast_mask"),
        Sample((real(rng, 4), mask), name="broadcast_input"),
        Sample((real(rng, 3, 4), mask), name="transposed", transposed=True),
        Sample((real(rng), np.array(True)), name="0d"),
    ]


def take_along_dim_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), index([0, 1, 2, 0], [2, 2, 1, 0]), 0), name="dim0"),
        Sample((real(rng, 3, 4), index([[3], [0], [1]]).reshape(3, 1), 1), name="broadcast"),
        Sample((real(rng, 3, 4), index(0, 11, 5), None), name="flat"),
        Sample((real(rng, 3, 4), index([0, 1, 2, 0], [2, 2, 1, 0], [1, 1, 1, 1]), -2),
               name="transposed", transposed=True),
    ]


def repeat_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), (2, 1)), name="2d"),
        Sample((real(rng, 3, 4), (2, 1, 3)), name="new_dims"),
        Sample((real(rng, 2), (3,)), name="1d"),
        Sample((real(rng, 3, 4), (1, 1)), name="ones"),
        Sample((real(rng, 3, 4), (2, 0)), name="edge_zero"),
        Sample((real(rng, 3, 4), (2, 2)), name="transposed", transposed=True),
        Sample((real(rng), (2, 3)), name="0d"),
    ]


def flip_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), (0,)), name="dim0"),
        Sample((real(rng, 3, 4), (0, -1)), name="both"),
        Sample((real(rng, 2, 3, 4), (1,)), name="3d"),
        Sample((real(rng, 3, 4), (1,)), name="transposed", transposed=True),
        Sample((real(rng), ()), name="0d"),
    ]


def roll_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 1, 0), name="dim0"),
        Sample((real(rng, 3, 4), 2, None), name="flat"),
        Sample((real(rng, 3, 4), (1, -2), (0, 1)), name="two_dims"),
        Sample((real(rng, 3, 4), -5, -1), name="transposed", transposed=True),
        Sample((real(rng), 3, None), name="0d"),
    ]


def triangle_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 0), name="main"),
        Sample((real(rng, 4, 3), 1), name="above"),
        Sample((real(rng, 4, 4), -1), name="below"),
        Sample((real(rng, 2, 3, 3), 0), name="batch"),
        Sample((real(rng, 3, 4), 2), name="transposed", transposed=True),
    ]


def pad_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), (1, 2), 0.0), name="last"),
        Sample((real(rng, 3, 4), (1, 0, 0, 2), 1.5), name="two_dims"),
        Sample((real(rng, 3, 4), (-1, 1, 1, -1), 0.0), name="crop"),
        Sample((real(rng, 2, 3, 4), (0, 0, 0, 0, 1, 1), -1.0), name="first_dim"),
        Sample((real(rng, 3, 4), (2, 1), 0.0), name="transposed", transposed=True),
    ]


def sort_samples(rng: np.random.Generator) -> list[Sample]:
    ties = np.array([[1.0, 3.0, 3.0, 1.0], [2.0, 2.0, 0.0, 2.0], [5.0, 5.0, 5.0, 5.0]])
    return [
        Sample((distinct(rng, 3, 4), -1, False), name="last"),
        Sample((distinct(rng, 3, 4), 0, True), name="dim0_descending"),
        Sample((distinct(rng, 2, 3, 4), 1, False), name="3d"),
        Sample((distinct(rng, 3, 4), 1, True), name="transposed", transposed=True),
        Sample((distinct(rng), 0, False), name="0d"),
        Sample((ties, 1, False), name="edge_ties"),
        Sample((ties, 1, True), name="edge_ties_descending"),
    ]


def topk_samples(rng: np.random.Generator) -> list[Sample]:
    ties = np.array([[1.0, 3.0, 3.0, 1.0], [2.0, 2.0, 0.0, 2.0], [5.0, 5.0, 5.0, 5.0]])
    return [
        Sample((distinct(rng, 3, 4), 2, -1, True), name="largest"),
        Sample((distinct(rng, 3, 4), 1, 0, False), name="smallest_dim0"),
        Sample((distinct(rng, 2, 3, 4), 3, 1, True), name="3d_all"),
        Sample((distinct(rng, 3, 4), 0, 1, True), name="edge_k0"),
        Sample((distinct(rng, 3, 4), 3, 1, False), name="transposed", transposed=True),
        Sample((distinct(rng), 1, 0, True), name="0d"),
        Sample((ties, 2, 1, True), name="edge_ties"),
        Sample((ties, 3, 1, False), name="edge_ties_smallest"),
    ]


def one_hot_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((index(0, 2, 1), -1), name="inferred"),
        Sample((index([0, 3], [1, 1]), 5), name="2d"),
        Sample((np.array(2), 4), name="0d"),
        Sample((np.zeros(0, dtype=np.int64), 3), name="empty"),
    ]


OPS: list[OpInfo] = [
    # --- cat and stack ------------------------------------------------------------------------
    OpInfo("cat", lambda lib, x, y, dim: lib.cat([x, y], dim), cat_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((2, 3)), 0), name="sizes"),
                       BadInput((np.ones((3, 4)), np.ones(4), 0), name="ndim"),
                       BadInput((np.ones((3, 4)), np.ones((3, 4)), 2), name="dim"),
                       BadInput((np.ones(()), np.ones(()), 0), name="0d"))),
    OpInfo("cat_three", lambda lib, x, y, z: lib.cat((x, y, z), dim=1),
           lambda rng: [Sample((real(rng, 2, 1), real(rng, 2, 3), real(rng, 2, 2)), name="2d")]),
    OpInfo("cat_promote", lambda lib, x, y: lib.cat([x, y.double()]),
           lambda rng: [Sample((real(rng, 2, 3), real(rng, 1, 3)), name="2d")]),
    OpInfo("concat", lambda lib, x, y, dim: lib.concat([x, y], dim), cat_samples),
    # --- compositions of views and cat (ops/combining.py) -------------------------------------
    *[OpInfo(name, (lambda n: lambda lib, x, y: getattr(lib, n)([x, y]))(name), pair_samples,
             bad_inputs=(BadInput((np.ones((2, 3)), np.ones((3, 2))), name="sizes"),))
      for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack")],
    *[OpInfo(name, (lambda n: lambda lib, x: getattr(lib, n)(x))(name), one_of_each_rank)
      for name in ("atleast_1d", "atleast_2d", "atleast_3d")],
    OpInfo("atleast_2d_several", lambda lib, x, y: lib.atleast_2d(x, y), pair_samples,
           output_index=0, op="atleast_2d"),
    OpInfo("atleast_3d_sequence", lambda lib, x, y: lib.atleast_3d([x, y]), pair_samples,
           output_index=1, op="atleast_3d"),
    OpInfo("broadcast_to",
           lambda lib, x, y: lib.broadcast_to(x, (2, *lib.broadcast_shapes(x.shape, y.shape))),
           broadcast_samples),
    OpInfo("broadcast_to_method", lambda lib, x, y: x.broadcast_to((3, 2, 4)),
           lambda rng: [Sample((real(rng, 2, 1), real(rng)), name="2d")], op="broadcast_to"),
    OpInfo("broadcast_tensors", lambda lib, x, y: lib.broadcast_tensors(x, y),
           broadcast_samples, output_index=0,
           bad_inputs=(BadInput((np.ones((2, 3)), np.ones(4)), name="shapes"),)),
    OpInfo("broadcast_tensors_second", lambda lib, x, y: lib.broadcast_tensors(x, y),
           broadcast_samples, output_index=1, op="broadcast_tensors"),
    OpInfo("meshgrid_ij", lambda lib, x, y: lib.meshgrid(x, y, indexing="ij"), grid_samples,
           output_index=0, op="meshgrid"),
    OpInfo("meshgrid_xy", lambda lib, x, y: lib.meshgrid([x, y], indexing="xy"), grid_samples,
           output_index=1, op="meshgrid"),
    OpInfo("diff", lambda lib, x, **kw: lib.diff(x, **kw), diff_samples,
           bad_inputs=(BadInput((np.ones(()),), name="0d"),
                       BadInput((np.ones(3),), {"n": -1}, name="negative_order"))),
    OpInfo("diff_joined", lambda lib, x, p, a: x.diff(dim=-1, prepend=p, append=a),
           diff_joined_samples, op="diff",
           bad_inputs=(BadInput((np.ones((2, 3)), np.ones((3, 1)), np.ones((2, 1))),
                                name="prepend_size"),
                       BadInput((np.ones(3), np.ones((1, 1)), np.ones(1)), name="prepend_ndim"))),
    OpInfo("trace", lambda lib, x: lib.trace(x), trace_samples,
           bad_inputs=(BadInput((np.ones(3),), name="1d"),)),
    OpInfo("concatenate", lambda lib, x, y, dim: lib.concatenate((x, y), dim=dim), cat_samples),
    OpInfo("stack", lambda lib, x, y, dim: lib.stack([x, y], dim), stack_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((2, 4)), 0), name="sizes"),
                       BadInput((np.ones((3, 4)), np.ones((3, 4)), 3), name="dim"))),
    # --- gather and scatter -------------------------------------------------------------------
    OpInfo("gather", lambda lib, x, dim, idx: x.gather(dim, idx), gather_samples,
           bad_inputs=BAD_GATHER),
    OpInfo("gather_function", lambda lib, x, dim, idx: lib.gather(x, dim, idx), gather_samples),
    OpInfo("scatter", lambda lib, x, dim, idx, src: x.scatter(dim, idx, src), scatter_samples,
           bad_inputs=BAD_SCATTER),
    OpInfo("scatter_src_only", lambda lib, x, dim, idx, src: lib.scatter(x, dim, idx, src),
           scatter_samples, grad_args=(3,)),
    OpInfo("scatter_value", lambda lib, x, dim, idx, value: x.scatter(dim, idx, value),
           scatter_value_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), 0, np.zeros((2, 5), dtype=np.int64), 1.0),
                                name="too_large"),)),
    OpInfo("scatter_add", lambda lib, x, dim, idx, src: x.scatter_add(dim, idx, src),
           scatter_samples, bad_inputs=BAD_SCATTER),
    OpInfo("scatter_add_function",
           lambda lib, x, dim, idx, src: lib.scatter_add(x, dim, idx, src),
           scatter_samples, grad_args=(3,)),
    OpInfo("index_select", lambda lib, x, dim, idx: x.index_select(dim, idx),
           index_select_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), 0, index([0, 1], [1, 0])), name="2d_index"),
                       BadInput((np.ones((3, 4)), 0, np.ones(2)), name="float_index"),
                       BadInput((np.ones((3, 4)), 0, index(3)), name="out_of_range"),
                       BadInput((np.ones((3, 4)), 0, index(-1)), name="negative"),
                       BadInput((np.ones((3, 4)), 2, index(0)), name="dim"))),
    OpInfo("masked_select", lambda lib, x, mask: x.masked_select(mask), masked_select_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((3, 4))), name="float_mask"),
                       BadInput((np.ones((3, 4)), np.array([True, False])), name="broadcast"))),
    OpInfo("take_along_dim", lambda lib, x, idx, dim: lib.take_along_dim(x, idx, dim),
           take_along_dim_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((2, 4)), 0), name="float_index"),
                       BadInput((np.ones((3, 4)), index(0, 1), 0), name="ndim"),
                       BadInput((np.ones((3, 4)), index([0], [1]), 1), name="broadcast"))),
    # --- repeat, tile, flip, roll, tril/triu, pad ----------------------------------------------
    OpInfo("repeat", lambda lib, x, sizes: x.repeat(*sizes), repeat_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), (2,)), name="too_few"),
                       BadInput((np.ones((3, 4)), (-1, 2)), name="negative"))),
    OpInfo("repeat_tuple", lambda lib, x, sizes: x.repeat(sizes), repeat_samples),
    OpInfo("tile", lambda lib, x, dims: lib.tile(x, dims),
           lambda rng: [Sample((real(rng, 3, 4), (2,)), name="short"),
                        Sample((real(rng, 3, 4), (2, 1, 2)), name="long"),
                        Sample((real(rng, 3, 4), (1, 3)), name="transposed", transposed=True)]),
    OpInfo("tile_method", lambda lib, x: x.tile(2, 1),
           lambda rng: [Sample((real(rng, 3, 4),), name="2d")]),
    OpInfo("flip", lambda lib, x, dims: x.flip(dims), flip_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), (0, 0)), name="repeated"),
                       BadInput((np.ones((3, 4)), (2,)), name="dim"))),
    OpInfo("flip_function", lambda lib, x, dims: lib.flip(x, dims), flip_samples),
    OpInfo("roll", lambda lib, x, shifts, dims: x.roll(shifts, dims), roll_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), (1, 2), 0), name="mismatch"),
                       BadInput((np.ones((3, 4)), 1, 2), name="dim"))),
    OpInfo("tril", lambda lib, x, k: x.tril(k), triangle_samples,
           bad_inputs=(BadInput((np.ones(3), 0), name="1d"),)),
    OpInfo("triu", lambda lib, x, k: lib.triu(x, k), triangle_samples,
           bad_inputs=(BadInput((np.ones(()), 0), name="0d"),)),
    OpInfo("pad", lambda lib, x, pad, value: _pad(lib)(x, pad, value=value), pad_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), (1,), 0.0), name="odd"),
                       BadInput((np.ones((3, 4)), (1, 1, 1, 1, 1, 1), 0.0), name="too_long"),
                       BadInput((np.ones((3, 4)), (-3, -2), 0.0), name="crop_too_much")),
           op="F.pad"),
    OpInfo("one_hot", lambda lib, x, n: _one_hot(lib)(x, n), one_hot_samples,
           differentiable=False,
           bad_inputs=(BadInput((index(1).astype(np.int32), -1), name="int32"),
                       BadInput((index(-1), -1), name="negative"),
                       BadInput((index(3), 2), name="too_large"),
                       BadInput((np.zeros(0, dtype=np.int64), -1), name="empty")), op="F.one_hot"),
    # --- sort and topk ------------------------------------------------------------------------
    OpInfo("sort", lambda lib, x, dim, descending: x.sort(dim, descending), sort_samples,
           output_index=0, bad_inputs=(BadInput((np.ones((3, 4)), 2, False), name="dim"),)),
    OpInfo("sort_indices", lambda lib, x, dim, descending: lib.sort(x, dim, descending).indices,
           sort_samples, differentiable=False),
    OpInfo("argsort", lambda lib, x, dim, descending: x.argsort(dim, descending), sort_samples,
           differentiable=False),
    OpInfo("topk", lambda lib, x, k, dim, largest: x.topk(k, dim, largest), topk_samples,
           output_index=0,
           bad_inputs=(BadInput((np.ones((3, 4)), 5, -1, True), name="k_too_large"),
                       BadInput((np.ones((3, 4)), -1, -1, True), name="k_negative"),
                       BadInput((np.ones((3, 4)), 1, 2, True), name="dim"))),
    OpInfo("topk_indices", lambda lib, x, k, dim, largest: lib.topk(x, k, dim, largest)[1],
           topk_samples, differentiable=False),
]


def _pad(lib: Any) -> Any:
    if lib.__name__ == "torch":
        return lib.nn.functional.pad
    from minigrad.nn.functional import pad

    return pad


def _one_hot(lib: Any) -> Any:
    if lib.__name__ == "torch":
        return lib.nn.functional.one_hot
    from minigrad.nn.functional import one_hot

    return one_hot
