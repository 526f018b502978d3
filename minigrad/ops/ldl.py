"""``linalg.ldl_factor``, ``ldl_factor_ex`` and ``ldl_solve``: symmetric indefinite LDL^T.

numpy has no LDL, so this is LAPACK's ``sytf2`` with ``uplo='L'`` (what ``sytrf`` runs on the
matrices of the sizes minigrad handles), step for step: Bunch and Kaufman's diagonal pivoting
picks, for each column, a 1x1 pivot or a 2x2 block (the comparisons with alpha =
(1 + sqrt(17)) / 8), so the pivots are LAPACK's, in its format: 1-based, a 2x2 block's two
entries both ``-p``. ``LD`` holds L below the diagonal and the blocks of D on and below it;
its upper triangle is zero. ``ldl_solve`` is LAPACK's ``sytrs``. PyTorch has no derivative
for either: their results record a ``NotImplemented`` node whose backward raises.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import NOT_IMPLEMENTED, constant_tensor
from minigrad.ops.return_types import return_types
from minigrad.ops.solvers import column_major

_ALPHA = (1.0 + math.sqrt(17.0)) / 8.0  # Bunch-Kaufman's threshold


def _interchange(a: np.ndarray, k: int, kk: int, kp: int, two: bool) -> None:
    """Swap rows and columns kk and kp of the trailing lower triangle (sytf2's swaps)."""
    a[kp + 1 :, [kk, kp]] = a[kp + 1 :, [kp, kk]]
    segment = a[kk + 1 : kp, kk].copy()
    a[kk + 1 : kp, kk] = a[kp, kk + 1 : kp]
    a[kp, kk + 1 : kp] = segment
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
    if two:
        a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]


def _factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK's sytf2 (lower) of one matrix: LD (lower triangle), pivots (1-based), info."""
    a = np.tril(a).copy()
    n = a.shape[0]
    pivots = np.zeros(n, dtype=np.int32)
    info = 0
    k = 0
    while k < n:
        step = 1
        diagonal = abs(a[k, k])
        imax = k + 1 + int(np.argmax(np.abs(a[k + 1 :, k]))) if k < n - 1 else k
        colmax = abs(a[imax, k]) if k < n - 1 else 0.0
        if max(diagonal, colmax) == 0.0 or np.isnan(diagonal):
            info = info or k + 1
            kp = k
        else:
            if diagonal >= _ALPHA * colmax:
                kp = k
            else:
                rowmax = float(np.max(np.abs(a[imax, k:imax])))
                if imax < n - 1:
                    rowmax = max(rowmax, float(np.max(np.abs(a[imax + 1 :, imax]))))
                if diagonal >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, step = imax, 2
            kk = k + step - 1
            if kp != kk:
                _interchange(a, k, kk, kp, step == 2)
            if step == 1 and k < n - 1:
                inverse = 1.0 / a[k, k]
                x = a[k + 1 :, k].copy()
                # (dsyr: the lower triangle of A -= inverse x x^T)
                a[k + 1 :, k + 1 :] += np.tril(np.outer(x, -inverse * x))
                a[k + 1 :, k] = inverse * x
            elif step == 2 and k < n - 2:
                d21 = a[k + 1, k]
                d11 = a[k + 1, k + 1] / d21
                d22 = a[k, k] / d21
                t = 1.0 / (d11 * d22 - 1.0)
                d21 = t / d21
                first, second = a[k + 2 :, k].copy(), a[k + 2 :, k + 1].copy()
                wk = d21 * (d11 * first - second)
                wkp1 = d21 * (d22 * second - first)
                a[k + 2 :, k + 2 :] -= np.tril(np.outer(first, wk) + np.outer(second, wkp1))
                a[k + 2 :, k], a[k + 2 :, k + 1] = wk, wkp1
        if step == 1:
            pivots[k] = kp + 1
        else:
            pivots[k] = pivots[k + 1] = -(kp + 1)
        k += step
    return a, pivots, info


def _solve(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """LAPACK's sytrs (lower) for one system: X with A X = B, A the factored matrix."""
    b = b.copy()
    n = ld.shape[0]
    k = 0
    while k < n:  # L D Y = B
        if pivots[k] > 0:
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1 :] -= np.outer(ld[k + 1 :, k], b[k])
            b[k] /= ld[k, k]
            k += 1
        else:
            kp = -pivots[k] - 1
            b[[k + 1, kp]] = b[[kp, k + 1]]
            b[k + 2 :] -= np.outer(ld[k + 2 :, k], b[k]) + np.outer(ld[k + 2 :, k + 1], b[k + 1])
            akm1k = ld[k + 1, k]
            akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
            denominator = akm1 * ak - 1.0
            bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denominator, (akm1 * bk - bkm1) / denominator
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = Y
        if pivots[k] > 0:
            b[k] -= ld[k + 1 :, k] @ b[k + 1 :]
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            b[k] -= ld[k + 1 :, k] @ b[k + 1 :]
            b[k - 1] -= ld[k + 1 :, k - 1] @ b[k + 1 :]
            kp = -pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 2
    return b


class LdlFactor(Op):
    """(LD, pivots, info) of each symmetric matrix.  PyTorch has no derivative for it.

    Recorded (when A requires grad) as PyTorch's ``NotImplemented`` node; saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        batch = a.shape[:-2]
        factors = np.empty(a.shape, dtype=a.dtype)
        pivots = np.empty((*batch, a.shape[-1]), dtype=np.int32)
        infos = np.empty(batch, dtype=np.int32)
        for index in np.ndindex(*batch):
            factors[index], pivots[index], infos[index] = _factor(a[index])
        return column_major(factors), pivots, infos

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::linalg_ldl_factor_ex"))


class LdlSolve(Op):
    """X with A X = B from A's LDL^T factors.  PyTorch has no derivative for it (as above)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, ld: np.ndarray, b: np.ndarray, pivots: np.ndarray) -> np.ndarray:
        batch = np.broadcast_shapes(ld.shape[:-2], pivots.shape[:-1], b.shape[:-2])
        ld = np.broadcast_to(ld, batch + ld.shape[-2:])
        pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
        b = np.broadcast_to(b, batch + b.shape[-2:])
        result = np.empty(b.shape, dtype=b.dtype)
        for index in np.ndindex(*batch):
            result[index] = _solve(ld[index], pivots[index], b[index])
        return column_major(result)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::linalg_ldl_solve"))




def _tensor(value: Any, function: str, name: str, position: int) -> np.ndarray:
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(
                function, name, "Tensor", errors.python_type_name(value), position
            )
        )
    return value._array


def _unknown_error(function: str, info: np.ndarray) -> RuntimeError:
    """PyTorch's (internal-assert) error for a singular matrix: LAPACK's positive info."""
    code = int(info[info != 0].flat[0])
    return RuntimeError(
        'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
        'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
        f"minigrad.{function}: Unknown error code: {code}."
    )


def ldl_factor_ex(
    input: Any,
    *,
    hermitian: bool = False,
    check_errors: bool = False,
) -> Any:
    """``(LD, pivots, info)``: the LDL^T factorization of symmetric matrices, LAPACK's sytrf.

    ``info`` is 0, or the (1-based) index of a zero pivot column (the matrix is singular).
    Only A's lower triangle is read. ``hermitian`` changes nothing for real matrices.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[1.0, 2.0], [2.0, 1.0]])
        >>> minigrad.linalg.ldl_factor_ex(A).pivots
        tensor([-2, -2], dtype=minigrad.int32)
    """
    name = "linalg.ldl_factor_ex"
    array = _tensor(input, "linalg_ldl_factor_ex", "input", 1)
    if array.ndim < 2:
        raise RuntimeError(f"minigrad.{name}: The input tensor A must have at least 2 dimensions.")
    if array.shape[-1] != array.shape[-2]:
        raise RuntimeError(
            f"minigrad.{name}: A must be batches of square matrices, but they are "
            f"{array.shape[-2]} by {array.shape[-1]} matrices"
        )
    if array.dtype.kind != "f":
        raise RuntimeError(
            f"minigrad.{name}: Expected a floating point or complex tensor as "
            f"input. Got {display_name(array.dtype)}"
        )
    if array.dtype == np.float16:
        raise NotImplementedError(errors.not_implemented_for("ldl_factor_kernel_cpu", "Half"))
    ld, pivots, info = LdlFactor.apply(input)
    if check_errors and info._array.any():
        raise _unknown_error(name, info._array)
    return return_types.linalg_ldl_factor_ex(ld, pivots, info)


def ldl_factor(input: Any, *, hermitian: bool = False) -> Any:
    """``(LD, pivots)``: ``ldl_factor_ex``'s factors; raises for a singular matrix.

    Example:
        >>> import minigrad
        >>> A = minigrad.tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> minigrad.linalg.ldl_factor(A).LD
        tensor([[4.0000, 0.0000],
                [0.5000, 2.0000]])
    """
    ld, pivots, info = ldl_factor_ex(input, hermitian=hermitian)
    if info._array.any():
        raise _unknown_error("linalg.ldl_factor", info._array)
    return return_types.linalg_ldl_factor(ld, pivots)


def ldl_solve(LD: Any, pivots: Any, B: Any, *, hermitian: bool = False) -> Any:  # noqa: N803
    """X with A X = B, from A's ``ldl_factor`` (LAPACK's sytrs).

    Example:
        >>> import minigrad
        >>> LD, pivots = minigrad.linalg.ldl_factor(minigrad.tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> minigrad.linalg.ldl_solve(LD, pivots, minigrad.tensor([[6.0], [5.0]]))
        tensor([[1.],
                [1.]])
    """
    ld = _tensor(LD, "linalg_ldl_solve", "LD", 1)
    order = _tensor(pivots, "linalg_ldl_solve", "pivots", 2)
    b = _tensor(B, "linalg_ldl_solve", "B", 3)
    name = "minigrad.linalg.ldl_solve"
    if ld.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor LD must have at least 2 dimensions.")
    if b.ndim < 2:  # (PyTorch's first look at B is at its dimension -2)
        raise IndexError(
            "Dimension out of range (expected to be in range of "
            f"[{-max(b.ndim, 1)}, {max(b.ndim, 1) - 1}], but got -2)"
        )
    if b.dtype != ld.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{display_name(b.dtype)} and A of type {display_name(ld.dtype)} "
            "instead."
        )
    if b.shape[-2] != ld.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for {name}: each A matrix is "
            f"{ld.shape[-2]} by {ld.shape[-1]} but each b matrix is "
            f"{b.shape[-2]} by {b.shape[-1]}"
        )
    if order.dtype != np.int32:
        raise RuntimeError(
            f"{name}: Expected pivots to be integers. Got {display_name(order.dtype)}"
        )
    if isinstance(pivots, TensorBase) and pivots.requires_grad:
        pivots = constant_tensor(order)
    return LdlSolve.apply(LD, B, order)


__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]
