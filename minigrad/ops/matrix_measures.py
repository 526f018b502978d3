"""Numbers that measure a matrix: ``linalg.matrix_rank`` and ``linalg.cond``.

Both are compositions in PyTorch and here: the rank counts the singular values above a
tolerance (no gradient: an integer); the condition number is ``s_max / s_min`` of the singular
values for p = 2 (and ``s_min / s_max`` for -2), ``sum(s) * sum(1 / s)`` for the nuclear
norm, else ``||A||_p ||A^-1||_p`` with the inverse
of a singular matrix filled with inf, and nan (``0 * inf``) counted as inf. PyTorch fills the
inverse in place, after ``inv_ex`` saved it: backward through those orders raises, there and
here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, display_name
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, fill, reduction, unary, views
from minigrad.ops._helpers import operand
from minigrad.ops.decompositions import eigvalsh, svdvals
from minigrad.ops.norms import matrix_norm
from minigrad.ops.solvers import check_square, inv_ex, matrix_argument


def _number(value: Any) -> Any:
    """A tolerance given as a number or a tensor, as an array that broadcasts per matrix."""
    return None if value is None else np.asarray(operand(value), dtype=np.float64)


def matrix_rank(
    input: Any, tol: Any = None, hermitian: bool = False, *, atol: Any = None, rtol: Any = None
) -> Any:
    """The number of singular values above ``max(atol, rtol * largest)`` (int64).

    ``rtol`` defaults to ``eps * max(rows, columns)`` when ``atol`` is not given or 0, else
    to 0; the legacy ``tol`` is ``atol`` with ``rtol = 0``. ``hermitian``: the magnitudes of the
    eigenvalues stand for the singular values.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.matrix_rank(minigrad.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(1)
    """
    array = matrix_argument(input, "linalg_matrix_rank", "input")
    if array.ndim < 2:
        raise RuntimeError(
            errors.linalg_too_few_dims("torch.linalg.matrix_rank", "input").replace(
                "torch.", "minigrad.", 1
            )
        )
    if tol is not None:
        atol, rtol = tol, 0.0
    if array.dtype not in (np.float32, np.float64):  # (who refuses: PyTorch's order of work)
        if rtol is None:  # the default tolerance's epsilon
            raise RuntimeError("This function doesn't handle types other than float and double")
        if hermitian:
            raise NotImplementedError(
                errors.not_implemented_for("linalg_eigh_cpu", display_name(array.dtype))
            )
        raise RuntimeError(errors.linalg_not_float("linalg.svd", display_name(array.dtype)))
    absolute, relative = _number(atol), _number(rtol)
    if relative is None:
        eps = float(np.finfo(array.dtype).eps) * max(array.shape[-2:])
        relative = np.asarray(eps if absolute is None or not np.any(absolute > 0) else 0.0)
    absolute = np.asarray(0.0) if absolute is None else absolute
    if array.size == 0:
        return TensorBase.output_class._make(np.zeros(array.shape[:-2], dtype=np.int64))
    if hermitian:
        values = np.abs(eigvalsh(input.detach())._array)
    else:
        values = svdvals(input.detach())._array
    largest = values.max(axis=-1)
    threshold = np.maximum(absolute, relative * largest)
    rank = (values > threshold[..., None]).sum(axis=-1).astype(np.int64)
    return TensorBase.output_class._make(rank)


_ORDERS = (2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc")


def cond(input: Any, p: Any = None) -> Any:
    """The condition number of (a batch of) matrices in the norm ``p``.

    ``None`` or 2: the ratio of the largest to the smallest singular value (any shape); -2
    its inverse; 1, -1, inf, -inf, ``"fro"``, ``"nuc"``: ``||A|| ||A^-1||`` (square matrices;
    inf for a singular one).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.cond(minigrad.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor(4.)
    """
    array = matrix_argument(input, "linalg_cond", "input")
    check_scalar_arguments(p)  # (a Scalar: the parser's error for an int it cannot hold)
    if array.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    order = 2 if p is None else p
    if order not in _ORDERS:
        shown = order if isinstance(order, str) else errors.double_text(order)
        raise RuntimeError(f"linalg.cond got an invalid norm type: {shown}")
    if array.dtype.kind != "f":
        routine = "linalg.svd" if order in (2, -2, "nuc") else "linalg.inv"
        raise RuntimeError(errors.linalg_not_float(routine, display_name(array.dtype)))
    if array.size == 0:  # (NumPy has no condition number of an empty matrix: PyTorch gives 0)
        return TensorBase.output_class._make(np.zeros(array.shape[:-2], dtype=array.dtype))
    if order in (2, -2):
        values = svdvals(input)
        largest, smallest = views.narrow(values, -1, 0, 1), views.narrow(values, -1, -1, 1)
        ratio = (
            arithmetic.div(smallest, largest) if order == -2 else arithmetic.div(largest, smallest)
        )
        return views.squeeze(ratio, -1)
    shown = order if isinstance(order, str) else int(order) if abs(order) == 1 else order
    check_square(array, f"linalg.cond(ord={shown})")
    if order == "nuc":  # the sums of the singular values and of their reciprocals
        values = svdvals(input)
        return arithmetic.mul(
            reduction.sum(values, -1), reduction.sum(unary.reciprocal(values), -1)
        )
    inverse, info = inv_ex(input)
    singular = np.expand_dims(operand(info) > 0, (-2, -1))
    # In place, as PyTorch: the write moves the version of the inverse that inv_ex saved, so
    # backward raises PyTorch's error (its cond has no usable gradient for these orders).
    fill.masked_fill_(inverse, TensorBase.output_class._make(singular), float("inf"))
    product = arithmetic.mul(matrix_norm(input, order), matrix_norm(inverse, order))
    return unary.nan_to_num_(product, float("inf"), float("inf"))
