"""The products of several factors, cdist, cov and corrcoef against PyTorch, live.

The op table (tests/opinfo/linops.py) already compares values, gradients, saved tensors and
errors row by row. Here: the recorded graphs, node for node (these functions are compositions
in PyTorch, and which nodes they record depends on sizes and options), the dtype rules of the
integer and bool kernels, and the warnings.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _tree(node: Any) -> Any:
    """A node as data: its name and its children's, with output numbers, recursively."""
    if node is None:
        return None
    return (node.name(), tuple((_tree(child), nr) for child, nr in node.next_functions))


def _both(build: Any, *arrays: np.ndarray, grad: bool = True) -> tuple[Any, ...]:
    """``build(lib, *tensors)`` in minigrad and in torch, inputs requiring grad if ``grad``.

    Returns both results, then both lists of inputs.
    """
    results, inputs = [], []
    for lib in (minigrad, torch):
        tensors = [lib.tensor(a, requires_grad=grad and a.dtype.kind == "f") for a in arrays]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            results.append(build(lib, *tensors))
        inputs.append(tensors)
    return results[0], results[1], inputs[0], inputs[1]


def _rand(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


def _power(n: int) -> Any:
    """``linalg.matrix_power(a, n)`` in either library."""
    return lambda lib, a: lib.linalg.matrix_power(a, n)


GRAPHS = {
    "addmv": (lambda lib, b, m, v: lib.addmv(b, m, v, beta=2, alpha=0.5), ((3,), (3, 4), (4,))),
    "addr": (lambda lib, b, x, y: lib.addr(b, x, y), ((3, 4), (3,), (4,))),
    "addbmm": (lambda lib, b, x, y: lib.addbmm(b, x, y), ((3, 4), (2, 3, 5), (2, 5, 4))),
    "ger": (lambda lib, x, y: lib.ger(x, y), ((3,), (4,))),
    "multi_dot_2": (lambda lib, *t: lib.linalg.multi_dot(t), ((3, 4), (4, 2))),
    "multi_dot_row": (lambda lib, *t: lib.linalg.multi_dot(t), ((4,), (4, 5), (5, 2))),
    "multi_dot_right": (lambda lib, *t: lib.linalg.multi_dot(t), ((5, 1), (1, 4), (4, 3))),
    "multi_dot_5": (
        lambda lib, *t: lib.linalg.multi_dot(t),
        ((2, 6), (6, 1), (1, 5), (5, 5), (5,)),
    ),
    "chain_matmul": (lambda lib, *t: lib.chain_matmul(*t), ((2, 3), (3, 4), (4, 2))),
    "chain_matmul_1": (lambda lib, t: lib.chain_matmul(t), ((2, 3),)),
    **{f"matrix_power_{n}": (_power(n), ((2, 3, 3),)) for n in (0, 1, 2, 3, 4, 7, -1, -2, -6)},
    "vecdot": (lambda lib, x, y: lib.linalg.vecdot(x, y, dim=0), ((3, 4), (3, 1))),
    "vecdot_1d": (lambda lib, x, y: lib.linalg.vecdot(x, y), ((4,), (4,))),
    "cdist": (lambda lib, x, y: lib.cdist(x, y, 1.5), ((3, 4), (5, 4))),
    "cdist_mm": (lambda lib, x, y: lib.cdist(x, y), ((26, 2), (3, 2))),
    "cdist_mm_batch": (
        lambda lib, x, y: lib.cdist(x, y, compute_mode="use_mm_for_euclid_dist"),
        ((2, 1, 3, 2), (3, 4, 2)),
    ),
    "cov": (lambda lib, x: lib.cov(x), ((3, 5),)),
    "cov_1d": (lambda lib, x: lib.cov(x, correction=0), ((5,),)),
    "corrcoef": (lambda lib, x: lib.corrcoef(x), ((3, 5),)),
    "corrcoef_1d": (lambda lib, x: lib.corrcoef(x), ((5,),)),
    "solve_triangular": (
        lambda lib, a, b: lib.linalg.solve_triangular(a + 4 * lib.eye(3), b, upper=False),
        ((2, 1, 3, 3), (3, 3, 2)),
    ),
    "triangular_solve_copy": (
        lambda lib, b, a: lib.triangular_solve(b, a + 4 * lib.eye(3), transpose=True)[1],
        ((3, 2), (2, 3, 3)),
    ),
    "cholesky_solve": (
        lambda lib, b, a: lib.cholesky_solve(b, (a + 4 * lib.eye(3)).triu(), upper=True),
        ((2, 3, 2), (3, 3)),
    ),
    "cholesky_inverse": (
        lambda lib, a: lib.cholesky_inverse((a + 4 * lib.eye(3)).tril()),
        ((2, 3, 3),),
    ),
    "matrix_exp": (lambda lib, a: lib.linalg.matrix_exp(a), ((2, 3, 3),)),
    "cond": (lambda lib, a: lib.linalg.cond(a), ((2, 3, 4),)),
    "cond_nuc": (lambda lib, a: lib.linalg.cond(a, "nuc"), ((3, 3),)),
    "lu_factor": (lambda lib, a: lib.linalg.lu_factor(a).LU, ((2, 3, 4),)),
    "lu": (lambda lib, a: lib.linalg.lu(a).U, ((2, 2, 3),)),
    "lu_L": (lambda lib, a: lib.linalg.lu(a).L, ((3, 2),)),
    "lu_unpack": (lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a)).L, ((4, 3),)),
    "lu_solve": (
        lambda lib, a, b: lib.linalg.lu_solve(
            *lib.linalg.lu_factor(a + 4 * lib.eye(3)), b, adjoint=True
        ),
        ((3, 3), (2, 3, 2)),
    ),
    "lstsq": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, ((2, 5, 3), (2, 5, 2))),
}


@parametrize_in_one("name", GRAPHS)
def test_the_recorded_graph_and_gradients_are_pytorchs(name: str) -> None:
    build, shapes = GRAPHS[name]
    rng = np.random.default_rng(len(name))
    arrays = [_rand(rng, *s) + (3 * np.eye(s[-1]) if "power" in name else 0) for s in shapes]
    got, expected, got_inputs, expected_inputs = _both(build, *arrays)
    assert _tree(got.grad_fn) == _tree(expected.grad_fn)
    np.testing.assert_allclose(
        got.detach().numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6
    )
    weights = rng.standard_normal(tuple(expected.shape))
    got_grads = minigrad.autograd.grad(got, got_inputs, minigrad.tensor(weights))
    expected_grads = torch.autograd.grad(expected, expected_inputs, torch.tensor(weights))
    for g, e in zip(got_grads, expected_grads):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-5)


INTEGER_CALLS = {
    "addmv": (lambda lib, b, m, v: lib.addmv(b, m, v, beta=1.5, alpha=2.7), ((3,), (3, 4), (4,))),
    "addbmm": (lambda lib, b, x, y: lib.addbmm(b, x, y, beta=2), ((3, 4), (2, 3, 5), (2, 5, 4))),
    "addr": (lambda lib, b, x, y: lib.addr(b, x, y, beta=2, alpha=-3), ((3, 4), (3,), (4,))),
    "matrix_power": (lambda lib, a: lib.matrix_power(a, 5), ((3, 3),)),
    "cov": (lambda lib, x: lib.cov(x), ((2, 5),)),
    "corrcoef": (lambda lib, x: lib.corrcoef(x), ((2, 5),)),
}


@pytest.mark.parametrize("name", INTEGER_CALLS)
def test_integer_inputs_give_pytorchs_values_and_dtypes(name: str) -> None:
    build, shapes = INTEGER_CALLS[name]
    rng = np.random.default_rng(7)
    arrays = [rng.integers(-3, 4, size=s) for s in shapes]
    got, expected, *_ = _both(build, *arrays, grad=False)
    assert str(got.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5)


def test_addr_of_bools_and_of_mixed_dtypes_follows_pytorch() -> None:
    rng = np.random.default_rng(3)
    for arrays in (
        (rng.random((3, 4)) < 0.5, rng.random(3) < 0.5, rng.random(4) < 0.5),
        (rng.standard_normal((3, 4)), rng.integers(0, 3, 3), rng.integers(0, 3, 4)),
    ):
        for beta, alpha in ((1, 1), (0, 1), (2, 0)):
            got, expected, *_ = _both(
                lambda lib, *t, b=beta, a=alpha: lib.addr(*t, beta=b, alpha=a), *arrays, grad=False
            )
            assert str(got.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
            np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)


def test_zero_scalars_ignore_nan_where_pytorchs_kernels_do() -> None:
    nan_matrix, nan_vector, nan_batch = (
        np.full((3, 4), np.nan),
        np.full(3, np.nan),
        np.full((2, 3, 4), np.nan),
    )
    ones = np.ones
    calls = [
        (lambda lib, b, m, v: lib.addmv(b, m, v, beta=0), (nan_vector, ones((3, 4)), ones(4))),
        (lambda lib, b, m, v: lib.addmv(b, m, v, alpha=0), (ones(3), nan_matrix, ones(4))),
        (lambda lib, b, x, y: lib.addr(b, x, y, beta=0), (nan_matrix, ones(3), ones(4))),
        (lambda lib, b, x, y: lib.addr(b, x, y, alpha=0), (ones((3, 4)), nan_vector, ones(4))),
        (
            lambda lib, b, x, y: lib.addbmm(b, x, y, alpha=0),
            (ones((3, 3)), nan_batch, ones((2, 4, 3))),
        ),
    ]
    for build, arrays in calls:
        got, expected, *_ = _both(build, *arrays, grad=False)
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_cov_warns_and_divides_by_zero_degrees_of_freedom_as_pytorch() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3))
    caught = {}
    for lib in (minigrad, torch):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always")
                result = lib.cov(lib.tensor(x), correction=3)
        finally:
            lib.set_warn_always(False)
        texts = [str(w.message).split(" (Triggered internally")[0] for w in record]
        caught[lib.__name__] = (texts, result.numpy())
    assert caught["minigrad"][0] == caught["torch"][0]
    np.testing.assert_array_equal(caught["minigrad"][1], caught["torch"][1])


def test_cov_weights_promote_as_in_pytorch() -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    aweights = rng.uniform(0.5, 1.5, 4)  # float64: the result is float64 in PyTorch
    fweights = np.array([1, 3, 2, 1])
    got, expected, *_ = _both(
        lambda lib, x, f, a: lib.cov(x, fweights=f, aweights=a), x, fweights, aweights, grad=False
    )
    assert got.dtype == minigrad.float64 and expected.dtype == torch.float64
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)


def test_matrix_power_of_a_singular_matrix_raises_pytorchs_error() -> None:
    texts = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            lib.linalg.matrix_power(lib.ones(3, 3), -2)
        texts.append((type(caught.value).__name__, str(caught.value)))
    assert texts[0] == texts[1]


@pytest.mark.parametrize("p", [1, -1, float("inf"), "fro"])
def test_cond_through_the_inverse_cannot_be_differentiated_as_in_pytorch(p: Any) -> None:
    # PyTorch fills the inverse in place after inv_ex saved it: backward raises.
    a = np.random.default_rng(1).standard_normal((3, 3)) + 3 * np.eye(3)
    errors = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, requires_grad=True)
        y = lib.linalg.cond(x, p)
        assert y.grad_fn.name() == "NanToNumBackward0" and y._version == 1
        with pytest.raises(RuntimeError) as caught:
            y.backward()
        errors.append(str(caught.value).replace("torch", "minigrad"))
    assert errors[0] == errors[1]


def test_matrix_rank_tolerances_follow_pytorch() -> None:
    values = np.diag([1.0, 1e-3, 1e-6, 0.0])
    calls = [
        {},
        {"atol": 1e-4},
        {"rtol": 1e-2},
        {"atol": 1e-7, "rtol": 1e-2},
        {"tol": 1e-4},
        {"hermitian": True, "atol": 1e-5},
    ]
    for options in calls:
        got, expected, *_ = _both(
            lambda lib, a, o=options: lib.linalg.matrix_rank(a, **o), values, grad=False
        )
        assert got.item() == expected.item(), options
