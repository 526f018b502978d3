"""The LU factorisation: lu_factor, lu, lu_unpack, lu_solve (and the legacy lu and lu_solve).

``A = P L U`` with partial pivoting, as LAPACK's getrf: L (m x k) unit lower triangular, U
(k x n) upper triangular, k = min(m, n). ``lu_factor`` packs L (below the diagonal) and U into
one matrix ``LU`` and gives LAPACK's ``pivots`` (int32, 1-based: row i was swapped with row
``pivots[i]``). numpy has no LU, so the unblocked algorithm (getf2) runs here, vectorised over
the batch; it picks the pivots getrf picks (the first of the largest magnitudes).

Gradients are PyTorch's ``linalg_lu_backward`` (square, wide and tall cases), and for
``lu_solve`` the adjoint of ``dA = P (dL U + L dU)`` applied to the solve's gradient for A.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._warnings import warn_once
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import broadcast_shapes, is_tensor, raw, run
from minigrad.ops.return_types import return_types
from minigrad.ops.solvers import check_matrix, check_square, lu_factor_arrays, matrix_argument
from minigrad.ops.triangular import LinalgSolveTriangular

LU_DEPRECATED = (
    "minigrad.lu is deprecated in favor of minigrad.linalg.lu_factor / "
    "minigrad.linalg.lu_factor_ex and will be removed in a future PyTorch release.\nLU, pivots = "
    "minigrad.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
    "minigrad.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = minigrad.lu(A, "
    "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
    "minigrad.linalg.lu_factor_ex(A, compute_pivots)"
)
LU_SOLVE_DEPRECATED = (
    "minigrad.lu_solve is deprecated in favor of minigrad.linalg.lu_solveand will be removed in "
    "a future PyTorch release.\nNote that minigrad.linalg.lu_solve has its arguments reversed.\n"
    "X = minigrad.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = minigrad.linalg.lu_solve(LU, pivots, B)"
)


# --- the kernels on arrays --------------------------------------------------------------------


def permutation_arrays(pivots: np.ndarray, m: int, dtype: np.dtype) -> np.ndarray:
    """The permutation matrices P (m x m) of LAPACK's pivots: ``A = P L U``."""
    order = np.tile(np.arange(m), pivots.shape[:-1] + (1,))
    flat, swaps = order.reshape(-1, m), (pivots.reshape(-1, pivots.shape[-1]) - 1)
    batch = np.arange(flat.shape[0])
    for j in range(swaps.shape[-1]):
        rows = swaps[:, j]
        flat[batch, j], flat[batch, rows] = flat[batch, rows], flat[batch, j].copy()
    permutation = np.zeros(order.shape + (m,), dtype=dtype)
    np.put_along_axis(permutation, order[..., None], 1, axis=-1)  # P^T: row i picks order[i]
    return np.swapaxes(permutation, -1, -2)


def _permutation(pivots: np.ndarray, m: int, like: Any) -> Any:
    """P for formulas on ``like``: an array, or a constant tensor under create_graph."""
    p = permutation_arrays(pivots, m, raw(like).dtype)
    return TensorBase.output_class._make(p) if is_tensor(like) else p


def _unpack(lu: Any, k: int) -> tuple[Any, Any]:
    """L (unit lower, m x k) and U (upper, k x n) of a packed ``LU`` (arrays or tensors)."""
    m = np.shape(lu)[-2]
    lower = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=raw(lu).dtype)
    return lower, np.triu(lu[..., :k, :])


def _check_pivots(pivots: np.ndarray, lu: np.ndarray, function: str) -> None:
    if pivots.dtype != np.int32:
        raise RuntimeError(
            f"{function}: Expected pivots to be a tensor of type Int, but got "
            f"{display_name(pivots.dtype)}"
        )


# --- gradients --------------------------------------------------------------------------------


def _solve(a: Any, b: Any, upper: bool, left: bool, unit: bool = False) -> Any:
    return run(LinalgSolveTriangular, a, b, upper, left, unit)


def _alike(*values: Any) -> tuple[Any, ...]:
    """All arrays, or (under create_graph, when one is a tensor) all tensors: constants wrapped.

    A batched product of a tensor with an array is not one minigrad records.
    """
    if not any(is_tensor(v) for v in values):
        return values
    return tuple(
        v if is_tensor(v) else TensorBase.output_class._make(np.asarray(v)) for v in values
    )


def lu_backward(grad_l: Any, grad_u: Any, p: Any, lower: Any, upper: Any) -> Any:
    """PyTorch's ``linalg_lu_backward``: dA from the gradients of L and U (real case)."""
    m, k = np.shape(lower)[-2:]
    n = np.shape(upper)[-1]
    grad_l, grad_u, p, lower, upper = _alike(grad_l, grad_u, p, lower, upper)
    if m == n:
        grad = np.tril(lower.mT @ grad_l, -1) + np.triu(grad_u @ upper.mT)
        grad = _solve(upper.mT, grad, False, False)
        grad = _solve(lower.mT, grad, True, True, True)
        return p @ grad
    if m < n:  # wide
        grad = lower.mT @ grad_l - np.triu(grad_u) @ upper.mT
        grad = _solve(upper[..., :k].mT, np.tril(grad, -1), False, False)
        grad = np.concatenate([grad + np.triu(grad_u[..., :k]), grad_u[..., k:]], axis=-1)
        grad = _solve(lower.mT, grad, True, True, True)
        return p @ grad
    grad = grad_u @ upper.mT - lower.mT @ np.tril(grad_l, -1)  # tall
    grad = _solve(lower[..., :k, :].mT, np.triu(grad), True, True, True)
    grad = np.concatenate([grad + np.tril(grad_l[..., :k, :], -1), grad_l[..., k:, :]], axis=-2)
    grad = _solve(upper.mT, grad, False, False)
    return p @ grad


# --- lu_factor, lu, lu_unpack -----------------------------------------------------------------


class LinalgLuFactorEx(Op):
    """(LU, pivots) = the packed LU factorisation;  dA = lu_backward(dLU's L and U parts).

    Saves the packed LU and the pivots (outputs).
    """

    fields = ("k",)
    saves = ("LU", "pivots")
    saved_options = {"pivot": lambda node: True}

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lu, pivots = lu_factor_arrays(a)
        ctx.save_for_backward(lu, pivots)
        ctx.k = min(a.shape[-2:])
        return lu, pivots

    @staticmethod
    def backward(ctx: Any, grad: Any, grad_pivots: Any) -> Any:
        lu, pivots = ctx.saved_tensors
        k = ctx.k
        lower, upper = _unpack(lu, k)
        p = _permutation(raw(pivots), np.shape(lu)[-2], lu)
        return lu_backward(grad[..., :, :k], grad[..., :k, :], p, lower, upper)


def _check_lu_input(A: Any, function: str) -> np.ndarray:  # noqa: N803 - PyTorch's name
    array = matrix_argument(A, function.replace(".", "_"), "A")
    if array.ndim < 2:
        shown = "linalg.lu" if function == "linalg.lu" else "minigrad.lu_factor"
        raise RuntimeError(
            f"{shown}: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(array.shape)} instead"
        )
    if array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(errors.not_implemented_for("lu_cpu", display_name(array.dtype)))
    return array


def _check_pivot(pivot: bool, function: str) -> None:
    if not pivot:
        raise RuntimeError(f"{function}: LU without pivoting is not implemented on the CPU")


def lu_factor(A: Any, *, pivot: bool = True) -> Any:  # noqa: N803 - PyTorch's name
    """``(LU, pivots)``: the LU factorisation with partial pivoting, packed as LAPACK's.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.lu_factor(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
        tensor([2, 2], dtype=minigrad.int32)
    """
    _check_lu_input(A, "linalg.lu_factor")
    _check_pivot(pivot, "linalg.lu_factor")
    lu, pivots = LinalgLuFactorEx.apply(A)
    diagonal = np.diagonal(lu._array, axis1=-2, axis2=-1)
    if (diagonal == 0).any():  # (lu_factor_ex and lu give the factors; lu_factor refuses)
        zero = (diagonal == 0).reshape(-1, diagonal.shape[-1])
        batch = int(np.flatnonzero(zero.any(-1))[0])
        index = int(np.argmax(zero[batch])) + 1
        where = f"(Batch element {batch}): " if diagonal.ndim > 1 else ""
        raise RuntimeError(
            f"minigrad.linalg.lu_factor: {where}U[{index},{index}] is zero and using it on "
            "lu_solve would result in a division by zero. If you still want to perform the "
            "factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return return_types.linalg_lu_factor(lu, pivots)


def lu_factor_ex(A: Any, *, pivot: bool = True,  # noqa: N803 - PyTorch's name
                 check_errors: bool = False) -> Any:
    """``(LU, pivots, info)``: ``lu_factor``'s factors, and per matrix 0 or the first zero pivot.

    A singular matrix is factored all the same (``info`` says where U's diagonal is zero),
    unless ``check_errors``.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.lu_factor_ex(minigrad.tensor([[1.0, 2.0], [2.0, 4.0]])).info
        tensor(2, dtype=minigrad.int32)
    """
    _check_lu_input(A, "linalg.lu_factor_ex")
    _check_pivot(pivot, "linalg.lu_factor_ex")
    lu, pivots = LinalgLuFactorEx.apply(A)
    zero = np.diagonal(lu._array, axis1=-2, axis2=-1) == 0
    # LAPACK's info: the 1-based index of the first zero on U's diagonal, 0 if none
    info = np.where(zero.any(-1), np.argmax(zero, axis=-1) + 1, 0).astype(np.int32)
    if check_errors and info.any():
        flat = info.reshape(-1)
        batch = int(np.flatnonzero(flat)[0])
        index = int(flat[batch])
        where = f"(Batch element {batch}): " if info.ndim else ""
        raise RuntimeError(
            f"minigrad.linalg.lu_factor_ex: {where}U[{index},{index}] is zero and using it on "
            "lu_solve would result in a division by zero. If you still want to perform the "
            "factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return return_types.linalg_lu_factor_ex(lu, pivots, TensorBase.output_class._make(info))


class LinalgLu(Op):
    """(L, U) with A = P L U, from the factorisation the caller made.

    dA = lu_backward(dL, dU).  Saves P, L and U; P is not an output of the node (it has no
    gradient), as in PyTorch.
    """

    saves = ("P", "L", "U")
    saved_options = {"pivot": lambda node: True}

    @staticmethod
    def forward(
        ctx: Any, a: np.ndarray, lu: np.ndarray, p: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        lower, upper = _unpack(lu, min(a.shape[-2:]))
        ctx.save_for_backward(p, lower, upper)
        return lower, upper

    @staticmethod
    def backward(ctx: Any, grad_l: Any, grad_u: Any) -> Any:
        p, lower, upper = ctx.saved_tensors
        return lu_backward(grad_l, grad_u, p, lower, upper), None, None


def lu(A: Any, *, pivot: bool = True) -> Any:  # noqa: N803 - PyTorch's name
    """``(P, L, U)`` with ``A = P @ L @ U``: the LU factorisation with partial pivoting.

    Example:
        >>> import minigrad
        >>> P, L, U = minigrad.linalg.lu(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> U
        tensor([[3.0000, 4.0000],
                [0.0000, 0.6667]])
    """
    array = _check_lu_input(A, "linalg.lu")
    _check_pivot(pivot, "linalg.lu")
    packed, pivots = lu_factor_arrays(array)
    p = permutation_arrays(pivots, array.shape[-2], array.dtype)
    lower, upper = LinalgLu.apply(A, packed, p)
    return return_types.linalg_lu(TensorBase.output_class._make(p), lower, upper)


class LuUnpack(Op):
    """(L, U) of a packed LU;  dLU = tril(dL, -1) and triu(dU), packed.  Saves its sizes."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {
        "LU_data_sym_argsize_minus_1": part("shape", -1),
        "LU_data_sym_argsize_minus_2": part("shape", -2),
    }

    @staticmethod
    def forward(ctx: Any, lu_data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ctx.shape = lu_data.shape
        return _unpack(lu_data, min(lu_data.shape[-2:]))

    @staticmethod
    def backward(ctx: Any, grad_l: Any, grad_u: Any) -> Any:
        m, n = ctx.shape[-2:]
        lower, upper = np.tril(grad_l, -1), np.triu(grad_u)
        if m == n:
            return lower + upper
        if m < n:  # L is m x m: U's extra columns
            return np.concatenate([lower + upper[..., :, :m], upper[..., :, m:]], axis=-1)
        return np.concatenate([lower[..., :n, :] + upper, lower[..., n:, :]], axis=-2)


def lu_unpack(
    LU_data: Any,
    LU_pivots: Any,
    unpack_data: bool = True,  # noqa: N803
    unpack_pivots: bool = True,
) -> Any:
    """``(P, L, U)`` from ``lu_factor``'s packed ``LU`` and pivots.

    Example:
        >>> import minigrad
        >>> LU, pivots = minigrad.linalg.lu_factor(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> minigrad.lu_unpack(LU, pivots).L
        tensor([[1.0000, 0.0000],
                [0.3333, 1.0000]])
    """
    data = matrix_argument(LU_data, "lu_unpack", "LU_data")
    pivots = matrix_argument(LU_pivots, "lu_unpack", "LU_pivots")
    if data.ndim < 2:
        raise RuntimeError(
            "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(data.shape)} instead".replace("torch.", "minigrad.", 1)
        )
    _check_pivots(pivots, data, "lu_unpack")
    empty = TensorBase.output_class._make(np.zeros(0, dtype=data.dtype))
    if unpack_data:
        lower, upper = LuUnpack.apply(LU_data)
    else:
        lower, upper = empty, TensorBase.output_class._make(np.zeros(0, dtype=data.dtype))
    p = (
        TensorBase.output_class._make(permutation_arrays(pivots, data.shape[-2], data.dtype))
        if unpack_pivots
        else TensorBase.output_class._make(np.zeros(0, dtype=data.dtype))
    )
    return return_types.lu_unpack(p, lower, upper)


def lu_legacy(A: Any, pivot: bool = True, get_infos: bool = False) -> Any:  # noqa: N803
    """``(LU, pivots)`` (and ``infos`` with ``get_infos``): the packed LU factorisation.

    Deprecated in PyTorch for ``minigrad.linalg.lu_factor``; a singular matrix is no error.

    Example:
        >>> import warnings
        >>> import minigrad
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     LU, pivots = minigrad.lu(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> pivots
        tensor([2, 2], dtype=minigrad.int32)
    """
    warn_once(LU_DEPRECATED)
    _check_lu_input(A, "linalg.lu_factor_ex")
    _check_pivot(pivot, "linalg.lu_factor_ex")
    lu_data, pivots = LinalgLuFactorEx.apply(A)  # (lu_factor_ex: no error for a singular A)
    if not get_infos:
        return lu_data, pivots
    diagonal = np.diagonal(lu_data._array, axis1=-2, axis2=-1)
    zero = diagonal == 0
    infos = np.where(zero.any(-1), np.argmax(zero, axis=-1) + 1, 0).astype(np.int32)
    return lu_data, pivots, TensorBase.output_class._make(infos)


# --- lu_solve ---------------------------------------------------------------------------------


def _lu_solve_arrays(lu: Any, pivots: np.ndarray, b: Any, left: bool, adjoint: bool) -> Any:
    """``op(A)^-1 B`` (``left``) or ``B op(A)^-1`` for A = P L U, op = adjoint or not."""
    if not left:  # B A^-1 = (A^-H B^H)^H
        return np.swapaxes(
            _lu_solve_arrays(lu, pivots, np.swapaxes(b, -1, -2), True, not adjoint), -1, -2
        )
    p = _permutation(pivots, np.shape(lu)[-1], b if is_tensor(b) else lu)
    if adjoint:  # A^T X = B:  U^T L^T P^T X = B
        y = run(LinalgSolveTriangular, lu.mT, b, False, True, False)
        y = run(LinalgSolveTriangular, lu.mT, y, True, True, True)
        return p @ y
    y = run(LinalgSolveTriangular, lu, p.mT @ b, False, True, True)
    return run(LinalgSolveTriangular, lu, y, True, True, False)


class LinalgLuSolve(Op):
    """X = A^-1 B (or A^-H B, B A^-1, B A^-H) for A = P L U given packed.

    dB = the adjoint solve of dX;  dA as for solve, then dLU = tril(P^T dA U^H, -1) +
    triu(L^H P^T dA).  Saves LU, the pivots and the solution. The pivots are an option, not
    an input: the node has PyTorch's two edges (LU and B).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    tensor_options = True  # (the pivots: a tensor among the options)

    fields = ("left", "adjoint")
    saves = ("LU", "pivots", "result")
    saved_options = ("adjoint", "left")
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, lu: np.ndarray, b: np.ndarray, pivots: np.ndarray, left: bool, adjoint: bool
    ) -> np.ndarray:
        x = _lu_solve_arrays(lu, pivots, b, left, adjoint)
        ctx.save_for_backward(lu, pivots, x)
        ctx.left, ctx.adjoint = left, adjoint
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        lu, pivots, x = ctx.saved_tensors
        left, adjoint = ctx.left, ctx.adjoint
        grad_b = _lu_solve_arrays(lu, raw(pivots), grad, left, not adjoint)
        grad_lu = None
        if ctx.needs_input_grad[0]:
            if left:
                grad_a = -(grad_b @ x.mT) if not adjoint else -(x @ grad_b.mT)
            else:
                grad_a = -(x.mT @ grad_b) if not adjoint else -(grad_b.mT @ x)
            p = _permutation(raw(pivots), np.shape(lu)[-1], grad_a)
            lower, upper = _unpack(lu, np.shape(lu)[-1])
            permuted = p.mT @ grad_a
            grad_lu = np.tril(permuted @ upper.mT, -1) + np.triu(lower.mT @ permuted)
        return grad_lu, grad_b if ctx.needs_input_grad[1] else None, None, None, None


def lu_solve(
    LU: Any,
    pivots: Any,
    B: Any,
    *,
    left: bool = True,  # noqa: N803
    adjoint: bool = False,
) -> Any:
    """The solution X of ``A X = B`` given ``lu_factor(A)``.

    ``adjoint=True``: of ``A^H X = B``; ``left=False``: of ``X A = B``.

    Example:
        >>> import minigrad
        >>> LU, pivots = minigrad.linalg.lu_factor(minigrad.tensor([[2.0, 0.0], [0.0, 4.0]]))
        >>> minigrad.linalg.lu_solve(LU, pivots, minigrad.tensor([[2.0], [4.0]]))
        tensor([[1.],
                [1.]])
    """
    data = matrix_argument(LU, "linalg_lu_solve", "LU")
    piv = matrix_argument(pivots, "linalg_lu_solve", "pivots")
    b = matrix_argument(B, "linalg_lu_solve", "B")
    check_square(data, "linalg.lu_solve", "LU")
    check_matrix(b, "linalg.lu_solve", "B")
    rows = b.shape[-2] if left else b.shape[-1]
    if rows != data.shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation {equation} "
            f"({data.shape[-2]}x{data.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )
    if piv.dtype != np.int32:
        raise RuntimeError(
            "linalg.lu_solve: pivots should be a Tensor of scalar type minigrad.int32"
        )
    if data.dtype.kind != "f":
        raise RuntimeError(
            errors.linalg_not_float("minigrad.linalg.lu_solve", display_name(data.dtype))
        )
    if piv.shape != data.shape[:-1]:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the "
            f"same, but got pivots with shape {list(piv.shape)} instead"
        )
    if data.dtype != b.dtype:
        raise RuntimeError(
            f"linalg.lu_solve: Expected LU and B to have the same dtype, but found "
            f"LU of type {display_name(data.dtype)} and B of type "
            f"{display_name(b.dtype)} instead"
        )
    broadcast_shapes(data.shape[:-2], b.shape[:-2])
    return LinalgLuSolve.apply(LU, B, pivots, left, adjoint)


def lu_solve_legacy(input: Any, LU_data: Any, LU_pivots: Any) -> Any:  # noqa: N803
    """The solution of ``A X = input`` given ``lu(A)`` (deprecated: ``linalg.lu_solve``).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> LU, pivots = minigrad.linalg.lu_factor(minigrad.tensor([[2.0, 0.0], [0.0, 4.0]]))
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.lu_solve(minigrad.tensor([[2.0], [4.0]]), LU, pivots)
        tensor([[1.],
                [1.]])
    """
    warn_once(LU_SOLVE_DEPRECATED)
    return lu_solve(LU_data, LU_pivots, input)
