"""float64 -> float16 as PyTorch converts: through float32 (``c10::Half(double)``), against torch.

numpy rounds a float64 to float16 once; PyTorch rounds to float32 first. The values that tell
them apart lie within half a float32 step of a float16 midpoint: 8 of 200,000 random values,
every such one near a midpoint (minigrad/_half.py). Bit for bit, each way a float64 value
reaches a float16 tensor.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _values() -> np.ndarray:
    rng = np.random.default_rng(7)
    spread = rng.standard_normal(20000) * 10.0 ** rng.uniform(-8, 4, 20000)
    # just off a float16 midpoint, by less than half a float32 step (the double-rounding cases)
    half = rng.standard_normal(4000).astype(np.float16).astype(np.float64)
    step = np.spacing(half.astype(np.float16)).astype(np.float64)
    off = rng.choice([-1, 1], 4000) * np.abs(half) * 2.0 ** rng.uniform(-40, -25, 4000)
    return np.concatenate([spread, half + step / 2 + off, [np.nan, np.inf, -np.inf, 7e4, -0.0]])


VALUES = _values()
SCALARS = VALUES[20000:20300].tolist()  # (the midpoint cases, one call each)

ARRAYS = {
    "half": lambda lib, x: x.half(),
    "to": lambda lib, x: x.to(lib.float16),
    "to_dtype_keyword": lambda lib, x: x.to(dtype=lib.float16, copy=True),
    "type": lambda lib, x: x.type(lib.float16),
    "tensor_from_list": lambda lib, x: lib.tensor(VALUES.tolist(), dtype=lib.float16),
    "tensor_from_ndarray": lambda lib, x: lib.tensor(VALUES, dtype=lib.float16),
    "as_tensor": lambda lib, x: lib.as_tensor(VALUES, dtype=lib.float16),
    "asarray": lambda lib, x: lib.asarray(VALUES, dtype=lib.float16),
    "copy_": lambda lib, x: lib.zeros(len(VALUES), dtype=lib.float16).copy_(x),
    "copy_strided": lambda lib, x: lib.zeros(2 * len(VALUES), dtype=lib.float16)[::2].copy_(x),
    "add_promoted_inplace": lambda lib, x: lib.zeros(len(VALUES), dtype=lib.float16).add_(x),
    "mul_promoted_out": lambda lib, x: lib.mul(x, 1.0, out=lib.empty(len(VALUES),
                                                                     dtype=lib.float16)),
    "setitem": lambda lib, x: _setitem(lib.zeros(len(VALUES), dtype=lib.float16), x),
    "requires_grad_half": lambda lib, x: x.detach().requires_grad_().half().detach(),
    "from_float32_unchanged": lambda lib, x: x.float().half(),
}
SCALAR_CALLS = {
    "full": lambda lib, v: lib.full((), v, dtype=lib.float16),
    "fill_": lambda lib, v: lib.zeros((), dtype=lib.float16).fill_(v),
    "fill_two": lambda lib, v: lib.zeros(2, dtype=lib.float16).fill_(v)[0],
    "index_fill_": lambda lib, v: lib.zeros(2, dtype=lib.float16).index_fill_(
        0, lib.tensor([1]), v)[1],
    "masked_fill": lambda lib, v: lib.zeros(2, dtype=lib.float16).masked_fill(
        lib.tensor([True, False]), v)[0],
    "tensor_of_number": lambda lib, v: lib.tensor(v, dtype=lib.float16),
    "scalar_tensor": lambda lib, v: lib.scalar_tensor(v, dtype=lib.float16),
}


def _setitem(target: Any, x: Any) -> Any:
    target[:] = x
    return target


def _bits(tensor: Any) -> np.ndarray:
    return np.asarray(tensor.detach().tolist(), dtype=np.float16).view(np.uint16)


@parametrize_in_one("way", list(ARRAYS))
def test_float64_arrays_to_float16_as_pytorch(way: str) -> None:
    outcomes = []
    for lib in (minigrad, torch):
        x = lib.tensor(VALUES, dtype=lib.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcomes.append(_bits(ARRAYS[way](lib, x)))
    differ = int((outcomes[0] != outcomes[1]).sum())
    assert differ == 0, f"{differ} of {len(VALUES)} values differ"


@pytest.mark.parametrize("way", list(SCALAR_CALLS))
def test_python_floats_to_float16_as_pytorch(way: str) -> None:
    outcomes = [np.array([_bits(SCALAR_CALLS[way](lib, value)) for value in SCALARS])
                for lib in (minigrad, torch)]
    differ = int((outcomes[0] != outcomes[1]).sum())
    assert differ == 0, f"{differ} of {len(SCALARS)} values differ"
