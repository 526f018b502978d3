"""guard_saved_tensors: writes to saved buffers that bypass the version counter are caught.

Each bypass route (.data, .numpy(), __array__, from_numpy arrays, numpy views made before the
save) fails loudly; writes the counter sees behave exactly as in PyTorch; the protection goes
when backward frees the saved values or the graph is dropped; results never change.
"""
import gc
import inspect
import os
import warnings

import numpy as np
import pytest
from _backend import LIB, mg

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own debugging aids")

HERE = os.path.relpath(__file__)
READ_ONLY = "assignment destination is read-only"
SIGMOID_STALE = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
    "expected version 0 instead. Hint: enable anomaly detection to find the operation that failed "
    "to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
SIGMOID_GRAD = [0.19661193, 0.10499359, 0.04517666]  # PyTorch's sigmoid'(1, 2, 3)


@pytest.fixture(autouse=True)
def _guard_is_restored():
    assert mg.autograd.is_guarding_saved_tensors() is False
    yield
    mg.autograd.guard_saved_tensors(False)
    gc.collect()
    from minigrad.autograd import guard

    left = bool(guard._by_node or guard._locks)
    for key in list(guard._by_node):
        guard.release_id(key)  # so that one failure does not spill into the next tests
    assert not left, "a test left buffers guarded"


def line_after() -> int:
    return inspect.currentframe().f_back.f_lineno + 1


def bypass_message(
    saved_at: int, which: str = "its output 0", node: str = "SigmoidBackward0", written="[3]"
) -> str:
    return (
        "guard_saved_tensors: this in-place write bypasses autograd's version counter.\n"
        f"The tensor written, [minigrad.FloatTensor {written}], has a version counter of its "
        "own (made by .data, or by from_numpy on a shared array) but shares memory with a "
        f"tensor saved for backward by {node} ({which}, saved at version 0 at "
        f"{HERE}:{saved_at}). Autograd would not see this write, and backward would silently "
        "compute a wrong gradient. Write through .detach() instead (autograd then checks the "
        "write), or write into a clone()."
    )


def saved_sigmoid():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return a, a.sigmoid()


def test_a_switch_and_a_context_manager():
    mg.autograd.guard_saved_tensors(True)
    assert mg.autograd.is_guarding_saved_tensors() is True
    mg.autograd.guard_saved_tensors(False)
    assert mg.autograd.is_guarding_saved_tensors() is False
    with mg.autograd.guard_saved_tensors():
        assert mg.autograd.is_guarding_saved_tensors() is True
        with mg.autograd.guard_saved_tensors(False):
            assert mg.autograd.is_guarding_saved_tensors() is False
        assert mg.autograd.is_guarding_saved_tensors() is True
    assert mg.autograd.is_guarding_saved_tensors() is False


def test_off_the_seed_data_write_is_silent_as_in_pytorch():
    a, out = saved_sigmoid()
    out.data.zero_()
    out.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]  # PyTorch's silently wrong gradient


@pytest.mark.parametrize(
    ("write", "written"),
    [(lambda t: t.data.zero_(), "[3]"), (lambda t: t.data.add_(1), "[3]"),
     (lambda t: t.data.__setitem__(0, 5.0), "[]"),  # writes into the 0-d view data[0]
     (lambda t: mg.from_numpy(t.detach().numpy()).mul_(2), "[3]")],
    ids=["data.zero_", "data.add_", "data[0] =", "from_numpy(numpy()).mul_"],
)
def test_a_minigrad_write_with_another_counter_raises_at_its_line(write, written):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        saved_at = line_after()
        out = a.sigmoid()
        before = out.tolist()
        with pytest.raises(RuntimeError) as excinfo:
            write(out)
        assert str(excinfo.value) == bypass_message(saved_at, written=written)
        assert out.tolist() == before and out._version == 0  # the refused write changed nothing
        out.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), SIGMOID_GRAD, rtol=1e-6)


def test_a_saved_input_written_through_data():
    x = mg.tensor([1.0, 2.0, 3.0])
    w = mg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        saved_at = line_after()
        y = x * w
        with pytest.raises(RuntimeError) as excinfo:
            x.data.sub_(1)
        assert str(excinfo.value) == bypass_message(saved_at, "one of its inputs", "MulBackward0")
        y.sum().backward()
    assert w.grad.tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "write",
    [lambda t: t.detach().numpy().__setitem__(0, 5.0),
     lambda t: np.add(t.detach().numpy(), 1, out=t.detach().numpy()),
     lambda t: np.asarray(t.detach()).__setitem__(slice(None), 0.0),
     lambda t: t.data.numpy()[1:].fill(0.0)],
    ids=["numpy()[0] =", "np.add(out=numpy())", "__array__", "data.numpy() view"],
)
def test_a_numpy_write_to_a_saved_buffer_raises_at_its_line(write):
    a, out = None, None
    with mg.autograd.guard_saved_tensors():
        a, out = saved_sigmoid()
        with pytest.raises(ValueError, match="read-only"):
            write(out)
        out.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), SIGMOID_GRAD, rtol=1e-6)


def test_the_array_a_saved_tensor_was_made_from():
    array = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    w = mg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        y = mg.from_numpy(array) * w
        with pytest.raises(ValueError, match=READ_ONLY):
            array[0] = 10.0
        y.sum().backward()
    assert w.grad.tolist() == [1.0, 2.0, 3.0]
    array[0] = 10.0  # released by backward: the array is the user's again
    assert array.flags.writeable


def test_a_numpy_view_made_before_the_save_is_caught_at_backward():
    array = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    earlier_view = array[:]  # writeable: the guard cannot flag it
    w = mg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        saved_at = line_after()
        y = mg.from_numpy(array) * w
        earlier_view[0] = 10.0
        with pytest.raises(RuntimeError) as excinfo:
            y.sum().backward()
    assert str(excinfo.value) == (
        "guard_saved_tensors: [minigrad.FloatTensor [3]], saved for backward by MulBackward0 "
        f"(one of its inputs, saved at version 0 at {HERE}:{saved_at}), was modified by a write "
        "that bypassed autograd's version counter (through .data, .numpy(), __array__, a "
        "from_numpy array or a numpy view of one): its version is still 0 but its values "
        "changed. Backward would have computed a wrong gradient silently. Modify a clone(), or "
        "write through .detach() so that autograd sees the write."
    )
    assert w.grad is None
    del y, excinfo  # the error's traceback holds the graph too
    gc.collect()
    assert array.flags.writeable  # the dropped graph released it


def test_writes_the_counter_sees_behave_as_in_pytorch():
    with mg.autograd.guard_saved_tensors():
        a, out = saved_sigmoid()
        out.detach().zero_()  # allowed, counted: backward raises PyTorch's error
        with pytest.raises(RuntimeError) as excinfo:
            out.sum().backward()
        assert str(excinfo.value) == SIGMOID_STALE
        assert out.tolist() == [0.0, 0.0, 0.0]

        a, out = saved_sigmoid()
        view = out.detach()[1:]  # made from the read-only saved buffer
        view.mul_(2)
        assert out._version == 1 and not out.detach().numpy().flags.writeable
        with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
            out.sum().backward()


def test_an_index_write_through_aliases_is_the_same_with_the_guard_on():
    # index_put_ on an expanded tensor writes the indexed elements only, straight into the
    # buffer (a whole copy written back would restore the aliases' old values): with the
    # guard on too, and after it was on once in the process.
    def write() -> list:
        t0 = mg.tensor([[3.0, -0.5], [-1.0, 2.0]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Use of index_put_ on expanded tensors ..."
            t0.expand(2, 2, 2)[[0, 0]] = -1.0
        return t0.tolist()

    plain = write()
    with mg.autograd.guard_saved_tensors():
        assert write() == plain == [[-1.0, -1.0], [-1.0, -1.0]]
    assert write() == plain


def test_an_optimizer_step_on_a_retained_graph_is_a_counted_write():
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.5)
    with mg.autograd.guard_saved_tensors():
        y = (w * w).sum()
        y.backward(retain_graph=True)
        optimizer.step()  # w is saved by MulBackward0 and read-only: the counter sees the step
        assert w.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
            y.backward()
        with pytest.raises(RuntimeError) as excinfo:
            w.data.add_(1)  # the old-style update would bypass the counter: refused
        assert "saved for backward by MulBackward0" in str(excinfo.value)
        del y
    gc.collect()
    w.data.add_(1)  # nothing saves w any more
    assert w.tolist() == [1.0, 1.0, 1.0]


def test_protection_ends_when_backward_frees_the_saved_values():
    with mg.autograd.guard_saved_tensors():
        a, out = saved_sigmoid()
        view = out.detach()[1:]  # inherits the read-only flag
        out.sum().backward(retain_graph=True)
        with pytest.raises(ValueError, match=READ_ONLY):
            out.detach().numpy()[0] = 1.0  # retained: still saved
        out.sum().backward()
    out.detach().numpy()[0] = 1.0
    view.numpy()[0] = 7.0  # the flag the view inherited is lifted too
    view.mul_(2)
    assert out.tolist() == pytest.approx([1.0, 14.0, 2 * 0.95257413])


def test_a_buffer_saved_twice_stays_protected_until_both_are_freed():
    with mg.autograd.guard_saved_tensors():
        a, out = saved_sigmoid()
        first = out * 2  # saves nothing of out (a constant factor)
        second = out * out  # saves out twice
        third = out.exp()  # saves its own result, not out
        assert first is not None and third is not None
        out.sum().backward(retain_graph=True)  # frees SigmoidBackward0's save only
        with pytest.raises(ValueError, match=READ_ONLY):
            out.detach().numpy()[0] = 1.0
        second.sum().backward()
    out.detach().numpy()[0] = 1.0


@pytest.mark.filterwarnings("ignore:The given NumPy array is not writable")  # (PyTorch's)
def test_a_read_only_array_stays_read_only():
    array = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    array.flags.writeable = False
    w = mg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        (mg.from_numpy(array) * w).sum().backward()
    assert not array.flags.writeable


def test_the_guard_never_changes_a_result():
    def step():
        mg.manual_seed(0)
        model = mg.nn.Sequential(mg.nn.Linear(4, 3), mg.nn.Tanh(), mg.nn.Linear(3, 1))
        optimizer = mg.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        x = mg.randn(5, 4)
        for _ in range(3):
            optimizer.zero_grad()
            model(x).pow(2).mean().backward()
            optimizer.step()
        return [p.tolist() for p in model.parameters()]

    plain = step()
    with mg.autograd.guard_saved_tensors():
        guarded = step()
    assert guarded == plain


def test_accumulating_into_a_saved_grad_behaves_as_without_the_guard():
    def program():
        w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (w * w).sum().backward()
        y = (w.grad * w).sum()  # saves w.grad
        (w * 2).sum().backward()  # accumulates into w.grad: a write the counter sees
        try:
            y.backward()
        except RuntimeError as error:
            return w.grad.tolist(), str(error)
        return w.grad.tolist(), None

    plain = program()
    with mg.autograd.guard_saved_tensors():
        guarded = program()
    assert guarded == plain
    assert plain[0] == [4.0, 6.0, 8.0]


def test_a_numpy_write_through_the_base_of_a_saved_view_is_caught_at_backward():
    x = mg.tensor([1.0, 2.0, 3.0])
    w = mg.tensor([1.0, 1.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        y = x[1:] * w  # saves the view x[1:]; x's own array stays writeable
        x.numpy()[2] = 30.0  # a numpy write into the saved region, around the counter
        with pytest.raises(RuntimeError, match="saved for backward by MulBackward0"):
            y.sum().backward()
        x.numpy()[2] = 3.0  # restored: backward is right again
        y.sum().backward()
    assert w.grad.tolist() == [2.0, 3.0]


def expanded_views_program(guarded: bool):
    """Write through expanded views of a saved result, then backward (with the guard or not)."""
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with mg.autograd.guard_saved_tensors(guarded):
        out = a.sigmoid()
        out.detach().expand(2, 2).add_(1)  # (expand to its own shape: a strided view)
        out.detach()[None].expand(1, 2, 2).mul_(2)
        out.detach().t().unsqueeze(1).expand(2, 1, 2).sub_(1)  # (of a transposed view)
        try:
            out.sum().backward()
        except RuntimeError as error:
            return out._version, out.tolist(), str(error)
    return out._version, out.tolist(), None


def test_a_write_through_an_expanded_view_of_a_saved_buffer_is_counted_as_without_the_guard():
    # (the views are strided: numpy's as_strided froze the lock's read-only flag into them)
    plain = expanded_views_program(False)
    assert plain[0] == 3 and "is at version 3; expected version 0" in plain[2]
    assert expanded_views_program(True) == plain


def test_the_guard_leaves_no_flag_and_no_hook_behind():
    from minigrad.autograd.debug_switches import switches

    x = mg.tensor([1.0, 2.0, 3.0])
    w = mg.tensor([1.0, 1.0, 1.0], requires_grad=True)
    with mg.autograd.guard_saved_tensors():
        a, out = saved_sigmoid()
        views = [out.detach()[1:], out.detach().expand(3), out.detach()[None].expand(2, 3)]
        y = x.expand(3) * w  # saves the expanded (strided) view of x
    assert switches.guard_used  # off, but buffers are still guarded
    out.sum().backward()
    y.sum().backward()
    assert not switches.guard_used  # the writes are back on their unguarded path
    for view in views:
        view.numpy()[0] = 7.0  # no read-only flag outlives the guard
    x.expand(3).numpy()[0] = 5.0
    assert out.tolist()[1:] == [7.0, 7.0] and x.tolist()[0] == 5.0
