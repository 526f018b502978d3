"""Op-table rows of the linear-algebra family (ops/linalg.py, einsum.py, norms.py, minigrad.linalg).

matmul has one row per requires-grad pattern (both operands, only the first, only the
second): PyTorch's decomposition of a batched product (fold into one mm, or bmm) depends on
which operands require grad, and each product saves only what the other operand's gradient
needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample

Samples = Callable[[np.random.Generator], list[Sample]]


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, size=shape)


def pairs(*shapes: tuple[tuple[int, ...], tuple[int, ...], str], transposed: bool = True
          ) -> Samples:
    """Two-operand samples of the given shapes (plus a transposed copy of the first 2-D pair)."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample((real(rng, *a), real(rng, *b)), name=name) for a, b, name in shapes]
        if transposed:
            out.append(Sample((real(rng, 3, 4), real(rng, 4, 5)), name="transposed",
                              transposed=True))
        return out

    return samples


MATMUL_SHAPES = (
    ((4,), (4,), "1d_1d"),
    ((3, 4), (4,), "2d_1d"),
    ((4,), (4, 5), "1d_2d"),
    ((3, 4), (4, 5), "2d_2d"),
    ((2, 3, 4), (4, 5), "3d_2d"),
    ((3, 4), (2, 4, 5), "2d_3d"),
    ((2, 3, 4), (2, 4, 5), "3d_3d"),
    ((2, 3, 4), (4,), "3d_1d"),
    ((4,), (2, 4, 5), "1d_3d"),
    ((2, 2, 3, 4), (4,), "4d_1d"),
    ((4,), (2, 2, 4, 3), "1d_4d"),
    ((3, 1, 2, 4), (2, 4, 3), "broadcast"),
    ((2, 1, 3, 4), (2, 4, 5), "broadcast_inner"),
    ((1, 3, 4), (2, 4, 5), "batch1_left"),
    ((2, 3, 4), (1, 4, 5), "batch1_right"),
    ((1, 3, 4), (1, 4, 5), "batch1_both"),
    ((1, 3, 4), (4, 5), "batch1_2d"),
)


def batched_transposed(rng: np.random.Generator) -> list[Sample]:
    # A batch whose matrices are transposed in memory: not foldable without a copy.
    return [Sample((real(rng, 2, 3, 4), real(rng, 4, 5)), name="3d_2d_transposed",
                   transposed=True),
            Sample((real(rng, 2, 3, 4), real(rng, 2, 4, 5)), name="3d_3d_transposed",
                   transposed=True)]


def matmul_samples(rng: np.random.Generator) -> list[Sample]:
    return pairs(*MATMUL_SHAPES)(rng) + batched_transposed(rng)


BAD_MATMUL = (
    BadInput((np.ones(()), np.ones((2, 3))), name="0d"),
    BadInput((np.ones((3, 4)), np.ones(3)), name="2d_1d"),
    BadInput((np.ones(3), np.ones((4, 5))), name="1d_2d"),
    BadInput((np.ones((2, 3, 4)), np.ones((3, 4))), name="3d_2d"),
    BadInput((np.ones((2, 3, 4)), np.ones((2, 3, 4))), name="3d_3d"),
    BadInput((np.ones((2, 3, 4)), np.ones((3, 4, 5))), name="batch_broadcast"),
    BadInput((np.ones(3), np.ones((2, 4, 5))), name="1d_3d"),
    BadInput((np.ones(4), np.ones(3)), name="1d_1d"),
    BadInput((np.ones((2, 3)), np.ones((3, 4), dtype=np.int64)), name="dtype"),
)


def addmm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 5), real(rng, 3, 4), real(rng, 4, 5), 1, 1), name="plain"),
        Sample((real(rng, 5), real(rng, 3, 4), real(rng, 4, 5), 0.5, 2.0), name="bias_1d"),
        Sample((real(rng), real(rng, 3, 4), real(rng, 4, 5), 2, 1), name="bias_0d"),
        Sample((real(rng, 3, 1), real(rng, 3, 4), real(rng, 4, 5), 1, -1.5), name="column"),
        Sample((np.full((3, 5), np.nan), real(rng, 3, 4), real(rng, 4, 5), 0, 1), name="beta0"),
        Sample((real(rng, 3, 5), real(rng, 3, 4), real(rng, 4, 5), 1, 1), name="transposed",
               transposed=True),
    ]


def baddbmm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3, 5), real(rng, 2, 3, 4), real(rng, 2, 4, 5), 1, 1), name="plain"),
        Sample((real(rng, 5), real(rng, 2, 3, 4), real(rng, 2, 4, 5), 0.5, 2), name="bias_1d"),
        Sample((real(rng, 1, 3, 1), real(rng, 2, 3, 4), real(rng, 2, 4, 5), 2, 0.5),
               name="bias_broadcast"),
        Sample((real(rng, 2, 3, 5), real(rng, 2, 3, 4), real(rng, 2, 4, 5), 1, 1),
               name="transposed", transposed=True),
    ]


def einsum_row(name: str, equation: str, *shapes: tuple[int, ...], **kw: Any) -> OpInfo:
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample((equation, *(real(rng, *s) for s in shapes)), name="plain")]
        if any(len(s) >= 2 for s in shapes):
            out.append(Sample((equation, *(real(rng, *s) for s in shapes)), name="transposed",
                              transposed=True))
        return out

    return OpInfo(f"einsum_{name}", lambda lib, eq, *ops: lib.einsum(eq, *ops), samples, **kw)


def tensordot_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 4, 5), 1), name="dims1"),
        Sample((real(rng, 2, 3, 4), real(rng, 3, 4, 5), 2), name="dims2"),
        Sample((real(rng, 2, 3, 4), real(rng, 3, 4), ([1, 2], [0, 1])), name="lists"),
        Sample((real(rng, 3, 4, 2), real(rng, 2, 4), ([2, 1], [0, 1])), name="reordered"),
        Sample((real(rng, 3), real(rng, 4), 0), name="outer"),
        Sample((real(rng, 3, 1), real(rng, 4, 5), ([1], [0])), name="broadcast_dim"),
        Sample((real(rng, 3, 4), real(rng, 4, 5), 1), name="transposed", transposed=True),
    ]


def nonzero(rng: np.random.Generator, *shape: int) -> np.ndarray:
    magnitude = rng.uniform(0.5, 1.5, size=shape)
    return np.where(rng.random(shape) < 0.5, -magnitude, magnitude)


def distinct(rng: np.random.Generator, *shape: int) -> np.ndarray:
    count = int(np.prod(shape))
    values = (rng.permutation(count) + 1) * 0.25 + rng.uniform(0, 0.1, size=count)
    return np.where(rng.random(shape) < 0.5, -1, 1) * values.reshape(shape)


def linalg_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((nonzero(rng, 5), None, None, False), name="vector"),
        Sample((nonzero(rng, 3, 4), None, None, False), name="matrix_default"),
        Sample((nonzero(rng, 2, 3, 4), None, None, True), name="3d_default_keepdim"),
        Sample((nonzero(rng, 3, 4), "fro", None, False), name="fro"),
        Sample((nonzero(rng, 3, 4), "nuc", None, False), name="nuc"),
        Sample((nonzero(rng, 3, 4), 2, None, False), name="spectral"),
        Sample((nonzero(rng, 4, 3), -2, None, True), name="smallest_singular"),
        Sample((distinct(rng, 3, 4), 1, None, False), name="ord1"),
        Sample((distinct(rng, 3, 4), -1, None, True), name="ord_neg1"),
        Sample((distinct(rng, 3, 4), float("inf"), None, False), name="inf"),
        Sample((distinct(rng, 3, 4), -float("inf"), None, False), name="neg_inf"),
        Sample((nonzero(rng, 5), 3, None, False), name="vector_ord3"),
        Sample((nonzero(rng, 2, 3, 4), 1, (2, 0), False), name="dims_reversed"),
        Sample((nonzero(rng, 2, 3, 4), "fro", (0, 1), True), name="fro_dims"),
        Sample((nonzero(rng, 2, 3, 4), "nuc", (-1, 1), True), name="nuc_dims"),
        Sample((nonzero(rng, 3, 4), 1.5, 1, True), name="vector_dim"),
        Sample((nonzero(rng, 3, 4), 2, None, False), name="transposed", transposed=True),
    ]


def apart(rng: np.random.Generator, difference: np.ndarray, *shape: int) -> tuple[np.ndarray, ...]:
    """``(x, other)``: ``other`` of ``shape`` (broadcast against x) and ``x - other`` equal to
    ``difference`` (distinct, nonzero entries: the norm's gradient is defined)."""
    other = rng.standard_normal(shape)
    return np.asarray(other + difference), np.asarray(other)


def dist_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, other, p)``."""
    return [
        Sample((*apart(rng, nonzero(rng, 3, 4), 4), 2), name="broadcast"),
        Sample((*apart(rng, nonzero(rng, 3, 4), 3, 4), 1), name="p1"),
        Sample((*apart(rng, nonzero(rng, 2, 3, 4), 3, 1), 3.5), name="p3.5_broadcast"),
        Sample((*apart(rng, distinct(rng, 3, 4), 3, 4), float("inf")), name="inf"),
        Sample((*apart(rng, distinct(rng, 2, 3), 3), -float("inf")), name="neg_inf"),
        Sample((*apart(rng, nonzero(rng, 3, 4), 3, 4), 0.5), name="p_half"),
        Sample((*apart(rng, nonzero(rng), ), 2), name="0d"),
        Sample((*apart(rng, nonzero(rng, 3, 4), 3, 4), 2), name="transposed", transposed=True),
        Sample((*apart(rng, nonzero(rng, 3, 4), 4), 0), name="edge_p0"),  # (no gradient)
    ]


BAD_NORM = (
    BadInput((np.ones((2, 3, 4)), 2, None, False), name="ord_3d"),
    BadInput((np.ones(3), "fro", None, False), name="fro_1d"),
    BadInput((np.ones((2, 3, 4)), None, (0, 1, 2), False), name="three_dims"),
    BadInput((np.ones((2, 3)), 3, None, False), name="matrix_order"),
    BadInput((np.ones((2, 3), dtype=np.int64), None, None, False), name="integer"),
    BadInput((np.ones((2, 3)), None, (0, 0), False), name="same_dims"),
    BadInput((np.ones((2, 3)), 2, (0, -2), False), name="same_matrix_dims"),
)


def both_but(*grad_args: int) -> dict[str, Any]:
    return {"grad_args": grad_args}


OPS: list[OpInfo] = [
    # --- matmul -------------------------------------------------------------------------------
    OpInfo("matmul", lambda lib, x, y: lib.matmul(x, y), matmul_samples, bad_inputs=BAD_MATMUL),
    OpInfo("matmul_x_only", lambda lib, x, y: x @ y, matmul_samples, **both_but(0)),
    OpInfo("matmul_y_only", lambda lib, x, y: x.matmul(y), matmul_samples, **both_but(1)),
    # --- the primitive products ---------------------------------------------------------------
    OpInfo("mm", lambda lib, x, y: lib.mm(x, y), pairs(((3, 4), (4, 5), "plain"),
                                                       ((1, 4), (4, 1), "thin")),
           bad_inputs=(BadInput((np.ones(4), np.ones((4, 5))), name="1d"),
                       BadInput((np.ones((3, 4)), np.ones((3, 4))), name="shapes"),
                       BadInput((np.ones((3, 4)), np.ones((4, 5), dtype=np.int64)),
                                name="dtype"))),
    OpInfo("mm_x_only", lambda lib, x, y: x.mm(y), pairs(((3, 4), (4, 5), "plain")),
           **both_but(0)),
    OpInfo("bmm", lambda lib, x, y: lib.bmm(x, y),
           lambda rng: [
               Sample((real(rng, 2, 3, 4), real(rng, 2, 4, 5)), name="plain"),
               Sample((real(rng, 1, 1, 4), real(rng, 1, 4, 1)), name="thin"),
               Sample((real(rng, 2, 3, 4), real(rng, 2, 4, 5)), name="transposed",
                      transposed=True)],
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((4, 5))), name="2d"),
                       BadInput((np.ones((2, 3, 4)), np.ones((3, 4, 5))), name="batch"),
                       BadInput((np.ones((2, 3, 4)), np.ones((2, 3, 5))), name="inner"),
                       BadInput((np.ones((2, 3, 4)), np.ones((2, 4, 5), dtype=np.int64)),
                                name="dtype"))),
    OpInfo("bmm_y_only", lambda lib, x, y: x.bmm(y),
           lambda rng: [Sample((real(rng, 2, 3, 4), real(rng, 2, 4, 5)), name="plain")],
           **both_but(1)),
    OpInfo("mv", lambda lib, x, y: lib.mv(x, y), pairs(((3, 4), (4,), "plain"),
                                                       transposed=False),
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones(3)), name="shape"),
                       BadInput((np.ones(4), np.ones(4)), name="1d"),
                       BadInput((np.ones((3, 4)), np.ones(4, dtype=np.int64)), name="dtype"))),
    OpInfo("dot", lambda lib, x, y: lib.dot(x, y), pairs(((4,), (4,), "plain"),
                                                         transposed=False),
           bad_inputs=(BadInput((np.ones(4), np.ones(3)), name="shape"),
                       BadInput((np.ones((2, 2)), np.ones((2, 2))), name="2d"),
                       BadInput((np.ones(4), np.ones(4, dtype=np.int64)), name="dtype"))),
    OpInfo("outer", lambda lib, x, y: lib.outer(x, y), pairs(((3,), (4,), "plain"),
                                                             transposed=False),
           bad_inputs=(BadInput((np.ones((2, 2)), np.ones(2)), name="2d"),)),
    OpInfo("outer_method", lambda lib, x, y: x.outer(y), pairs(((3,), (4,), "plain"),
                                                               transposed=False)),
    OpInfo("addmm", lambda lib, b, x, y, beta, alpha: lib.addmm(b, x, y, beta=beta, alpha=alpha),
           addmm_samples,
           bad_inputs=(BadInput((np.ones((2, 5)), np.ones((3, 4)), np.ones((4, 5)), 1, 1),
                                name="bias_shape"),
                       BadInput((np.ones(5), np.ones(4), np.ones((4, 5)), 1, 1), name="mat1_1d"),
                       BadInput((np.ones((3, 5)), np.ones((3, 4)), np.ones((3, 5)), 1, 1),
                                name="inner"))),
    OpInfo("addmm_mats_only",
           lambda lib, b, x, y, beta, alpha: b.addmm(x, y, beta=beta, alpha=alpha),
           addmm_samples,
           grad_args=(1, 2)),
    OpInfo("baddbmm", lambda lib, b, x, y, beta, alpha: lib.baddbmm(b, x, y, beta=beta,
                                                                    alpha=alpha),
           baddbmm_samples,
           bad_inputs=(BadInput((np.ones((2, 3, 4)), np.ones((2, 3, 4)), np.ones((2, 4, 5)), 1,
                                 1), name="bias_shape"),
                       BadInput((np.ones((3, 5)), np.ones((3, 4)), np.ones((4, 5)), 1, 1),
                                name="2d"))),
    # --- einsum -------------------------------------------------------------------------------
    einsum_row("matmul", "ij,jk->ik", (3, 4), (4, 5),
               bad_inputs=(BadInput(("ij,jk->ik", np.ones((3, 4)), np.ones((3, 5))),
                                    name="sizes"),
                           BadInput(("ij,jk->ik", np.ones((3, 4))), name="too_few"),
                           BadInput(("ij->ij", np.ones((3, 4)), np.ones((3, 4))),
                                    name="too_many"),
                           BadInput(("ijk->i", np.ones((3, 4))), name="ndim"),
                           BadInput(("i1->", np.ones(3)), name="bad_char"),
                           BadInput(("ij->k", np.ones((3, 4))), name="unknown_output"),
                           BadInput(("ij->ii", np.ones((3, 4))), name="output_twice"),
                           BadInput(("ii->i", np.ones((3, 4))), name="diagonal_sizes"))),
    einsum_row("implicit", "ij,jk", (3, 4), (4, 5)),
    einsum_row("matmul_transposed", "ij,kj->ik", (3, 4), (5, 4)),
    einsum_row("trace", "ii->", (4, 4)),
    einsum_row("diagonal", "ii->i", (4, 4)),
    einsum_row("batch_diagonal", "bii->bi", (2, 3, 3)),
    einsum_row("transpose", "ij->ji", (3, 4)),
    einsum_row("sum", "ij->", (3, 4)),
    einsum_row("sum_rows", "ij->j", (3, 4)),
    einsum_row("bmm", "bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    einsum_row("outer", "i,j->ij", (3,), (4,)),
    einsum_row("dot", "i,i->", (4,), (4,)),
    einsum_row("mv", "ij,j->i", (3, 4), (4,)),
    einsum_row("hadamard", "ij,ij->ij", (3, 4), (3, 4)),
    einsum_row("ellipsis", "...ij,...jk->...ik", (2, 3, 4), (2, 4, 5),
               bad_inputs=(BadInput(("...ij,...jk->...ik", np.ones(3), np.ones((4, 5))),
                                    name="too_few_dims"),)),
    einsum_row("ellipsis_broadcast", "...ij,...jk", (2, 1, 3, 4), (3, 4, 2)),
    einsum_row("three", "ij,jk,kl->il", (3, 4), (4, 5), (5, 2)),
    einsum_row("bilinear", "bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)),
    einsum_row("broadcast_one", "ij,jk->ik", (3, 1), (4, 5)),
    OpInfo("einsum_list", lambda lib, x, y: lib.einsum("ij,jk->ik", [x, y]),
           pairs(((3, 4), (4, 5), "plain")), op="einsum"),
    OpInfo("einsum_sublist", lambda lib, x, y: lib.einsum(x, [0, 1], y, [1, 2]),
           pairs(((3, 4), (4, 5), "plain"))),
    OpInfo("einsum_sublist_output",
           lambda lib, x, y: lib.einsum(x, [..., 0, 1], y, [..., 1, 2], [..., 0, 2]),
           pairs(((2, 3, 4), (2, 4, 5), "batch"), transposed=False)),
    # --- tensordot ----------------------------------------------------------------------------
    OpInfo("tensordot", lambda lib, x, y, dims: lib.tensordot(x, y, dims=dims), tensordot_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), np.ones((4, 5)), 2), name="sizes"),
                       BadInput((np.ones((3, 4)), np.ones((4, 5)), -1), name="negative"),
                       BadInput((np.ones((3, 4)), np.ones((4, 5)), 3), name="too_many"),
                       BadInput((np.ones((3, 4)), np.ones((4, 5)), ([1], [0, 1])),
                                name="lengths"),
                       BadInput((np.ones((3, 4)), np.ones((4, 5)), ([0], [0])),
                                name="mismatch"))),
    # --- norms --------------------------------------------------------------------------------
    OpInfo("linalg_norm", lambda lib, x, ord, dim, keepdim: lib.linalg.norm(x, ord, dim, keepdim),
           linalg_norm_samples, bad_inputs=BAD_NORM, op="linalg.norm"),
    OpInfo("dist", lambda lib, x, other, p: lib.dist(x, other, p), dist_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), np.ones(4), 2), name="shapes"),)),
    OpInfo("dist_method", lambda lib, x, other, p: x.dist(other, p=p), dist_samples),
    OpInfo("vector_norm",
           lambda lib, x, ord, dim, keepdim: lib.linalg.vector_norm(x, ord, dim, keepdim),
           lambda rng: [
               Sample((nonzero(rng, 3, 4), 2, None, False), name="default"),
               Sample((nonzero(rng, 3, 4), 1, (0, 1), True), name="ord1"),
               Sample((nonzero(rng, 2, 3, 4), 0.5, (-1,), False), name="ord_half"),
               Sample((nonzero(rng, 2, 3, 4), -2, 1, False), name="ord_neg2"),
               Sample((distinct(rng, 3, 4), float("inf"), 0, True), name="inf"),
               Sample((nonzero(rng), 2, None, False), name="0d"),
           ],
           bad_inputs=(BadInput((np.ones((0, 3)), -1, 0, False), name="empty_dim"),
                       BadInput((np.ones((0, 3)), -1.5, None, False), name="empty"),
                       BadInput((np.ones((2, 3)), 2, 2, False), name="dim")),
           op="linalg.vector_norm"),
    OpInfo("matrix_norm",
           lambda lib, x, ord, keepdim: lib.linalg.matrix_norm(x, ord, keepdim=keepdim),
           lambda rng: [
               Sample((nonzero(rng, 3, 4), "fro", False), name="fro"),
               Sample((nonzero(rng, 2, 3, 4), "nuc", True), name="nuc_batch"),
               Sample((nonzero(rng, 2, 4, 3), 2, False), name="spectral_batch"),
               Sample((distinct(rng, 2, 3, 4), -float("inf"), True), name="neg_inf"),
               Sample((distinct(rng, 3, 4), 1, False), name="transposed", transposed=True),
           ],
           bad_inputs=(BadInput((np.ones(3), "fro", False), name="1d"),
                       BadInput((np.ones((2, 3)), "abc", False), name="order"),
                       BadInput((np.ones((2, 3)), 3, False), name="number_order")),
           op="linalg.matrix_norm"),
]
