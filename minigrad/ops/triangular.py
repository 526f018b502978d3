"""Solves with triangular factors: solve_triangular, triangular_solve and the Cholesky solves.

Only the triangle a routine is told about is read (the rest of ``A`` may hold anything, as
LAPACK's trtrs and potrs allow); ``unitriangular`` takes the diagonal as ones. A zero on the
diagonal gives the inf and nan of the substitution, not an error, as in PyTorch. The
gradient with respect to ``A`` lives on the same triangle. What each op saves (PyTorch 2.13):

- ``linalg.solve_triangular``: ``A`` and the solution;
- ``triangular_solve``: ``b``, ``A`` and the solution;
- ``cholesky_solve``: ``b``, the factor and the solution;
- ``cholesky_inverse``: the factor and the inverse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._warnings import warn_once
from minigrad.autograd.function import Op
from minigrad.ops._helpers import broadcast_shapes, run
from minigrad.ops.return_types import return_types
from minigrad.ops.solvers import check_matrix, check_square, matrix_argument

TRIANGULAR_SOLVE_DEPRECATED = (
    "minigrad.triangular_solve is deprecated in favor of minigrad.linalg.solve_triangularand will "
    "be removed in a future PyTorch release.\nminigrad.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = minigrad.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = minigrad.linalg.solve_triangular(A, B)."
)  # (PyTorch's text, its missing space too)


def _triangle(a: Any, upper: bool, unitriangular: bool) -> Any:
    """The triangle of ``a`` a solve reads, its diagonal ones if ``unitriangular``."""
    part = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        n = np.shape(a)[-1]
        part = np.where(np.eye(n, dtype=bool), np.ones((), dtype=part.dtype), part)
    return part


def _gradient_triangle(grad: Any, upper: bool, unitriangular: bool) -> Any:
    """The part of a gradient for ``A`` that a triangular solve depends on."""
    return np.triu(grad, int(unitriangular)) if upper else np.tril(grad, -int(unitriangular))


def _substitute(t: np.ndarray, b: np.ndarray, upper: bool) -> np.ndarray:
    """``t^-1 b`` for triangular ``t`` by substitution, row by row (IEEE: 1/0 is inf)."""
    x = np.array(b, dtype=t.dtype, copy=True)
    n = t.shape[-1]
    rows = reversed(range(n)) if upper else range(n)
    for i in rows:
        done = slice(i + 1, n) if upper else slice(0, i)
        x[..., i, :] -= np.einsum("...k,...kj->...j", t[..., i, done], x[..., done, :])
        x[..., i, :] /= t[..., i, i, None]
    return x


def triangular_solve_arrays(
    a: np.ndarray, b: np.ndarray, upper: bool, left: bool = True, unitriangular: bool = False
) -> np.ndarray:
    """``A^-1 B`` (``left``) or ``B A^-1`` with triangular ``A``, batch dims broadcast."""
    if not left:
        return np.swapaxes(
            triangular_solve_arrays(
                np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, True, unitriangular
            ),
            -1,
            -2,
        )
    t = _triangle(a, upper, unitriangular)
    shape = broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = np.broadcast_to(t, shape + t.shape[-2:])
    b = np.broadcast_to(b, shape + b.shape[-2:]).astype(t.dtype)
    if np.all(np.diagonal(t, axis1=-2, axis2=-1) != 0):
        with np.errstate(all="ignore"):
            return np.linalg.solve(t, b)
    return _substitute(t, b, upper)


class LinalgSolveTriangular(Op):
    """X = A^-1 B (``left``) or B A^-1 for triangular A.

    dB = A^-H dX (or dX A^-H, a triangular solve with the other triangle);
    dA = -dB X^H (or -X^H dB), kept on A's triangle.  Saves A and the solution.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("upper", "left", "unitriangular")
    saves = ("self", "result")
    saved_options = ("left", "unitriangular", "upper")
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, a: np.ndarray, b: np.ndarray, upper: bool, left: bool, unitriangular: bool
    ) -> np.ndarray:
        x = triangular_solve_arrays(a, b, upper, left, unitriangular)
        ctx.save_for_backward(a, x)
        ctx.upper, ctx.left, ctx.unitriangular = upper, left, unitriangular
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        a, x = ctx.saved_tensors
        upper, left, unit = ctx.upper, ctx.left, ctx.unitriangular
        grad_b = run(LinalgSolveTriangular, a.mT, grad, not upper, left, unit)
        grad_a = None
        if ctx.needs_input_grad[0]:
            grad_a = -(grad_b @ x.mT) if left else -(x.mT @ grad_b)
            grad_a = _gradient_triangle(grad_a, upper, unit)
        return grad_a, grad_b if ctx.needs_input_grad[1] else None, None, None, None


def solve_triangular(
    input: Any,
    B: Any,
    *,
    upper: bool,
    left: bool = True,  # noqa: N803
    unitriangular: bool = False,
) -> Any:
    """The solution X of ``A X = B`` (``left=False``: ``X A = B``) for triangular ``A``.

    ``upper`` says which triangle of ``A`` holds it (the other is not read); batch dims
    broadcast.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> minigrad.linalg.solve_triangular(A, minigrad.tensor([[4.0], [8.0]]), upper=True)
        tensor([[1.],
                [2.]])
    """
    a = matrix_argument(input, "linalg_solve_triangular", "input")
    b = matrix_argument(B, "linalg_solve_triangular", "B")
    check_matrix(b, "linalg.solve_triangular", "B")
    check_square(a, "linalg.solve_triangular")
    if b.shape[-2 if left else -1] != a.shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.solve_triangular: Incompatible shapes of A and B for the equation {equation}"
            f" ({a.shape[-2]}x{a.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )
    broadcast_shapes(a.shape[:-2], b.shape[:-2])
    _check_kernel(a, "triangular_solve_cpu")
    return LinalgSolveTriangular.apply(input, B, upper, left, unitriangular)


def _check_kernel(a: np.ndarray, kernel: str) -> None:
    if a.dtype not in (np.float32, np.float64):
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(a.dtype)))


# --- the legacy triangular_solve --------------------------------------------------------------


class TriangularSolve(Op):
    """(X, A's copy) with X = op(A)^-1 b, op(A) = A or A^T (``transpose``), A triangular.

    db = op(A)^-H dX;  dA = -db X^H (or -X db^T transposed) on A's triangle, plus the copy's
    gradient (all of A).  Saves b, A and the solution.
    """

    fields = ("upper", "transpose", "unitriangular")
    saves = ("self", "A", "solution")
    saved_options = ("transpose", "unitriangular", "upper")
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, b: np.ndarray, a: np.ndarray, upper: bool, transpose: bool, unitriangular: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        if transpose:
            x = triangular_solve_arrays(np.swapaxes(a, -1, -2), b, not upper, True, unitriangular)
        else:
            x = triangular_solve_arrays(a, b, upper, True, unitriangular)
        ctx.save_for_backward(b, a, x)
        ctx.upper, ctx.transpose, ctx.unitriangular = upper, transpose, unitriangular
        shape = x.shape[:-2] + a.shape[-2:]
        return x, np.array(np.broadcast_to(a, shape), copy=True)

    @staticmethod
    def backward(ctx: Any, grad_x: Any, grad_copy: Any) -> tuple[Any, ...]:
        _, a, x = ctx.saved_tensors
        upper, transpose, unit = ctx.upper, ctx.transpose, ctx.unitriangular
        system = a if transpose else a.mT  # (the adjoint system: op(A)^H)
        grad_b = run(
            LinalgSolveTriangular, system, grad_x, upper if transpose else not upper, True, unit
        )
        grad_a = -(x @ grad_b.mT) if transpose else -(grad_b @ x.mT)
        grad_a = _gradient_triangle(grad_a, upper, unit) + grad_copy  # (the copy: all of A)
        needs = ctx.needs_input_grad
        return grad_b if needs[0] else None, grad_a if needs[1] else None, None, None, None


def triangular_solve(
    input: Any,
    A: Any,
    upper: bool = True,
    transpose: bool = False,  # noqa: N803
    unitriangular: bool = False,
) -> Any:
    """``(solution, cloned_coefficient)``: X of ``A X = input`` (``A^T X``) for triangular A.

    PyTorch's legacy form of ``linalg.solve_triangular`` (note the order: ``b`` first).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> A = minigrad.tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.triangular_solve(minigrad.tensor([[2.0], [3.0]]), A, upper=False)[0]
        tensor([[1.],
                [2.]])
    """
    b = matrix_argument(input, "triangular_solve", "input")
    a = matrix_argument(A, "triangular_solve", "A")
    warn_once(TRIANGULAR_SOLVE_DEPRECATED)
    _check_b_and_a(
        b,
        a,
        "triangular_solve",
        "minigrad.triangular_solve: Expected b to have at least 2 dimensions, but it "
        "has {} dimensions instead",
    )
    _check_kernel(a, "triangular_solve_cpu")
    solution, copy = TriangularSolve.apply(input, A, upper, transpose, unitriangular)
    return return_types.triangular_solve(solution, copy)


def _check_b_and_a(b: np.ndarray, a: np.ndarray, function: str, too_few_dims: str) -> None:
    """The checks the legacy solves (triangular_solve, cholesky_solve) share.

    ``too_few_dims``: the function's message for a vector ``b`` ({} is its rank).
    """
    if b.ndim < 2:
        raise RuntimeError(too_few_dims.format(b.ndim))
    if a.ndim < 2:
        raise RuntimeError(
            f"u should have at least 2 dimensions, but has {a.ndim} dimensions instead"
        )
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(errors.linalg_not_square("", *a.shape[-2:])[2:])
    if a.shape[-1] != b.shape[-2]:
        raise RuntimeError(
            f"Incompatible matrix sizes for {function}: each A matrix is {a.shape[-2]} by "
            f"{a.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{display_name(b.dtype)} and A of type {display_name(a.dtype)} instead."
        )
    broadcast_shapes(b.shape[:-2], a.shape[:-2])


# --- cholesky_solve and cholesky_inverse ------------------------------------------------------


def _cholesky_solve_arrays(b: Any, factor: Any, upper: bool) -> Any:
    """``(L L^H)^-1 b`` (or ``(U^H U)^-1 b``): two triangular solves."""
    if upper:
        y = run(LinalgSolveTriangular, np.swapaxes(factor, -1, -2), b, False, True, False)
        return run(LinalgSolveTriangular, factor, y, True, True, False)
    y = run(LinalgSolveTriangular, factor, b, False, True, False)
    return run(LinalgSolveTriangular, np.swapaxes(factor, -1, -2), y, True, True, False)


class CholeskySolve(Op):
    """X = (L L^H)^-1 b for the Cholesky factor L (``upper``: U^H U with U = L^H).

    db = (L L^H)^-1 dX;  with S = db X^H + X db^H:  dL = -S L (``upper``: -U S).  Saves b, the
    factor and the solution.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("upper",)
    saves = ("self", "input2", "result")
    saved_options = ("upper",)
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, b: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray:
        x = _cholesky_solve_arrays(b, factor, upper)
        ctx.save_for_backward(b, factor, x)
        ctx.upper = upper
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        _, factor, x = ctx.saved_tensors
        grad_b = run(CholeskySolve, grad, factor, ctx.upper)
        grad_factor = None
        if ctx.needs_input_grad[1]:
            common = grad_b @ x.mT
            common = common + common.mT
            grad_factor = -(factor @ common) if ctx.upper else -(common @ factor)
        return grad_b if ctx.needs_input_grad[0] else None, grad_factor, None


def cholesky_solve(input: Any, input2: Any, upper: bool = False) -> Any:
    """The solution X of ``A X = input`` given the Cholesky factor ``input2`` of ``A``.

    ``A = L L^T`` with ``L = input2`` lower triangular (``upper=True``: ``A = U^T U``).

    Example:
        >>> import minigrad
        >>> L = minigrad.tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> minigrad.cholesky_solve(minigrad.tensor([[4.0], [3.0]]), L)
        tensor([[0.5000],
                [1.0000]])
    """
    b = matrix_argument(input, "cholesky_solve", "input")
    factor = matrix_argument(input2, "cholesky_solve", "input2")
    _check_b_and_a(
        b,
        factor,
        "cholesky_solve",
        "b should have at least 2 dimensions, but has {} dimensions instead",
    )
    _check_kernel(factor, "cholesky_solve_cpu")
    return CholeskySolve.apply(input, input2, upper)


class CholeskyInverse(Op):
    """Y = (L L^H)^-1 (``upper``: (U^H U)^-1) for the Cholesky factor.

    With S = Y (dY + dY^H) Y:  dL = -S L (``upper``: -U S).  Saves the factor and the inverse.
    """

    fields = ("upper",)
    saves = ("self", "result")
    saved_options = ("upper",)

    @staticmethod
    def forward(ctx: Any, factor: np.ndarray, upper: bool) -> np.ndarray:
        identity = np.broadcast_to(np.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
        inverse = _cholesky_solve_arrays(identity, factor, upper)
        ctx.save_for_backward(factor, inverse)
        ctx.upper = upper
        return inverse

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        factor, inverse = ctx.saved_tensors
        common = inverse @ ((grad + grad.mT) @ inverse)
        return (-(factor @ common) if ctx.upper else -(common @ factor)), None


def cholesky_inverse(input: Any, upper: bool = False) -> Any:
    """The inverse of ``A`` given its Cholesky factor ``input`` (``A = L L^T``, or ``U^T U``).

    Example:
        >>> import minigrad
        >>> minigrad.cholesky_inverse(minigrad.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor([[0.2500, 0.0000],
                [0.0000, 4.0000]])
    """
    factor = matrix_argument(input, "cholesky_inverse", "input")
    check_square(factor, "cholesky_inverse")
    _check_kernel(factor, "cholesky_inverse_out_cpu")
    return CholeskyInverse.apply(input, upper)
