"""Op-table rows of the solvers and decompositions (ops/solvers.py, determinants.py,
decompositions.py): inv, det, slogdet, solve, cholesky, qr, svd, eigh, pinv.

Inputs are made well-conditioned (diagonally dominant, symmetric positive-definite by
composition) so that finite differences are meaningful. Where only a triangle is read
(cholesky, eigh) the row symmetrises its input first, as PyTorch's own tests do: a gradient
for the full matrix is then checkable.

Singular vectors and eigenvectors are defined up to sign, and numpy's LAPACK may choose other
signs than PyTorch's: rows of svd and eigh differentiate a sign-invariant function of them
(absolute values). QR's Householder signs agree, so its rows use Q and R as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first, quietly

Samples = Callable[[np.random.Generator], list[Sample]]
LINALG_TOLERANCES = {"atol": 1e-4, "rtol": 1e-3}


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-1.0, 1.0, size=shape)


def dominant(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Diagonally dominant with a positive diagonal: invertible, positive determinant."""
    return real(rng, *shape) + shape[-1] * np.eye(shape[-1])


def signed(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Invertible with a negative determinant (``dominant`` with two rows swapped)."""
    a = dominant(rng, *shape)
    if shape[-1] == 1:
        return -a
    a[..., [0, 1], :] = a[..., [1, 0], :]
    return a


def matrices(make: Callable[..., np.ndarray], *shapes: tuple[int, ...]) -> Samples:
    """One sample per shape, plus a transposed (non-contiguous) copy of the first."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample((make(rng, *shape),), name="x".join(map(str, shape))) for shape in shapes]
        out.append(Sample((make(rng, *shapes[0]),), name="transposed", transposed=True))
        return out

    return samples


def spd(lib: Any, a: Any) -> Any:
    """A symmetric positive-definite matrix made from ``a`` (entries in [-1, 1]), differentiably.

    Made with ops that save nothing, so writing ``a`` after the call shows what the
    decomposition itself saved.
    """
    n = a.shape[-1]
    return a + a.mT + (2 * n + 1) * lib.eye(n, dtype=a.dtype)


def svd_invariant(u: Any, s: Any, vh: Any) -> Any:
    """|U| diag(S) |Vh| over the first k singular triplets: blind to the vectors' signs."""
    k = s.shape[-1]
    return (u[..., :, :k].abs() * s.unsqueeze(-2)) @ vh[..., :k, :].abs()


def eigh_invariant(values: Any, vectors: Any) -> Any:
    return vectors.abs() * values.unsqueeze(-2)


SQUARE = ((3, 3), (2, 4, 4), (1, 1))
RECTANGULAR = ((4, 3), (3, 4), (2, 3, 2), (2, 2, 3))


def int_matrix() -> np.ndarray:
    return np.ones((2, 2), dtype=np.int64)


# (float16 inputs are tested in tests/test_linalg.py: the table casts float arrays.)
BAD_SQUARE = (
    BadInput((np.ones(3),), name="1d"),
    BadInput((np.ones((2, 3)),), name="not_square"),
    BadInput((int_matrix(),), name="integer"),
)
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
SINGULAR_BATCH = np.stack([np.eye(2), SINGULAR])
NOT_POSITIVE_DEFINITE = np.array([[1.0, 2.0], [2.0, 1.0]])
# Singular for Cholesky on every CPU: MKL's float32 Cholesky (PyTorch's) scales a column by a
# reciprocal an ulp low except on AVX-512 (MKL_ENABLE_INSTRUCTIONS=AVX2 or SSE4_2: SINGULAR's
# last pivot 4 - 1.99999988 ** 2 > 0, factored), so the zero pivot is one no rounding moves.
CHOLESKY_SINGULAR = np.array([[1.0, 0.0], [0.0, 0.0]])
BAD_MATRIX = (
    BadInput((np.ones(3),), name="1d"),
    BadInput((int_matrix(),), name="integer"),
)


def solve_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((dominant(rng, 3, 3), real(rng, 3, 2), True), name="matrix"),
        Sample((dominant(rng, 3, 3), real(rng, 3), True), name="vector"),
        Sample((dominant(rng, 2, 3, 3), real(rng, 2, 3), True), name="vector_batch"),
        Sample((dominant(rng, 2, 1, 3, 3), real(rng, 4, 3, 2), True), name="broadcast"),
        Sample((dominant(rng, 2, 3, 3), real(rng, 3), True), name="vector_broadcast"),
        Sample((dominant(rng, 3, 3), real(rng, 2, 3), False), name="right"),
        Sample((dominant(rng, 2, 3, 3), real(rng, 1, 4, 3), False), name="right_broadcast"),
        Sample((dominant(rng, 3, 3), real(rng, 3, 4), True), name="transposed", transposed=True),
    ]


BAD_SOLVE = (
    BadInput((np.eye(3), np.ones((4, 2)), True), name="rows"),
    BadInput((np.eye(3), np.ones(4), True), name="vector_rows"),
    BadInput((np.ones((3, 4)), np.ones((3, 2)), True), name="not_square"),
    BadInput((np.ones(3), np.ones((3, 2)), True), name="1d"),
    BadInput((np.eye(3), np.array(1.0), True), name="0d_b"),
    BadInput((int_matrix(), int_matrix(), True), name="integer"),
    BadInput((SINGULAR, np.ones(2), True), name="singular"),
    BadInput((SINGULAR_BATCH, np.ones((2, 2)), True), name="singular_batch"),
    BadInput((np.ones((2, 3, 3)), np.ones((4, 3, 2)), True), name="batch"),
    BadInput((np.eye(3), np.ones((3, 2)), False), name="right_shapes"),
    BadInput((np.eye(3), np.ones(3), False), name="right_vector"),
)


def pinv_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3),), name="tall"),
        Sample((real(rng, 3, 4),), name="wide"),
        Sample((dominant(rng, 3, 3),), name="square"),
        Sample((real(rng, 2, 2, 3),), name="batch"),
        Sample((real(rng, 4, 3),), name="transposed", transposed=True),
    ]


def pinv_tolerance_samples(rng: np.random.Generator) -> list[Sample]:
    # Singular values are kept or dropped by the tolerance: well away from it either way.
    diagonal = np.diag([3.0, 1.0, 0.01])
    return [
        Sample((real(rng, 4, 3), {"rtol": 1e-3}), name="rtol"),
        # A dropped singular value makes pinv's gradient PyTorch's formula, not the derivative
        # of the truncated function: compared with PyTorch, left out of finite differences.
        Sample((diagonal, {"atol": 0.1}), name="edge_atol_drops"),
        Sample((diagonal, {"rtol": 0.1, "atol": 0.0}), name="edge_rtol_drops"),
        Sample((real(rng, 2, 3, 4), {"rcond": 1e-5}), name="rcond"),
    ]


OPS: list[OpInfo] = [
    # --- inv and det ---------------------------------------------------------------------------
    OpInfo("linalg_inv", lambda lib, a: lib.linalg.inv(a), matrices(dominant, *SQUARE),
           bad_inputs=(*BAD_SQUARE, BadInput((SINGULAR,), name="singular"),
                       BadInput((SINGULAR_BATCH,), name="singular_batch")),
           **LINALG_TOLERANCES, op="linalg.inv"),
    OpInfo("linalg_inv_ex", lambda lib, a: lib.linalg.inv_ex(a).inverse,
           matrices(dominant, (3, 3)), **LINALG_TOLERANCES, op="linalg.inv_ex"),
    OpInfo("inverse", lambda lib, a: a.inverse(), matrices(dominant, (2, 3, 3)),
           **LINALG_TOLERANCES),
    OpInfo("linalg_det", lambda lib, a: lib.linalg.det(a), matrices(dominant, *SQUARE),
           bad_inputs=BAD_SQUARE, **LINALG_TOLERANCES, op="linalg.det"),
    OpInfo("det_method", lambda lib, a: a.det(), matrices(signed, (3, 3), (2, 2, 2)),
           **LINALG_TOLERANCES, op="det"),
    OpInfo("linalg_slogdet", lambda lib, a: lib.linalg.slogdet(a).logabsdet,
           matrices(signed, *SQUARE), bad_inputs=BAD_SQUARE, **LINALG_TOLERANCES,
           op="linalg.slogdet"),
    OpInfo("slogdet_sign", lambda lib, a: lib.slogdet(a).sign, matrices(signed, (3, 3)),
           op="slogdet"),
    OpInfo("logdet", lambda lib, a: lib.logdet(a), matrices(dominant, *SQUARE),
           bad_inputs=BAD_SQUARE, **LINALG_TOLERANCES),
    # --- solve ---------------------------------------------------------------------------------
    OpInfo("linalg_solve", lambda lib, a, b, left: lib.linalg.solve(a, b, left=left),
           solve_samples, bad_inputs=BAD_SOLVE, **LINALG_TOLERANCES, op="linalg.solve"),
    OpInfo("linalg_solve_b_only", lambda lib, a, b, left: lib.linalg.solve(a, b, left=left),
           first(solve_samples, 4), grad_args=(1,), **LINALG_TOLERANCES),
    OpInfo("linalg_solve_a_only", lambda lib, a, b, left: lib.linalg.solve(a, b, left=left),
           first(solve_samples, 4), grad_args=(0,), **LINALG_TOLERANCES),
    # --- cholesky ------------------------------------------------------------------------------
    OpInfo("linalg_cholesky", lambda lib, a: lib.linalg.cholesky(spd(lib, a)),
           matrices(real, *SQUARE), **LINALG_TOLERANCES, op="linalg.cholesky"),
    # Directly on a symmetric input. Its gradient is for a loss that sees both triangles: not
    # what finite differences of the lower one measure.
    OpInfo("linalg_cholesky_direct", lambda lib, a: lib.linalg.cholesky(a),
           matrices(lambda rng, *s: spd(np, real(rng, *s)), (3, 3)), differentiable=False,
           bad_inputs=(*BAD_SQUARE, BadInput((CHOLESKY_SINGULAR,), name="singular"),
                       BadInput((NOT_POSITIVE_DEFINITE,), name="not_positive_definite")),
           **LINALG_TOLERANCES),
    OpInfo("linalg_cholesky_ex", lambda lib, a: lib.linalg.cholesky_ex(spd(lib, a)).L,
           matrices(real, *SQUARE), **LINALG_TOLERANCES, op="linalg.cholesky_ex"),
    OpInfo("linalg_cholesky_upper", lambda lib, a: lib.linalg.cholesky(spd(lib, a), upper=True),
           matrices(real, (3, 3), (2, 2, 2)), **LINALG_TOLERANCES),
    OpInfo("cholesky_legacy", quietly(lambda lib, a, upper: lib.cholesky(spd(lib, a), upper)),
           lambda rng: [Sample((real(rng, 3, 3), False), name="lower"),
                        Sample((real(rng, 3, 3), True), name="upper")],
           bad_inputs=(BadInput((np.ones(3), False), name="1d"),
                       BadInput((int_matrix(), False), name="integer")),
           **LINALG_TOLERANCES, op="cholesky"),
    # --- qr ------------------------------------------------------------------------------------
    OpInfo("linalg_qr_q", lambda lib, a: lib.linalg.qr(a).Q,
           matrices(real, *SQUARE[:2], *RECTANGULAR),
           bad_inputs=(*BAD_MATRIX, BadInput((np.ones((2, 2)), "foo"), name="mode")),
           **LINALG_TOLERANCES, op="linalg.qr"),
    OpInfo("linalg_qr_r", lambda lib, a: lib.linalg.qr(a).R,
           matrices(real, *SQUARE[:2], *RECTANGULAR), **LINALG_TOLERANCES),
    # (Q's last column is fixed by orthogonality alone: its float32 noise is larger.)
    OpInfo("linalg_qr_complete", lambda lib, a: lib.linalg.qr(a, mode="complete").Q,
           matrices(real, (3, 3), (3, 4)), atol=1e-3, rtol=1e-3),
    OpInfo("linalg_qr_complete_tall", lambda lib, a: lib.linalg.qr(a, mode="complete").R,
           matrices(real, (4, 3)), differentiable=False),  # backward raises, as PyTorch
    OpInfo("linalg_qr_mode_r", lambda lib, a: lib.linalg.qr(a, mode="r").R,
           matrices(real, (4, 3)), differentiable=False),  # backward raises, as PyTorch
    OpInfo("qr_legacy", quietly(lambda lib, a: lib.qr(a).R), matrices(real, (4, 3), (3, 4)),
           **LINALG_TOLERANCES, op="qr"),
    # --- svd -----------------------------------------------------------------------------------
    OpInfo("linalg_svd", lambda lib, a: svd_invariant(*lib.linalg.svd(a, full_matrices=False)),
           matrices(real, *SQUARE[:2], *RECTANGULAR),
           bad_inputs=(*BAD_MATRIX, BadInput((np.ones((2, 2)),), {"driver": "gesvd"},
                                             name="driver")),
           **LINALG_TOLERANCES, op="linalg.svd"),
    OpInfo("linalg_svd_full", lambda lib, a: svd_invariant(*lib.linalg.svd(a)),
           matrices(real, (4, 2), (2, 4), (3, 3)), **LINALG_TOLERANCES),
    OpInfo("linalg_svd_u_only",
           lambda lib, a: lib.linalg.svd(a, full_matrices=False).U.abs(),
           matrices(real, (4, 3), (3, 4)), **LINALG_TOLERANCES),
    OpInfo("linalg_svdvals", lambda lib, a: lib.linalg.svdvals(a),
           matrices(real, *SQUARE, *RECTANGULAR), bad_inputs=BAD_MATRIX, **LINALG_TOLERANCES,
           op="linalg.svdvals"),
    OpInfo("svd_legacy",
           lambda lib, a, some: (lambda u, s, v: svd_invariant(u, s, v.mT))(*lib.svd(a, some)),
           lambda rng: [Sample((real(rng, 4, 3), True), name="some"),
                        Sample((real(rng, 3, 4), False), name="full"),
                        Sample((real(rng, 2, 3, 3), True), name="transposed", transposed=True)],
           bad_inputs=(BadInput((np.ones(3), True), name="1d"),), **LINALG_TOLERANCES, op="svd"),
    # --- eigh ----------------------------------------------------------------------------------
    OpInfo("linalg_eigh", lambda lib, a: eigh_invariant(*lib.linalg.eigh(a + a.mT)),
           matrices(real, *SQUARE), **LINALG_TOLERANCES, op="linalg.eigh"),
    OpInfo("linalg_eigh_upper",
           lambda lib, a: eigh_invariant(*lib.linalg.eigh(a + a.mT, UPLO="U")),
           matrices(real, (3, 3)), **LINALG_TOLERANCES),
    OpInfo("linalg_eigh_checks", lambda lib, a, uplo: lib.linalg.eigh(a, uplo).eigenvalues,
           lambda rng: [Sample((real(rng, 3, 3), "L"), name="lower_triangle"),
                        Sample((real(rng, 3, 3), "U"), name="upper_triangle")],
           differentiable=False,  # a non-symmetric input: only its triangle counts
           bad_inputs=(BadInput((np.ones((2, 3)), "L"), name="not_square"),
                       BadInput((np.ones(3), "L"), name="1d"),
                       BadInput((int_matrix(), "L"), name="integer"),
                       BadInput((np.eye(2), "X"), name="uplo")),
           **LINALG_TOLERANCES),
    OpInfo("linalg_eigvalsh", lambda lib, a: lib.linalg.eigvalsh(a + a.mT),
           matrices(real, *SQUARE),
           bad_inputs=(BadInput((np.ones((2, 3)),), name="not_square"),),
           **LINALG_TOLERANCES, op="linalg.eigvalsh"),
    # --- pinv ----------------------------------------------------------------------------------
    OpInfo("linalg_pinv", lambda lib, a: lib.linalg.pinv(a), pinv_samples,
           bad_inputs=(BadInput((np.ones(3),), name="1d"),
                       BadInput((int_matrix(),), name="integer")),
           **LINALG_TOLERANCES, op="linalg.pinv"),
    OpInfo("linalg_pinv_hermitian", lambda lib, a: lib.linalg.pinv(a + a.mT, hermitian=True),
           matrices(real, (3, 3), (2, 2, 2)), **LINALG_TOLERANCES),
    OpInfo("linalg_pinv_tolerances", lambda lib, a, options: lib.linalg.pinv(a, **options),
           pinv_tolerance_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), {"hermitian": True}), name="hermitian_shape"),
                       BadInput((np.ones((2, 2)), {"rcond": 0.1, "rtol": 0.1}),
                                name="rcond_and_rtol", same_message=False)),
           **LINALG_TOLERANCES),
    OpInfo("pinverse", lambda lib, a: a.pinverse(), first(pinv_samples, 2), **LINALG_TOLERANCES),
]
