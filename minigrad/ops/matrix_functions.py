"""``linalg.matrix_exp``: the exponential of square matrices, ``sum_k A^k / k!``.

Forward: scaling and squaring with the degree-13 Pade approximant (Higham, "The scaling and
squaring method for the matrix exponential revisited", 2005): A is divided by 2^s until its
1-norm is at most theta_13, ``exp(A / 2^s) ~ (V - U)^-1 (V + U)``, then squared s times. PyTorch
uses optimised Taylor polynomials instead; both are accurate to the dtype's precision.

Backward: the Frechet derivative through the block-matrix identity
``exp([[X, E], [0, X]]) = [[exp(X), L(X, E)], [0, exp(X)]]``, with X = A^T and E = grad, as
PyTorch's ``linalg_matrix_exp_differential``: dA is the upper-right block. Under create_graph
that block exponential is itself recorded, so it can be differentiated again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.ops._helpers import raw, run
from minigrad.ops.solvers import check_square, matrix_argument

_THETA_13 = 5.371920351148152  # the largest 1-norm degree 13 is accurate for (double)
_PADE_13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)


def _pade_13(a: np.ndarray) -> np.ndarray:
    """exp(a) for matrices of 1-norm at most theta_13, by the degree-13 Pade approximant."""
    b = _PADE_13
    identity = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (
        a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2)
        + b[7] * a6
        + b[5] * a4
        + b[3] * a2
        + b[1] * identity
    )
    v = (
        a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2)
        + b[6] * a6
        + b[4] * a4
        + b[2] * a2
        + b[0] * identity
    )
    return np.linalg.solve(v - u, v + u)


def matrix_exp_arrays(a: np.ndarray) -> np.ndarray:
    """exp(a) for (a batch of) square matrices: scaling, Pade 13, squaring.

    Each matrix of a batch is scaled and squared as many times as its own norm needs.
    """
    if a.size == 0:
        return np.array(a, copy=True)
    norms = np.abs(a).sum(axis=-2).max(axis=-1)  # the 1-norm of each matrix
    with np.errstate(divide="ignore"):
        squarings = np.maximum(0, np.ceil(np.log2(norms / _THETA_13))).astype(np.int64)
    scale = np.ldexp(np.ones((), a.dtype), -squarings).astype(a.dtype)
    result = _pade_13(a * scale[..., None, None])
    for step in range(int(squarings.max(initial=0))):
        result = np.where((squarings > step)[..., None, None], result @ result, result)
    return result.astype(a.dtype, copy=False)


class LinalgMatrixExp(Op):
    """Y = exp(A);  dA = the upper-right block of exp([[A^T, grad], [0, A^T]]).  Saves A."""

    saves = ("self",)

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return matrix_exp_arrays(a)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (a,) = ctx.saved_tensors
        n = np.shape(a)[-1]
        x = a.mT
        zeros = np.zeros(np.shape(a), dtype=raw(grad).dtype)
        block = np.concatenate(
            [np.concatenate([x, grad], axis=-1), np.concatenate([zeros, x], axis=-1)], axis=-2
        )
        return run(LinalgMatrixExp, block)[..., :n, n:]


def matrix_exp(input: Any) -> Any:
    """The matrix exponential ``sum_k A^k / k!`` of (a batch of) square matrices.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.matrix_exp(minigrad.tensor([[0.0, 1.0], [0.0, 0.0]]))
        tensor([[1., 1.],
                [0., 1.]])
    """
    a = matrix_argument(input, "linalg_matrix_exp", "input")
    check_square(a, "linalg.matrix_exp")
    if a.dtype.kind != "f":
        raise RuntimeError(errors.linalg_not_float("linalg.matrix_exp", display_name(a.dtype)))
    return LinalgMatrixExp.apply(input)
