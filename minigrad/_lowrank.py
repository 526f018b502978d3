"""Randomized low-rank SVD and PCA: ``svd_lowrank`` and ``pca_lowrank`` (PyTorch's ``_lowrank``).

Halko, Martinsson and Tropp's algorithms (2009): a random Gaussian test matrix R, Q from the QR
of A R refined by ``niter`` subspace iterations (4.4), then the SVD of the small matrix
Q^H A (5.1). Composites of public ops, as in PyTorch, so they are differentiable through
``matmul``, ``linalg.qr`` and ``linalg.svd``. The test matrix comes from minigrad's generator,
whose stream is not PyTorch's: with the same seed the results differ from PyTorch's within the
approximation (exactly, up to signs, where ``q`` reaches the rank of A).
"""

from __future__ import annotations

from typing import Any

from minigrad import _dtype
from minigrad.creation import randn
from minigrad.ops.decompositions import qr, svd
from minigrad.tensor import Tensor


def _floating_dtype(A: Tensor) -> Any:  # noqa: N803 - PyTorch's name
    """A's dtype if it is a float type, else float32 (PyTorch's ``get_floating_dtype``)."""
    return A.dtype if A._array.dtype.kind == "f" else _dtype.float32


def _approximate_basis(A: Tensor, q: int, niter: int, M: Tensor | None) -> Tensor:  # noqa: N803
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M."""
    R = randn(A.shape[-1], q, dtype=_floating_dtype(A))  # noqa: N806 - the paper's names

    def times(matrix: Tensor, mean: Tensor | None, other: Tensor) -> Tensor:
        product = matrix.matmul(other)
        return product if mean is None else product - mean.matmul(other)

    Q = qr(times(A, M, R)).Q  # noqa: N806
    for _ in range(niter):
        Q = qr(times(A.mH, None if M is None else M.mH, Q)).Q  # noqa: N806
        Q = qr(times(A, M, Q)).Q  # noqa: N806
    return Q


def svd_lowrank(
    A: Tensor,  # noqa: N803 - PyTorch's names
    q: int | None = 6,
    niter: int | None = 2,
    M: Tensor | None = None,  # noqa: N803
) -> tuple[Tensor, Tensor, Tensor]:
    """``(U, S, V)`` with ``A - M ~ U diag(S) V^H``: a randomized SVD of rank ``q``.

    ``M`` (optional) is broadcast to A's shape. ``niter`` subspace iterations sharpen the
    basis; the test matrix is drawn from minigrad's global generator (``manual_seed``).

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[3.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
        >>> U, S, V = minigrad.svd_lowrank(A, q=2)
        >>> S.round(decimals=6)
        tensor([3., 2.])
    """
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)  # noqa: N806
    if m < n:
        A = A.mH  # noqa: N806
        M = None if M is None else M.mH  # noqa: N806
    Q = _approximate_basis(A, q, niter, M)  # noqa: N806
    B = Q.mH.matmul(A)  # noqa: N806
    if M is not None:
        B = B - Q.mH.matmul(M)  # noqa: N806
    U, S, Vh = svd(B, full_matrices=False)  # noqa: N806
    V = Vh.mH  # noqa: N806
    U = Q.matmul(U)  # noqa: N806
    if m < n:
        U, V = V, U  # noqa: N806
    return U, S, V


def pca_lowrank(
    A: Tensor,  # noqa: N803 - PyTorch's name
    q: int | None = None,
    center: bool = True,
    niter: int = 2,
) -> tuple[Tensor, Tensor, Tensor]:
    """``(U, S, V)``: principal component analysis of the rows of ``A`` by ``svd_lowrank``.

    With ``center=True`` the column means are subtracted first. ``V``'s columns are the
    principal directions, ``S ** 2 / (m - 1)`` the variances along them. ``q`` defaults to
    ``min(6, m, n)``.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
        >>> U, S, V = minigrad.pca_lowrank(A, q=1)
        >>> S.round(decimals=6)
        tensor([2.])
    """
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter, M=None)
    return svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter, M=None)


__all__ = ["pca_lowrank", "svd_lowrank"]
