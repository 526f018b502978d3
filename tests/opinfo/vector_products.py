"""Op-table rows of cross, linalg.cross, vdot, inner and kron (ops/vector_products.py).

``inner`` and ``kron`` are compositions (tensordot; reshaped operands multiplied): the generic
tests compare the nodes they record with PyTorch's.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample, quietly


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


def cross_samples(rng: np.random.Generator) -> list[Sample]:
    """``(a, b, dim)``: 3-vectors along ``dim``, batches broadcast."""
    return [
        Sample((real(rng, 4, 3), real(rng, 4, 3), 1), name="rows"),
        Sample((real(rng, 3, 2), real(rng, 3, 2), 0), name="columns"),
        Sample((real(rng, 4, 3), real(rng, 1, 3), -1), name="broadcast"),
        Sample((real(rng, 2, 3, 4), real(rng, 2, 3, 4), -2), name="3d"),
        Sample((real(rng, 3), real(rng, 3), 0), name="1d"),
        Sample((real(rng, 4, 3), real(rng, 4, 3), 1), name="transposed", transposed=True),
    ]


BAD_CROSSES = (
    BadInput((np.ones((4, 3)), np.ones(3), 1), name="ndim"),
    BadInput((np.ones((4, 4)), np.ones((4, 4)), 1), name="length"),
    BadInput((np.ones((4, 3)), np.ones((5, 3)), 1), name="broadcast"),
    BadInput((np.ones((4, 3)), np.ones((4, 3)), 2), name="dim"),
    BadInput((np.ones((4, 3)), 2.0, 1), name="number"),
)


def vector_pairs(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4), real(rng, 4)), name="1d"),
        Sample((real(rng, 1), real(rng, 1)), name="one"),
        Sample((np.zeros(0), np.zeros(0)), name="empty"),
    ]


def inner_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 2, 3)), name="2d"),
        Sample((real(rng, 3), real(rng, 2, 2, 3)), name="1d_3d"),
        Sample((real(rng, 2, 3), real(rng, 3)), name="2d_1d"),
        Sample((real(rng, 4, 3), real(rng)), name="0d"),
        Sample((real(rng, 4, 3), real(rng, 4, 3)), name="transposed", transposed=True),
    ]


def kron_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3), real(rng, 3, 2)), name="2d"),
        Sample((real(rng, 2, 3), real(rng, 2)), name="2d_1d"),
        Sample((real(rng, 3), real(rng, 2, 2, 1)), name="1d_3d"),
        Sample((real(rng, 2, 2), real(rng)), name="0d"),
        Sample((real(rng, 2, 3), real(rng, 3, 2)), name="transposed", transposed=True),
    ]


OPS: list[OpInfo] = [
    OpInfo("cross", lambda lib, a, b, dim: lib.cross(a, b, dim), cross_samples,
           bad_inputs=BAD_CROSSES),
    OpInfo("cross_method", lambda lib, a, b, dim: a.cross(b, dim=dim), cross_samples),
    # (without dim: PyTorch's deprecation warning, once per program)
    OpInfo("cross_default_dim", quietly(lambda lib, a, b, dim: lib.cross(a, b)), cross_samples,
           bad_inputs=(BadInput((np.ones((2, 4)), np.ones((2, 4)), None), name="no_3"),)),
    OpInfo("linalg_cross", lambda lib, a, b, dim: lib.linalg.cross(a, b, dim=dim),
           cross_samples, bad_inputs=BAD_CROSSES, op="linalg.cross"),
    OpInfo("linalg_cross_default_dim", lambda lib, a, b, dim: lib.linalg.cross(a, b),
           lambda rng: [s for s in cross_samples(rng) if s.args[0].shape[-1] == 3],
           op="linalg.cross"),
    OpInfo("vdot", lambda lib, a, b: lib.vdot(a, b), vector_pairs,
           bad_inputs=(BadInput((np.ones((2, 2)), np.ones((2, 2))), name="2d"),
                       BadInput((np.ones(3), np.ones(4)), name="sizes"),
                       BadInput((np.ones(3), 2.0), name="number"))),
    OpInfo("vdot_method", lambda lib, a, b: a.vdot(b), vector_pairs),
    OpInfo("inner", lambda lib, a, b: lib.inner(a, b), inner_samples,
           bad_inputs=(BadInput((np.ones((4, 3)), np.ones((2, 4))), name="last_dims"),
                       BadInput((np.ones(3), 2.0), name="number"))),
    OpInfo("inner_method", lambda lib, a, b: a.inner(b), inner_samples),
    OpInfo("kron", lambda lib, a, b: lib.kron(a, b), kron_samples,
           bad_inputs=(BadInput((np.ones(3), 2.0), name="number"),)),
    OpInfo("kron_method", lambda lib, a, b: a.kron(b), kron_samples),
]
