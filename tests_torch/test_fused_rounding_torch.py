"""float32 and float16 ``a * b + c`` rounded once, as PyTorch's CPU kernels' ``fmadd``.

PyTorch computes add's and sub's ``x + alpha * y`` as ``fmadd(y, alpha, x)``, addcmul's
``x + (value * t1) * t2`` and lerp's ``base + w * (end - start)`` as fused multiply-adds: the
exact product plus the addend, rounded once; addcdiv's ``x + (value * t1) / t2`` in that order.
Rounding the product first (numpy's ``a * b + c``) changed the last bit of about a third of the
float32 results. Each program runs on the same random values in both libraries, out of place,
in place and with ``out=``, and the results must be equal bit for bit (minigrad/ops/opmath.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

N = 4096


def _values(seed: int, spread: bool = True) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-3, 3, N) if spread else 1.0
    return (rng.standard_normal(N) * scale).astype(np.float32)


def _weights() -> np.ndarray:
    z = np.abs(_values(3, spread=False))
    return (z / (1 + z)).astype(np.float32)  # (both sides of 0.5)


PROGRAMS = {
    "add_alpha_int": lambda L, x, y, z, w: L.add(x, y, alpha=3),
    "add_alpha_float": lambda L, x, y, z, w: L.add(x, y, alpha=0.1),
    "sub_alpha": lambda L, x, y, z, w: L.sub(x, y, alpha=3),
    "add_number_alpha": lambda L, x, y, z, w: L.add(x, 0.3, alpha=1.7),
    "rsub_alpha": lambda L, x, y, z, w: L.rsub(x, y, alpha=1.7),
    "add_alpha_broadcast": lambda L, x, y, z, w: L.add(x.reshape(64, 64), y[:64], alpha=0.7),
    "add_alpha_strided": lambda L, x, y, z, w: L.add(x[::2], y[1::2], alpha=-0.3),
    "add__alpha": lambda L, x, y, z, w: x.clone().add_(y, alpha=-0.01),
    "sub__alpha": lambda L, x, y, z, w: x.clone().sub_(y, alpha=0.7),
    "add_alpha_out": lambda L, x, y, z, w: L.add(x, y, alpha=1.3, out=L.empty_like(x)),
    "sub_alpha_out": lambda L, x, y, z, w: L.sub(x, y, alpha=1.3, out=L.empty_like(x)),
    "addcmul": lambda L, x, y, z, w: L.addcmul(x, y, z),
    "addcmul_value": lambda L, x, y, z, w: L.addcmul(x, y, z, value=0.3),
    "addcmul_": lambda L, x, y, z, w: x.clone().addcmul_(y, z, value=-0.3),
    "addcmul_out": lambda L, x, y, z, w: L.addcmul(x, y, z, value=0.3, out=L.empty_like(x)),
    "addcdiv_value": lambda L, x, y, z, w: L.addcdiv(x, y, z, value=0.3),
    "addcdiv_": lambda L, x, y, z, w: x.clone().addcdiv_(y, z, value=-0.3),
    "lerp_small_weight": lambda L, x, y, z, w: L.lerp(x, y, 0.3),
    "lerp_large_weight": lambda L, x, y, z, w: L.lerp(x, y, 0.7),
    "lerp_tensor_weight": lambda L, x, y, z, w: L.lerp(x, y, w),
    "lerp_": lambda L, x, y, z, w: x.clone().lerp_(y, 0.3),
    "lerp_out": lambda L, x, y, z, w: L.lerp(x, y, w, out=L.empty_like(x)),
}


def _run(lib: Any, name: str, dtype: str) -> np.ndarray:
    arrays = (_values(0), _values(1), _values(2, spread=False), _weights())
    if dtype == "float16":  # (values a float16 holds, without overflow)
        arrays = tuple((a / 1000 if i < 2 else a).astype(np.float16) for i, a in enumerate(arrays))
    tensors = [lib.tensor(a) for a in arrays]
    return PROGRAMS[name](lib, *tensors).numpy()


# PyTorch's scalar loop (operands not contiguous) computes float16 in c10::Half steps, each
# rounded to float16 (``alpha * y``, then the sum): not matched (known difference).
HALF_STEPS = {"add_alpha_strided"}


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_fused_products_round_once_as_pytorch(name, dtype):
    if dtype == "float16" and name in HALF_STEPS:
        pytest.skip("PyTorch's scalar loop rounds each float16 step (known difference)")
    ours, theirs = _run(minigrad, name, dtype), _run(torch, name, dtype)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
