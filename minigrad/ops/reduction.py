"""Reductions: sum and mean over all elements or over ``dim`` (with ``keepdim``).

Neither saves a tensor: their gradients need only the input's shape, which is metadata, so
writing the input in place after a ``sum`` is legal (as in PyTorch).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.ops._helpers import normalize_dims, operand


def _spread(grad: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Any:
    """The gradient of a reduction over ``axes``: ``grad`` copied back along those axes."""
    if not keepdim and axes:
        grad = np.expand_dims(grad, axes)
    return np.broadcast_to(grad, shape)


class Sum(Op):
    """y = sum of all elements;  dx = grad broadcast to x's shape.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: Any) -> np.ndarray:
        ctx.shape = x.shape
        return np.sum(x, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.broadcast_to(grad, ctx.shape), None


class SumDim(Op):
    """y = sum over ``dim``;  dx = grad copied back along ``dim``.  Saves nothing."""

    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                dtype: Any) -> np.ndarray:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        return np.sum(x, axis=axes, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return _spread(grad, ctx.shape, ctx.axes, ctx.keepdim), None, None, None


class Mean(Op):
    """y = mean of all elements;  dx = grad / n broadcast to x's shape.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.shape = x.shape
        return np.mean(x, dtype=x.dtype) if x.size else np.array(np.nan, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        count = max(int(np.prod(ctx.shape)), 1)
        return np.broadcast_to(grad / count, ctx.shape)


class MeanDim(Op):
    """y = mean over ``dim``;  dx = grad / n copied back along ``dim``.  Saves nothing."""

    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        return np.mean(x, axis=axes, keepdims=keepdim, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        count = int(np.prod([ctx.shape[a] for a in ctx.axes]))
        return _spread(grad / max(count, 1), ctx.shape, ctx.axes, ctx.keepdim), None, None


def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """Sum of all elements, or over ``dim`` (int or tuple); integers and bools sum to int64.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=0)
        tensor([4., 6.])
    """
    array = operand(input)
    numpy_dtype = _sum_dtype(array, dtype)
    if dim is None:
        return Sum.apply(input, numpy_dtype)
    return SumDim.apply(input, normalize_dims(dim, array.ndim), keepdim, numpy_dtype)


def _sum_dtype(array: np.ndarray, dtype: Any) -> np.dtype | None:
    if dtype is not None:
        return dtype.numpy
    return np.dtype(np.int64) if array.dtype.kind in "biu" else None


def mean(input: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """Mean of all elements, or over ``dim``; floating-point tensors only (as in PyTorch).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 4.0]).mean()
        tensor(2.3333)
    """
    array = operand(input)
    if array.dtype.kind != "f":
        from minigrad._dtype import display_name

        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {display_name(array.dtype)}"
        )
    if dim is None:
        return Mean.apply(input)
    return MeanDim.apply(input, normalize_dims(dim, array.ndim), keepdim)
