"""cross_entropy's shortcuts give the general path's values bit for bit.

NllLoss has a branch for its common case (an (N, C) input, no weight, no ignored target): the
same loss with an explicit weight of ones takes the general branch, and both must agree
exactly, nan signs and signed zeros included. log_softmax reduces a short class axis down a
transposed copy: that max must be numpy's, signed zeros and nans included.
"""

from __future__ import annotations

import numpy as np
from _cases import parametrize_in_one

import minigrad
import minigrad.nn.functional as F
from minigrad.ops.softmax import LogSoftmax, Softmax, _max_along


def _inputs(seed: int, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(1, 7)), int(rng.integers(1, 17))
    x = (rng.standard_normal((n, c)) * 30).astype(dtype)
    x[0, 0] = np.nan if seed % 2 else -0.0
    return x, rng.integers(0, c, n)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.array_equal(a, b, equal_nan=True)
            and np.array_equal(np.signbit(a), np.signbit(b)))


def _loss_and_grad(x: np.ndarray, loss: object) -> tuple[np.ndarray, np.ndarray]:
    xt = minigrad.tensor(x, requires_grad=True)
    out = loss(xt)
    (grad,) = minigrad.autograd.grad(out.sum(), xt)
    return out.detach().numpy(), grad.numpy()


@parametrize_in_one("reduction", ["mean", "sum", "none"])
@parametrize_in_one("dtype", [np.float32, np.float64])
@parametrize_in_one("seed", range(6))
def test_nll_common_case_matches_weighted_path(seed: int, dtype: type, reduction: str) -> None:
    x, t = _inputs(seed, dtype)
    target = minigrad.tensor(t)
    ones = minigrad.ones(x.shape[1], dtype=minigrad.float32 if dtype == np.float32
                         else minigrad.float64)
    fast = _loss_and_grad(x, lambda xt: F.nll_loss(xt, target, reduction=reduction))
    general = _loss_and_grad(
        x, lambda xt: F.nll_loss(xt, target, weight=ones, reduction=reduction))
    assert _same(fast[0], general[0]) and _same(fast[1], general[1])


@parametrize_in_one("dtype", [np.float32, np.float64])
@parametrize_in_one("seed", range(6))
def test_short_axis_max_gives_numpy_max_results(seed: int, dtype: type) -> None:
    """The max itself may differ from numpy's in the sign of a zero (a tie of 0.0 and -0.0,
    met in another order), but then two entries have exp 1, the log-sum is not 0, and the
    results are the same: they are compared bit for bit with the formula on ``np.max``."""
    rng = np.random.default_rng(seed)
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, -200.0], dtype=dtype)
    for classes in (1, 2, 10, 16, 17):
        x = rng.choice(special, size=(64, classes))
        x[:32] += rng.standard_normal((32, classes)).astype(dtype)
        assert np.array_equal(_max_along(x, 1), np.max(x, axis=1, keepdims=True),
                              equal_nan=True)
        with np.errstate(all="ignore"):  # inf - inf: nan, as in the op
            shifted = x - np.max(x, axis=1, keepdims=True)
            # (a copy each: normalize computes into the array it is given, forward's own)
            expected = [np.ascontiguousarray(op.normalize(shifted.copy(), 1))
                        for op in (LogSoftmax, Softmax)]
        for want, function in zip(expected, (F.log_softmax, F.softmax)):
            assert _same(function(minigrad.tensor(x), 1).numpy(), want)
