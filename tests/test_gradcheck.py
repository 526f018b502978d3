"""gradcheck and gradgradcheck: they pass correct gradients and catch wrong ones, as PyTorch's.

Every expected text here is PyTorch 2.13's (run with MINIGRAD_TEST_REFERENCE=torch to check).
"""

import re
import warnings

import numpy as np
import pytest
from _backend import LIB, mg, text

gradcheck = mg.autograd.gradcheck
gradgradcheck = mg.autograd.gradgradcheck


def double(values, requires_grad=True):
    return mg.tensor(values, dtype=mg.float64, requires_grad=requires_grad)


class Square(mg.autograd.Function):
    """Correct: d(x**2) = 2 x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class HalfSquare(mg.autograd.Function):
    """Wrong: forgets the factor 2 of d(x**2)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return x * grad


class DetachedSquare(mg.autograd.Function):
    """Right first derivative, but its backward is not differentiable (x detached)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * grad * x.detach()


class Product(mg.autograd.Function):
    """Correct two-input function: z = x * y."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y, grad * x


class SwappedProduct(mg.autograd.Function):
    """Wrong for the second input only: dy = grad * y instead of grad * x."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y, grad * y


class ConstantGrad(mg.autograd.Function):
    """Ignores the upstream gradient: backward of a zero gradient is not zero."""

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, grad):
        return mg.ones_like(grad)


def test_passes_a_correct_custom_function():
    assert gradcheck(Square.apply, (double([1.0, -2.0, 0.5]),))


def test_passes_builtin_ops_with_several_inputs():
    x = double([[0.5, 1.5], [2.0, -1.0]])
    y = double([0.3, -0.7])
    assert gradcheck(lambda a, b: (a * b).sigmoid() + a.exp(), (x, y))
    assert gradcheck(Product.apply, (x, double([[1.0, 2.0], [3.0, 4.0]])))


def test_a_single_tensor_is_accepted_as_inputs():
    assert gradcheck(mg.exp, double([0.1, 0.2]))


def test_catches_a_wrong_backward_with_pytorchs_report():
    x = double([1.0, 2.0])
    with pytest.raises(RuntimeError) as info:
        gradcheck(HalfSquare.apply, (x,))
    assert type(info.value).__name__ == "GradcheckError"
    assert str(info.value) == text(
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[2.0000, 0.0000],\n"
        "        [0.0000, 4.0000]], dtype=minigrad.float64)\n"
        "analytical:tensor([[1., 0.],\n"
        "        [0., 2.]], dtype=minigrad.float64)\n"
    )


def test_the_error_class_is_public_and_a_runtime_error():
    import importlib

    GradcheckError = importlib.import_module(f"{LIB}.autograd.gradcheck").GradcheckError  # noqa: N806

    assert issubclass(GradcheckError, RuntimeError)
    with pytest.raises(GradcheckError):
        gradcheck(HalfSquare.apply, (double([3.0]),))


def test_names_the_wrong_input():
    x, y = double([1.0, 2.0]), double([3.0, -1.0])
    expected = "^Jacobian mismatch for output 0 with respect to input 1,"
    with pytest.raises(RuntimeError, match=expected):
        gradcheck(SwappedProduct.apply, (x, y))


def test_the_input_index_counts_only_inputs_that_require_grad():
    x, y = double([1.0, 2.0], requires_grad=False), double([3.0, -1.0])
    with pytest.raises(RuntimeError, match="with respect to input 0,"):
        gradcheck(SwappedProduct.apply, (x, y))


def test_raise_exception_false_returns_false():
    assert gradcheck(HalfSquare.apply, (double([1.0, 2.0]),), raise_exception=False) is False
    assert gradcheck(Square.apply, (double([1.0, 2.0]),), raise_exception=False) is True


def test_tolerances_decide():
    x = double([1.0, 2.0])
    # The error is 100% of the numerical value: any rtol >= 1 accepts it.
    assert gradcheck(HalfSquare.apply, (x,), rtol=1.0, atol=0.0)


def test_backward_must_be_multiplied_by_the_upstream_gradient():
    with pytest.raises(RuntimeError, match=r"^backward not multiplied by grad_output$"):
        gradcheck(ConstantGrad.apply, (double([[1.0, 2.0]]),), atol=10.0)


def test_needs_an_input_that_requires_grad():
    with pytest.raises(ValueError) as info:
        gradcheck(mg.exp, (double([1.0], requires_grad=False),))
    assert str(info.value) == (
        "gradcheck expects at least one input tensor to require gradient, "
        "but none of them have requires_grad=True."
    )


def test_warns_for_single_precision_inputs():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert gradcheck(lambda t: t * 2, (x,), eps=1e-2, atol=1e-2, rtol=1e-2)
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert messages == [
        "Input #0 requires gradient and is not a double precision floating point or complex. "
        "This check will likely fail if all the inputs are not of double precision floating "
        "point or complex. "
    ]


def test_rejects_inputs_with_stride_zero():
    x = double([1.0]).expand(3)
    with pytest.raises(RuntimeError, match="^The 0th input has a dimension with stride 0"):
        gradcheck(mg.exp, (x,))


def test_leaves_inputs_unchanged():
    x = double([0.5, -1.5])
    before = x.detach().clone()
    version = x._version
    gradcheck(mg.sigmoid, (x,))
    assert bool((x == before).all())
    assert x._version == version
    assert x.grad is None


def test_non_differentiable_outputs_need_zero_numerical_gradient():
    x = double([0.3, 1.7])
    assert gradcheck(lambda t: mg.zeros(2, dtype=mg.float64), (x,))
    with pytest.raises(RuntimeError, match="^Numerical gradient for function expected to be zero$"):
        gradcheck(lambda t: (t * 2).detach(), (x,))


def test_several_outputs():
    x = double([0.5, 1.5])
    assert gradcheck(lambda t: (t.exp(), t * t), (x,))
    with pytest.raises(RuntimeError, match="^Jacobian mismatch for output 1 with respect to input"):
        gradcheck(lambda t: (t.exp(), HalfSquare.apply(t)), (x,))


def test_gradgradcheck_passes_twice_differentiable_functions():
    mg.manual_seed(0)
    x = double([[0.5, -1.0], [1.5, 0.25]])
    assert gradgradcheck(Square.apply, (x,))
    assert gradgradcheck(lambda t: (t.sigmoid() * t.tanh()).exp(), (x,))
    assert gradgradcheck(Product.apply, (x, double([[1.0, 2.0], [3.0, 4.0]])))


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    mg.manual_seed(0)
    x = double([[1.0, 2.0], [3.0, 4.0]])
    assert gradcheck(DetachedSquare.apply, (x,))  # the first derivative is right
    with pytest.raises(RuntimeError) as info:
        gradgradcheck(DetachedSquare.apply, (x,))
    message = str(info.value)
    assert message.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    # The analytical second derivative is 0 (x was detached); the numerical one is 2 * v.
    analytical = message.split("analytical:")[1]
    assert re.fullmatch(
        r"tensor\(\[\[0\., 0\., 0\., 0\.\],\n( +\[0\., 0\., 0\., 0\.\],\n){2} +\[0\., 0\., 0\., "
        r"0\.\]\], dtype=\w+\.float64\)\n",
        analytical,
    )


def test_gradgradcheck_accepts_given_grad_outputs():
    x = double([0.5, 1.5])
    v = double([1.0, -2.0])
    assert gradgradcheck(mg.sin, (x,), (v,))
    assert gradgradcheck(mg.sin, (x,), v)
    assert gradgradcheck(mg.sin, (x,), double([1.0, -2.0], requires_grad=False))


def test_gradgradcheck_raise_exception_false():
    mg.manual_seed(0)
    x = double([[1.0, 2.0], [3.0, 4.0]])
    assert gradgradcheck(DetachedSquare.apply, (x,), raise_exception=False) is False


def test_gradgradcheck_non_contiguous_grad_outputs():
    mg.manual_seed(0)
    assert gradgradcheck(mg.exp, (double([[0.5, 1.0], [1.5, 2.0]]),),
                         gen_non_contig_grad_outputs=True)


def test_outputs_of_another_shape_than_the_input():
    x = double([1.0, 2.0])
    scale = double([[1.0], [2.0], [3.0]], requires_grad=False)
    assert gradcheck(lambda t: (t * scale).sin(), (x,))  # a (3, 2) output of a (2,) input


def test_float64_arrays_are_not_modified_by_the_numerical_pass():
    array = np.array([0.25, 0.75])
    x = mg.from_numpy(array).requires_grad_()
    gradcheck(mg.exp, (x,))
    np.testing.assert_array_equal(array, [0.25, 0.75])


# --- fast mode: v^T J u for random unit vectors u, v (PyTorch's fast gradcheck) ------------


def test_fast_mode_passes_correct_functions():
    x = double([[0.5, 1.5], [2.0, -1.0]])
    y = double([0.3, -0.7])
    assert gradcheck(lambda a, b: ((a * b).sigmoid() + a.exp(), b.sin()), (x, y), fast_mode=True)
    assert gradcheck(Product.apply, (x, double([[1.0, 2.0], [3.0, 4.0]])), fast_mode=True)
    mg.manual_seed(0)
    assert gradgradcheck(lambda t: (t.sigmoid() * t.tanh()).exp(), (x,), fast_mode=True)


def test_fast_mode_catches_a_wrong_backward_and_reports_the_slow_jacobians():
    # One element: u = v = [1.0], so the reduced numbers are the Jacobian's only entry.
    with pytest.raises(RuntimeError) as info:
        gradcheck(HalfSquare.apply, (double([3.0]),), fast_mode=True)
    assert str(info.value) == text(
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:6.000000000838668\n"
        "analytical:3.0\n"
        "\n"
        "The above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
        "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n"
        "\n"
        "Numerical:\n"
        " tensor([[6.0000]], dtype=minigrad.float64)\n"
        "Analytical:\n"
        "tensor([[3.]], dtype=minigrad.float64)\n"
        "\n"
        "The max per-element difference (slow mode) is: 3.000000000838668.\n"
    )


class OffByRtol(mg.autograd.Function):
    """y = x * [1, -1], with gradients off by 0.9 rtol: each entry passes, their sum does not."""

    @staticmethod
    def forward(ctx, x):
        return x * double([1.0, -1.0], requires_grad=False)

    @staticmethod
    def backward(ctx, grad):
        return grad * double([1.0009, -0.9991], requires_grad=False)


def test_fast_mode_says_when_slow_mode_would_have_passed():
    x = double([0.5, 2.0])
    assert gradcheck(OffByRtol.apply, (x,), atol=0.0)
    with pytest.raises(RuntimeError) as info:
        gradcheck(OffByRtol.apply, (x,), atol=0.0, fast_mode=True)
    assert str(info.value).endswith(
        "The max per-element difference (slow mode) is: 0.0009000000287556764.\n"
        "Fast gradcheck failed but element-wise differences are small. This means that the\n"
        "test might've passed in slow_mode!\n"
        "\n"
        "If you are adding a new operator, please file an issue and then use one of the\n"
        "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:\n"
        "\n"
        "If the test\n"
        "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
        "  with `fast_mode=False` as a keyword argument.\n"
        "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
        "  to have `gradcheck_fast_mode=False`\n"
        "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
        "  module_test entry to have `gradcheck_fast_mode=False`"
    )


def test_fast_mode_catches_what_slow_mode_catches():
    x, y = double([1.0, 2.0]), double([3.0, -1.0])
    mismatch = "^Jacobian mismatch for output {} with respect to input {},"
    with pytest.raises(RuntimeError, match=mismatch.format(0, 1)):
        gradcheck(SwappedProduct.apply, (x, y), fast_mode=True)
    with pytest.raises(RuntimeError, match="^Jacobian mismatch for output 1 with respect to input"):
        gradcheck(lambda t: (t.exp(), HalfSquare.apply(t)), (x,), fast_mode=True)
    with pytest.raises(RuntimeError, match="^Numerical gradient for function expected to be zero$"):
        gradcheck(lambda t: (t * 2).detach(), (x,), fast_mode=True)
    mg.manual_seed(0)
    with pytest.raises(RuntimeError, match=mismatch.format(0, 0)):
        gradgradcheck(DetachedSquare.apply, (double([[1.0, 2.0], [3.0, 4.0]]),), fast_mode=True)


def test_fast_mode_leaves_the_random_state_and_the_inputs_alone():
    x = double([0.5, -1.5])
    mg.manual_seed(4)
    expected = mg.rand(3).tolist()
    mg.manual_seed(4)
    assert gradcheck(mg.sigmoid, (x,), fast_mode=True)
    assert mg.rand(3).tolist() == expected
    assert x.tolist() == [0.5, -1.5]
    assert x._version == 0
