"""Linear algebra: products (dot, mv, mm, bmm, addmm, baddbmm) and compositions of them.

matmul, outer and tensordot are built from the products and from views, as PyTorch builds
them (einsum is in ``einsum.py``, the norms in ``norms.py``).

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
from minigrad._dtype import FLOAT_DTYPE_CLASSES, backend_type_name, check_python_int
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.record import sync_views
from minigrad.autograd.saved_attributes import matrix_layout
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, inplace_views, reduction, unary, views
from minigrad.ops._helpers import (
    constant_tensor,
    dim_size,
    is_tensor,
    normalize_dims,
    operand,
    run,
    wrap_dim,
)
from minigrad.ops.opmath import FLOAT16, in_float32

# numpy's module defines ``__getattr__``, so CPython 3.11 does not specialise ``np.ndarray``
# read in a function: a module lookup each time (~250 instructions); a global of ours is one.
_ndarray = np.ndarray


class Dot(Op):
    """z = sum(x * y) for vectors;  dx = grad * y,  dy = grad * x.

    Saves each operand only if the other one needs a gradient (PyTorch).
    """

    saves = ("self", "tensor")
    num_inputs = 2

    saves_for_the_other = True  # each operand if the other needs a gradient: recording saves

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
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

    The outer product in PyTorch's steps (``grad.reshape(n, 1) * v``: MulBackward0 under
    create_graph); numpy's ``outer`` is the same product.

    Saves each operand only if the other one needs a gradient (PyTorch).
    """

    saves = ("self", "vec")
    num_inputs = 2

    saves_for_the_other = True  # each operand if the other needs a gradient: recording saves

    @staticmethod
    def forward(ctx: Any, m: np.ndarray, v: np.ndarray) -> np.ndarray:
        return m @ v

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        m, v = ctx.saved_tensors
        return (
            np.reshape(grad, (-1, 1)) * v if ctx.needs_input_grad[0] else None,
            m.T @ grad if ctx.needs_input_grad[1] else None,
        )


def _product(a: Any, b: Any) -> Any:
    """``a @ b`` for two matrices; ``ndarray.dot`` on arrays.

    For 2-D arrays ``np.dot`` is the same product (same BLAS call, same result layout) without
    the matmul ufunc's dispatch: about 0.25 µs less on 8x8. The method ``a.dot(b)`` is the
    same C function as ``np.dot(a, b)`` without its ``__array_function__`` dispatch: about 0.2
    µs less again. On tensors (backward under create_graph) it is ``@``, recorded.

    Except when an operand has one element: ``dot`` then scales the other by it (BLAS's
    axpy), which makes ``0 * inf`` 0, where PyTorch's product (and matmul) gives nan.
    """
    if type(a) is _ndarray and type(b) is _ndarray:
        if a.size == 1 or b.size == 1:
            return np.matmul(a, b)
        return a.dot(b)
    return a @ b


class Mm(Op):
    """z = x @ y for matrices;  dx = grad @ y.T,  dy = x.T @ grad.

    Like Mul, saves each operand only if the other one needs a gradient.
    """

    fields = ("layouts",)
    saves = ("self", "mat2")
    saved_options = {"self_sym_sizes": matrix_layout(0, 0, 0),
                     "self_sym_strides": matrix_layout(0, 1, 0),
                     "mat2_sym_sizes": matrix_layout(1, 0, 1),
                     "mat2_sym_strides": matrix_layout(1, 1, 1)}
    num_inputs = 2
    unpack_order = (1, 0)  # PyTorch checks `mat2` before `self` (names' order)
    saved_as_arguments = True  # backward(ctx, grad, x, y): the runner hands them over (Op)
    saves_for_the_other = True  # each operand if the other needs a gradient: recording saves
    # Forward's work without its notes: the no-grad path calls it in numpy's quiet context,
    # without forward's frame and the error state set and reset around it.
    no_grad_kernel = staticmethod(_product)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # the no-grad ctx drops notes: skip making them
            ctx.layouts = x.shape, x.strides, y.shape, y.strides, x.itemsize
        if x.size == 1 or y.size == 1:  # (``_product``'s array case, inline)
            return np.matmul(x, y)
        return x.dot(y)

    @staticmethod
    def backward(ctx: Any, grad: Any, x: Any, y: Any) -> tuple[Any, Any]:
        needs = ctx.needs_input_grad
        if type(grad) is not _ndarray:  # create_graph: PyTorch's formulas, node for node
            x_layout, y_layout = _layouts(ctx.layouts)
            return (
                mm_mat1_backward(grad, y, x_layout) if needs[0] else None,
                mm_mat2_backward(grad, x, y_layout) if needs[1] else None,
            )
        return (
            _product(grad, y.T) if needs[0] else None,
            _product(x.T, grad) if needs[1] else None,
        )


def _layouts(layouts: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A product node's ``layouts`` as each matrix's (shape, strides, itemsize)."""
    shape1, strides1, shape2, strides2, itemsize = layouts
    return (shape1, strides1, itemsize), (shape2, strides2, itemsize)


def _column_major(layout: tuple[Any, ...]) -> bool:
    """PyTorch's test in mm's backward: a matrix laid out column by column.

    ``layout``: its (shape, strides in bytes, itemsize).
    """
    shape, strides, itemsize = layout
    return strides[0] == itemsize and strides[1] == shape[0] * itemsize


def mm_mat1_backward(grad: Any, mat2: Any, mat1_layout: tuple[Any, ...]) -> Any:
    """PyTorch's ``mm_mat1_backward`` on tensors (backward under create_graph), node for node.

    ``grad.mm(mat2.t())``, or ``mat2.mm(grad.t()).t()`` if mat1 was column-major.
    """
    if _column_major(mat1_layout):
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


def mm_mat2_backward(grad: Any, mat1: Any, mat2_layout: tuple[Any, ...]) -> Any:
    """PyTorch's ``mm_mat2_backward`` on tensors, node for node.

    ``mat1.t().mm(grad)``, or ``grad.t().mm(mat1).t()`` if mat2 was column-major.
    """
    if _column_major(mat2_layout):
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)


class Bmm(Op):
    """z[b] = x[b] @ y[b] for batches of matrices;  dx = grad @ y^T,  dy = x^T @ grad.

    Saves each operand only if the other one needs a gradient.
    """

    saves = ("self", "mat2")
    num_inputs = 2

    saves_for_the_other = True  # each operand if the other needs a gradient: recording saves

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
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
    mat1 does; never ``input``. With beta == 0 the input's values are ignored (nan too), and
    with alpha == 0 the matrices' (PyTorch's gemm does not read them, but for float16; its
    baddbmm does).
    """

    # mat2_transposed: whether mat2 is a transposed matrix (F.linear's ``weight.t()``); its
    # gradient is laid out the same way (PyTorch's ``mm_mat2_backward`` keeps mat2's strides).
    fields = ("beta", "alpha", "mat2_transposed", "layouts")
    saves = ("mat1", "mat2")
    saved_options = {"alpha": "alpha", "beta": "beta",
                     "mat1_sym_sizes": matrix_layout(0, 0, 1),
                     "mat1_sym_strides": matrix_layout(0, 1, 1),
                     "mat2_sym_sizes": matrix_layout(1, 0, 2),
                     "mat2_sym_strides": matrix_layout(1, 1, 2)}

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, input: Any, mat1: np.ndarray, mat2: np.ndarray, beta: Any,
                alpha: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:  # (notes for backward: nothing to keep without a node)
            needs = ctx.needs_input_grad
            ctx.save_for_backward(mat1 if needs[2] else None, mat2 if needs[1] else None)
            ctx.beta, ctx.alpha = beta, alpha
            ctx.mat2_transposed = mat2.flags.f_contiguous and not mat2.flags.c_contiguous
            ctx.layouts = mat1.shape, mat1.strides, mat2.shape, mat2.strides, mat1.itemsize
        if mat1.dtype is FLOAT16:  # PyTorch's float16 gemm: the sum and beta * input in
            # float32, rounded once (numpy would round the product, then the sum)
            return addmm_half(mat1, mat2, input, beta, alpha)
        return _addmm_values(mat1, mat2, input, beta, alpha)

    saved_as_arguments = True  # backward(ctx, grad, mat1, mat2): the runner hands them over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, mat1: Any, mat2: Any) -> tuple[Any, ...]:
        needs = ctx.needs_input_grad
        if type(grad) is not np.ndarray:  # create_graph: PyTorch's formulas, node for node
            mat1_layout, mat2_layout = _layouts(ctx.layouts)
            dmat1 = mm_mat1_backward(grad, mat2, mat1_layout) if needs[1] else None
            dmat2 = mm_mat2_backward(grad, mat1, mat2_layout) if needs[2] else None
        else:
            dmat1 = _product(grad, mat2.T) if needs[1] else None
            dmat2 = _mat2_grad(mat1, grad, ctx.mat2_transposed) if needs[2] else None
        return (
            maybe_multiply(grad, ctx.beta) if needs[0] else None,
            None if dmat1 is None else maybe_multiply(dmat1, ctx.alpha),
            None if dmat2 is None else maybe_multiply(dmat2, ctx.alpha),
            None,
            None,
        )


def _mat2_grad(mat1: Any, grad: Any, transposed: bool) -> Any:
    """``mat1.T @ grad`` on arrays, laid out like mat2 was (PyTorch's ``mm_mat2_backward``).

    ``F.linear`` passes ``weight.t()``: computed as ``(grad.T @ mat1).T``, the gradient is
    transposed like it, so the weight's own gradient comes out C-contiguous, as the weight is
    (and the optimizer's update reads both in the same order).
    """
    if transposed:
        return _product(grad.T, mat1).T
    return _product(mat1.T, grad)


class Baddbmm(Op):
    """z = beta * input + alpha * bmm(batch1, batch2), input broadcast to the product's shape.

    dinput = beta * grad;  dbatch1 = alpha * grad @ batch2^T;  dbatch2 = alpha * batch1^T @
    grad.  Saves each batch only if the other needs a gradient.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("beta", "alpha")
    saves = ("batch1", "batch2")
    saved_options = ("alpha", "beta")

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, input: Any, batch1: np.ndarray, batch2: np.ndarray, beta: Any,
                alpha: Any) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(batch1 if needs[2] else None, batch2 if needs[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        if batch1.dtype is FLOAT16:  # PyTorch's float16 kernel: the sum, beta * input and
            # alpha * product in float32, rounded once (numpy would round each step)
            return in_float32(_baddbmm_values, batch1, batch2, input, beta, alpha)
        return _baddbmm_values(batch1, batch2, input, beta, alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        batch1, batch2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        alpha = ctx.alpha
        return (
            maybe_multiply(grad, ctx.beta) if needs[0] else None,
            maybe_multiply(run(Bmm, grad, np.swapaxes(batch2, 1, 2)), alpha) if needs[1] else None,
            maybe_multiply(run(Bmm, np.swapaxes(batch1, 1, 2), grad), alpha) if needs[2] else None,
            None,
            None,
        )


def maybe_multiply(x: Any, factor: Any) -> Any:
    """PyTorch's ``maybe_multiply``: ``x * factor``, nothing for the usual factor 1.

    C++'s ``tensor * scalar``: under create_graph it records MulBackward1 (MulScalar).
    """
    return x if factor == 1 else run(arithmetic.MulScalar, x, factor)


def _addmm_values(mat1: np.ndarray, mat2: np.ndarray, input: Any, beta: Any,
                  alpha: Any) -> np.ndarray:
    """``beta * input + alpha * (mat1 @ mat2)``: Addmm's result (matrices unread if alpha 0)."""
    if alpha == 0:
        product = np.zeros((mat1.shape[0], mat2.shape[1]), np.result_type(mat1, mat2))
    else:
        product = mat1 @ mat2
    return _scaled_sum(input, product, beta, alpha)


def _baddbmm_values(batch1: np.ndarray, batch2: np.ndarray, input: Any, beta: Any,
                    alpha: Any) -> np.ndarray:
    """``beta * input + alpha * bmm(batch1, batch2)``: Baddbmm's result."""
    return _scaled_sum(input, np.matmul(batch1, batch2), beta, alpha)


def addmm_half(mat1: np.ndarray, mat2: np.ndarray, input: Any, beta: Any,
               alpha: Any) -> np.ndarray:
    """Addmm's float16 result: PyTorch's gemm sums and scales in float32 and rounds once.

    Its float16 gemm reads the matrices even for alpha 0 (``0 * nan`` is nan, ``0 * -1`` is
    -0.0), unlike its float32 one.
    """
    return in_float32(_baddbmm_values, mat1, mat2, input, beta, alpha)


def _scaled_sum(input: Any, product: np.ndarray, beta: Any, alpha: Any) -> np.ndarray:
    """``beta * input + alpha * product`` (``input`` unread for beta 0, nan too)."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return np.array(np.broadcast_to(product, product.shape), copy=True)
    if beta == 1 and type(input) is np.ndarray and input.dtype == product.dtype:
        product += input  # in place: the product is a fresh array of the result's shape
        return product
    return product + (input if beta == 1 else beta * input)


def squeeze_row(product: Any) -> Any:
    """``product.squeeze_(0)`` of matmul's one-row product (a vector times a matrix).

    PyTorch squeezes the temporary in place, so the result is at version 1 (with or without
    grad); a batched product's squeeze is hidden behind an unsafe view (a new counter).
    """
    return inplace_views.squeeze_(product, 0)


# --- the primitive products: argument checks with PyTorch's messages --------------------------

def check_not_bool(*arrays: np.ndarray, kernel: str = "addmm_impl_cpu_") -> None:
    """PyTorch's CPU product kernels have no bool version: ``NotImplementedError`` names it."""
    for array in arrays:
        if array.dtype == np.bool_:
            raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))


def fits_mm(x: TensorBase, y: TensorBase) -> bool:
    """Whether ``mm``'s checks all pass for tensors ``x`` and ``y`` (then it records at once).

    Two float matrices of one dtype whose inner sizes agree (``mm``, ``Tensor.__matmul__``).

    Read on the shapes and dtypes kept on the tensors (from the buffers the first time:
    ``TensorBase._shape``): a slot read each, where the buffers' ``ndim``, ``shape``, ``dtype``
    and ``kind`` cost a numpy attribute lookup each, and ``shape`` a new tuple (~1,300 of a
    no-grad 8x8 product's ~17,600 instructions).
    """
    x_shape = x._shape
    if x_shape is None:
        x_shape = x._shape = x._array.shape
    y_shape = y._shape
    if y_shape is None:
        y_shape = y._shape = y._array.shape
    dtype = x._dtype
    if dtype is None:
        dtype = x._dtype = x._array.dtype
    y_dtype = y._dtype
    if y_dtype is None:
        y_dtype = y._dtype = y._array.dtype
    return (len(x_shape) == 2 and len(y_shape) == 2 and x_shape[1] == y_shape[0]
            and y_dtype is dtype and type(dtype) in FLOAT_DTYPE_CLASSES)


def mm(input: Any, mat2: Any) -> Any:
    """The product of two matrices.

    Example:
        >>> import minigrad
        >>> minigrad.mm(minigrad.ones(2, 3), minigrad.ones(3, 1))
        tensor([[3.],
                [3.]])
    """
    if type(input) is type(mat2) and isinstance(input, TensorBase) and fits_mm(input, mat2):
        return Mm._record(input, mat2)  # every check below passes: straight to recording
    a, b = operand(input), operand(mat2)
    sync_views(input, mat2)
    if a.ndim != 2:
        raise RuntimeError(errors.not_a_matrix("self"))
    if b.ndim != 2:
        raise RuntimeError(errors.not_a_matrix("mat2"))
    check_mm_shapes(a.shape, b.shape)
    if a.dtype != b.dtype:
        raise RuntimeError(errors.m1_m2_dtype_mismatch(a.dtype, b.dtype))
    if a.dtype == np.bool_:
        check_not_bool(a)
    return Mm.apply(input, mat2)


def check_mm_shapes(mat1: tuple[int, ...], mat2: tuple[int, ...]) -> None:
    """PyTorch's error if matrices of shapes ``mat1`` and ``mat2`` cannot be multiplied."""
    if mat1[1] != mat2[0]:
        raise RuntimeError(errors.mm_shapes(mat1, mat2))


def bmm(input: Any, mat2: Any) -> Any:
    """Batched matrix products: ``out[b] = input[b] @ mat2[b]`` for 3-D tensors.

    Example:
        >>> import minigrad
        >>> minigrad.bmm(minigrad.ones(2, 1, 3), minigrad.ones(2, 3, 1)).shape
        minigrad.Size([2, 1, 1])
    """
    a, b = operand(input), operand(mat2)
    if a.ndim != 3:
        raise RuntimeError(errors.not_3d("batch1"))
    if b.ndim != 3:
        raise RuntimeError(errors.not_3d("batch2"))
    _check_bmm_shapes(a, b)
    # The kernel is chosen by the first operand's dtype: a bool one has none, before any mix.
    check_not_bool(a, kernel="bmm")
    if a.dtype != b.dtype:
        raise RuntimeError(errors.expected_scalar_type(a.dtype, b.dtype))
    return Bmm.apply(input, mat2)


def _check_bmm_shapes(a: np.ndarray, b: np.ndarray) -> None:
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(errors.bmm_shapes(a.shape, b.shape))


def mv(input: Any, vec: Any) -> Any:
    """The product of a matrix and a vector.

    Example:
        >>> import minigrad
        >>> minigrad.mv(minigrad.ones(2, 3), minigrad.ones(3))
        tensor([3., 3.])
    """
    a, v = operand(input), operand(vec)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(errors.mv_dims(a.ndim, v.ndim))
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(errors.mv_size_mismatch(a.shape, v.shape))
    if a.dtype != v.dtype:
        raise RuntimeError(errors.addmv_dtypes(v.dtype, a.dtype, v.dtype))
    check_not_bool(a, kernel="addmv_impl_cpu")
    return Mv.apply(input, vec)


def dot(input: Any, tensor: Any) -> Any:
    """The dot product of two vectors (PyTorch names the second one ``tensor``).

    Example:
        >>> import minigrad
        >>> minigrad.dot(minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0]))
        tensor(11.)
    """
    _arguments.check_tensor(tensor, "dot", "tensor", 2)
    check_vectors(operand(input), operand(tensor))
    return Dot.apply(input, tensor)


def check_vectors(a: np.ndarray, b: np.ndarray) -> None:
    """PyTorch's checks of ``dot``'s (and ``vdot``'s) operands: vectors of one size and dtype."""
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(errors.dot_dims(a.ndim, b.ndim))
    if a.dtype != b.dtype:
        raise RuntimeError(errors.dot_dtypes(a.dtype, b.dtype))
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(errors.dot_sizes(a.shape[0], b.shape[0]))
    check_not_bool(a, kernel="dot")


def expand_error(input: np.ndarray, shape: tuple[int, ...]) -> RuntimeError | None:
    """PyTorch's error for ``input.expand(shape)``, or None if it is fine."""
    if input.ndim > len(shape):
        return RuntimeError(errors.expand_too_few_sizes(backend_type_name(input.dtype), input.shape,
                                                       shape))
    lead = len(shape) - input.ndim
    for i in reversed(range(input.ndim)):  # (from the last, as PyTorch's inferExpandGeometry)
        n = input.shape[i]
        if n != 1 and n != shape[lead + i]:
            return RuntimeError(
                errors.expand_size_mismatch(shape[lead + i], n, lead + i, shape, input.shape))
    return None


def check_addmm_dtypes(input: Any, mat1: np.ndarray, mat2: np.ndarray) -> None:
    """The dtype checks addmm makes first (in its meta function), before any of shape.

    ``input``'s dtype, then ``mat1``'s, must be ``mat2``'s.
    """
    if isinstance(input, np.ndarray) and input.dtype != mat2.dtype:
        raise RuntimeError(errors.operands_dtype_mismatch("self", "mat2", input.dtype, mat2.dtype))
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(errors.operands_dtype_mismatch("mat1", "mat2", mat1.dtype, mat2.dtype))


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * (mat1 @ mat2)``, ``input`` broadcast to the product's shape.

    Example:
        >>> import minigrad
        >>> minigrad.addmm(minigrad.ones(2), minigrad.ones(1, 3), minigrad.ones(3, 2))
        tensor([[4., 4.]])
    """
    sync_views(input, mat1, mat2)
    beta, alpha = _checked_addmm(input, mat1, mat2, beta, alpha)
    return Addmm.apply(input, mat1, mat2, beta, alpha)


def addmm_(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``input = beta * input + alpha * (mat1 @ mat2)``, in place (shapes must match)."""
    sync_views(input, mat1, mat2)
    beta, alpha = _checked_addmm(input, mat1, mat2, beta, alpha, inplace=True)
    return apply_inplace(Addmm, input, mat1, mat2, beta, alpha)


def _check_inplace_shape(input: Any, shape: tuple[int, ...]) -> None:
    """PyTorch's refusal of an in-place product whose result would not fit ``input``."""
    if tuple(input.shape) != shape:
        raise RuntimeError(
            f"Bad in-place call: input tensor size {list(input.shape)} and output tensor size "
            f"{list(shape)} should match")


def _checked_addmm(
    input: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any, inplace: bool = False
) -> tuple[Any, Any]:
    """The checks of addmm, in PyTorch's order; ``beta`` and ``alpha`` as its kernel takes them.

    ``inplace`` (addmm_): ``input`` must have the product's shape, checked where addmm checks
    that it expands to it (PyTorch's meta function refuses the output before any expand).
    """
    bias, a, b = operand(input), operand(mat1), operand(mat2)
    check_addmm_dtypes(bias, a, b)
    for name, array in (("mat1", a), ("mat2", b)):
        if array.ndim != 2:
            raise RuntimeError(errors.not_a_matrix(name, array.ndim))
    check_mm_shapes(a.shape, b.shape)
    if inplace:
        _check_inplace_shape(input, (a.shape[0], b.shape[1]))
    elif isinstance(bias, np.ndarray):
        error = expand_error(bias, (a.shape[0], b.shape[1]))
        if error is not None:
            raise error
    check_not_bool(a)
    return _scalars_for(a, beta, alpha)


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * bmm(batch1, batch2)``, ``input`` broadcast to the product.

    Example:
        >>> import minigrad
        >>> minigrad.baddbmm(minigrad.zeros(1), minigrad.ones(2, 1, 3), minigrad.ones(2, 3, 1))
        tensor([[[3.]],
        <BLANKLINE>
                [[3.]]])
    """
    beta, alpha = _checked_baddbmm(input, batch1, batch2, beta, alpha)
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


def baddbmm_(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``input = beta * input + alpha * bmm(batch1, batch2)``, in place (shapes must match)."""
    beta, alpha = _checked_baddbmm(input, batch1, batch2, beta, alpha)
    a, b = operand(batch1), operand(batch2)
    _check_inplace_shape(input, (a.shape[0], a.shape[1], b.shape[2]))
    return apply_inplace(Baddbmm, input, batch1, batch2, beta, alpha)


def _checked_baddbmm(
    input: Any, batch1: Any, batch2: Any, beta: Any, alpha: Any
) -> tuple[Any, Any]:
    """The checks of baddbmm, in PyTorch's order; ``beta``, ``alpha`` as its kernel takes them."""
    bias, a, b = operand(input), operand(batch1), operand(batch2)
    # PyTorch's order: its meta function expands input to the result's shape (read off the
    # batches' sizes) and compares input's dtype with batch1's, then checks the batches' ranks
    # and shapes; its kernel has none for bool, and reads batch2 as batch1's dtype.
    if isinstance(bias, np.ndarray):
        error = expand_error(bias, (dim_size(a.shape, 0), dim_size(a.shape, 1),
                                    dim_size(b.shape, 2)))
        if error is not None:
            raise error
        if bias.dtype != a.dtype:
            raise RuntimeError(errors.baddbmm_dtypes(bias.dtype, a.dtype, b.dtype))
    if a.ndim != 3:
        raise RuntimeError(errors.not_3d("batch1"))
    if b.ndim != 3:
        raise RuntimeError(errors.not_3d("batch2"))
    _check_bmm_shapes(a, b)
    check_not_bool(a, kernel="baddbmm")
    if a.dtype != b.dtype:
        raise RuntimeError(errors.expected_scalar_type(a.dtype, b.dtype))
    return _scalars_for(a, beta, alpha)


def _scalars_for(array: np.ndarray, beta: Any, alpha: Any) -> tuple[Any, Any]:
    # (an int past int64 and uint64: the parser's OverflowError, alpha's first: the parser
    # unpacks a call's arguments last first)
    for scalar in (alpha, beta):
        if type(scalar) is int and (scalar > 0x3FFFFFFF or scalar < -0x3FFFFFFF):
            check_python_int(scalar)
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
        raise TypeError(errors.wrong_argument_type(
            "matmul", "other", "Tensor", errors.python_type_name(other), 2
        ))
    a, b = operand(input), operand(other)
    dim1, dim2 = a.ndim, b.ndim
    if dim1 == 0 or dim2 == 0:
        raise RuntimeError(errors.at_least_1d("matmul", dim1, dim2))
    if dim1 == 2 and dim2 == 2:  # the common case first
        return mm(input, other)
    if dim1 == 1 and dim2 == 1:
        return dot(input, other)
    if dim1 == 2 and dim2 == 1:
        return mv(input, other)
    if dim1 == 1 and dim2 == 2:
        return squeeze_row(mm(views.unsqueeze(input, 0), other))
    if dim1 == 3 and dim2 == 3:
        # PyTorch 2.13: a batch of one matrix that requires grad, times a real batch, is
        # squeezed to a matrix, so that the product folds into one mm.
        if a.shape[0] == 1 and b.shape[0] != 1 and _requires_grad(input):
            return matmul(views.squeeze(input, 0), other)
        if b.shape[0] == 1 and a.shape[0] != 1 and _requires_grad(other):
            return matmul(input, views.squeeze(other, 0))
    if not (is_tensor(input) or is_tensor(other)):  # arrays (a backward's formula): the values
        return np.matmul(a, b)
    if not (is_tensor(input) and is_tensor(other)):  # a saved array beside a tensor (create_graph)
        input, other = (v if is_tensor(v) else constant_tensor(v) for v in (input, other))
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
        inplace_views.squeeze_(product, 2)
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
            raise RuntimeError(errors.outer_not_1d(name, array.ndim))
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
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(errors.tensordot_negative_dims(dims))
        # (PyTorch's tensordot is Python: ``min(a.dim(), b.dim())`` fails on a non-tensor)
        _arguments.check_has_attribute(a, "dim")
        _arguments.check_has_attribute(b, "dim")
        if dims > min(operand(a).ndim, operand(b).ndim):
            raise RuntimeError(errors.tensordot_too_many_dims(dims))
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    elif isinstance(dims, (tuple, list)) and len(dims) == 2:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    else:
        raise RuntimeError(errors.tensordot_dims_type(dims))
    _arguments.check_tensor(a, "tensordot", "input", 1)  # (then the parser's checks)
    _arguments.check_tensor(b, "tensordot", "other", 2)
    # (then the parser unpacks the two dim lists PyTorch's Python passes on, the last first)
    _arguments.check_int64_items(dims_b, "tensordot", "dims_other")
    _arguments.check_int64_items(dims_a, "tensordot", "dims_self")
    array_a, array_b = operand(a), operand(b)
    if len(dims_a) != len(dims_b):
        raise RuntimeError(errors.TENSORDOT_DIM_LISTS_LENGTH)
    if array_a.dtype != array_b.dtype:
        raise RuntimeError(errors.TENSORDOT_DTYPES)
    axes_a = [wrap_dim(d, array_a.ndim) for d in dims_a]
    axes_b = [wrap_dim(d, array_b.ndim) for d in dims_b]
    contracted = 1
    for d_a, d_b, given_a, given_b in zip(axes_a, axes_b, dims_a, dims_b):
        size_a, size_b = array_a.shape[d_a], array_b.shape[d_b]
        # (the dims as given, in these nodes as in PyTorch's)
        if size_b == 1:
            a = reduction.sum(a, given_a, True)
        elif size_a == 1:
            b = reduction.sum(b, given_b, True)
        elif size_a != size_b:
            raise RuntimeError(
                errors.tensordot_size_mismatch(size_a, given_a, size_b, given_b))
        else:
            contracted *= size_a
    normalize_dims(axes_a, array_a.ndim)  # repeated dims raise as in PyTorch
    normalize_dims(axes_b, array_b.ndim)
    shape_a, shape_b = operand(a).shape, operand(b).shape
    kept_a = [i for i in range(array_a.ndim) if i not in axes_a]
    kept_b = [i for i in range(array_b.ndim) if i not in axes_b]
    rows = math.prod(shape_a[i] for i in kept_a)
    columns = math.prod(shape_b[i] for i in kept_b)
    left = views.reshape(views.permute(a, (*kept_a, *dims_a)), (rows, contracted))
    right = views.reshape(views.permute(b, (*dims_b, *kept_b)), (contracted, columns))
    result_shape = tuple(shape_a[i] for i in kept_a) + tuple(shape_b[i] for i in kept_b)
    return views.reshape(mm(left, right), result_shape)
