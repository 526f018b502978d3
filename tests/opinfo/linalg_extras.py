"""Op-table rows of Vandermonde matrices and the LAPACK-form QR helpers (ops/vandermonde.py ...).

``vander`` writes the slice its ``cumprod`` saved, so its backward raises in PyTorch too: its
row is not differentiable and the generic tests check that backward raises the same error.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def vectors(rng: np.random.Generator) -> list[Sample]:
    """1-D inputs, with a zero and negative entries; a 0-d and an empty one."""
    return [
        Sample((rng.uniform(-2.0, 2.0, size=4),), name="1d"),
        Sample((np.array([0.0, -1.5, 2.0]),), name="zero"),
        Sample((rng.uniform(-2.0, 2.0, size=4),), {"N": 2}, name="N2"),
        Sample((rng.uniform(-2.0, 2.0, size=3),), {"N": 5, "increasing": True}, name="increasing"),
        Sample((np.zeros(0),), {"N": 3}, name="empty"),
    ]


def batched_vectors(rng: np.random.Generator) -> list[Sample]:
    """Batches of vectors, transposed too; ``N`` given or not."""
    return [
        Sample((rng.uniform(-2.0, 2.0, size=4),), name="1d"),
        Sample((rng.uniform(-2.0, 2.0, size=(2, 3)),), {"N": 4}, name="batched"),
        Sample((rng.uniform(-2.0, 2.0, size=(3, 2)),), name="transposed", transposed=True),
        Sample((np.asarray(1.5),), {"N": 3}, name="0d"),
    ]


def invertible(rng: np.random.Generator, size: int) -> np.ndarray:
    """A well-conditioned ``size`` x ``size`` matrix."""
    return rng.uniform(-1.0, 1.0, size=(size, size)) + 3.0 * np.eye(size)


def tensorinv_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((invertible(rng, 6).reshape(2, 3, 6),), name="ind2"),
        Sample((invertible(rng, 4).reshape(4, 2, 2),), {"ind": 1}, name="ind1"),
        Sample((invertible(rng, 3),), {"ind": 1}, name="transposed", transposed=True),
    ]


def tensorsolve_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (invertible(rng, 6).reshape(2, 3, 6), rng.uniform(-1, 1, size=(2, 3))), name="2d_rhs"
        ),
        Sample(
            (invertible(rng, 6).reshape(6, 2, 3), rng.uniform(-1, 1, size=(2, 3))),
            {"dims": (0,)},
            name="dims",
        ),
        Sample(
            (invertible(rng, 3), rng.uniform(-1, 1, size=3)), name="transposed", transposed=True
        ),
    ]


def reflectors(rng: np.random.Generator) -> list[Sample]:
    """(vectors below the diagonal, scales tau): tall, square, batched, fewer scales, transposed."""
    return [
        Sample((rng.uniform(-1, 1, size=(4, 3)), rng.uniform(0.5, 1.5, size=3)), name="tall"),
        Sample((rng.uniform(-1, 1, size=(3, 3)), rng.uniform(0.5, 1.5, size=3)), name="square"),
        Sample(
            (rng.uniform(-1, 1, size=(2, 4, 2)), rng.uniform(0.5, 1.5, size=(2, 2))), name="batched"
        ),
        Sample((rng.uniform(-1, 1, size=(4, 3)), rng.uniform(0.5, 1.5, size=2)), name="k2"),
        Sample(
            (rng.uniform(-1, 1, size=(4, 3)), rng.uniform(0.5, 1.5, size=3)),
            name="transposed",
            transposed=True,
        ),
    ]


def ormqr_samples(rng: np.random.Generator) -> list[Sample]:
    """(vectors, tau, C) for each side and transpose; a batch, and more columns than rows."""
    samples = []
    for left in (True, False):
        for transpose in (False, True):
            c_shape = (4, 2) if left else (2, 4)
            samples.append(
                Sample(
                    (
                        rng.uniform(-1, 1, size=(4, 3)),
                        rng.uniform(0.5, 1.5, size=3),
                        rng.uniform(-1, 1, size=c_shape),
                    ),
                    {"left": left, "transpose": transpose},
                    name=f"left{left}_transpose{transpose}",
                )
            )
    samples.append(
        Sample(
            (
                rng.uniform(-1, 1, size=(2, 3, 2)),
                rng.uniform(0.5, 1.5, size=(2, 2)),
                rng.uniform(-1, 1, size=(2, 3, 2)),
            ),
            name="batched",
        )
    )
    samples.append(
        Sample(
            (
                rng.uniform(-1, 1, size=(3, 4)),
                rng.uniform(0.5, 1.5, size=3),
                rng.uniform(-1, 1, size=(3, 2)),
            ),
            name="wide",
        )
    )
    return samples


def matrices(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((rng.uniform(-1, 1, size=(4, 3)),), name="tall"),
        Sample((rng.uniform(-1, 1, size=(2, 3)),), name="wide"),
        Sample((rng.uniform(-1, 1, size=(2, 3, 3)),), name="batched"),
        Sample((rng.uniform(-1, 1, size=(3, 4)),), name="transposed", transposed=True),
    ]


def symmetric(rng: np.random.Generator, *shape: int, small_diagonal: bool = False) -> np.ndarray:
    """Symmetric indefinite matrices; a small diagonal makes Bunch-Kaufman pick 2x2 blocks."""
    a = rng.uniform(-2.0, 2.0, size=shape)
    a = a + np.swapaxes(a, -1, -2)
    if small_diagonal:
        a = a - 0.95 * np.eye(shape[-1]) * a
    return a


def ldl_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((symmetric(rng, 4, 4),), name="4x4"),
        Sample((symmetric(rng, 5, 5, small_diagonal=True),), name="blocks"),
        Sample((symmetric(rng, 2, 3, 3),), name="batched"),
        Sample((symmetric(rng, 4, 4),), name="transposed", transposed=True),
    ]


def ldl_solve_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((symmetric(rng, 4, 4), rng.uniform(-1, 1, size=(4, 2))), name="4x4"),
        Sample(
            (symmetric(rng, 5, 5, small_diagonal=True), rng.uniform(-1, 1, size=(5, 3))),
            name="blocks",
        ),
        Sample((symmetric(rng, 2, 3, 3), rng.uniform(-1, 1, size=(2, 3, 1))), name="batched"),
    ]


OPS: list[OpInfo] = [
    OpInfo(
        "linalg.ldl_factor",
        lambda lib, a: lib.linalg.ldl_factor(a).LD,
        ldl_samples,
        differentiable=False,
        bad_inputs=(
            BadInput((np.ones((2, 3)),), name="not_square"),
            BadInput((np.ones(3),), name="1d"),
        ),
    ),
    OpInfo(
        "linalg.ldl_factor_pivots",
        lambda lib, a: lib.linalg.ldl_factor(a).pivots,
        ldl_samples,
        differentiable=False,
        op="linalg.ldl_factor",
    ),
    OpInfo(
        "linalg.ldl_factor_ex",
        lambda lib, a: lib.linalg.ldl_factor_ex(a).LD,
        ldl_samples,
        differentiable=False,
    ),
    OpInfo(
        "linalg.ldl_solve",
        lambda lib, a, b: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(a.detach()), b),
        ldl_solve_samples,
        differentiable=False,
    ),
    OpInfo(
        "geqrf",
        lambda lib, a: lib.geqrf(a).a,
        matrices,
        differentiable=False,
        bad_inputs=(BadInput((np.ones(3),), name="1d"),),
    ),
    OpInfo("geqrf_tau", lambda lib, a: a.geqrf().tau, matrices, differentiable=False, op="geqrf"),
    OpInfo(
        "linalg.householder_product",
        lambda lib, a, tau: lib.linalg.householder_product(a, tau),
        reflectors,
        atol=1e-4,  # (float32 second derivatives: sums of many reflections)
        bad_inputs=(
            BadInput((np.ones((2, 3)), np.ones(1)), name="wide"),
            BadInput((np.ones((3, 2)), np.ones(3)), name="long_tau"),
            BadInput((np.ones((2, 3, 2)), np.ones((3, 2))), name="batch"),
        ),
    ),
    OpInfo("orgqr", lambda lib, a, tau: a.orgqr(tau), lambda rng: reflectors(rng)[:2]),
    OpInfo(
        "ormqr",
        lambda lib, a, tau, c, **kw: lib.ormqr(a, tau, c, **kw),
        ormqr_samples,
        atol=1e-3,  # (float32 second derivatives cancel in entries ~100x smaller than others)
        bad_inputs=(
            BadInput((np.ones((3, 2)), np.ones(2), np.ones((2, 2))), name="rows"),
            BadInput((np.ones((3, 2)), np.ones(3), np.ones((3, 2))), name="tau"),
            BadInput((np.ones((2, 3, 2)), np.ones(2), np.ones((2, 3, 2))), name="tau_batch"),
        ),
    ),
    OpInfo(
        "ormqr_method",
        lambda lib, a, tau, c, **kw: a.ormqr(tau, c, **kw),
        lambda rng: ormqr_samples(rng)[:2],
        op="ormqr",
    ),
    OpInfo(
        "linalg.tensorinv",
        lambda lib, a, **kw: lib.linalg.tensorinv(a, **kw),
        tensorinv_samples,
        bad_inputs=(
            BadInput((np.ones((2, 3)),), {"ind": 1}, name="not_square"),
            BadInput((np.ones((2, 3)),), {"ind": 0}, name="ind0"),
        ),
    ),
    OpInfo(
        "linalg.tensorsolve",
        lambda lib, a, b, **kw: lib.linalg.tensorsolve(a, b, **kw),
        tensorsolve_samples,
        bad_inputs=(BadInput((np.ones((2, 3, 6)), np.ones((2, 2))), name="not_square"),),
    ),
    OpInfo(
        "vander",
        lambda lib, x, **kw: lib.vander(x, **kw),
        vectors,
        differentiable=False,
        bad_inputs=(
            BadInput((np.ones((2, 2)),), name="2d"),
            BadInput((np.ones(2),), {"N": -1}, name="negative_N"),
        ),
    ),
    OpInfo(
        "linalg.vander",
        lambda lib, x, **kw: lib.linalg.vander(x, **kw),
        batched_vectors,
        bad_inputs=(
            BadInput((np.ones(2),), {"N": 1}, name="N1"),
            BadInput((np.asarray(2.0),), name="0d_default_N"),
        ),
    ),
]
