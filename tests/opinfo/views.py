"""Op-table rows of the view ops (ops/views.py, ops/indexing.py): view, reshape, transpose,
permute, expand, narrow, select, diagonal, basic indexing, the splits, ...

A view shares its input's buffer and version counter; tests_torch compares, for every row, that
the output is a view (``_is_view()``) exactly when PyTorch's is, and its version. ``transposed``
samples give a non-contiguous input: ``reshape``/``flatten``/``contiguous`` copy there (in both
libraries), and ``view`` of it raises (a ``BadInput`` needs a contiguous input, so that case
lives in tests/test_views.py). Ops returning several views (split, chunk, unbind) have one row
per output they differentiate (``output_index``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first, quietly
from opinfo.shape import index, real

Samples = Callable[[np.random.Generator], list[Sample]]


def one(*shapes_and_args: tuple) -> Samples:
    """Samples ``(real(shape), *args)`` named ``name``: ``one(("2d", (3, 4), 1, 0), ...)``;
    a name starting with ``transposed`` makes the input non-contiguous."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        return [
            Sample((real(rng, *shape), *args), name=name, transposed=name.startswith("transposed"))
            for name, shape, *args in shapes_and_args
        ]

    return samples


MATRICES = one(("2d", (3, 4)), ("transposed", (3, 4)), ("square", (3, 3)))
BATCHES = one(("2d", (3, 4)), ("3d", (2, 3, 4)), ("transposed", (2, 3, 4)))
ANY_NDIM = one(("0d", ()), ("1d", (4,)), ("2d", (3, 4)), ("transposed", (3, 4)),
               ("3d", (2, 3, 4)))

RESHAPES = one(("2d", (3, 4), (4, 3)), ("infer", (2, 3, 4), (-1, 4)), ("0d", (), (1, 1)),
               ("to_0d", (1,), ()), ("flat", (3, 4), (12,)))
TRANSPOSES = one(("2d", (3, 4), 0, 1), ("negative", (2, 3, 4), -1, 0),
                 ("same_dim", (3, 4), 1, 1), ("transposed", (3, 4), 1, 0), ("0d", (), 0, -1))
PERMUTATIONS = one(("3d", (2, 3, 4), (2, 0, 1)), ("negative", (2, 3, 4), (-1, -3, -2)),
                   ("transposed", (3, 4), (1, 0)), ("0d", (), ()))
MOVES = one(("one", (2, 3, 4), 0, -1), ("tuple", (2, 3, 4), (0, 1), (2, 0)),
            ("transposed", (3, 4), 1, 0))
SQUEEZES = one(("dim", (1, 3, 1), 2), ("not_one", (3, 4), 0), ("tuple", (1, 3, 1, 2), (0, 2)),
               ("0d", (), 0), ("transposed", (3, 1), 1), ("negative", (1, 3, 1), -1),
               ("negative_tuple", (1, 3, 1, 2), (-2, 0, 1)), ("0d_tuple", (), (-1,)),
               ("empty_tuple", (1, 3), ()))
# x.squeeze(0, 2): the method's parser also takes the dims one by one (not the function's)
SQUEEZES_UNPACKED = one(("two", (1, 3, 1), 0, 2), ("negative", (1, 3, 1, 2), -2, 0, 1),
                        ("transposed", (3, 1), 1, 0))
UNSQUEEZES = one(("first", (3, 4), 0), ("last", (3, 4), 2), ("negative", (3, 4), -2),
                 ("0d", (), 0), ("transposed", (3, 4), 1))
EXPANSIONS = one(("same_ndim", (3, 1), (3, 4)), ("new_dims", (1, 4), (2, 3, 4)),
                 ("keep", (3, 1), (-1, 5)), ("0d", (), (2, 3)), ("transposed", (3, 4), (2, 3, 4)))
NARROWS = one(("dim0", (4, 3), 0, 1, 2), ("negative", (3, 4), -1, -3, 2),
              ("edge_empty", (3, 4), 1, 2, 0), ("transposed", (3, 4), 1, 1, 3))
SELECTS = one(("dim0", (3, 4), 0, 1), ("negative", (2, 3, 4), -1, -1), ("1d", (4,), 0, 2),
              ("transposed", (3, 4), 1, 2))
DIAGONALS = one(("main", (3, 4), 0, 0, 1), ("above", (3, 4), 1, 0, 1),
                ("below", (4, 3), -2, 0, 1), ("batch", (2, 3, 3), 0, -2, -1),
                ("swapped", (2, 3, 4), 1, 2, 0), ("edge_empty", (2, 3), 4, 0, 1),
                ("transposed", (3, 4), -1, 1, 0))
FLATTENS = one(("all", (2, 3, 4), 0, -1), ("middle", (2, 3, 4, 1), 1, 2), ("0d", (), 0, -1),
               ("transposed", (3, 4), 0, 1), ("transposed_partial", (2, 3, 4), 0, 1))
UNFLATTENS = one(("2d", (3, 4), 1, (2, 2)), ("infer", (12,), 0, (-1, 3)),
                 ("negative", (2, 6), -1, (3, 2)), ("transposed", (3, 4), 0, (3, 1)))
SPLITS = one(("even", (6, 2), 2, 0), ("uneven", (3, 5), 2, 1), ("sizes", (5, 2), [1, 3, 1], 0),
             ("transposed", (4, 3), 2, -1))
CHUNKS = one(("even", (6, 2), 3, 0), ("uneven", (3, 5), 2, 1), ("more_than_size", (2, 3), 4, 0),
             ("transposed", (4, 3), 2, -1))
TENSOR_SPLITS = one(("sections", (5, 2), 3, 0), ("indices", (3, 6), [1, 4], 1),
                    ("transposed", (4, 3), 2, -1))
UNBINDS = one(("dim0", (3, 4), 0), ("negative", (2, 3, 4), -1), ("transposed", (3, 4), 1))


def getitem_samples(rng: np.random.Generator) -> list[Sample]:
    """Basic indexing (a view): ints, slices with steps, None, Ellipsis, negative indices."""
    return [
        Sample((real(rng, 3, 4), (1,)), name="int"),
        Sample((real(rng, 3, 4), (slice(None), slice(1, 3))), name="slice"),
        Sample((real(rng, 4, 5), (slice(None, None, 2), slice(-1, None, 3))), name="step"),
        Sample((real(rng, 2, 3, 4), (Ellipsis, 1)), name="ellipsis"),
        Sample((real(rng, 3, 4), (None, -1, slice(None), None)), name="none"),
        Sample((real(rng), (None,)), name="0d"),
        Sample((real(rng, 3, 4), (slice(1, None), 0)), name="transposed", transposed=True),
    ]


def getitem_index_samples(rng: np.random.Generator) -> list[Sample]:
    """Advanced indexing (a copy, IndexBackward0): index tensors and masks, with basic items."""
    return [
        Sample((real(rng, 3, 4), (index(0, 2),)), name="index"),
        Sample((real(rng, 3, 4), (index(2, 0, 2), 1)), name="index_int"),
        Sample((real(rng, 3, 4), (slice(1, None), index(3, 0))), name="slice_index"),
        Sample((real(rng, 3, 4), (index(0, 2), None, index(1, 3))), name="two_indices"),
        Sample((real(rng, 3, 4), (Ellipsis, index(-1, 0)),), name="ellipsis"),
        Sample((real(rng, 3, 4), (np.array([True, False, True]),)), name="mask"),
        Sample((real(rng, 3, 4), (index(1, 2),)), name="transposed", transposed=True),
    ]


OPS: list[OpInfo] = [
    # --- reshaping ----------------------------------------------------------------------------
    OpInfo("view", lambda lib, x, shape: x.view(shape), RESHAPES,
           bad_inputs=(BadInput((np.ones((3, 4)), (5, -1)), name="size"),
                       BadInput((np.ones((3, 4)), (-1, -1)), name="two_inferred"))),
    OpInfo("view_varargs", lambda lib, x, shape: x.view(*shape), first(RESHAPES, 3), op="view"),
    OpInfo("view_as", lambda lib, x, y: x.view_as(y),
           lambda rng: [Sample((real(rng, 3, 4), real(rng, 2, 6)), name="2d"),
                        Sample((real(rng, 4), real(rng, 2, 2)), name="1d")], grad_args=(0,)),
    OpInfo("reshape", lambda lib, x, shape: lib.reshape(x, shape),
           one(("2d", (3, 4), (4, 3)), ("infer", (2, 3, 4), (-1, 4)), ("0d", (), (1,)),
               ("transposed", (3, 4), (12,)), ("transposed_3d", (2, 3, 4), (6, -1))),
           bad_inputs=(BadInput((np.ones((3, 4)), (5, -1)), name="size"),)),
    OpInfo("reshape_method", lambda lib, x, shape: x.reshape(*shape), first(RESHAPES, 2),
           op="reshape"),
    OpInfo("reshape_as", lambda lib, x, y: x.reshape_as(y),
           lambda rng: [Sample((real(rng, 3, 4), real(rng, 2, 6)), name="2d"),
                        Sample((real(rng, 3, 4), real(rng, 12)), name="transposed",
                               transposed=True)], grad_args=(0,)),
    OpInfo("flatten", lambda lib, x, start, end: lib.flatten(x, start, end), FLATTENS,
           bad_inputs=(BadInput((np.ones((2, 3, 4)), 2, 1), name="start_after_end"),)),
    OpInfo("flatten_method", lambda lib, x, start, end: x.flatten(start, end),
           first(FLATTENS, 1), op="flatten"),
    OpInfo("unflatten", lambda lib, x, dim, sizes: x.unflatten(dim, sizes), UNFLATTENS,
           bad_inputs=(BadInput((np.ones((3, 4)), 1, (3, 2)), name="sizes"),)),
    OpInfo("unflatten_function", lambda lib, x, dim, sizes: lib.unflatten(x, dim, sizes),
           first(UNFLATTENS, 1), op="unflatten"),
    OpInfo("ravel", lambda lib, x: lib.ravel(x), ANY_NDIM),
    OpInfo("ravel_method", lambda lib, x: x.ravel(), first(BATCHES, 1), op="ravel"),
    OpInfo("contiguous", lambda lib, x: x.contiguous(), ANY_NDIM),
    # --- transposing and permuting ------------------------------------------------------------
    OpInfo("transpose", lambda lib, x, a, b: lib.transpose(x, a, b), TRANSPOSES,
           bad_inputs=(BadInput((np.ones((3, 4)), 0, 2), name="dim"),)),
    OpInfo("transpose_method", lambda lib, x, a, b: x.transpose(a, b), first(TRANSPOSES, 2),
           op="transpose"),
    OpInfo("swapaxes", lambda lib, x, a, b: lib.swapaxes(x, a, b), first(TRANSPOSES, 2)),
    OpInfo("swapaxes_method", lambda lib, x, a, b: x.swapaxes(a, b), first(TRANSPOSES, 1),
           op="swapaxes"),
    OpInfo("swapdims", lambda lib, x, a, b: lib.swapdims(x, a, b), first(TRANSPOSES, 2)),
    OpInfo("swapdims_method", lambda lib, x, a, b: x.swapdims(a, b), first(TRANSPOSES, 1),
           op="swapdims"),
    OpInfo("t", lambda lib, x: lib.t(x), one(("2d", (3, 4)), ("1d", (4,)), ("0d", ()),
                                             ("transposed", (3, 4))),
           bad_inputs=(BadInput((np.ones((2, 3, 4)),), name="3d"),)),
    OpInfo("t_method", lambda lib, x: x.t(), first(MATRICES, 1), op="t"),
    OpInfo("T", lambda lib, x: x.T, one(("2d", (3, 4)), ("transposed", (3, 4)))),
    # PyTorch warns (once per process) that .T on other than 2-D tensors is deprecated.
    OpInfo("T_not_2d", quietly(lambda lib, x: x.T), one(("1d", (4,)), ("3d", (2, 3, 4))),
           op="T"),
    OpInfo("mT", lambda lib, x: x.mT, BATCHES,
           bad_inputs=(BadInput((np.ones(3),), name="1d"),)),
    OpInfo("mH", lambda lib, x: x.mH, BATCHES),
    OpInfo("H", lambda lib, x: x.H, MATRICES,
           bad_inputs=(BadInput((np.ones((2, 3, 4)),), name="3d"),)),
    OpInfo("adjoint", lambda lib, x: lib.adjoint(x), BATCHES,
           bad_inputs=(BadInput((np.ones(3),), name="1d"),)),
    OpInfo("adjoint_method", lambda lib, x: x.adjoint(), first(BATCHES, 1), op="adjoint"),
    OpInfo("permute", lambda lib, x, dims: x.permute(dims), PERMUTATIONS,
           bad_inputs=(BadInput((np.ones((2, 3)), (0, 0)), name="repeated"),
                       BadInput((np.ones((2, 3)), (0,)), name="too_few"))),
    OpInfo("permute_varargs", lambda lib, x, dims: x.permute(*dims), first(PERMUTATIONS, 2),
           op="permute"),
    OpInfo("permute_function", lambda lib, x, dims: lib.permute(x, dims),
           first(PERMUTATIONS, 1), op="permute"),
    OpInfo("movedim", lambda lib, x, src, dst: lib.movedim(x, src, dst), MOVES,
           bad_inputs=(BadInput((np.ones((2, 3)), (0, 1), (0,)), name="lengths"),)),
    OpInfo("movedim_method", lambda lib, x, src, dst: x.movedim(src, dst), first(MOVES, 1),
           op="movedim"),
    OpInfo("moveaxis", lambda lib, x, src, dst: lib.moveaxis(x, src, dst), first(MOVES, 2)),
    OpInfo("moveaxis_method", lambda lib, x, src, dst: x.moveaxis(src, dst), first(MOVES, 1),
           op="moveaxis"),
    # --- adding and removing dims of size one, broadcasting --------------------------------------
    OpInfo("squeeze", lambda lib, x, dim: x.squeeze(dim), SQUEEZES,
           bad_inputs=(BadInput((np.ones((3, 1)), 2), name="dim"),
                       BadInput((np.ones((1, 3, 1)), (0, -3)), name="repeated"),
                       BadInput((np.ones(()), (0, -1)), name="0d_repeated"))),
    OpInfo("squeeze_unpacked", lambda lib, x, *dims: x.squeeze(*dims), SQUEEZES_UNPACKED,
           bad_inputs=(BadInput((np.ones((1, 3, 1)), 0, 0), name="repeated"),
                       BadInput((np.ones((1, 3, 1)), 0, 3), name="dim")),
           op="squeeze"),
    OpInfo("squeeze_all", lambda lib, x: x.squeeze(),
           one(("2d", (1, 3, 1, 2)), ("none_of_size_one", (3, 4)), ("0d", ())), op="squeeze"),
    OpInfo("squeeze_function", lambda lib, x, dim: lib.squeeze(x, dim),
           first(one(("dim", (1, 3, 1), 0)), 1), op="squeeze"),
    OpInfo("unsqueeze", lambda lib, x, dim: lib.unsqueeze(x, dim), UNSQUEEZES,
           bad_inputs=(BadInput((np.ones((3, 4)), 3), name="dim"),)),
    OpInfo("unsqueeze_method", lambda lib, x, dim: x.unsqueeze(dim), first(UNSQUEEZES, 1),
           op="unsqueeze"),
    OpInfo("expand", lambda lib, x, sizes: x.expand(sizes), EXPANSIONS,
           bad_inputs=(BadInput((np.ones((3, 2)), (3, 4)), name="size"),
                       BadInput((np.ones((3, 1)), (4,)), name="too_few"))),
    OpInfo("expand_varargs", lambda lib, x, sizes: x.expand(*sizes), first(EXPANSIONS, 2),
           op="expand"),
    OpInfo("expand_as", lambda lib, x, y: x.expand_as(y),
           lambda rng: [Sample((real(rng, 3, 1), real(rng, 2, 3, 4)), name="broadcast")],
           grad_args=(0,)),
    # --- parts: narrow, select, diagonal, basic indexing ------------------------------------------
    OpInfo("narrow", lambda lib, x, dim, start, length: lib.narrow(x, dim, start, length),
           NARROWS, bad_inputs=(BadInput((np.ones((3, 4)), 0, 2, 2), name="too_long"),
                                BadInput((np.ones((3, 4)), 2, 0, 1), name="dim"))),
    OpInfo("narrow_method", lambda lib, x, dim, start, length: x.narrow(dim, start, length),
           first(NARROWS, 1), op="narrow"),
    OpInfo("select", lambda lib, x, dim, i: lib.select(x, dim, i), SELECTS,
           bad_inputs=(BadInput((np.ones((3, 4)), 0, 3), name="out_of_range"),
                       BadInput((np.ones(()), 0, 0), name="0d"))),
    OpInfo("select_method", lambda lib, x, dim, i: x.select(dim, i), first(SELECTS, 1),
           op="select"),
    OpInfo("diagonal", lambda lib, x, offset, a, b: lib.diagonal(x, offset, a, b), DIAGONALS,
           bad_inputs=(BadInput((np.ones((3, 4)), 0, 0, 0), name="same_dims"),
                       BadInput((np.ones(3), 0, 0, 1), name="1d"))),
    OpInfo("diagonal_method", lambda lib, x, offset, a, b: x.diagonal(offset, a, b),
           first(DIAGONALS, 2), op="diagonal"),
    OpInfo("unfold", lambda lib, x, dim, size, step: x.unfold(dim, size, step),
           one(("overlapping", (3, 7), 1, 3, 2), ("disjoint", (6, 2), 0, 2, 2),
               ("gaps", (2, 8, 2), -2, 2, 3), ("transposed", (3, 5), 0, 2, 1),
               ("0d", (), 0, 1, 1), ("whole", (4,), 0, 4, 1), ("edge_size_0", (3, 2), 0, 0, 1)),
           bad_inputs=(BadInput((np.ones((3, 4)), 0, 4, 1), name="too_large"),
                       BadInput((np.ones((3, 4)), 2, 1, 1), name="dim"),
                       BadInput((np.ones((3, 4)), 0, -1, 0), name="negative_size"),
                       BadInput((np.ones((3, 4)), 0, 2, 0), name="zero_step"))),
    OpInfo("getitem_index", lambda lib, x, key: x[key], getitem_index_samples),
    OpInfo("getitem", lambda lib, x, key: x[key], getitem_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), (3,)), name="out_of_range"),
                       BadInput((np.ones((3, 4)), (0, 0, 0)), name="too_many"))),
    # --- several views at once ------------------------------------------------------------------
    OpInfo("split_first", lambda lib, x, size, dim: lib.split(x, size, dim), SPLITS,
           output_index=0, op="split"),
    OpInfo("split_last", lambda lib, x, size, dim: x.split(size, dim), SPLITS, output_index=-1,
           op="split"),
    OpInfo("split_with_sizes", lambda lib, x, sizes, dim: x.split_with_sizes(sizes, dim),
           one(("dim0", (5, 2), [1, 3, 1], 0), ("edge_empty_piece", (3, 4), [0, 4], 1)),
           output_index=1,
           bad_inputs=(BadInput((np.ones((5, 2)), [1, 3], 0), name="sum"),)),
    OpInfo("chunk_first", lambda lib, x, n, dim: lib.chunk(x, n, dim), CHUNKS, output_index=0,
           op="chunk", bad_inputs=(BadInput((np.ones((3, 4)), 0, 0), name="zero_chunks"),)),
    OpInfo("chunk_last", lambda lib, x, n, dim: x.chunk(n, dim), CHUNKS, output_index=-1,
           op="chunk"),
    OpInfo("tensor_split", lambda lib, x, sections, dim: lib.tensor_split(x, sections, dim),
           TENSOR_SPLITS, output_index=1),
    OpInfo("tensor_split_method", lambda lib, x, sections, dim: x.tensor_split(sections, dim),
           first(TENSOR_SPLITS, 1), output_index=-1, op="tensor_split"),
    OpInfo("hsplit", lambda lib, x: lib.hsplit(x, 2), one(("2d", (3, 4)), ("1d", (4,))),
           output_index=1),
    OpInfo("hsplit_method", lambda lib, x: x.hsplit([1]), one(("2d", (3, 4))), output_index=1,
           op="hsplit"),
    OpInfo("vsplit", lambda lib, x: lib.vsplit(x, [1, 2]), one(("2d", (3, 4))), output_index=2,
           bad_inputs=(BadInput((np.ones(4),), name="1d"),)),
    OpInfo("vsplit_method", lambda lib, x: x.vsplit(3), one(("2d", (3, 4))), output_index=0,
           op="vsplit"),
    OpInfo("dsplit", lambda lib, x: lib.dsplit(x, 2), one(("3d", (2, 3, 4))), output_index=1,
           bad_inputs=(BadInput((np.ones((3, 4)),), name="2d"),)),
    OpInfo("dsplit_method", lambda lib, x: x.dsplit([3]), one(("3d", (2, 3, 4))),
           output_index=0, op="dsplit"),
    OpInfo("unbind_first", lambda lib, x, dim: lib.unbind(x, dim), UNBINDS, output_index=0,
           op="unbind", bad_inputs=(BadInput((np.ones(()), 0), name="0d"),)),
    OpInfo("unbind_last", lambda lib, x, dim: x.unbind(dim), UNBINDS, output_index=-1,
           op="unbind"),
]
