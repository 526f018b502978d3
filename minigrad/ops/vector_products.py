"""Products of vectors and tensors: ``cross``, ``linalg.cross``, ``vdot``, ``inner``, ``kron``.

``cross`` and ``vdot`` are ops of their own (``LinalgCrossBackward0``, ``VdotBackward0``);
``inner`` and ``kron`` are PyTorch compositions and record the nodes of the ops they are made
of: ``inner`` a ``tensordot`` over the last dims (or ``mul`` if either is 0-d), ``kron`` a
``mul`` of the operands reshaped so that their dims interleave (``UnsafeViewBackward0`` around
``MulBackward0``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _arguments, _warnings
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops import arithmetic, linalg, views
from minigrad.ops._helpers import dim_size, dtype_name, not_implemented, operand, run


class LinalgCross(Op):
    """z = x × y along ``dim`` (3-vectors, batches broadcast);  dx = y × grad,  dy = grad × x.

    Saves each operand only if the other needs a gradient (PyTorch's LinalgCrossBackward0).
    """

    node_name = "LinalgCrossBackward0"
    num_inputs = 2
    broadcasts = True
    saves = ("self", "other")
    saves_for_the_other = True  # each operand if the other needs a gradient: recording saves
    fields = ("dim",)  # (as given: PyTorch's node shows it so)
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.dim = dim
        return np.cross(x, y, axis=dim)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, y = ctx.saved_tensors
        return (
            run(LinalgCross, y, grad, ctx.dim) if ctx.needs_input_grad[0] else None,
            run(LinalgCross, grad, x, ctx.dim) if ctx.needs_input_grad[1] else None,
            None,
        )


_CROSS_WITHOUT_DIM = (
    "Using minigrad.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use minigrad.linalg.cross.\nThe default value of dim will change "
    "to agree with that of linalg.cross in a future release."
)


def linalg_cross(input: Any, other: Any, *, dim: int = -1) -> Any:
    """The cross product of 3-vectors along ``dim`` (the other dims broadcast).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        >>> minigrad.linalg.cross(x, minigrad.tensor([[0.0, 0.0, 1.0]]))
        tensor([[ 0., -1.,  0.],
                [ 1.,  0.,  0.]])
    """
    _arguments.check_tensor(other, "linalg_cross", "other", 2)
    a, b = operand(input), operand(other)
    if a.ndim != b.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    sizes = (dim_size(a.shape, dim), dim_size(b.shape, dim))
    if sizes != (3, 3):
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{sizes[0]} and {sizes[1]}")
    if a.dtype.kind == "b":  # (the kernel is chosen by input's dtype first)
        raise not_implemented("cross", a)
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {dtype_name(a)} but found {dtype_name(b)}")
    return LinalgCross.apply(input, other, dim)


def cross(input: Any, other: Any, dim: int | None = None) -> Any:
    """The cross product of 3-vectors along ``dim`` (``linalg.cross``'s, whose default differs).

    Without ``dim`` (deprecated, with PyTorch's warning), the first dim of size 3.

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 0.0, 0.0])
        >>> minigrad.cross(a, minigrad.tensor([0.0, 1.0, 0.0]), dim=0)
        tensor([0., 0., 1.])
    """
    _arguments.check_tensor(other, "cross", "other", 2)
    if dim is None:
        _warnings.warn_once(_CROSS_WITHOUT_DIM, stacklevel=2)
        shape = operand(input).shape
        if 3 not in shape:
            raise RuntimeError("no dimension of size 3 in input")
        dim = shape.index(3)
    return linalg_cross(input, other, dim=dim)


class Vdot(linalg.Dot):
    """z = sum(conj(x) * y) for vectors (x is real here: ``dot``);  the same gradients.

    Saves each operand only if the other needs a gradient; PyTorch names them self and other.
    """

    saves = ("self", "other")


def vdot(input: Any, other: Any) -> Any:
    """The dot product of two vectors, the first one conjugated (the same as ``dot`` for reals).

    Example:
        >>> import minigrad
        >>> minigrad.vdot(minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0]))
        tensor(11.)
    """
    _arguments.check_tensor(other, "vdot", "other", 2)
    linalg.check_vectors(operand(input), operand(other))
    return Vdot.apply(input, other)


def inner(input: Any, other: Any) -> Any:
    """Sums of products over the last dims: ``tensordot(input, other, ([-1], [-1]))``.

    A 0-d operand multiplies the other one instead.

    Example:
        >>> import minigrad
        >>> minigrad.inner(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]), minigrad.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    _arguments.check_tensor(other, "inner", "other", 2)
    a, b = operand(input), operand(other)
    if a.ndim == 0 or b.ndim == 0:
        return arithmetic.mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(a.shape)} and {list(b.shape)}")
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    return linalg.tensordot(input, other, ([-1], [-1]))


def kron(input: Any, other: Any) -> Any:
    """The Kronecker product: each element of ``input`` times the whole of ``other``.

    The shorter shape is padded with leading 1s; the result's size along dim ``i`` is the
    product of the two sizes there.

    Example:
        >>> import minigrad
        >>> minigrad.kron(minigrad.tensor([[1, 2], [3, 4]]), minigrad.tensor([1, 10]))
        tensor([[ 1, 10,  2, 20],
                [ 3, 30,  4, 40]])
    """
    _arguments.check_tensor(other, "kron", "other", 2)
    a, b = operand(input), operand(other)
    dims = max(a.ndim, b.ndim)
    a_shape = (1,) * (dims - a.ndim) + a.shape
    b_shape = (1,) * (dims - b.ndim) + b.shape
    # a's sizes at the even dims, b's at the odd ones: their product interleaves them.
    a_view = tuple(size for n in a_shape for size in (n, 1))
    b_view = tuple(size for n in b_shape for size in (1, n))
    product = arithmetic.mul(views.unsafe_view(input, a_view), views.unsafe_view(other, b_view))
    return views.unsafe_view(product, tuple(map(math.prod, zip(a_shape, b_shape))))


__all__ = ["cross", "inner", "kron", "linalg_cross", "vdot"]
