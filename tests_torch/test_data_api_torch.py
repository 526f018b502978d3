"""Searching, counting and building functions against PyTorch: whole graphs, versions, layouts.

The op table compares each result's own node; these walk the whole recorded chain of the
functions PyTorch composes of other ops (repeat_interleave, quantile, kron, diagflat), and
check the number corners the table's float samples do not reach.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def chain(tensor: Any) -> list[str]:
    """The names of the nodes behind ``tensor``, depth first."""
    names: list[str] = []

    def walk(node: Any, depth: int) -> None:
        if node is None:
            return
        names.append("  " * depth + node.name())
        for child, _ in node.next_functions:
            walk(child, depth + 1)

    walk(tensor.grad_fn, 0)
    return names


def both(array: np.ndarray, transposed: bool = False) -> tuple[Any, Any]:
    """The same float32 leaf requiring grad in both libraries (transposed layout if asked)."""
    if transposed:
        array = np.ascontiguousarray(array.T).T
    return (minigrad.from_numpy(array.copy()).requires_grad_(),
            torch.from_numpy(array.copy()).requires_grad_())


CALLS = {
    "repeat_interleave_int": lambda lib, x: lib.repeat_interleave(x, 2),
    "repeat_interleave_int_dim": lambda lib, x: x.repeat_interleave(3, dim=0),
    "repeat_interleave_tensor": lambda lib, x: x.repeat_interleave(lib.tensor([1, 0, 2]), 0),
    "repeat_interleave_tensor_flat": lambda lib, x: lib.repeat_interleave(x, lib.tensor([2])),
    "quantile": lambda lib, x: lib.quantile(x, 0.3),
    "quantile_dim0": lambda lib, x: x.quantile(0.7, dim=0, keepdim=True),
    "quantile_tensor_q": lambda lib, x: lib.quantile(x, lib.tensor([0.25, 0.5]), dim=1),
    "nanquantile_lower": lambda lib, x: lib.nanquantile(x, 0.5, 0, interpolation="lower"),
    "nanmean": lambda lib, x: lib.nanmean(x, 1),
    "kron": lambda lib, x: lib.kron(x, lib.ones(2, 1)),
    "diagflat": lambda lib, x: lib.diagflat(x, -1),
    "inner": lambda lib, x: lib.inner(x, lib.ones(2, 4)),
    "rot90": lambda lib, x: lib.rot90(x, 3, (1, 0)),
}


@parametrize_in_one("transposed", [False, True])
@parametrize_in_one("name", sorted(CALLS))
def test_graph_version_and_layout_as_pytorch(name: str, transposed: bool) -> None:
    array = np.random.default_rng(5).permutation(12).reshape(3, 4).astype(np.float32)
    mine, theirs = both(array, transposed)
    got, expected = CALLS[name](minigrad, mine), CALLS[name](torch, theirs)
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    assert chain(got) == chain(expected)
    assert got._version == expected._version
    assert got.stride() == expected.stride()
    got.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-6)


@parametrize_in_one(("sequence", "values"), [
    ([1.0, float("nan")], [float("nan"), 1.0, 3.0]),  # PyTorch's search, not numpy's NaN order
    ([float("nan"), 1.0, 2.0], [1.5, float("nan")]),
    ([1, 2, 3], -1),  # a number wraps into the sequence's uint8
    ([1, 2, 3], 300),
    ([1, 3], 2.5),  # an int sequence, a float number: compared as floats
])
@parametrize_in_one("right", [False, True])
def test_searchsorted_corners_as_pytorch(sequence: list[Any], values: Any, right: bool) -> None:
    dtype = "uint8" if isinstance(values, int) else None
    results = []
    for lib in (minigrad, torch):
        s = lib.tensor(sequence, dtype=getattr(lib, dtype) if dtype else None)
        v = values if not isinstance(values, list) else lib.tensor(values)
        results.append(lib.searchsorted(s, v, right=right))
    got, expected = results
    assert got.tolist() == expected.tolist()
    assert str(got.dtype) == str(expected.dtype).replace("torch", "minigrad")


@pytest.mark.parametrize(("elements", "test", "dtype"), [
    ([1, 2, 3], 257, "uint8"),  # 257 wraps to 1
    ([1, 2, 3], -255, "uint8"),
    ([0.0, -0.0, float("nan")], [0.0, float("nan")], None),
    ([1, 2], [2.0, 3.5], None),
])
def test_isin_corners_as_pytorch(elements: list[Any], test: Any, dtype: str | None) -> None:
    results = []
    for lib in (minigrad, torch):
        e = lib.tensor(elements, dtype=getattr(lib, dtype) if dtype else None)
        t = lib.tensor(test) if isinstance(test, list) else test
        results.append((lib.isin(e, t).tolist(), lib.isin(e, t, invert=True).tolist()))
    assert results[0] == results[1]


def test_repeat_interleave_of_counts_keeps_their_dtype() -> None:
    for dtype in ("int32", "int64"):
        got = minigrad.repeat_interleave(minigrad.tensor([2, 0, 1], dtype=getattr(minigrad, dtype)))
        expected = torch.repeat_interleave(torch.tensor([2, 0, 1], dtype=getattr(torch, dtype)))
        assert got.tolist() == expected.tolist()
        assert str(got.dtype) == str(expected.dtype).replace("torch", "minigrad")
