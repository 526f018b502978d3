"""The array formulas of sigmoid, exp, sum and mm against PyTorch 2.13, in ulps.

The op-table tests compare with tolerances; these look at the bits, over many random inputs
and the edges (large |x|, +-inf, nan, -0.0, 0-d, non-contiguous), in float16, float32 and
float64: a cheaper formula must keep PyTorch's values, not just values close to them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

DTYPES = ("float16", "float32", "float64")
EDGES = [0.0, -0.0, 1.0, -1.0, 17.0, -17.0, 20.0, -20.0, 88.7, -88.7, 89.0, -89.0, 103.0,
         -103.0, 104.0, -104.0, 709.0, -709.0, 710.0, -710.0, 745.0, -745.0, 1e-30, -1e-30,
         float("inf"), -float("inf"), float("nan")]


def inputs(dtype: str) -> np.ndarray:
    """Random values at several scales, a uniform spread up to |x| = 200, and the edges."""
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal(4000) * scale for scale in (0.1, 1.0, 10.0, 100.0)]
    parts += [rng.uniform(-200, 200, 4000), np.array(EDGES)]
    with np.errstate(over="ignore"):  # float16 cannot hold the largest edges: inf
        return np.concatenate(parts).astype(dtype)


def ulps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """How many representable values apart each pair is (0 for two nans)."""
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    ints = np.dtype(f"int{8 * actual.itemsize}")
    lowest = np.iinfo(ints).min

    def ordered(values: np.ndarray) -> np.ndarray:  # the float order as an integer order
        bits = np.ascontiguousarray(values).view(ints).astype(np.int64)
        return np.where(bits < 0, lowest - bits, bits)

    distance = np.abs(ordered(actual) - ordered(expected))
    distance[np.isnan(actual) & np.isnan(expected)] = 0
    return distance


def layouts(values: np.ndarray) -> dict[str, np.ndarray]:
    """The values contiguous, strided, and as a transposed matrix."""
    rows = values[: values.size // 8 * 8].reshape(-1, 8)
    return {"contiguous": values, "strided": values[::3], "transposed": rows.T}


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_is_pytorch_formula_within_a_few_ulps(dtype: str) -> None:
    # PyTorch computes 1 / (1 + exp(-x)) (float16 in float32); the two libraries' exp differ by
    # an ulp at times, the rest is the same arithmetic.
    for name, values in layouts(inputs(dtype)).items():
        mine = minigrad.tensor(values).sigmoid().numpy()
        theirs = torch.from_numpy(np.ascontiguousarray(values)).sigmoid().numpy()
        assert ulps(mine, theirs).max() <= (1 if dtype == "float16" else 4), name


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_sigmoid_mostly_gives_pytorchs_bits(dtype: str) -> None:
    # The same formula with an exp nearer PyTorch's than numpy's float32 exp: most values are
    # PyTorch's bits exactly (numpy's four calls, 1 / (1 + np.exp(-x)), differ on ~17 % of
    # float32 inputs), in every layout and for 0-d inputs.
    for name, values in [*layouts(inputs(dtype)).items(), ("0-d", np.array(-3.5, dtype))]:
        mine = np.atleast_1d(minigrad.tensor(values).sigmoid().numpy())
        theirs = np.atleast_1d(torch.from_numpy(np.ascontiguousarray(values)).sigmoid().numpy())
        assert np.mean(ulps(mine, theirs) > 0) < 0.08, name


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_sigmoid_keeps_the_tail(dtype: str) -> None:
    # The tanh form rounded everything below about -17 to 0; PyTorch's values are tiny but
    # positive until exp(-x) overflows (x < -88.7 in float32, x < -709.8 in float64).
    x = np.array([-20.0, -50.0, -88.0, -89.0, -700.0, -710.0], dtype=dtype)
    mine = minigrad.tensor(x).sigmoid().numpy()
    theirs = torch.from_numpy(x).sigmoid().numpy()
    assert ulps(mine, theirs).max() <= 4
    assert mine[0] > 0 and mine[2] > 0 and mine[-1] == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_zero_dim(dtype: str) -> None:
    for value in EDGES:
        with np.errstate(over="ignore"):
            x = np.array(value, dtype=dtype)
        mine = minigrad.tensor(x).sigmoid()
        theirs = torch.from_numpy(x).sigmoid()
        assert mine.shape == () and str(mine.dtype) == f"minigrad.{dtype}"
        assert ulps(np.atleast_1d(mine.numpy()), np.atleast_1d(theirs.numpy())).max() <= 4


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_backward_is_pytorch_arithmetic(dtype: str) -> None:
    # Given the same output y and upstream gradient, grad * (1 - y) * y in PyTorch's order: the
    # same bits as PyTorch's sigmoid_backward kernel.
    rng = np.random.default_rng(1)
    y = torch.from_numpy(inputs(dtype)).sigmoid()
    grad = torch.from_numpy((rng.standard_normal(y.shape[0]) * 3).astype(dtype))
    theirs = torch.ops.aten.sigmoid_backward(grad, y).numpy()
    assert ulps(_sigmoid_backward_value(grad.numpy(), y.numpy()), theirs).max() == 0


def _sigmoid_backward_value(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The gradient minigrad's sigmoid node sends for output ``y`` and upstream ``grad``.

    The node's saved result is overwritten with ``y`` through ``.data`` (no version bump), so
    backward runs on PyTorch's y rather than on minigrad's recomputed one.
    """
    x = minigrad.zeros(y.shape, dtype=getattr(minigrad, str(y.dtype)), requires_grad=True)
    out = minigrad.sigmoid(x)
    out.grad_fn._saved_result.data.copy_(minigrad.tensor(y))  # y, not a recomputed value
    (dx,) = minigrad.autograd.grad(out, x, minigrad.tensor(grad))
    return dx.numpy()


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_gradient_end_to_end(dtype: str) -> None:
    # Forward and backward together: y may be a few ulps off PyTorch's, and 1 - y turns an ulp
    # of y near 1 into a large relative error of a small gradient; so the bound is a relative
    # one plus a few ulps of 1 times the upstream gradient.
    values = np.clip(inputs(dtype), -30, 30)
    grad = np.random.default_rng(2).standard_normal(values.shape).astype(dtype)
    mx = minigrad.tensor(values, requires_grad=True)
    mx.sigmoid().backward(minigrad.tensor(grad))
    tx = torch.from_numpy(values).requires_grad_()
    tx.sigmoid().backward(torch.from_numpy(grad))
    mine, theirs = mx.grad.numpy().astype(np.float64), tx.grad.numpy().astype(np.float64)
    eps = float(np.finfo(dtype).eps)
    bound = 4 * eps * np.abs(theirs) + 4 * eps * np.abs(grad.astype(np.float64))
    assert np.all((np.abs(mine - theirs) <= bound) | (np.isnan(mine) & np.isnan(theirs)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_exp_within_an_ulp(dtype: str) -> None:
    for name, values in layouts(inputs(dtype)).items():
        mine = minigrad.tensor(values).exp().numpy()
        theirs = torch.from_numpy(np.ascontiguousarray(values)).exp().numpy()
        assert ulps(mine, theirs).max() <= 1, name


def test_float32_exp_is_the_double_exp_rounded_once() -> None:
    # The nearest float32 to e**x in every layout, for 0-d inputs and at the edges (overflow to
    # inf, underflow to 0 and subnormals, nan).
    for name, values in [*layouts(inputs("float32")).items(), ("0-d", np.array(2, "float32"))]:
        mine = minigrad.tensor(values).exp().numpy()
        with np.errstate(over="ignore"):
            expected = np.exp(values.astype(np.float64)).astype(np.float32)
        assert np.asarray(mine).tobytes() == np.ascontiguousarray(expected).tobytes(), name


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_is_a_zero_dim_tensor(dtype: str) -> None:
    x = inputs(dtype)[:64]
    finite = np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
    for values in (finite, finite[::2], np.array(3.0, dtype=dtype), x):
        mine = minigrad.tensor(values, requires_grad=True)
        total = mine.sum()
        theirs = torch.from_numpy(np.ascontiguousarray(values)).sum()
        assert total.shape == () and str(total.dtype) == f"minigrad.{dtype}"
        np.testing.assert_allclose(total.detach().numpy(), theirs.numpy(), rtol=1e-2 if dtype ==
                                   "float16" else 1e-5, equal_nan=True)
        total.backward()
        assert np.array_equal(mine.grad.numpy(), np.ones_like(values))


@parametrize_in_one("dtype", ("float32", "float64"))
@parametrize_in_one("shapes", [((8, 8), (8, 8)), ((1, 5), (5, 3)), ((33, 17), (17, 9)),
                                    ((4, 0), (0, 3)), ((5, 1), (1, 7))])
def test_mm_values_and_gradients(dtype: str, shapes: tuple[Any, Any]) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shapes[0]).astype(dtype)
    b = rng.standard_normal(shapes[1]).astype(dtype)
    for left in (a, np.asfortranarray(a)):
        for right in (b, np.asfortranarray(b)):
            results = []
            for lib in (minigrad, torch):
                x = lib.tensor(left, requires_grad=True)
                w = lib.tensor(right, requires_grad=True)
                out = x @ w
                out.backward(lib.ones_like(out))
                results.append([out.detach().numpy(), x.grad.numpy(), w.grad.numpy()])
            for mine, theirs in zip(*results):
                assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
                np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ("erf", "erfc"))
def test_erf_kernels_are_the_double_function_rounded_once(name: str, dtype: str) -> None:
    # erf and erfc (and gelu through erf) are computed in double and rounded to the dtype:
    # Python's math functions element by element give the expected bits in every layout.
    function = np.frompyfunc(getattr(math, name), 1, 1)
    for layout, values in layouts(inputs(dtype) / 10).items():
        mine = getattr(minigrad, name)(minigrad.tensor(values)).numpy()
        expected = np.asarray(function(values), dtype=np.float64).astype(dtype)
        assert ulps(mine, expected).max() == 0, layout
        theirs = getattr(torch, name)(torch.from_numpy(np.ascontiguousarray(values))).numpy()
        assert ulps(mine, theirs).max() <= 4, layout  # (PyTorch's float16 erf: 4 ulps off)


_POWER_INPUTS = np.random.default_rng(7).uniform(-10, 10, 2**16)


@parametrize_in_one("dtype", ["float32", "float64"])
@parametrize_in_one("exponent", [2, 3, -2, -1, 3.0, -2.0])
def test_the_powers_pytorch_multiplies_out_are_its_bits(dtype: str, exponent: float) -> None:
    # (PyTorch's kernel: x * x, x * x * x, 1 / (x * x), 1 / x; a power differs on ~27 %)
    x = _POWER_INPUTS.astype(dtype)
    expected = torch.pow(torch.from_numpy(x), exponent).numpy()
    got = minigrad.pow(minigrad.from_numpy(x), exponent).numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("case", ["tensor ** number", "number ** tensor", "tensor ** tensor"])
def test_float32_powers_are_mostly_pytorchs_bits(case: str) -> None:
    # PyTorch's powf of float32 operands; numpy's float32 pow is an ulp off on ~20 % of values
    x = np.abs(_POWER_INPUTS).astype(np.float32)
    y = np.random.default_rng(8).uniform(-5, 5, x.size).astype(np.float32)
    outcomes = []
    for lib, make in ((torch, torch.from_numpy), (minigrad, minigrad.from_numpy)):
        if case == "tensor ** number":
            outcomes.append(lib.pow(make(x), 0.3).numpy())
        elif case == "number ** tensor":
            outcomes.append(lib.pow(2.5, make(y)).numpy())
        else:
            outcomes.append(lib.pow(make(x), make(y)).numpy())
    expected, got = outcomes
    np.testing.assert_allclose(got, expected, rtol=2e-7)
    assert np.mean(got != expected) < 0.04


@pytest.mark.parametrize("dtype", DTYPES)
def test_sigmoid_backward_bits_at_zero_dim_and_in_a_chain(dtype: str) -> None:
    # The formula writes its last product into the second one's array, except for a 0-d one
    # (numpy gives a scalar there): both cases against PyTorch's kernel, bit for bit, and
    # through a chain's backward (the engine's common path) against PyTorch's whole backward.
    rng = np.random.default_rng(3)
    y = torch.from_numpy(np.asarray(rng.random(), dtype=dtype)).sigmoid()
    grad = torch.from_numpy(np.asarray(rng.standard_normal() * 3, dtype=dtype))
    theirs = torch.ops.aten.sigmoid_backward(grad, y).numpy()
    mine = _sigmoid_backward_value(grad.numpy(), y.numpy())
    assert mine.shape == () and mine.dtype == theirs.dtype and mine.tobytes() == theirs.tobytes()
    start = (rng.standard_normal(8) * 2).astype(dtype)
    grads = []
    for lib in (minigrad, torch):
        x = lib.tensor(start, requires_grad=True)
        h = x
        for _ in range(3):
            h = lib.sigmoid(h)
        # (each library's own forward: compare the backward on its own values only by shape,
        # dtype and closeness; the bit-for-bit check is the kernel's, above)
        h.backward(lib.ones_like(h))
        grads.append(np.asarray(x.grad.numpy()))
    assert grads[0].dtype == grads[1].dtype and grads[0].shape == grads[1].shape
    wide = [grad.astype(np.float64) for grad in grads]
    assert np.allclose(wide[0], wide[1], rtol=1e-2, atol=1e-3)
