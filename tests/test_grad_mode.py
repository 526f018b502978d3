"""Grad mode: no_grad, enable_grad, set_grad_enabled, is_grad_enabled; nesting and threads.

Every expected value here is what PyTorch 2.13 printed for the same program.
"""
import threading

import pytest
from _backend import mg


@pytest.fixture(autouse=True)
def _grad_mode_is_restored():
    assert mg.is_grad_enabled()
    yield
    mg.set_grad_enabled(True)


def run_in_thread(fn):
    results = []
    thread = threading.Thread(target=lambda: results.append(fn()))
    thread.start()
    thread.join()
    return results[0]


def test_grad_is_enabled_by_default():
    assert mg.is_grad_enabled() is True


def test_autograd_namespace_exports_the_same_objects():
    assert mg.autograd.no_grad is mg.no_grad
    assert mg.autograd.enable_grad is mg.enable_grad
    assert mg.autograd.set_grad_enabled is mg.set_grad_enabled
    assert mg.autograd.grad_mode.no_grad is mg.no_grad


def test_ops_under_no_grad_record_nothing():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        assert mg.is_grad_enabled() is False
        y = x * 2
        s = (x * x).sum()
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)
    assert y.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError) as excinfo:
        s.backward()
    assert str(excinfo.value) == (
        "element 0 of tensors does not require grad and does not have a grad_fn"
    )
    assert mg.is_grad_enabled() is True


def test_no_grad_does_not_change_requires_grad_of_leaves_or_factories():
    with mg.no_grad():
        t = mg.tensor([1.0], requires_grad=True)
        d = t.detach()
    assert (t.requires_grad, t.is_leaf) == (True, True)
    assert d.requires_grad is False


def test_enable_grad_inside_no_grad_records_again():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        with mg.enable_grad():
            assert mg.is_grad_enabled() is True
            z = x * 2
        assert mg.is_grad_enabled() is False
    assert (z.requires_grad, z.grad_fn.name()) == (True, "MulBackward0")


def test_set_grad_enabled_as_context_manager_nests():
    with mg.set_grad_enabled(False):
        assert mg.is_grad_enabled() is False
        with mg.set_grad_enabled(True):
            assert mg.is_grad_enabled() is True
        assert mg.is_grad_enabled() is False
    assert mg.is_grad_enabled() is True


def test_set_grad_enabled_as_a_plain_call_takes_effect_immediately():
    # Unlike no_grad(), calling set_grad_enabled(False) switches the mode right away.
    guard = mg.set_grad_enabled(False)
    assert mg.is_grad_enabled() is False
    assert type(guard).__name__ == "set_grad_enabled"
    mg.set_grad_enabled(True)
    assert mg.is_grad_enabled() is True


def test_constructing_no_grad_without_entering_changes_nothing():
    mg.no_grad()
    assert mg.is_grad_enabled() is True


def test_context_managers_yield_none():
    with mg.no_grad() as a, mg.enable_grad() as b, mg.set_grad_enabled(False) as c:
        assert (a, b, c) == (None, None, None)


def test_mode_is_restored_after_an_exception():
    with pytest.raises(ValueError), mg.no_grad():
        raise ValueError
    assert mg.is_grad_enabled() is True


def test_no_grad_as_decorator_with_and_without_parentheses():
    x = mg.tensor([1.0, 2.0], requires_grad=True)

    @mg.no_grad()
    def double(t):
        return t * 2, mg.is_grad_enabled()

    @mg.no_grad
    def triple(t):
        return t * 3

    y, enabled = double(x)
    assert (y.requires_grad, enabled) == (False, False)
    assert triple(x).requires_grad is False
    assert mg.is_grad_enabled() is True


def test_enable_grad_as_decorator_inside_no_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)

    @mg.enable_grad()
    def double(t):
        return t * 2

    with mg.no_grad():
        y = double(x)
        assert mg.is_grad_enabled() is False
    assert y.requires_grad is True


def test_set_grad_enabled_as_decorator():
    x = mg.tensor([1.0, 2.0], requires_grad=True)

    @mg.set_grad_enabled(False)
    def double(t):
        return t * 2

    assert double(x).requires_grad is False
    assert mg.is_grad_enabled() is True


def test_no_grad_decorator_on_a_generator_applies_to_each_step():
    @mg.no_grad()
    def modes():
        yield mg.is_grad_enabled()
        yield mg.is_grad_enabled()

    assert list(modes()) == [False, False]


def test_grad_mode_is_thread_local_new_threads_start_enabled():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        assert run_in_thread(lambda: (mg.is_grad_enabled(), (x * 2).requires_grad)) == (True, True)
        assert mg.is_grad_enabled() is False


def test_disabling_grad_in_a_thread_does_not_affect_the_main_thread():
    def disable():
        mg.set_grad_enabled(False)
        return mg.is_grad_enabled()

    assert run_in_thread(disable) is False
    assert mg.is_grad_enabled() is True
