"""Grad mode's corners: threads, asyncio tasks, generators, the call and context forms.

Grad mode is per thread in PyTorch (and inference mode too): asyncio tasks of one thread share
it, a worker thread (``asyncio.to_thread``, which runs the caller's context there) starts with
grad mode on whatever the caller's mode, a thread in ``no_grad`` leaves another thread's
recording alone while both run ops. Every expected value here is PyTorch's: the tests run
against it too (``MINIGRAD_TEST_REFERENCE=torch``).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from _backend import mg as minigrad


def _leaf() -> Any:
    return minigrad.ones(3, requires_grad=True)


def test_a_thread_in_no_grad_while_another_records_at_the_same_time() -> None:
    x = _leaf()
    # both threads run their ops between the same two barriers: their modes overlap in time
    inside, done = threading.Barrier(2), threading.Barrier(2)
    seen: dict[str, list[bool]] = {}

    def run(name: str, record: bool) -> None:
        with minigrad.set_grad_enabled(record):
            inside.wait()
            seen[name] = [(x * 2).requires_grad for _ in range(200)]
            seen[name].append((x + x).sum().requires_grad)
            done.wait()

    threads = [threading.Thread(target=run, args=("on", True)),
               threading.Thread(target=run, args=("off", False))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(seen["on"]) and not any(seen["off"])
    assert minigrad.is_grad_enabled() and (x * 2).requires_grad


def test_set_grad_enabled_as_a_call_in_a_thread_leaves_other_threads_alone() -> None:
    x = _leaf()
    turned_off, checked = threading.Event(), threading.Event()
    seen = {}

    def worker() -> None:
        minigrad.set_grad_enabled(False)  # the call form: for the rest of this thread
        turned_off.set()
        checked.wait()
        seen["worker"] = (minigrad.is_grad_enabled(), (x * 2).requires_grad)

    thread = threading.Thread(target=worker)
    thread.start()
    turned_off.wait()
    seen["main"] = (minigrad.is_grad_enabled(), (x * 2).requires_grad)
    checked.set()
    thread.join()
    assert seen == {"main": (True, True), "worker": (False, False)}
    assert (x * 2).requires_grad  # a thread that ended with grad mode off changes nothing


def test_set_grad_enabled_call_then_context_manager_restore_in_order() -> None:
    x = _leaf()
    try:
        minigrad.set_grad_enabled(False)
        assert not (x * 2).requires_grad
        with minigrad.set_grad_enabled(True):
            assert (x * 2).requires_grad
            minigrad.set_grad_enabled(False)  # a call inside: undone by the block's exit
            assert not (x * 2).requires_grad
        assert not minigrad.is_grad_enabled()  # back to the mode before the block
        assert not (x * 2).requires_grad
    finally:
        minigrad.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_asyncio_tasks_of_one_thread_share_its_grad_mode() -> None:
    x = _leaf()
    seen = {}

    async def in_no_grad(entered: asyncio.Event, leave: asyncio.Event) -> None:
        with minigrad.no_grad():
            entered.set()
            await leave.wait()  # the other task runs while this one is in no_grad

    async def other(entered: asyncio.Event, leave: asyncio.Event) -> None:
        await entered.wait()
        seen["during"] = (minigrad.is_grad_enabled(), (x * 2).requires_grad)
        leave.set()

    async def main() -> None:
        entered, leave = asyncio.Event(), asyncio.Event()
        await asyncio.gather(in_no_grad(entered, leave), other(entered, leave))
        seen["after"] = (minigrad.is_grad_enabled(), (x * 2).requires_grad)

    asyncio.run(main())
    assert seen == {"during": (False, False), "after": (True, True)}


def test_asyncio_to_thread_starts_the_worker_with_grad_mode_on() -> None:
    x = _leaf()

    def in_worker() -> tuple[bool, bool, bool]:
        return minigrad.is_grad_enabled(), (x * 2).requires_grad, x.exp().requires_grad

    async def main() -> tuple[Any, Any]:
        with minigrad.no_grad():
            worker = await asyncio.to_thread(in_worker)
            here = (minigrad.is_grad_enabled(), (x * 2).requires_grad, x.exp().requires_grad)
        return worker, here

    worker, here = asyncio.run(main())
    assert worker == (True, True, True)
    assert here == (False, False, False)


def test_a_no_grad_generator_interleaved_with_recording_steps() -> None:
    x = _leaf()

    @minigrad.no_grad()
    def steps() -> Any:
        for _ in range(2):
            yield (x * 2).requires_grad, minigrad.is_grad_enabled()

    outside = []
    inside = []
    for step in steps():
        inside.append(step)
        outside.append(((x * 2).requires_grad, minigrad.is_grad_enabled()))
    assert inside == [(False, False)] * 2
    assert outside == [(True, True)] * 2


def test_enable_grad_generator_inside_no_grad() -> None:
    x = _leaf()

    @minigrad.enable_grad()
    def steps() -> Any:
        yield (x * 2).requires_grad
        yield x.sigmoid().requires_grad

    with minigrad.no_grad():
        results = [(step, (x * 2).requires_grad) for step in steps()]
    assert results == [(True, False), (True, False)]


def test_inference_mode_nested_with_mode_false_and_no_grad() -> None:
    x = _leaf()
    with minigrad.inference_mode():
        a = x * 2
        with minigrad.inference_mode(False):
            b = x * 2
            with minigrad.no_grad():
                c = x * 2
            with minigrad.inference_mode():
                d = x.exp()
            e = x.sum()
        f = x + x
    g = x * 2
    assert [t.requires_grad for t in (a, b, c, d, e, f, g)] == [
        False, True, False, False, True, False, True]
    assert [t.is_inference() for t in (a, b, c, d, e, f, g)] == [
        True, False, False, True, False, True, False]


def test_inference_mode_in_one_thread_while_another_records() -> None:
    x = _leaf()
    inside, done = threading.Barrier(2), threading.Barrier(2)
    seen = {}

    def infer() -> None:
        with minigrad.inference_mode():
            inside.wait()
            y = x * 2
            seen["infer"] = (y.requires_grad, y.is_inference())
            done.wait()

    thread = threading.Thread(target=infer)
    thread.start()
    inside.wait()
    y = x * 2
    seen["main"] = (y.requires_grad, y.is_inference())
    done.wait()
    thread.join()
    assert seen == {"infer": (False, True), "main": (True, False)}
