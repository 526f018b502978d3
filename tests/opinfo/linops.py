"""Op-table rows of the products of several factors, the triangular solves and the measures.

addmv, addr, addbmm and their in-place forms (ops/scaled_products.py); multi_dot,
chain_matmul, matrix_power, vecdot, ger (ops/matrix_chains.py); cdist (ops/distances.py); cov
and corrcoef (ops/covariance.py); solve_triangular, triangular_solve, cholesky_solve,
cholesky_inverse (ops/triangular.py); matrix_exp (ops/matrix_functions.py); matrix_rank and
cond (ops/matrix_measures.py); lstsq (ops/least_squares.py); lu_factor, lu, lu_unpack,
lu_solve and the legacy lu, lu_solve (ops/lu.py); trapezoid, trapz, cumulative_trapezoid
(ops/integration.py).

The Cholesky routines read one triangle of their factor, and PyTorch's gradient for it is not
restricted to that triangle: their rows pass ``factor.tril()`` (PyTorch's own op tests do the
same), so finite differences see the function PyTorch differentiates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, quietly
from opinfo.decompositions import dominant
from opinfo.inplace import row

Samples = Callable[[np.random.Generator], list[Sample]]


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


# --- addmv, addr, addbmm ----------------------------------------------------------------------


def addmv_samples(rng: np.random.Generator) -> list[Sample]:
    """``(input, mat, vec, beta, alpha)``."""
    return [
        Sample((real(rng, 3), real(rng, 3, 4), real(rng, 4), 1, 1), name="plain"),
        Sample((real(rng), real(rng, 3, 4), real(rng, 4), 0.5, 2.0), name="bias_0d"),
        Sample((real(rng, 1), real(rng, 3, 4), real(rng, 4), 2, -1.5), name="bias_broadcast"),
        Sample((np.full(3, np.nan), real(rng, 3, 4), real(rng, 4), 0, 1), name="beta0"),
        Sample(
            (real(rng, 3), real(rng, 3, 4), real(rng, 4), 1, 0.5),
            name="transposed",
            transposed=True,
        ),
    ]


def addr_samples(rng: np.random.Generator) -> list[Sample]:
    """``(input, vec1, vec2, beta, alpha)``."""
    return [
        Sample((real(rng, 3, 4), real(rng, 3), real(rng, 4), 1, 1), name="plain"),
        Sample((real(rng, 4), real(rng, 3), real(rng, 4), 0.5, 2.0), name="bias_row"),
        Sample((real(rng), real(rng, 3), real(rng, 4), 2, -1), name="bias_0d"),
        Sample((np.full((3, 4), np.nan), real(rng, 3), real(rng, 4), 0, 1.5), name="beta0"),
        Sample(
            (real(rng, 3, 4), real(rng, 3), real(rng, 4), 1, 1), name="transposed", transposed=True
        ),
    ]


def addbmm_samples(rng: np.random.Generator) -> list[Sample]:
    """``(input, batch1, batch2, beta, alpha)``."""
    return [
        Sample((real(rng, 3, 4), real(rng, 2, 3, 5), real(rng, 2, 5, 4), 1, 1), name="plain"),
        Sample((real(rng, 4), real(rng, 2, 3, 5), real(rng, 2, 5, 4), 0.5, 2), name="bias_row"),
        Sample(
            (np.full((3, 4), np.nan), real(rng, 3, 3, 2), real(rng, 3, 2, 4), 0, -1), name="beta0"
        ),
        Sample(
            (real(rng, 3, 4), real(rng, 2, 3, 5), real(rng, 2, 5, 4), 1, 1),
            name="transposed",
            transposed=True,
        ),
    ]


def same_shape(samples: Samples, shape_of: Callable[[Sample], tuple[int, ...]]) -> Samples:
    """The samples whose input already has the result's shape (the in-place forms)."""
    return lambda rng: [s for s in samples(rng) if s.args[0].shape == shape_of(s)]


def _scaled(name: str) -> Callable[..., Any]:
    return lambda lib, t, a, b, beta, alpha: getattr(lib, name)(t, a, b, beta=beta, alpha=alpha)


def _scaled_method(name: str) -> Callable[..., Any]:
    return lambda lib, t, a, b, beta, alpha: getattr(t, name)(a, b, beta=beta, alpha=alpha)


# --- products of several factors --------------------------------------------------------------


def multi_dot_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 4, 2)), name="two"),
        Sample((real(rng, 4), real(rng, 4, 5), real(rng, 5, 2)), name="row_first"),
        Sample((real(rng, 2, 4), real(rng, 4, 5), real(rng, 5)), name="column_last"),
        Sample((real(rng, 5, 1), real(rng, 1, 4), real(rng, 4, 3)), name="right_first"),
        Sample((real(rng, 4), real(rng, 4)), name="vectors"),
        Sample((real(rng, 2, 3), real(rng, 3, 5), real(rng, 5, 1), real(rng, 1, 4)), name="four"),
        Sample(
            (real(rng, 3, 2), real(rng, 2, 4), real(rng, 4, 3), real(rng, 3, 3), real(rng, 3)),
            name="five",
            transposed=True,
        ),
    ]


def matrix_power_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 3) / 2, 2), name="square"),
        Sample((real(rng, 2, 3, 3) / 2, 3), name="cube_batch"),
        Sample((real(rng, 3, 3) / 2, 5), name="five"),
        Sample((real(rng, 3, 3) / 2, 6), name="six", transposed=True),
        Sample((real(rng, 3, 3), 1), name="one"),
        Sample((real(rng, 2, 2, 2), 0), name="zero"),
        Sample((dominant(rng, 3, 3), -1), name="inverse"),
        Sample((dominant(rng, 2, 3, 3), -3), name="negative"),
    ]


def vecdot_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, y, dim)``."""
    return [
        Sample((real(rng, 4), real(rng, 4), -1), name="vectors"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), -1), name="rows"),
        Sample((real(rng, 2, 1, 4), real(rng, 3, 4), -1), name="broadcast"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), 0), name="dim0", transposed=True),
    ]


# --- cdist, cov, corrcoef ---------------------------------------------------------------------


def spread(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Points whose coordinates all differ: every pair's distance has a gradient."""
    count = int(np.prod(shape))
    values = (rng.permutation(count) + 1) * 0.3 + rng.uniform(0, 0.1, size=count)
    return np.asarray(np.where(rng.random(count) < 0.5, -1, 1) * values).reshape(shape)


def cdist_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x1, x2, p, compute_mode)``."""
    default = "use_mm_for_euclid_dist_if_necessary"
    return [
        Sample((real(rng, 3, 4), real(rng, 5, 4), 2.0, default), name="p2"),
        Sample((*np.split(spread(rng, 5, 3), [2]), 1.0, default), name="p1"),
        Sample((*np.split(spread(rng, 5, 3), [3]), float("inf"), default), name="inf"),
        Sample((real(rng, 2, 3, 3), real(rng, 2, 2, 3), 3.0, default), name="p3_batch"),
        Sample((*np.split(spread(rng, 5, 3), [2]), 1.5, default), name="p1.5"),
        Sample((real(rng, 2, 3, 4), real(rng, 5, 4), 2.0, default), name="broadcast"),
        Sample(
            (real(rng, 3, 4), real(rng, 2, 4), 2.0, default), name="transposed", transposed=True
        ),
        Sample((real(rng, 3, 4), real(rng, 2, 4), 0.0, default), name="edge_p0"),
    ]


def cdist_mm_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x1, x2, p, compute_mode)`` through the matrix product (p = 2)."""
    mm = "use_mm_for_euclid_dist"
    return [
        Sample((real(rng, 3, 4), real(rng, 2, 4), 2.0, mm), name="mm"),
        Sample((real(rng, 2, 3, 2), real(rng, 1, 4, 2), 2.0, mm), name="batch_broadcast"),
        Sample(
            (real(rng, 26, 2), real(rng, 2, 2), 2.0, "use_mm_for_euclid_dist_if_necessary"),
            name="many_rows",
        ),
        Sample((real(rng, 3, 4), real(rng, 2, 4), 2.0, mm), name="transposed", transposed=True),
    ]


def cov_samples(rng: np.random.Generator) -> list[Sample]:
    """``(input, correction, fweights, aweights)``; weights do not require grad."""
    return [
        Sample((real(rng, 3, 5), 1, None, None), name="plain"),
        Sample((real(rng, 6), 0, None, None), name="1d"),
        Sample((real(rng, 2, 4), 1, np.array([1, 2, 0, 3]), None), name="fweights"),
        Sample((real(rng, 2, 4), 2, None, rng.uniform(0.5, 1.5, size=4)), name="aweights"),
        Sample(
            (real(rng, 2, 4), 1, np.array([2, 1, 1, 3]), rng.uniform(0.5, 1.5, size=4)),
            name="both_weights",
        ),
        Sample((real(rng, 3, 5), 1, None, None), name="transposed", transposed=True),
    ]


def _cov(lib: Any, x: Any, correction: int, fweights: Any, aweights: Any) -> Any:
    return lib.cov(x, correction=correction, fweights=fweights, aweights=aweights)


def corrcoef_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 5),), name="plain"),
        Sample((real(rng, 5),), name="1d"),
        Sample((real(rng, 2, 5),), name="transposed", transposed=True),
    ]


# --- triangular solves, matrix_exp, matrix_rank, cond -----------------------------------------


def solve_triangular_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, B, upper, left, unitriangular)``; A is read on one triangle only."""
    return [
        Sample((dominant(rng, 3, 3), real(rng, 3, 2), True, True, False), name="upper"),
        Sample((dominant(rng, 3, 3), real(rng, 3, 4), False, True, False), name="lower"),
        Sample((dominant(rng, 3, 3), real(rng, 2, 3), True, False, False), name="right"),
        Sample((real(rng, 3, 3), real(rng, 3, 2), False, True, True), name="unitriangular"),
        Sample(
            (dominant(rng, 2, 1, 3, 3), real(rng, 3, 3, 2), False, True, False),
            name="batch_broadcast",
        ),
        Sample(
            (dominant(rng, 3, 3), real(rng, 3, 2), True, True, False),
            name="transposed",
            transposed=True,
        ),
    ]


def triangular_solve_samples(rng: np.random.Generator) -> list[Sample]:
    """``(b, A, upper, transpose, unitriangular)``."""
    return [
        Sample((real(rng, 3, 2), dominant(rng, 3, 3), True, False, False), name="upper"),
        Sample((real(rng, 3, 2), dominant(rng, 3, 3), False, True, False), name="transpose"),
        Sample((real(rng, 2, 3, 2), real(rng, 3, 3), True, False, True), name="unit_batch"),
        Sample(
            (real(rng, 3, 2), dominant(rng, 3, 3), False, False, False),
            name="transposed",
            transposed=True,
        ),
    ]


def factor_samples(rng: np.random.Generator) -> list[Sample]:
    """``(b, factor, upper)``: a factor with a positive diagonal."""
    return [
        Sample((real(rng, 3, 2), dominant(rng, 3, 3), False), name="lower"),
        Sample((real(rng, 3, 1), dominant(rng, 3, 3), True), name="upper"),
        Sample((real(rng, 2, 3, 2), dominant(rng, 3, 3), False), name="batch"),
        Sample((real(rng, 3, 2), dominant(rng, 3, 3), False), name="transposed", transposed=True),
    ]


def _tri(factor: Any, upper: bool) -> Any:
    return factor.triu() if upper else factor.tril()


def matrix_exp_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 3),), name="plain"),
        Sample((real(rng, 2, 2, 2),), name="batch"),
        Sample((3 * real(rng, 3, 3),), name="squared"),  # (a 1-norm above theta_13)
        Sample((real(rng, 1, 1),), name="1x1"),
        Sample((real(rng, 3, 3),), name="transposed", transposed=True),
    ]


def cond_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, p)``."""
    return [
        Sample((dominant(rng, 3, 3), None), name="default"),
        Sample((real(rng, 2, 3, 4), -2), name="rectangular_minus2"),
        Sample((dominant(rng, 3, 3), 2), name="transposed", transposed=True),
    ]


def cond_norm_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, p)`` for the orders computed with the inverse (no gradient in PyTorch)."""
    return [
        Sample((dominant(rng, 3, 3), 1), name="p1"),
        Sample((dominant(rng, 2, 3, 3), float("inf")), name="inf_batch"),
        Sample((dominant(rng, 3, 3), "fro"), name="fro"),
        Sample((dominant(rng, 3, 3), "nuc"), name="nuc"),
        Sample((np.zeros((2, 2)), -1), name="singular"),
        Sample((dominant(rng, 3, 3), -float("inf")), name="transposed", transposed=True),
    ]


def lstsq_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, B, driver)``: A of full rank."""
    return [
        Sample((real(rng, 5, 3), real(rng, 5, 2), None), name="tall"),
        Sample((real(rng, 3, 3) + 3 * np.eye(3), real(rng, 3), "gels"), name="square_vector"),
        Sample((real(rng, 2, 5, 3), real(rng, 2, 5), "gelsd"), name="batch_vector"),
        Sample((real(rng, 3, 4), real(rng, 3, 2), "gelss"), name="wide"),
        Sample((real(rng, 2, 1, 4, 3), real(rng, 1, 3, 4, 2), None), name="broadcast"),
        Sample((real(rng, 5, 3), real(rng, 5, 2), "gelsd"), name="transposed", transposed=True),
    ]


def lstsq_residual_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, B, driver)``: tall A of full rank, with a driver that reports the residuals."""
    return [
        Sample((real(rng, 5, 3), real(rng, 5, 2), "gelsd"), name="tall"),
        Sample((real(rng, 2, 5, 3), real(rng, 2, 5), "gels"), name="batch_vector"),
        Sample((real(rng, 4, 2), real(rng, 4, 3), "gelss"), name="transposed", transposed=True),
    ]


def lu_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 3),), name="square"),
        Sample((real(rng, 2, 3, 3),), name="batch"),
        Sample((real(rng, 3, 4),), name="wide"),
        Sample((real(rng, 4, 2),), name="tall"),
        Sample((real(rng, 3, 3),), name="transposed", transposed=True),
    ]


def lu_solve_samples(rng: np.random.Generator) -> list[Sample]:
    """``(A, B, left, adjoint)``: A factored inside the call."""
    return [
        Sample((dominant(rng, 3, 3), real(rng, 3, 2), True, False), name="left"),
        Sample((dominant(rng, 2, 3, 3), real(rng, 2, 3, 2), True, True), name="adjoint_batch"),
        Sample((dominant(rng, 3, 3), real(rng, 2, 3), False, False), name="right"),
        Sample((dominant(rng, 3, 3), real(rng, 4, 3), False, True), name="right_adjoint"),
        Sample((dominant(rng, 3, 3), real(rng, 2, 3, 1), True, False), name="broadcast"),
    ]


def packed_lu_samples(rng: np.random.Generator) -> list[Sample]:
    """``(LU, pivots, B)``: a packed factorisation as a leaf (its own gradient)."""
    pivots = np.array([2, 3, 3], dtype=np.int32)
    return [
        Sample((dominant(rng, 3, 3), pivots, real(rng, 3, 2)), name="plain"),
        Sample(
            (
                dominant(rng, 2, 3, 3),
                np.array([pivots, [1, 3, 3]], dtype=np.int32),
                real(rng, 3, 1),
            ),
            name="batch",
        ),
    ]


def trapezoid_samples(rng: np.random.Generator) -> list[Sample]:
    """``(y, x, dx, dim)``: sample points ``x`` or a spacing ``dx``."""
    return [
        Sample((real(rng, 3, 4), None, 1, -1), name="unit"),
        Sample((real(rng, 3, 4), None, 0.5, 0), name="dx_dim0"),
        Sample((real(rng, 5), real(rng, 5), None, -1), name="points"),
        Sample((real(rng, 2, 3, 4), real(rng, 3), None, 1), name="points_dim1"),
        Sample((real(rng, 3, 4), real(rng, 3, 4), None, 0), name="points_full"),
        Sample((real(rng, 3, 4), None, 2.0, 1), name="transposed", transposed=True),
    ]


def _integrate(name: str) -> Callable[..., Any]:
    def call(lib: Any, y: Any, x: Any, dx: Any, dim: int) -> Any:
        if x is None:
            return getattr(lib, name)(y, dx=dx, dim=dim)
        return getattr(lib, name)(y, x, dim=dim)

    return call


OPS: list[OpInfo] = [
    # --- addmv, addr, addbmm ------------------------------------------------------------------
    OpInfo(
        "addmv",
        _scaled("addmv"),
        addmv_samples,
        bad_inputs=(
            BadInput((np.ones(3), np.ones((3, 4)), np.ones(5), 1, 1), name="vec"),
            BadInput((np.ones(2), np.ones((3, 4)), np.ones(4), 1, 1), name="input"),
            BadInput((np.ones(3), np.ones(4), np.ones(4), 1, 1), name="mat_1d"),
            BadInput((np.ones(3), np.ones((3, 4)), np.ones(4, dtype=np.int64), 1, 1), name="dtype"),
        ),
    ),
    OpInfo(
        "addmv_factors_only", _scaled_method("addmv"), addmv_samples, grad_args=(1, 2), op="addmv"
    ),
    row(
        "addmv_",
        _scaled_method("addmv_"),
        same_shape(addmv_samples, lambda s: s.args[1].shape[:1]),
        bad_inputs=(BadInput((np.ones(1), np.ones((3, 4)), np.ones(4), 1, 1), name="size"),),
    ),
    OpInfo(
        "addr",
        _scaled("addr"),
        addr_samples,
        bad_inputs=(
            BadInput((np.ones((3, 4)), np.ones((3, 1)), np.ones(4), 1, 1), name="vec1_2d"),
            BadInput((np.ones((2, 4)), np.ones(3), np.ones(4), 1, 1), name="input"),
            BadInput(
                (
                    np.ones((3, 4), dtype=np.int64),
                    np.ones(3, dtype=np.int64),
                    np.ones(4, dtype=np.int64),
                    1.5,
                    1,
                ),
                name="float_beta",
            ),
        ),
    ),
    OpInfo("addr_vec1_only", _scaled_method("addr"), addr_samples, grad_args=(1,), op="addr"),
    row(
        "addr_",
        _scaled_method("addr_"),
        same_shape(addr_samples, lambda s: (*s.args[1].shape, *s.args[2].shape)),
        bad_inputs=(BadInput((np.ones((1, 4)), np.ones(3), np.ones(4), 1, 1), name="size"),),
    ),
    OpInfo(
        "addbmm",
        _scaled("addbmm"),
        addbmm_samples,
        bad_inputs=(
            BadInput((np.ones((3, 4)), np.ones((2, 3, 5)), np.ones((2, 4, 4)), 1, 1), name="inner"),
            BadInput(
                (np.ones((3, 4)), np.ones((2, 3, 5)), np.ones((3, 5, 4)), 1, 1), name="batches"
            ),
            BadInput((np.ones((2, 4)), np.ones((2, 3, 5)), np.ones((2, 5, 4)), 1, 1), name="input"),
            BadInput(
                (np.ones((3, 4)), np.ones((2, 3, 5)), np.ones((5, 4)), 1, 1), name="batch2_2d"
            ),
        ),
    ),
    OpInfo(
        "addbmm_batch2_only", _scaled_method("addbmm"), addbmm_samples, grad_args=(2,), op="addbmm"
    ),
    row(
        "addbmm_",
        _scaled_method("addbmm_"),
        same_shape(addbmm_samples, lambda s: (s.args[1].shape[1], s.args[2].shape[2])),
    ),
    # an input that broadcasts to the product is resized to it (PyTorch's out= kernel)
    row(
        "addbmm_resizing",
        _scaled_method("addbmm_"),
        lambda rng: [
            Sample((real(rng, 4), real(rng, 2, 3, 5), real(rng, 2, 5, 4), 0.5, 2), name="row"),
            Sample((real(rng), real(rng, 2, 3, 5), real(rng, 2, 5, 4), 1, 1), name="0d"),
        ],
        op="addbmm_",
    ),
    # --- products of several factors ----------------------------------------------------------
    OpInfo(
        "linalg_multi_dot",
        lambda lib, *factors: lib.linalg.multi_dot(list(factors)),
        multi_dot_samples,
        op="linalg.multi_dot",
        bad_inputs=(
            BadInput((np.ones((2, 3)), np.ones((2, 2))), name="shapes"),
            BadInput((np.ones((2, 2)), np.ones(2), np.ones((2, 2))), name="middle"),
            BadInput((np.ones((1, 2, 2)), np.ones((2, 2))), name="first_3d"),
            BadInput((np.ones((2, 2)), np.ones((2, 2), dtype=np.int64)), name="dtype"),
        ),
    ),
    OpInfo(
        "chain_matmul",
        quietly(lambda lib, *factors: lib.chain_matmul(*factors)),
        lambda rng: (
            [s for s in multi_dot_samples(rng) if all(a.ndim == 2 for a in s.args)]
            + [Sample((real(rng, 3, 2),), name="one")]
        ),
        bad_inputs=(BadInput((np.ones(3), np.ones((3, 2))), name="vector"),),
    ),
    OpInfo(
        "linalg_matrix_power",
        lambda lib, a, n: lib.linalg.matrix_power(a, n),
        matrix_power_samples,
        op="linalg.matrix_power",
        atol=1e-4,
        bad_inputs=(
            BadInput((np.ones((3, 4)), 2), name="not_square"),
            BadInput((np.ones(3), 2), name="1d"),
        ),
    ),
    OpInfo(
        "matrix_power",
        lambda lib, a, n: lib.matrix_power(a, n),
        lambda rng: matrix_power_samples(rng)[:2],
    ),
    OpInfo(
        "matrix_power_method",
        lambda lib, a, n: a.matrix_power(n),
        lambda rng: matrix_power_samples(rng)[-1:],
        op="matrix_power",
    ),
    OpInfo(
        "linalg_vecdot",
        lambda lib, x, y, dim: lib.linalg.vecdot(x, y, dim=dim),
        vecdot_samples,
        op="linalg.vecdot",
        bad_inputs=(
            BadInput((np.ones(3), np.ones(3, dtype=np.int64), -1), name="dtype"),
            BadInput((np.ones(3, dtype=np.int64), np.ones(3, dtype=np.int64), -1), name="integer"),
            BadInput((np.ones((2, 3)), np.ones(4), -1), name="broadcast"),
        ),
    ),
    OpInfo(
        "ger",
        lambda lib, x, y: lib.ger(x, y),
        lambda rng: [Sample((real(rng, 3), real(rng, 4)), name="plain")],
        bad_inputs=(BadInput((np.ones((3, 1)), np.ones(3)), name="2d"),),
    ),
    OpInfo(
        "ger_method",
        lambda lib, x, y: x.ger(y),
        lambda rng: [Sample((real(rng, 2), real(rng, 3)), name="plain")],
        op="ger",
    ),
    # --- cdist, cov, corrcoef -----------------------------------------------------------------
    OpInfo(
        "cdist",
        lambda lib, x1, x2, p, mode: lib.cdist(x1, x2, p, compute_mode=mode),
        cdist_samples,
        gradgrad=False,  # (PyTorch has none: CdistBackwardBackward0 raises)
        bad_inputs=(
            BadInput((np.ones(3), np.ones((2, 3)), 2.0, "use_mm_for_euclid_dist"), name="1d"),
            BadInput(
                (np.ones((2, 3)), np.ones((2, 4)), 2.0, "use_mm_for_euclid_dist_if_necessary"),
                name="columns",
            ),
            BadInput(
                (np.ones((2, 3)), np.ones((2, 3)), -1.0, "use_mm_for_euclid_dist_if_necessary"),
                name="negative_p",
            ),
            BadInput((np.ones((2, 3)), np.ones((2, 3)), 2.0, "fast"), name="mode"),
        ),
    ),
    OpInfo(
        "cdist_mm",
        lambda lib, x1, x2, p, mode: lib.cdist(x1, x2, p, compute_mode=mode),
        cdist_mm_samples,
        op="cdist",
    ),
    OpInfo(
        "cov",
        _cov,
        cov_samples,
        grad_args=(0,),
        bad_inputs=(
            BadInput((np.ones((2, 2, 2)), 1, None, None), name="3d"),
            BadInput((np.ones((2, 4)), 1, np.ones(4), None), name="float_fweights"),
            BadInput((np.ones((2, 4)), 1, None, np.ones(3)), name="aweights_numel"),
            BadInput((np.ones((2, 4)), 1, None, -np.ones(4)), name="negative_aweights"),
        ),
    ),
    OpInfo(
        "cov_method", lambda lib, x, *weights: x.cov(), lambda rng: cov_samples(rng)[:1], op="cov"
    ),
    OpInfo(
        "corrcoef",
        lambda lib, x: lib.corrcoef(x),
        corrcoef_samples,
        bad_inputs=(BadInput((np.ones((2, 2, 2)),), name="3d"),),
    ),
    OpInfo(
        "corrcoef_method",
        lambda lib, x: x.corrcoef(),
        lambda rng: corrcoef_samples(rng)[:1],
        op="corrcoef",
    ),
    # --- triangular solves, matrix_exp, matrix_rank, cond --------------------------------------
    OpInfo(
        "linalg_solve_triangular",
        lambda lib, a, b, upper, left, unit: lib.linalg.solve_triangular(
            a, b, upper=upper, left=left, unitriangular=unit
        ),
        solve_triangular_samples,
        op="linalg.solve_triangular",
        atol=1e-4,
        bad_inputs=(
            BadInput((np.eye(3), np.ones(3), True, True, False), name="b_1d"),
            BadInput((np.ones((3, 4)), np.ones((3, 2)), True, True, False), name="not_square"),
            BadInput((np.eye(3), np.ones((4, 2)), True, True, False), name="shapes"),
            BadInput((np.eye(3), np.ones((2, 4)), True, False, False), name="right_shapes"),
        ),
    ),
    OpInfo(
        "triangular_solve",
        quietly(
            lambda lib, b, a, upper, transpose, unit: lib.triangular_solve(
                b, a, upper, transpose, unit
            )
        ),
        triangular_solve_samples,
        output_index=0,
        atol=1e-4,
        bad_inputs=(
            BadInput((np.ones(3), np.eye(3), True, False, False), name="b_1d"),
            BadInput((np.ones((4, 2)), np.eye(3), True, False, False), name="shapes"),
            BadInput((np.ones((3, 2)), np.ones((3, 4)), True, False, False), name="not_square"),
        ),
    ),
    OpInfo(
        "triangular_solve_coefficient",
        quietly(
            lambda lib, b, a, upper, transpose, unit: (
                b.triangular_solve(a, upper, transpose, unit).cloned_coefficient * 2
            )
        ),
        lambda rng: triangular_solve_samples(rng)[2:3],
        op="triangular_solve",
    ),
    OpInfo(
        "cholesky_solve",
        lambda lib, b, factor, upper: lib.cholesky_solve(b, _tri(factor, upper), upper),
        factor_samples,
        atol=1e-4,
        bad_inputs=(
            BadInput((np.ones(3), np.eye(3), False), name="b_1d"),
            BadInput((np.ones((4, 2)), np.eye(3), False), name="shapes"),
            BadInput((np.ones((3, 2)), np.ones((3, 4)), False), name="not_square"),
        ),
    ),
    OpInfo(
        "cholesky_solve_method",
        lambda lib, b, factor, upper: b.cholesky_solve(_tri(factor, upper), upper),
        lambda rng: factor_samples(rng)[:1],
        op="cholesky_solve",
    ),
    OpInfo(
        "cholesky_inverse",
        lambda lib, b, factor, upper: lib.cholesky_inverse(_tri(factor, upper), upper),
        factor_samples,
        grad_args=(1,),
        atol=1e-4,
        bad_inputs=(BadInput((np.ones(3), np.ones(3), False), name="1d"),),
    ),
    OpInfo(
        "cholesky_inverse_method",
        lambda lib, b, factor, upper: _tri(factor, upper).cholesky_inverse(upper),
        lambda rng: factor_samples(rng)[1:2],
        grad_args=(1,),
        op="cholesky_inverse",
    ),
    OpInfo(
        "linalg_matrix_exp",
        lambda lib, a: lib.linalg.matrix_exp(a),
        matrix_exp_samples,
        op="linalg.matrix_exp",
        atol=1e-4,
        bad_inputs=(
            BadInput((np.ones((3, 4)),), name="not_square"),
            BadInput((np.ones((3, 3), dtype=np.int64),), name="integer"),
        ),
    ),
    OpInfo("matrix_exp", lambda lib, a: lib.matrix_exp(a), lambda rng: matrix_exp_samples(rng)[:1]),
    OpInfo(
        "matrix_exp_method",
        lambda lib, a: a.matrix_exp(),
        lambda rng: matrix_exp_samples(rng)[1:2],
        op="matrix_exp",
    ),
    OpInfo(
        "linalg_cond",
        lambda lib, a, p: lib.linalg.cond(a, p),
        cond_samples,
        op="linalg.cond",
        atol=1e-4,
        rtol=1e-3,
        bad_inputs=(
            BadInput((np.ones(3), None), name="1d"),
            BadInput((np.ones((3, 4)), "fro"), name="not_square"),
            BadInput((np.eye(3), 3), name="order"),
        ),
    ),
    OpInfo(
        "linalg_cond_norms",
        lambda lib, a, p: lib.linalg.cond(a, p),
        cond_norm_samples,
        differentiable=False,  # (PyTorch's backward raises: see ops/matrix_measures.py)
        op="linalg.cond",
        bad_inputs=(BadInput((np.ones((3, 3), dtype=np.int64), 1), name="integer"),),
    ),
    OpInfo(
        "linalg_matrix_rank",
        lambda lib, a, options: lib.linalg.matrix_rank(a, **options),
        lambda rng: [
            Sample((real(rng, 3, 4), {}), name="full"),
            Sample((np.outer(real(rng, 3), real(rng, 4)), {}), name="rank_one"),
            Sample((np.diag([1.0, 1e-3, 0.0]), {"atol": 1e-2}), name="atol"),
            Sample(
                (np.diag([1.0, 1e-3, 0.0])[None].repeat(2, 0), {"rtol": 1e-4}), name="rtol_batch"
            ),
            Sample((np.diag([2.0, -1.0, 0.0]), {"hermitian": True}), name="hermitian"),
        ],
        differentiable=False,
        op="linalg.matrix_rank",
        bad_inputs=(
            BadInput((np.ones(3), {}), name="1d"),
            BadInput((np.ones((3, 3), dtype=np.int64), {}), name="integer"),
        ),
    ),
    OpInfo(
        "linalg_lstsq_residuals",
        lambda lib, a, b, driver: lib.linalg.lstsq(a, b, driver=driver),
        lstsq_residual_samples,
        output_index=1,
        op="linalg.lstsq",
        atol=1e-4,
        rtol=1e-3,
    ),
    OpInfo(
        "linalg_lstsq",
        lambda lib, a, b, driver: lib.linalg.lstsq(a, b, driver=driver),
        lstsq_samples,
        output_index=0,
        op="linalg.lstsq",
        atol=1e-4,
        rtol=1e-3,
        bad_inputs=(
            BadInput((np.ones((5, 3)), np.ones((4, 2)), None), name="rows"),
            BadInput((np.ones(5), np.ones(5), None), name="1d"),
            BadInput((np.ones((5, 3)), np.ones((5, 2)), "lu"), name="driver"),
            BadInput(
                (np.ones((5, 3), dtype=np.int64), np.ones((5, 2), dtype=np.int64), None),
                name="integer",
            ),
        ),
    ),
    OpInfo(
        "linalg_lu_factor",
        lambda lib, a: lib.linalg.lu_factor(a),
        lu_samples,
        output_index=0,
        op="linalg.lu_factor",
        bad_inputs=(
            BadInput((np.ones(3),), name="1d"),
            BadInput((np.ones((3, 3), dtype=np.int64),), name="integer"),
            BadInput((np.ones((3, 3)),), name="singular"),
        ),
    ),
    OpInfo("linalg_lu_L", lambda lib, a: lib.linalg.lu(a).L, lu_samples, op="linalg.lu"),
    OpInfo("linalg_lu_U", lambda lib, a: lib.linalg.lu(a).U, lu_samples, op="linalg.lu"),
    OpInfo(
        "lu_unpack_L",
        lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a)).L,
        lu_samples,
        op="lu_unpack",
    ),
    OpInfo(
        "lu_unpack_U",
        lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a)).U,
        lu_samples,
        op="lu_unpack",
    ),
    OpInfo(
        "linalg_lu_solve",
        lambda lib, a, b, left, adjoint: lib.linalg.lu_solve(
            *lib.linalg.lu_factor(a), b, left=left, adjoint=adjoint
        ),
        lu_solve_samples,
        op="linalg.lu_solve",
        atol=1e-4,
    ),
    OpInfo(
        "linalg_lu_solve_packed",
        lambda lib, lu, pivots, b: lib.linalg.lu_solve(lu, pivots, b),
        packed_lu_samples,
        op="linalg.lu_solve",
        atol=1e-4,
        bad_inputs=(
            BadInput((np.eye(3), np.ones(3, dtype=np.int64), np.ones((3, 1))), name="pivots"),
            BadInput((np.eye(3), np.ones(3, dtype=np.int32), np.ones((2, 1))), name="shapes"),
        ),
    ),
    OpInfo("lu", quietly(lambda lib, a: lib.lu(a)[0]), lambda rng: lu_samples(rng)[:2]),
    OpInfo(
        "lu_method", quietly(lambda lib, a: a.lu()[0]), lambda rng: lu_samples(rng)[2:3], op="lu"
    ),
    OpInfo(
        "lu_solve",
        quietly(lambda lib, a, b, left, adjoint: lib.lu_solve(b, *lib.lu(a))),
        lambda rng: lu_solve_samples(rng)[:2],
        atol=1e-4,
    ),
    OpInfo(
        "lu_solve_method",
        quietly(lambda lib, a, b, left, adjoint: b.lu_solve(*a.lu())),
        lambda rng: lu_solve_samples(rng)[:1],
        op="lu_solve",
    ),
    OpInfo(
        "trapezoid",
        _integrate("trapezoid"),
        trapezoid_samples,
        bad_inputs=(BadInput((np.ones((3, 4)), np.ones(3), None, -1), name="points"),),
    ),
    OpInfo("trapz", _integrate("trapz"), lambda rng: trapezoid_samples(rng)[1:3]),
    OpInfo("cumulative_trapezoid", _integrate("cumulative_trapezoid"), trapezoid_samples),
    OpInfo(
        "msort",
        lambda lib, x: lib.msort(x),
        lambda rng: [
            Sample((spread(rng, 3, 4),), name="plain"),
            Sample((spread(rng, 4),), name="1d"),
            Sample((spread(rng, 4, 3),), name="transposed", transposed=True),
        ],
    ),
    OpInfo(
        "msort_method",
        lambda lib, x: x.msort(),
        lambda rng: [Sample((spread(rng, 3, 2),))],
        op="msort",
    ),
    OpInfo(
        "sum_to_size",
        lambda lib, x, size: x.sum_to_size(size),
        lambda rng: [
            Sample((real(rng, 2, 3, 4), (3, 1)), name="leading"),
            Sample((real(rng, 2, 3, 4), (1, 1, 4)), name="keepdim"),
            Sample((real(rng, 2, 3, 4), (2, 3, 4)), name="same"),
            Sample((real(rng, 3, 4), (4,)), name="transposed", transposed=True),
        ],
        bad_inputs=(BadInput((np.ones((2, 3)), (5,)), name="not_expandable"),),
    ),
]
