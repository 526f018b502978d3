"""Custom autograd Functions: PyTorch's API running on the machinery built-in ops use.

Every expected value and message was printed by PyTorch 2.13 for the same program.
"""

import re

import numpy as np
import pytest
from _backend import mg, text

Function = mg.autograd.Function


class Scale(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        ctx.seen_needs = ctx.needs_input_grad
        return x * k

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * ctx.k, None


def test_forward_backward_and_node_name():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = Scale.apply(x, 2.0)
    assert y.grad_fn.name() == "ScaleBackward"
    assert [n.name() for n, _ in y.grad_fn.next_functions] == ["torch::autograd::AccumulateGrad"]
    assert y.grad_fn.seen_needs == (True, False)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_saved_tensors_are_version_checked():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = Scale.apply(x, 2.0)
    with mg.no_grad():
        x.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3]] is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_no_input_requires_grad_records_nothing():
    y = Scale.apply(mg.tensor([1.0, 2.0]), 3.0)
    assert y.grad_fn is None and not y.requires_grad


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_an_input_returned_as_is_comes_back_as_a_view_of_it():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    out = Identity.apply(x)
    assert out is not x
    assert out._base is x
    assert out.grad_fn.name() == "IdentityBackward"
    assert out._version == 0


class DoubleInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def test_mark_dirty_rebases_the_input_and_counts_as_a_write():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    out = DoubleInPlace.apply(b)
    assert out is b
    assert b.grad_fn.name() == "DoubleInPlaceBackward"
    assert b._version == 2  # mul_ inside forward, and mark_dirty itself
    out.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_mark_dirty_on_a_leaf_raises_after_forward_ran():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(
        "a leaf Variable that requires grad has been used in an in-place operation."
    )):
        DoubleInPlace.apply(a)
    assert a.tolist() == [2.0, 4.0]  # as in PyTorch, the forward's own write already happened


class WithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        index = mg.tensor([0])
        ctx.mark_non_differentiable(index)
        return x * 2, index

    @staticmethod
    def backward(ctx, grad, grad_index):
        ctx.grad_index = grad_index.tolist()
        return grad * 2


def test_mark_non_differentiable_and_materialized_zero_gradients():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    out, index = WithIndex.apply(a)
    assert out.requires_grad and not index.requires_grad
    assert index.dtype == mg.int64
    node = out.grad_fn
    out.sum().backward()
    assert node.grad_index == [0]
    assert a.grad.tolist() == [2.0, 2.0]


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class SquareOnce(Square):
    @staticmethod
    @mg.autograd.function.once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def test_custom_backward_is_differentiable_with_create_graph():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = mg.autograd.grad(Square.apply(a).sum(), a, create_graph=True)
    assert g.tolist() == [2.0, 4.0] and g.requires_grad
    (gg,) = mg.autograd.grad(g.sum(), a)
    assert gg.tolist() == [2.0, 2.0]


def test_once_differentiable_gradients_carry_no_history():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = mg.autograd.grad(SquareOnce.apply(a).sum(), a, create_graph=True)
    assert g.tolist() == [2.0, 4.0]
    assert g.requires_grad is False
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad"):
        g.sum().backward()


class TooManyGrads(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        return grad[:1]


@pytest.mark.parametrize(("function", "message"), [
    (TooManyGrads,
     "function TooManyGradsBackward returned an incorrect number of gradients (expected 1, got 2)"),
    (WrongShape, "Function WrongShapeBackward returned an invalid gradient at index 0 - got [1] "
                 "but expected shape compatible with [2]"),
])
def test_bad_backward_results_raise(function, message):
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as excinfo:
        function.apply(a).sum().backward()
    assert str(excinfo.value) == message


class WithExtra(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1, 5

    @staticmethod
    def backward(ctx, grad, grad_extra):
        return grad


def test_non_tensor_outputs_pass_through():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    out, extra = WithExtra.apply(a)
    assert extra == 5
    assert out.grad_fn.name() == "WithExtraBackward"


def test_a_function_that_saved_nothing_can_be_backpropagated_twice():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    total = Identity.apply(a + 3).sum()
    total.backward()
    total.backward()
    np.testing.assert_allclose(a.grad.tolist(), [2.0, 2.0])


# --- new-style Functions: forward without ctx, plus setup_context ("Extending PyTorch") -----


class NewExp(Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


def test_new_style_function_saves_in_setup_context():
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    y = NewExp.apply(x)
    assert y.grad_fn.name() == "NewExpBackward"
    assert repr(y.grad_fn).startswith(text("<minigrad.autograd.function.NewExpBackward object at"))
    assert type(y.grad_fn).__module__ == text("minigrad.autograd.function")
    y.sum().backward()
    assert np.allclose(x.grad.tolist(), [1.0, 2.718281828])
    assert NewExp.forward(mg.tensor([0.0])).tolist() == [1.0]  # forward alone, without ctx


def test_new_style_saved_output_is_version_checked():
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    y = NewExp.apply(x)
    y.detach().zero_()
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value).startswith(text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [2]], which is output 0 of NewExp, is at "
        "version 1; expected version 0 instead."
    ))


class NewScaleAndShift(Function):
    @staticmethod
    def forward(x, k, shift=1.0):
        return x * k, x + shift

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k, shift = inputs
        ctx.k = k
        ctx.seen = (mg.is_grad_enabled(), output[0].requires_grad, shift)
        ctx.mark_non_differentiable(output[1])

    @staticmethod
    def backward(ctx, grad_scaled, grad_shifted):
        return grad_scaled * ctx.k, None, None


def test_setup_context_sees_all_inputs_with_defaults_and_marks_outputs():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    scaled, shifted = NewScaleAndShift.apply(x, k=3.0)
    assert scaled.grad_fn.seen == (False, False, 1.0)  # grad mode off; outputs not yet wired
    assert scaled.requires_grad and not shifted.requires_grad
    scaled.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


class ForwardWithCtxAndSetupContext(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


class ForwardWithoutCtx(Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def test_forward_and_setup_context_styles_do_not_mix():
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        ForwardWithCtxAndSetupContext.apply(x)
    with pytest.raises(TypeError, match=r"forward\(\) takes 1 positional argument but 2"):
        ForwardWithoutCtx.apply(x)
    with pytest.raises(NotImplementedError, match="^setup_context is not implemented.$"):
        Function.setup_context(None, (), None)


def test_old_style_node_repr_names_the_module_too():
    y = Scale.apply(mg.tensor([1.0], requires_grad=True), 2.0)
    assert repr(y.grad_fn).startswith(text("<minigrad.autograd.function.ScaleBackward object at"))
    assert repr((mg.tensor([1.0], requires_grad=True) * 2).grad_fn).startswith(
        "<MulBackward0 object at")


class NewSquaredError(Function):
    @staticmethod
    def forward(input, target):
        return ((input - target) ** 2).sum()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        return grad * 2 * (input - target), None


def test_new_style_forward_may_take_a_keyword_named_target():
    # minigrad's recording routine has a keyword of its own for in-place writes: a Function's
    # keyword arguments are bound to its forward before they reach it.
    x = mg.tensor([1.0, 3.0], requires_grad=True)
    NewSquaredError.apply(x, target=mg.tensor([0.0, 1.0])).backward()
    assert x.grad.tolist() == [2.0, 4.0]
