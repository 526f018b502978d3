"""The recording functions' mode shortcut (``debug_switches.modes_on``) against every mode switch.

A recorded op reads one flag that says no mode changes what it does: every thread records, no
saved-tensor hooks, no debugging aid watching saving. Each test switches a mode the way a user
does (context managers, ``set_grad_enabled`` as a call, decorators, generators, inference
mode, another thread, a thread that ends with grad mode off) and checks what the ops the fast
branch takes (``+``, ``*``, ``sigmoid``, ``exp``, ``sum``, ``@``, an op result's ``*``) then
do: recorded or not, the forward stack of anomaly mode, the hooks' packs, the gradients.
Expected behaviour is PyTorch's (these tests also run against it); the last tests look at the
flag itself and compare the fast branch with the general path in each mode.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _backend import mg as minigrad

minigrad_only = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's recording internals")


def _leaves() -> tuple[Any, Any]:
    a = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([1.5, 0.25, -3.0], requires_grad=True)
    return a, b


def _ops(a: Any, b: Any) -> list[Any]:
    """Results of ops the fast branch records (one and two inputs, leaves and op results)."""
    y = a * b
    return [a + b, y, a.sigmoid(), a.exp(), a.sum(), a @ b, y * b, (a + b).sigmoid()]


def _recorded(results: list[Any]) -> list[bool]:
    return [r.requires_grad for r in results]


def test_no_grad_and_enable_grad_contexts() -> None:
    a, b = _leaves()
    assert all(_recorded(_ops(a, b)))
    with minigrad.no_grad():
        assert not any(_recorded(_ops(a, b)))
        with minigrad.enable_grad():
            assert all(_recorded(_ops(a, b)))
        assert not any(_recorded(_ops(a, b)))
    assert all(_recorded(_ops(a, b)))


def test_set_grad_enabled_call_and_context() -> None:
    a, b = _leaves()
    minigrad.set_grad_enabled(False)
    try:
        assert not any(_recorded(_ops(a, b)))
    finally:
        minigrad.set_grad_enabled(True)
    assert all(_recorded(_ops(a, b)))
    with minigrad.set_grad_enabled(False):
        assert not any(_recorded(_ops(a, b)))
    assert all(_recorded(_ops(a, b)))


def test_decorators_and_generators() -> None:
    a, b = _leaves()

    @minigrad.no_grad()
    def without() -> list[bool]:
        return _recorded(_ops(a, b))

    @minigrad.no_grad()
    def steps() -> Any:
        yield _recorded(_ops(a, b))
        yield _recorded(_ops(a, b))

    assert not any(without())
    generator = steps()
    assert not any(next(generator))
    assert all(_recorded(_ops(a, b)))  # between the generator's steps: grad mode as before
    assert not any(next(generator))
    assert all(_recorded(_ops(a, b)))


def test_inference_mode() -> None:
    a, b = _leaves()
    with minigrad.inference_mode():
        results = _ops(a, b)
        assert not any(_recorded(results))
        assert all(r.is_inference() for r in results)
        with minigrad.inference_mode(False):
            assert all(_recorded(_ops(a, b)))
        with minigrad.enable_grad():  # inference mode still records nothing
            assert not any(_recorded(_ops(a, b)))
    results = _ops(a, b)
    assert all(_recorded(results))
    assert not any(r.is_inference() for r in results)


def _gradients(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    a.grad = b.grad = None
    total = sum(r.sum() for r in _ops(a, b))
    total.backward()
    return a.grad.numpy().copy(), b.grad.numpy().copy()


def test_another_thread_in_no_grad_while_this_one_records() -> None:
    a, b = _leaves()
    expected = _gradients(a, b)
    inside = threading.Event()
    leave = threading.Event()
    seen: list[list[bool]] = []

    def other() -> None:
        with minigrad.no_grad():
            seen.append(_recorded(_ops(a, b)))
            inside.set()
            leave.wait(10)
            seen.append(_recorded(_ops(a, b)))

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert inside.wait(10)
        assert all(_recorded(_ops(a, b)))  # this thread records while the other does not
        got = _gradients(a, b)
    finally:
        leave.set()
        thread.join()
    assert seen == [[False] * 8, [False] * 8]
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    assert all(_recorded(_ops(a, b)))


def test_this_thread_in_no_grad_while_another_records() -> None:
    a, b = _leaves()
    seen: list[list[bool]] = []
    with minigrad.no_grad():
        thread = threading.Thread(target=lambda: seen.append(_recorded(_ops(a, b))))
        thread.start()
        thread.join()
        assert not any(_recorded(_ops(a, b)))
    assert seen == [[True] * 8]  # a new thread starts with grad mode on


def test_a_thread_ending_with_grad_mode_off() -> None:
    a, b = _leaves()
    seen: list[list[bool]] = []

    def other() -> None:
        minigrad.set_grad_enabled(False)  # never restored
        seen.append(_recorded(_ops(a, b)))

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen == [[False] * 8]
    assert all(_recorded(_ops(a, b)))
    assert minigrad.is_grad_enabled()


def _anomaly_warnings(results: list[Any]) -> list[str]:
    """The "Error detected" warnings a failing backward through each result gives."""
    messages = []
    for result in results:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with minigrad.autograd.set_detect_anomaly(True), pytest.raises(RuntimeError):
                # NaN gradients make the node's backward return NaN: the check raises
                result.backward(minigrad.full_like(result, float("nan")), retain_graph=True)
        messages += [str(w.message) for w in caught if "Error detected" in str(w.message)]
    return messages


def test_anomaly_mode_captures_the_forward_stack() -> None:
    a, b = _leaves()
    with minigrad.autograd.set_detect_anomaly(True):
        inside = [a + b, a * b, a.sigmoid()]
    outside = [a + b, a * b, a.sigmoid()]
    assert not minigrad.is_anomaly_enabled()
    with_stack = _anomaly_warnings(inside)
    without = _anomaly_warnings(outside)
    assert len(with_stack) == len(inside)
    assert all("Traceback of forward call" in m for m in with_stack)
    assert all("No forward pass information available" in m for m in without)


def test_anomaly_mode_is_process_wide() -> None:
    a, b = _leaves()
    results: list[Any] = []
    # Turned on here, it holds in a thread started now (grad mode would not: per thread).
    with minigrad.autograd.set_detect_anomaly(True):
        thread = threading.Thread(target=lambda: results.extend([a * b, a.sigmoid()]))
        thread.start()
        thread.join()
    messages = _anomaly_warnings(results)
    assert len(messages) == 2
    assert all("Traceback of forward call" in m for m in messages)


def test_saved_tensors_hooks_see_every_saved_tensor() -> None:
    a, b = _leaves()
    packed: list[tuple[int, ...]] = []

    def pack(tensor: Any) -> Any:
        packed.append(tuple(tensor.shape))
        return tensor

    with minigrad.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = a * b  # saves both inputs
        s = a.sigmoid()  # saves its result
        z = y * b  # an op result and a leaf
    assert len(packed) == 5  # two, one, two
    count = len(packed)
    _ops(a, b)
    assert len(packed) == count  # the context is closed: nothing packed
    (y.sum() + s.sum() + z.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), (b * b + b + s * (1 - s)).detach().numpy(),
                               rtol=1e-6)


def test_saved_tensors_hooks_of_another_thread_do_not_apply_here() -> None:
    a, b = _leaves()
    packed: list[Any] = []
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with minigrad.autograd.graph.saved_tensors_hooks(packed.append, lambda t: t):
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert inside.wait(10)
        y = a * b
        s = a.sigmoid()
    finally:
        leave.set()
        thread.join()
    assert packed == []
    (y.sum() + s.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), (b + s * (1 - s)).detach().numpy(), rtol=1e-6)


@minigrad_only
def test_saving_under_write_tracking_and_the_guard() -> None:
    a, b = _leaves()
    for switch in (minigrad.autograd.set_track_writes, minigrad.autograd.guard_saved_tensors):
        switch(True)
        try:
            y = a * b
            s = a.sigmoid()
        finally:
            switch(False)
        (y.sum() + s.sum()).backward()  # saved and checked as the switch asked
        a.grad = b.grad = None
        y = a * b
        with minigrad.no_grad():
            a.mul_(1.0)  # a write after the saving: backward refuses, as always
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()
        a, b = _leaves()


# --- the flag itself (minigrad only) -------------------------------------------------------

MODES: dict[str, Callable[[], Any]] = {}
if LIB == "minigrad":
    MODES = {
        "no_grad": minigrad.no_grad,
        "set_grad_enabled(False)": lambda: minigrad.set_grad_enabled(False),
        "inference_mode": minigrad.inference_mode,
        "detect_anomaly": lambda: minigrad.autograd.set_detect_anomaly(True),
        "saved_tensors_hooks": lambda: minigrad.autograd.graph.saved_tensors_hooks(
            lambda t: t, lambda t: t),
        "set_track_writes": lambda: _switch(minigrad.autograd.set_track_writes,
                                            minigrad.autograd.is_track_writes_enabled),
        "guard_saved_tensors": lambda: _switch(minigrad.autograd.guard_saved_tensors,
                                               minigrad.autograd.is_guarding_saved_tensors),
    }


def _fast() -> bool:
    """Whether the recording functions may skip their mode tests now."""
    from minigrad.autograd.debug_switches import modes_on

    return not modes_on


class _switch:  # noqa: N801 - used like the mode contexts
    """A debugging switch (a function of a bool) as a context that restores it."""

    def __init__(self, switch: Callable[[bool], Any], state: Callable[[], bool]) -> None:
        self.switch = switch
        self.previous = state()

    def __enter__(self) -> None:
        self.switch(True)

    def __exit__(self, *exc_info: object) -> None:
        self.switch(self.previous)


@minigrad_only
@pytest.mark.parametrize("mode", list(MODES))
def test_the_flag_is_off_in_each_mode_and_on_after(mode: str) -> None:
    assert _fast()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with MODES[mode]():
            assert not _fast()
            with MODES[mode]():  # nested: off until the outer one ends too
                assert not _fast()
            assert not _fast()
    assert _fast()


@minigrad_only
def test_the_flag_follows_other_threads() -> None:
    states: list[bool] = []
    inside = threading.Event()
    leave = threading.Event()

    def in_no_grad() -> None:
        with minigrad.no_grad():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=in_no_grad)
    thread.start()
    assert inside.wait(10)
    states.append(_fast())
    leave.set()
    thread.join()
    states.append(_fast())

    def ends_without_grad() -> None:
        minigrad.set_grad_enabled(False)
        states.append(_fast())

    thread = threading.Thread(target=ends_without_grad)
    thread.start()
    thread.join()
    # the thread's state is freed with the thread (at once on CPython, by reference count)
    states.append(_fast())
    assert states == [False, True, False, True]


@minigrad_only
@pytest.mark.parametrize("mode", [None, *MODES])
def test_fast_branch_agrees_with_the_general_path(mode: str | None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each mode: the ops' results, nodes, saved values and gradients, both ways."""
    from minigrad.autograd import record
    from minigrad.autograd.saved import saved_values

    def run(fast_branch: bool) -> Any:
        with monkeypatch.context() as patch:
            patch.setattr(record, "FAST_BRANCH", fast_branch)
            a, b = _leaves()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if mode is None:
                    results = _ops(a, b)
                else:
                    with MODES[mode]():
                        results = _ops(a, b)
            seen = []
            for r in results:
                node = r.grad_fn
                seen.append((
                    r.detach().numpy().tobytes(), r.requires_grad, r.is_inference(),
                    None if node is None else node.name(),
                    None if node is None else node._forward_stack is None,
                    None if node is None else [
                        (index, value.tobytes() if isinstance(value, np.ndarray)
                         else type(value).__name__, version)
                        for index, value, _, version, _ in saved_values(node)
                    ],
                ))
            recorded = [r for r in results if r.requires_grad]
            if recorded:
                sum(r.sum() for r in recorded).backward()
                seen.append((a.grad.numpy().tobytes(), b.grad.numpy().tobytes()))
            return seen

    assert run(True) == run(False)


@minigrad_only
@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_a_forked_child_forgets_the_threads_it_did_not_inherit() -> None:
    import os

    inside = threading.Event()
    leave = threading.Event()

    def in_no_grad() -> None:
        with minigrad.no_grad():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=in_no_grad)
    thread.start()
    try:
        assert inside.wait(10)
        assert not _fast()
        # In the child only this thread lives on; CPython frees the others' thread states
        # (and with them their grad states, whose entries go): the child records fast.
        pid = os.fork()
        if pid == 0:
            a, b = _leaves()
            ok = _fast() and all(_recorded(_ops(a, b)))
            with minigrad.no_grad():
                ok = ok and not _fast() and not any(_recorded(_ops(a, b)))
            os._exit(0 if ok and _fast() else 1)
        _, status = os.waitpid(pid, 0)
    finally:
        leave.set()
        thread.join()
    assert os.waitstatus_to_exitcode(status) == 0
    assert _fast()
