"""``autograd.functional`` side by side with PyTorch 2.13: vjp, jvp, jacobian, hessian, vhp, hvp.

A set of functions (tensor or tuple in, tensor or tuple out; nonlinear, linear, independent of
an input, constant) goes through every API with each combination of ``create_graph`` and
``strict``. Both libraries must agree on the structure of the result (tensor / tuple / tuple of
tuples), its values (float64), which results carry history, and on the errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run

import minigrad

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)
A = RNG.uniform(-1, 1, size=(2, 3))
B = RNG.uniform(-1, 1, size=(2, 3))
S = RNG.uniform(0.5, 1.5, size=(3,))
W = RNG.uniform(-1, 1, size=(3, 3))


def arrays(*values: np.ndarray) -> Any:
    """Inputs as a function of the library: one tensor, or a tuple for several."""

    def make(lib: Any) -> Any:
        tensors = tuple(lib.tensor(v, dtype=lib.float64) for v in values)
        return tensors[0] if len(tensors) == 1 else tensors

    return make


# name: (function of (lib, *inputs), inputs, whether the output is a single scalar)
FUNCTIONS = {
    "exp_rows": (lambda lib, x: x.exp().sum(dim=1), arrays(A), False),
    "linear_pair": (lambda lib, x, y: 2 * x + 3 * y, arrays(A, B), False),
    "tuple_out": (lambda lib, x: (x ** 2, x.sum()), arrays(A), False),
    "tuple_in_out": (lambda lib, x, y: (x * y, x.sin()), arrays(A, B), False),
    "independent_of_y": (lambda lib, x, y: (x ** 2).sum(), arrays(A, B), True),
    "constant": (lambda lib, x: lib.ones(2, dtype=lib.float64), arrays(S), False),
    "identity": (lambda lib, x: x, arrays(S), False),
    "cubic": (lambda lib, x: (x ** 3).sum(), arrays(S), True),
    "quadratic_form": (lambda lib, x: x @ lib.tensor(W, dtype=lib.float64) @ x, arrays(S), True),
    "mixed_scalar": (lambda lib, x, y: (x.sin() * y).sum() + (x * x * y).sum(), arrays(A, B),
                     True),
    "scalar_input": (lambda lib, x: x * x.exp(), arrays(np.array(0.7)), True),
    "two_outputs_scalar": (lambda lib, x: (x.sum(), x.prod()), arrays(S), False),
}


def _vectors_like(lib: Any, value: Any, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    if isinstance(value, tuple):
        return tuple(_vectors_like(lib, v, seed + i) for i, v in enumerate(value))
    return lib.tensor(rng.uniform(-1, 1, size=tuple(value.shape)), dtype=lib.float64)


def _call(lib: Any, api: str, name: str, create_graph: bool, strict: bool) -> Any:
    fn, make_inputs, _ = FUNCTIONS[name]
    inputs = make_inputs(lib)
    f = (lambda *args: fn(lib, *args))  # noqa: E731 - the function under test
    functional = lib.autograd.functional
    if api in ("vjp", "jvp", "vhp", "hvp"):
        if api == "vjp":
            with lib.no_grad():
                out = f(*(inputs if isinstance(inputs, tuple) else (inputs,)))
            v = _vectors_like(lib, out, 3)
        else:
            v = _vectors_like(lib, inputs, 5)
        return getattr(functional, api)(f, inputs, v, create_graph=create_graph, strict=strict)
    return getattr(functional, api)(f, inputs, create_graph=create_graph, strict=strict)


def _describe(value: Any) -> Any:
    """The structure, values and history flag of a result."""
    if isinstance(value, tuple):
        return tuple(_describe(v) for v in value)
    return ("tensor", tuple(value.shape), value.requires_grad,
            np.asarray(value.detach().numpy(), dtype=np.float64))


def _compare(mine: Any, theirs: Any, where: str = "result") -> None:
    if isinstance(theirs, tuple) and theirs and theirs[0] == "tensor":
        assert isinstance(mine, tuple) and mine[0] == "tensor", where
        assert mine[1:3] == theirs[1:3], where
        np.testing.assert_allclose(mine[3], theirs[3], rtol=1e-10, atol=1e-12, err_msg=where)
        return
    assert isinstance(mine, tuple) and len(mine) == len(theirs), where
    for i, (m, t) in enumerate(zip(mine, theirs)):
        _compare(m, t, f"{where}[{i}]")


APIS = ("vjp", "jvp", "jacobian", "hessian", "vhp", "hvp")


@parametrize_in_one("strict", [False, True], ids=["lax", "strict"])
@parametrize_in_one("create_graph", [False, True], ids=["plain", "create_graph"])
@parametrize_in_one("name", list(FUNCTIONS))
@parametrize_in_one("api", APIS)
def test_against_pytorch(api: str, name: str, create_graph: bool, strict: bool) -> None:
    theirs, t_error = run(lambda: _call(torch, api, name, create_graph, strict))
    mine, m_error = run(lambda: _call(minigrad, api, name, create_graph, strict))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        _compare(_describe(mine), _describe(theirs))


def test_second_derivative_through_a_hessian_with_create_graph() -> None:
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(S, dtype=lib.float64, requires_grad=True)
        h = lib.autograd.functional.hessian(lambda x: (x ** 4).sum(), x, create_graph=True)
        (g,) = lib.autograd.grad(h.sum(), x)
        results.append(g.numpy())
    np.testing.assert_allclose(results[1], results[0], rtol=1e-12)


BAD_CALLS = {
    "inputs not tensors": lambda lib, F: F.jacobian(lambda x: x, [lib.ones(2)]),
    "tuple with a list": lambda lib, F: F.vjp(lambda x, y: x, (lib.ones(2), [1.0])),
    "output not a tensor": lambda lib, F: F.jacobian(lambda x: 3.0, lib.ones(2)),
    "v missing": lambda lib, F: F.vjp(lambda x: x * 2, lib.ones(2)),
    "v missing jvp": lambda lib, F: F.jvp(lambda x: x * 2, lib.ones(2)),
    "v missing hvp": lambda lib, F: F.hvp(lambda x: x.sum(), lib.ones(2)),
    "v wrong size": lambda lib, F: F.vjp(lambda x: x * 2, lib.ones(2), lib.ones(3)),
    "v wrong size tuple": lambda lib, F: F.jvp(
        lambda x, y: x * y, (lib.ones(2), lib.ones(2)), (lib.ones(2), lib.ones(3))),
    "v wrong length": lambda lib, F: F.jvp(
        lambda x, y: x * y, (lib.ones(2), lib.ones(2)), (lib.ones(2),)),
    "v not single": lambda lib, F: F.vjp(lambda x: x * 2, lib.ones(2), (lib.ones(2),
                                                                         lib.ones(2))),
    "hessian of a vector": lambda lib, F: F.hessian(lambda x: x * 2, lib.ones(2)),
    "hessian of a tuple": lambda lib, F: F.hessian(lambda x: (x.sum(),), lib.ones(2)),
    "vhp of a vector": lambda lib, F: F.vhp(lambda x: x * 2, lib.ones(2), lib.ones(2)),
    "hvp of a tuple": lambda lib, F: F.hvp(lambda x: (x.sum(),), lib.ones(2), lib.ones(2)),
    "strategy": lambda lib, F: F.jacobian(lambda x: x, lib.ones(2), strategy="sideways"),
    "strict and vectorize": lambda lib, F: F.jacobian(lambda x: x, lib.ones(2), strict=True,
                                                       vectorize=True),
    "hessian strategy": lambda lib, F: F.hessian(lambda x: x.sum(), lib.ones(2),
                                                 outer_jacobian_strategy="sideways"),
    "integer inputs": lambda lib, F: F.jacobian(lambda x: x * 2, lib.ones(2, dtype=lib.int64)),
}


@parametrize_in_one("name", list(BAD_CALLS))
def test_errors(name: str) -> None:
    call = BAD_CALLS[name]
    _, t_error = run(lambda: call(torch, torch.autograd.functional))
    _, m_error = run(lambda: call(minigrad, minigrad.autograd.functional))
    assert t_error is not None
    # (PyTorch's messages about non-tensors show their type, e.g. <class 'torch.Tensor'>.)
    assert_same_outcome(m_error, t_error, same_message="class" not in str(t_error))


def test_vectorize_gives_the_same_jacobian() -> None:
    for lib in (torch, minigrad):
        x = lib.tensor(A, dtype=lib.float64)
        plain = lib.autograd.functional.jacobian(lambda x: x.sin() * x.sum(), x)
        vectorized = lib.autograd.functional.jacobian(lambda x: x.sin() * x.sum(), x,
                                                      vectorize=True)
        np.testing.assert_allclose(vectorized.numpy(), plain.numpy(), rtol=1e-12)
