"""Norms: vector_norm (its op), matrix_norm, linalg.norm, Tensor.norm, pairwise_distance.

``LinalgVectorNorm`` saves its input and its result (PyTorch's LinalgVectorNormBackward0);
the matrix norms are compositions of it, of sums, maxima and singular values, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_dim_items, check_int64_items
from minigrad._dtype import check_scalar_arguments, display_name, to_numpy_dtype
from minigrad._layout import contiguous_result
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given, dims_as_given
from minigrad.ops import arithmetic, reduction, views
from minigrad.ops._helpers import (
    cast,
    float_input,
    is_tensor,
    operand,
    promote,
    raw,
    restore_reduced,
    wrap_dim,
)
from minigrad.ops.decompositions import LinalgSvd
from minigrad.ops.opmath import FLOAT16, in_float32
from minigrad.ops.unary import sign_of


def _norm_value(x: np.ndarray, ord: float, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
    """(sum |x|**ord)**(1/ord) over ``axes``;  inf: max |x|, -inf: min |x|, 0: nonzeros.

    float16 in float32, rounded once (PyTorch's kernel: the squares may pass 65504).
    """
    if x.dtype is FLOAT16:
        return in_float32(_norm_value, x, ord, axes, keepdim)
    magnitude = np.abs(x)
    if ord == 2:
        y = np.sqrt(np.sum(magnitude * magnitude, axis=axes, keepdims=keepdim))
    elif ord == np.inf:
        y = np.max(magnitude, axis=axes, keepdims=keepdim)
    elif ord == -np.inf:
        y = np.min(magnitude, axis=axes, keepdims=keepdim)
    elif ord == 0:
        y = np.sum(magnitude != 0, axis=axes, keepdims=keepdim)
    elif ord == 1:
        y = np.sum(magnitude, axis=axes, keepdims=keepdim)
    else:
        y = np.sum(magnitude**ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(y, dtype=x.dtype)


def _norm_gradient(grad: Any, x: Any, y: Any, p: float, axes: tuple[int, ...],
                   keepdim: bool) -> Any:
    """The gradient of the ``p``-norm ``y`` of ``x`` over ``axes`` (PyTorch's norm_backward).

    grad * x / y for p 2 (0 where y == 0); grad * sign(x) for p 1; for +-inf grad shared by the
    elements with |x| == y, with sign(x); else grad * sign(x) |x|**(p-1) / y**(p-1); None for
    p 0 (no gradient). sign is PyTorch's (``sign_of``: 0 for nan and -0.0; numpy's is nan).
    """
    if np.ndim(x):
        grad = restore_reduced(grad, axes, keepdim)
        y = restore_reduced(y, axes, keepdim)
    if p == 0:
        return None
    if p == 1:
        return sign_of(x) * grad
    if p == 2:
        return grad * np.where(raw(y) == 0, 0, x / y)
    if np.isinf(p):
        magnitude = np.abs(raw(x))
        mask = (magnitude == raw(y)) | np.isnan(magnitude)
        count = np.sum(mask, axis=axes, keepdims=True)
        return sign_of(x) * ((grad / count) * mask)
    if p < 1:
        scaled = np.where(raw(x) == 0, 0, sign_of(x) * np.abs(x) ** (p - 1))
        return scaled * grad * y ** (1 - p)
    scaled = sign_of(x) * np.abs(x) ** (p - 1) if p < 2 else x * np.abs(x) ** (p - 2)
    return scaled * np.where(raw(y) == 0, 0, grad / y ** (p - 1))


class LinalgVectorNorm(Op):
    """y = (sum |x|**ord)**(1/ord) over ``dim``;  inf: max |x|, -inf: min |x|, 0: nonzeros.

    Saves its input and its result (PyTorch's LinalgVectorNormBackward0). dx: ``_norm_gradient``
    (none for ord 0).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("ord", "axes", "keepdim", "given_dim")
    saved_options = {"ord": "ord", "dim": dims_as_given("given_dim"), "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, ord: float, axes: tuple[int, ...],
                keepdim: bool, given_dim: Any) -> np.ndarray:
        y = _norm_value(x, ord, axes, keepdim)
        ctx.save_for_backward(x, y)
        ctx.ord, ctx.axes, ctx.keepdim, ctx.given_dim = ord, axes, keepdim, given_dim
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, y = ctx.saved_tensors
        return _norm_gradient(grad, x, y, ctx.ord, ctx.axes, ctx.keepdim), None, None, None, None


def _ord_text(value: float) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _check_float(array: np.ndarray, name: str) -> None:
    if array.dtype.kind != "f":
        raise RuntimeError(errors.linalg_not_float(name, display_name(array.dtype)))


def vector_norm(input: Any, ord: float = 2, dim: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Any:
    """The vector ``ord``-norm of ``x`` over ``dim`` (all elements if None).

    ``(sum |x|**ord)**(1/ord)``; ``inf``: max |x|; ``-inf``: min |x|; 0: the count of nonzeros.
    The tensor is ``input`` (PyTorch's parser's name, in its messages) or ``x`` (its docs').

    Example:
        >>> import minigrad
        >>> minigrad.linalg.vector_norm(minigrad.tensor([3.0, 4.0]))
        tensor(5.)
    """
    x = input
    array = operand(x)
    _check_float(array, "linalg.vector_norm")
    if dtype is not None:
        x = cast(x, to_numpy_dtype(dtype, "linalg.vector_norm"))
        array = operand(x)
    check_scalar_arguments(ord)  # (the parser's error comes first)
    ord = float(ord)
    axes = reduction.reduced_dims(dim, array.ndim)
    if array.size == 0 and (ord < 0 or ord == math.inf):
        if dim is None:
            raise RuntimeError(errors.vector_norm_empty(_ord_text(ord)))
        for axis in axes:
            if array.shape[axis] == 0:
                raise RuntimeError(errors.vector_norm_empty(_ord_text(ord), axis))
    return LinalgVectorNorm.apply(x, ord, axes, keepdim, dim)


def _backshift(dim1: int, dim2: int, ndim: int) -> list[int]:
    """The permutation that moves ``dim1`` and ``dim2`` to the end (in that order)."""
    return [d for d in range(ndim) if d not in (dim1, dim2)] + [dim1, dim2]


def _svdvals(a: Any) -> Any:
    return LinalgSvd.apply(a, False)[1]


def matrix_norm(a: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *,
                dtype: Any = None) -> Any:
    """The matrix norm over the two dims ``dim``: ``"fro"``, ``"nuc"``, 1, -1, 2, -2, inf, -inf.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.matrix_norm(minigrad.tensor([[3.0, 0.0], [0.0, 4.0]]), 1)
        tensor(4.)
    """
    if isinstance(dim, (tuple, list)):
        check_dim_items(dim)  # (the parser unpacks them first)
    array = operand(a)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(errors.matrix_norm_order(ord))
    else:
        if abs(ord) not in (1, 2, math.inf):
            raise RuntimeError(errors.matrix_norm_order(_ord_text(ord)))
    if array.ndim < 2:
        raise RuntimeError(errors.linalg_too_few_dims("linalg.matrix_norm"))
    _check_float(array, "linalg.matrix_norm")
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) != 2:
        raise RuntimeError(errors.matrix_norm_dim_length(dims))
    dim1, dim2 = (wrap_dim(d, array.ndim) for d in dims)
    if dim1 == dim2:
        raise RuntimeError(errors.matrix_norm_same_dims(dim1, dim2))
    if ord == "fro":
        return vector_norm(a, 2, (dim1, dim2), keepdim, dtype=dtype)
    if ord == "nuc" or abs(ord) == 2:
        if dtype is not None:

            a = cast(a, to_numpy_dtype(dtype, "linalg.matrix_norm"))
        permutation = _backshift(dim1, dim2, array.ndim)
        values = _svdvals(views.permute(a, permutation))
        if ord == "nuc":
            result = reduction.sum(values, -1, keepdim)
        else:
            result = (reduction.amax if ord > 0 else reduction.amin)(values, -1, keepdim)
        if keepdim:
            result = views.permute(views.unsqueeze(result, -1), list(np.argsort(permutation)))
        return result
    extreme = reduction.amax if ord > 0 else reduction.amin
    if math.isinf(ord):
        dim1, dim2 = dim2, dim1
    if not keepdim and dim1 < dim2:
        dim2 -= 1
    return extreme(vector_norm(a, 1, dim1, keepdim, dtype=dtype), dim2, keepdim)


def linalg_norm(x: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Any:
    """``minigrad.linalg.norm``: a vector or matrix norm, chosen as PyTorch chooses.

    Without ``ord`` it is the 2-norm of all elements (the Frobenius norm of a matrix); with
    ``ord`` and a 2-D input (or two ``dim``) a matrix norm, else a vector norm.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.norm(minigrad.tensor([[3.0, 4.0]]))
        tensor(5.)
    """
    if isinstance(dim, (tuple, list)):
        check_dim_items(dim)  # (the parser unpacks them first)
    array = operand(x)
    dims = None if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if dims is not None:
        if len(dims) not in (1, 2):
            raise RuntimeError(errors.norm_dim_length(dims))
    elif ord is not None and array.ndim not in (1, 2):
        raise RuntimeError(errors.norm_ord_needs_1d_or_2d(array.ndim))
    if isinstance(ord, str):
        return matrix_norm(x, ord, dims or (0, 1), keepdim, dtype=dtype)
    if ord is not None and ((dims is not None and len(dims) == 2)
                            or (dims is None and array.ndim == 2)):
        return matrix_norm(x, ord, dims or (0, 1), keepdim, dtype=dtype)
    return vector_norm(x, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: Any = None) -> Any:
    """``Tensor.norm`` / ``minigrad.norm``: PyTorch's legacy norm, dispatching as it does.

    ``p="fro"`` (default) or a number gives a vector norm over ``dim`` (all elements if None);
    ``"nuc"`` a matrix norm.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([3.0, 4.0]).norm()
        tensor(5.)
    """
    dims = None if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if dims is not None:  # (PyTorch's Python passes them on: that function's parser's error)
        matrix = isinstance(p, str) and not (p == "fro" and len(dims) <= 2)
        function = "linalg_matrix_norm" if matrix else "linalg_vector_norm"
        check_int64_items(dims, function, "dim")
    if isinstance(p, str):
        if p == "fro" and (dims is None or len(dims) <= 2):
            return vector_norm(input, 2, dims, keepdim, dtype=dtype)
        if dims is None:
            dims = list(range(operand(input).ndim))
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    return vector_norm(input, 2.0 if p is None else p, dims, keepdim, dtype=dtype)


# --- dist: the norm of a difference, an op of its own ---------------------------------------


class Dist(Op):
    """y = ||x - other||_p over every element of the broadcast difference.

    Saves both inputs and the result (PyTorch's DistBackward0). dx: the norm's gradient at
    ``x - other`` (summed over broadcast dims), d other: its negation. p = 0 has no gradient:
    PyTorch's backward then fails on the missing one, and so does minigrad's.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message
    fields = ("p",)
    saved_options = ("p",)
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, other: np.ndarray, p: Any) -> np.ndarray:
        difference = x - other
        y = _norm_value(difference, float(p), tuple(range(difference.ndim)), False)
        ctx.save_for_backward(x, other, y)
        ctx.p = p
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, other, y = ctx.saved_tensors
        difference = x - other
        gradient = _norm_gradient(grad, difference, y, float(ctx.p),
                                  tuple(range(np.ndim(difference))), False)
        if gradient is None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor "
                               "in C++) for argument #0 'self'")
        return gradient, -gradient, None


def dist(input: Any, other: Any, p: float = 2) -> Any:
    """The ``p``-norm of ``input - other`` (broadcast), over all its elements.

    Example:
        >>> import minigrad
        >>> minigrad.dist(minigrad.tensor([4.0, 6.0]), minigrad.tensor([1.0, 2.0]))
        tensor(5.)
    """
    check_scalar_arguments(p)  # (the parser's error comes first)
    a, b, dtype = promote(input, other)
    arithmetic.check_bool_subtraction(a, b)
    result_dtype = dtype if dtype is not None else operand(a).dtype
    if np.dtype(result_dtype).kind != "f":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {display_name(np.dtype(result_dtype))} instead.")
    return Dist.apply(cast(a, result_dtype), cast(b, result_dtype), p)


# --- at::norm's node, and pairwise_distance, which records it ---------------------------------


class Norm(LinalgVectorNorm):
    """``at::norm(x, p, dim, keepdim)`` as C++ compositions call it: NormBackward1.

    The same formula as linalg.vector_norm's; PyTorch names the order ``p``. Saves its input
    and its result.
    """

    node_name = "NormBackward1"
    saved_options = {"p": "ord", "dim": dims_as_given("given_dim"), "keepdim": "keepdim"}


def pairwise_distance(
    x1: Any, x2: Any, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Any:
    """``norm(x1 - x2 + eps, p)`` over the last dim of the broadcast inputs.

    PyTorch's composition: SubBackward0, AddBackward1 (``+ eps``), then NormBackward1.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.pairwise_distance(minigrad.tensor([[3.0, 4.0]]), minigrad.zeros(1, 2), eps=0.0)
        tensor([5.])
    """
    # (the innermost dim of the broadcast result, counted from the front as PyTorch does)
    innermost = max(x1.dim(), x2.dim()) - 1
    # (an integer difference plus the float eps is a float32 tensor, as in PyTorch)
    difference = arithmetic.AddScalar.apply(float_input(x1 - x2), eps)
    axes = reduction.reduced_dims(innermost, difference.dim())
    return Norm.apply(difference, float(p), axes, keepdim, innermost)


class Renorm(Op):
    """y = x with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down.

    Such a slice is multiplied by ``maxnorm / (norm + 1e-7)``. The gradient is PyTorch's
    renorm_backward: through the factor and through the norm itself (``_norm_gradient``), for
    the slices that were scaled; ``grad`` as it is elsewhere. Saves its input.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("p", "dim", "maxnorm")
    saved_options = {"p": "p", "dim": as_given("dim"), "maxnorm": "maxnorm"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.p, ctx.dim, ctx.maxnorm = p, dim, maxnorm
        norm = _norm_value(x, p, _other_dims(x.ndim, dim), True)
        factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1).astype(x.dtype)
        return x * factor

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (x,) = ctx.saved_tensors
        p, maxnorm = ctx.p, ctx.maxnorm
        axes = _other_dims(np.ndim(x), ctx.dim)
        # (under create_graph the norm is recorded)
        norm = vector_norm(x, p, axes, True) if is_tensor(x) else _norm_value(x, p, axes, True)
        slice_grad = np.sum(x * grad, axis=axes, keepdims=True)
        through_norm = _norm_gradient(slice_grad, x, norm, p, axes, True)
        inverse = 1 / (norm + 1e-7)
        factor = inverse * maxnorm
        scaled = factor * grad - factor * inverse * through_norm
        return np.where(raw(norm) > maxnorm, scaled, grad), None, None, None


def _other_dims(ndim: int, dim: int) -> tuple[int, ...]:
    """Every dimension but ``dim``: the ones a slice along ``dim`` spans."""
    axis = dim % ndim
    return tuple(d for d in range(ndim) if d != axis)


def _renorm_call(input: Any, p: float, dim: int, maxnorm: float) -> tuple[Any, ...]:
    """The checked options (after ``input``) of Renorm, in PyTorch's order."""
    array = operand(input)
    check_scalar_arguments(p, maxnorm)  # (the parser's error comes first)
    if not p > 0:
        raise RuntimeError(errors.RENORM_NORM_NOT_POSITIVE)
    if maxnorm < 0:
        raise RuntimeError(errors.renorm_maxnorm_negative(maxnorm))
    if array.ndim < 2:
        raise RuntimeError(errors.renorm_dims(array.ndim))
    wrap_dim(dim, array.ndim)
    _check_float(array, "linalg.vector_norm")
    return float(p), dim, maxnorm  # (dim as given: the node shows it so)


def renorm(input: Any, p: float, dim: int, maxnorm: float) -> Any:
    """``input`` with each slice along ``dim`` of ``p``-norm above ``maxnorm`` scaled to it.

    A slice ``input.select(dim, i)`` whose norm exceeds ``maxnorm`` is multiplied by
    ``maxnorm / (norm + 1e-7)``; the others are kept.

    Example:
        >>> import minigrad
        >>> minigrad.renorm(minigrad.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    return Renorm.apply(input, *_renorm_call(input, p, dim, maxnorm))


def renorm_(input: Any, p: float, dim: int, maxnorm: float) -> Any:
    """Scale each slice along ``dim`` of ``p``-norm above ``maxnorm`` down to it, in place."""
    return apply_inplace(Renorm, input, *_renorm_call(input, p, dim, maxnorm))
