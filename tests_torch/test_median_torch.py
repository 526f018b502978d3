"""median and nanmedian against PyTorch on many tied and NaN slices: values and the index chosen.

PyTorch's CPU kernel picks the index with ``std::nth_element``; for a slice of NaNs only,
nanmedian's index is an accident of libstdc++'s algorithm (minigrad replays it).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _slices(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 70))
    values = rng.integers(0, int(rng.integers(1, 5)), size=(3, size)).astype(np.float64)
    values[rng.random(values.shape) < rng.random() * (seed % 3)] = np.nan
    if seed % 4 == 0:
        values[0] = np.nan
    return values


@parametrize_in_one("name", ["median", "nanmedian"])
@parametrize_in_one("seed", range(60))
def test_values_and_indices_over_a_dim_match_pytorch(name, seed):
    values = _slices(seed)
    mine = getattr(minigrad, name)(minigrad.tensor(values), 1)
    theirs = getattr(torch, name)(torch.from_numpy(values), 1)
    assert mine.indices.tolist() == theirs.indices.tolist()
    np.testing.assert_array_equal(mine.values.numpy(), theirs.values.numpy())
    np.testing.assert_array_equal(getattr(minigrad, name)(minigrad.tensor(values)).numpy(),
                                  getattr(torch, name)(torch.from_numpy(values)).numpy())


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float16", "float64"])
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_empty_and_integer_inputs_match_pytorch(name, dtype):
    for values in ([], [3, 1, 2, 2], [[5, 1], [2, 2]]):
        mine = getattr(minigrad, name)(minigrad.tensor(values, dtype=getattr(minigrad, dtype)))
        theirs = getattr(torch, name)(torch.tensor(values, dtype=getattr(torch, dtype)))
        assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())  # (NaN equals NaN here)
