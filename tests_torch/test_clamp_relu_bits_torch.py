"""clamp with number bounds and relu, bit for bit against PyTorch (signed zeros, nan, inf).

PyTorch writes a bound only where the input is strictly beyond it: ``clamp(-0.0, min=0)``
is -0.0 (np.clip gave 0.0) and a nan stays nan; relu keeps -0.0 too. The results' bits,
dtypes and strides are compared, for lengths around numpy's vector widths, strided inputs
and 0-d tensors. Also ``F.relu``'s ``inplace``, which PyTorch's Python function reads for
its truth only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad
import minigrad.nn.functional as F

_SPECIALS = [-0.0, 0.0, float("nan"), -1.0, 2.0, 0.5, float("-inf"), float("inf"), 1.0]
_BOUNDS = [(0.0, None), (-0.0, None), (None, 0.0), (None, -0.0), (0, 1), (-0.0, 0.0),
           (1.0, 0.0), (-1.0, 1.0), (0.5, 0.5)]


def _inputs(dtype: Any) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    arrays = [np.array(value, dtype=dtype) for value in _SPECIALS]  # 0-d
    for length in (1, 3, 8, 17, 40):
        array = rng.choice(np.array(_SPECIALS), size=length).astype(dtype)
        arrays += [array, array[::2]]
    return arrays


def _same(result: Any, expected: torch.Tensor) -> None:
    got = result.detach().numpy()
    want = expected.detach().numpy()
    assert (got.dtype, got.shape, result.stride()) == (want.dtype, want.shape, expected.stride())
    assert got.tobytes() == want.tobytes(), (got, want)


@parametrize_in_one("dtype", [np.float16, np.float32, np.float64])
@parametrize_in_one(("low", "high"), _BOUNDS)
def test_clamp_number_bounds_bits(dtype: Any, low: Any, high: Any) -> None:
    for array in _inputs(dtype):
        expected = torch.from_numpy(array.copy()).clamp(low, high)
        _same(minigrad.tensor(array).clamp(low, high), expected)
        written = minigrad.tensor(array)
        written.clamp_(low, high)
        _same(written, expected)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu_bits(dtype: Any) -> None:
    for array in _inputs(dtype):
        expected = torch.from_numpy(array.copy()).relu()
        _same(minigrad.tensor(array).relu(), expected)
        _same(F.relu(minigrad.tensor(array)), expected)


def test_functional_relu_inplace_is_read_for_its_truth() -> None:
    values = [-1.0, 2.0]
    expected = torch.tensor(values)
    torch.nn.functional.relu(expected, inplace="yes")  # (PyTorch: truthy, so in place)
    tensor = minigrad.tensor(values)
    F.relu(tensor, inplace="yes")
    assert tensor.tolist() == expected.tolist()


@parametrize_in_one("name", ["relu", "leaky_relu", "elu", "hardtanh", "relu6", "silu",
                                  "selu", "hardswish", "hardsigmoid", "mish"])
@parametrize_in_one("inplace", ["yes", 1, 0, None, 2.5])
def test_every_functional_inplace_is_read_for_its_truth(name: str, inplace: object) -> None:
    # All of them are Python functions in PyTorch (``if inplace:``); minigrad's argument
    # checks had refused anything but a bool.
    values = [-1.0, 2.0]
    expected = torch.tensor(values)
    returned = getattr(torch.nn.functional, name)(expected, inplace=inplace)
    tensor = minigrad.tensor(values)
    got = getattr(F, name)(tensor, inplace=inplace)
    assert (got is tensor) == (returned is expected)
    assert np.allclose(got.tolist(), returned.tolist()) and np.allclose(
        tensor.tolist(), expected.tolist())
