"""inference_mode: no recording, inference tensors, and PyTorch's errors when they meet autograd.

Every expected value and message here is what PyTorch 2.13 printed for the same program.
"""
import threading

import pytest
from _backend import mg, text

SAVED = text(
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead "
    "of `minigrad.inference_mode()`."
)
INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)
REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
)
NO_VERSION = "Inference tensors do not track version counter."


def made_in_inference_mode(*values):
    with mg.inference_mode():
        return mg.tensor(*values)


def test_inside_nothing_is_recorded_and_new_tensors_are_inference_tensors():
    x = mg.ones(2, requires_grad=True)
    with mg.inference_mode():
        assert mg.is_inference_mode_enabled() and not mg.is_grad_enabled()
        y = x * 2
        z = mg.ones(2)
        view_of_normal = x[0]
        assert not y.requires_grad and y.grad_fn is None
        assert y.is_inference() and z.is_inference()
        assert not view_of_normal.is_inference()  # a view of a normal tensor stays normal
        assert view_of_normal.requires_grad
        leaf = mg.ones(2, requires_grad=True)
        assert leaf.requires_grad and leaf.is_inference() and leaf.is_leaf
        assert not (leaf * 2).requires_grad
        with pytest.raises(RuntimeError) as info:
            _ = y._version
        assert str(info.value) == NO_VERSION
        assert x._version == 0
    assert not mg.is_inference_mode_enabled() and mg.is_grad_enabled()
    assert not x.is_inference()


def test_inside_in_place_writes_are_allowed():
    x = mg.ones(2, requires_grad=True)
    with mg.inference_mode():
        z = mg.ones(2)
        z.add_(1)
        x.add_(1)  # a leaf that requires grad: allowed, nothing is recorded
        x.detach().add_(1)
        assert z.tolist() == [2.0, 2.0]
        assert x._version == 2
    assert x.tolist() == [3.0, 3.0]


def test_outside_saving_an_inference_tensor_for_backward_raises():
    x = mg.ones(2, requires_grad=True)
    y = made_in_inference_mode([2.0, 2.0])
    for use in (lambda: x * y, lambda: mg.matmul(x, y), lambda: x.sin() * y,
                lambda: mg.zeros(2, requires_grad=True).clone().mul_(y)):
        with pytest.raises(RuntimeError) as info:
            use()
        assert str(info.value) == SAVED


def test_outside_ops_that_save_nothing_accept_inference_tensors():
    x = mg.ones(2, requires_grad=True)
    y = made_in_inference_mode([2.0, 1.0])
    z = x + y
    assert z.grad_fn.name() == "AddBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    assert (mg.sigmoid(x) + y).requires_grad
    assert mg.exp(y).tolist() == pytest.approx([7.389056, 2.7182817])
    assert not (y * 2).is_inference()  # made outside: a normal tensor
    assert not y.clone().is_inference()
    assert y.view(2).is_inference()
    assert y.numpy().tolist() == [2.0, 1.0]
    mg.zeros(2).copy_(y)
    mg.zeros(2, requires_grad=True).clone().add_(y)


def test_outside_in_place_writes_raise_after_writing():
    # PyTorch checks when it bumps the version, after the write: so the values change.
    y = made_in_inference_mode([1.0, 1.0, 1.0])
    writes = [
        (lambda: y.zero_(), [0.0, 0.0, 0.0]),
        (lambda: y.fill_(5), [5.0, 5.0, 5.0]),
        (lambda: y.add_(1), [6.0, 6.0, 6.0]),
        (lambda: y.__setitem__(0, 7.0), [7.0, 6.0, 6.0]),
        (lambda: y.copy_(mg.zeros(3)), [0.0, 0.0, 0.0]),
        (lambda: y.view(3).add_(2), [2.0, 2.0, 2.0]),
    ]
    for write, values in writes:
        with pytest.raises(RuntimeError) as info:
            write()
        assert str(info.value) == INPLACE
        assert y.tolist() == values


def test_a_refused_write_that_fails_its_own_checks_first_changes_nothing():
    y = made_in_inference_mode([1.0, 1.0, 1.0])
    with pytest.raises(RuntimeError) as info:
        y.add_(mg.ones(2))
    assert str(info.value) == (
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
        "dimension 0")
    assert y.tolist() == [1.0, 1.0, 1.0]


def test_outside_requires_grad_and_version():
    y = made_in_inference_mode([1.0, 2.0])
    for call in (lambda: y.requires_grad_(), lambda: setattr(y, "requires_grad", True)):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == REQUIRES_GRAD
    assert y.requires_grad_(False) is y
    with pytest.raises(RuntimeError) as info:
        _ = y._version
    assert str(info.value) == NO_VERSION
    with pytest.raises(RuntimeError) as info:
        _ = y.view(2)._version
    assert str(info.value) == NO_VERSION
    assert repr(y) == "tensor([1., 2.])"
    assert y.grad is None and y.is_leaf


def test_detach_and_data_of_an_inference_tensor():
    with mg.inference_mode():
        y = mg.ones(3)
        detached_inside = y.detach()
    d = y.detach()  # outside: still an inference tensor, but it counts and may be written
    assert d.is_inference()
    assert d._version == 0
    d.mul_(2)
    assert d._version == 1 and y.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError) as info:
        _ = detached_inside._version
    assert str(info.value) == NO_VERSION
    with pytest.raises(RuntimeError) as info:
        detached_inside.mul_(2)
    assert str(info.value) == INPLACE
    data = y.data
    assert data.is_inference() and data._version == 0
    data.mul_(2)
    assert y.view(3).detach().is_inference() and y.view(3).detach()._version == 0
    with pytest.raises(RuntimeError) as info:
        d.requires_grad_()
    assert str(info.value) == REQUIRES_GRAD
    x = mg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x * d
    assert str(info.value) == SAVED


def test_aliases_of_normal_tensors_made_in_inference_mode_stay_normal():
    n = mg.ones(2)
    with mg.inference_mode():
        assert not n.detach().is_inference()
        assert not n.data.is_inference()
        assert not n.view(2).is_inference()
        assert not n[0].is_inference()
        assert n.clone().is_inference()
        assert n.detach()._version == 0
        n.add_(1)
        assert n._version == 1


def test_a_leaf_made_in_inference_mode_can_be_used_where_nothing_is_saved():
    with mg.inference_mode():
        w = mg.ones(2, requires_grad=True)
    (w * 2).sum().backward()
    assert w.grad.tolist() == [2.0, 2.0]


def test_nesting_and_mode_false():
    with mg.no_grad(), mg.inference_mode(False):
        assert mg.is_grad_enabled()  # inference_mode(False) turns grad mode on
        assert not mg.is_inference_mode_enabled()
    with mg.inference_mode():
        with mg.inference_mode(False):
            assert mg.is_grad_enabled() and not mg.is_inference_mode_enabled()
            assert not mg.ones(1).is_inference()
        with mg.no_grad():
            assert mg.is_inference_mode_enabled()
        assert mg.is_inference_mode_enabled() and not mg.is_grad_enabled()
    with mg.inference_mode(mode=True):
        assert mg.is_inference_mode_enabled()
    assert not mg.is_inference_mode_enabled() and mg.is_grad_enabled()


def test_enter_and_exit_by_hand():
    mode = mg.inference_mode()
    assert mode.__enter__() is None
    assert mg.is_inference_mode_enabled()
    mode.__exit__(None, None, None)
    assert not mg.is_inference_mode_enabled()
    assert isinstance(mode.clone(), mg.inference_mode)


def test_decorators():
    x = mg.ones(2, requires_grad=True)

    @mg.inference_mode
    def bare(a):
        return a * 2, mg.is_inference_mode_enabled()

    @mg.inference_mode()
    def called(a):
        return a * 2

    @mg.inference_mode(False)
    def turned_off(a):
        return a * 2

    y, enabled = bare(x)
    assert enabled and y.is_inference() and not y.requires_grad
    assert called(x).is_inference()
    assert turned_off(x).grad_fn.name() == "MulBackward0"
    assert bare.__name__ == "bare"
    assert not mg.is_inference_mode_enabled()


def test_a_decorated_generator_runs_each_step_in_the_mode():
    @mg.inference_mode()
    def steps():
        yield mg.is_inference_mode_enabled()
        yield mg.is_inference_mode_enabled()

    generator = steps()
    assert next(generator) is True
    assert not mg.is_inference_mode_enabled()
    assert next(generator) is True


def test_numpy_is_allowed_under_no_grad_and_inference_mode():
    x = mg.ones(2, requires_grad=True)
    with mg.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
        assert x[0].numpy().tolist() == 1.0
    with mg.inference_mode():
        assert x.numpy().tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError) as info:
        x.numpy()
    assert str(info.value) == (
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    assert x.numpy(force=True).tolist() == [1.0, 1.0]
    assert mg.ones(2, dtype=mg.int64).numpy(force=True).tolist() == [1, 1]
    with pytest.raises(TypeError):
        x.numpy(True)


def test_inference_mode_is_per_thread():
    seen = {}

    def other_thread():
        seen["enabled"] = mg.is_inference_mode_enabled()
        seen["inference"] = mg.ones(1).is_inference()

    with mg.inference_mode():
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        assert mg.ones(1).is_inference()
    assert seen == {"enabled": False, "inference": False}


def test_enable_grad_inside_inference_mode_still_records_nothing():
    x = mg.ones(2, requires_grad=True)
    with mg.inference_mode(), mg.enable_grad():
        assert mg.is_grad_enabled() and mg.is_inference_mode_enabled()
        y = x.exp()
    assert not y.requires_grad and y.is_inference()


def test_a_view_made_in_inference_mode_written_in_normal_mode():
    x = mg.ones(3, requires_grad=True).clone()
    with mg.inference_mode():
        view = x[:2]
    with pytest.raises(RuntimeError) as info:
        view.mul_(2)
    assert str(info.value) == (
        "A view was created in inference mode and is being modified inplace in normal mode. "
        "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
        "your code by moving both the view and the inplace either both inside the inference_mode "
        "block (if you don't want the inplace to be tracked) or both outside (if you want the "
        "inplace to be tracked).")


def test_a_view_made_in_inference_mode_after_its_base_changed_and_as_a_view_of_a_view():
    hint = (
        " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
        "your code by moving both the view and the inplace either both inside the inference_mode "
        "block (if you don't want the inplace to be tracked) or both outside (if you want the "
        "inplace to be tracked).")
    x = mg.ones(3, requires_grad=True).clone()
    with mg.inference_mode():
        view = x[:2]
    x.mul_(2)
    with pytest.raises(RuntimeError) as info:
        _ = view.grad_fn
    assert str(info.value) == (
        "A view was created in inference mode and its base or another view of its base has been "
        "modified inplace in normal mode." + hint)
    y = mg.ones(3, requires_grad=True).clone()
    with mg.inference_mode():
        view = y[:2]
    with pytest.raises(RuntimeError) as info:
        view[:1].mul_(2)
    assert str(info.value) == (
        "Output 0 of Slice is a view of a view which was created in inference mode and is being "
        "modified inplace in normal mode." + hint)
    with mg.no_grad():
        view.mul_(2)  # allowed: nothing is recorded
