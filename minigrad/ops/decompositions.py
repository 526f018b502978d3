"""Matrix decompositions: ``cholesky``, ``qr``, ``svd``, ``eigh``, and ``pinv`` built on them.

Also ``svdvals``, ``eigvalsh`` and PyTorch's older ``minigrad.cholesky``, ``qr`` and ``svd``.
numpy's LAPACK computes them; the backward formulas are PyTorch's (FunctionsManual.cpp),
written with operators and numpy functions so that they also run on tensors (create_graph).
Each op saves its results, as PyTorch does (``pinv`` its input too), so writing an input
afterwards is legal and writing a result is not.

Singular vectors and eigenvectors are defined up to sign: numpy's LAPACK (OpenBLAS) may pick
other signs than PyTorch's (MKL). A loss that depends on the sign is ill-defined in both; for
real inputs PyTorch does not check this (its gauge check is for complex inputs only), and
neither does minigrad.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._warnings import warn_once
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import views
from minigrad.ops._helpers import (
    constant_tensor,
    given_gradient,
    raw,
)
from minigrad.ops.return_types import (
    return_types,
)
from minigrad.ops.solvers import (
    LinAlgError,
    check_float,
    check_kernel_dtype,
    check_matrix,
    check_square,
    column_major,
    eye_like,
    first_failure,
    matrix_argument,
    solve_in_backward,
)


def _needs_graph(a: Any) -> bool:
    """Whether an op on ``a`` records a node (so the factors its backward needs are due)."""
    return isinstance(a, TensorBase) and a.requires_grad and grad_mode.is_grad_enabled()


# --- cholesky ---------------------------------------------------------------------------------


class LinalgCholeskyEx(Op):
    """(L, info): A = L L^T for symmetric positive-definite A (``upper``: A = U^T U, U = L^T).

    dA = L^-T Phi(L^T dL) L^-1 symmetrised (Murray 2016), Phi = the lower triangle with half
    the diagonal. Saves L (the result).
    """

    fields = ("upper",)
    saves = "L"
    saved_options = ("upper",)

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, upper: bool,
                check: str | None) -> tuple[np.ndarray, np.ndarray]:
        factor, info = _cholesky(a, upper, check)
        ctx.save_for_backward(factor)
        ctx.upper = upper
        return factor, info

    @staticmethod
    def backward(ctx: Any, grad: Any, grad_info: Any) -> tuple[Any, None, None]:
        (factor,) = ctx.saved_tensors
        return _cholesky_backward(grad, factor, ctx.upper), None, None


class Cholesky(Op):
    """``minigrad.cholesky``: L alone, recorded as PyTorch's deprecated ``CholeskyBackward0``.

    Same formulas as LinalgCholeskyEx; saves the result.
    """

    fields = ("upper",)
    saved_options = ("upper",)

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, upper: bool) -> np.ndarray:
        factor, _ = _cholesky(a, upper, "cholesky")
        ctx.save_for_backward(factor)
        ctx.upper = upper
        return factor

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (factor,) = ctx.saved_tensors
        return _cholesky_backward(grad, factor, ctx.upper), None


def _cholesky(a: np.ndarray, upper: bool, check: str | None) -> tuple[np.ndarray, np.ndarray]:
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    try:
        return column_major(np.linalg.cholesky(a, upper=upper)), info
    except np.linalg.LinAlgError:
        pass
    lower, info = _partial_cholesky(np.swapaxes(a, -1, -2) if upper else a)
    if check is not None and info.any():
        raise LinAlgError(errors.not_positive_definite(check, *first_failure(info)))
    return column_major(np.swapaxes(lower, -1, -2) if upper else lower), info


def _partial_cholesky(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK's potf2 (lower, column by column), which stops at the first pivot <= 0 (or nan).

    That diagonal keeps the failed pivot, the columns after it keep A's values.
    """
    n = a.shape[-1]
    lower = np.tril(a).reshape(-1, n, n)
    info = np.zeros(lower.shape[0], dtype=np.int32)
    for j in range(n):
        going = info == 0
        pivot = lower[:, j, j] - np.sum(lower[:, j, :j] ** 2, axis=-1)
        failed = going & ~(pivot > 0)
        lower[failed, j, j] = pivot[failed]
        info[failed] = j + 1
        ok = going & ~failed
        root = np.sqrt(pivot[ok])
        lower[ok, j, j] = root
        below = lower[ok, j + 1:, j] - np.einsum("bik,bk->bi", lower[ok, j + 1:, :j],
                                                 lower[ok, j, :j])
        lower[ok, j + 1:, j] = below / root[:, None]
    return lower.reshape(a.shape), info.reshape(a.shape[:-2])


def _cholesky_backward(grad: Any, factor: Any, upper: bool) -> Any:
    """PyTorch's cholesky_backward: gA = L^-H Phi(L^H gL) L^-1, symmetrised."""
    if upper:
        factor, grad = factor.mT, grad.mT
    phi = np.tril(factor.mT @ grad)
    phi = 0.5 * (phi + np.tril(phi, -1).mT)
    phi = solve_in_backward(factor.mT, phi)
    return solve_in_backward(factor, phi, left=False)


def _cholesky_checks(A: Any, function: str) -> None:  # noqa: N803 - PyTorch's name
    array = matrix_argument(A, function.replace(".", "_"), "input")
    check_square(array, function)
    check_float(array, function, half_kernel="cholesky_cpu")


def cholesky_ex(input: Any, *, upper: bool = False, check_errors: bool = False) -> Any:
    """``(L, info)``: the Cholesky factor, and 0 or the first bad leading minor's order.

    Where a leading minor is not positive-definite, ``info`` is its order and L is the partial
    factorisation: no error (unless ``check_errors``).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.cholesky_ex(minigrad.tensor([[4.0, 2.0], [2.0, 5.0]])).L
        tensor([[2., 0.],
                [1., 2.]])
    """
    _cholesky_checks(input, "linalg.cholesky")
    factor, info = LinalgCholeskyEx.apply(input, upper, "linalg.cholesky_ex" if check_errors
                                          else None)
    return return_types.linalg_cholesky_ex(factor, info)


def cholesky(input: Any, *, upper: bool = False) -> Any:
    """The Cholesky factor L of a symmetric positive-definite matrix: ``input = L @ L.mT``.

    Only the lower triangle of ``input`` is read (``upper=True``: the upper one, and the result is
    ``U = L.mT``). Raises ``minigrad.linalg.LinAlgError`` if ``input`` is not positive-definite.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.cholesky(minigrad.tensor([[4.0, 2.0], [2.0, 5.0]]))
        tensor([[2., 0.],
                [1., 2.]])
    """
    _cholesky_checks(input, "linalg.cholesky")
    return LinalgCholeskyEx.apply(input, upper, "linalg.cholesky")[0]


def cholesky_legacy(input: Any, upper: bool = False) -> Any:
    """``minigrad.cholesky`` (deprecated in PyTorch: use ``minigrad.linalg.cholesky``).

    Warns once, as PyTorch; recorded as ``CholeskyBackward0``.
    """
    _arguments.check_value(upper, "bool", "cholesky", "upper", 2)
    array = matrix_argument(input, "cholesky", "input")
    warn_once(errors.CHOLESKY_DEPRECATED)
    check_square(array, "cholesky")
    check_kernel_dtype(array, "cholesky_cpu")
    return Cholesky.apply(input, upper)


# --- qr ---------------------------------------------------------------------------------------


class LinalgQr(Op):
    """(Q, R) with A = Q R: Q with orthonormal columns, R upper triangular.

    ``mode``: 'reduced', 'complete', or 'r' (R only, Q empty). For m >= n,
    dA = [gQ + Q copyltu(M)] R^-T with M = R gR^T - gQ^T Q (PyTorch's linalg_qr_backward; for
    m < n its second case). Not differentiable with mode='r', nor 'complete' for m > n
    (backward raises, as PyTorch). Saves Q and R.
    """

    fields = ("mode",)
    saves = ("Q", "R")
    saved_options = ("mode",)

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, mode: str) -> tuple[np.ndarray, np.ndarray]:
        if mode == "r":
            q, r = np.zeros((0,), dtype=a.dtype), np.linalg.qr(a, mode="r")
        else:
            q, r = np.linalg.qr(a, mode=mode)
            q = column_major(q)
        r = column_major(r)
        ctx.save_for_backward(q, r)
        ctx.mode = mode
        return q, r

    @staticmethod
    def backward(ctx: Any, grad_q: Any, grad_r: Any) -> tuple[Any, None]:
        q, r = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError(errors.QR_R_NOT_DIFFERENTIABLE)
        m, n = np.shape(q)[-2], np.shape(r)[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError(errors.QR_COMPLETE_NOT_DIFFERENTIABLE)
        return _qr_backward(given_gradient(grad_q), given_gradient(grad_r), q, r), None


def _qr_backward(grad_q: Any, grad_r: Any, q: Any, r: Any) -> Any:
    if grad_q is None and grad_r is None:
        return None
    m, n = np.shape(q)[-2], np.shape(r)[-1]
    grad = 0
    if grad_r is not None:
        grad = grad_r @ r.mT
    if grad_q is not None:
        grad = grad - q.mT @ grad_q
    if m >= n:
        upper = np.triu(grad)
        # syminvadj: X + X^T with the diagonal counted once.
        grad = q @ (upper + np.triu(upper, 1).mT)
        if grad_q is not None:
            grad = grad + grad_q
        return solve_in_backward(r.mT, grad, left=False)
    lower = np.tril(grad.mT - grad)  # PyTorch's trilImInvAdjSkew(-grad)
    grad = solve_in_backward(r[..., :, :m].mT, q @ lower, left=False)
    zeros = np.zeros(np.shape(r)[:-2] + (m, n - m), dtype=raw(r).dtype)
    grad = np.concatenate([grad, zeros], axis=-1)
    if grad_r is not None:
        grad = grad + q @ grad_r
    return grad


def _qr(A: Any, mode: str) -> tuple[Any, Any]:  # noqa: N803 - PyTorch's name
    array = matrix_argument(A, "linalg_qr")
    check_matrix(array, "linalg.qr")
    check_float(array, "linalg.qr", half_kernel="geqrf_cpu")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(errors.qr_mode(mode))
    return LinalgQr.apply(A, mode)


def qr(A: Any, mode: str = "reduced") -> Any:  # noqa: N803 - PyTorch's name
    """``(Q, R)``: A = Q @ R with orthonormal Q and upper-triangular R (of each matrix).

    ``mode``: 'reduced' (Q is m x k, R is k x n, k = min(m, n)), 'complete' (Q is m x m), or
    'r' (R only; Q is empty and the result cannot be differentiated).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.qr(minigrad.tensor([[3.0], [4.0]])).R
        tensor([[-5.]])
    """
    return return_types.linalg_qr(*_qr(A, mode))


def qr_legacy(input: Any, some: bool = True) -> Any:
    """``minigrad.qr`` (deprecated in PyTorch: use ``minigrad.linalg.qr``); warns once.

    ``some=True`` is mode 'reduced', False is 'complete'.
    """
    matrix_argument(input, "qr", "input")
    warn_once(errors.QR_DEPRECATED)
    return return_types.qr(*_qr(input, "reduced" if some else "complete"))


# --- svd --------------------------------------------------------------------------------------


class LinalgSvd(Op):
    """(U, S, Vh) with A = U diag(S) Vh, S descending (``full_matrices``: U and Vh square).

    dA = U [(skew(U^T gU) / E) S + S (skew(V^T gV) / E) + diag(gS)] Vh, E_jk = S_k^2 - S_j^2
    (1 on the diagonal), plus the projections for rectangular A; U diag(gS) Vh when only S is
    used (PyTorch's svd_backward; distinct singular values assumed: repeated ones give inf and
    nan where the loss depends on U or Vh, as in PyTorch). With ``full_matrices`` the extra
    columns of U and rows of Vh get no gradient. Saves U, S and Vh.
    """

    fields = ("full_matrices", "rank")
    saves = ("U", "S", "Vh")
    saved_options = {"full_matrices": "full_matrices", "S_sym_argsize_minus_1": "rank"}

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, full_matrices: bool) -> tuple[Any, Any, Any]:
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        u, s, vh = column_major(u), np.ascontiguousarray(s), column_major(vh)
        ctx.save_for_backward(u, s, vh)
        ctx.full_matrices, ctx.rank = full_matrices, s.shape[-1]
        return u, s, vh

    @staticmethod
    def backward(ctx: Any, grad_u: Any, grad_s: Any, grad_vh: Any) -> tuple[Any, None]:
        u, s, vh = ctx.saved_tensors
        grad_u, grad_s, grad_vh = (given_gradient(g) for g in (grad_u, grad_s, grad_vh))
        if ctx.full_matrices:
            k = np.shape(s)[-1]
            u, vh = u[..., :, :k], vh[..., :k, :]
            grad_u = None if grad_u is None else grad_u[..., :, :k]
            grad_vh = None if grad_vh is None else grad_vh[..., :k, :]
        return _svd_backward(grad_u, grad_s, grad_vh, u, s, vh), None


def _svd_backward(gu: Any, gs: Any, gvh: Any, u: Any, s: Any, vh: Any) -> Any:
    """PyTorch's svd_backward for real matrices."""
    m, n = np.shape(u)[-2], np.shape(vh)[-1]
    if gu is None and gvh is None:
        if gs is None:
            return None
        if m >= n:
            return u @ (np.expand_dims(gs, -1) * vh)
        return (u * np.expand_dims(gs, -2)) @ vh
    eye = np.eye(np.shape(s)[-1], dtype=raw(s).dtype)
    s2 = s * s
    e = np.expand_dims(s2, -2) - np.expand_dims(s2, -1) + eye
    inner = 0
    if gu is not None:
        uhgu = u.mT @ gu
        inner = inner + (uhgu - uhgu.mT) / e * np.expand_dims(s, -2)
    if gvh is not None:
        vhgv = vh @ gvh.mT
        inner = inner + np.expand_dims(s, -1) * ((vhgv - vhgv.mT) / e)
    if gs is not None:
        inner = inner + np.expand_dims(gs, -1) * eye
    if m > n and gu is not None:
        ga = u @ inner
        gu_sinv = gu / np.expand_dims(s, -2)
        ga = ga + gu_sinv - u @ (u.mT @ gu_sinv)
        return ga @ vh
    if m < n and gvh is not None:
        ga = inner @ vh
        sinv_gvh = gvh / np.expand_dims(s, -1)
        ga = ga + sinv_gvh - (sinv_gvh @ vh.mT) @ vh
        return u @ ga
    return u @ (inner @ vh) if m >= n else (u @ inner) @ vh


def _svd_checks(A: Any, driver: Any = None) -> None:  # noqa: N803 - PyTorch's name
    array = matrix_argument(A, "linalg_svd")
    check_matrix(array, "linalg.svd")
    check_float(array, "linalg.svd", half_kernel="linalg_svd_cpu")
    if driver is not None:
        raise RuntimeError(errors.SVD_DRIVER)


def svd(A: Any, full_matrices: bool = True, *, driver: Any = None) -> Any:  # noqa: N803
    """``(U, S, Vh)``: A = U @ diag(S) @ Vh, singular values S in descending order.

    ``full_matrices=True`` (the default) gives square U (m x m) and Vh (n x n); False the
    reduced factors (k = min(m, n) columns of U, rows of Vh). Singular vectors are defined up
    to sign (minigrad's may differ from PyTorch's).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.svd(minigrad.tensor([[3.0, 0.0], [0.0, -4.0]])).S
        tensor([4., 3.])
    """
    _svd_checks(A, driver)
    return return_types.linalg_svd(*LinalgSvd.apply(A, full_matrices))


def svdvals(A: Any, *, driver: Any = None) -> Any:  # noqa: N803 - PyTorch's name
    """The singular values of A (of each matrix), in descending order.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.svdvals(minigrad.tensor([[3.0, 0.0], [0.0, -4.0]]))
        tensor([4., 3.])
    """
    _svd_checks(A, driver)
    if _needs_graph(A):  # the backward needs U and Vh too (PyTorch computes them then)
        return LinalgSvd.apply(A, False)[1]
    return constant_tensor(np.linalg.svd(A._array, compute_uv=False))


def svd_legacy(input: Any, some: bool = True, compute_uv: bool = True) -> Any:
    """``minigrad.svd``: ``(U, S, V)`` with A = U diag(S) V^T (V, not Vh: a transposed view).

    ``some=True`` gives the reduced factors. With ``compute_uv=False``, U and V are zeros
    (square) and only S is computed.

    Example:
        >>> import minigrad
        >>> minigrad.svd(minigrad.tensor([[3.0, 0.0], [0.0, -4.0]])).S
        tensor([4., 3.])
    """
    array = matrix_argument(input, "svd", "input")
    if array.ndim < 2:
        raise RuntimeError(errors.svd_too_few_dims(array.ndim))
    if not compute_uv:
        s = svdvals(input)
        batch, (m, n) = array.shape[:-2], array.shape[-2:]
        zeros = [constant_tensor(np.zeros(batch + (size, size), dtype=array.dtype))
                 for size in (m, n)]
        return return_types.svd(zeros[0], s, zeros[1])
    u, s, vh = svd(input, full_matrices=not some)
    return return_types.svd(u, s, views.transpose(vh, -2, -1))


# --- eigh -------------------------------------------------------------------------------------


class LinalgEigh(Op):
    """(L, V): A = V diag(L) V^T for symmetric A (read from the ``UPLO`` triangle), L ascending.

    dA = V (skew(V^T gV) / (2 E) + diag(gL)) V^T with E_ij = L_j - L_i (1 on the diagonal);
    V diag(gL) V^T when only L is used (PyTorch's linalg_eig_backward, hermitian case; repeated
    eigenvalues give inf and nan where the loss depends on V, as in PyTorch). The gradient is
    not symmetric: it is PyTorch's, for a loss that sees A's both triangles. Saves L and V.
    """

    fields = ()
    saves = ("eigenvalues", "eigenvectors")

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, uplo: str) -> tuple[np.ndarray, np.ndarray]:
        values, vectors = np.linalg.eigh(a, UPLO=uplo)
        vectors = column_major(vectors)
        ctx.save_for_backward(values, vectors)
        return values, vectors

    @staticmethod
    def backward(ctx: Any, grad_values: Any, grad_vectors: Any) -> tuple[Any, None]:
        values, vectors = ctx.saved_tensors
        grad_values, grad_vectors = given_gradient(grad_values), given_gradient(grad_vectors)
        return _eigh_backward(grad_values, grad_vectors, values, vectors), None


def _eigh_backward(grad_values: Any, grad_vectors: Any, values: Any, vectors: Any) -> Any:
    if grad_vectors is None:
        if grad_values is None:
            return None
        return (vectors * np.expand_dims(grad_values, -2)) @ vectors.mT
    inner = vectors.mT @ grad_vectors
    inner = 0.5 * (inner - inner.mT)
    eye = eye_like(vectors)
    inner = inner / (np.expand_dims(values, -2) - np.expand_dims(values, -1) + eye)
    if grad_values is not None:
        inner = inner + eye * np.expand_dims(grad_values, -2)
    return vectors @ (inner @ vectors.mT)


def _eigh_checks(A: Any, UPLO: str, function: str) -> None:  # noqa: N803 - PyTorch's names
    array = matrix_argument(A, function, "input")
    check_square(array, "linalg.eigh")
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(errors.uplo(UPLO))
    check_kernel_dtype(array, "linalg_eigh_cpu")


def eigh(input: Any, UPLO: str = "L") -> Any:  # noqa: N803 - PyTorch's name
    """``(eigenvalues, eigenvectors)`` of a symmetric matrix, eigenvalues ascending.

    Only the triangle ``UPLO`` ('L' or 'U') of ``input`` is read. Eigenvectors are defined up to
    sign (minigrad's may differ from PyTorch's).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.eigh(minigrad.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
        tensor([1., 2.])
    """
    _eigh_checks(input, UPLO, "linalg_eigh")
    return return_types.linalg_eigh(*LinalgEigh.apply(input, UPLO.upper()))


def eigvalsh(input: Any, UPLO: str = "L") -> Any:  # noqa: N803 - PyTorch's name
    """The eigenvalues of a symmetric matrix, ascending (only the triangle ``UPLO`` is read).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.eigvalsh(minigrad.tensor([[2.0, 1.0], [1.0, 2.0]]))
        tensor([1., 3.])
    """
    _eigh_checks(input, UPLO, "linalg_eigvalsh")
    if _needs_graph(input):  # the backward needs the eigenvectors too (PyTorch computes them then)
        return LinalgEigh.apply(input, UPLO.upper())[0]
    return constant_tensor(np.linalg.eigvalsh(input._array, UPLO=UPLO.upper()))


# --- pinv -------------------------------------------------------------------------------------


class LinalgPinv(Op):
    """The pseudo-inverse A^+ through the SVD (``hermitian``: eigh).

    Singular values at or below max(atol, rtol * the largest) count as zero. dA = PyTorch's
    pinv_backward (a sum of products of A^+, A and grad; discontinuous where the rank
    changes). Saves A and the result.
    """

    fields = ()

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, atol: Any, rtol: Any, hermitian: bool) -> np.ndarray:
        result = _pinv(a, atol, rtol, hermitian)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        a, pinv_a = ctx.saved_tensors
        return _pinv_backward(grad, pinv_a, a), None, None, None


def _pinv(a: np.ndarray, atol: Any, rtol: Any, hermitian: bool) -> np.ndarray:
    m, n = a.shape[-2:]
    if a.size == 0:
        return np.zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
    if rtol is None:
        default = np.finfo(a.dtype).eps * max(m, n)
        rtol = default if atol is None else np.where(np.asarray(atol) > 0, 0.0, default)
    atol = 0.0 if atol is None else atol
    if hermitian:
        values, vectors = np.linalg.eigh(a)
        largest = np.max(np.abs(values), axis=-1, keepdims=True)
        tol = np.maximum(np.expand_dims(atol, -1), np.expand_dims(rtol, -1) * largest)
        inverse = np.where(np.abs(values) > tol, 1 / values, 0).astype(a.dtype)
        return (vectors * np.expand_dims(inverse, -2)) @ vectors.mT
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    tol = np.maximum(np.expand_dims(atol, -1), np.expand_dims(rtol, -1) * s[..., :1])
    inverse = np.where(s > tol, 1 / s, 0).astype(a.dtype)
    return (vh.mT * np.expand_dims(inverse, -2)) @ u.mT


def _pinv_backward(grad: Any, pinv_a: Any, a: Any) -> Any:
    """PyTorch's pinv_backward (real case)."""
    m, n = np.shape(a)[-2:]
    pinv_t, grad_t = pinv_a.mT, grad.mT
    if m <= n:
        k = grad_t @ pinv_a
        k_pinv_t = k @ pinv_t
        return (-(pinv_a @ k).mT + k_pinv_t - (a @ pinv_a) @ k_pinv_t
                + (pinv_t @ pinv_a) @ (grad_t - k @ a))
    k = pinv_a @ grad_t
    pinv_t_k = pinv_t @ k
    return (-(k @ pinv_a).mT + ((grad_t - a @ k) @ pinv_a) @ pinv_t + pinv_t_k
            - (pinv_t_k @ pinv_a) @ a)


_PINV_SIGNATURES = (
    "Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, Tensor rcond, bool hermitian = False, *, Tensor out = None",
    "Tensor input, float rcond, bool hermitian = False, *, Tensor out = None",
)


def _tolerance(value: Any) -> Any:
    # A tolerance is a number or a tensor (one per matrix of the batch), used in float64.
    return None if value is None else np.asarray(raw(value), dtype=np.float64)


def pinv(input: Any, rcond: Any = None, hermitian: bool = False, *, atol: Any = None,
         rtol: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse of ``input`` (of each matrix).

    Singular values at or below ``max(atol, rtol * largest)`` count as zero; ``rtol`` defaults
    to ``eps * max(m, n)`` unless a positive ``atol`` is given (then 0). ``rcond`` is the older
    name of ``rtol`` (with ``atol=0``). ``hermitian=True`` reads ``input`` as symmetric (lower
    triangle) and uses ``eigh``.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.pinv(minigrad.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    array = matrix_argument(input, "linalg_pinv")
    if atol is not None and not isinstance(atol, TensorBase) and rtol is None and rcond is None:
        # PyTorch's overload for a number atol computes the default rtol first.
        if array.ndim < 2:
            raise IndexError(errors.dim_out_of_range(-2, array.ndim))
        if array.dtype not in (np.float32, np.float64):
            raise RuntimeError(errors.FLOAT_OR_DOUBLE_ONLY)
    if rcond is not None:
        if atol is not None or rtol is not None:
            kwargs = {k: v for k, v in (("atol", atol), ("rtol", rtol)) if v is not None}
            raise TypeError(errors.invalid_arguments("linalg_pinv", (input,),
                                                     {**kwargs, "rcond": rcond},
                                                     _PINV_SIGNATURES))
        atol, rtol = 0.0, rcond
    if array.ndim < 2 or array.dtype not in (np.float32, np.float64):
        raise RuntimeError(errors.pinv_input(display_name(array.dtype), array.shape))
    if hermitian:
        check_square(array, "linalg.eigh")
    return LinalgPinv.apply(input, _tolerance(atol), _tolerance(rtol), hermitian)


def pinverse(input: Any, rcond: float = 1e-15) -> Any:
    """The pseudo-inverse: ``minigrad.linalg.pinv(input, rcond=rcond)``.

    Singular values at or below ``rcond`` times the largest count as zero.

    Example:
        >>> import minigrad
        >>> minigrad.pinverse(minigrad.tensor([[2.0, 0.0]]))
        tensor([[0.5000],
                [0.0000]])
    """
    return pinv(input, rcond=rcond)
