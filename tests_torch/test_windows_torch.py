"""Window functions against PyTorch: ``minigrad.*_window`` and ``minigrad.signal.windows``.

Values in float64, float32 and float16 (the top-level factories compute step by step in the
window's dtype, as ATen does), the result's dtype, leafness and ``grad_fn`` (the
``signal.windows`` are composites: their graph is PyTorch's), gradients through the composite
windows, and the errors for bad lengths, dtypes, layouts and parameters.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

FACTORIES = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]
SIGNAL = [
    "bartlett",
    "blackman",
    "cosine",
    "exponential",
    "gaussian",
    "general_hamming",
    "hamming",
    "hann",
    "kaiser",
    "nuttall",
]
LENGTHS = [0, 1, 2, 5, 8, 33]
# Units in the last place allowed: float16's per-step roundings may land one way or the other,
# and minigrad's i0 is its own kernel (Kaiser windows agree to a few float64 ulps).
ULPS = {"float16": 3.0, "float32": 3.0, "float64": 16.0}
# PyTorch's own float32 i0 differs by CPU: with its AVX2 kernels signal.windows.kaiser(33)
# (beta 12) and minigrad's are both within 3.6 eps of the float64 window, on opposite sides, so
# up to 7.0 eps apart (within 3 with the AVX-512 kernels of the machines before).
KAISER_FLOAT32_ULPS = 8.0


def _close(mine: Any, theirs: Any, ulps: float | None = None) -> None:
    assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
    assert tuple(mine.shape) == tuple(theirs.shape)
    expected = theirs.detach().numpy().astype(np.float64)
    eps = float(np.finfo(theirs.detach().numpy().dtype).eps)
    atol = (ulps or ULPS[str(theirs.dtype).split(".")[-1]]) * eps
    np.testing.assert_allclose(
        mine.detach().numpy().astype(np.float64), expected, rtol=0, atol=atol
    )


@parametrize_in_one("name", FACTORIES)
@parametrize_in_one("dtype", ["float16", "float32", "float64"])
def test_factory_values_match(name: str, dtype: str) -> None:
    for length in LENGTHS:
        for periodic in (True, False):
            mine = getattr(minigrad, name)(length, periodic, dtype=getattr(minigrad, dtype))
            theirs = getattr(torch, name)(length, periodic, dtype=getattr(torch, dtype))
            _close(mine, theirs)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("hamming_window", (7, True, 0.3)),
        ("hamming_window", (7, False, 0.6, 0.25)),
        ("kaiser_window", (9, True, 3.5)),
        ("kaiser_window", (9, False, 0.0)),
        ("hann_window", (6,)),
        ("blackman_window", (6,)),
    ],
)
def test_factory_parameters_and_default_dtype(name: str, args: tuple[Any, ...]) -> None:
    _close(getattr(minigrad, name)(*args), getattr(torch, name)(*args))
    mine = getattr(minigrad, name)(*args, requires_grad=True)
    theirs = getattr(torch, name)(*args, requires_grad=True)
    assert mine.is_leaf and mine.requires_grad and theirs.is_leaf


def _error(call: Any) -> tuple[type, str]:
    with pytest.raises(Exception) as info:  # noqa: PT011 - the type is compared below
        call()
    return type(info.value), str(info.value).replace("torch", "minigrad")


@parametrize_in_one("name", FACTORIES)
@parametrize_in_one(
    "kwargs",
    [
        {"window_length": -1},
        {"window_length": 3, "dtype": "int64"},
        {"window_length": -2, "dtype": "bool"},
        {"window_length": 3, "dtype": "int32", "layout": "strided"},
        {"window_length": 3, "layout": "sparse_coo"},
        {"window_length": 3.0},
    ],
)
def test_factory_errors_match(name: str, kwargs: dict[str, Any]) -> None:
    def call(lib: Any) -> Any:
        given = {
            key: getattr(lib, value) if key in ("dtype", "layout") else value
            for key, value in kwargs.items()
        }
        length = given.pop("window_length")
        return lambda: getattr(lib, name)(length, **given)

    assert _error(call(minigrad)) == _error(call(torch))


@parametrize_in_one("name", SIGNAL)
def test_signal_windows_values_and_graphs_match(name: str) -> None:
    for length in LENGTHS:
        for sym in (True, False):
            for dtype in ("float32", "float64"):
                mine = getattr(minigrad.signal.windows, name)(
                    length, sym=sym, dtype=getattr(minigrad, dtype), requires_grad=True
                )
                theirs = getattr(torch.signal.windows, name)(
                    length, sym=sym, dtype=getattr(torch, dtype), requires_grad=True
                )
                wider = name == "kaiser" and dtype == "float32"
                _close(mine, theirs, KAISER_FLOAT32_ULPS if wider else None)
                assert mine.is_leaf == theirs.is_leaf
                assert (mine.grad_fn and mine.grad_fn.name()) == (
                    theirs.grad_fn and theirs.grad_fn.name()
                )


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("exponential", {"tau": 0.5}),
        ("exponential", {"sym": False, "center": 2.0, "tau": 3.0}),
        ("gaussian", {"std": 0.7}),
        ("gaussian", {"std": 2.5, "sym": False}),
        ("kaiser", {"beta": 2.5}),
        ("kaiser", {"beta": 0.0, "sym": False}),
        ("general_hamming", {"alpha": 0.6}),
        ("general_cosine", {"a": [0.4, 0.3, 0.2, 0.1]}),
        ("general_cosine", {"a": (1.0,), "sym": False}),
    ],
)
def test_signal_window_parameters_and_gradients_match(name: str, kwargs: dict[str, Any]) -> None:
    mine = getattr(minigrad.signal.windows, name)(
        7, dtype=minigrad.float64, requires_grad=True, **kwargs
    )
    theirs = getattr(torch.signal.windows, name)(
        7, dtype=torch.float64, requires_grad=True, **kwargs
    )
    _close(mine, theirs)
    assert mine.grad_fn.name() == theirs.grad_fn.name()
    weights = np.linspace(0.5, 2.0, 7)
    (mine_inputs,) = minigrad.autograd.grad((mine * minigrad.tensor(weights)).sum(), _leaves(mine))
    (theirs_inputs,) = torch.autograd.grad((theirs * torch.tensor(weights)).sum(), _leaves(theirs))
    np.testing.assert_allclose(mine_inputs.numpy(), theirs_inputs.numpy(), rtol=1e-10, atol=1e-12)


def _leaves(result: Any) -> Any:
    """The first leaf reached from ``result``'s graph (the window's ``linspace`` points)."""
    pending = [result.grad_fn]
    while pending:
        node = pending.pop(0)
        for child, _ in node.next_functions:
            if child is None:
                continue
            if hasattr(child, "variable"):
                return child.variable
            pending.append(child)
    raise AssertionError("no leaf")


@parametrize_in_one(
    ("name", "args", "kwargs"),
    [
        ("hann", (-1,), {}),
        ("hann", (4,), {"dtype": "float16"}),
        ("bartlett", (4,), {"dtype": "int64"}),
        ("cosine", (4,), {"layout": "sparse_coo"}),
        ("exponential", (4,), {"tau": 0.0}),
        ("exponential", (4,), {"center": 1.0}),
        ("gaussian", (4,), {"std": -1.0}),
        ("kaiser", (4,), {"beta": -0.5}),
        ("general_cosine", (4,), {"a": []}),
        ("general_cosine", (4,), {"a": 3}),
    ],
)
def test_signal_window_errors_match(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    def call(lib: Any) -> Any:
        given = {
            key: getattr(lib, value) if key in ("dtype", "layout") else value
            for key, value in kwargs.items()
        }
        return lambda: getattr(lib.signal.windows, name)(*args, **given)

    assert _error(call(minigrad)) == _error(call(torch))
