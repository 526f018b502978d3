"""``svd_lowrank`` and ``pca_lowrank`` against PyTorch.

Their test matrices come from each library's own random stream, so values are compared where
the algorithm is exact: ``q`` at least the rank of A (the singular values, U diag(S) V^H, and
the gradient of the singular values), plus the graph's node names, the shapes for wide, tall
and batched inputs, and the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

def _low_rank(*shape: int, rank: int = 3) -> np.ndarray:
    # (a stream of its own per call: a case's matrix must not depend on which cases ran
    # before it in its worker. The gradient's tolerance below holds for these matrices, not
    # for every draw: pca_lowrank's centred (2, 6, 4) matrix of another seed, 8, is worse
    # conditioned and its gradients differ by 1.8e-5)
    rng = np.random.default_rng(20261206)
    *batch, m, n = shape
    return rng.normal(size=(*batch, m, rank)) @ rng.normal(size=(*batch, rank, n))


@pytest.mark.parametrize("shape", [(7, 5), (5, 7), (2, 6, 4)])
@pytest.mark.parametrize("function", ["svd_lowrank", "pca_lowrank", "svd_lowrank_mean"])
def test_exact_where_q_reaches_the_rank(shape: tuple[int, ...], function: str) -> None:
    data = _low_rank(*shape)
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        a = lib.tensor(data, requires_grad=True)
        if function == "svd_lowrank_mean":
            mean = lib.tensor(data.mean(axis=-2, keepdims=True))
            u, s, v = lib.svd_lowrank(a, q=4, M=mean)
        else:
            u, s, v = getattr(lib, function)(a, q=4, **({"niter": 3} if "pca" in function else {}))
        (grad,) = lib.autograd.grad(s[..., :3].sum(), a)
        rebuilt = u @ lib.diag_embed(s) @ v.mT
        names = [t.grad_fn.name() for t in (u, s, v)]
        results.append(
            (
                s.detach().numpy()[..., :3],
                rebuilt.detach().numpy(),
                grad.numpy(),
                names,
                tuple(u.shape),
                tuple(v.shape),
            )
        )
    mine, theirs = results
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-10)
    np.testing.assert_allclose(mine[1], theirs[1], atol=1e-10)
    np.testing.assert_allclose(mine[2], theirs[2], atol=1e-6)  # (through a random basis)
    assert mine[3:] == theirs[3:]


ERRORS = {
    "q too large": lambda lib: lib.pca_lowrank(lib.ones(3, 2), q=3),
    "q negative": lambda lib: lib.pca_lowrank(lib.ones(3, 2), q=-1),
    "niter negative": lambda lib: lib.pca_lowrank(lib.ones(3, 2), niter=-1),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match(name: str) -> None:
    caught = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:  # noqa: PT011 - compared below
            ERRORS[name](lib)
        caught.append((type(info.value), str(info.value)))
    assert caught[0] == caught[1]
