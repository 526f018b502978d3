"""``linalg.tensorinv`` and ``linalg.tensorsolve``: matrix inverse and solve on reshaped tensors.

Composites, as in PyTorch: the tensor is reshaped (after ``movedim`` for tensorsolve's ``dims``)
into a square matrix, inverted or solved (``LinalgInvExBackward0``,
``LinalgSolveExBackward0``) and the result reshaped back; the gradients flow through those ops.
"""

from __future__ import annotations

import math
from typing import Any

from minigrad import errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops.solvers import LinalgInvEx, solve, square_float


def _tensor(value: Any, function: str, name: str, position: int) -> None:
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(
                function, name, "Tensor", errors.python_type_name(value), position
            )
        )


def tensorinv(input: Any, ind: int = 2) -> Any:
    """The inverse of ``input`` for ``tensordot``: of shape ``shape[ind:] + shape[:ind]``.

    The products of ``input.shape[:ind]`` and ``input.shape[ind:]`` must be equal (a square matrix).

    Example:
        >>> import minigrad
        >>> A = minigrad.eye(4).reshape(4, 2, 2) * 2
        >>> minigrad.linalg.tensorinv(A, ind=1).shape
        minigrad.Size([2, 2, 4])
    """
    _tensor(input, "linalg_tensorinv", "input", 1)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(input.shape)
    if ind > len(shape):
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    rows, columns = math.prod(shape[:ind]), math.prod(shape[ind:])
    if columns != rows:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {columns} != {rows}"
        )
    matrix = input.reshape(columns, columns)
    square_float(matrix, "linalg.inv")
    inverse, _ = LinalgInvEx.apply(matrix, "inv")
    return inverse.reshape(*shape[ind:], *shape[:ind])


def tensorsolve(input: Any, other: Any, dims: Any = None) -> Any:
    """The solution ``X`` of ``tensordot(input, X, X.ndim) = other``.

    Of shape ``input.shape[other.ndim:]``; ``dims`` (optional) are dimensions of ``input``
    moved to the end first.

    Example:
        >>> import minigrad
        >>> A = (minigrad.eye(6) * 2).reshape(2, 3, 6)
        >>> minigrad.linalg.tensorsolve(A, minigrad.ones(2, 3))
        tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000])
    """
    _tensor(input, "linalg_tensorsolve", "input", 1)
    _tensor(other, "linalg_tensorsolve", "other", 2)
    if dims is not None:
        dims = tuple(dims)
        input = input.movedim(dims, tuple(range(input.dim() - len(dims), input.dim())))
    shape = tuple(input.shape)
    result_shape = shape[other.dim() :]
    size, other_size = math.prod(result_shape), math.prod(tuple(other.shape))
    if size != other_size:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {size} != {other_size}"
        )
    return solve(input.reshape(size, size), other.flatten()).reshape(result_shape)


__all__ = ["tensorinv", "tensorsolve"]
