"""PyTorch's functions made of views and cat, and the new math ops: what the op table cannot hold.

Every expected value and text here is what PyTorch 2.13 printed for the same program.
"""
import math
import warnings

import pytest
from _backend import mg, text
from _cases import parametrize_in_one


def test_meshgrid_without_indexing_is_ij():
    # (its once-per-process warning: tests/test_warnings_once.py)
    x, y = mg.tensor([1.0, 2.0, 3.0]), mg.tensor([4.0, 5.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows, cols = mg.meshgrid(x, y)
    assert rows.tolist() == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert cols.tolist() == [[4.0, 5.0], [4.0, 5.0], [4.0, 5.0]]


@parametrize_in_one(("call", "message"), [
    (lambda: mg.meshgrid(mg.ones(2), mg.ones(2, dtype=mg.float64), indexing="ij"),
     "meshgrid expects all tensors to have the same dtype"),
    (lambda: mg.meshgrid(indexing="ij"), "meshgrid expects a non-empty TensorList"),
    (lambda: mg.meshgrid(mg.ones(2), indexing="zz"),
     'torch.meshgrid: indexing must be one of "xy" or "ij", but received: zz'),
    (lambda: mg.hstack([]), "hstack expects a non-empty TensorList"),
    (lambda: mg.column_stack([]), "column_stack expects a non-empty TensorList"),
    (lambda: mg.diff(mg.tensor(1.0)), "diff expects input to be at least one-dimensional"),
    (lambda: mg.diff(mg.ones(3), n=-1), "order must be non-negative but got -1"),
    (lambda: mg.diff(mg.ones(3), prepend=mg.tensor(1.0)),
     "diff expects prepend or append to be the same dimension as input"),
    (lambda: mg.trace(mg.ones(2, 2, 2)), "trace: expected a matrix, but got tensor with dim 3"),
    (lambda: mg.broadcast_shapes((2,), (3,)),
     "Attempting to broadcast a dimension of length 3 at -1! Mismatching argument at index 1 "
     "had (3,); but expected shape should be broadcastable to [2]"),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError) as excinfo:
        call()
    assert str(excinfo.value) == message


def test_broadcast_shapes_takes_ints_sequences_and_none():
    assert mg.broadcast_shapes(2, (3, 1), None, [1, 1, 1]) == mg.Size([1, 3, 2])
    assert repr(mg.broadcast_shapes((2, 1), (3,))) == text("minigrad.Size([2, 3])")


def test_broadcast_tensors_returns_a_tensor_of_the_common_shape_itself():
    x = mg.ones(3, requires_grad=True)
    same, expanded = mg.broadcast_tensors(x, mg.ones(2, 1))
    assert same is not x and expanded.grad_fn is None
    assert same.grad_fn.name() == "ExpandBackward0"
    assert mg.broadcast_tensors(x, x)[0] is x


def test_atleast_returns_a_tuple_for_several_or_none():
    x = mg.tensor([1.0, 2.0, 3.0])
    one, two = mg.atleast_1d(x, mg.tensor(2.0))
    assert one is x and two.tolist() == [2.0]
    assert mg.atleast_2d() == ()
    assert mg.atleast_1d([x])[0] is x
    assert tuple(mg.atleast_3d(x).shape) == (1, 3, 1)


def test_trace_of_integers_is_int64_and_bools_have_no_kernel():
    assert mg.tensor([[1, 2], [3, 4]], dtype=mg.int32).trace().dtype == mg.int64
    with pytest.raises(NotImplementedError) as excinfo:
        mg.trace(mg.ones(2, 3, dtype=mg.bool))
    assert str(excinfo.value) == "\"trace\" not implemented for 'Bool'"


def test_trace_gradient_of_inf_is_zero_off_the_diagonal():
    m = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (grad,) = mg.autograd.grad(m.trace(), m, mg.tensor(float("inf")))
    assert grad.tolist() == [[math.inf, 0.0], [0.0, math.inf]]


def test_diff_of_order_zero_is_a_copy_and_of_bools_is_xor():
    x = mg.tensor([1.0, 4.0, 9.0], requires_grad=True)
    copy = x.diff(n=0)
    assert copy.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert copy.tolist() == [1.0, 4.0, 9.0]
    assert mg.diff(mg.tensor([True, False, True])).tolist() == [True, True]
    assert mg.diff(x, n=5).shape == (0,)


def test_xlogy_with_a_number_saves_it_as_given():
    y = mg.tensor([0.0, 2.0, -1.0], requires_grad=True)
    out = mg.xlogy(y, 0)
    assert out.grad_fn.name() == "XlogyBackward2"
    assert out.grad_fn._saved_other == 0 and type(out.grad_fn._saved_other) is int
    out.sum().backward()
    assert y.grad.tolist() == [0.0, -math.inf, -math.inf]
    first = mg.xlogy(2, y)
    assert first.grad_fn.name() == "XlogyBackward1" and first.grad_fn._saved_self == 2
    with pytest.raises(TypeError) as excinfo:
        mg.xlogy(2.5, True)
    assert str(excinfo.value).startswith(
        "xlogy() received an invalid combination of arguments - got (float, bool), but "
        "expected one of:")


def test_xlogy_nan_and_zero():
    out = mg.xlogy(mg.tensor([0.0, 0.0, 1.0]), mg.tensor([float("nan"), 0.0, 0.0]))
    assert math.isnan(out[0].item()) and out[1:].tolist() == [0.0, -math.inf]


def test_logit_gradient_at_the_edges():
    z = mg.tensor([0.5, 0.0, 1.0, 1.5, -0.0], requires_grad=True)
    mg.logit(z).backward(mg.ones(5))
    assert z.grad[:3].tolist() == [4.0, math.inf, math.inf]
    assert math.isnan(z.grad[3].item()) and z.grad[4].item() == math.inf
    z.grad = None
    out = mg.logit(z, eps=0.25)
    assert out.grad_fn._saved_eps == 0.25 and mg.logit(z).grad_fn._saved_eps is None
    out.backward(mg.ones(5))
    assert z.grad.tolist() == [4.0, 0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", ["asinh_", "acosh_", "atanh_", "arcsinh_"])
def test_inverse_hyperbolic_in_place_has_no_derivative(name):
    x = mg.tensor([0.5, 0.2], requires_grad=True)
    y = x.clone() + 1 if name == "acosh_" else x.clone()
    getattr(y, name)()
    op = name.removeprefix("arc").removesuffix("_")
    op = {"sinh": "asinh"}.get(op, op)
    assert y.grad_fn.name() == f"{op.capitalize()}Backward1"
    with pytest.raises(NotImplementedError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == f"the derivative for 'inplace version of {op}' is not implemented."
