"""``linalg.lstsq``: the least-squares solution X of ``A X ~ B``, and what the driver reports.

PyTorch returns ``(solution, residuals, rank, singular_values)``, and which of the last three
hold anything depends on the LAPACK driver (CPU default ``gelsy``):

- ``residuals`` (the squared residual of each column): for ``gels`` when A has more rows than
  columns, for ``gelsd`` and ``gelss`` when besides every matrix has full rank; else empty;
- ``rank``: for every driver but ``gels``;
- ``singular_values``: for ``gelsd`` and ``gelss``.

The solution is the minimum-norm one (numpy's ``gelsd``), which is what ``gelsy``, ``gelsd``
and ``gelss`` give; ``gels`` assumes full rank, where it gives the same. Its gradient is
PyTorch's, through the pseudo-inverse: dA = pinv_backward(dX B^H), dB = pinv(A)^H dX. Saves A,
B and the solution. The residuals ``r = sum((A X - B)^2)`` are differentiable too (where the
driver reports them): at the least-squares solution ``A^T (A X - B) = 0``, so only their
explicit dependence on A and B counts: dA = 2 (A X - B) diag(g) X^T, dB = -2 (A X - B) diag(g).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import broadcast_shapes, constant_tensor, given_gradient, is_tensor
from minigrad.ops.decompositions import LinalgPinv, _pinv, _pinv_backward
from minigrad.ops.return_types import return_types
from minigrad.ops.solvers import matrix_argument

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _solve_each(a: np.ndarray, b: np.ndarray, rcond: float) -> tuple[np.ndarray, ...]:
    """The lstsq of numpy on each matrix of the (broadcast) batch: solutions, ranks, values."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:]).reshape(-1, *a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:]).reshape(-1, *b.shape[-2:])
    n, k = a.shape[-1], b.shape[-1]
    solutions = np.empty((a.shape[0], n, k), dtype=a.dtype)
    ranks = np.empty(a.shape[0], dtype=np.int64)
    values = np.empty((a.shape[0], min(a.shape[-2:])), dtype=a.dtype)
    for i in range(a.shape[0]):
        solutions[i], _, ranks[i], values[i] = np.linalg.lstsq(a[i], b[i], rcond=rcond)
    return (
        solutions.reshape(batch + (n, k)),
        ranks.reshape(batch),
        values.reshape(batch + values.shape[-1:]),
    )


def _in_lapack_buffer(x: np.ndarray, rows: int) -> np.ndarray:
    """``x`` (n x k) as LAPACK leaves it, as PyTorch returns it.

    The first n rows of a column-major buffer of ``rows`` rows (B's, or A's columns if more).
    """
    buffer = np.swapaxes(np.zeros(x.shape[:-2] + (x.shape[-1], rows), dtype=x.dtype), -1, -2)
    buffer[..., : x.shape[-2], :] = x
    return buffer[..., : x.shape[-2], :]


class LinalgLstsq(Op):
    """(X, residuals, rank, singular values) with X = pinv(A) B, the minimum-norm solution.

    dA = pinv_backward(dX B^H, pinv(A), A);  dB = pinv(A)^H dX;  the residuals' gradient g
    adds dA = 2 R diag(g) X^T and dB = -2 R diag(g), R = A X - B.  Rank and singular values
    have none. Saves A, B and the solution.
    """

    fields = ("vector",)
    saves = ("self", "b", "solution")
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, a: np.ndarray, b: np.ndarray, rcond: float, driver: str, vector: bool
    ) -> tuple[np.ndarray, ...]:
        b2 = b[..., None] if vector else b
        x, ranks, values = _solve_each(a, b2, rcond)
        m, n = a.shape[-2:]
        full_rank = driver == "gels" or bool(np.all(ranks == n))
        if m > n and driver != "gelsy" and full_rank:
            residuals = np.sum((a @ x - b2) ** 2, axis=-2)
        else:
            residuals = np.zeros(0, dtype=a.dtype)
        x = _in_lapack_buffer(x, max(m, n))
        x = x[..., 0] if vector else x
        ranks = np.zeros(0, dtype=np.int64) if driver == "gels" else ranks
        values = values if driver in ("gelsd", "gelss") else np.zeros(0, dtype=a.dtype)
        ctx.save_for_backward(a, b, x)
        ctx.vector = vector
        return x, residuals, ranks, values

    @staticmethod
    def backward(ctx: Any, grad: Any, grad_residuals: Any, *unused: Any) -> tuple[Any, ...]:
        a, b, x = ctx.saved_tensors
        if is_tensor(a) and not is_tensor(grad):  # (a solution given no gradient, under
            grad = constant_tensor(grad)  # create_graph: batched products want tensors)
        if ctx.vector:
            grad, b, x = np.expand_dims(grad, -1), np.expand_dims(b, -1), np.expand_dims(x, -1)
        if is_tensor(a):
            pinv_a = LinalgPinv.apply(a, None, None, False)
        else:
            pinv_a = _pinv(a, None, None, False)
        needs = ctx.needs_input_grad
        grad_a = _pinv_backward(grad @ b.mT, pinv_a, a) if needs[0] else None
        grad_b = pinv_a.mT @ grad if needs[1] else None
        grad_residuals = given_gradient(grad_residuals)
        if grad_residuals is not None and np.shape(grad_residuals)[-1] != 0:
            weighted = 2 * (a @ x - b) * np.expand_dims(grad_residuals, -2)
            if needs[0]:
                grad_a = grad_a + weighted @ x.mT
            if needs[1]:
                grad_b = grad_b - weighted
        if ctx.vector and grad_b is not None:
            grad_b = np.squeeze(grad_b, -1)
        return grad_a, grad_b, None, None, None


def lstsq(input: Any, b: Any, rcond: float | None = None, *, driver: str | None = None) -> Any:
    """``(solution, residuals, rank, singular_values)`` of the least-squares problem A X ~ B.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> minigrad.linalg.lstsq(A, minigrad.tensor([1.0, 1.0, 2.0])).solution
        tensor([1., 1.])
    """
    a = matrix_argument(input, "linalg_lstsq", "input")
    other = matrix_argument(b, "linalg_lstsq", "b")
    prefix = "minigrad.linalg.lstsq: "
    if a.ndim < 2:
        raise RuntimeError(prefix + "input must have at least 2 dimensions.")
    if other.ndim < 1:
        raise RuntimeError(prefix + "other must have at least 1 dimension.")
    if a.dtype not in (np.float32, np.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if a.dtype != other.dtype:
        raise RuntimeError(
            prefix + "Expected input and other to have the same dtype, but got input's dtype "
            f"{display_name(a.dtype)} and other's dtype {display_name(other.dtype)}"
        )
    difference = a.ndim - other.ndim
    if difference not in (0, 1):
        raise RuntimeError(
            prefix + "input.dim() must be greater or equal to other.dim() and "
            "(input.dim() - other.dim()) <= 1"
        )
    vector = difference == 1
    broadcast_shapes(a.shape[:-2], other.shape[:-1] if vector else other.shape[:-2])
    if a.shape[-2] != (other.shape[-1] if vector else other.shape[-2]):
        raise RuntimeError(prefix + "input.size(-2) should match other.size(-2)")
    chosen = "gelsy" if driver is None else driver
    if chosen not in _DRIVERS:
        raise RuntimeError(
            prefix + "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    if rcond is None:
        rcond = float(np.finfo(a.dtype).eps) * max(a.shape[-2:])
    x, residuals, rank, values = LinalgLstsq.apply(input, b, rcond, chosen, vector)
    values = TensorBase.output_class._make(values._array)  # (no gradient: PyTorch's too)
    return return_types.linalg_lstsq(x, residuals, rank, values)
