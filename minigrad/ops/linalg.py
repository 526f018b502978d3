"""Matrix products: dot (1-D x 1-D), mv (2-D x 1-D), mm (2-D x 2-D), and batched matmul."""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.ops._helpers import operand


def _save_for_the_other(ctx: Any, x: Any, y: Any) -> None:
    # Each operand's gradient needs the *other* operand: save one only if that gradient is needed.
    needs = ctx.needs_input_grad
    ctx.save_for_backward(x if needs[1] else None, y if needs[0] else None)


class Dot(Op):
    """z = sum(x * y) for vectors;  dx = grad * y,  dy = grad * x.

    Saves each operand only if the other one needs a gradient (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        _save_for_the_other(ctx, x, y)
        return np.dot(x, y)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            grad * y if ctx.needs_input_grad[0] else None,
            grad * x if ctx.needs_input_grad[1] else None,
        )


class Mv(Op):
    """z = M @ v;  dM = outer(grad, v),  dv = M.T @ grad.

    Saves each operand only if the other one needs a gradient (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, m: np.ndarray, v: np.ndarray) -> np.ndarray:
        _save_for_the_other(ctx, m, v)
        return m @ v

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        m, v = ctx.saved_tensors
        return (
            np.outer(grad, v) if ctx.needs_input_grad[0] else None,
            m.T @ grad if ctx.needs_input_grad[1] else None,
        )


class Mm(Op):
    """z = x @ y for matrices;  dx = grad @ y.T,  dy = x.T @ grad.

    Like Mul, saves each operand only if the other one needs a gradient.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        _save_for_the_other(ctx, x, y)
        return x @ y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            grad @ y.T if ctx.needs_input_grad[0] else None,
            x.T @ grad if ctx.needs_input_grad[1] else None,
        )


class Matmul(Op):
    """z = x @ y with a 1-D or batched operand (numpy's matmul rules).

    dx = grad @ y^T,  dy = x^T @ grad, a 1-D operand taken as a one-row (x) or one-column (y)
    matrix; the node sums broadcast batch dimensions away. Saves each operand only if the other
    one needs a gradient.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        _save_for_the_other(ctx, x, y)
        ctx.vectors = x.ndim == 1, y.ndim == 1
        return np.matmul(x, y)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        x_is_vector, y_is_vector = ctx.vectors
        if x_is_vector:
            grad = np.expand_dims(grad, -2)
        if y_is_vector:
            grad = np.expand_dims(grad, -1)
        dx = dy = None
        if ctx.needs_input_grad[0]:
            dx = grad @ np.swapaxes(y[:, None] if y_is_vector else y, -1, -2)
            dx = np.squeeze(dx, -2) if x_is_vector else dx
        if ctx.needs_input_grad[1]:
            dy = np.swapaxes(x[None, :] if x_is_vector else x, -1, -2) @ grad
            dy = np.squeeze(dy, -1) if y_is_vector else dy
        return dx, dy


def matmul(input: Any, other: Any) -> Any:
    """Matrix product with PyTorch's rules for 1-D, 2-D and batched operands.

    Example:
        >>> import minigrad
        >>> minigrad.matmul(minigrad.ones(2, 3), minigrad.ones(3))
        tensor([3., 3.])
    """
    a, b = operand(input), operand(other)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and "
            f"{b.ndim}D"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_dtype_name(a)} != {_dtype_name(b)}"
        )
    _check_inner(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return Dot.apply(input, other)
    if a.ndim == 2 and b.ndim == 1:
        return Mv.apply(input, other)
    if a.ndim == 2 and b.ndim == 2:
        return Mm.apply(input, other)
    try:
        return Matmul.apply(input, other)
    except ValueError as error:
        raise RuntimeError(str(error)) from None


def _dtype_name(array: np.ndarray) -> str:
    from minigrad._dtype import from_numpy_dtype

    return {"float32": "float", "float64": "double", "int64": "long long"}.get(
        from_numpy_dtype(array.dtype).name, from_numpy_dtype(array.dtype).name)


def _check_inner(a: np.ndarray, b: np.ndarray) -> None:
    inner_a = a.shape[-1]
    inner_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if inner_a == inner_b:
        return
    if a.ndim == 1 and b.ndim == 1:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] "
            "to have the same number of elements, but got "
            f"{a.shape[0]} and {b.shape[0]} elements respectively"
        )
    if a.ndim == 2 and b.ndim == 1:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
            f"vec ({b.shape[0]})"
        )
    rows = int(np.prod(a.shape[:-1])) if a.ndim > 1 else 1
    raise RuntimeError(
        f"mat1 and mat2 shapes cannot be multiplied ({rows}x{inner_a} and "
        f"{inner_b}x{b.shape[-1] if b.ndim > 1 else 1})"
    )


def mm(input: Any, mat2: Any) -> Any:
    """Product of two matrices."""
    return matmul(input, mat2)


def dot(input: Any, other: Any) -> Any:
    """Dot product of two vectors."""
    return matmul(input, other)


def mv(input: Any, vec: Any) -> Any:
    """Matrix-vector product."""
    return matmul(input, vec)
