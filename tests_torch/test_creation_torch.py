"""eye, tril_indices/triu_indices, randint and randperm side by side with PyTorch 2.13.

Deterministic factories must give the same values; random ones the same shapes, dtypes, value
ranges and errors (their numbers come from different generators).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def _same(mine: Any, theirs: Any) -> None:
    assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@pytest.mark.parametrize(("n", "m"), list(itertools.product([0, 1, 3, 5], [None, 0, 2, 4])))
@pytest.mark.parametrize("dtype", DTYPES)
def test_eye(n: int, m: int | None, dtype: str) -> None:
    args = (n,) if m is None else (n, m)
    theirs, t_error = run(lambda: torch.eye(*args, dtype=getattr(torch, dtype)))
    mine, m_error = run(lambda: minigrad.eye(*args, dtype=getattr(minigrad, dtype)))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        _same(mine, theirs)


@pytest.mark.parametrize("kind", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize(("row", "col"), list(itertools.product([0, 1, 3, 4], [0, 2, 5])))
@pytest.mark.parametrize("offset", [-6, -2, -1, 0, 1, 3, 7])
def test_triangle_indices(kind: str, row: int, col: int, offset: int) -> None:
    theirs = getattr(torch, kind)(row, col, offset)
    _same(getattr(minigrad, kind)(row, col, offset), theirs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("low", "high"), [(0, 1), (0, 2), (-3, 3), (5, 5), (5, 2), (0, 256),
                                           (-128, 0), (0, 70000), (-1, 2), (250, 300)])
def test_randint(low: int, high: int, dtype: str) -> None:
    theirs, t_error = run(lambda: torch.randint(low, high, (50,), dtype=getattr(torch, dtype)))
    mine, m_error = run(lambda: minigrad.randint(low, high, (50,),
                                                 dtype=getattr(minigrad, dtype)))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
        values = mine.numpy().astype(np.float64)
        assert values.min() >= low and values.max() < high


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 128, 129, 256, 257, 2049, 2050])
def test_randperm(n: int, dtype: str) -> None:
    theirs, t_error = run(lambda: torch.randperm(n, dtype=getattr(torch, dtype)))
    mine, m_error = run(lambda: minigrad.randperm(n, dtype=getattr(minigrad, dtype)))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
        np.testing.assert_array_equal(np.sort(mine.numpy()), np.sort(theirs.numpy()))
