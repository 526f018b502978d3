"""Op-table rows of ``repeat_interleave`` (ops/repeating.py).

An int count records PyTorch's unsqueeze -> expand -> clone -> view chain, a tensor of counts
one ``index_select``: the generic tests compare node names, saved values and gradients of both.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


def counts(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def int_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, repeats, dim)`` with an int count."""
    return [
        Sample((real(rng, 3, 4), 2, None), name="flat"),
        Sample((real(rng, 3, 4), 2, 1), name="dim1"),
        Sample((real(rng, 3, 4), 3, -2), name="dim_neg"),
        Sample((real(rng, 5), 2, 0), name="1d"),
        Sample((real(rng, 2, 3, 2), 2, 1), name="3d"),
        Sample((real(rng), 3, None), name="0d"),
        Sample((real(rng, 3, 4), 2, 0), name="transposed", transposed=True),
        Sample((real(rng, 3, 4), 0, 1), name="edge_zero"),
    ]


def tensor_samples(rng: np.random.Generator) -> list[Sample]:
    """``(x, repeats, dim)`` with a tensor of counts."""
    return [
        Sample((real(rng, 3, 4), counts(1, 0, 2), 0), name="dim0"),
        Sample((real(rng, 3, 4), counts(2, 1, 1, 3), -1), name="dim_neg"),
        Sample((real(rng, 2, 3), counts(2), None), name="flat_one"),
        Sample((real(rng, 2, 3), counts(1, 2, 0, 1, 1, 2), None), name="flat"),
        Sample((real(rng, 3, 4), np.array(2), 1), name="0d_counts"),
        Sample((real(rng, 3, 4), counts(2, 0, 1), 0), name="transposed", transposed=True),
        Sample((real(rng, 3, 4), np.array([1, 2, 3, 0], dtype=np.int32), 1), name="int32"),
    ]


BAD_COUNTS = (
    BadInput((np.ones((2, 3)), counts(1, 2, 3), 0), name="length"),
    BadInput((np.ones((2, 3)), counts(-1, 2), 0), name="negative"),
    BadInput((np.ones((2, 3)), np.array([[1, 2]]), 0), name="2d"),
    BadInput((np.ones((2, 3)), np.array([1.0, 2.0]), 0), name="float"),
    BadInput((np.ones((2, 3)), -1, 0), name="negative_int"),
    BadInput((np.ones((2, 3)), 2, 2), name="dim"),
    BadInput((np.ones((2, 3)), 2.5, 0), name="float_count"),
    BadInput((np.ones((2, 3)), [1, 2], 0), name="list"),
)

OPS: list[OpInfo] = [
    OpInfo("repeat_interleave", lambda lib, x, r, dim: lib.repeat_interleave(x, r, dim),
           int_samples, bad_inputs=BAD_COUNTS),
    OpInfo("repeat_interleave_method", lambda lib, x, r, dim: x.repeat_interleave(r, dim=dim),
           int_samples),
    OpInfo("repeat_interleave_tensor", lambda lib, x, r, dim: lib.repeat_interleave(x, r, dim),
           tensor_samples),
    OpInfo("repeat_interleave_output_size",
           lambda lib, x, r, dim, size: x.repeat_interleave(r, dim, output_size=size),
           lambda rng: [Sample((real(rng, 3, 4), counts(1, 0, 2), 0, 3), name="tensor"),
                        Sample((real(rng, 3, 4), 2, 1, 8), name="int")],
           bad_inputs=(BadInput((np.ones((2, 3)), counts(1, 2), 0, 4), name="tensor"),
                       BadInput((np.ones((2, 3)), 2, 0, 5), name="int"))),
    OpInfo("repeat_interleave_counts", lambda lib, r: lib.repeat_interleave(r),
           lambda rng: [Sample((counts(1, 0, 3, 2),), name="1d"),
                        Sample((np.array([2, 1], dtype=np.int32),), name="int32"),
                        Sample((counts(),), name="empty")],
           differentiable=False,
           bad_inputs=(BadInput((np.array([1.0, 2.0]),), name="float"),
                       BadInput((counts(1, -2),), name="negative"),
                       BadInput((np.array(3),), name="0d"))),
    OpInfo("repeat_interleave_counts_output_size",
           lambda lib, r, size: lib.repeat_interleave(r, output_size=size),
           lambda rng: [Sample((counts(1, 0, 3, 2), 6), name="1d")], differentiable=False,
           bad_inputs=(BadInput((counts(1, 2), 4), name="wrong"),)),
]
