"""Two inputs saved by a bilinear op at version 0 (``mul``, ``mm``): every rule still holds.

minigrad keeps such a save compactly (autograd/saved.py, "the compact pair": the two arrays
alone, whether each input had history read from its edge). These programs reach that form
(both inputs need a gradient, neither was written or had a counter made) and check what each
field of the full form decided: the had-history test after ``detach_()`` (a result, a leaf),
the version test (a write, a write undone), the producer named in the message, the buffer
swapped through ``.data``, saved-tensor hooks, the saved attributes, freeing after backward.
Every expected value and message is what PyTorch 2.13 printed for the same program
(MINIGRAD_TEST_REFERENCE=torch runs them against it).
"""

import pytest
from _backend import mg, text

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
DETACHED = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is "
    "not supported, please use out-of-place `.detach()` instead"
)
TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


def _stale(shape: str, producer: str | None, version: int) -> str:
    which = "" if producer is None else f", which is output 0 of {producer},"
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [{shape}]]{which} is at version {version}; expected "
        f"version 0 instead. {HINT}"
    )


def _leaves():
    return (mg.tensor([1.0, 2.0], requires_grad=True),
            mg.tensor([3.0, 4.0], requires_grad=True))


def _backward_error(y) -> str:
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    return str(excinfo.value)


@pytest.mark.parametrize("op", ["mul", "matmul"])
def test_an_input_with_history_detached_in_place_since_raises(op):
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = mg.tensor([[1.0, 0.5], [2.0, 1.0]], requires_grad=True)
    h = x * 1  # a result: it had history when saved
    y = w * h if op == "mul" else w @ h
    h.detach_()
    assert _backward_error(y) == DETACHED


def test_a_leaf_detached_in_place_since_is_used_as_it_is():
    a, b = _leaves()
    y = a * b
    a.detach_()  # a leaf had no history: nothing to complain about
    y.sum().backward()
    assert a.grad is None
    assert b.grad.tolist() == [1.0, 2.0]


def test_a_write_undone_is_still_caught():
    a, b = _leaves()
    y = a * b
    with mg.no_grad():
        a.add_(1)
        a.sub_(1)
    assert _backward_error(y) == _stale("2", None, 2)


@pytest.mark.parametrize(
    ("make", "write", "producer"),
    [
        (lambda x: x * 2, lambda h: h.exp_(), "Exp"),  # its producer now, not when saved
        (lambda x: x.exp(), lambda h: h.mul_(3), "Mul"),  # a result its node saved too
    ],
    ids=["product", "saved result"],
)
def test_the_message_names_the_current_producer(make, write, producer):
    x, w = _leaves()
    h = make(x)
    y = h * w
    write(h)
    assert _backward_error(y) == _stale("2", producer, 1)


def test_a_matrix_product_checks_both_inputs():
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = mg.tensor([[1.0, 0.5], [2.0, 1.0]], requires_grad=True)
    y = a @ b
    with mg.no_grad():
        b.mul_(2)
    assert _backward_error(y) == _stale("2, 2", None, 1)


def test_a_buffer_swapped_through_data_is_what_backward_uses():
    a, b = _leaves()
    y = a * b
    a.data = mg.tensor([10.0, 20.0])  # not a write: PyTorch's documented hole
    y.sum().backward()
    assert a.grad.tolist() == [3.0, 4.0]
    assert b.grad.tolist() == [10.0, 20.0]


def test_a_buffer_swapped_for_another_shape_gives_the_broadcast_error():
    a, b = _leaves()
    y = a * b
    b.data = mg.tensor([10.0, 20.0, 30.0])
    assert _backward_error(y) == (
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
        "dimension 0"
    )


def test_the_saved_attributes_are_the_inputs_themselves():
    a, b = _leaves()
    y = a * b
    assert y.grad_fn._saved_self is a
    assert y.grad_fn._saved_other is b
    assert a._version == 0
    y.sum().backward()
    assert a.grad.tolist() == [3.0, 4.0]  # (reading them made counters: still clean)
    with pytest.raises(RuntimeError) as excinfo:
        _ = y.grad_fn._saved_self
    assert str(excinfo.value) == TWICE


def test_saved_tensor_hooks_on_one_of_the_pair():
    a, b = _leaves()
    y = a * b
    y.grad_fn._raw_saved_other.register_hooks(lambda t: t * 10, lambda t: t)
    with mg.no_grad():
        b.add_(1)  # kept through the hooks: no longer version-checked
    y.sum().backward()
    assert a.grad.tolist() == [30.0, 40.0]
    assert b.grad.tolist() == [1.0, 2.0]


def test_retain_graph_then_freed():
    a, b = _leaves()
    y = (a * b).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert a.grad.tolist() == [6.0, 8.0]
    assert b.grad.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError) as excinfo:
        y.backward()
    assert str(excinfo.value) == TWICE


def test_a_gradient_through_the_pair_with_create_graph():
    a, b = _leaves()
    (ga,) = mg.autograd.grad((a * b).sum(), a, create_graph=True)
    assert ga.grad_fn.name() == "MulBackward0"
    ga.sum().backward()
    assert ga.tolist() == [3.0, 4.0]
    assert b.grad.tolist() == [1.0, 1.0]
