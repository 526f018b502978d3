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


# --- instance norm and local response norm ----------------------------------------------------


def _positive(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(0.5, 1.5, size=shape))


def instance_norm_samples(rng: np.random.Generator) -> list[Sample]:
    """Channels of at least 4 values (fewer make the gradient rounding noise)."""
    return [
        Sample((_real(rng, 2, 3, 4), None, None, _positive(rng, 3), _real(rng, 3)), name="3d"),
        Sample((_real(rng, 2, 2, 2, 3),), {"eps": 0.1}, name="4d_no_affine"),
        Sample(
            (_real(rng, 2, 3, 4), np.zeros(3), np.ones(3), _positive(rng, 3)),
            {"momentum": 0.3},
            name="running_stats",
        ),
        Sample(
            (_real(rng, 2, 3, 4), _real(rng, 3), _positive(rng, 3)),
            {"use_input_stats": False},
            name="running_stats_used",
        ),
        Sample(
            (_real(rng, 4, 5)[None], None, None, _positive(rng, 4)),
            name="transposed",
            transposed=True,
        ),
    ]


INSTANCE_NORM_BAD = (
    BadInput((np.ones((2, 3, 1)),), name="one_spatial_element"),
    BadInput((np.ones((2, 3, 4)),), {"use_input_stats": False}, name="no_running_stats"),
    BadInput((np.ones((2, 3, 4)), np.zeros(3)), name="running_var_missing"),
    BadInput((np.ones((2, 3, 4)), None, None, np.ones(4)), name="weight_size"),
)


def local_response_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 2, 5, 3), 3), name="3d"),
        Sample((_real(rng, 2, 4, 2, 2), 2), {"alpha": 0.5, "beta": 0.6, "k": 1.5}, name="4d"),
        Sample((_real(rng, 1, 3, 2, 1, 2), 4), {"alpha": 0.3}, name="5d"),
        Sample((_real(rng, 4, 3, 2), 1), {"alpha": 0.5}, name="transposed", transposed=True),
    ]


OPS += [
    OpInfo(
        "F.instance_norm",
        _functional("instance_norm"),
        instance_norm_samples,
        grad_args=(0, 3, 4),
        bad_inputs=INSTANCE_NORM_BAD,
        atol=1e-4,
    ),
    OpInfo(
        "F.local_response_norm",
        _functional("local_response_norm"),
        local_response_norm_samples,
        bad_inputs=(BadInput((np.ones((2, 3)), 2), name="rank2"),),
    ),
]
