"""Op-table rows of the dropout variants, instance and local response norm and the losses
added with them (ops/dropout.py, ops/normalization.py, ops/losses_misc.py).

Random dropout cannot be compared with PyTorch (the generators differ): the dropout rows use
the deterministic p = 1; tests/test_nn_misc.py checks the masks' structure and statistics.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def _functional(name: str) -> Any:
    return lambda lib, *args, **kwargs: getattr(lib.nn.functional, name)(*args, **kwargs)


def _real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


# --- dropout ----------------------------------------------------------------------------------


def _p1_samples(*shapes: tuple[int, ...]) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        rows = [Sample((_real(rng, *shape), 1.0), name=f"{len(shape)}d") for shape in shapes]
        rows.append(Sample((_real(rng, *shapes[0]), 1.0), name="transposed", transposed=True))
        return rows

    return samples


def _dropout_bad(shape: tuple[int, ...]) -> tuple[BadInput, ...]:
    return (
        BadInput((np.ones(shape),), {"p": 1.5}, name="p_too_large"),
        BadInput((np.ones(shape, dtype=np.int64),), {"p": 0.5, "training": True}, name="integers"),
        BadInput((np.ones(shape),), {"p": 0.5, "training": None}, name="training_none"),
    )


OPS: list[OpInfo] = [
    OpInfo(
        "F.dropout1d",
        _functional("dropout1d"),
        _p1_samples((2, 3, 4), (3, 4)),
        bad_inputs=(
            *_dropout_bad((2, 3, 4)),
            BadInput((np.ones(3),), name="rank1"),
            BadInput((np.ones((2, 3, 4, 5)),), name="rank4"),
        ),
    ),
    OpInfo(
        "F.dropout2d",
        _functional("dropout2d"),
        _p1_samples((2, 3, 2, 2)),
        bad_inputs=_dropout_bad((2, 3, 2, 2)),
    ),
    OpInfo(
        "F.dropout3d",
        _functional("dropout3d"),
        _p1_samples((2, 3, 2, 1, 2), (3, 2, 1, 2)),
        bad_inputs=_dropout_bad((2, 3, 2, 1, 2)),
    ),
    OpInfo(
        "F.alpha_dropout",
        _functional("alpha_dropout"),
        lambda rng: [
            Sample((_real(rng, 3, 4), 1.0, True), name="p1"),
            Sample((_real(rng, 3, 4), 1.0, True), name="transposed", transposed=True),
        ],
        bad_inputs=_dropout_bad((3, 4)),
    ),
    OpInfo(
        "F.feature_alpha_dropout",
        _functional("feature_alpha_dropout"),
        lambda rng: [Sample((_real(rng, 2, 3, 4), 1.0, True), name="p1")],
        bad_inputs=(*_dropout_bad((2, 3, 4)), BadInput((np.ones(3), 0.5, True), name="rank1")),
    ),
]
