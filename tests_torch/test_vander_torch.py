"""``vander`` and ``linalg.vander`` against PyTorch: values, dtypes, graphs, gradients, errors.

PyTorch's ``vander`` overwrites the slice its ``cumprod`` saved, so its backward raises; the
same graph in minigrad raises the same error. ``linalg.vander`` is differentiable.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def _graph(node: Any) -> list[str]:
    """The node names of a graph, depth first."""
    if node is None:
        return []
    names = [node.name()]
    for child, _ in node.next_functions:
        names += _graph(child)
    return names


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "bool"])
def test_values_and_dtypes_match(dtype: str) -> None:
    data = (
        np.array([1, 0, 3, 2], dtype=dtype)
        if dtype == "bool"
        else (
            np.array([1.5, -2.0, 0.0, 3.0]).astype(dtype)
            if dtype.startswith("float")
            else np.array([1, -2, 0, 3], dtype=dtype)
        )
    )
    calls = [
        lambda lib, x: lib.vander(x),
        lambda lib, x: lib.vander(x, N=6, increasing=True),
        lambda lib, x: lib.vander(x, 0),
        lambda lib, x: lib.vander(x, 1),
    ]
    if dtype != "bool":
        calls += [
            lambda lib, x: lib.linalg.vander(x),
            lambda lib, x: lib.linalg.vander(x.reshape(2, 2), N=5),
        ]
    for call in calls:
        mine, theirs = call(minigrad, minigrad.tensor(data)), call(torch, torch.tensor(data))
        assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)


def test_graphs_and_gradients_match() -> None:
    data = np.array([1.5, -2.0, 0.5])
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(data, requires_grad=True)
        v = lib.vander(x, N=4)
        with pytest.raises(RuntimeError) as info:
            v.sum().backward()
        powers = lib.linalg.vander(x, N=4)
        (grad,) = lib.autograd.grad((powers * lib.tensor(np.arange(12.0).reshape(3, 4))).sum(), x)
        results.append((_graph(v.grad_fn), str(info.value), _graph(powers.grad_fn), grad.numpy()))
    mine, theirs = results
    assert mine[0] == theirs[0]
    assert mine[1] == theirs[1].replace("torch", "minigrad")
    assert mine[2] == theirs[2]
    np.testing.assert_allclose(mine[3], theirs[3], rtol=1e-12)


ERRORS = {
    "2-d": lambda lib: lib.vander(lib.ones(2, 2)),
    "0-d": lambda lib: lib.vander(lib.tensor(2.0)),
    "negative N": lambda lib: lib.vander(lib.ones(2), N=-1),
    "linalg N 1": lambda lib: lib.linalg.vander(lib.ones(2), N=1),
    "linalg 0-d": lambda lib: lib.linalg.vander(lib.tensor(2.0)),
    "linalg bool": lambda lib: lib.linalg.vander(lib.tensor([True, False])),
    "linalg half": lambda lib: lib.linalg.vander(lib.ones(2, dtype=lib.float16)),
    "not a tensor": lambda lib: lib.vander([1.0, 2.0]),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match(name: str) -> None:
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - compared below
            ERRORS[name](lib)
        caught.append((type(info.value), str(info.value).replace("torch", "minigrad")))
    assert caught[0] == caught[1]
