"""Op-table rows of rot90, fliplr, flipud, diagflat and block_diag (ops/building.py)."""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


def rot90_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, k, dims)``."""
    return [
        Sample((real(rng, 3, 4), 1, (0, 1)), name="once"),
        Sample((real(rng, 3, 4), 2, (0, 1)), name="twice"),
        Sample((real(rng, 3, 4), -1, (0, 1)), name="back"),
        Sample((real(rng, 3, 4), 0, (1, 0)), name="none"),
        Sample((real(rng, 2, 3, 4), 5, (2, 0)), name="3d"),
        Sample((real(rng, 3, 4), 3, (-1, -2)), name="transposed", transposed=True),
    ]


def matrices(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4),), name="2d"),
        Sample((real(rng, 2, 3, 2),), name="3d"),
        Sample((real(rng, 3, 4),), name="transposed", transposed=True),
    ]


def diagflat_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, offset)``."""
    return [
        Sample((real(rng, 3), 0), name="1d"),
        Sample((real(rng, 2, 2), 1), name="2d_above"),
        Sample((real(rng, 3), -2), name="below"),
        Sample((real(rng), 0), name="0d"),
        Sample((real(rng, 2, 3), 0), name="transposed", transposed=True),
    ]


def block_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3), real(rng, 2, 2)), name="matrices"),
        Sample((real(rng, 2, 2), real(rng, 3), real(rng)), name="vector_scalar"),
        Sample((real(rng, 2, 0), real(rng, 1, 2)), name="edge_empty_block"),
        Sample((real(rng, 3, 2), real(rng, 2, 3)), name="transposed", transposed=True),
    ]


OPS: list[OpInfo] = [
    OpInfo("rot90", lambda lib, x, k, dims: lib.rot90(x, k, dims), rot90_samples,
           bad_inputs=(BadInput((np.ones((3, 4)), 1, (0, 0)), name="same_dims"),
                       BadInput((np.ones((3, 4)), 1, (0, -2)), name="same_dims_wrapped"),
                       BadInput((np.ones((3, 4)), 1, (0,)), name="one_dim"),
                       BadInput((np.ones(3), 1, (0, 1)), name="1d"),
                       BadInput((np.ones((3, 4)), 1, (0, 2)), name="dim"),
                       BadInput((np.ones((3, 4)), 1.5, (0, 1)), name="float_k"))),
    OpInfo("rot90_method", lambda lib, x, k, dims: x.rot90(k, dims), rot90_samples),
    OpInfo("rot90_default", lambda lib, x: lib.rot90(x), matrices),
    OpInfo("fliplr", lambda lib, x: lib.fliplr(x), matrices,
           bad_inputs=(BadInput((np.ones(3),), name="1d"),)),
    OpInfo("fliplr_method", lambda lib, x: x.fliplr(), matrices),
    OpInfo("flipud", lambda lib, x: lib.flipud(x),
           lambda rng: [*matrices(rng), Sample((real(rng, 4),), name="1d")],
           bad_inputs=(BadInput((np.asarray(1.0),), name="0d"),)),
    OpInfo("flipud_method", lambda lib, x: x.flipud(), matrices),
    OpInfo("diagflat", lambda lib, x, offset: lib.diagflat(x, offset), diagflat_samples),
    OpInfo("diagflat_method", lambda lib, x, offset: x.diagflat(offset), diagflat_samples),
    OpInfo("block_diag", lambda lib, *blocks: lib.block_diag(*blocks), block_samples,
           bad_inputs=(BadInput((np.ones((2, 2)), np.ones((2, 2, 2))), name="3d"),
                       BadInput((np.ones((2, 2)), [1.0]), name="list"))),
]
