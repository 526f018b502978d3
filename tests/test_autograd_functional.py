"""autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp with PyTorch's results and errors.

Every expected value and message here is what PyTorch 2.13 printed for the same call.
"""
import numpy as np
import pytest
from _backend import mg

F = mg.autograd.functional
E, E2 = 2.718281828459045, 7.38905609893065


def t(*values, **kwargs):
    return mg.tensor(*values, **kwargs)


def assert_values(result, expected):
    """``result`` has ``expected``'s tuple structure and (to 1e-4) its values."""
    if isinstance(expected, tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for r, e in zip(result, expected):
            assert_values(r, e)
    else:
        np.testing.assert_allclose(result.detach().numpy(), expected, rtol=1e-4, atol=1e-6)


def test_vjp():
    x = t([[1.0, 2.0], [3.0, 4.0]], dtype=mg.float64)
    out, product = F.vjp(lambda x: x.exp().sum(dim=1), x, t([1.0, -1.0], dtype=mg.float64))
    assert out.tolist() == pytest.approx([10.1073, 74.6837], rel=1e-5)
    assert_values(product, [[2.7183, 7.3891], [-20.0855, -54.5982]])
    out, grads = F.vjp(lambda x, y: 2 * x + 3 * y, (t([1.0, 2.0]), t([3.0, 4.0])), mg.ones(2))
    assert out.tolist() == [11.0, 16.0]
    assert_values(grads, ([2.0, 2.0], [3.0, 3.0]))


def test_jvp_by_the_double_backward_trick():
    x = t([[1.0, 2.0], [3.0, 4.0]], dtype=mg.float64)
    out, product = F.jvp(lambda x: x.exp().sum(dim=1), x, mg.ones(2, 2, dtype=mg.float64))
    assert product.tolist() == pytest.approx([10.1073, 74.6837], rel=1e-5)
    outs, products = F.jvp(lambda x, y: (x * y, x + y), (t([1.0, 2.0]), t([3.0, 4.0])),
                           (mg.ones(2), mg.zeros(2)))
    assert_values(outs, ([3.0, 8.0], [4.0, 6.0]))
    assert_values(products, ([3.0, 4.0], [1.0, 1.0]))
    out, product = F.jvp(lambda x: x ** 2, t(3.0))  # v may be omitted for one element
    assert (out.item(), product.item()) == (9.0, 6.0)


def test_jacobian_shapes_follow_inputs_and_outputs():
    jac = F.jacobian(lambda x, y: 2 * x.exp() + 3 * y, (t([0.0, 1.0]), t([1.0, 2.0])))
    assert_values(jac, ([[2.0, 0.0], [0.0, 2 * E]], [[3.0, 0.0], [0.0, 3.0]]))
    jac = F.jacobian(lambda x: (x ** 2, x.sum()), t([1.0, 2.0]))
    assert_values(jac, ([[2.0, 0.0], [0.0, 4.0]], [1.0, 1.0]))
    jac = F.jacobian(lambda x, y: (x * y, x.sin()), (t([0.0, 1.0]), t([2.0, 3.0])))
    assert_values(jac, (([[2.0, 0.0], [0.0, 3.0]], [[0.0, 0.0], [0.0, 1.0]]),
                       ([[1.0, 0.0], [0.0, 0.5403]], [[0.0, 0.0], [0.0, 0.0]])))
    assert F.jacobian(lambda x: x.sum(dim=1), mg.ones(2, 3)).shape == (2, 2, 3)
    independent = F.jacobian(lambda x, y: x * 2, (mg.ones(2), mg.ones(2)))
    assert_values(independent, ([[2.0, 0.0], [0.0, 2.0]], [[0.0, 0.0], [0.0, 0.0]]))


def test_hessian():
    assert F.hessian(lambda x: (x ** 3).sum(), t([1.0, 2.0])).tolist() == [[6.0, 0.0],
                                                                           [0.0, 12.0]]
    h = F.hessian(lambda x, y: (x * x * y).sum(), (t([1.0, 2.0]), t([3.0, 4.0])))
    assert_values(h, (([[6.0, 0.0], [0.0, 8.0]], [[2.0, 0.0], [0.0, 4.0]]),
                     ([[2.0, 0.0], [0.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]])))


def test_vhp_and_hvp():
    out, product = F.vhp(lambda x: (x ** 3).sum(), t([1.0, 2.0]), t([1.0, 1.0]))
    assert (out.item(), product.tolist()) == (9.0, [6.0, 12.0])
    out, products = F.hvp(lambda x, y: (x * x * y).sum(), (t([1.0, 2.0]), t([3.0, 4.0])),
                          (mg.ones(2), mg.ones(2)))
    assert out.item() == 19.0
    assert_values(products, ([8.0, 12.0], [2.0, 4.0]))


def test_results_have_history_only_with_create_graph():
    out, product = F.vjp(lambda x: x.exp().sum(), t([0.0, 1.0]))
    assert not out.requires_grad and not product.requires_grad
    out, product = F.vjp(lambda x: x.exp().sum(), t([0.0, 1.0]), create_graph=True)
    assert out.grad_fn.name() == "SumBackward0" and product.grad_fn.name() == "MulBackward0"
    x = t([0.0, 1.0], requires_grad=True)
    jac = F.jacobian(lambda x: x.exp(), x, create_graph=True)
    assert jac.grad_fn.name() == "ViewBackward0"
    jac.sum().backward()  # differentiable with respect to the given input
    assert x.grad.tolist() == pytest.approx([1.0, E])
    assert not F.jacobian(lambda x: x.exp(), x).requires_grad


def test_inputs_are_not_modified_or_connected():
    x = t([1.0, 2.0], requires_grad=True)
    F.jacobian(lambda x: x * x, x)
    F.hessian(lambda x: (x ** 3).sum(), x)
    assert x.grad is None and x._version == 0


STRICT_ERRORS = [
    (lambda: F.jacobian(lambda x, y: x * 2, (mg.ones(2), mg.ones(2)), strict=True),
     "Output 0 of the user-provided function is independent of input 1. This is not allowed "
     "in strict mode."),
    (lambda: F.jacobian(lambda x: mg.ones(2), mg.ones(2), strict=True),
     "Output 0 of the user-provided function does not require gradients. The outputs must be "
     "computed in a differentiable manner from the input when running in strict mode."),
    (lambda: F.hessian(lambda x: x.sum(), mg.ones(2), strict=True),
     "While computing the hessian, found that the jacobian of the user-provided function with "
     "respect to input 0 is independent of the input. This is not allowed in strict mode. You "
     "should ensure that your function is twice differentiable and that the jacobian depends on "
     "the inputs (this would be violated by a linear function for example)."),
    (lambda: F.vjp(lambda x, y: x.sum(), (mg.ones(2), mg.ones(2)), strict=True),
     "The output of the user-provided function is independent of input 1. This is not allowed "
     "in strict mode."),
    (lambda: F.jvp(lambda x, y: x * 2, (mg.ones(2), mg.ones(2)), (mg.ones(2), mg.ones(2)),
                   strict=True),
     "The output of the user-provided function is independent of input 1. This is not allowed "
     "in strict mode."),
    (lambda: F.hvp(lambda x: (2 * x).sum(), mg.ones(2), mg.ones(2), strict=True),
     "While computing the hessian, found that the jacobian of the user-provided function with "
     "respect to input 0 is independent of the input. This is not allowed in strict mode. You "
     "should ensure that your function is twice differentiable and that the jacobian depends on "
     "the inputs (this would be violated by a linear function for example)."),
    (lambda: F.jacobian(lambda x: x * 2, mg.ones(2), create_graph=True, strict=True),
     "The jacobian of the user-provided function is independent of input 0. This is not "
     "allowed in strict mode when create_graph=True."),
]


@pytest.mark.parametrize(("call", "message"), STRICT_ERRORS)
def test_strict_mode_errors(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


ARGUMENT_ERRORS = [
    (lambda: F.vjp(lambda x: x * 2, mg.ones(2)), RuntimeError,
     "The vector v can only be None if the user-provided function returns a single Tensor with "
     "a single element."),
    (lambda: F.jvp(lambda x: x * 2, mg.ones(2)), RuntimeError,
     "The vector v can only be None if the input to the user-provided function is a single "
     "Tensor with a single element."),
    (lambda: F.jvp(lambda x, y: x * y, (mg.ones(2), mg.ones(2)), (mg.ones(2),)), RuntimeError,
     "v is a tuple of invalid length: should be 2 but got 1."),
    (lambda: F.vjp(lambda x: x * 2, mg.ones(2), (mg.ones(2), mg.ones(2))), RuntimeError,
     "The given v should contain a single Tensor."),
    (lambda: F.hessian(lambda x: x * 2, mg.ones(2)), RuntimeError,
     "The Tensor returned by the function given to hessian should contain a single element"),
    (lambda: F.hessian(lambda x: (x.sum(),), mg.ones(2)), RuntimeError,
     "The function given to hessian should return a single Tensor"),
    (lambda: F.vhp(lambda x: x * 2, mg.ones(2), mg.ones(2)), RuntimeError,
     "The Tensor returned by the function given to vhp should contain a single element"),
    (lambda: F.jacobian(lambda x: x, mg.ones(2), strategy="sideways"), AssertionError,
     "Expected strategy to be either \"forward-mode\" or \"reverse-mode\". Hint: If your "
     "function has more outputs than inputs, \"forward-mode\" tends to be more performant. "
     "Otherwise, prefer to use \"reverse-mode\"."),
]


@pytest.mark.parametrize(("call", "error", "message"), ARGUMENT_ERRORS)
def test_argument_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_v_of_the_wrong_size():
    with pytest.raises(RuntimeError) as info:
        F.vjp(lambda x: x * 2, mg.ones(2), mg.ones(3))
    assert str(info.value) == (
        f"v has invalid size: should be {mg.Size([2])!r} but got {mg.Size([3])!r}.")


def test_inputs_must_be_tensors():
    with pytest.raises(TypeError) as info:
        F.jacobian(lambda x: x, [mg.ones(2)])
    assert str(info.value) == (
        "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the "
        "given inputs has type <class 'list'>.")
    with pytest.raises(TypeError) as info:
        F.vjp(lambda x, y: x, (mg.ones(2), [1.0]))
    assert str(info.value) == (
        "The inputs given to vjp must be either a Tensor or a tuple of Tensors but the value at "
        "index 1 has type <class 'list'>.")
