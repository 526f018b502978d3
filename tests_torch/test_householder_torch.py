"""``geqrf``, ``linalg.householder_product`` (``orgqr``) and ``ormqr`` against PyTorch.

LAPACK's compact QR: the same reflectors and scales as PyTorch's geqrf (numpy's ``qr(mode='raw')``
is LAPACK's geqrf too), Q rebuilt from them, products with Q and Q^T from both sides, their
gradients (the op table runs gradcheck and gradgradcheck), and the errors for bad shapes.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(20261205)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 4, 3), (0, 2)])
def test_geqrf_matches(shape: tuple[int, ...]) -> None:
    data = _RNG.normal(size=shape)
    mine, theirs = minigrad.geqrf(minigrad.tensor(data)), torch.geqrf(torch.tensor(data))
    assert type(mine).__name__ == "geqrf" and mine._fields == ("a", "tau")
    for got, expected in zip(mine, theirs):
        assert tuple(got.shape) == tuple(expected.shape)
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-10, atol=1e-12)
    if data.size:  # (column-major like LAPACK's result)
        assert mine.a.stride() == theirs.a.stride()


def test_q_and_products_match_with_gradients() -> None:
    data, c = _RNG.normal(size=(5, 3)), _RNG.normal(size=(5, 2))
    outcomes = []
    for lib in (minigrad, torch):
        a, tau = (t.detach().requires_grad_() for t in lib.geqrf(lib.tensor(data)))
        other = lib.tensor(c, requires_grad=True)
        q = lib.linalg.householder_product(a, tau)
        products = [
            lib.ormqr(a, tau, other),
            a.ormqr(tau, other, transpose=True),
            lib.ormqr(a, tau, other.mT, left=False, transpose=True),
        ]
        total = (q * q).sum() + sum((p * p.detach().flip(-1)).sum() for p in products)
        grads = lib.autograd.grad(total, (a, tau, other))
        outcomes.append(
            (
                [t.detach().numpy() for t in (q, *products)],
                [g.numpy() for g in grads],
                q.grad_fn.name(),
                products[0].grad_fn.name(),
            )
        )
    for got, expected in zip(outcomes[0][0] + outcomes[0][1], outcomes[1][0] + outcomes[1][1]):
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-11)
    assert outcomes[0][2:] == outcomes[1][2:]


def test_geqrf_has_no_derivative() -> None:
    for lib in (minigrad, torch):
        result = lib.geqrf(lib.ones(3, 2, dtype=lib.float64, requires_grad=True))
        assert result.a.grad_fn.name() == "GeqrfBackward0"
        with pytest.raises(NotImplementedError, match="the derivative for 'geqrf' is not"):
            result.a.sum().backward()


ERRORS = {
    "geqrf 1-d": lambda lib: lib.geqrf(lib.ones(3)),
    "geqrf int": lambda lib: lib.geqrf(lib.ones(3, 2, dtype=lib.int64)),
    "geqrf half": lambda lib: lib.geqrf(lib.ones(3, 2, dtype=lib.float16)),
    "hp 1-d": lambda lib: lib.linalg.householder_product(lib.ones(3), lib.ones(1)),
    "hp wide": lambda lib: lib.linalg.householder_product(lib.ones(2, 3), lib.ones(1)),
    "hp long tau": lambda lib: lib.linalg.householder_product(lib.ones(3, 2), lib.ones(3)),
    "hp batch": lambda lib: lib.linalg.householder_product(lib.ones(2, 3, 2), lib.ones(3, 2)),
    "hp tau ndim": lambda lib: lib.linalg.householder_product(lib.ones(3, 2), lib.ones(2, 2)),
    "hp dtype": lambda lib: lib.linalg.householder_product(
        lib.ones(3, 2), lib.ones(2, dtype=lib.float64)
    ),
    "hp int": lambda lib: lib.orgqr(lib.ones(3, 2, dtype=lib.int64), lib.ones(2, dtype=lib.int64)),
    "ormqr 1-d": lambda lib: lib.ormqr(lib.ones(3), lib.ones(2), lib.ones(3, 3)),
    "ormqr other 1-d": lambda lib: lib.ormqr(lib.ones(3, 2), lib.ones(2), lib.ones(3)),
    "ormqr rows": lambda lib: lib.ormqr(lib.ones(3, 2), lib.ones(2), lib.ones(2, 2)),
    "ormqr right": lambda lib: lib.ormqr(lib.ones(3, 2), lib.ones(2), lib.ones(2, 2), left=False),
    "ormqr tau": lambda lib: lib.ormqr(lib.ones(3, 2), lib.ones(3), lib.ones(3, 2)),
    "ormqr tau right": lambda lib: lib.ormqr(
        lib.ones(3, 2), lib.ones(1), lib.ones(2, 3), left=False
    ),
    "ormqr tau batch": lambda lib: lib.ormqr(lib.ones(2, 3, 2), lib.ones(3, 2), lib.ones(2, 3, 2)),
    "ormqr other batch": lambda lib: lib.ormqr(
        lib.ones(2, 3, 2), lib.ones(2, 2), lib.ones(3, 3, 2)
    ),
    "ormqr ndim": lambda lib: lib.ormqr(lib.ones(2, 3, 2), lib.ones(2, 2), lib.ones(3, 2)),
    "ormqr tau dtype": lambda lib: lib.ormqr(
        lib.ones(3, 2), lib.ones(2, dtype=lib.float64), lib.ones(3, 2)
    ),
    "ormqr other dtype": lambda lib: lib.ormqr(
        lib.ones(3, 2), lib.ones(2), lib.ones(3, 2, dtype=lib.float64)
    ),
    "ormqr int": lambda lib: lib.ormqr(
        lib.ones(3, 2, dtype=lib.int64),
        lib.ones(2, dtype=lib.int64),
        lib.ones(3, 2, dtype=lib.int64),
    ),
}


@parametrize_in_one("name", ERRORS)
def test_errors_match(name: str) -> None:
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - compared below
            ERRORS[name](lib)
        caught.append((type(info.value), str(info.value).replace("torch", "minigrad")))
    assert caught[0] == caught[1]
