"""Op-table rows of the smaller tensor functions (ops/mantissa.py, norms.py, shape.py,
splitting.py, finite_differences.py, unravel.py, comparison.py): frexp, ldexp (and ldexp_),
renorm (and renorm_), narrow_copy, unsafe_split / unsafe_chunk / unsafe_split_with_sizes,
gradient, unravel_index, the logical ops in place; and the Tensor methods and top-level
functions that reuse nn.functional's (hardshrink, prelu, cosine_similarity, pairwise_distance,
triplet_margin_loss).

Exponents for ldexp are int64 arrays (no gradient, as in PyTorch). narrow_copy's samples start
at non-negative positions: PyTorch 2.13's backward fails for a negative start.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first
from opinfo.shape import distinct, index, real

# --- frexp, ldexp ---------------------------------------------------------------------------------


def frexp_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4) * 5,), name="matrix"),
        Sample((real(rng, 4, 3),), name="transposed", transposed=True),
        Sample((np.asarray(real(rng)),), name="0d"),
        Sample((np.array([0.0, 1.0, -0.5, 8.0, np.inf, -np.inf, np.nan]),), name="edge_special"),
    ]


def ldexp_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), rng.integers(0, 4, size=(3, 4))), name="int_exponents"),
        Sample((real(rng, 3, 4), index(1, 0, 2, 3)), name="broadcast"),
        # PyTorch's gradient computes 2 ** other in other's dtype: 0 for a negative integer
        Sample((real(rng, 3, 4), index(1, 0, -2, -1)), name="edge_negative_exponents"),
        Sample((real(rng, 2, 3), real(rng, 2, 3)), name="float_exponents"),
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="transposed", transposed=True),
    ]


BAD_LDEXP = (
    BadInput((np.ones((2, 3)), index(1, 2)), name="broadcast"),
    BadInput((np.ones(3), 2), name="number_exponent"),
)

# --- renorm, narrow_copy --------------------------------------------------------------------------


def renorm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 2, 0, 1.0), name="rows"),
        Sample((real(rng, 3, 4), 1, 1, 1.5), name="p1_columns"),
        Sample((real(rng, 2, 3, 2), 3, -1, 0.8), name="p3_3d"),
        Sample((distinct(rng, 3, 4), np.inf, 0, 1.0), name="inf"),
        Sample((real(rng, 3, 4), 2, 1, 1.0), name="transposed", transposed=True),
        Sample((real(rng, 3, 4) * 0.1, 2, 0, 5.0), name="none_scaled"),
    ]


BAD_RENORM = (
    BadInput((np.ones((2, 3)), 0, 0, 1.0), name="p_zero"),
    BadInput((np.ones((2, 3)), 2, 0, -1.0), name="maxnorm_negative"),
    BadInput((np.ones(3), 2, 0, 1.0), name="vector"),
    BadInput((np.ones((2, 3)), 2, 2, 1.0), name="dim"),
    BadInput((np.ones((2, 3), dtype=np.int64), 2, 0, 1.0), name="integer"),
)


def narrow_copy_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), 0, 1, 2), name="rows"),
        Sample((real(rng, 3, 5), -1, 0, 5), name="whole"),
        Sample((real(rng, 2, 3, 4), 1, 2, 1), name="3d"),
        Sample((real(rng, 4, 3), 1, 1, 1), name="transposed", transposed=True),
    ]


BAD_NARROW_COPY = (
    BadInput((np.ones((4, 3)), 0, 3, 2), name="past_the_end"),
    BadInput((np.ones((4, 3)), 0, 5, 0), name="start"),
    BadInput((np.ones((4, 3)), 2, 0, 1), name="dim"),
    BadInput((np.ones(()), 0, 0, 1), name="0d"),
)

# --- unsafe splitting -----------------------------------------------------------------------------


def split_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 5, 3), 2, 0), name="rows"),
        Sample((real(rng, 3, 4), 3, -1), name="columns"),
        Sample((real(rng, 4, 4), 2, 1), name="transposed", transposed=True),
    ]


def sizes_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 5, 3), [1, 4], 0), name="rows"),
        Sample((real(rng, 3, 4), [1, 3], 1), name="columns", transposed=True),
    ]


# --- gradient -------------------------------------------------------------------------------------


def gradient_spacing_call(lib: Any, x: Any, spacing: Any, dim: Any, edge_order: int) -> Any:
    return lib.gradient(x, spacing=spacing, dim=dim, edge_order=edge_order)


def gradient_spacing_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 1, None, 1), name="default"),
        Sample((real(rng, 3, 4), [2.0, 0.5], None, 2), name="per_dim_edge2"),
        Sample((real(rng, 2, 3, 4), 0.5, [2, 0], 1), name="dims"),
        Sample((real(rng, 4, 3), 1.5, -1, 2), name="transposed", transposed=True),
    ]


def gradient_coordinates_call(lib: Any, x: Any, edge_order: int, *coordinates: Any) -> Any:
    return lib.gradient(x, spacing=coordinates, edge_order=edge_order)


def gradient_coordinates_samples(rng: np.random.Generator) -> list[Sample]:
    rows = np.cumsum(rng.uniform(0.5, 1.5, size=3))
    columns = np.cumsum(rng.uniform(0.5, 1.5, size=4))
    return [
        Sample((real(rng, 3, 4), 1, rows, columns), name="edge1"),
        Sample((real(rng, 3, 4), 2, rows, columns), name="edge2", transposed=True),
    ]


BAD_GRADIENT = (
    BadInput((np.ones((2, 3)), 1, None, 2), name="too_short_for_edge2"),
    BadInput((np.ones((3, 3)), 1, None, 3), name="edge_order"),
    BadInput((np.ones((3, 3)), [1.0, 2.0, 3.0], None, 1), name="spacing_count"),
    BadInput((np.ones((3, 3)), [1.0, 2.0], [0], 1), name="spacing_and_dims"),
    BadInput((np.ones((3, 3)), 1, [0, 0], 1), name="repeated_dim"),
    BadInput((np.ones((3, 3)), 1, 2, 1), name="dim"),
    BadInput((np.ones((3, 3), dtype=np.uint8), 1, None, 1), name="uint8"),
)

# --- logical ops in place, unravel_index ----------------------------------------------------------


def logical_samples(rng: np.random.Generator) -> list[Sample]:
    mask = rng.uniform(size=(3, 4)) > 0.5
    return [
        Sample((real(rng, 3, 4) * mask, (real(rng, 3, 4) > 0).astype(np.int64)), name="mixed"),
        Sample(
            (real(rng, 3, 4) * mask, real(rng, 4) * (rng.uniform(size=4) > 0.5)), name="broadcast"
        ),
    ]


def unravel_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((index(5, 11, -1, 0), (3, 4)), name="matrix"),
        Sample((index([3], [7]), (2, 2, 2)), name="3d"),
        Sample((np.array(4), 7), name="int_shape"),
        Sample((index(1, 2).astype(np.int32), [1, 3]), name="int32"),
    ]


BAD_UNRAVEL = (
    BadInput((np.ones(2), (3, 4)), name="float_indices"),
    BadInput((index(1), (3, -4)), name="negative_size"),
    BadInput((index(1), (3.0, 4)), name="float_size"),
)

# --- as_strided ---------------------------------------------------------------------------------


def as_strided_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), (2, 2), (1, 2), None), name="own_offset"),
        Sample((real(rng, 3, 4), (3,), (3,), 1), name="diagonal"),
        Sample((real(rng, 3, 4), (2, 3), (0, 1), 4), name="overlapping"),
        Sample((real(rng, 3, 4), (2, 2), (4, 1), 5), name="transposed", transposed=True),
    ]


BAD_AS_STRIDED = (
    BadInput((np.ones((3, 4)), (4, 4), (4, 1), None), name="out_of_bounds"),
    BadInput((np.ones((3, 4)), (2, 2), (1, -2), None), name="negative_stride"),
    BadInput((np.ones((3, 4)), (2, 2), (1, 2), -1), name="negative_offset"),
    BadInput((np.ones((3, 4)), (2, 2), (1,), None), name="lengths"),
    BadInput((np.ones((3, 4)), (2, -2), (1, 2), None), name="negative_size"),
)


def as_strided_scatter_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 2, 2), (2, 2), (1, 2), None), name="corner"),
        Sample((real(rng, 6), real(rng, 3), (3,), (2,), 1), name="every_other"),
    ]


# --- Tensor methods and top-level functions over nn.functional's ----------------------------------


def pair_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="matrix"),
        Sample((real(rng, 3, 4), real(rng, 4)), name="broadcast"),
    ]


def triplet_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (real(rng, 3, 4), real(rng, 3, 4), real(rng, 3, 4), 1.0, 2.0, False, 1), name="mean"
        ),
        Sample(
            (real(rng, 3, 4), real(rng, 3, 4), real(rng, 3, 4), 0.5, 1.0, True, 0), name="swap_none"
        ),
        Sample((real(rng, 3, 4), real(rng, 3, 4), real(rng, 3, 4), 2.0, 3.0, False, 2), name="sum"),
    ]


def memory_format_samples(rng: np.random.Generator) -> list[Sample]:
    """4-d inputs for the channels-last copies: row-major, non-contiguous, one channel."""
    return [
        Sample((real(rng, 2, 3, 2, 2),), name="nchw"),
        Sample((real(rng, 2, 2, 3, 2),), name="transposed", transposed=True),
        Sample((real(rng, 1, 1, 3, 2),), name="one_channel"),
    ]


def memory_format_3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((real(rng, 1, 2, 2, 1, 2),), name="ncdhw")]


BAD_MEMORY_FORMAT = [
    BadInput((np.zeros((2, 3)),), name="rank_2"),
    BadInput((np.zeros((2, 3, 2, 2, 2)),), name="rank_5"),
]


OPS: list[OpInfo] = [
    # --- frexp, ldexp ---------------------------------------------------------------------------
    OpInfo(
        "frexp",
        lambda lib, x: lib.frexp(x),
        frexp_samples,
        output_index=0,
        bad_inputs=(BadInput((index(1, 2),), name="integer"),),
    ),
    OpInfo(
        "frexp_method",
        lambda lib, x: x.frexp(),
        first(frexp_samples, 2),
        output_index=0,
        op="frexp",
    ),
    OpInfo("ldexp", lambda lib, x, other: lib.ldexp(x, other), ldexp_samples, bad_inputs=BAD_LDEXP),
    OpInfo(
        "ldexp_method", lambda lib, x, other: x.ldexp(other), first(ldexp_samples, 2), op="ldexp"
    ),
    OpInfo(
        "ldexp_inplace",
        lambda lib, x, other: x.clone().ldexp_(other),
        first(ldexp_samples, 3),
        inplace=True,
        op="ldexp_",
    ),
    # --- renorm, narrow_copy --------------------------------------------------------------------
    OpInfo(
        "renorm",
        lambda lib, x, p, dim, maxnorm: lib.renorm(x, p, dim, maxnorm),
        renorm_samples,
        bad_inputs=BAD_RENORM,
    ),
    OpInfo(
        "renorm_method",
        lambda lib, x, p, dim, maxnorm: x.renorm(p, dim, maxnorm),
        first(renorm_samples, 2),
        op="renorm",
    ),
    OpInfo(
        "renorm_inplace",
        lambda lib, x, p, dim, maxnorm: x.clone().renorm_(p, dim, maxnorm),
        first(renorm_samples, 2),
        inplace=True,
        op="renorm_",
    ),
    OpInfo(
        "narrow_copy",
        lambda lib, x, dim, start, length: x.narrow_copy(dim, start, length),
        narrow_copy_samples,
        bad_inputs=BAD_NARROW_COPY,
    ),
    OpInfo(
        "narrow_copy_function",
        lambda lib, x, dim, start, length: lib.narrow_copy(x, dim, start, length),
        first(narrow_copy_samples, 1),
        op="narrow_copy",
    ),
    # --- unsafe splitting -----------------------------------------------------------------------
    OpInfo(
        "unsafe_split",
        lambda lib, x, size, dim: lib.unsafe_split(x, size, dim),
        split_samples,
        output_index=1,
    ),
    OpInfo(
        "unsafe_split_method",
        lambda lib, x, size, dim: x.unsafe_split(size, dim),
        first(split_samples, 1),
        output_index=0,
        op="unsafe_split",
    ),
    OpInfo(
        "unsafe_chunk",
        lambda lib, x, chunks, dim: lib.unsafe_chunk(x, chunks, dim),
        split_samples,
        output_index=0,
    ),
    OpInfo(
        "unsafe_chunk_method",
        lambda lib, x, chunks, dim: x.unsafe_chunk(chunks, dim),
        first(split_samples, 1),
        output_index=1,
        op="unsafe_chunk",
    ),
    OpInfo(
        "unsafe_split_with_sizes",
        lambda lib, x, sizes, dim: lib.unsafe_split_with_sizes(x, sizes, dim),
        sizes_samples,
        output_index=1,
    ),
    OpInfo(
        "unsafe_split_with_sizes_method",
        lambda lib, x, sizes, dim: x.unsafe_split_with_sizes(sizes, dim),
        first(sizes_samples, 1),
        output_index=0,
        op="unsafe_split_with_sizes",
    ),
    # --- gradient -------------------------------------------------------------------------------
    OpInfo(
        "gradient",
        gradient_spacing_call,
        gradient_spacing_samples,
        output_index=0,
        bad_inputs=BAD_GRADIENT,
    ),
    OpInfo(
        "gradient_second",
        gradient_spacing_call,
        first(gradient_spacing_samples, 2),
        output_index=1,
        op="gradient",
    ),
    OpInfo(
        "gradient_coordinates",
        gradient_coordinates_call,
        gradient_coordinates_samples,
        output_index=1,
        op="gradient",
    ),
    # --- logical ops in place, unravel_index ----------------------------------------------------
    OpInfo(
        "logical_and_",
        lambda lib, x, y: x.clone().logical_and_(y),
        logical_samples,
        differentiable=False,
        inplace=True,
    ),
    OpInfo(
        "logical_or_",
        lambda lib, x, y: x.clone().logical_or_(y),
        logical_samples,
        differentiable=False,
        inplace=True,
    ),
    OpInfo(
        "logical_xor_",
        lambda lib, x, y: x.clone().logical_xor_(y),
        logical_samples,
        differentiable=False,
        inplace=True,
    ),
    OpInfo(
        "logical_not_",
        lambda lib, x, y: x.clone().logical_not_(),
        first(logical_samples, 1),
        differentiable=False,
        inplace=True,
    ),
    OpInfo(
        "unravel_index",
        lambda lib, idx, shape: lib.unravel_index(idx, shape)[-1],
        unravel_samples,
        differentiable=False,
        bad_inputs=BAD_UNRAVEL,
    ),
    # --- Tensor methods and top-level functions over nn.functional's ----------------------------
    OpInfo(
        "hardshrink_method",
        lambda lib, x: x.hardshrink(0.75),
        lambda rng: [Sample((real(rng, 3, 4),), name="matrix")],
        op="hardshrink",
    ),
    OpInfo(
        "prelu_method",
        lambda lib, x, w: x.prelu(w),
        lambda rng: [Sample((real(rng, 2, 3, 2), real(rng, 3)), name="channels")],
        op="prelu",
    ),
    OpInfo("cosine_similarity", lambda lib, a, b: lib.cosine_similarity(a, b, -1), pair_samples),
    OpInfo("pairwise_distance", lambda lib, a, b: lib.pairwise_distance(a, b, 1.5), pair_samples),
    OpInfo(
        "triplet_margin_loss",
        lambda lib, a, p, n, margin, norm, swap, reduction: lib.triplet_margin_loss(
            a, p, n, margin, norm, 1e-6, swap, reduction
        ),
        triplet_samples,
    ),
    # --- linalg aliases -------------------------------------------------------------------------
    OpInfo(
        "linalg_diagonal",
        lambda lib, a, offset: lib.linalg.diagonal(a, offset=offset),
        lambda rng: [
            Sample((real(rng, 2, 3, 4), 1), name="batch_above"),
            Sample((real(rng, 4, 3), -1), name="transposed", transposed=True),
        ],
        op="linalg.diagonal",
    ),
    OpInfo(
        "linalg_matmul",
        lambda lib, a, b: lib.linalg.matmul(a, b),
        lambda rng: [Sample((real(rng, 2, 3, 4), real(rng, 4, 2)), name="batch")],
        op="linalg.matmul",
    ),
    # --- as_strided -----------------------------------------------------------------------------
    OpInfo(
        "as_strided",
        lambda lib, x, size, stride, offset: lib.as_strided(x, size, stride, offset),
        as_strided_samples,
        bad_inputs=BAD_AS_STRIDED,
    ),
    OpInfo(
        "as_strided_inplace",
        lambda lib, x, size, stride, offset: x.clone().as_strided_(size, stride, offset),
        first(as_strided_samples, 2),
        inplace=True,
        op="as_strided_",
    ),
    OpInfo(
        "clone_channels_last",
        lambda lib, x: x.clone(memory_format=lib.channels_last),
        memory_format_samples,
        bad_inputs=BAD_MEMORY_FORMAT,
        op="clone",
    ),
    OpInfo(
        "contiguous_channels_last",
        lambda lib, x: x.contiguous(memory_format=lib.channels_last),
        memory_format_samples,
        bad_inputs=BAD_MEMORY_FORMAT,
        op="contiguous",
    ),
    OpInfo(
        "clone_channels_last_3d",
        lambda lib, x: x.clone(memory_format=lib.channels_last_3d),
        memory_format_3d_samples,
        op="clone",
    ),
    OpInfo(
        "as_strided_scatter",  # (src only: PyTorch 2.13's gradient for input is not the gradient)
        lambda lib, x, src, size, stride, offset: lib.as_strided_scatter(
            x, src, size, stride, offset
        ),
        as_strided_scatter_samples,
        grad_args=(1,),
    ),
    OpInfo(
        "as_strided_scatter_method",
        lambda lib, x, src, size, stride, offset: x.as_strided_scatter(src, size, stride, offset),
        first(as_strided_scatter_samples, 1),
        grad_args=(1,),
        op="as_strided_scatter",
    ),
    # --- linalg.solve_ex, linalg.lu_factor_ex -------------------------------------------------
    OpInfo(
        "linalg_solve_ex",
        lambda lib, a, b, left: lib.linalg.solve_ex(a, b, left=left),
        lambda rng: [
            Sample((real(rng, 3, 3) + 4 * np.eye(3), real(rng, 3, 2), True), name="matrix"),
            Sample((real(rng, 2, 3, 3) + 4 * np.eye(3), real(rng, 2, 3), True), name="vectors"),
            Sample((real(rng, 3, 3) + 4 * np.eye(3), real(rng, 2, 3), False), name="right"),
        ],
        output_index=0,
        op="linalg.solve_ex",
    ),
    OpInfo(
        "linalg_lu_factor_ex",
        lambda lib, a: lib.linalg.lu_factor_ex(a),
        lambda rng: [
            Sample((real(rng, 3, 3) + 4 * np.eye(3),), name="square"),
            Sample((real(rng, 2, 3, 3) + 4 * np.eye(3),), name="batch", transposed=True),
        ],
        output_index=0,
        op="linalg.lu_factor_ex",
    ),
]
