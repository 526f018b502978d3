"""Saved tensors: what each op saves decides which in-place writes make backward raise.

The mutation matrix below was recorded by running each program in PyTorch 2.13: after the
forward, one tensor (an input or the output) is modified in place through `.detach()`, then
`out.sum().backward()` runs. Every cell says whether PyTorch raised (and with which text) or which
gradients it computed; minigrad must agree cell by cell.
"""
import re
from typing import NamedTuple

import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


class Stale(NamedTuple):
    """Backward raises because a saved tensor of this shape was modified (output of `node`)."""

    shape: str
    node: str | None = None  # None for a leaf: then the message has no "which is output" clause
    version: int = 1
    expected: int = 0
    type_name: str = "FloatTensor"

    @property
    def message(self) -> str:
        which = f", which is output 0 of {self.node}," if self.node else ""
        return text(
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [minigrad.{self.type_name} [{self.shape}]]{which} is at version "
            f"{self.version}; expected version {self.expected} instead. {HINT}"
        )


def assert_backward_raises(stale: Stale, run) -> None:
    with pytest.raises(RuntimeError) as excinfo:
        run()
    assert str(excinfo.value) == stale.message


X = [1.0, 2.0, 3.0]
Y = [4.0, 5.0, 6.0]
A = [[1.0, 2.0], [3.0, 4.0]]
B = [[5.0, 6.0], [7.0, 8.0]]
V = [5.0, 6.0]
# name -> (forward, input values); inputs are x, y in this order.
OPS = {
    "x + 2": (lambda x: x + 2, [X]),
    "2 + x": (lambda x: 2 + x, [X]),
    "x - 2": (lambda x: x - 2, [X]),
    "2 - x": (lambda x: 2 - x, [X]),
    "x * 2": (lambda x: x * 2, [X]),
    "2 * x": (lambda x: 2 * x, [X]),
    "x / 2": (lambda x: x / 2, [X]),
    "2 / x": (lambda x: 2 / x, [X]),
    "x ** 2": (lambda x: x**2, [X]),
    "x ** 0.5": (lambda x: x**0.5, [X]),
    "2 ** x": (lambda x: 2**x, [X]),
    "pow(x, 2)": (lambda x: mg.pow(x, 2), [X]),
    "-x": (lambda x: -x, [X]),
    "neg": (lambda x: x.neg(), [X]),
    "abs": (lambda x: x.abs(), [X]),
    "exp": (lambda x: x.exp(), [X]),
    "log": (lambda x: x.log(), [X]),
    "sqrt": (lambda x: x.sqrt(), [X]),
    "sigmoid": (lambda x: x.sigmoid(), [X]),
    "tanh": (lambda x: x.tanh(), [X]),
    "relu": (lambda x: x.relu(), [X]),
    "sum": (lambda x: x.sum(), [X]),
    "mean": (lambda x: x.mean(), [X]),
    "clamp": (lambda x: x.clamp(1.5, 2.5), [X]),
    "clamp(min)": (lambda x: x.clamp(min=1.5), [X]),
    "x + y": (lambda x, y: x + y, [X, Y]),
    "x - y": (lambda x, y: x - y, [X, Y]),
    "x * y": (lambda x, y: x * y, [X, Y]),
    "x / y": (lambda x, y: x / y, [X, Y]),
    "x ** y": (lambda x, y: x**y, [X, Y]),
    "pow(x, y)": (lambda x, y: mg.pow(x, y), [X, Y]),
    "x @ y (dot)": (lambda x, y: x @ y, [X, Y]),
    "matmul(x, y) (mm)": (lambda x, y: mg.matmul(x, y), [A, B]),
    "x @ y (mv)": (lambda x, y: x @ y, [A, V]),
}

# (op, requires_grad of the inputs, which tensor is modified after forward, outcome): the outcome is
# the inputs' gradients when backward succeeds, or Stale(...) when PyTorch raises.
MATRIX = [
    ("x + 2", (True,), "x", [[1.0, 1.0, 1.0]]),
    ("x + 2", (True,), "out", [[1.0, 1.0, 1.0]]),
    ("2 + x", (True,), "x", [[1.0, 1.0, 1.0]]),
    ("2 + x", (True,), "out", [[1.0, 1.0, 1.0]]),
    ("x - 2", (True,), "x", [[1.0, 1.0, 1.0]]),
    ("x - 2", (True,), "out", [[1.0, 1.0, 1.0]]),
    ("2 - x", (True,), "x", [[-1.0, -1.0, -1.0]]),
    ("2 - x", (True,), "out", [[-1.0, -1.0, -1.0]]),
    ("x * 2", (True,), "x", [[2.0, 2.0, 2.0]]),
    ("x * 2", (True,), "out", [[2.0, 2.0, 2.0]]),
    ("2 * x", (True,), "x", [[2.0, 2.0, 2.0]]),
    ("2 * x", (True,), "out", [[2.0, 2.0, 2.0]]),
    ("x / 2", (True,), "x", [[0.5, 0.5, 0.5]]),
    ("x / 2", (True,), "out", [[0.5, 0.5, 0.5]]),
    ("2 / x", (True,), "x", [[-2.0, -0.5, -0.22222224]]),
    ("2 / x", (True,), "out", [[-2.0, -0.5, -0.22222224]]),
    ("x ** 2", (True,), "x", Stale("3")),
    ("x ** 2", (True,), "out", [[2.0, 4.0, 6.0]]),
    ("x ** 0.5", (True,), "x", Stale("3")),
    ("x ** 0.5", (True,), "out", [[0.5, 0.35355338, 0.28867513]]),
    ("2 ** x", (True,), "x", Stale("3")),
    ("2 ** x", (True,), "out", Stale("3", "Pow2")),
    ("pow(x, 2)", (True,), "x", Stale("3")),
    ("pow(x, 2)", (True,), "out", [[2.0, 4.0, 6.0]]),
    ("-x", (True,), "x", [[-1.0, -1.0, -1.0]]),
    ("-x", (True,), "out", [[-1.0, -1.0, -1.0]]),
    ("neg", (True,), "x", [[-1.0, -1.0, -1.0]]),
    ("neg", (True,), "out", [[-1.0, -1.0, -1.0]]),
    ("abs", (True,), "x", Stale("3")),
    ("abs", (True,), "out", [[1.0, 1.0, 1.0]]),
    ("exp", (True,), "x", [[2.7182817, 7.3890562, 20.085537]]),
    ("exp", (True,), "out", Stale("3", "Exp")),
    ("log", (True,), "x", Stale("3")),
    ("log", (True,), "out", [[1.0, 0.5, 0.33333334]]),
    ("sqrt", (True,), "x", [[0.5, 0.35355338, 0.28867513]]),
    ("sqrt", (True,), "out", Stale("3", "Sqrt")),
    ("sigmoid", (True,), "x", [[0.19661193, 0.10499363, 0.045176655]]),
    ("sigmoid", (True,), "out", Stale("3", "Sigmoid")),
    ("tanh", (True,), "x", [[0.4199743, 0.070650816, 0.0098659815]]),
    ("tanh", (True,), "out", Stale("3", "Tanh")),
    ("relu", (True,), "x", [[1.0, 1.0, 1.0]]),
    ("relu", (True,), "out", Stale("3", "Relu")),
    ("sum", (True,), "x", [[1.0, 1.0, 1.0]]),
    ("sum", (True,), "out", [[1.0, 1.0, 1.0]]),
    ("mean", (True,), "x", [[0.33333334, 0.33333334, 0.33333334]]),
    ("mean", (True,), "out", [[0.33333334, 0.33333334, 0.33333334]]),
    ("clamp", (True,), "x", Stale("3")),
    ("clamp", (True,), "out", [[0.0, 1.0, 0.0]]),
    ("clamp(min)", (True,), "x", Stale("3")),
    ("clamp(min)", (True,), "out", [[0.0, 1.0, 1.0]]),
    ("x + y", (True, True), "x", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
    ("x + y", (True, True), "y", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
    ("x + y", (True, True), "out", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
    ("x + y", (True, False), "x", [[1.0, 1.0, 1.0], None]),
    ("x + y", (True, False), "y", [[1.0, 1.0, 1.0], None]),
    ("x + y", (True, False), "out", [[1.0, 1.0, 1.0], None]),
    ("x + y", (False, True), "x", [None, [1.0, 1.0, 1.0]]),
    ("x + y", (False, True), "y", [None, [1.0, 1.0, 1.0]]),
    ("x + y", (False, True), "out", [None, [1.0, 1.0, 1.0]]),
    ("x - y", (True, True), "x", [[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]]),
    ("x - y", (True, True), "y", [[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]]),
    ("x - y", (True, True), "out", [[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]]),
    ("x - y", (True, False), "x", [[1.0, 1.0, 1.0], None]),
    ("x - y", (True, False), "y", [[1.0, 1.0, 1.0], None]),
    ("x - y", (True, False), "out", [[1.0, 1.0, 1.0], None]),
    ("x - y", (False, True), "x", [None, [-1.0, -1.0, -1.0]]),
    ("x - y", (False, True), "y", [None, [-1.0, -1.0, -1.0]]),
    ("x - y", (False, True), "out", [None, [-1.0, -1.0, -1.0]]),
    ("x * y", (True, True), "x", Stale("3")),
    ("x * y", (True, True), "y", Stale("3")),
    ("x * y", (True, True), "out", [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]),
    ("x * y", (True, False), "x", [[4.0, 5.0, 6.0], None]),
    ("x * y", (True, False), "y", Stale("3")),
    ("x * y", (True, False), "out", [[4.0, 5.0, 6.0], None]),
    ("x * y", (False, True), "x", Stale("3")),
    ("x * y", (False, True), "y", [None, [1.0, 2.0, 3.0]]),
    ("x * y", (False, True), "out", [None, [1.0, 2.0, 3.0]]),
    ("x / y", (True, True), "x", Stale("3")),
    ("x / y", (True, True), "y", Stale("3")),
    ("x / y", (True, True), "out", [[0.25, 0.2, 0.16666667], [-0.0625, -0.08, -0.083333336]]),
    ("x / y", (True, False), "x", [[0.25, 0.2, 0.16666667], None]),
    ("x / y", (True, False), "y", Stale("3")),
    ("x / y", (True, False), "out", [[0.25, 0.2, 0.16666667], None]),
    ("x / y", (False, True), "x", Stale("3")),
    ("x / y", (False, True), "y", Stale("3")),
    ("x / y", (False, True), "out", [None, [-0.0625, -0.08, -0.083333336]]),
    ("x ** y", (True, True), "x", Stale("3")),
    ("x ** y", (True, True), "y", Stale("3")),
    ("x ** y", (True, True), "out", Stale("3", "Pow1")),
    ("x ** y", (True, False), "x", Stale("3")),
    ("x ** y", (True, False), "y", Stale("3")),
    ("x ** y", (True, False), "out", Stale("3", "Pow1")),
    ("x ** y", (False, True), "x", Stale("3")),
    ("x ** y", (False, True), "y", Stale("3")),
    ("x ** y", (False, True), "out", Stale("3", "Pow1")),
    ("pow(x, y)", (True, True), "x", Stale("3")),
    ("pow(x, y)", (True, True), "y", Stale("3")),
    ("pow(x, y)", (True, True), "out", Stale("3", "Pow1")),
    ("pow(x, y)", (True, False), "x", Stale("3")),
    ("pow(x, y)", (True, False), "y", Stale("3")),
    ("pow(x, y)", (True, False), "out", Stale("3", "Pow1")),
    ("pow(x, y)", (False, True), "x", Stale("3")),
    ("pow(x, y)", (False, True), "y", Stale("3")),
    ("pow(x, y)", (False, True), "out", Stale("3", "Pow1")),
    ("x @ y (dot)", (True, True), "x", Stale("3")),
    ("x @ y (dot)", (True, True), "y", Stale("3")),
    ("x @ y (dot)", (True, True), "out", [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]),
    ("x @ y (dot)", (True, False), "x", [[4.0, 5.0, 6.0], None]),
    ("x @ y (dot)", (True, False), "y", Stale("3")),
    ("x @ y (dot)", (True, False), "out", [[4.0, 5.0, 6.0], None]),
    ("x @ y (dot)", (False, True), "x", Stale("3")),
    ("x @ y (dot)", (False, True), "y", [None, [1.0, 2.0, 3.0]]),
    ("x @ y (dot)", (False, True), "out", [None, [1.0, 2.0, 3.0]]),
    ("matmul(x, y) (mm)", (True, True), "x", Stale("2, 2")),
    ("matmul(x, y) (mm)", (True, True), "y", Stale("2, 2")),
    ("matmul(x, y) (mm)", (True, True), "out",
     [[[11.0, 15.0], [11.0, 15.0]], [[4.0, 4.0], [6.0, 6.0]]]),
    ("matmul(x, y) (mm)", (True, False), "x", [[[11.0, 15.0], [11.0, 15.0]], None]),
    ("matmul(x, y) (mm)", (True, False), "y", Stale("2, 2")),
    ("matmul(x, y) (mm)", (True, False), "out", [[[11.0, 15.0], [11.0, 15.0]], None]),
    ("matmul(x, y) (mm)", (False, True), "x", Stale("2, 2")),
    ("matmul(x, y) (mm)", (False, True), "y", [None, [[4.0, 4.0], [6.0, 6.0]]]),
    ("matmul(x, y) (mm)", (False, True), "out", [None, [[4.0, 4.0], [6.0, 6.0]]]),
    ("x @ y (mv)", (True, True), "x", Stale("2, 2")),
    ("x @ y (mv)", (True, True), "y", Stale("2")),
    ("x @ y (mv)", (True, True), "out", [[[5.0, 6.0], [5.0, 6.0]], [4.0, 6.0]]),
    ("x @ y (mv)", (True, False), "x", [[[5.0, 6.0], [5.0, 6.0]], None]),
    ("x @ y (mv)", (True, False), "y", Stale("2")),
    ("x @ y (mv)", (True, False), "out", [[[5.0, 6.0], [5.0, 6.0]], None]),
    ("x @ y (mv)", (False, True), "x", Stale("2, 2")),
    ("x @ y (mv)", (False, True), "y", [None, [4.0, 6.0]]),
    ("x @ y (mv)", (False, True), "out", [None, [4.0, 6.0]]),

]


@parametrize_in_one(
    ("op", "requires_grad", "mutated", "outcome"),
    MATRIX,
    ids=[f"{op}-{'/'.join('rg' if r else 'no' for r in rg)}-mutate_{m}" for op, rg, m, _ in MATRIX],
)
def test_mutation_after_forward_raises_exactly_when_pytorch_does(
    op, requires_grad, mutated, outcome
):
    forward, values = OPS[op]
    inputs = [mg.tensor(v, requires_grad=rg) for v, rg in zip(values, requires_grad, strict=True)]
    out = forward(*inputs)
    target = out if mutated == "out" else inputs["xy".index(mutated)]
    target.detach().add_(1)
    assert target._version == 1
    if isinstance(outcome, Stale):
        assert_backward_raises(outcome, lambda: out.sum().backward())
        return
    out.sum().backward()
    for tensor, expected in zip(inputs, outcome, strict=True):
        if expected is None:
            assert tensor.grad is None
        else:
            np.testing.assert_allclose(tensor.grad.numpy(), expected, rtol=1e-5)


def test_stale_leaf_message_in_full():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    out = x * y
    x.detach().add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: "
        "enable anomaly detection to find the operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_stale_saved_output_message_in_full():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    # The node is named without "Backward0": SigmoidBackward0 -> "Sigmoid".
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_saved_non_leaf_input_names_the_node_that_made_it():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a * 2
    out = h.log()
    h.detach().add_(1)
    assert_backward_raises(Stale("3", "Mul"), lambda: out.sum().backward())


def test_saved_non_leaf_input_names_its_current_grad_fn_after_inplace():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a + 0
    out = h.log()
    h.mul_(2)  # h's grad_fn is now MulBackward0, and that is the name the message uses
    assert h.grad_fn.name() == "MulBackward0"
    assert_backward_raises(Stale("3", "Mul"), lambda: out.sum().backward())


def test_message_reports_the_current_version_after_several_writes():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a + 0
    out = h.log()
    h.add_(2)
    h.add_(2)
    assert_backward_raises(Stale("3", "Add", version=2), lambda: out.sum().backward())


def test_zero_dim_tensor_operand_is_saved_and_checked():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = mg.tensor(2.0)
    out = x * s
    s.add_(1)
    assert_backward_raises(Stale(""), lambda: out.sum().backward())


def test_float64_saved_tensor_is_named_double_tensor():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = mg.tensor(2.0, dtype=mg.float64)
    out = x * s
    assert out.dtype == mg.float32
    s.add_(1)
    assert_backward_raises(Stale("", type_name="DoubleTensor"), lambda: out.sum().backward())


def test_modification_under_no_grad_is_still_detected():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = x * x
    with mg.no_grad():
        x.add_(1)
    assert_backward_raises(Stale("3"), lambda: out.sum().backward())


def test_modify_then_restore_still_raises():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0])
    out = x * y
    y.add_(1)
    y.sub_(1)
    assert y.tolist() == [4.0, 5.0, 6.0]  # same values, but the check compares versions only
    assert_backward_raises(Stale("3", version=2), lambda: out.sum().backward())


def test_node_checks_saved_tensors_its_requested_gradient_does_not_need():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    out = (x * y).sum()
    x.detach().add_(1)  # d out / d x needs only y, yet the node unpacks x too
    assert_backward_raises(Stale("3"), lambda: mg.autograd.grad(out, [x]))


def test_never_executed_branch_is_never_checked():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = x.exp()
    loss = (x * 3).sum()
    e.detach().zero_()
    loss.backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]


def test_branch_not_needed_for_requested_inputs_is_not_checked():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = mg.tensor([0.0, 1.0, 2.0], requires_grad=True)
    e = w.exp()
    out = (x * 2 + e).sum()
    e.detach().zero_()
    (gx,) = mg.autograd.grad(out, [x])
    assert gx.tolist() == [2.0, 2.0, 2.0]
    assert_backward_raises(Stale("3", "Exp"), lambda: mg.autograd.grad(out, [w]))


def test_second_backward_raises_after_saved_tensors_are_freed():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (x * x).sum()
    out.backward()
    with pytest.raises(RuntimeError) as excinfo:
        out.backward()
    assert str(excinfo.value) == SECOND_BACKWARD
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_autograd_grad_also_frees_saved_tensors():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (x * x).sum()
    (gx,) = mg.autograd.grad(out, [x])
    assert gx.tolist() == [2.0, 4.0, 6.0]
    with pytest.raises(RuntimeError, match=re.escape(SECOND_BACKWARD)):
        out.backward()


def test_freed_node_shared_by_another_loss_raises():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    z = x * x
    loss1 = z.sum()
    loss2 = (z + 1).sum()
    loss1.backward()
    with pytest.raises(RuntimeError, match=re.escape(SECOND_BACKWARD)):
        loss2.backward()


def test_retain_graph_allows_more_backward_calls_and_gradients_accumulate():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (x * x).sum()
    out.backward(retain_graph=True)
    out.backward(retain_graph=True)
    out.backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0]
    with pytest.raises(RuntimeError, match=re.escape(SECOND_BACKWARD)):
        out.backward()


# Graphs whose nodes save nothing can be backpropagated again without retain_graph.
SAVE_NOTHING = [
    ("x + y", lambda x, y: (x + y).sum(), [2.0, 2.0, 2.0], [2.0, 2.0, 2.0]),
    ("x - y", lambda x, y: (x - y).mean(), [2 / 3] * 3, [-2 / 3] * 3),
    ("-x", lambda x, y: (-x).sum(), [-2.0, -2.0, -2.0], None),
    ("x + 2", lambda x, y: (x + 2).sum(), [2.0, 2.0, 2.0], None),
    ("2 - x", lambda x, y: (2 - x).sum(), [-2.0, -2.0, -2.0], None),
    ("sum + mean", lambda x, y: x.sum() + y.mean(), [2.0, 2.0, 2.0], [2 / 3] * 3),
]


@pytest.mark.parametrize(("name", "forward", "grad_x", "grad_y"), SAVE_NOTHING,
                         ids=[r[0] for r in SAVE_NOTHING])
def test_graph_that_saves_nothing_can_be_backpropagated_twice(name, forward, grad_x, grad_y):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    out = forward(x, y)
    out.backward()
    out.backward()  # no error: nothing was saved, so nothing was freed
    np.testing.assert_allclose(x.grad.numpy(), grad_x, rtol=1e-5)
    if grad_y is None:
        assert y.grad is None
    else:
        np.testing.assert_allclose(y.grad.numpy(), grad_y, rtol=1e-5)


# These save something (x * 2 and x / 2 save the wrapped scalar), so the second backward raises.
SAVE_SOMETHING = [
    ("x * 2", lambda x: (x * 2).sum(), [2.0, 2.0, 2.0]),
    ("x / 2", lambda x: (x / 2).sum(), [0.5, 0.5, 0.5]),
    ("x ** 2", lambda x: (x**2).sum(), [2.0, 4.0, 6.0]),
    ("exp", lambda x: x.exp().sum(), [2.7182817, 7.3890562, 20.085537]),
]


@pytest.mark.parametrize(("name", "forward", "grad_x"), SAVE_SOMETHING,
                         ids=[r[0] for r in SAVE_SOMETHING])
def test_graph_that_saves_something_cannot_be_backpropagated_twice(name, forward, grad_x):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = forward(x)
    out.backward()
    with pytest.raises(RuntimeError) as excinfo:
        out.backward()
    assert str(excinfo.value) == SECOND_BACKWARD
    np.testing.assert_allclose(x.grad.numpy(), grad_x, rtol=1e-5)


def test_mutation_after_a_retained_backward_is_caught_by_the_next_one():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = x.exp()
    e.sum().backward(retain_graph=True)
    e.detach().zero_()
    assert_backward_raises(Stale("3", "Exp"), lambda: e.sum().backward())


SAVED_DETACHED = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead"
)


@pytest.mark.parametrize(
    "forward",
    [
        lambda a, w: a.log(),  # saves its input alone
        lambda a, w: a * w,  # saves both inputs (argument 0 is the detached one)
        lambda a, w: w * a,  # ... argument 1 is
    ],
    ids=["log", "mul-self", "mul-other"],
)
def test_saved_input_detached_in_place_raises_in_every_saved_layout(forward):
    # Each saved layout backward checks without a loop (the packers' common cases) must still
    # see that a saved input with history lost it (texts from PyTorch 2.13).
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    a = x * 1
    out = forward(a, w)
    a.detach_()
    with pytest.raises(RuntimeError, match=re.escape(SAVED_DETACHED)):
        out.sum().backward()
