"""Saved tensors whose version counter is made only after they were saved.

An op result that was never viewed, detached or written has no counter object yet, and saving
it makes none (autograd/saved.py keeps the tensor and reads its counter at unpack time). Every
later way of writing to it must still be caught, and the saved tensor must stay the very object
the user had, as in PyTorch (which keeps the Python object alive with the graph). Every expected
value and message here is what PyTorch 2.13 printed for the same program
(MINIGRAD_TEST_REFERENCE=torch runs them against it).
"""

import gc
import weakref

import pytest
from _backend import mg, text

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)


def _stale(shape: int, node: str, version: int) -> str:
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [{shape}]], which is output 0 of {node}, is at "
        f"version {version}; expected version 0 instead. {HINT}"
    )


def _saved_product():
    """``y = x * w`` with ``x = a * 2``: ``x`` is saved by Mul while it has no counter yet."""
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = mg.tensor([0.5, 0.5, 0.5], requires_grad=True)
    x = a * 2
    return a, x, x * w


@pytest.mark.parametrize(
    ("write", "node", "version"),
    [
        (lambda x: x.add_(1), "Add", 1),
        (lambda x: x.view(3).add_(1), "torch::autograd::CopySlices", 1),  # a view made after
        (lambda x: x.detach().add_(1), "Mul", 1),  # an alias made after: it shares the counter
        (lambda x: x[1:].mul_(2), "torch::autograd::CopySlices", 1),
        (lambda x: (x.add_(1), x.sub_(1)), "Sub", 2),  # written back: still stale
    ],
    ids=["in place", "through a later view", "through a later detach", "a slice", "restored"],
)
def test_a_write_after_saving_is_caught_by_a_counter_made_after_saving(write, node, version):
    _, x, y = _saved_product()
    write(x)
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == _stale(3, node, version)


def test_views_and_aliases_made_after_saving_do_not_count_as_writes():
    a, x, y = _saved_product()
    x.view(3)
    x.detach()
    x[0]
    y.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_write_through_data_is_not_caught_as_in_pytorch():
    a, x, y = _saved_product()
    x.data.add_(1)  # a fresh counter: PyTorch's documented hole
    y.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 1.0]


def test_the_saved_input_is_the_users_tensor_even_after_its_name_is_gone():
    _, x, y = _saved_product()
    alive = weakref.ref(x)
    assert y.grad_fn._saved_self is x
    del x
    gc.collect()
    saved = y.grad_fn._saved_self
    assert alive() is saved  # the graph keeps the very object alive, as PyTorch's does
    assert y.grad_fn._saved_self is saved
    assert saved._version == 0
    saved.detach().mul_(3)
    assert saved._version == 1
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == _stale(3, "Mul", 1)


@pytest.mark.parametrize(
    "write",
    [lambda e: e.add_(1), lambda e: e.detach().zero_(), lambda e: e[0:1].mul_(2)],
    ids=["in place", "through detach", "through a view"],
)
def test_a_write_to_a_saved_result_is_caught(write):
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    assert e.grad_fn._saved_result._version == 0
    write(e)
    with pytest.raises(RuntimeError) as excinfo:
        e.sum().backward()
    assert str(excinfo.value) == _stale(2, "Exp", 1)


# What a saved *result* must keep if its counter were made only on first need, as an input's
# is (benchmarks/README.md, "Branch gccount": one tracked object per op that saves its result).
# The result's tensor may have lost its name or its history before the write, and the write may
# come through the alias ``_saved_result`` hands out: each must still reach the node's check.


def _detach_in_place_then_write(e):
    e.detach_()  # the result leaves the graph, its buffer and counter stay the node's
    e.add_(1)


def _drop_the_name_then_write_through_a_view(e):
    view = e[0:1]
    del e
    view.mul_(2)


@pytest.mark.parametrize(
    "write",
    [
        _detach_in_place_then_write,
        lambda e: e.grad_fn._saved_result.detach().mul_(2),
        _drop_the_name_then_write_through_a_view,
    ],
    ids=["after detach_", "through the saved result's alias", "through a view, name gone"],
)
@pytest.mark.parametrize(("op", "node"), [("exp", "Exp"), ("sigmoid", "Sigmoid")])
def test_a_write_to_a_saved_result_that_left_the_users_hands_is_caught(write, op, node):
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = getattr(a, op)()
    total = e.sum()  # its backward runs through the node that saved e
    write(e)
    with pytest.raises(RuntimeError) as excinfo:
        total.backward()
    assert str(excinfo.value) == _stale(2, node, 1)


def test_the_saved_results_alias_and_the_result_share_one_counter_both_ways():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    alias = e.grad_fn._saved_result
    e.add_(1)
    assert (alias._version, e._version) == (1, 1)
    f = a.exp()
    alias = f.grad_fn._saved_result
    alias.detach().add_(1)
    assert (alias._version, f._version) == (1, 1)
