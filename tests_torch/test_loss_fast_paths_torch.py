"""cross_entropy's and nll_loss's common case (no weight, no ignored target) against PyTorch.

tests/test_loss_fast_paths.py proves the shortcut equals minigrad's general path bit for bit;
here its losses and gradients meet PyTorch's, with nans and signed zeros among the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")


def _loss_and_grad(lib, functional, name, x, target, reduction):
    xt = lib.tensor(x, requires_grad=True)
    out = getattr(functional, name)(xt, lib.tensor(target), reduction=reduction)
    out.sum().backward()
    return out.detach().numpy(), xt.grad.numpy()


@pytest.mark.parametrize("name", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(4))
def test_the_common_case_gives_pytorch_values(name, reduction, dtype, seed):
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(1, 7)), int(rng.integers(1, 17))
    x = (rng.standard_normal((n, c)) * 30).astype(dtype)
    x[0, 0] = np.nan if seed % 2 else -0.0
    target = rng.integers(0, c, n)
    ours = _loss_and_grad(minigrad, F, name, x, target, reduction)
    theirs = _loss_and_grad(torch, torch.nn.functional, name, x, target, reduction)
    tolerance = 1e-6 if dtype == np.float32 else 1e-12
    for mine, want in zip(ours, theirs):
        np.testing.assert_allclose(mine, want, rtol=tolerance, atol=tolerance, equal_nan=True)
        finite_zero = (want == 0) & np.isfinite(want)
        assert np.array_equal(np.signbit(mine[finite_zero]), np.signbit(want[finite_zero]))
