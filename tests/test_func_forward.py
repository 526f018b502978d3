"""minigrad.func's forward-mode transforms (jvp, jacfwd, linearize) against finite differences.

minigrad computes ``J v`` by the double-backward trick; these checks need no PyTorch: central
differences of the function itself (float64) give the products and Jacobians to compare with.
"""

import numpy as np
import pytest

import minigrad
from minigrad.func import grad, hessian, jacfwd, jacrev, jvp, linearize

EPS = 1e-6


def rand(*shape, seed=0):
    return minigrad.tensor(np.random.default_rng(seed).standard_normal(shape))


def numerical_jvp(f, primals, tangents):
    """(f(p + eps t) - f(p - eps t)) / 2 eps, for one tensor output."""
    plus = f(*(p + EPS * t for p, t in zip(primals, tangents, strict=True)))
    minus = f(*(p - EPS * t for p, t in zip(primals, tangents, strict=True)))
    return (plus - minus) / (2 * EPS)


FUNCTIONS = {
    "elementwise": lambda a, b: minigrad.sin(a) * minigrad.exp(b) + a**3,
    "reduction": lambda a, b: (a * b).sum(dim=0) + a.mean() * b.amax(),
    "matmul": lambda a, b: a @ b.t(),
    "broadcasting": lambda a, b: a[:, :1] * b.tanh() - b[0],
    "softmax": lambda a, b: minigrad.softmax(a * b, dim=1),
}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_jvp_and_linearize_match_finite_differences(name):
    f = FUNCTIONS[name]
    primals = (rand(3, 4), rand(3, 4, seed=1))
    tangents = (rand(3, 4, seed=2), rand(3, 4, seed=3))
    output, product = jvp(f, primals, tangents)
    expected = numerical_jvp(f, primals, tangents)
    np.testing.assert_allclose(output.numpy(), f(*primals).numpy(), rtol=1e-12)
    np.testing.assert_allclose(product.numpy(), expected.numpy(), rtol=1e-6, atol=1e-8)
    value, jvp_fn = linearize(f, *primals)
    np.testing.assert_allclose(value.numpy(), output.numpy(), rtol=1e-12)
    for seed in (4, 5):  # the kept graph serves every call
        more = (rand(3, 4, seed=seed), rand(3, 4, seed=seed + 10))
        np.testing.assert_allclose(
            jvp_fn(*more).numpy(), numerical_jvp(f, primals, more).numpy(), rtol=1e-6, atol=1e-8
        )


@pytest.mark.parametrize("name", FUNCTIONS)
def test_jacfwd_matches_finite_differences_and_jacrev(name):
    f = FUNCTIONS[name]
    a, b = rand(3, 4), rand(3, 4, seed=1)
    forward = jacfwd(f, argnums=(0, 1))(a, b)
    reverse = jacrev(f, argnums=(0, 1))(a, b)
    for k, primal in enumerate((a, b)):
        columns = []
        for i in range(primal.numel()):
            basis = [minigrad.zeros(3, 4, dtype=minigrad.float64) for _ in range(2)]
            basis[k].view(-1)[i] = 1.0
            columns.append(numerical_jvp(f, (a, b), basis))
        out_shape = tuple(f(a, b).shape)
        expected = minigrad.stack(columns, dim=-1).reshape(*out_shape, 3, 4)
        np.testing.assert_allclose(forward[k].numpy(), expected.numpy(), rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(forward[k].numpy(), reverse[k].numpy(), rtol=1e-12,
                                   atol=1e-14)


def test_hessian_and_nested_forward_transforms_match_finite_differences():
    def f(x):
        return (minigrad.sin(x) * x.exp()).sum() + (x[:, None] * x).pow(2).sum()

    x = rand(4)
    expected = minigrad.stack(
        [
            (grad(f)(x + EPS * e) - grad(f)(x - EPS * e)) / (2 * EPS)
            for e in minigrad.eye(4, dtype=minigrad.float64)
        ],
        dim=1,
    )
    for computed in (hessian(f)(x), jacfwd(jacfwd(f))(x), jacrev(jacfwd(f))(x)):
        np.testing.assert_allclose(computed.numpy(), expected.numpy(), rtol=1e-6, atol=1e-7)
    # d/dx of the directional derivative along v: H v
    v = rand(4, seed=1)
    hv = grad(lambda y: jvp(f, (y,), (v,))[1])(x)
    np.testing.assert_allclose(hv.numpy(), (expected @ v).numpy(), rtol=1e-6, atol=1e-7)


def test_jvp_results_are_detached_and_inputs_untouched():
    x, v = rand(3), rand(3, seed=1)
    output, product = jvp(lambda a: a.sin() * 2, (x,), (v,))
    assert not output.requires_grad and not product.requires_grad
    assert not x.requires_grad and x.grad is None and x._version == 0


def test_jacfwd_refuses_random_operations_unless_told_otherwise():
    x = rand(3)
    with pytest.raises(RuntimeError, match="called random operation while in randomness error"):
        jacfwd(lambda a: a * minigrad.rand(3, dtype=a.dtype))(x)
    minigrad.rand(3)  # (refused inside the transform only)
    for randomness in ("same", "different"):
        jacobian = jacfwd(lambda a: a * minigrad.rand(3, dtype=a.dtype), randomness=randomness)(x)
        assert jacobian.shape == (3, 3)


# --- ops whose backward the double-backward trick could not differentiate (the op sweep:
# tests_torch/test_forward_transforms_ops_torch.py) ---

F = minigrad.nn.functional

SWEEP_FUNCTIONS = {
    # its backward splits grad by sign and takes log|grad|: not differentiable at grad = 0
    "logcumsumexp": (lambda a: a.logcumsumexp(1), (3, 4)),
    # its slope is 0/0 at x = 0 (masked), once multiplied by grad: d/dgrad was 0 * nan
    "sinc at 0": (lambda a: minigrad.sinc(a * minigrad.tensor([0.0, 1.0, 1.0])), (3,)),
    # its gradient was computed on arrays, without a history: J v came out as zeros
    "embedding_bag": (
        lambda w: F.embedding_bag(minigrad.tensor([1, 2, 4, 0, 4]), w, minigrad.tensor([0, 2]),
                                  mode="max") + F.embedding_bag(
            minigrad.tensor([[1, 2], [3, 3]]), w, mode="mean"),
        (5, 3),
    ),
}


@pytest.mark.parametrize("name", SWEEP_FUNCTIONS)
def test_jvp_of_ops_with_awkward_backward_formulas_matches_finite_differences(name):
    f, shape = SWEEP_FUNCTIONS[name]
    x, v = rand(*shape), rand(*shape, seed=1)
    _, product = jvp(f, (x,), (v,))
    np.testing.assert_allclose(product.numpy(), numerical_jvp(f, (x,), (v,)).numpy(),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("loss", ["multi_margin_loss", "multilabel_margin_loss"])
def test_margin_losses_without_second_derivative_raise_in_jvp_not_zeros(loss):
    # PyTorch's NotImplemented node of their backward has an edge to grad_output too:
    # differentiating with respect to it raises (its forward mode has no formula either).
    target = minigrad.tensor([2, 0]) if loss == "multi_margin_loss" else minigrad.tensor(
        [[2, 0, -1], [1, -1, 0]])
    x, v = rand(2, 3), rand(2, 3, seed=1)
    message = f"derivative for aten::{loss}_backward is not implemented"
    with pytest.raises(RuntimeError, match=message):
        jvp(lambda a: getattr(F, loss)(a, target), (x,), (v,))
    u = minigrad.ones((), dtype=minigrad.float64, requires_grad=True)
    leaf = x.clone().requires_grad_()
    (g,) = minigrad.autograd.grad(getattr(F, loss)(leaf, target), leaf, u, create_graph=True)
    with pytest.raises(RuntimeError, match=message):
        minigrad.autograd.grad(g.sum(), u)
