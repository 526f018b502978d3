"""Vandermonde matrices: ``vander`` and ``linalg.vander``, composites as in PyTorch.

Both are products of running powers (``cumprod``), differentiated through the ops they are
made of, and their graphs are PyTorch's: ``linalg.vander`` concatenates a column of ones with
the cumulative product of ``x`` expanded (``CatBackward0``); ``vander`` writes ``x`` and then
the cumulative product into the same slice of a new matrix (``CopySlices`` nodes) and flips
it. That second write modifies the slice ``cumprod`` saved, so backward through ``vander``
raises PyTorch's "modified by an inplace operation" error, exactly as PyTorch's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _dtype, errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import constant_tensor
from minigrad.ops.shape import cat


def _tensor_argument(value: Any, function: str) -> None:
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(function, "x", "Tensor", errors.python_type_name(value), 1)
        )


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:  # noqa: N803
    """The Vandermonde matrix of a 1-D ``x``: columns ``x ** (N - 1)``, ..., ``x``, ``1``.

    ``N`` columns (default ``len(x)``); ``increasing=True`` puts the powers in increasing
    order. Integer and bool inputs give int64 (``cumprod`` promotes them).

    Example:
        >>> import minigrad
        >>> minigrad.vander(minigrad.tensor([1, 2, 3]), N=3)
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    _tensor_argument(x, "vander")
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    columns = x.shape[0] if N is None else N
    if columns < 0:
        raise RuntimeError("N must be non-negative.")
    # PyTorch promotes x's dtype with int64: float types stay, integers and bool become int64.
    dtype = x._array.dtype if x._array.dtype.kind == "f" else np.dtype(np.int64)
    result = constant_tensor(np.empty((x.shape[0], columns), dtype=dtype))
    if columns > 0:
        result.select(1, 0).fill_(1)
        if columns > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(result[:, 1:].cumprod(1))
    return result if increasing else result.flip(1)


def linalg_vander(x: Any, *, N: int | None = None) -> Any:  # noqa: N803 - PyTorch's name
    """The Vandermonde matrix of each vector in ``x``: columns ``1``, ``x``, ..., ``x ** (N-1)``.

    Batched: the result has shape ``(*x.shape, N)``; ``N`` defaults to ``x.shape[-1]`` and
    must be at least 2. Integer inputs give int64 (``cumprod`` promotes them).

    Example:
        >>> import minigrad
        >>> minigrad.linalg.vander(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([[1., 1., 1.],
                [1., 2., 4.],
                [1., 3., 9.]])
    """
    _tensor_argument(x, "linalg_vander")
    kind = x._array.dtype
    if kind.kind not in "fiu" or kind == np.float16:
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer "
            f"tensors, but got {_dtype.display_name(kind)}"
        )
    vectors = x.unsqueeze(-1) if x.dim() == 0 else x
    columns = vectors.shape[-1] if N is None else N
    if columns <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = vectors.unsqueeze(-1).expand(*vectors.shape, columns - 1).cumprod(-1)
    ones = constant_tensor(np.ones((*vectors.shape, 1), dtype=powers._array.dtype))
    return cat([ones, powers], -1)


__all__ = ["linalg_vander", "vander"]
