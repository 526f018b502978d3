"""Linear systems: ``inv`` and ``solve``.

Also what every matrix routine shares: PyTorch's argument checks, the column-major layout of
LAPACK's results, and a replay of LAPACK's pivoted LU for the inputs numpy refuses.

numpy's LAPACK does the work. Where the LU factorisation meets an exactly zero pivot, numpy
raises a bare "Singular matrix"; PyTorch says which pivot and which batch element, and its
``_ex`` variants return the inf and nan the triangular solves then produce. ``pivoted_lu`` replays
LAPACK's unblocked factorisation (getf2) in numpy, on that rare path only, to say and return
the same. What each op saves (PyTorch 2.13):

- ``inv``: its result;
- ``solve``: ``A`` and the solution (never ``B``: writing ``B`` afterwards is legal).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    is_tensor,
    raw,
)
from minigrad.ops.return_types import (
    return_types,
)

LinAlgError = errors._LinAlgError

# --- argument checks with PyTorch's messages --------------------------------------------------


def matrix_argument(value: Any, function: str, argument: str = "A") -> np.ndarray:
    """The array behind a tensor argument (a TypeError, as PyTorch's, for anything else)."""
    if not isinstance(value, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            function, argument, "Tensor", errors.python_type_name(value), 1))
    return value._array


def check_matrix(array: np.ndarray, function: str, argument: str = "A") -> None:
    """At least two dimensions: a matrix or a batch of them."""
    if array.ndim < 2:
        raise RuntimeError(errors.linalg_too_few_dims(function, argument))


def check_square(array: np.ndarray, function: str, argument: str = "A") -> None:
    """A (batch of) square matrices."""
    check_matrix(array, function, argument)
    if array.shape[-1] != array.shape[-2]:
        raise RuntimeError(errors.linalg_not_square(function, *array.shape[-2:], argument))


def check_float(array: np.ndarray, function: str, half_kernel: str | None = None) -> None:
    """float32 or float64 (float16 is refused by name, or by ``half_kernel`` if given)."""
    if array.dtype.kind != "f":
        raise RuntimeError(errors.linalg_not_float(function, display_name(array.dtype)))
    if array.dtype == np.float16:
        if half_kernel is None:
            raise RuntimeError(errors.linalg_low_precision(function, "Half"))
        raise NotImplementedError(errors.not_implemented_for(half_kernel, "Half"))


def check_kernel_dtype(array: np.ndarray, kernel: str) -> None:
    """Routines without a dtype check of their own: the kernel refuses what it lacks."""
    if array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(array.dtype)))


def column_major(matrices: np.ndarray) -> np.ndarray:
    """A copy with each matrix stored column by column: LAPACK's layout, which PyTorch keeps.

    So ``minigrad.linalg.inv(A).is_contiguous()`` is False and ``.view(-1)`` refuses, as there.
    """
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(matrices, -1, -2)), -1, -2)


def first_failure(info: np.ndarray) -> tuple[int | None, int]:
    """The batch element (None for a single matrix) and the ``info`` of the first failure."""
    flat = info.reshape(-1)
    index = int(np.flatnonzero(flat)[0])
    return (None if info.ndim == 0 else index), int(flat[index])


def eye_like(matrices: Any) -> np.ndarray:
    """The identity of the matrices' size and dtype (a constant in backward formulas)."""
    return np.eye(np.shape(matrices)[-1], dtype=raw(matrices).dtype)


# --- LAPACK's LU, replayed for singular inputs ------------------------------------------------


def lu_factor_arrays(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK's getf2 on (a batch of) m x n matrices: the packed ``LU`` and the pivots.

    ``lu_factor``'s kernel, and the factorisation det, slogdet and solve keep on their nodes
    (PyTorch's ``_saved_LU``, ``_saved_pivots``: int32, 1-based).
    """
    m, n = a.shape[-2:]
    k = min(m, n)
    lu = np.array(a.reshape(math.prod(a.shape[:-2]), m, n), copy=True)  # (-1: not when empty)
    batch = np.arange(lu.shape[0])
    pivots = np.zeros((lu.shape[0], k), dtype=np.int32)
    for j in range(k):
        row = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
        pivots[:, j] = row + 1
        lu[batch, j], lu[batch, row] = lu[batch, row], lu[batch, j].copy()
        pivot = lu[:, j, j]
        found = pivot != 0  # (a zero column: LAPACK neither scales nor stops)
        lu[found, j + 1 :, j] /= pivot[found, None]
        lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j, None] * lu[:, j, None, j + 1 :]
    return lu.reshape(a.shape), pivots.reshape(a.shape[:-2] + (k,))


def saved_lu(ctx: Any, a: np.ndarray) -> tuple[Any, Any]:
    """``lu_factor_arrays(a)`` for a node to save, or (None, None) when nothing is recorded.

    (PyTorch's det, slogdet and solve keep the LU they computed; numpy's LAPACK does not give
    it back, so it is computed again, and only for a node that keeps it.)
    """
    if ctx is NO_GRAD_CTX:
        return None, None
    return lu_factor_arrays(a)


def pivoted_lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``lu_factor_arrays`` on square matrices, its pivots read as: row order, odd, info.

    ``order``: the rows of ``a`` in the order of ``LU``'s; ``odd``: the row swaps' parity;
    ``info``: the 1-based index of the first exactly zero pivot (0: none), where LAPACK neither
    swaps nor scales, and goes on.
    """
    lu, pivots = lu_factor_arrays(a)
    n, count = a.shape[-1], math.prod(a.shape[:-2])
    swaps = pivots.reshape(count, n).astype(np.intp) - 1  # (step j: rows j and swaps[:, j])
    batch = np.arange(count)
    order = np.tile(np.arange(n), (count, 1))
    for j in range(n):
        rows = swaps[:, j]
        order[batch, j], order[batch, rows] = order[batch, rows], order[batch, j].copy()
    odd = np.count_nonzero(swaps != np.arange(n), axis=-1) % 2 == 1
    zero = np.diagonal(lu, axis1=-2, axis2=-1).reshape(count, n) == 0
    info = np.where(zero.any(axis=-1), zero.argmax(axis=-1) + 1, 0).astype(np.int32)
    shape = a.shape[:-2]
    return lu, order.reshape(a.shape[:-1]), odd.reshape(shape), info.reshape(shape)


def lu_solve(lu: np.ndarray, order: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A^-1 b`` from ``pivoted_lu``'s factors: the two triangular solves.

    In IEEE arithmetic: a zero pivot gives inf and nan, as LAPACK's getrs does.
    """
    x = np.take_along_axis(b, order[..., None], axis=-2).astype(lu.dtype)
    n = lu.shape[-1]
    for i in range(1, n):
        x[..., i, :] -= np.einsum("...k,...kj->...j", lu[..., i, :i], x[..., :i, :])
    for i in reversed(range(n)):
        x[..., i, :] -= np.einsum("...k,...kj->...j", lu[..., i, i + 1:], x[..., i + 1:, :])
        x[..., i, :] /= lu[..., i, i, None]
    return x


def lu_determinant(lu: np.ndarray, odd: np.ndarray) -> np.ndarray:
    """The pivots' product, negated for an odd permutation (LAPACK-based determinants).

    A singular matrix's determinant can be -0.0, which prints as "-0.".
    """
    product = np.prod(np.diagonal(lu, axis1=-2, axis2=-1), axis=-1)
    return np.where(odd, -product, product)


# --- inv --------------------------------------------------------------------------------------


class LinalgInvEx(Op):
    """(inverse, info) = the inverse of (a batch of) square matrices, and 0 (or the zero pivot).

    dA = -inverse^T @ grad @ inverse^T.  Saves its result (the inverse), as PyTorch: writing
    ``A`` afterwards is legal, writing the inverse is not.
    """

    fields = ()
    saves = "inverse"

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, check: str | None) -> tuple[np.ndarray, np.ndarray]:
        inverse, info = _inverse(a, check)
        ctx.save_for_backward(inverse)
        return inverse, info

    @staticmethod
    def backward(ctx: Any, grad: Any, grad_info: Any) -> tuple[Any, None]:
        (inverse,) = ctx.saved_tensors
        inverse_t = inverse.mT
        return -(inverse_t @ (grad @ inverse_t)), None


def _inverse(a: np.ndarray, check: str | None) -> tuple[np.ndarray, np.ndarray]:
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    try:
        return column_major(np.linalg.inv(a)), info
    except np.linalg.LinAlgError:
        pass
    lu, order, _, info = pivoted_lu(a)
    if check is not None and info.any():
        raise LinAlgError(errors.singular_inverse(check, *first_failure(info)))
    identity = np.broadcast_to(eye_like(a), a.shape)
    return column_major(lu_solve(lu, order, identity)), info


def square_float(a: Any, function: str, half_kernel: str | None = None) -> np.ndarray:
    """The array behind ``a``, checked to be float square matrices (PyTorch's order)."""
    array = matrix_argument(a, function.replace(".", "_"))
    check_square(array, function)
    check_float(array, function, half_kernel)
    return array


def inv_ex(A: Any, *, check_errors: bool = False) -> Any:  # noqa: N803 - PyTorch's name
    """``(inverse, info)``: the inverse, and per matrix 0 or the index of an exactly zero pivot.

    Unlike ``inv`` it does not raise for a singular matrix (unless ``check_errors``): its
    inverse is full of inf and nan, as LAPACK's solves leave it.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.inv_ex(minigrad.tensor([[2.0, 0.0], [0.0, 4.0]])).inverse
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    square_float(A, "linalg.inv")
    inverse, info = LinalgInvEx.apply(A, "linalg.inv_ex" if check_errors else None)
    return return_types.linalg_inv_ex(inverse, info)


def inv(A: Any) -> Any:  # noqa: N803 - PyTorch's name
    """The inverse of a square matrix (or of each in a batch).

    Raises ``minigrad.linalg.LinAlgError`` for a singular matrix. Recorded as
    ``LinalgInvExBackward0`` (PyTorch computes ``inv`` with ``inv_ex``).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.inv(minigrad.tensor([[2.0, 0.0], [0.0, 4.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    square_float(A, "linalg.inv")
    return LinalgInvEx.apply(A, "linalg.inv")[0]


def inverse(input: Any) -> Any:
    """The inverse of a square matrix: ``minigrad.linalg.inv``.

    Example:
        >>> import minigrad
        >>> minigrad.inverse(minigrad.tensor([[4.0]]))
        tensor([[0.2500]])
    """
    return inv(input)


# --- solve ------------------------------------------------------------------------------------


class LinalgSolveEx(Op):
    """X = A^-1 B (``left``) or B A^-1;  dB = A^-T dX (or dX A^-T),  dA = -dB X^T (or -X^T dB).

    A's batch dims broadcast with B's; B may be a vector (batch). Saves A, its LU factors and
    the solution, as PyTorch (not B: writing B afterwards is legal).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("left", "vector")
    saves = ("A", "LU", "pivots", "result")
    saved_options = ("left",)

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, b: np.ndarray, left: bool,
                vector: bool, check: Any = "linalg.solve") -> np.ndarray:
        x = _solve(a, b[..., None] if vector else b, left, check=check)
        # LAPACK's column-major result (for left=False PyTorch returns it row-major).
        x = x[..., 0] if vector else column_major(x) if left else np.ascontiguousarray(x)
        ctx.save_for_backward(a, *saved_lu(ctx, a), x)
        ctx.left, ctx.vector = left, vector
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        a, _, _, x = ctx.saved_tensors
        left, vector = ctx.left, ctx.vector
        if vector:
            grad, x = np.expand_dims(grad, -1), np.expand_dims(x, -1)
        grad_b = solve_in_backward(a.mT, grad, left)
        grad_a = None
        if ctx.needs_input_grad[0]:
            grad_a = -(grad_b @ x.mT) if left else -(x.mT @ grad_b)
        if vector:
            grad_b = np.squeeze(grad_b, -1)
        return grad_a, grad_b if ctx.needs_input_grad[1] else None, None, None


def _solve(a: np.ndarray, b: np.ndarray, left: bool, check: Any) -> np.ndarray:
    """``A^-1 B`` (or ``B A^-1``) on arrays.

    A singular A raises PyTorch's error (``check``: the function's name in it) or gives the inf
    and nan of LAPACK's solves (inside backward formulas, as PyTorch's; ``solve_ex``).
    """
    if not left:
        return np.swapaxes(_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), True, check),
                           -1, -2)
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        pass
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    lu, order, _, info = pivoted_lu(np.broadcast_to(a, shape + a.shape[-2:]))
    if check and info.any():
        raise LinAlgError(errors.singular_solve(*first_failure(info)[:1], function=check))
    return lu_solve(lu, order, np.broadcast_to(b, shape + b.shape[-2:]))


def solve_in_backward(a: Any, b: Any, left: bool = True) -> Any:
    """``A^-1 B`` (or ``B A^-1``) inside a backward formula.

    numpy on arrays; on tensors (create_graph) the recorded ``LinalgSolveEx``, so that it can be
    differentiated again.
    """
    if is_tensor(a) or is_tensor(b):
        return LinalgSolveEx.apply(a, b, left, False)
    return _solve(a, b, left, check=False)


def _is_vector_rhs(a: np.ndarray, b: np.ndarray) -> bool:
    # PyTorch's (NumPy 1's) rule: B is a vector (batch) if it is 1-D or has A's shape minus one.
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])


def solve(A: Any, B: Any, *, left: bool = True) -> Any:  # noqa: N803 - PyTorch's names
    """The solution X of ``A X = B`` (``left=False``: of ``X A = B``) for square A.

    Batch dims broadcast; B may be a vector or a batch of vectors (with ``left=True``). Raises
    ``minigrad.linalg.LinAlgError`` for a singular A.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> minigrad.linalg.solve(A, minigrad.tensor([1.0, 1.0]))
        tensor([0.5000, 0.2500])
    """
    return LinalgSolveEx.apply(A, B, left, _solve_checks(A, B, left, "linalg.solve"))


def solve_ex(A: Any, B: Any, *, left: bool = True,  # noqa: N803 - PyTorch's names
             check_errors: bool = False) -> Any:
    """``(result, info)``: ``solve``'s solution, and per matrix 0 or the first zero pivot.

    A singular A gives LAPACK's inf and nan, not an error (unless ``check_errors``).

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> minigrad.linalg.solve_ex(A, minigrad.tensor([1.0, 1.0])).info
        tensor(0, dtype=minigrad.int32)
    """
    vector = _solve_checks(A, B, left, "linalg.solve_ex")
    check = "linalg.solve_ex" if check_errors else None
    result = LinalgSolveEx.apply(A, B, left, vector, check)
    info = pivoted_lu(raw(A))[3]
    return return_types.linalg_solve_ex(result, TensorBase.output_class._make(info))


def _solve_checks(A: Any, B: Any, left: bool, function: str) -> bool:  # noqa: N803
    """PyTorch's checks of ``solve``'s arguments; whether B is a vector (batch)."""
    a = matrix_argument(A, function.replace(".", "_"))
    b = matrix_argument(B, function.replace(".", "_"), "B")
    check_float(a, "linalg.solve", half_kernel="lu_cpu")
    if a.dtype != b.dtype:
        raise RuntimeError(errors.solve_dtypes(a.dtype, b.dtype))
    vector = _is_vector_rhs(a, b)
    b_matrix = b[..., None] if vector else b
    check_square(a, "linalg.solve")
    check_matrix(b_matrix, "linalg.solve", "B")
    rows = a.shape[-2] if left else a.shape[-1]
    if b_matrix.shape[-2 if left else -1] != rows:
        raise RuntimeError(errors.solve_shapes("linalg.solve", a.shape, b_matrix.shape, left))
    try:
        np.broadcast_shapes(b_matrix.shape[:-2], a.shape[:-2])
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(b_matrix.shape[:-2], a.shape[:-2])) from None
    if vector and not left:
        raise RuntimeError(errors.SOLVE_VECTOR_RIGHT)
    return vector

