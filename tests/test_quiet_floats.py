"""inf and nan are values, not warnings: every way an op's numpy call is silenced.

An op that declares a ``forward_kernel`` (add, mul; the unary families' exp, sigmoid, log ...)
runs it in a prepared quiet context (``quiet.run_quietly``); when that context is busy (another
thread inside it) the recording takes ``quiet.call_quietly``. Either way the result, the
absence of a warning and the caller's own numpy error state must be what they are for any other
op (and, in reference mode, for PyTorch itself).
"""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _backend import mg as minigrad
from _cases import parametrize_in_one

BIG = 3e38  # float32: BIG * BIG overflows to inf, BIG + BIG too

# name: (the op, expected values); inf and nan from IEEE arithmetic in float32
CASES: dict[str, tuple[Callable[[Any, Any], Any], list[float]]] = {
    "mul overflows": (lambda a, b: a * b, [float("inf"), 4.0]),
    "add overflows": (lambda a, b: a + b, [float("inf"), 4.0]),
    "inf - inf": (lambda a, b: (a * b) + (-(a * b)), [float("nan"), 0.0]),
}


def _operands(requires_grad: bool) -> tuple[Any, Any]:
    a = minigrad.tensor([BIG, 2.0], requires_grad=requires_grad)
    b = minigrad.tensor([BIG, 2.0], requires_grad=requires_grad)
    return a, b


@pytest.mark.parametrize("mode", ["recorded", "no_grad", "leaves without grad"])
@pytest.mark.parametrize("name", list(CASES))
def test_special_values_come_without_a_warning(name: str, mode: str) -> None:
    op, expected = CASES[name]
    a, b = _operands(requires_grad=mode != "leaves without grad")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning would fail the test
        if mode == "no_grad":
            with minigrad.no_grad():
                result = op(a, b)
        else:
            result = op(a, b)
    np.testing.assert_array_equal(result.detach().numpy(), np.array(expected, np.float32))
    assert result.requires_grad == (mode == "recorded")


def test_the_callers_numpy_error_state_is_neither_used_nor_changed() -> None:
    a, b = _operands(requires_grad=True)
    with np.errstate(all="raise"):  # the caller's own setting: no FloatingPointError from ops
        before = np.geterr()
        product = a * b
        total = a + b
        assert np.geterr() == before
        with pytest.raises(FloatingPointError):  # ... and it still holds for numpy itself
            np.float32(BIG) * np.float32(BIG)
    assert np.isinf(product.detach().numpy()[0]) and np.isinf(total.detach().numpy()[0])


@pytest.mark.skipif(LIB != "minigrad", reason="minigrad's quiet context")
@pytest.mark.parametrize("grad", [True, False], ids=["recorded", "no_grad"])
def test_a_busy_quiet_context_takes_the_way_round(grad: bool) -> None:
    from minigrad.autograd import quiet

    a, b = _operands(requires_grad=True)
    calls = []
    original = quiet.call_quietly

    def counting(function: Any, *args: Any) -> Any:
        calls.append(function)
        return original(function, *args)

    def inside() -> Any:  # runs with the quiet context entered: the op cannot enter it again
        with minigrad.set_grad_enabled(grad):
            return a * b, a + b

    from minigrad.autograd import record

    saved = record._call_quietly
    record._call_quietly = counting
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            product, total = quiet._QUIET_CONTEXT.run(inside)
    finally:
        record._call_quietly = saved
    assert calls == [np.multiply, np.add]
    np.testing.assert_array_equal(product.detach().numpy(), np.array([np.inf, 4], np.float32))
    np.testing.assert_array_equal(total.detach().numpy(), np.array([np.inf, 4], np.float32))
    assert product.requires_grad == total.requires_grad == grad


def test_threads_recording_large_products_at_once_get_their_own_results() -> None:
    # numpy lets go of the GIL on large arrays: one thread may be inside the quiet context
    # while another records (it then takes the way round).
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(200_000).astype(np.float32) for _ in range(4)]
    expected = [arrays[0] * arrays[1] + arrays[1], arrays[2] * arrays[3] + arrays[3]]
    failures: list[BaseException] = []

    def work(index: int) -> None:
        try:
            x = minigrad.tensor(arrays[2 * index], requires_grad=True)
            y = minigrad.tensor(arrays[2 * index + 1], requires_grad=True)
            for _ in range(20):
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    result = x * y + y
                np.testing.assert_array_equal(result.detach().numpy(), expected[index])
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# name: (the op on a = [BIG, 2], float32, its expected values from IEEE arithmetic in float64
# rounded once, as PyTorch's kernels give them)
UNARY_CASES: dict[str, tuple[Callable[[Any], Any], list[float]]] = {
    "exp overflows": (lambda a: a.exp(), [float("inf"), math.exp(2.0)]),
    "sigmoid of -inf": (lambda a: (-(a * a)).sigmoid(), [0.0, 1 / (1 + math.exp(4.0))]),
    "log of a negative": (lambda a: (-a).log(), [float("nan"), float("nan")]),
    "tanh of inf": (lambda a: (a * a).tanh(), [1.0, math.tanh(4.0)]),
}


@parametrize_in_one("mode", ["recorded", "no_grad", "leaves without grad"])
@parametrize_in_one("name", list(UNARY_CASES))
def test_unary_special_values_come_without_a_warning(name: str, mode: str) -> None:
    op, expected = UNARY_CASES[name]
    a = minigrad.tensor([BIG, 2.0], requires_grad=mode != "leaves without grad")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning would fail the test
        if mode == "no_grad":
            with minigrad.no_grad():
                result = op(a)
        else:
            result = op(a)
    np.testing.assert_allclose(
        result.detach().numpy(), np.array(expected, np.float32), rtol=1e-6, atol=0
    )
    assert result.requires_grad == (mode == "recorded")


@pytest.mark.skipif(LIB != "minigrad", reason="minigrad's quiet context")
@pytest.mark.parametrize("grad", [True, False], ids=["recorded", "no_grad"])
def test_a_busy_quiet_context_takes_the_way_round_for_unary_ops(grad: bool) -> None:
    from minigrad.autograd import quiet, record
    from minigrad.ops import unary

    a = minigrad.tensor([-BIG, 2.0], requires_grad=True)
    calls = []
    original = quiet.call_quietly

    def counting(function: Any, *args: Any) -> Any:
        calls.append(function)
        return original(function, *args)

    def inside() -> Any:  # runs with the quiet context entered: the op cannot enter it again
        with minigrad.set_grad_enabled(grad):
            return a.sigmoid(), a.exp(), a.log()

    # (float32's sigmoid kernel: SciPy's expit, or the stub that loads it on its first call)
    sigmoid_kernel = unary.Sigmoid.dtype_kernels[np.dtypes.Float32DType]
    saved = record._call_quietly
    record._call_quietly = counting
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sigmoid, exp, log = quiet._QUIET_CONTEXT.run(inside)
    finally:
        record._call_quietly = saved
    assert calls == [sigmoid_kernel, unary.exp_array, np.log]
    f32 = np.float32
    np.testing.assert_allclose(sigmoid.detach().numpy(), [0.0, 1 / (1 + math.exp(-2.0))],
                               rtol=1e-6)
    np.testing.assert_allclose(exp.detach().numpy(), [0.0, math.exp(2.0)], rtol=1e-6)
    np.testing.assert_array_equal(log.detach().numpy(), [np.nan, f32(math.log(2.0))])
    assert sigmoid.requires_grad == exp.requires_grad == log.requires_grad == grad
    if grad:  # the values saved for backward are the ones the fast branch saves
        (sigmoid.sum() + exp.sum() + log.sum()).backward()
        y = 1 / (1 + math.exp(-2.0))
        np.testing.assert_allclose(a.grad.numpy()[1], y * (1 - y) + math.exp(2.0) + 0.5,
                                   rtol=1e-6)


def test_threads_recording_large_sigmoids_at_once_get_their_own_results() -> None:
    # As the products above: numpy lets go of the GIL inside a unary kernel too.
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(200_000) for _ in range(2)]
    expected = [1 / (1 + np.exp(-array)) for array in arrays]  # float64: the formula itself
    failures: list[BaseException] = []

    def work(index: int) -> None:
        try:
            x = minigrad.tensor(arrays[index], requires_grad=True)
            for _ in range(20):
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    result = x.sigmoid()
                np.testing.assert_allclose(result.detach().numpy(), expected[index], rtol=1e-15)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
