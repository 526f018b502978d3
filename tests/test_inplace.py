"""In-place operations: the leaf rule, history rebasing, what in-place ops save, refused writes.

Every expected value and text here is what PyTorch 2.13 printed for the same program.
"""
import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
# PyTorch names this node with its C++ namespace. minigrad keeps the name verbatim (it is the
# node's name, like "AddBackward0", not a reference to a Python object), so text() is not applied.
COPY_BACKWARDS = "torch::autograd::CopyBackwards"


def stale_output(node: str, version: int, expected: int) -> str:
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [3]], which is output 0 of {node}, is at version "
        f"{version}; expected version {expected} instead. {HINT}"
    )


def _iadd(t):
    t += 1


def _imul(t):
    t *= 2


LEAF_WRITES = [
    ("add_", lambda t: t.add_(1)),
    ("mul_", lambda t: t.mul_(2)),
    ("zero_", lambda t: t.zero_()),
    ("fill_", lambda t: t.fill_(5.0)),
    ("copy_", lambda t: t.copy_(mg.tensor([7.0, 8.0, 9.0]))),
    ("exp_", lambda t: t.exp_()),
    ("normal_", lambda t: t.normal_()),
    ("+=", _iadd),
    ("*=", _imul),
]


@pytest.mark.parametrize(("name", "write"), LEAF_WRITES, ids=[r[0] for r in LEAF_WRITES])
def test_inplace_on_leaf_that_requires_grad_raises_and_changes_nothing(name, write):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as excinfo:
        write(x)
    assert str(excinfo.value) == LEAF_INPLACE
    assert x.detach().tolist() == [1.0, 2.0, 3.0]
    assert x._version == 0


def test_setitem_on_leaf_that_requires_grad_raises_the_view_text():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as excinfo:
        x[0] = 5.0
    # x[0] = v writes through a view of x, hence "a view of a leaf".
    assert str(excinfo.value) == (
        "a view of a leaf Variable that requires grad is being used in an in-place operation."
    )
    assert x.detach().tolist() == [1.0, 2.0, 3.0]
    assert x._version == 0


def test_inplace_on_leaf_is_allowed_under_no_grad():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.no_grad():
        x.add_(1)
        x *= 2
    assert x.detach().tolist() == [4.0, 6.0, 8.0]
    assert x._version == 2
    assert (x.is_leaf, x.requires_grad, x.grad_fn) == (True, True, None)


def test_inplace_on_leaf_that_does_not_require_grad_is_allowed():
    x = mg.tensor([1.0, 2.0, 3.0])
    x.add_(1)
    assert x.tolist() == [2.0, 3.0, 4.0]
    assert (x.is_leaf, x.requires_grad, x.grad_fn) == (True, False, None)


def test_inplace_on_non_leaf_rebases_its_history():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 2
    x.add_(1)
    assert x.grad_fn.name() == "AddBackward0"
    (prev, prev_nr), (scalar, scalar_nr) = x.grad_fn.next_functions
    assert (prev.name(), prev_nr) == ("MulBackward0", 0)
    assert (scalar, scalar_nr) == (None, 0)  # the Python scalar 1 is an input without grad
    assert x.is_leaf is False
    assert x._version == 1
    assert x.detach().tolist() == [3.0, 5.0, 7.0]
    x.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0]


def test_add_after_mul_works_because_add_saves_nothing():
    # Some tutorials claim this raises; it does not.
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.add_(1)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    assert y.detach().tolist() == [3.0, 5.0, 7.0]


def test_inplace_on_non_leaf_under_no_grad_is_not_recorded():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with mg.no_grad():
        y.mul_(10)
    assert y.grad_fn.name() == "MulBackward0"
    assert y._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]  # not 20: the mul_ is invisible to autograd


def test_inplace_with_an_operand_that_requires_grad_makes_a_plain_tensor_require_grad():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = mg.zeros(3)
    t.add_(x)
    assert (t.requires_grad, t.is_leaf, t.grad_fn.name()) == (True, False, "AddBackward0")
    (first, _), (second, _) = t.grad_fn.next_functions
    assert first is None
    assert type(second).__name__ == "AccumulateGrad"
    (t * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


# In-place op -> the grad_fn name it records on a non-leaf.
INPLACE_NAMES = [
    ("add_", lambda t: t.add_(1), "AddBackward0"),
    ("add_(tensor)", lambda t: t.add_(mg.ones(3)), "AddBackward0"),
    ("sub_", lambda t: t.sub_(1), "SubBackward0"),
    ("mul_", lambda t: t.mul_(2), "MulBackward0"),
    ("div_", lambda t: t.div_(2), "DivBackward0"),
    ("pow_", lambda t: t.pow_(2), "PowBackward0"),
    ("pow_(tensor)", lambda t: t.pow_(mg.full((3,), 2.0)), "PowBackward1"),
    ("clamp_", lambda t: t.clamp_(0, 1), "ClampBackward1"),
    ("copy_", lambda t: t.copy_(mg.ones(3)), COPY_BACKWARDS),
    ("zero_", lambda t: t.zero_(), "ZeroBackward0"),
    ("fill_", lambda t: t.fill_(5), "FillBackward2"),
    ("fill_(tensor)", lambda t: t.fill_(mg.tensor(5.0)), "FillBackward3"),
    ("normal_", lambda t: t.normal_(), "NormalBackward0"),
    ("uniform_", lambda t: t.uniform_(), "UniformBackward0"),
    ("exp_", lambda t: t.exp_(), "ExpBackward0"),
    ("sigmoid_", lambda t: t.sigmoid_(), "SigmoidBackward0"),
    ("tanh_", lambda t: t.tanh_(), "TanhBackward0"),
    ("relu_", lambda t: t.relu_(), "ReluBackward0"),
    ("neg_", lambda t: t.neg_(), "NegBackward0"),
    ("masked_fill_", lambda t: t.masked_fill_(mg.tensor([True, False, True]), 0.0),
     "MaskedFillBackward0"),
    ("scatter_", lambda t: t.scatter_(0, mg.tensor([0, 2]), mg.tensor([9.0, 8.0])),
     "ScatterBackward0"),
    ("+=", lambda t: t.__iadd__(1), "AddBackward0"),
    ("-=", lambda t: t.__isub__(1), "SubBackward0"),
    ("*=", lambda t: t.__imul__(2), "MulBackward0"),
    ("/=", lambda t: t.__itruediv__(2), "DivBackward0"),
    ("setitem", lambda t: t.__setitem__(0, 5.0), "torch::autograd::CopySlices"),
]


@parametrize_in_one(("name", "op", "node"), INPLACE_NAMES, ids=[r[0] for r in INPLACE_NAMES])
def test_grad_fn_name_recorded_by_each_inplace_op(name, op, node):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    op(t)
    assert t.grad_fn.name() == node
    assert t._version == 1


def test_copy_sends_gradient_to_the_source_and_none_to_the_old_values():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    t = a * 1
    t.copy_(b * 2)
    assert t.detach().tolist() == [8.0, 10.0, 12.0]
    assert [fn.name() for fn, _ in t.grad_fn.next_functions] == ["MulBackward0", "MulBackward0"]
    t.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]
    assert b.grad.tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize(
    "op", [lambda t: t.zero_(), lambda t: t.fill_(5.0)], ids=["zero_", "fill_"]
)
def test_overwriting_ops_send_zero_gradient_to_the_old_values(op):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 3
    op(t)
    ((prev, _),) = t.grad_fn.next_functions
    assert prev.name() == "MulBackward0"
    t.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]


# These in-place ops save their result (the tensor itself): a later in-place op breaks backward.
SAVE_RESULT = [
    ("exp_", lambda t: t.exp_(), "Exp"),
    ("sigmoid_", lambda t: t.sigmoid_(), "Sigmoid"),
    ("tanh_", lambda t: t.tanh_(), "Tanh"),
    ("relu_", lambda t: t.relu_(), "Relu"),
    ("sqrt_", lambda t: t.sqrt_(), "Sqrt"),
]


@pytest.mark.parametrize(("name", "op", "node"), SAVE_RESULT, ids=[r[0] for r in SAVE_RESULT])
def test_inplace_op_that_saves_its_result_is_broken_by_a_second_inplace_op(name, op, node):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    op(t)
    t.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        t.sum().backward()
    assert str(excinfo.value) == stale_output(node, version=2, expected=1)
    assert a.grad is None


def test_saved_result_message_names_the_saving_node_not_the_current_grad_fn():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    t.exp_()
    t.mul_(2)
    assert t.grad_fn.name() == "MulBackward0"
    with pytest.raises(RuntimeError) as excinfo:
        t.sum().backward()
    assert str(excinfo.value) == stale_output("Exp", version=2, expected=1)


def test_saved_result_of_inplace_op_is_checked_also_after_a_no_grad_write():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    t.exp_()
    u = t * 2
    with mg.no_grad():
        t.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        u.sum().backward()
    assert str(excinfo.value) == stale_output("Exp", version=2, expected=1)


def test_exp_inplace_alone_backpropagates():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    t.exp_()
    ((prev, _),) = t.grad_fn.next_functions
    assert prev.name() == "MulBackward0"
    t.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.7182817, 7.3890562, 20.085537], rtol=1e-6)


# These keep a copy of the original self (or save nothing), so a later add_ is harmless.
KEEP_ORIGINAL = [
    ("mul_", lambda t: t.mul_(2), [2.0, 2.0, 2.0]),
    ("mul_(tensor)", lambda t: t.mul_(mg.tensor([2.0, 3.0, 4.0])), [2.0, 3.0, 4.0]),
    ("div_", lambda t: t.div_(2), [0.5, 0.5, 0.5]),
    ("pow_", lambda t: t.pow_(2), [2.0, 4.0, 6.0]),
    ("clamp_", lambda t: t.clamp_(1.5, 2.5), [0.0, 1.0, 0.0]),
    ("log_", lambda t: t.log_(), [1.0, 0.5, 0.33333334]),
    ("abs_", lambda t: t.abs_(), [1.0, 1.0, 1.0]),
    ("neg_", lambda t: t.neg_(), [-1.0, -1.0, -1.0]),
    ("add_", lambda t: t.add_(1), [1.0, 1.0, 1.0]),
]


@pytest.mark.parametrize(("name", "op", "grad"), KEEP_ORIGINAL, ids=[r[0] for r in KEEP_ORIGINAL])
def test_inplace_op_that_keeps_the_original_self_survives_a_later_add(name, op, grad):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t = a * 1
    op(t)
    t.add_(1)
    t.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), grad, rtol=1e-6)


def test_mul_inplace_keeps_original_self_for_the_other_operands_gradient():
    a = mg.tensor([1.0, 2.0, 3.0])
    y = mg.tensor([2.0, 3.0, 4.0], requires_grad=True)
    t = a * 1
    t.mul_(y)
    t.add_(1)
    t.sum().backward()
    assert y.grad.tolist() == [1.0, 2.0, 3.0]  # the values of t before mul_, not after add_


def test_mul_inplace_saves_its_operand():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([2.0, 3.0, 4.0])
    t = a * 1
    t.mul_(y)
    y.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        t.sum().backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [3]] is at version 1; expected version 0 instead. {HINT}"
    )


# (in-place write on a tensor that cannot hold its result, PyTorch's text)
REFUSED_DTYPE = [
    ("int.add_(1.5)", lambda: mg.tensor([1, 2, 3]), lambda t: t.add_(1.5),
     "result type Float can't be cast to the desired output type Long"),
    ("int.mul_(2.5)", lambda: mg.tensor([1, 2, 3]), lambda t: t.mul_(2.5),
     "result type Float can't be cast to the desired output type Long"),
    ("int.div_(2)", lambda: mg.tensor([1, 2, 3]), lambda t: t.div_(2),
     "result type Float can't be cast to the desired output type Long"),
    ("int += 1.5", lambda: mg.tensor([1, 2, 3]), lambda t: t.__iadd__(1.5),
     "result type Float can't be cast to the desired output type Long"),
    ("int.add_(float tensor)", lambda: mg.tensor([1, 2, 3]),
     lambda t: t.add_(mg.tensor([1.5, 1.0, 1.0])),
     "result type Float can't be cast to the desired output type Long"),
    ("bool.add_(1)", lambda: mg.tensor([True, False, True]), lambda t: t.add_(1),
     "result type Long can't be cast to the desired output type Bool"),
]


@pytest.mark.parametrize(("name", "make", "write", "message"), REFUSED_DTYPE,
                         ids=[r[0] for r in REFUSED_DTYPE])
def test_dtype_incompatible_inplace_raises_and_changes_nothing(name, make, write, message):
    t = make()
    before = t.tolist()
    with pytest.raises(RuntimeError) as excinfo:
        write(t)
    assert str(excinfo.value) == message
    assert t.tolist() == before
    assert t._version == 0


def test_float_inplace_with_float64_operand_keeps_float32():
    t = mg.tensor([1.0, 2.0, 3.0])
    t.add_(mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64))
    assert t.dtype == mg.float32
    assert t.tolist() == [2.0, 4.0, 6.0]
    assert t._version == 1


def test_int_inplace_with_int_scalar_is_fine():
    t = mg.tensor([1, 2, 3])
    t.add_(2)
    assert (t.tolist(), t.dtype, t._version) == ([3, 4, 5], mg.int64, 1)


REFUSED_SHAPE = [
    ("[3] += [2, 3]", [1.0, 2.0, 3.0], (2, 3),
     "output with shape [3] doesn't match the broadcast shape [2, 3]"),
    ("[1, 3] += [2, 3]", [[1.0, 2.0, 3.0]], (2, 3),
     "output with shape [1, 3] doesn't match the broadcast shape [2, 3]"),
    ("[3] += [2]", [1.0, 2.0, 3.0], (2,),
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
]


@pytest.mark.parametrize(("name", "values", "other_shape", "message"), REFUSED_SHAPE,
                         ids=[r[0] for r in REFUSED_SHAPE])
def test_shape_incompatible_inplace_raises_and_changes_nothing(name, values, other_shape, message):
    t = mg.tensor(values)
    with pytest.raises(RuntimeError) as excinfo:
        t.add_(mg.ones(*other_shape))
    assert str(excinfo.value) == message
    assert t.tolist() == values
    assert t._version == 0


def test_inplace_with_a_broadcastable_smaller_operand_is_fine():
    t = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    t.add_(mg.tensor([10.0, 20.0, 30.0]))
    assert t.tolist() == [[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]
    assert t._version == 1


@pytest.mark.parametrize("method", ["add_", "sub_"])
def test_a_scaled_in_place_add_with_nothing_recorded_writes_every_layout(method):
    # Nothing recorded: the op computes straight into the tensor (record.py's WritingContext).
    sign = 1.0 if method == "add_" else -1.0
    base = mg.arange(6.0).reshape(2, 3)
    column = base[:, 1]  # a non-contiguous view: the write lands in the base
    getattr(column, method)(mg.tensor([1.0, 2.0]), alpha=3)
    assert base.tolist() == [[0.0, 1.0 + sign * 3, 2.0], [3.0, 4.0 + sign * 6, 5.0]]
    assert base._version == column._version == 1
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        getattr(x, method)(x, alpha=2)  # the other operand is the written tensor itself
    assert x.tolist() == [1.0 + sign * 2, 2.0 + sign * 4] and x._version == 1
    y = mg.tensor([1.0, 2.0])
    getattr(y, method)(mg.tensor([0.5, 0.25], dtype=mg.float64), alpha=2)  # promoted operand
    assert y.dtype == mg.float32 and y.tolist() == [1.0 + sign, 2.0 + sign * 0.5]
    z = mg.ones(1, 2)
    with pytest.raises(RuntimeError):  # the broadcast is larger than z: refused, z unchanged
        getattr(z, method)(mg.ones(2, 2), alpha=2)
    assert z.tolist() == [[1.0, 1.0]] and z._version == 0
