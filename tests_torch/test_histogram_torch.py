"""``histogram`` and ``histogramdd`` against PyTorch: counts, edges, weights, density, errors.

The equal-width edges must be PyTorch's ``linspace`` values to the bit, and the counts must
follow those edges: the data include values exactly on edges and data drawn from the edges
themselves, where a division alone would put some into the neighbouring bin.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(20261204)


def _both(array: np.ndarray) -> tuple[Any, Any]:
    return minigrad.tensor(array), torch.tensor(array)


def _same(mine: Any, theirs: Any, exact: bool = True) -> None:
    assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
    if exact:
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    else:
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6, atol=0)


def _data(dtype: str) -> np.ndarray:
    edges = torch.linspace(-1.3, 2.9, 8, dtype=getattr(torch, dtype)).numpy()
    values = np.concatenate([_RNG.normal(size=40), edges, [np.nan, 5.0, -7.0]])
    return values.astype(dtype)


@parametrize_in_one("dtype", ["float32", "float64"])
@parametrize_in_one(
    "kwargs",
    [
        {"bins": 7},
        {"bins": 7, "range": (-1.3, 2.9)},
        {"bins": 1, "range": (0, 3)},
        {"bins": 5, "range": (-1.0, 1.0), "density": True},
        {"bins": 4, "weighted": True},
        {"bins": 6, "range": (-2.0, 2.0), "weighted": True, "density": True},
    ],
)
def test_equal_width_histograms_match(dtype: str, kwargs: dict[str, Any]) -> None:
    data = _data(dtype)
    if "range" not in kwargs:
        data = data[np.isfinite(data)]  # (the data's own range must be finite)
    kwargs = dict(kwargs)
    weights = _RNG.uniform(0.5, 2.0, size=data.shape).astype(dtype)
    results = []
    for lib in (minigrad, torch):
        given = dict(kwargs)
        if given.pop("weighted", False):
            given["weight"] = lib.tensor(weights)
        strided = lib.tensor(np.stack([data, data], 1))[:, 0]  # (not contiguous)
        results.append(lib.histogram(strided, **given))
    mine, theirs = results
    assert type(mine).__name__ == "histogram" and mine._fields == ("hist", "bin_edges")
    _same(mine.bin_edges, theirs.bin_edges)
    _same(mine.hist, theirs.hist, exact=not kwargs.get("density") and "weighted" not in kwargs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histogram_with_edges_given_matches(dtype: str) -> None:
    data = _data(dtype)
    edges = np.array([-1.3, -0.2, 0.0, 0.6, 2.9], dtype=dtype)
    weights = _RNG.uniform(size=data.shape).astype(dtype)
    for kwargs in ({}, {"density": True}, {"weighted": True}):
        results = []
        for lib in (minigrad, torch):
            given = dict(kwargs)
            if given.pop("weighted", False):
                given["weight"] = lib.tensor(weights)
            results.append(lib.tensor(data).histogram(lib.tensor(edges), **given))
        _same(results[0].bin_edges, results[1].bin_edges)
        _same(results[0].hist, results[1].hist, exact=not kwargs)


def test_histogram_edge_cases_match() -> None:
    cases = [
        (np.array([], dtype=np.float32), {"bins": 3}),
        (np.array([5.0, 5.0], dtype=np.float32), {"bins": 2}),
        (np.array(3.0, dtype=np.float32), {"bins": 2}),
        (np.array([1.0, np.nan], dtype=np.float32), {"bins": 2, "range": (0.0, 3.0)}),
    ]
    for data, kwargs in cases:
        mine, theirs = (lib.histogram(lib.tensor(data), **kwargs) for lib in (minigrad, torch))
        _same(mine.hist, theirs.hist)
        _same(mine.bin_edges, theirs.bin_edges)


@pytest.mark.parametrize(
    "bins",
    [3, [2, 4], "tensors"],
)
def test_histogramdd_matches(bins: Any) -> None:
    data = _RNG.normal(size=(3, 7, 2)).astype(np.float32)
    weights = _RNG.uniform(size=(3, 7)).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        given = bins
        if bins == "tensors":
            given = [lib.tensor([-3.0, -0.5, 0.0, 3.0]), lib.tensor([-1.0, 1.0])]
        results.append(
            (
                lib.histogramdd(lib.tensor(data), given),
                lib.histogramdd(lib.tensor(data), given, weight=lib.tensor(weights), density=True),
                lib.histogramdd(
                    lib.tensor(data), given, None if bins == "tensors" else [-1.0, 1.0, -2.0, 0.5]
                ),
            )
        )
    for mine, theirs in zip(*results):
        assert type(mine).__name__ == "histogramdd" and isinstance(mine.bin_edges, tuple)
        assert len(mine.bin_edges) == len(theirs.bin_edges)
        for mine_edges, their_edges in zip(mine.bin_edges, theirs.bin_edges):
            _same(mine_edges, their_edges)
        _same(mine.hist, theirs.hist, exact=False)


def test_no_derivative_as_in_pytorch() -> None:
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0, 1.5], requires_grad=True)
        result = lib.histogram(x, 2)
        assert result.hist.grad_fn.name() == "torch::autograd::NotImplemented"
        assert result.bin_edges.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::histogram is not"):
            result.hist.sum().backward()
        points = lib.tensor([[1.0, 2.0], [0.5, 0.0]], requires_grad=True)
        dd = lib.histogramdd(points, 2)
        with pytest.raises(RuntimeError, match="aten::_histogramdd_from_bin_cts is not"):
            dd.hist.sum().backward()
        with pytest.raises(RuntimeError, match="aten::_histogramdd_bin_edges is not"):
            dd.bin_edges[0].sum().backward()


def _error(call: Any) -> tuple[type, str]:
    with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
        call()
    return type(info.value), str(info.value).replace("torch.", "minigrad.", 0)


HISTOGRAM_ERRORS = {
    "int input": lambda lib: lib.histogram(lib.tensor([1, 2]), 3),
    "int input, range": lambda lib: lib.histogram(lib.tensor([1, 2]), 3, range=(0.0, 3.0)),
    "half input": lambda lib: lib.histogram(lib.tensor([1.0, 2.0], dtype=lib.float16), 2),
    "no bins": lambda lib: lib.histogram(lib.tensor([1.0, 2.0]), 0),
    "bins dtype": lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([1.0, 2.0]).double()),
    "bins 2-d": lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([[1.0, 2.0]])),
    "one edge": lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([1.0])),
    "no edges": lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([])),
    "weight shape": lambda lib: lib.histogram(lib.tensor([1.0, 2.0]), 2, weight=lib.ones(3)),
    "weight dtype": lambda lib: lib.histogram(
        lib.tensor([1.0, 2.0]), 2, weight=lib.ones(2).double()
    ),
    "min > max": lambda lib: lib.histogram(lib.tensor([1.0]), 2, range=(3.0, 1.0)),
    "infinite": lambda lib: lib.histogram(lib.tensor([1.0, float("inf")]), 2),
    "nan": lambda lib: lib.histogram(lib.tensor([1.0, float("nan")]), 2),
    "range size": lambda lib: lib.histogram(lib.tensor([1.0]), 2, range=(0.0, 1.0, 2.0)),
    "float bins": lambda lib: lib.histogram(lib.tensor([1.0]), 2.5),
    "dd 1-d": lambda lib: lib.histogramdd(lib.tensor([1.0, 2.0]), 2),
    "dd bins size": lambda lib: lib.histogramdd(lib.ones(3, 2), [2, 2, 2]),
    "dd range size": lambda lib: lib.histogramdd(lib.ones(3, 2), 2, range=[0.0, 1.0]),
    "dd edges count": lambda lib: lib.histogramdd(lib.ones(3, 2), [lib.tensor([0.0, 1.0])]),
    "dd no bins": lambda lib: lib.histogramdd(lib.ones(3, 2), 0),
    "dd int": lambda lib: lib.histogramdd(lib.ones(3, 2, dtype=lib.int64), (2, 3)),
    "dd weight": lambda lib: lib.histogramdd(lib.ones(4, 2), 2, weight=lib.ones(4, 1)),
    "dd float bins": lambda lib: lib.histogramdd(lib.ones(4, 2), 2.5),
}


@parametrize_in_one("name", HISTOGRAM_ERRORS)
def test_errors_match(name: str) -> None:
    mine = _error(lambda: HISTOGRAM_ERRORS[name](minigrad))
    theirs = _error(lambda: HISTOGRAM_ERRORS[name](torch))
    assert mine[0] is theirs[0]
    assert mine[1] == theirs[1].replace("torch.dtype", "minigrad.dtype")
