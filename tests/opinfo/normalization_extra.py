"""Op-table rows of ``F.normalize``, ``F.rms_norm``, ``F.pairwise_distance`` and ``F.group_norm``.

Their graphs are the composed nodes (DivBackward0 over ClampMinBackward0 over
LinalgVectorNormBackward0; MulBackward0 over RsqrtBackward0 over AddBackward1 ...): the
table-driven tests compare each node's saved values with PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample
from opinfo.elementwise import uniform

REAL = uniform(-2.0, 2.0)
POSITIVE = uniform(0.5, 1.5)


def _functional(name: str) -> Any:
    return lambda lib, *args, **kwargs: getattr(lib.nn.functional, name)(*args, **kwargs)


def normalize_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((REAL(rng, (3, 4)),), name="2d"),
        Sample((REAL(rng, (2, 3, 4)),), {"p": 1.0, "dim": -1}, name="p1"),
        Sample((REAL(rng, (4, 3)),), {"p": 3.0, "dim": 0}, name="transposed", transposed=True),
        Sample((REAL(rng, (5,)),), {"dim": 0}, name="1d"),
        # a norm below eps: the clamp holds the denominator (its gradient stops there)
        Sample((REAL(rng, (3, 4)) * 1e-3,), {"eps": 0.1}, name="clamped"),
    ]


def rms_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((REAL(rng, (2, 3, 4)), (4,), POSITIVE(rng, (4,))), name="weight"),
        Sample((REAL(rng, (2, 3, 4)), (3, 4), POSITIVE(rng, (3, 4))), name="two_dims"),
        Sample((REAL(rng, (3, 4)), [4]), name="no_weight"),
        Sample((REAL(rng, (3, 4)), (4,), None, 0.5), name="eps"),
        Sample((REAL(rng, (4, 3)), (3,), POSITIVE(rng, (3,))), name="transposed",
               transposed=True),
    ]


def group_norm_samples(rng: np.random.Generator) -> list[Sample]:
    """Groups of at least 4 values (smaller ones make the gradient rounding noise)."""
    return [
        Sample((REAL(rng, (2, 6, 3)), 2, POSITIVE(rng, (6,)), REAL(rng, (6,))), name="3d"),
        Sample((REAL(rng, (3, 8)), 2, POSITIVE(rng, (8,)), REAL(rng, (8,))), name="2d"),
        Sample((REAL(rng, (2, 4, 2, 3)), 4), {"eps": 0.1}, name="4d_no_affine"),
        Sample((REAL(rng, (2, 4, 3)), 1, POSITIVE(rng, (4,))), name="weight_only"),
        # (a bias without a weight: tests/test_nn_functional.py, PyTorch's backward raises)
        Sample((REAL(rng, (4, 6)), 1, POSITIVE(rng, (6,)), REAL(rng, (6,))), name="transposed",
               transposed=True),
    ]


def pairwise_distance_samples(rng: np.random.Generator) -> list[Sample]:
    """Broadcasting both ways, 1-d and 0-d pairs, the orders and keepdim, transposed."""
    return [
        Sample((REAL(rng, (3, 4)), REAL(rng, (3, 4))), name="2d"),
        Sample((REAL(rng, (2, 3, 4)), REAL(rng, (4,))), {"p": 1.0}, name="broadcast"),
        Sample((REAL(rng, (4,)), REAL(rng, (3, 4))), {"p": 3.0, "keepdim": True},
               name="broadcast_first"),
        Sample((REAL(rng, (5,)), REAL(rng, (5,))), {"eps": 0.0}, name="1d"),
        Sample((REAL(rng, ()), REAL(rng, ())), name="0d"),
        Sample((REAL(rng, (4, 3)), REAL(rng, (4, 3))), {"p": float("inf")}, name="transposed",
               transposed=True),
    ]


OPS: list[OpInfo] = [
    OpInfo("F.normalize", _functional("normalize"), normalize_samples, bad_inputs=(
        BadInput((np.ones((2, 3), dtype=np.int64),), name="integer"),
        BadInput((np.ones((2, 3)),), {"dim": 2}, name="dim_range"),
    )),
    OpInfo("F.rms_norm", _functional("rms_norm"), rms_norm_samples, bad_inputs=(
        BadInput((np.ones((2, 3)), (4,)), name="input_shape"),
        BadInput((np.ones((2, 3)), (2, 3, 4)), name="too_many_dims"),
        BadInput((np.ones((2, 3)), (3,), np.ones(4)), name="weight_shape"),
        BadInput((np.ones((2, 3)), ()), name="empty_shape"),
        BadInput((np.ones((2, 3)), 3), name="int_shape"),
        BadInput((np.ones((2, 3), dtype=np.int64), (3,)), name="integer"),
    )),
    OpInfo("F.rms_norm_input_only", _functional("rms_norm"), rms_norm_samples, grad_args=(0,),
           op="F.rms_norm"),
    OpInfo("F.group_norm", _functional("group_norm"), group_norm_samples, bad_inputs=(
        BadInput((np.ones((2, 6, 3)), 4), name="groups"),
        BadInput((np.ones((2, 6, 3)), 2, np.ones(5)), name="weight_shape"),
        BadInput((np.ones((2, 6, 3)), 2, None, np.ones(5)), name="bias_shape"),
        BadInput((np.ones((2, 6, 3)), 2, np.ones(6), np.ones(5)), name="bias_shape_weight"),
        BadInput((np.ones(3),), {"num_groups": 1}, name="1d"),
        BadInput((np.ones((1, 2, 1)), 2), name="one_value"),
        BadInput((np.ones((2, 6, 3), dtype=np.int64), 2), name="integer"),
        BadInput((np.ones((2, 6, 3), dtype=np.int64), 2, np.ones(6)), name="mixed"),
    )),
    OpInfo("F.group_norm_input_only", _functional("group_norm"), group_norm_samples,
           grad_args=(0,), op="F.group_norm"),
    OpInfo("F.pairwise_distance", _functional("pairwise_distance"), pairwise_distance_samples,
           bad_inputs=(BadInput((np.ones((2, 3)), np.ones((2, 4))), name="shapes"),)),
]
