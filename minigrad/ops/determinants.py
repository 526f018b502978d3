"""Determinants: ``det``, ``slogdet`` and ``logdet``.

numpy's LAPACK computes them from a pivoted LU. A singular matrix's determinant is the product
of the pivots, one of which is 0, negated for an odd permutation: it can be -0.0 (printed
"-0."), which numpy rounds away; ``pivoted_lu`` recomputes those few as LAPACK has them.

``det`` saves its input, its LU factors (those of its transpose if it is contiguous: what
PyTorch's kernel factors) and its result; ``slogdet`` its input, the same factors and ``sign``
(PyTorch 2.13).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.ops import comparison
from minigrad.ops._helpers import (
    given_gradient,
    is_tensor,
    raw,
)
from minigrad.ops.decompositions import LinalgSvd
from minigrad.ops.return_types import (
    return_types,
)
from minigrad.ops.solvers import (
    eye_like,
    lu_determinant,
    pivoted_lu,
    saved_lu,
    solve_in_backward,
    square_float,
)


class LinalgDet(Op):
    """det = the determinant of (a batch of) square matrices;  dA = grad * det * A^-T.

    For a singular A (det 0) the first gradient is 0, as PyTorch's (it solves with a perturbed
    LU); under create_graph, PyTorch's differentiable formulas: A^-T by a solve, or, where
    |det| < 100 eps, the adjugate through the SVD. Saves A, the LU factors PyTorch's kernel
    computed (``_lu_operand``: of A^T for a contiguous A) and the result.
    """

    fields = ()
    saves = ("A", "LU", "pivots", "result")

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        det = np.asarray(np.linalg.det(a), dtype=a.dtype)
        zero = det == 0
        if zero.any():
            lu, _, odd, _ = pivoted_lu(a)
            det = np.where(zero, lu_determinant(lu, odd), det)
        ctx.save_for_backward(a, *saved_lu(ctx, _lu_operand(a)), det)
        return det

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        a, _, _, det = ctx.saved_tensors
        if raw(a).size == 0:
            return np.zeros(np.shape(a), dtype=raw(a).dtype)
        eye = eye_like(a)
        scaled = (grad * det)[..., None, None] * eye
        if not is_tensor(a):  # not create_graph (saved tensors come as arrays)
            # Exactly singular: the scale is 0, and so is the gradient.
            return solve_in_backward(_where_matrix(raw(det) == 0, eye, a).mT, scaled)
        singular = np.abs(raw(det)) < 100 * np.finfo(raw(det).dtype).eps
        if not singular.any():
            return solve_in_backward(a.mT, scaled)
        regular = solve_in_backward(_where_matrix(singular, eye, a).mT, scaled)
        return _where_matrix(singular, _adjugate_transpose(a, grad), regular)


def _lu_operand(a: np.ndarray) -> np.ndarray:
    """The matrix PyTorch's det and slogdet factor: A^T if A is row-major (contiguous), else A.

    (LAPACK reads a row-major A's transpose column-major without a copy; its determinant is A's.)
    """
    return a.mT if a.flags.c_contiguous else a


def _where_matrix(mask: np.ndarray, yes: Any, no: Any) -> Any:
    """Per matrix of a batch: ``yes`` where ``mask`` (one flag a matrix), else ``no``."""
    return np.where(mask[..., None, None], yes, no)


def _adjugate_transpose(a: Any, grad: Any) -> Any:
    """The gradient times adj(A)^T, through the SVD: defined for singular A too (PyTorch).

    With A = U diag(S) Vh: adj(A)^T = det(U) det(Vh) U diag(prod of the other S) Vh.
    """
    u, s, vh = LinalgSvd.apply(a, False)
    alpha = LinalgDet.apply(u) * LinalgDet.apply(vh) * grad
    others = _product_of_others(np.expand_dims(alpha, -1), s)
    return (u * np.expand_dims(others, -2)) @ vh


def _product_of_others(grad: Any, values: Any) -> Any:
    """The gradient times, per element, the product of the others along the last dim (zeros too).

    PyTorch's prod_safe_zeros_backward: exclusive cumulative products from both ends.
    """
    ones = np.ones(np.shape(values)[:-1] + (1,), dtype=raw(values).dtype)
    before = np.cumprod(np.concatenate([ones, values[..., :-1]], axis=-1), axis=-1)
    after = np.flip(np.cumprod(np.concatenate([ones, np.flip(values[..., 1:], -1)], axis=-1),
                               axis=-1), -1)
    return grad * before * after


def linalg_det(A: Any) -> Any:  # noqa: N803 - PyTorch's name
    """The determinant of a square matrix (or of each in a batch).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.det(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    square_float(A, "linalg.det", half_kernel="lu_cpu")
    return LinalgDet.apply(A)


def det(input: Any) -> Any:
    """The determinant of a square matrix (or of each in a batch): ``linalg.det`` with ``input``.

    Example:
        >>> import minigrad
        >>> minigrad.det(input=minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    return linalg_det(input)


class LinalgSlogdet(Op):
    """(sign, logabsdet) with det = sign * exp(logabsdet);  dA = grad_logabsdet * A^-T.

    ``sign`` has no gradient (for real matrices it is piecewise constant). Saves A and sign;
    not logabsdet, so writing it afterwards is legal. Also saves the LU factors, as ``det``.
    """

    fields = ()
    saves = ("A", "LU", "pivots", "sign")

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sign, logabsdet = np.linalg.slogdet(a)
        sign = np.asarray(sign, dtype=a.dtype)
        zero = sign == 0
        if zero.any():
            lu, _, odd, _ = pivoted_lu(a)
            exact = lu_determinant(np.sign(lu), odd)
            sign = np.where(zero, exact, sign)
        ctx.save_for_backward(a, *saved_lu(ctx, _lu_operand(a)), sign)
        return sign, np.asarray(logabsdet, dtype=a.dtype)

    @staticmethod
    def backward(ctx: Any, grad_sign: Any, grad_logabsdet: Any) -> Any:
        a = ctx.saved_tensors[0]
        if given_gradient(grad_logabsdet) is None:
            return None  # only the sign was used: no gradient
        scaled = grad_logabsdet[..., None, None] * eye_like(a)
        return solve_in_backward(a.mT, scaled)


def _slogdet(A: Any, function: str) -> tuple[Any, Any]:  # noqa: N803 - PyTorch's name
    square_float(A, function)
    return LinalgSlogdet.apply(A)


def slogdet(A: Any) -> Any:  # noqa: N803 - PyTorch's name
    """``(sign, logabsdet)``: the determinant as ``sign * exp(logabsdet)``, without overflow.

    A singular matrix gives sign 0 and logabsdet ``-inf``.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.slogdet(minigrad.tensor([[2.0, 0.0], [0.0, -3.0]]))
        minigrad.return_types.linalg_slogdet(
        sign=tensor(-1.),
        logabsdet=tensor(1.7918))
    """
    return return_types.linalg_slogdet(*_slogdet(A, "linalg.slogdet"))


def slogdet_legacy(input: Any) -> Any:
    """``minigrad.slogdet``: ``linalg.slogdet``, as the named tuple ``return_types.slogdet``.

    Example:
        >>> import minigrad
        >>> minigrad.slogdet(minigrad.tensor([[2.0]])).logabsdet
        tensor(0.6931)
    """
    return return_types.slogdet(*_slogdet(input, "linalg.slogdet"))


def logdet(input: Any) -> Any:
    """The log of the determinant: nan where it is negative, ``-inf`` where it is 0.

    Recorded as PyTorch records it: ``slogdet``, then ``where(sign == -1, nan, logabsdet)``.

    Example:
        >>> import minigrad
        >>> minigrad.logdet(minigrad.tensor([[2.0, 0.0], [0.0, 3.0]]))
        tensor(1.7918)
    """
    sign, logabsdet = _slogdet(input, "logdet")
    return comparison.where(comparison.eq(sign, -1), float("nan"), logabsdet)
