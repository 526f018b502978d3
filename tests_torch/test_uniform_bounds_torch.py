"""``uniform_``'s range checks against PyTorch's: bounds the dtype holds, their order, and a width
the dtype holds (numpy raised a bare OverflowError or drew infinities); a refused call writes
nothing."""

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

NAN, INF = float("nan"), float("inf")
CASES = [
    ("float16", -60000.0, 60000.0),
    ("float16", -70000.0, 70000.0),
    ("float16", 70000.0, 1.0),
    ("float16", NAN, 1.0),
    ("float16", 1.0, INF),
    ("float16", -2.0, 2.0),
    ("float32", -3e38, 3e38),
    ("float32", -1.0, 1e39),
    ("float32", 2.0, 1.0),
    ("float64", -1e308, 1e308),
    ("float64", -INF, 1.0),
    ("int64", 70000.0, 1.0),
]


def _outcome(lib, dtype, low, high):
    tensor = lib.zeros(3, dtype=getattr(lib, dtype))
    try:
        tensor.uniform_(low, high)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return type(error).__name__, str(error), tensor._version, tensor.tolist()
    return "ok", tensor._version


@parametrize_in_one(("dtype", "low", "high"), CASES)
def test_uniform_bounds_as_pytorch(dtype, low, high):
    assert _outcome(minigrad, dtype, low, high) == _outcome(torch, dtype, low, high)
