"""affine_grid_generator's errors, compared live with PyTorch 2.13 (type and message).

PyTorch composes the op (AffineGridGenerator.cpp): a base grid allocated and filled with
linspaces (no bool kernel), ``theta.transpose(1, 2)``, a bmm, a view; a bad ``theta`` or size
gets the first of those ops' errors. Empty sizes give empty grids.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

# name: (theta's shape, its dtype, size)
CALLS: dict[str, tuple[tuple[int, ...], str, list[int]]] = {
    "bool": ((2, 2, 3), "bool", [2, 1, 3, 4]),
    "bool_3d": ((1, 3, 4), "bool", [1, 1, 2, 2, 3]),
    "bool_one_column": ((2, 2, 3), "bool", [2, 1, 2, 1]),
    "bool_1d": ((7,), "bool", [2, 1, 1, 1]),
    "theta_0d": ((), "float32", [2, 1, 3, 4]),
    "theta_1d": ((7,), "float32", [2, 1, 3, 4]),
    "theta_1d_3d": ((7,), "float32", [1, 1, 2, 2, 3]),
    "theta_2d": ((2, 3), "float32", [2, 1, 3, 4]),
    "theta_4d": ((1, 2, 1, 3), "float32", [2, 1, 3, 4]),
    "theta_4d_3d": ((1, 2, 1, 3), "float32", [1, 1, 2, 2, 3]),
    "batch": ((3, 2, 3), "float32", [2, 1, 3, 4]),
    "columns": ((2, 2, 4), "float32", [2, 1, 3, 4]),
    "columns_3d": ((1, 3, 3), "float32", [1, 1, 2, 2, 3]),
    "rows": ((2, 3, 3), "float32", [2, 1, 3, 4]),
    "empty_batch_size": ((2, 2, 3), "float32", [0, 1, 3, 4]),
    "negative_height": ((2, 2, 3), "float32", [2, 1, -1, 4]),
    "negative_channels": ((2, 2, 3), "float32", [2, -1, 1, 4]),
    "empty_height": ((2, 2, 3), "float32", [2, 1, 0, 4]),
    "empty_batch": ((0, 2, 3), "float32", [0, 1, 3, 4]),
    "empty_depth": ((1, 3, 4), "float32", [1, 1, 0, 2, 3]),
    "empty_width": ((1, 3, 4), "float32", [1, 1, 2, 1, 0]),
    "integers": ((2, 2, 3), "int64", [2, 1, 3, 4]),
}


def _outcome(lib: Any, name: str) -> tuple[Any, BaseException | None]:
    shape, dtype, size = CALLS[name]
    theta = lib.from_numpy(np.ones(shape, dtype=dtype))
    try:
        return lib.affine_grid_generator(theta, size, False), None
    except Exception as error:  # (compared below)
        return None, error


@parametrize_in_one("name", list(CALLS))
def test_as_pytorch(name: str) -> None:
    theirs, their_error = _outcome(torch, name)
    mine, my_error = _outcome(minigrad, name)
    if their_error is None:
        assert my_error is None, f"PyTorch accepts; minigrad raises {my_error!r}"
        assert mine.shape == theirs.shape and mine.dtype.is_floating_point == (
            theirs.dtype.is_floating_point
        )
        np.testing.assert_allclose(mine.numpy(), theirs.numpy())
        return
    assert type(my_error) is type(their_error)
    assert str(my_error) == str(their_error)
