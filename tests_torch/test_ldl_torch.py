"""``linalg.ldl_factor`` (``_ex``) and ``linalg.ldl_solve`` against PyTorch.

minigrad's Bunch-Kaufman is LAPACK's sytf2 replayed: on random symmetric indefinite matrices
(with small diagonals, which call for 2x2 blocks, and with integer entries, where the pivot
comparisons tie) the pivots must be PyTorch's exactly and LD equal to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(20261207)


def _symmetric(n: int, kind: str) -> np.ndarray:
    a = _RNG.normal(size=(n, n))
    a = a + a.T
    if kind == "small diagonal":
        a[np.diag_indices(n)] *= 0.05
    elif kind == "integers":
        a = np.round(a)
    return a


@pytest.mark.parametrize("kind", ["plain", "small diagonal", "integers"])
def test_factors_and_solutions_match(kind: str) -> None:
    for n in (1, 2, 3, 5, 8):
        for _ in range(6):
            a, b = _symmetric(n, kind), _RNG.normal(size=(n, 2))
            mine = minigrad.linalg.ldl_factor_ex(minigrad.tensor(a))
            theirs = torch.linalg.ldl_factor_ex(torch.tensor(a))
            np.testing.assert_array_equal(mine.pivots.numpy(), theirs.pivots.numpy())
            assert int(mine.info) == int(theirs.info)
            np.testing.assert_allclose(mine.LD.numpy(), theirs.LD.numpy(), rtol=1e-9, atol=1e-9)
            if int(theirs.info) == 0 and np.linalg.cond(a) < 1e8:
                x_mine = minigrad.linalg.ldl_solve(mine.LD, mine.pivots, minigrad.tensor(b))
                x_theirs = torch.linalg.ldl_solve(theirs.LD, theirs.pivots, torch.tensor(b))
                np.testing.assert_allclose(x_mine.numpy(), x_theirs.numpy(), rtol=1e-7, atol=1e-9)


def test_batched_float32_and_layout_match() -> None:
    a = np.stack([_symmetric(4, "small diagonal") for _ in range(3)]).astype(np.float32)
    mine, theirs = (
        minigrad.linalg.ldl_factor(minigrad.tensor(a)),
        torch.linalg.ldl_factor(torch.tensor(a)),
    )
    np.testing.assert_array_equal(mine.pivots.numpy(), theirs.pivots.numpy())
    np.testing.assert_allclose(mine.LD.numpy(), theirs.LD.numpy(), rtol=1e-4, atol=1e-5)
    assert mine.LD.stride() == theirs.LD.stride()


def test_no_derivative_as_in_pytorch() -> None:
    for lib in (minigrad, torch):
        a = lib.tensor([[1.0, 2.0], [2.0, 1.0]], requires_grad=True)
        ld, pivots = lib.linalg.ldl_factor(a)
        assert ld.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is"):
            ld.sum().backward()
        x = lib.linalg.ldl_solve(ld.detach(), pivots, lib.ones(2, 1, requires_grad=True))
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_solve is"):
            x.sum().backward()


ERRORS = {
    "1-d": lambda lib: lib.linalg.ldl_factor(lib.ones(3)),
    "not square": lambda lib: lib.linalg.ldl_factor(lib.ones(2, 3)),
    "integers": lambda lib: lib.linalg.ldl_factor(lib.ones(2, 2, dtype=lib.int64)),
    "half": lambda lib: lib.linalg.ldl_factor(lib.ones(2, 2, dtype=lib.float16)),
    "singular": lambda lib: lib.linalg.ldl_factor(lib.zeros(2, 2)),
    "singular, checked": lambda lib: lib.linalg.ldl_factor_ex(
        lib.tensor([[1.0, 0.0], [0.0, 0.0]]), check_errors=True
    ),
    "solve dtype": lambda lib: lib.linalg.ldl_solve(
        *lib.linalg.ldl_factor(lib.eye(3)), lib.ones(3, 2, dtype=lib.float64)
    ),
    "solve sizes": lambda lib: lib.linalg.ldl_solve(
        *lib.linalg.ldl_factor(lib.eye(3)), lib.ones(2, 2)
    ),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match(name: str) -> None:
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - compared below
            ERRORS[name](lib)
        caught.append((type(info.value), str(info.value).replace("torch.", "minigrad.")))
    assert caught[0] == caught[1]
