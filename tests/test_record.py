"""The recording routine: which outputs get a history, what in-place ops save and when.

Every expected value and text here is what PyTorch 2.13 printed for the same program (run with
MINIGRAD_TEST_REFERENCE=torch to check them against PyTorch itself).
"""
import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"
HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)


def stale(clause: str) -> str:
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [3]]{clause} is at version 1; expected version 0 "
        f"instead. {HINT}"
    )


# --- only floating-point outputs get a grad_fn ---------------------------------------------------

NON_FLOAT_RESULTS = [
    ("long", lambda a: a.long(), "int64"),
    ("int", lambda a: a.int(), "int32"),
    ("bool", lambda a: a.bool(), "bool"),
    ("to int64", lambda a: a.to(mg.int64), "int64"),
    ("argmax", lambda a: a.argmax(), "int64"),
    ("max indices", lambda a: a.max(0)[1], "int64"),
    ("sort indices", lambda a: a.sort()[1], "int64"),
    ("gt", lambda a: a > 0, "bool"),
    ("eq", lambda a: a == a, "bool"),
    ("lt", lambda a: a.lt(1.0), "bool"),
]


@parametrize_in_one(("name", "make", "dtype"), NON_FLOAT_RESULTS,
                         ids=[row[0] for row in NON_FLOAT_RESULTS])
def test_a_non_float_result_of_a_tensor_that_requires_grad_has_no_history(name, make, dtype):
    a = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = make(a)
    assert y.dtype == getattr(mg, dtype)
    assert y.grad_fn is None
    assert not y.requires_grad
    assert y.is_leaf


@parametrize_in_one(("name", "make", "dtype"), NON_FLOAT_RESULTS,
                         ids=[row[0] for row in NON_FLOAT_RESULTS])
def test_backward_from_a_non_float_result_raises_and_fills_no_grad(name, make, dtype):
    a = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as error:
        (make(a) * 2).sum().backward()
    assert str(error.value) == NO_GRAD_FN
    assert a.grad is None


# Writes into an integer tensor of a value that requires grad. ``copy_`` (and so every
# assignment PyTorch makes a copy_) records nothing into a dtype that cannot have a gradient;
# ``fill_`` records even there, in PyTorch too (its node on the tensor or, through a view,
# CopySlices on the base). Expected: PyTorch 2.13's grad_fn names.
INTEGER_WRITES = [
    ("t[1] = x[0]", lambda t, x: t.__setitem__(1, x[0]), None),
    ("t[0:2] = x[:2]", lambda t, x: t.__setitem__(slice(0, 2), x[:2]), None),
    ("t[...] = x", lambda t, x: t.__setitem__(Ellipsis, x), None),
    ("t[None] = x", lambda t, x: t.__setitem__(None, x), None),
    ("t[1] = x.sum()", lambda t, x: t.__setitem__(1, x.sum()), None),
    ("t.copy_(x)", lambda t, x: t.copy_(x), None),
    ("t[1:] = x.sum()", lambda t, x: t.__setitem__(slice(1, None), x.sum()),
     "torch::autograd::CopySlices"),
    ("t.fill_(x.sum())", lambda t, x: t.fill_(x.sum()), "FillBackward3"),
]


@pytest.mark.parametrize(("name", "write", "node"), INTEGER_WRITES,
                         ids=[row[0] for row in INTEGER_WRITES])
def test_a_write_into_an_integer_tensor_records_what_pytorchs_records(name, write, node):
    t = mg.zeros(3, dtype=mg.int64)
    write(t, mg.ones(3, requires_grad=True))
    assert (None if t.grad_fn is None else t.grad_fn.name()) == node
    assert t.requires_grad == (node is not None)
    assert t._version == 1


def test_the_float_values_of_a_multi_output_op_keep_their_history():
    a = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    values, indices = a.sort()
    assert values.grad_fn.name() == "SortBackward0"
    assert indices.grad_fn is None
    values.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 1.0, 1.0])


# --- an in-place op saves its other operand before the write ----------------------------------


def test_mul_by_itself_in_place_then_backward_raises():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 1
    x.mul_(x)
    with pytest.raises(RuntimeError) as error:
        x.sum().backward()
    assert str(error.value) == stale(", which is output 0 of Mul,")


def test_div_by_itself_in_place_then_backward_raises():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t2 = a * 2
    t2 /= t2
    with pytest.raises(RuntimeError) as error:
        t2.sum().backward()
    assert str(error.value) == stale(", which is output 0 of Div,")


def test_div_of_a_sum_by_itself_in_place_then_backward_raises():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor([1.0, 2.0, 4.0], requires_grad=True)
    t3 = a + b
    t3.div_(t3)
    with pytest.raises(RuntimeError) as error:
        t3.sum().backward()
    assert str(error.value) == stale(", which is output 0 of Div,")


def test_detached_alias_divided_in_place_by_its_source_raises():
    # The alias shares the source's counter: the saved divisor is stale after the write.
    t0 = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t2 = t0.detach()
    t2.div_(t0)
    with pytest.raises(RuntimeError) as error:
        t2.backward(mg.ones_like(t2))
    assert str(error.value) == stale("")
    assert t0.grad is None


def test_mul_in_place_by_a_detached_alias_raises():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 1
    x.mul_(x.detach())
    with pytest.raises(RuntimeError) as error:
        x.sum().backward()
    assert str(error.value) == stale("")


def test_add_by_itself_in_place_saves_nothing_and_backward_runs():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 1
    x.add_(x)
    x.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0, 2.0])


def test_mul_in_place_by_another_tensor_still_works():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    x = a * 1
    x.mul_(b)
    x.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 2.0, 3.0])


# --- ctx.set_materialize_grads(False) --------------------------------------------------------


class TwoOutputs(mg.autograd.Function):
    """(2x, 3x); records which gradients backward received as None."""

    received: list = []

    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, grad_doubled, grad_tripled):
        TwoOutputs.received.append((grad_doubled is None, grad_tripled is None))
        if grad_doubled is None:
            return grad_tripled * 3, None
        return grad_doubled * 2 + grad_tripled * 3, None


def test_set_materialize_grads_false_hands_none_to_backward():
    TwoOutputs.received.clear()
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    _, tripled = TwoOutputs.apply(x, False)
    tripled.sum().backward()
    assert TwoOutputs.received == [(True, False)]
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_by_default_missing_gradients_reach_backward_as_zeros():
    TwoOutputs.received.clear()
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    _, tripled = TwoOutputs.apply(x, True)
    tripled.sum().backward()
    assert TwoOutputs.received == [(False, False)]
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
