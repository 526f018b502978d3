"""Anomaly detection: the forward traceback warning, the other hint, and the NaN check.

Every expected text here is what PyTorch 2.13 printed for the same program. pytest turns warnings
into errors in this project, so every warning is caught with pytest.warns.
"""
import inspect
import math

import pytest
from _backend import LIB, mg, text

STALE_SIGMOID_IN_ANOMALY_MODE = text(
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
    "expected version 0 instead. Hint: the backtrace further above shows the operation that failed "
    "to compute its gradient. The variable in question was changed in there or anywhere later. "
    "Good luck!"
)
ENABLED_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)


@pytest.fixture(autouse=True)
def _anomaly_mode_is_restored():
    assert mg.is_anomaly_enabled() is False
    yield
    mg.autograd.set_detect_anomaly(False)


def messages(record) -> list[str]:
    return [str(w.message) for w in record]


def test_anomaly_mode_is_off_by_default_but_check_nan_is_on():
    assert mg.is_anomaly_enabled() is False
    assert mg.is_anomaly_check_nan_enabled() is True  # even while anomaly mode is off


def test_set_detect_anomaly_as_a_call_and_as_a_context_manager():
    mg.autograd.set_detect_anomaly(True)
    assert (mg.is_anomaly_enabled(), mg.is_anomaly_check_nan_enabled()) == (True, True)
    mg.autograd.set_detect_anomaly(False)
    assert mg.is_anomaly_enabled() is False
    with mg.autograd.set_detect_anomaly(True, check_nan=False):
        assert (mg.is_anomaly_enabled(), mg.is_anomaly_check_nan_enabled()) == (True, False)
    assert (mg.is_anomaly_enabled(), mg.is_anomaly_check_nan_enabled()) == (False, True)


def test_detect_anomaly_warns_on_entry_and_restores_on_exit():
    with pytest.warns(UserWarning) as record:
        with mg.autograd.detect_anomaly():
            assert mg.is_anomaly_enabled() is True
        assert mg.is_anomaly_enabled() is False
    assert messages(record) == [ENABLED_WARNING]


def test_set_detect_anomaly_does_not_warn_when_nothing_fails():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_detect_anomaly(True):
        x.sigmoid().sum().backward()  # a warning would be an error here (filterwarnings = error)
    assert x.grad.shape == (3,)


def test_failing_backward_warns_with_the_forward_traceback():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning) as record, mg.autograd.set_detect_anomaly(True):
        line = inspect.currentframe().f_lineno + 1
        out = a.sigmoid()
        out.detach().zero_()
        with pytest.raises(RuntimeError) as excinfo:
            out.sum().backward()
    # PyTorch's text is the first line; after it minigrad says where the tensor was saved and
    # modified (anomaly mode tracks writes: tests/test_write_tracking.py).
    assert str(excinfo.value).splitlines()[0] == STALE_SIGMOID_IN_ANOMALY_MODE
    (warning,) = messages(record)
    # The node is named with its backward name here, unlike in the RuntimeError.
    assert warning.startswith(
        "Error detected in SigmoidBackward0. Traceback of forward call that caused the error:\n"
    )
    # One frame of the forward stack, formatted as Python's traceback module does.
    frame = (
        f'  File "{__file__}", line {line}, in '
        "test_failing_backward_warns_with_the_forward_traceback\n    out = a.sigmoid()\n"
    )
    assert frame in warning


def test_detect_anomaly_context_gives_both_warnings_and_the_other_hint():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning) as record, mg.autograd.detect_anomaly():
        out = a.sigmoid()
        out.detach().zero_()
        with pytest.raises(RuntimeError) as excinfo:
            out.sum().backward()
    # PyTorch's text is the first line; after it minigrad says where the tensor was saved and
    # modified (anomaly mode tracks writes: tests/test_write_tracking.py).
    assert str(excinfo.value).splitlines()[0] == STALE_SIGMOID_IN_ANOMALY_MODE
    first, second = messages(record)
    assert first == ENABLED_WARNING
    assert second.startswith("Error detected in SigmoidBackward0. Traceback of forward call")
    assert "    out = a.sigmoid()\n" in second


def test_without_anomaly_mode_the_hint_suggests_enabling_it():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value).endswith(
        text(
            "Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
        )
    )


def test_nan_check_names_the_backward_function():
    x = mg.tensor([0.0], requires_grad=True)
    with pytest.warns(UserWarning) as record, mg.autograd.set_detect_anomaly(True):
        y = x.log() * 0  # forward: -inf * 0; backward of log: 0 / 0 = nan
        with pytest.raises(RuntimeError) as excinfo:
            y.sum().backward()
    assert str(excinfo.value) == "Function 'LogBackward0' returned nan values in its 0th output."
    (warning,) = messages(record)
    assert warning.startswith(
        "Error detected in LogBackward0. Traceback of forward call that caused the error:\n"
    )
    assert "    y = x.log() * 0" in warning
    assert x.grad is None


def test_nan_check_of_sqrt_at_zero():
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning), mg.autograd.detect_anomaly():
        y = x.sqrt() * 0
        with pytest.raises(RuntimeError) as excinfo:
            y.sum().backward()
    assert str(excinfo.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."


def test_nan_check_can_be_switched_off():
    x = mg.tensor([0.0], requires_grad=True)
    with mg.autograd.set_detect_anomaly(True, check_nan=False):
        (x.log() * 0).sum().backward()
    assert math.isnan(x.grad.item())


def test_without_anomaly_mode_nan_gradients_pass_silently():
    x = mg.tensor([0.0], requires_grad=True)
    (x.log() * 0).sum().backward()
    assert math.isnan(x.grad.item())


def test_nan_in_forward_alone_does_not_trigger_the_check():
    x = mg.tensor([-1.0], requires_grad=True)
    with mg.autograd.set_detect_anomaly(True):
        y = x.log()
        y.sum().backward()
    assert math.isnan(y.item())
    assert x.grad.tolist() == [-1.0]


def test_user_code_in_a_folder_named_minigrad_is_shown(tmp_path):
    # A checkout made by `git clone <repo>` is a folder named minigrad: the user's own scripts in
    # it must still appear in the forward traceback (only the package's own frames are dropped).
    import subprocess
    import sys

    script = tmp_path / "minigrad" / "examples" / "user_script.py"
    script.parent.mkdir(parents=True)
    script.write_text(
        f"import warnings\nimport {LIB} as mg\n"
        "a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with warnings.catch_warnings(record=True) as caught, mg.autograd.detect_anomaly():\n"
        "    warnings.simplefilter('always')\n"
        "    out = a.sigmoid()\n"
        "    out.detach().zero_()\n"
        "    try:\n"
        "        out.sum().backward()\n"
        "    except RuntimeError:\n"
        "        pass\n"
        "print(str(caught[-1].message))\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True
    )
    assert f'File "{script}", line 6, in <module>\n    out = a.sigmoid()\n' in result.stdout


# A leaf's gradient accumulator: PyTorch's lives only while a graph's edge holds it, and the
# next op on the leaf (or a backward from the leaf itself) makes a new one, which keeps the
# stack of that call in anomaly mode. minigrad's leaves keep theirs (random program seeds
# 110012152, 130050603, 130053462: the accumulator was made before anomaly mode was on).
HOOK_RETURNED = "Tensor post accumulate grad hooks should return None."
ACCUMULATOR_ERROR = "Error detected in torch::autograd::AccumulateGrad."


def leaf_whose_hook_returns_its_grad():
    leaf = mg.tensor([1.0, 2.0], requires_grad=True)
    (leaf * 2).sum().backward()  # its accumulator is made here, outside anomaly mode
    leaf.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5))
    return leaf


def failing_backward_warning(backward):
    with (pytest.warns(UserWarning) as record, mg.autograd.set_detect_anomaly(True),
          pytest.raises(RuntimeError, match=f"^{HOOK_RETURNED}$")):
        backward()
    (warning,) = messages(record)
    return warning


def test_an_accumulator_no_graph_holds_is_made_anew_in_anomaly_mode():
    leaf = leaf_whose_hook_returns_its_grad()
    warning = failing_backward_warning(lambda: leaf.backward(mg.ones_like(leaf)))
    assert warning.startswith(f"{ACCUMULATOR_ERROR} Traceback of forward call that caused")
    assert "    warning = failing_backward_warning(lambda: leaf.backward(" in warning


def test_an_accumulator_made_anew_by_an_op_shows_the_op():
    leaf = leaf_whose_hook_returns_its_grad()

    def backward():
        product = leaf * 3
        product.sum().backward()

    warning = failing_backward_warning(backward)
    assert warning.startswith(f"{ACCUMULATOR_ERROR} Traceback of forward call that caused")
    assert "    product = leaf * 3\n" in warning


@pytest.mark.parametrize("op", [
    lambda leaf: leaf * 2,
    lambda leaf: mg.cat([leaf, leaf, leaf]),  # (an edge in a node's tuple of edges)
    lambda leaf: (leaf * 2).exp(),  # (a node hidden from the collector: autograd/collector.py)
])
def test_an_accumulator_a_graph_still_holds_keeps_having_no_stack(op):
    leaf = leaf_whose_hook_returns_its_grad()
    held = op(leaf)  # outside anomaly mode: its node holds the accumulator
    warning = failing_backward_warning(lambda: leaf.backward(mg.ones_like(leaf)))
    assert warning.startswith(
        f"{ACCUMULATOR_ERROR} No forward pass information available. Enable detect anomaly "
        "during forward pass for more information."
    )
    assert held.grad_fn is not None
