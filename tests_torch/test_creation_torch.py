"""eye, tril_indices/triu_indices, randint and randperm side by side with PyTorch 2.13.

Deterministic factories must give the same values; random ones the same shapes, dtypes, value
ranges and errors (their numbers come from different generators).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def _same(mine: Any, theirs: Any) -> None:
    assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@parametrize_in_one(("n", "m"), list(itertools.product([0, 1, 3, 5], [None, 0, 2, 4])))
@parametrize_in_one("dtype", DTYPES)
def test_eye(n: int, m: int | None, dtype: str) -> None:
    args = (n,) if m is None else (n, m)
    theirs, t_error = run(lambda: torch.eye(*args, dtype=getattr(torch, dtype)))
    mine, m_error = run(lambda: minigrad.eye(*args, dtype=getattr(minigrad, dtype)))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        _same(mine, theirs)


@parametrize_in_one("kind", ["tril_indices", "triu_indices"])
@parametrize_in_one(("row", "col"), list(itertools.product([0, 1, 3, 4], [0, 2, 5])))
@parametrize_in_one("offset", [-6, -2, -1, 0, 1, 3, 7])
def test_triangle_indices(kind: str, row: int, col: int, offset: int) -> None:
    theirs = getattr(torch, kind)(row, col, offset)
    _same(getattr(minigrad, kind)(row, col, offset), theirs)


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one(("low", "high"), [(0, 1), (0, 2), (-3, 3), (5, 5), (5, 2), (0, 256),
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


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("n", [0, 1, 5, 128, 129, 256, 257, 2049, 2050])
def test_randperm(n: int, dtype: str) -> None:
    theirs, t_error = run(lambda: torch.randperm(n, dtype=getattr(torch, dtype)))
    mine, m_error = run(lambda: minigrad.randperm(n, dtype=getattr(minigrad, dtype)))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
        np.testing.assert_array_equal(np.sort(mine.numpy()), np.sort(theirs.numpy()))


# A 0-d tensor where a factory takes a Number: PyTorch's parser reads its value (one that
# requires grad, or of more dims, is refused); linspace's Tensor overloads take any 0-d one.
NUMBER_TENSORS = {
    "arange(t)": lambda lib: lib.arange(lib.tensor(5)),
    "arange(float t)": lambda lib: lib.arange(lib.tensor(2.5)),
    "arange(float64 t)": lambda lib: lib.arange(lib.tensor(3.0, dtype=lib.float64)),
    "arange(int32 t)": lambda lib: lib.arange(lib.tensor(3, dtype=lib.int32)),
    "arange(bool t)": lambda lib: lib.arange(lib.tensor(True)),
    "arange(1, t)": lambda lib: lib.arange(1, lib.tensor(5)),
    "arange(t, t, t)": lambda lib: lib.arange(lib.tensor(1), lib.tensor(6), lib.tensor(2)),
    "arange(t, float)": lambda lib: lib.arange(lib.tensor(1), 3.0),
    "arange(t, dtype)": lambda lib: lib.arange(lib.tensor(3), dtype=lib.float64),
    "arange(end=t)": lambda lib: lib.arange(end=lib.tensor(3)),
    "arange(end=3)": lambda lib: lib.arange(end=3),
    "arange(1-element t)": lambda lib: lib.arange(lib.tensor([3])),
    "arange(t requiring grad)": lambda lib: lib.arange(lib.tensor(3.0, requires_grad=True)),
    "linspace(t, t)": lambda lib: lib.linspace(lib.tensor(0), lib.tensor(4), 3),
    "linspace(float64 t)": lambda lib: lib.linspace(lib.tensor(0.0, dtype=lib.float64), 1, 3),
    "linspace(t requiring grad)": lambda lib: lib.linspace(
        lib.tensor(0.0, requires_grad=True), 1, 5),
    "linspace(1-element t)": lambda lib: lib.linspace(lib.tensor([0.0]), 1, 3),
    "linspace(steps=t)": lambda lib: lib.linspace(0, 1, lib.tensor(3)),
    "logspace(t, t)": lambda lib: lib.logspace(lib.tensor(0), lib.tensor(2), 3),
    "logspace(1-element t)": lambda lib: lib.logspace(lib.tensor([0.0]), 1, 3),
    "logspace base 2 int": lambda lib: lib.logspace(0, 5, 6, base=2, dtype=lib.int64),
    "logspace float64": lambda lib: lib.logspace(-3, 3, 7, dtype=lib.float64),
    "logspace fractional": lambda lib: lib.logspace(-1.5, 2.5, 9),
    "logspace empty": lambda lib: lib.logspace(0, 1, 0),
    "full(int t)": lambda lib: lib.full((2,), lib.tensor(1)),
    "full(bool t)": lambda lib: lib.full((2,), lib.tensor(True)),
    "full(float64 t)": lambda lib: lib.full((2,), lib.tensor(1.0, dtype=lib.float64)),
    "full(1-element t)": lambda lib: lib.full((2,), lib.tensor([1.0])),
    "full(t requiring grad)": lambda lib: lib.full((2,), lib.tensor(1.0, requires_grad=True)),
    "full_like(int t)": lambda lib: lib.full_like(lib.zeros(2), lib.tensor(3)),
    "full_like(t requiring grad)": lambda lib: lib.full_like(
        lib.zeros(2), lib.tensor(1.0, requires_grad=True)),
    "zeros(t)": lambda lib: lib.zeros(lib.tensor(2)),
    "eye(t)": lambda lib: lib.eye(lib.tensor(2)),
}


@parametrize_in_one("name", list(NUMBER_TENSORS))
def test_a_0d_tensor_where_a_factory_takes_a_number(name: str) -> None:
    theirs, t_error = run(lambda: NUMBER_TENSORS[name](torch))
    mine, m_error = run(lambda: NUMBER_TENSORS[name](minigrad))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        _same(mine, theirs)
        assert mine.requires_grad == theirs.requires_grad
