"""The ops built on sigmoid (silu, mish, softplus, logsigmoid, BCE with logits) against PyTorch.

They used to compute sigmoid in the tanh form 0.5 * tanh(0.5 x) + 0.5, which is 0 below about
x = -17 (float32) where PyTorch's values are tiny but positive: silu(-20) = -4.1e-8. Now each one
follows its PyTorch kernel (float16 computed in float32), taking sigmoid from ``unary``. These
tests look at the bits over random values and the edges (test_kernels_torch's inputs), and at the
tails that the old formula rounded to 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_kernels_torch import DTYPES, EDGES, inputs, layouts, ulps

import minigrad
import minigrad.nn.functional as MF

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _sigmoid64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x.astype(np.float64)))


def _silu_scale(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # 0 * inf at -inf: nan, left to the nan check
        return _sigmoid64(x) * (1 + np.abs(x))


def _softplus_scale(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    return np.where(x * beta > threshold, 1.0, _sigmoid64(x * beta))


def _mish_scale(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        t = np.tanh(np.log1p(np.exp(x.astype(np.float64))))
        return np.abs(t) + np.abs(x) * _sigmoid64(x)


# name -> (minigrad op, torch op, size of the gradient's terms per unit upstream gradient: where
# the terms cancel (silu' is 0 near x = -1.28) an ulp of sigmoid is many ulps of the result).
OPS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[[np.ndarray], Any]]] = {
    "silu": (MF.silu, TF.silu, _silu_scale),
    "mish": (MF.mish, TF.mish, _mish_scale),
    "softplus": (MF.softplus, TF.softplus, lambda x: _softplus_scale(x, 1.0, 20.0)),
    "softplus_beta": (lambda t: MF.softplus(t, beta=2.0, threshold=10.0),
                      lambda t: TF.softplus(t, beta=2.0, threshold=10.0),
                      lambda x: _softplus_scale(x, 2.0, 10.0)),
    "logsigmoid": (MF.logsigmoid, TF.logsigmoid, lambda x: _sigmoid64(-x)),
}


def _close_in_ulps(mine: np.ndarray, theirs: np.ndarray, most: int, x: Any = 0.0) -> np.ndarray:
    """Within ``most`` ulps, or as close as a subnormal intermediate allows.

    Subnormals have few bits, and the two libraries' exp round them differently (PyTorch's
    vectorized one flushes some to 0): both results below the smallest normal number pass, and
    so does a difference of an ulp of the smallest subnormal times ``1 + |x|`` (mish(-89) is
    -89 times the subnormal exp(-89)).
    """
    info = np.finfo(mine.dtype)
    wide_mine, wide_theirs = mine.astype(np.float64), theirs.astype(np.float64)
    both_tiny = (np.abs(wide_mine) < info.tiny) & (np.abs(wide_theirs) < info.tiny)
    slack = 2 * float(info.smallest_subnormal) * (1 + np.abs(np.asarray(x, np.float64)))
    with np.errstate(invalid="ignore"):  # inf - inf: decided by the ulps
        near = np.abs(wide_mine - wide_theirs) <= slack
    return (ulps(mine, theirs) <= most) | both_tiny | near


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("name", OPS)
def test_forward_within_a_few_ulps(name: str, dtype: str) -> None:
    mine_op, torch_op, _ = OPS[name]
    for layout, values in layouts(inputs(dtype)).items():
        mine = mine_op(minigrad.tensor(values)).numpy()
        theirs = torch_op(torch.from_numpy(values.copy())).numpy()
        assert mine.dtype == theirs.dtype
        close = _close_in_ulps(mine, theirs, 1 if dtype == "float16" else 4, values)
        assert close.all(), (layout, values[~close][:5], mine[~close][:5], theirs[~close][:5])


def _gradients(name: str, values: np.ndarray, grad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mine_op, torch_op, _ = OPS[name]
    mx = minigrad.tensor(values, requires_grad=True)
    mine_op(mx).backward(minigrad.tensor(grad))
    tx = torch.from_numpy(values.copy()).requires_grad_()
    torch_op(tx).backward(torch.from_numpy(grad.copy()))
    return mx.grad.numpy(), tx.grad.numpy()


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("name", OPS)
def test_gradient_within_a_few_ulps_of_its_terms(name: str, dtype: str) -> None:
    # |mine - theirs| <= a few ulps of the gradient's terms: a relative bound where nothing
    # cancels, so in the tails (where the old formula gave 0) too.
    scale = OPS[name][2]
    rng = np.random.default_rng(4)
    for layout, values in layouts(inputs(dtype)).items():
        grad = (rng.standard_normal(values.shape) * 3).astype(dtype)
        mine, theirs = _gradients(name, values, grad)
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        eps, tiny = float(np.finfo(dtype).eps), float(np.finfo(dtype).tiny)
        terms = np.abs(grad.astype(np.float64)) * scale(values)
        with np.errstate(invalid="ignore"):  # inf - inf, where both are inf
            error = np.abs(mine.astype(np.float64) - theirs.astype(np.float64))
        error[mine == theirs] = 0
        same_nan = np.isnan(mine) == np.isnan(theirs)
        close = (error <= 8 * eps * terms + tiny) | (np.isnan(mine) & np.isnan(theirs))
        assert same_nan.all() and close.all(), (layout, values[~close][:5], mine[~close][:5],
                                                theirs[~close][:5])


# Values the tanh form of sigmoid rounded to 0 (or to an error of the size of the result) and
# PyTorch does not: the test fails on the old formula.
TAILS = {
    "float32": [-20.0, -30.0, -50.0, -80.0, -87.0],
    "float64": [-40.0, -100.0, -300.0, -700.0],
}


@parametrize_in_one("dtype", ("float32", "float64"))
@parametrize_in_one("name", OPS)
def test_tails_keep_pytorch_tiny_values(name: str, dtype: str) -> None:
    x = np.array(TAILS[dtype], dtype=dtype)
    for values in (x, -x):  # the far side for logsigmoid's gradient
        grad = np.ones_like(values)
        mine, theirs = _gradients(name, values, grad)
        assert _close_in_ulps(mine, theirs, 8, values).all(), (values, mine, theirs)
        forward = OPS[name][0](minigrad.tensor(values)).numpy()
        expected = OPS[name][1](torch.from_numpy(values)).numpy()
        assert _close_in_ulps(forward, expected, 4, values).all(), (values, forward, expected)
    silu = MF.silu(minigrad.tensor(x)).numpy()
    assert (silu < 0).all()  # tiny but not 0: -4.1e-8 at -20 in float32


def test_float16_is_computed_in_float32() -> None:
    # exp(11.1) overflows float16: softplus in float16 throughout gave inf at 11.09.
    x = np.array([11.09, 15.0, 19.9, -9.02, -17.3], dtype=np.float16)
    for name, (mine_op, torch_op, _) in OPS.items():
        mine = mine_op(minigrad.tensor(x)).numpy()
        theirs = torch_op(torch.from_numpy(x)).numpy()
        assert _close_in_ulps(mine, theirs, 1).all(), (name, mine, theirs)


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("name", OPS)
def test_zero_dim(name: str, dtype: str) -> None:
    mine_op, torch_op, scale = OPS[name]
    for value in EDGES:
        with np.errstate(over="ignore"):
            x = np.array(value, dtype=dtype)
        mine = mine_op(minigrad.tensor(x))
        theirs = torch_op(torch.from_numpy(x))
        assert mine.shape == () and str(mine.dtype) == f"minigrad.{dtype}"
        assert _close_in_ulps(np.atleast_1d(mine.numpy()), np.atleast_1d(theirs.numpy()), 4).all()
        mine_grad, torch_grad = _gradients(name, x, np.ones_like(x))
        assert mine_grad.shape == ()
        assert np.isnan(mine_grad) == np.isnan(torch_grad)
        bound = 8 * float(np.finfo(dtype).eps) * scale(np.atleast_1d(x))[0] + np.finfo(dtype).tiny
        assert np.isnan(mine_grad) or mine_grad == torch_grad or (
            abs(float(mine_grad) - float(torch_grad)) <= bound)


@pytest.mark.parametrize("name", OPS)
def test_second_derivative(name: str) -> None:
    # Under create_graph the backward runs on tensors (sigmoid through the differentiable op).
    # The second derivatives cancel (mish's, near 12) and PyTorch's -(1 - s) s for logsigmoid
    # rounds 1 - s in the tail: a relative 1e-5 with an absolute floor of 1e-13.
    x = np.array([-30.0, -5.0, -1.3, -0.2, 0.0, 0.4, 3.0, 12.0, 25.0])
    results = []
    for lib, op in ((minigrad, OPS[name][0]), (torch, OPS[name][1])):
        t = lib.tensor(x, requires_grad=True)
        (g,) = lib.autograd.grad(op(t).sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), t)
        results.append((g.detach().numpy(), gg.numpy()))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-13)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("pos_weight", (None, 1.7))
def test_bce_with_logits_gradient_in_the_tails(dtype: str, pos_weight: Any) -> None:
    # dinput = (sigmoid(x) - t) (with pos_weight: (pw t + 1 - t) sigmoid(x) - pw t): with t = 0
    # it is sigmoid(x) itself, tiny in the negative tail.
    x = np.array(TAILS[dtype] + [-3.0, 0.0, 2.0, 40.0], dtype=dtype)
    target = np.zeros_like(x)
    grads = []
    for lib in (minigrad, torch):
        inp = lib.tensor(x, requires_grad=True)
        weight = None if pos_weight is None else lib.tensor(np.array(pos_weight, dtype=dtype))
        lib.nn.functional.binary_cross_entropy_with_logits(
            inp, lib.tensor(target), reduction="sum", pos_weight=weight).backward()
        grads.append(inp.grad.numpy())
    assert _close_in_ulps(grads[0], grads[1], 4).all(), grads
    assert (grads[0][: len(TAILS[dtype])] > 0).all()
