"""float16 ``add``/``sub`` with ``alpha`` as PyTorch's CPU loops round it, against torch.

PyTorch's vectorized loop computes ``x + alpha * y`` in float32 and rounds once; its scalar
loop (operands not contiguous along the innermost dimension, and the tail of each inner run
past the last full vector step) rounds each step to float16 (opmath.scalar_loop_mask). Sizes
stay under PyTorch's grain size (32,768): one chunk, whatever its thread count.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

SHAPES = [(), (1,), (5,), (31,), (33,), (63,), (64,), (3001,), (3, 37), (37, 3), (4, 64),
          (2, 3, 50), (7, 1, 40)]
LAYOUTS = ["contiguous", "x_transposed", "y_transposed", "x_rows_of_a_wider", "y_0d",
           "y_broadcast_row", "y_broadcast_column", "x_every_second", "y_number"]


def _operands(lib: Any, shape: tuple[int, ...], layout: str, seed: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    xn = rng.standard_normal(shape).astype(np.float16)
    yn = rng.standard_normal(shape).astype(np.float16)
    x, y = lib.tensor(xn), lib.tensor(yn)
    if len(shape) >= 2 and layout == "x_transposed":
        x = lib.tensor(np.ascontiguousarray(xn.swapaxes(0, 1))).transpose(0, 1)
    if len(shape) >= 2 and layout == "y_transposed":
        y = lib.tensor(np.ascontiguousarray(yn.swapaxes(0, 1))).transpose(0, 1)
    if len(shape) >= 1 and layout == "x_rows_of_a_wider":
        x = lib.tensor(np.concatenate([xn, xn], axis=-1))[..., :shape[-1]]
    if layout == "y_0d":
        y = y.reshape(-1)[0]
    if len(shape) >= 2 and layout == "y_broadcast_row":
        y = y[:1]
    if len(shape) >= 2 and layout == "y_broadcast_column":
        y = y[..., :1]
    if len(shape) >= 1 and layout == "x_every_second":
        x = lib.tensor(np.repeat(xn, 2, axis=-1))[..., ::2]
    if layout == "y_number":
        y = 0.7
    return x, y


def _bits(result: Any) -> np.ndarray:
    return np.asarray(result.tolist(), dtype=np.float16).view(np.uint16)


@pytest.mark.parametrize("op", ["add", "sub", "add_", "sub_"])
def test_half_alpha_rounds_as_pytorch_loops(op: str) -> None:
    differ = []
    for seed, (shape, layout) in enumerate((s, lay) for s in SHAPES for lay in LAYOUTS):
        outcomes = []
        for lib in (minigrad, torch):
            x, y = _operands(lib, shape, layout, seed)
            result = (getattr(x, op)(y, alpha=0.3) if op.endswith("_")
                      else getattr(lib, op)(x, y, alpha=-1.7))
            outcomes.append(_bits(result))
        count = int((outcomes[0] != outcomes[1]).sum())
        if count:
            differ.append((shape, layout, count, outcomes[0].size))
    assert not differ, "\n".join(map(str, differ))
