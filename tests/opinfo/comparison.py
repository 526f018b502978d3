"""Op-table rows of the whole-tensor comparisons (ops/comparison.py): isclose, allclose, equal.

``allclose`` and ``equal`` return Python bools, which the table cannot hold; their rows wrap the
answer in a tensor (``lib.tensor(...)``) so that the generic tests compare it all the same.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def near_pairs(rng: np.random.Generator) -> list[Sample]:
    """Pairs whose relative distance straddles the default tolerances, plus nan and inf."""

    def pair(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(rng.uniform(-3, 3, size=shape))
        relative = rng.choice([0.0, 1e-9, 1e-7, 3e-6, 2e-5, 1e-3], size=shape)
        return x, np.asarray(x * (1 + relative))

    special = np.array([np.nan, np.nan, np.inf, np.inf, -np.inf, 0.0, 1e-9, 1.0])
    return [
        Sample(pair((3, 4)), name="same"),
        Sample(pair(()), name="0d"),
        Sample((pair((2, 1, 3))[0], pair((4, 3))[1]), name="broadcast"),
        Sample(pair((3, 4)), name="transposed", transposed=True),
        Sample((special, np.array([np.nan, 1.0, np.inf, -np.inf, -np.inf, 1e-9, 0.0, np.inf])),
               name="special"),
        Sample((np.zeros((0, 3)), np.zeros((0, 3))), name="empty"),
    ]


BAD = (
    BadInput((np.ones((2, 3)), np.ones((4,))), name="shape_mismatch"),
    BadInput((np.ones(2), 1.0), name="other_not_a_tensor"),
)


def _wrapped(lib, value):  # noqa: ANN001, ANN202 - a test helper
    return lib.tensor(value)


OPS: list[OpInfo] = [
    OpInfo("isclose", lambda lib, x, y: lib.isclose(x, y), near_pairs, differentiable=False,
           bad_inputs=BAD),
    OpInfo("isclose_tolerances", lambda lib, x, y: lib.isclose(x, y, rtol=1e-3, atol=1e-6),
           near_pairs, differentiable=False),
    OpInfo("isclose_equal_nan", lambda lib, x, y: x.isclose(y, equal_nan=True), near_pairs,
           differentiable=False),
    OpInfo("isclose_exact", lambda lib, x, y: lib.isclose(x, y, rtol=0, atol=0), near_pairs,
           differentiable=False),
    OpInfo("isclose_atol_only", lambda lib, x, y: lib.isclose(x, y, rtol=0.0, atol=0.5),
           near_pairs, differentiable=False),
    OpInfo("allclose", lambda lib, x, y: _wrapped(lib, lib.allclose(x, y)), near_pairs,
           differentiable=False, bad_inputs=BAD),
    OpInfo("allclose_method", lambda lib, x, y: _wrapped(lib, x.allclose(y, 0.1, 0.1, True)),
           near_pairs, differentiable=False),
    OpInfo("equal", lambda lib, x, y: _wrapped(lib, lib.equal(x, y)), near_pairs,
           differentiable=False, bad_inputs=(BAD[1],)),
    OpInfo("equal_self", lambda lib, x, y: _wrapped(lib, x.equal(x.clone())), near_pairs,
           differentiable=False),
]
