"""Products of several factors: multi_dot, chain_matmul, matrix_power, vecdot and ger.

PyTorch composes each of existing ops, and so does minigrad, node for node: multi_dot is a
chain of ``mm`` in the cheapest order (matrix-chain dynamic programming, PyTorch's own
tie-breaking) followed by a ``view`` to the result's shape; matrix_power is ``clone`` (n = 1),
``clone`` and ``copy_`` of the identity (n = 0), ``linalg.inv`` (n = -1) or repeated squaring
with ``matmul`` (of the inverse for negative n); vecdot is ``vdot`` for two vectors, else ``mul``
and ``sum``; ger is ``outer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._warnings import warn_once
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, fill, reduction, unary, views
from minigrad.ops._helpers import operand
from minigrad.ops.linalg import matmul, mm, outer
from minigrad.ops.solvers import check_square, inv, matrix_argument
from minigrad.ops.vector_products import vdot

CHAIN_MATMUL_DEPRECATED = (
    "minigrad.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "minigrad.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters."
)


# --- multi_dot and chain_matmul ---------------------------------------------------------------


def _chain_order(sizes: Sequence[int]) -> list[list[int]]:
    """``split[i][j]``: where the cheapest product of factors i..j splits (PyTorch's DP).

    Factor i is ``sizes[i] x sizes[i + 1]``; the first split of least cost wins a tie.
    """
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] < 0 or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(factors: Sequence[Any], split: list[list[int]], i: int, j: int) -> Any:
    """The product of factors i..j, split where ``split`` says."""
    if i == j:
        return factors[i]
    k = split[i][j]
    return mm(_chain_product(factors, split, i, k), _chain_product(factors, split, k + 1, j))


def _check_chain(tensors: Sequence[Any]) -> tuple[list[Any], list[int]]:
    """multi_dot's checks; the factors as matrices and the result's shape."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    arrays = [operand(t) for t in tensors]
    factors = list(tensors)
    shape: list[int] = []
    for place, index, axis in (("first", 0, 0), ("last", n - 1, -1)):
        ndim = arrays[index].ndim
        if ndim == 1:
            factors[index] = views.unsqueeze(factors[index], axis)
        elif ndim == 2:
            shape.append(arrays[index].shape[1 if axis else 0])
        else:
            raise RuntimeError(f"multi_dot(): the {place} tensor must be 1D or 2D but got {ndim}D")
    for i in range(1, n - 1):
        if arrays[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {arrays[i].ndim}D")
    for i in range(1, n):
        if arrays[i].dtype != arrays[0].dtype:
            raise RuntimeError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{errors.CPP_TYPE_NAMES[arrays[0].dtype.name]} and tensor {i} "
                f"{errors.CPP_TYPE_NAMES[arrays[i].dtype.name]}"
            )
        if arrays[i - 1].shape[-1] != arrays[i].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i - 1} and {i} with shapes {list(arrays[i - 1].shape)} "
                f"and {list(arrays[i].shape)} cannot be multiplied"
            )
    return factors, shape


def multi_dot(tensors: Any) -> Any:
    """The product of two or more matrices, multiplied in the cheapest order.

    The first tensor may be a vector (a row), the last one too (a column); the others are
    matrices. Recorded as PyTorch records it: ``mm`` nodes in that order, then a view.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.multi_dot([minigrad.ones(2), minigrad.ones(2, 3), minigrad.ones(3)])
        tensor(6.)
    """
    kind = type(tensors)
    if kind is not list and kind is not tuple:
        raise TypeError(errors.tensors_not_tuple("linalg_multi_dot", kind.__name__))
    _arguments.check_tensor_sequence(tensors, 0)
    factors, shape = _check_chain(tensors)
    n = len(factors)
    if n == 2:
        product = mm(factors[0], factors[1])
    elif n == 3:  # PyTorch's closed form of the two orders' costs
        a, b = operand(factors[0]).shape
        c, d = operand(factors[2]).shape
        if a * c * (b + d) > b * d * (a + c):
            product = mm(factors[0], mm(factors[1], factors[2]))
        else:
            product = mm(mm(factors[0], factors[1]), factors[2])
    else:
        sizes = [operand(f).shape[0] for f in factors] + [operand(factors[-1]).shape[1]]
        product = _chain_product(factors, _chain_order(sizes), 0, n - 1)
    return views.view(product, *shape) if shape else views.view(product, ())


def chain_matmul(*matrices: Any) -> Any:
    """The product of the matrices (deprecated in PyTorch: ``minigrad.linalg.multi_dot``).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.chain_matmul(minigrad.ones(1, 2), minigrad.ones(2, 1))
        tensor([[2.]])
    """
    warn_once(CHAIN_MATMUL_DEPRECATED)
    _arguments.check_tensor_sequence(matrices, 0)
    for matrix in matrices:
        if matrix.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {matrix.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return unary.clone(matrices[0])
    return multi_dot(matrices)


# --- matrix_power -----------------------------------------------------------------------------


def matrix_power(input: Any, n: int) -> Any:
    """``input`` multiplied by itself ``n`` times (square matrices; a negative n inverts first).

    By repeated squaring, as PyTorch: ``n = 0`` gives the identity (recorded as a copy into
    a clone, so ``input`` still gets its zero gradient), ``n = 1`` a copy of it.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.matrix_power(minigrad.tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
        tensor([[1., 3.],
                [0., 1.]])
    """
    _arguments.check_int64_arguments(n)  # (past int64, the parser's error first)
    array = matrix_argument(input, "linalg_matrix_power", "input")
    check_square(array, "linalg.matrix_power")
    if n == 0:
        identity = np.broadcast_to(np.eye(array.shape[-1], dtype=array.dtype), array.shape)
        return fill.copy_(unary.contiguous_copy(input), TensorBase.output_class._make(identity))
    if n == 1:
        return unary.contiguous_copy(input)
    if n == -1:
        return inv(input)
    base = inv(input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return matmul(base, base)
    if n == 3:
        return matmul(matmul(base, base), base)
    square: Any = None
    result: Any = None
    while n > 0:  # the bits of n, least significant first
        bit, n = n % 2, n // 2
        square = base if square is None else matmul(square, square)
        if bit:
            result = square if result is None else matmul(result, square)
    return result


# --- vecdot and ger ---------------------------------------------------------------------------


def vecdot(x: Any, y: Any, *, dim: int = -1) -> Any:
    """The dot product of vectors along ``dim`` (broadcasting the other dims).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.vecdot(minigrad.ones(2, 3), minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([6., 6.])
    """
    a, b = operand(x), operand(y)
    if a.dtype.kind != "f":
        raise RuntimeError(errors.linalg_not_float("linalg.vecdot", display_name(a.dtype)))
    if a.dtype != b.dtype:
        raise RuntimeError(
            "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{display_name(a.dtype)} and y of type {display_name(b.dtype)} instead"
        )
    _arguments.check_int64_arguments(dim)  # (past int64, the parser's error first)
    if a.ndim == 1 and b.ndim == 1:
        return vdot(x, y)
    return reduction.sum(arithmetic.mul(x, y), dim)


def ger(input: Any, vec2: Any) -> Any:
    """The outer product of two vectors: ``minigrad.outer``'s other name.

    Example:
        >>> import minigrad
        >>> minigrad.ger(minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0]))
        tensor([[3.],
                [6.]])
    """
    return outer(input, vec2)

