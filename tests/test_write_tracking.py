"""Write tracking: the version error says where the tensor was saved and where it was modified.

PyTorch's message is the first line, exactly as PyTorch 2.13 prints it (and the whole message
while tracking is off); the lines after it are minigrad's. tests_torch/test_debugging_torch.py
compares the first line with live PyTorch.
"""
import gc
import inspect
import os

import pytest
from _backend import LIB, mg

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own debugging aids")

SIGMOID_STALE = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version {now}; "
    "expected version 0 instead. Hint: enable anomaly detection to find the operation that failed "
    "to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
LEAF_STALE = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: "
    "enable anomaly detection to find the operation that failed to compute its gradient, with "
    "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
HERE = os.path.relpath(__file__)


@pytest.fixture(autouse=True)
def _tracking_is_restored():
    assert mg.autograd.is_track_writes_enabled() is False
    yield
    mg.autograd.set_track_writes(False)


def line_after() -> int:
    """The number of the line after the caller's."""
    return inspect.currentframe().f_back.f_lineno + 1


def backward_error(tensor) -> list[str]:
    with pytest.raises(RuntimeError) as excinfo:
        tensor.sum().backward()
    return str(excinfo.value).splitlines()


def test_off_by_default_the_message_is_exactly_pytorchs():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    assert backward_error(out) == [SIGMOID_STALE.format(now=1)]


def test_set_track_writes_as_a_call_and_as_a_context_manager():
    mg.autograd.set_track_writes(True)
    assert mg.autograd.is_track_writes_enabled() is True
    mg.autograd.set_track_writes(False)
    assert mg.autograd.is_track_writes_enabled() is False
    with mg.autograd.set_track_writes(True):
        assert mg.autograd.is_track_writes_enabled() is True
        with mg.autograd.set_track_writes(False):
            assert mg.autograd.is_track_writes_enabled() is False
        assert mg.autograd.is_track_writes_enabled() is True
    assert mg.autograd.is_track_writes_enabled() is False


def test_the_error_names_where_it_was_saved_and_each_write_since():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        saved_at = line_after()
        out = a.sigmoid()
        zeroed_at = line_after()
        out.detach().zero_()
        added_at = line_after()
        out += 1
        lines = backward_error(out)
    assert lines == [
        SIGMOID_STALE.format(now=2),
        f"saved by SigmoidBackward0 at {HERE}:{saved_at} (version 0): out = a.sigmoid()",
        f"modified by zero_() at {HERE}:{zeroed_at} (version 0 -> 1): out.detach().zero_()",
        f"modified by += at {HERE}:{added_at} (version 1 -> 2): out += 1",
    ]


def test_a_saved_input_item_assignment_and_a_write_before_the_save():
    x = mg.tensor([1.0, 2.0, 3.0])
    w = mg.tensor([1.0, 1.0, 1.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        x.mul_(2)  # before the save: not part of the story
        saved_at = line_after()
        y = x * w
        written_at = line_after()
        x[0] = 5.0
        lines = backward_error(y)
    assert lines == [
        LEAF_STALE.replace("version 1; expected version 0", "version 2; expected version 1"),
        f"saved by MulBackward0 at {HERE}:{saved_at} (version 1): y = x * w",
        f"modified by [...] = at {HERE}:{written_at} (version 1 -> 2): x[0] = 5.0",
    ]


def test_a_write_through_a_view_and_an_optimizer_step():
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.1)
    with mg.autograd.set_track_writes(True):
        saved_at = line_after()
        y = w * w
        y.sum().backward(retain_graph=True)
        stepped_at = line_after()
        optimizer.step()
        lines = backward_error(y)
    assert lines[0] == LEAF_STALE
    assert lines[1:] == [
        f"saved by MulBackward0 at {HERE}:{saved_at} (version 0): y = w * w",
        f"modified by SGD.step() at {HERE}:{stepped_at} (version 0 -> 1): optimizer.step()",
    ]

    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        out = a.sigmoid()
        written_at = line_after()
        out.detach()[1:].mul_(2)
        lines = backward_error(out)
    assert lines[2] == (
        f"modified by mul_() at {HERE}:{written_at} (version 0 -> 1): out.detach()[1:].mul_(2)"
    )


def test_the_history_is_bounded_and_says_what_it_left_out():
    from minigrad.autograd.write_tracking import HISTORY_LENGTH

    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        out = a.sigmoid()
        for _ in range(HISTORY_LENGTH + 2):
            out.detach().add_(0)
        lines = backward_error(out)
    assert lines[0] == SIGMOID_STALE.format(now=HISTORY_LENGTH + 2)
    writes = [line for line in lines if line.startswith("modified by add_()")]
    assert [w.split("(version ")[1].split(")")[0] for w in writes] == [
        f"{v} -> {v + 1}" for v in range(2, HISTORY_LENGTH + 2)
    ]
    assert lines[-1] == (
        "and 2 more write(s) since it was saved that were not recorded (write tracking was off, "
        f"or they fell out of the last {HISTORY_LENGTH})"
    )


def test_writes_made_while_tracking_was_off_are_counted_not_invented():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        saved_at = line_after()
        out = a.sigmoid()
    out.detach().zero_()
    lines = backward_error(out)
    assert lines[1:] == [
        f"saved by SigmoidBackward0 at {HERE}:{saved_at} (version 0): out = a.sigmoid()",
        "and 1 more write(s) since it was saved that were not recorded (write tracking was off, "
        "or they fell out of the last 8)",
    ]

    # Saved while tracking was off, written while on: the write is known, the save place not.
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    with mg.autograd.set_track_writes(True):
        written_at = line_after()
        out.detach().zero_()
        lines = backward_error(out)
    assert lines[1:] == [
        "saved by SigmoidBackward0 (version 0); where: not recorded",
        f"modified by zero_() at {HERE}:{written_at} (version 0 -> 1): out.detach().zero_()",
    ]


def test_anomaly_mode_tracks_writes_too():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning), mg.autograd.detect_anomaly():
        assert mg.autograd.is_track_writes_enabled() is True
        saved_at = line_after()
        out = a.sigmoid()
        zeroed_at = line_after()
        out.detach().zero_()
        lines = backward_error(out)
    assert mg.autograd.is_track_writes_enabled() is False
    assert lines[0].endswith("The variable in question was changed in there or anywhere later. "
                             "Good luck!")
    assert lines[1:] == [
        f"saved by SigmoidBackward0 at {HERE}:{saved_at} (version 0): out = a.sigmoid()",
        f"modified by zero_() at {HERE}:{zeroed_at} (version 0 -> 1): out.detach().zero_()",
    ]


def test_tracking_never_changes_a_result():
    def run():
        a = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
        b = a.exp()
        c = b * a
        c.detach()[0].add_(0)  # bumps c's version; nothing saved c
        c.sum().backward()
        return a.grad.tolist(), c._version

    plain = run()
    with mg.autograd.set_track_writes(True):
        tracked = run()
    assert tracked == plain


def test_histories_go_with_their_counters():
    from minigrad.autograd import write_tracking

    with mg.autograd.set_track_writes(True):
        for _ in range(50):
            mg.zeros(3).add_(1)
    gc.collect()
    assert len(write_tracking._histories) < 5
