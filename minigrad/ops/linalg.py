"""Linear algebra: products (dot, mv, mm, bmm, addmm, baddbmm) and compositions of them.

matmul, outer, tensordot, einsum and the matrix and vector norms are built from the products
and from views, as PyTorch builds them.

The four products save each operand only if the *other* one needs a gradient (PyTorch's
conditional saving): after ``z = x @ W`` with only ``W`` requiring grad, writing ``W`` in place
is still legal, writing ``x`` is not.

``matmul`` records what PyTorch records: it is a composition, not an op. ``x @ M`` with a 1-D
``x`` is unsqueeze -> mm -> squeeze; a batch times a matrix is folded into one mm (view ->
mm -> unsafe view); batches times batches are expand -> reshape -> bmm -> unsafe view. Each
piece is an op with its own backward, so the gradients (and their broadcasting) come for free.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase
from minigrad.autograd.views import ViewOp
from minigrad.ops import arithmetic, reduction, unary, views
from minigrad.ops._helpers import (
    normalize_dims,
    operand,
    run,
    save_for_the_other,
    wrap_dim,
)
from minigrad.ops.decompositions import LinalgSvd


class Dot(Op):
    """z = sum(x * y) for vectors;  dx = grad * y,  dy = grad * x.

    Saves each operand only if the other one needs a gradient (PyTorch).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        save_for_the_other(ctx, x, y)
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
        save_for_the_other(ctx, m, v)
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
        save_for_the_other(ctx, x, y)
        return x @ y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            grad @ y.T if ctx.needs_input_grad[0] else None,
            x.T @ grad if ctx.needs_input_grad[1] else None,
        )


class Bmm(Op):
    """z[b] = x[b] @ y[b] for batches of matrices;  dx = grad @ y^T,  dy = x^T @ grad.

    Saves each operand only if the other one needs a gradient.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        save_for_the_other(ctx, x, y)
        return np.matmul(x, y)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            run(Bmm, grad, np.swapaxes(y, 1, 2)) if ctx.needs_input_grad[0] else None,
            run(Bmm, np.swapaxes(x, 1, 2), grad) if ctx.needs_input_grad[1] else None,
        )


class Addmm(Op):
    """z = beta * input + alpha * (mat1 @ mat2), input broadcast to the product's shape.

    dinput = beta * grad (summed over broadcasting);  dmat1 = alpha * grad @ mat2.T;
    dmat2 = alpha * mat1.T @ grad.  Saves mat1 only if mat2 needs a gradient and mat2 only if
    mat1 does; never ``input``. With beta == 0 the input's values are ignored (nan too).
    """

    fields = ("beta", "alpha")

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, input: Any, mat1: np.ndarray, mat2: np.ndarray, beta: Any,
                alpha: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if needs[2] else None, mat2 if needs[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        return _scaled_sum(input, mat1 @ mat2, beta, alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        mat1, mat2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            _times(grad, ctx.beta) if needs[0] else None,
            _times(grad @ mat2.T, ctx.alpha) if needs[1] else None,
            _times(mat1.T @ grad, ctx.alpha) if needs[2] else None,
            None,
            None,
        )


class Baddbmm(Op):
    """z = beta * input + alpha * bmm(batch1, batch2), input broadcast to the product's shape.

    dinput = beta * grad;  dbatch1 = alpha * grad @ batch2^T;  dbatch2 = alpha * batch1^T @
    grad.  Saves each batch only if the other needs a gradient.
    """

    fields = ("beta", "alpha")

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, input: Any, batch1: np.ndarray, batch2: np.ndarray, beta: Any,
                alpha: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(batch1 if needs[2] else None, batch2 if needs[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        return _scaled_sum(input, np.matmul(batch1, batch2), beta, alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        batch1, batch2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            _times(grad, ctx.beta) if needs[0] else None,
            _times(run(Bmm, grad, np.swapaxes(batch2, 1, 2)), ctx.alpha) if needs[1] else None,
            _times(run(Bmm, np.swapaxes(batch1, 1, 2), grad), ctx.alpha) if needs[2] else None,
            None,
            None,
        )


def _scaled_sum(input: Any, product: np.ndarray, beta: Any, alpha: Any) -> np.ndarray:
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return np.array(np.broadcast_to(product, product.shape), copy=True)
    return product + (input if beta == 1 else beta * input)


def _times(grad: Any, factor: Any) -> Any:
    return grad if factor == 1 else grad * factor


class SqueezeInplace(Op):
    """y = x without dimension ``dim``;  dx = grad reshaped back.  Saves nothing.

    matmul squeezes its own temporary product in place, which PyTorch records as
    SqueezeBackward4; here it is an out-of-place op on that temporary, which nobody else sees.
    """

    fields = ("shape",)

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        ctx.shape = x.shape
        return np.squeeze(x, dim)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.reshape(grad, ctx.shape), None


# --- the primitive products: argument checks with PyTorch's messages --------------------------

def _cpp_name(array: np.ndarray) -> str:
    return errors.CPP_TYPE_NAMES[array.dtype.name]


def _check_not_bool(*arrays: np.ndarray, kernel: str = "addmm_impl_cpu_") -> None:
    for array in arrays:
        if array.dtype == np.bool_:
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def mm(input: Any, mat2: Any) -> Any:
    """The product of two matrices.

    Example:
        >>> import minigrad
        >>> minigrad.mm(minigrad.ones(2, 3), minigrad.ones(3, 1))
        tensor([[3.],
                [3.]])
    """
    a, b = operand(input), operand(mat2)
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    _check_mm_shapes(a, b)
    if a.dtype != b.dtype:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{_cpp_name(a)} != {_cpp_name(b)}")
    _check_not_bool(a)
    return Mm.apply(input, mat2)


def _check_mm_shapes(a: np.ndarray, b: np.ndarray) -> None:
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})")


def bmm(input: Any, mat2: Any) -> Any:
    """Batched matrix products: ``out[b] = input[b] @ mat2[b]`` for 3-D tensors.

    Example:
        >>> import minigrad
        >>> minigrad.bmm(minigrad.ones(2, 1, 3), minigrad.ones(2, 3, 1)).shape
        minigrad.Size([2, 1, 1])
    """
    a, b = operand(input), operand(mat2)
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    _check_bmm_shapes(a, b)
    # The kernel is chosen by the first operand's dtype: a bool one has none, before any mix.
    _check_not_bool(a, kernel="bmm")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {display_name(a.dtype)} but found "
                           f"{display_name(b.dtype)}")
    return Bmm.apply(input, mat2)


def _check_bmm_shapes(a: np.ndarray, b: np.ndarray) -> None:
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")


def mv(input: Any, vec: Any) -> Any:
    """The product of a matrix and a vector.

    Example:
        >>> import minigrad
        >>> minigrad.mv(minigrad.ones(2, 3), minigrad.ones(3))
        tensor([3., 3.])
    """
    a, v = operand(input), operand(vec)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                           f"({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})")
    if a.dtype != v.dtype:
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{display_name(v.dtype)}, {display_name(a.dtype)}, and {display_name(v.dtype)}")
    _check_not_bool(a, kernel="addmv_impl_cpu")
    return Mv.apply(input, vec)


def dot(input: Any, other: Any) -> Any:
    """The dot product of two vectors.

    Example:
        >>> import minigrad
        >>> minigrad.dot(minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0]))
        tensor(11.)
    """
    _arguments.check_tensor(other, "dot", "tensor", 2)
    a, b = operand(input), operand(other)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{display_name(a.dtype)} and {display_name(b.dtype)}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] "
            "to have the same number of elements, but got "
            f"{a.shape[0]} and {b.shape[0]} elements respectively")
    _check_not_bool(a, kernel="dot")
    return Dot.apply(input, other)


def _expand_error(input: np.ndarray, shape: tuple[int, ...]) -> RuntimeError | None:
    """PyTorch's error for ``input.expand(shape)``, or None if it is fine."""
    if input.ndim > len(shape):
        return RuntimeError(
            f"expand({_type_name(input)}{{{list(input.shape)}}}, size={list(shape)}): the "
            f"number of sizes provided ({len(shape)}) must be greater or equal to the number "
            f"of dimensions in the tensor ({input.ndim})")
    lead = len(shape) - input.ndim
    for i, n in enumerate(input.shape):
        if n != 1 and n != shape[lead + i]:
            return RuntimeError(
                f"The expanded size of the tensor ({shape[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(shape)}.  Tensor sizes: {list(input.shape)}")
    return None


def _type_name(array: np.ndarray) -> str:
    from minigrad._dtype import type_name

    # PyTorch's C++ messages call a bool tensor "CPUBoolType" (not "torch.BoolTensor").
    return "CPUBoolType" if array.dtype == np.bool_ else type_name(array.dtype)


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * (mat1 @ mat2)``, ``input`` broadcast to the product's shape.

    Example:
        >>> import minigrad
        >>> minigrad.addmm(minigrad.ones(2), minigrad.ones(1, 3), minigrad.ones(3, 2))
        tensor([[4., 4.]])
    """
    bias, a, b = operand(input), operand(mat1), operand(mat2)
    for name, array in (("mat1", a), ("mat2", b)):
        if array.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {array.ndim}-D tensor")
    _check_mm_shapes(a, b)
    if isinstance(bias, np.ndarray):
        error = _expand_error(bias, (a.shape[0], b.shape[1]))
        if error is not None:
            raise error
        if bias.dtype != b.dtype:
            raise RuntimeError("self and mat2 must have the same dtype, but got "
                               f"{display_name(bias.dtype)} and {display_name(b.dtype)}")
    if a.dtype != b.dtype:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{_cpp_name(a)} != {_cpp_name(b)}")
    _check_not_bool(a)
    beta, alpha = _scalars_for(a, beta, alpha)
    return Addmm.apply(input, mat1, mat2, beta, alpha)


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * bmm(batch1, batch2)``, ``input`` broadcast to the product.

    Example:
        >>> import minigrad
        >>> minigrad.baddbmm(minigrad.zeros(1), minigrad.ones(2, 1, 3), minigrad.ones(2, 3, 1))
        tensor([[[3.]],
        <BLANKLINE>
                [[3.]]])
    """
    bias, a, b = operand(input), operand(batch1), operand(batch2)
    if a.ndim < 3:
        raise IndexError(errors.dim_out_of_range(2, a.ndim))
    if b.ndim < 3:  # PyTorch reads batch2.size(2) for the result's shape first
        raise IndexError(errors.dim_out_of_range(2, b.ndim))
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    _check_bmm_shapes(a, b)
    if isinstance(bias, np.ndarray):
        error = _expand_error(bias, (a.shape[0], a.shape[1], b.shape[2]))
        if error is not None:
            raise error
        if not bias.dtype == a.dtype == b.dtype:
            raise RuntimeError(
                f"Input dtypes must be the same, got: input {_cpp_name(bias)}, batch1: "
                f"{_cpp_name(a)}, batch2: {_cpp_name(b)}")
    elif a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {display_name(a.dtype)} but found "
                           f"{display_name(b.dtype)}")
    _check_not_bool(a, kernel="baddbmm")
    beta, alpha = _scalars_for(a, beta, alpha)
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


def _scalars_for(array: np.ndarray, beta: Any, alpha: Any) -> tuple[Any, Any]:
    # For integer tensors PyTorch converts beta and alpha to the integer type (truncating).
    if array.dtype.kind in "iu":
        return int(beta), int(alpha)
    return beta, alpha


# --- matmul: PyTorch's composition ------------------------------------------------------------


def _requires_grad(value: Any) -> bool:
    return isinstance(value, TensorBase) and value.requires_grad


def _should_fold(input: Any, other: Any) -> bool:
    """Whether a batch (>= 3-D) times a matrix or vector can run as one ``mm``/``mv``.

    PyTorch folds when the smaller operand requires grad (its gradient is then one mm instead
    of a batch summed down), and otherwise only if the big operand's batch dims can be merged
    without a copy (and it is not the 2-D ``input``, whose result would need a transpose copy).
    """
    a, b = operand(input), operand(other)
    input_larger = a.ndim >= b.ndim
    big = a if input_larger else np.swapaxes(b, -1, -2)
    small_ndim = b.ndim if input_larger else a.ndim
    if not (big.ndim >= 3 and small_ndim <= 2):
        return False
    if _requires_grad(other if input_larger else input):
        return True
    if a.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides = [s // big.itemsize for s in big.strides]
    return all(strides[i] == strides[i + 1] * big.shape[i + 1] for i in range(big.ndim - 2))


def matmul(input: Any, other: Any) -> Any:
    """Matrix product with PyTorch's rules for 1-D, 2-D and batched (broadcast) operands.

    Recorded as PyTorch records it: dot, mv or mm for 1-D/2-D operands; a batch times a matrix
    folded into one mm; batches times batches as expand, reshape, bmm and an unsafe view.

    Example:
        >>> import minigrad
        >>> minigrad.matmul(minigrad.ones(2, 3), minigrad.ones(3))
        tensor([3., 3.])
    """
    # (No numbers: matmul has no Scalar overload. Arrays: backward formulas mix them in.)
    if not isinstance(other, (TensorBase, np.ndarray)):
        raise TypeError(
            "matmul(): argument 'other' (position 2) must be Tensor, not "
            f"{errors.python_type_name(other)}"
        )
    a, b = operand(input), operand(other)
    dim1, dim2 = a.ndim, b.ndim
    if dim1 == 0 or dim2 == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {dim1}D and "
            f"{dim2}D")
    if dim1 == 1 and dim2 == 1:
        return dot(input, other)
    if dim1 == 2 and dim2 == 1:
        return mv(input, other)
    if dim1 == 1 and dim2 == 2:
        return SqueezeInplace.apply(mm(views.unsqueeze(input, 0), other), 0)
    if dim1 == 2 and dim2 == 2:
        return mm(input, other)
    if dim1 == 3 and dim2 == 3:
        # PyTorch 2.13: a batch of one matrix that requires grad, times a real batch, is
        # squeezed to a matrix, so that the product folds into one mm.
        if a.shape[0] == 1 and b.shape[0] != 1 and _requires_grad(input):
            return matmul(views.squeeze(input, 0), other)
        if b.shape[0] == 1 and a.shape[0] != 1 and _requires_grad(other):
            return matmul(input, views.squeeze(other, 0))
    if _should_fold(input, other):
        return _folded_matmul(input, other, dim1, dim2)
    return _batched_matmul(input, other, a, b)


def _folded_matmul(input: Any, other: Any, dim1: int, dim2: int) -> Any:
    transpose = dim2 > dim1
    if transpose:
        t1 = views.transpose(other, -2, -1)
        t2 = views.t(input) if dim1 == 2 else input
    else:
        t1, t2 = input, other
    sizes = tuple(operand(t1).shape)
    output_shape = sizes[:-1]
    folded = views.reshape(t1, (math.prod(output_shape), sizes[-1]))
    if operand(t2).ndim == 2:
        output_shape += (operand(t2).shape[1],)
        output = views.UnsafeView.apply(mm(folded, t2), output_shape)
        if transpose:
            output = views.transpose(output, -2, -1)
            if not operand(output).flags.c_contiguous:
                output = unary.clone(output)
        return output
    return views.UnsafeView.apply(mv(folded, t2), output_shape)


def _batched_matmul(input: Any, other: Any, a: np.ndarray, b: np.ndarray) -> Any:
    dim1, dim2 = a.ndim, b.ndim
    n = a.shape[-2] if dim1 > 1 else 1
    m1 = a.shape[-1]
    batch_a = a.shape[: max(dim1 - 2, 0)]
    m2 = b.shape[-2] if dim2 > 1 else b.shape[0]
    p = b.shape[-1] if dim2 > 1 else 1
    batch_b = b.shape[: dim2 - 2] if dim2 > 1 else ()
    try:
        batch = tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(batch_a, batch_b)) from None
    count = math.prod(batch)
    left = views.reshape(views.expand(input, batch + (n, m1)), (count, n, m1))
    if dim2 == 1:
        right = views.expand(other, batch + (m2,))
        right = views.unsqueeze(views.reshape(right, (count, m2)), 2)
    else:
        right = views.reshape(views.expand(other, batch + (m2, p)), (count, m2, p))
    output_shape = batch + ((n,) if dim1 > 1 else ()) + ((p,) if dim2 > 1 else ())
    product = bmm(left, right)
    if dim2 == 1:
        product = SqueezeInplace.apply(product, 2)
    return views.UnsafeView.apply(product, output_shape)



def outer(input: Any, vec2: Any) -> Any:
    """The outer product ``input[i] * vec2[j]`` of two vectors (recorded as a view and a mul).

    Example:
        >>> import minigrad
        >>> minigrad.outer(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 10.0]))
        tensor([[ 1., 10.],
                [ 2., 20.]])
    """
    for name, array in (("self", operand(input)), ("vec2", operand(vec2))):
        if array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {array.ndim}-D")
    return arithmetic.mul(views.reshape(input, (-1, 1)), vec2)


# --- tensordot --------------------------------------------------------------------------------


def tensordot(a: Any, b: Any, dims: Any = 2) -> Any:
    """Sum of products over the dimensions ``dims`` of ``a`` and ``b`` (numpy's tensordot).

    ``dims`` is a number n (the last n dims of ``a`` with the first n of ``b``) or two lists.
    Recorded as PyTorch: permute and reshape each side to a matrix, one mm, a reshape.

    Example:
        >>> import minigrad
        >>> minigrad.tensordot(minigrad.ones(2, 3), minigrad.ones(3, 4), dims=1).shape
        minigrad.Size([2, 4])
    """
    array_a, array_b = operand(a), operand(b)
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(array_a.ndim, array_b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    elif isinstance(dims, (tuple, list)) and len(dims) == 2:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    else:
        raise RuntimeError(
            "tensordot expects dims to be int or tuple[list[int], list[int]] or "
            f"list[list[int]] containing two lists, but got dims={dims}")
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if array_a.dtype != array_b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    axes_a = [wrap_dim(d, array_a.ndim) for d in dims_a]
    axes_b = [wrap_dim(d, array_b.ndim) for d in dims_b]
    contracted = 1
    for d_a, d_b, given_a, given_b in zip(axes_a, axes_b, dims_a, dims_b):
        size_a, size_b = array_a.shape[d_a], array_b.shape[d_b]
        if size_b == 1:
            a = reduction.sum(a, d_a, True)
        elif size_a == 1:
            b = reduction.sum(b, d_b, True)
        elif size_a != size_b:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {size_a} in dim "
                f"{given_a} and second has size {size_b} in dim {given_b}")
        else:
            contracted *= size_a
    normalize_dims(axes_a, array_a.ndim)  # repeated dims raise as in PyTorch
    normalize_dims(axes_b, array_b.ndim)
    shape_a, shape_b = operand(a).shape, operand(b).shape
    kept_a = [i for i in range(array_a.ndim) if i not in axes_a]
    kept_b = [i for i in range(array_b.ndim) if i not in axes_b]
    rows = math.prod(shape_a[i] for i in kept_a)
    columns = math.prod(shape_b[i] for i in kept_b)
    left = views.reshape(views.permute(a, kept_a + axes_a), (rows, contracted))
    right = views.reshape(views.permute(b, axes_b + kept_b), (contracted, columns))
    result_shape = tuple(shape_a[i] for i in kept_a) + tuple(shape_b[i] for i in kept_b)
    return views.reshape(mm(left, right), result_shape)


# --- einsum -----------------------------------------------------------------------------------


class Diagonal(ViewOp):
    """y = the diagonal of x over dims ``dim1`` < ``dim2``;  dx = grad on a diagonal of zeros.

    A view; the diagonal becomes the last dim. Saves nothing. Used by einsum for repeated
    subscripts (``"ii->i"``).
    """

    fields = ("shape", "dims")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim1: int, dim2: int) -> np.ndarray:
        ctx.shape, ctx.dims = x.shape, (dim1, dim2)
        return _diagonal_view(x, dim1, dim2)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(DiagonalBackward, grad, ctx.shape, *ctx.dims), None, None


class DiagonalBackward(Op):
    """y = zeros of ``shape`` with x on the diagonal (dims ``dim1``, ``dim2``);  dx = diag(grad).

    Saves nothing.
    """

    fields = ("dims",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shape: tuple[int, ...], dim1: int,
                dim2: int) -> np.ndarray:
        ctx.dims = dim1, dim2
        y = np.zeros(shape, dtype=x.dtype)
        _diagonal_view(y, dim1, dim2)[...] = x
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return run(Diagonal, grad, *ctx.dims), None, None, None


def _diagonal_view(x: np.ndarray, dim1: int, dim2: int) -> np.ndarray:
    # A writable view (numpy's own diagonal is read-only), as PyTorch's diagonal is.
    keep = [d for d in range(x.ndim) if d not in (dim1, dim2)]
    shape = tuple(x.shape[d] for d in keep) + (min(x.shape[dim1], x.shape[dim2]),)
    strides = tuple(x.strides[d] for d in keep) + (x.strides[dim1] + x.strides[dim2],)
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=x.flags.writeable)


_ELLIPSIS = -1


def _einsum_labels(equation: str, count: int) -> tuple[list[list[int]], str | None]:
    """Each operand's subscripts (letters as numbers, ``...`` as -1), and the output part."""
    lhs, arrow, rhs = equation.partition("->")
    labels: list[list[int]] = [[] for _ in range(count)]
    current, i = 0, 0
    while i < len(lhs):
        char = lhs[i]
        if char == " ":
            pass
        elif char == ".":
            if _ELLIPSIS in labels[current]:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an "
                                   "ellipsis was already found")
            if lhs[i : i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not part "
                                   "of any ellipsis")
            labels[current].append(_ELLIPSIS)
            i += 2
        elif char == ",":
            current += 1
            if current >= count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
        elif char.isascii() and char.isalpha():
            labels[current].append(ord(char))
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation "
                               "string, subscripts must be in [a-zA-Z]")
        i += 1
    if current != count - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels, (rhs if arrow else None)


def _label_order(label: int) -> int:
    # PyTorch numbers labels A-Z then a-z.
    char = chr(label)
    return ord(char) - ord("A") if char.isupper() else 26 + ord(char) - ord("a")


def einsum(*args: Any) -> Any:
    """Einstein summation: ``"ij,jk->ik"``, ``"ii->"``, ``"bij,bjk->bik"``, ``"i,j->ij"``, ...

    Matrix products, traces, batched products, outer products; ``...`` stands for broadcast
    dims. Also in sublist form: ``einsum(a, [0, 1], b, [1, 2])`` (numbers 0-51 for subscripts,
    ``...`` as ``Ellipsis``), with an optional output sublist at the end.

    Recorded as PyTorch records it: per operand diagonals, unsqueezes and a permute to a common
    order of subscripts; then, left to right, a mul or a bmm per pair (sumproduct_pair); then a
    sum or view to drop the contracted subscripts.

    Example:
        >>> import minigrad
        >>> minigrad.einsum("ii->", minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(5.)
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], TensorBase):
        equation, operands = _sublist_equation(args)
    else:
        equation, operands = args[0], args[1:]
    if not isinstance(equation, str):
        raise TypeError(
            "einsum(): argument 'equation' (position 1) must be str, not "
            f"{errors.python_type_name(equation)}"
        )
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    _arguments.check_tensor_sequence(operands, 1)
    arrays = [operand(x) for x in operands]
    labels, rhs = _einsum_labels(equation, len(operands))

    counts: dict[int, int] = {}
    ellipsis_dims = 0
    for index, (array, subscripts) in enumerate(zip(arrays, labels)):
        named = [s for s in subscripts if s != _ELLIPSIS]
        has_ellipsis = len(named) != len(subscripts)
        for s in named:
            counts[s] = counts.get(s, 0) + 1
        if has_ellipsis:
            ellipsis_dims = max(ellipsis_dims, array.ndim - len(named))
        if (len(named) > array.ndim) if has_ellipsis else (len(named) != array.ndim):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(named)}) does not "
                f"match the number of dimensions ({array.ndim}) for operand {index}"
                + ("" if has_ellipsis else " and no ellipsis was given"))

    # Where each subscript goes in the common order: output subscripts first, then contracted.
    position: dict[int, int] = {}
    ellipsis_at, next_position = 0, 0
    ellipsis_in_output = False
    if rhs is None:
        next_position = ellipsis_dims
        ellipsis_in_output = True
        for label in sorted((s for s, c in counts.items() if c == 1), key=_label_order):
            position[label] = next_position
            next_position += 1
    else:
        i = 0
        while i < len(rhs):
            char = rhs[i]
            if char == " ":
                pass
            elif char == ".":
                if ellipsis_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                       "already found")
                if rhs[i : i + 3] != "...":
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                ellipsis_at, ellipsis_in_output = next_position, True
                next_position += ellipsis_dims
                i += 2
            elif char.isascii() and char.isalpha():
                label = ord(char)
                if label in position or label not in counts:
                    where = ("appears more than once in the output" if label in position
                             else "does not appear in the equation for any input operand")
                    raise RuntimeError(f"einsum(): output subscript {char} {where}")
                position[label] = next_position
                next_position += 1
            else:
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {len(equation) - len(rhs) + i} "
                    "in the equation string, subscripts must be in [a-zA-Z]")
            i += 1
    output_dims = next_position
    if not ellipsis_in_output:
        ellipsis_at = next_position
        next_position += ellipsis_dims
    for label in sorted(counts, key=_label_order):
        if label not in position:
            position[label] = next_position
            next_position += 1
    total_dims = next_position

    # Align every operand to the common order (diagonals for repeated subscripts).
    sizes: dict[int, int] = {}
    ellipsis_sizes = [1] * ellipsis_dims
    nontrivial = [0] * total_dims  # how many operands have a size != 1 there
    aligned = []
    for index, (x, subscripts) in enumerate(zip(operands, labels)):
        permutation = [-1] * total_dims
        dim = 0
        for s in subscripts:
            shape = operand(x).shape
            if s == _ELLIPSIS:
                covered = operand(x).ndim - (len(subscripts) - 1)
                for j in range(ellipsis_dims - covered, ellipsis_dims):
                    if shape[dim] != 1:
                        if ellipsis_sizes[j] not in (1, shape[dim]):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand "
                                f"{index}has size {shape[dim]} which does not broadcast with "
                                f"previously seen ellipsis with size {ellipsis_sizes[j]} for "
                                "the respective dimension")
                        ellipsis_sizes[j] = shape[dim]
                        nontrivial[ellipsis_at + j] += 1
                    permutation[ellipsis_at + j] = dim
                    dim += 1
            elif permutation[position[s]] == -1:
                if shape[dim] != 1:
                    if sizes.get(s, 1) not in (1, shape[dim]):
                        raise RuntimeError(
                            f"einsum(): subscript {chr(s)} has size {shape[dim]} for operand "
                            f"{index} which does not broadcast with previously seen size "
                            f"{sizes[s]}")
                    sizes[s] = shape[dim]
                    nontrivial[position[s]] += 1
                permutation[position[s]] = dim
                dim += 1
            else:
                previous = permutation[position[s]]
                if shape[dim] != shape[previous]:
                    raise RuntimeError(
                        f"einsum(): subscript {chr(s)} is repeated for operand {index} but the "
                        f"sizes don't match, {shape[dim]} != {shape[previous]}")
                x = views.permute(Diagonal.apply(x, previous, dim),
                                  _movedim_order(operand(x).ndim - 1, -1, previous))
        for slot, value in enumerate(permutation):
            if value == -1:
                x = views.unsqueeze(x, dim)
                permutation[slot] = dim
                dim += 1
        aligned.append(views.permute(x, permutation))

    # Contract left to right.
    while len(aligned) > 1:
        a, b = aligned.pop(0), aligned.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for dim in range(output_dims, total_dims):
            a_big, b_big = operand(a).shape[dim] != 1, operand(b).shape[dim] != 1
            if a_big and b_big:
                nontrivial[dim] -= 1
                if nontrivial[dim] == 1:
                    sum_dims.append(dim)
                    nontrivial[dim] = 0
            elif nontrivial[dim] == 1:
                if a_big:
                    a_sums.append(dim)
                    nontrivial[dim] = 0
                elif b_big:
                    b_sums.append(dim)
                    nontrivial[dim] = 0
        if a_sums:
            a = reduction.sum(a, a_sums, True)
        if b_sums:
            b = reduction.sum(b, b_sums, True)
        aligned.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = aligned[0]
    if total_dims > output_dims:
        if len(operands) > 1:
            return views.view(result, operand(result).shape[:output_dims])
        return reduction.sum(result, list(range(output_dims, total_dims)))
    return result


def _sublist_equation(args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
    """The equation and operands of einsum's sublist form (PyTorch's conversion)."""

    def subscript(n: Any) -> str:
        if n is Ellipsis:
            return "..."
        if 0 <= n < 26:
            return chr(ord("A") + n)
        if 26 <= n < 52:
            return chr(ord("a") + n - 26)
        raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                         "[0, 52)")

    equation = ",".join("".join(subscript(s) for s in sublist) for sublist in args[1::2])
    if len(args) % 2 == 1:
        return equation + "->" + "".join(subscript(s) for s in args[-1]), args[:-1:2]
    return equation, args[::2]


def _movedim_order(ndim: int, source: int, destination: int) -> list[int]:
    """The permutation ``movedim(source, destination)`` applies (for a single dim)."""
    source %= ndim
    order = [d for d in range(ndim) if d != source]
    order.insert(destination, source)
    return order


def _sumproduct_pair(left: Any, right: Any, sum_dims: list[int]) -> Any:
    """Multiply two aligned operands and sum over ``sum_dims`` (kept as size 1), with one bmm.

    PyTorch's sumproduct_pair: dims in both (batch), only left, summed, only right; permute,
    reshape to (batch, left, summed) @ (batch, summed, right), bmm, view, permute back.
    """
    if not sum_dims:
        return arithmetic.mul(left, right)
    shape_l, shape_r = operand(left).shape, operand(right).shape
    ndim = len(shape_l)
    both, only_left, only_right = [], [], []
    summed_size = 1
    for i in range(ndim):
        big_l, big_r = shape_l[i] != 1, shape_r[i] != 1
        if i in sum_dims:
            if big_l and big_r:
                if shape_l[i] != shape_r[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                summed_size *= shape_l[i]
            elif big_l:
                left = reduction.sum(left, i, True)
            elif big_r:
                right = reduction.sum(right, i, True)
        elif big_l and big_r:
            if shape_l[i] != shape_r[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            both.append(i)
        elif big_l:
            only_left.append(i)
        else:
            only_right.append(i)
    shape_l, shape_r = operand(left).shape, operand(right).shape
    both_size = math.prod(shape_l[i] for i in both)
    left_size = math.prod(shape_l[i] for i in only_left)
    right_size = math.prod(shape_r[i] for i in only_right)
    out_size = ([shape_l[i] for i in both] + [shape_l[i] for i in only_left]
                + [1] * len(sum_dims) + [shape_r[i] for i in only_right])
    left_order = both + only_left + sum_dims + only_right
    right_order = both + sum_dims + only_right + only_left
    inverse = [0] * len(out_size)
    for i, d in enumerate(both + only_left + sum_dims + only_right):
        inverse[d] = i
    left = views.reshape(views.permute(left, left_order), (both_size, left_size, summed_size))
    right = views.reshape(views.permute(right, right_order),
                          (both_size, summed_size, right_size))
    result = views.view(bmm(left, right), tuple(out_size))
    return views.permute(result, inverse)


# --- norms ------------------------------------------------------------------------------------


def _ord_text(value: float) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _check_float(array: np.ndarray, name: str) -> None:
    if array.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{display_name(array.dtype)}")


def vector_norm(x: Any, ord: float = 2, dim: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Any:
    """The vector ``ord``-norm of ``x`` over ``dim`` (all elements if None).

    ``(sum |x|**ord)**(1/ord)``; ``inf``: max |x|; ``-inf``: min |x|; 0: the count of nonzeros.

    Example:
        >>> import minigrad
        >>> minigrad.linalg.vector_norm(minigrad.tensor([3.0, 4.0]))
        tensor(5.)
    """
    array = operand(x)
    _check_float(array, "linalg.vector_norm")
    if dtype is not None:
        from minigrad._dtype import to_numpy_dtype
        from minigrad.ops._helpers import cast

        x = cast(x, to_numpy_dtype(dtype, "linalg.vector_norm"))
        array = operand(x)
    ord = float(ord)
    axes = reduction.reduced_dims(dim, array.ndim)
    if array.size == 0 and (ord < 0 or ord == math.inf):
        if dim is None:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on "
                               "an empty tensor because the operation does not have an identity")
        for axis in axes:
            if array.shape[axis] == 0:
                raise RuntimeError(
                    f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on the "
                    f"dimension {axis}because this dimension is empty and the operation does "
                    "not have an identity")
    return reduction.LinalgVectorNorm.apply(x, ord, axes, keepdim)


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
    array = operand(a)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        if abs(ord) not in (1, 2, math.inf):
            raise RuntimeError(f"linalg.matrix_norm: Order {_ord_text(ord)} not supported.")
    if array.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    _check_float(array, "linalg.matrix_norm")
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dims)}")
    dim1, dim2 = (wrap_dim(d, array.ndim) for d in dims)
    if dim1 == dim2:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim1}, {dim2})")
    if ord == "fro":
        return vector_norm(a, 2, (dim1, dim2), keepdim, dtype=dtype)
    if ord == "nuc" or abs(ord) == 2:
        if dtype is not None:
            from minigrad._dtype import to_numpy_dtype
            from minigrad.ops._helpers import cast

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
    array = operand(x)
    dims = None if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if dims is not None:
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {dims}")
    elif ord is not None and array.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {array.ndim}D.")
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
    if isinstance(p, str):
        if p == "fro" and (dims is None or len(dims) <= 2):
            return vector_norm(input, 2, dims, keepdim, dtype=dtype)
        if dims is None:
            dims = list(range(operand(input).ndim))
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    return vector_norm(input, 2.0 if p is None else p, dims, keepdim, dtype=dtype)
