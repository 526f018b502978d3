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


def tensorinv(A: Any, ind: int = 2) -> Any:  # noqa: N803 - PyTorch's name
    """The inverse of ``A`` for ``tensordot``: shape ``A.shape[ind:] + A.shape[:ind]``.

    The products of ``A.shape[:ind]`` and ``A.shape[ind:]`` must be equal (a square matrix).

    Example:
        >>> import minigrad
        >>> A = minigrad.eye(4).reshape(4, 2, 2) * 2
        >>> minigrad.linalg.tensorinv(A, ind=1).shape
        minigrad.Size([2, 2, 4])
    """
    _tensor(A, "linalg_tensorinv", "input", 1)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(A.shape)
    if ind > len(shape):
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    rows, columns = math.prod(shape[:ind]), math.prod(shape[ind:])
    if columns != rows:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {columns} != {rows}"
        )
    matrix = A.reshape(columns, columns)
    square_float(matrix, "linalg.inv")
    inverse, _ = LinalgInvEx.apply(matrix, "inv")
    return inverse.reshape(*shape[ind:], *shape[:ind])


def tensorsolve(A: Any, B: Any, dims: Any = None) -> Any:  # noqa: N803 - PyTorch's names
    """The solution ``X`` of ``tensordot(A, X, X.ndim) = B``: shape ``A.shape[B.ndim:]``.

    ``dims`` (optional) are dimensions of ``A`` moved to the end first.

    Example:
        >>> import minigrad
        >>> A = (minigrad.eye(6) * 2).reshape(2, 3, 6)
        >>> minigrad.linalg.tensorsolve(A, minigrad.ones(2, 3))
        tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000])
    """
    _tensor(A, "linalg_tensorsolve", "input", 1)
    _tensor(B, "linalg_tensorsolve", "other", 2)
    if dims is not None:
        dims = tuple(dims)
        A = A.movedim(dims, tuple(range(A.dim() - len(dims), A.dim())))
    shape = tuple(A.shape)
    result_shape = shape[B.dim() :]
    size, other_size = math.prod(result_shape), math.prod(tuple(B.shape))
    if size != other_size:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {size} != {other_size}"
        )
    return solve(A.reshape(size, size), B.flatten()).reshape(result_shape)


__all__ = ["tensorinv", "tensorsolve"]
