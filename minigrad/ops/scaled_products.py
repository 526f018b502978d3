"""``beta * input + alpha * product``: addmv, addr and addbmm (addmm and baddbmm: ``linalg.py``).

Each is one op with PyTorch's node (``AddmvBackward0``, ``AddrBackward0``, ``AddbmmBackward0``)
and saves each factor only if the other factor needs a gradient, never ``input``. ``beta == 0``
ignores ``input``'s values (nan too). ``alpha == 0`` ignores the factors' values in addmv and
addbmm (PyTorch's gemv and gemm do not read them; its float16 ones do), not in addr, which
PyTorch computes elementwise (``0 * nan`` is nan). For integer tensors ``beta`` and ``alpha``
are truncated to integers (addmv, addbmm) or refused if they are floats (addr).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, checked_value, display_name, result_type
from minigrad._layout import format_strides
from minigrad._memory_formats import contiguous_format
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace, apply_resizing, apply_resizing_view
from minigrad.autograd.overlap import copied_in_kernel_order, partially_overlap
from minigrad.autograd.saved_attributes import part
from minigrad.ops._helpers import dim_size, operand, run
from minigrad.ops.linalg import (
    Bmm,
    _check_inplace_shape,
    _scalars_for,
    _scaled_sum,
    addmm_half,
    check_addmm_dtypes,
    check_not_bool,
    expand_error,
    maybe_multiply,
)
from minigrad.ops.opmath import FLOAT16, FLOAT32
from minigrad.ops.resizing import in_memory
from minigrad.ops.strides import element_strides, expand_strides


def _save_factors(ctx: Any, first: np.ndarray, second: np.ndarray, beta: Any, alpha: Any) -> None:
    """Each factor if the other needs a gradient (PyTorch's conditional saving), and the scalars."""
    if ctx is not NO_GRAD_CTX:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(first if needs[2] else None, second if needs[1] else None)
        ctx.beta, ctx.alpha = beta, alpha


# --- addmv ------------------------------------------------------------------------------------


class Addmv(Op):
    """z = beta * input + alpha * (mat @ vec), input broadcast to the product's length.

    dinput = beta * grad;  dmat = alpha * outer(grad, vec);  dvec = alpha * mat^T @ grad.
    Saves mat only if vec needs a gradient and vec only if mat does.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("beta", "alpha")
    saves = ("mat", "vec")
    saved_options = ("alpha", "beta")
    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, input: Any, mat: np.ndarray, vec: np.ndarray, beta: Any, alpha: Any
    ) -> np.ndarray:
        _save_factors(ctx, mat, vec, beta, alpha)
        if mat.dtype is FLOAT16:
            return _addmv_half(input, mat, vec, beta, alpha)
        # (with alpha == 0 gemv does not read the factors: nan in them is ignored)
        product = np.zeros(mat.shape[0], mat.dtype) if alpha == 0 else mat @ vec
        return _scaled_sum(input, product, beta, alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        mat, vec = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            maybe_multiply(grad, ctx.beta) if needs[0] else None,
            maybe_multiply(np.reshape(grad, (-1, 1)) * vec, ctx.alpha) if needs[1] else None,
            maybe_multiply(mat.T @ grad, ctx.alpha) if needs[2] else None,
            None,
            None,
        )


def _addmv_half(input: Any, mat: np.ndarray, vec: np.ndarray, beta: Any,
                alpha: Any) -> np.ndarray:
    """Addmv's float16 result, as PyTorch's float16 gemv computes it.

    ``beta`` and ``alpha`` are float16 (the kernel's ``scalar_t``); ``input`` is scaled by beta
    in float16 first, then ``alpha * (mat @ vec)`` (summed in float32, column after column)
    is added in float32 and the sum rounded once. Unlike float32's gemv it reads the factors
    for alpha 0 too (``0 * nan`` is nan).
    """
    rows = mat.shape[0]
    if mat.shape[1] == 0:
        product = np.zeros(rows, FLOAT32)
    else:  # (even for alpha 0: PyTorch's float16 gemv reads the factors, nan too)
        terms = mat.astype(FLOAT32) * vec.astype(FLOAT32)
        product = np.cumsum(terms, axis=1)[:, -1] * np.float32(np.float16(alpha))
    if beta == 0:
        return product.astype(FLOAT16)
    scaled = np.multiply(input, np.float16(beta), dtype=FLOAT16)  # (rounded: gemv's y *= beta)
    return np.broadcast_to(scaled.astype(FLOAT32) + product, (rows,)).astype(FLOAT16)


def _checked_addmv(input: Any, mat: Any, vec: Any, beta: Any, alpha: Any) -> tuple[Any, Any]:
    """The checks of addmv, in PyTorch's order; ``beta`` and ``alpha`` as its kernel takes them."""
    bias, m, v = operand(input), operand(mat), operand(vec)
    bias_ndim = np.ndim(bias)
    if m.ndim != 2 or v.ndim != 1 or bias_ndim > 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {bias_ndim}, {m.ndim}, {v.ndim}"
        )
    bias_size = np.size(bias)
    if m.shape[1] != v.shape[0] or (m.shape[0] != bias_size and bias_size != 1):
        raise RuntimeError(
            f"size mismatch, got input ({dim_size(np.shape(bias), 0)}), "
            f"mat ({m.shape[0]}x{m.shape[1]}), vec ({v.shape[0]})"
        )
    dtypes = (np.asarray(bias).dtype, m.dtype, v.dtype)
    if len(set(dtypes)) > 1:
        names = [display_name(d) for d in dtypes]
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{names[0]}, {names[1]}, and {names[2]}"
        )
    check_not_bool(m, kernel="addmv_impl_cpu")
    if m.dtype == FLOAT16:  # (its kernel takes them as float16: a number past it is refused)
        checked_value(beta, m.dtype)
        checked_value(alpha, m.dtype)
    return _scalars_for(m, beta, alpha)


def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * (mat @ vec)``: a matrix-vector product added to a vector.

    Example:
        >>> import minigrad
        >>> minigrad.addmv(minigrad.ones(2), minigrad.ones(2, 3), minigrad.ones(3), alpha=2)
        tensor([7., 7.])
    """
    beta, alpha = _checked_addmv(input, mat, vec, beta, alpha)
    return Addmv.apply(input, mat, vec, beta, alpha)


def addmv_(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``input = beta * input + alpha * (mat @ vec)``, in place (sizes must match)."""
    beta, alpha = _checked_addmv(input, mat, vec, beta, alpha)
    _check_inplace_shape(input, (operand(mat).shape[0],))
    return apply_inplace(Addmv, input, mat, vec, beta, alpha)


# --- addr -------------------------------------------------------------------------------------


class Addr(Op):
    """z = beta * input + alpha * outer(vec1, vec2), input broadcast to the outer product.

    dinput = beta * grad;  dvec1 = alpha * grad @ vec2;  dvec2 = alpha * grad^T @ vec1.
    Saves vec1 only if vec2 needs a gradient and vec2 only if vec1 does. Computed
    elementwise in the three tensors' promoted dtype, as PyTorch's kernel: ``beta * input +
    (alpha * vec1) * vec2``, every step rounded to the dtype (float16 too, alpha and beta
    taken as float16).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("beta", "alpha")
    saves = ("vec1", "vec2")
    saved_options = ("alpha", "beta")
    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, input: Any, vec1: np.ndarray, vec2: np.ndarray, beta: Any, alpha: Any
    ) -> np.ndarray:
        _save_factors(ctx, vec1, vec2, beta, alpha)
        dtype = result_type(input, vec1, vec2)
        if dtype == np.bool_:  # (PyTorch's bool kernel: and for *, or for +)
            outer = np.multiply.outer(vec1.astype(dtype), vec2.astype(dtype))
            outer &= bool(alpha)
            if beta:
                outer |= np.asarray(input, dtype=np.bool_)
            return outer
        # (PyTorch's order, each step rounded to the dtype: (alpha * vec1) * vec2)
        first = vec1.astype(dtype) if alpha == 1 else np.multiply(vec1, alpha, dtype=dtype)
        outer = np.multiply.outer(first, vec2.astype(dtype))
        if beta == 0:
            return outer
        scaled = input if beta == 1 else np.multiply(input, beta, dtype=dtype)
        return np.add(scaled, outer, dtype=dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        vec1, vec2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            maybe_multiply(grad, ctx.beta) if needs[0] else None,
            maybe_multiply(grad @ vec2, ctx.alpha) if needs[1] else None,
            maybe_multiply(grad.T @ vec1, ctx.alpha) if needs[2] else None,
            None,
            None,
        )


def _checked_addr(
    input: Any, vec1: Any, vec2: Any, beta: Any, alpha: Any, inplace: bool = False
) -> None:
    """The checks of addr, in PyTorch's order."""
    check_scalar_arguments(beta, alpha)  # (the parser's error comes first)
    bias, a, b = operand(input), operand(vec1), operand(vec2)
    for name, array in (("vec1", a), ("vec2", b)):
        if array.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {array.ndim}-D")
    shape = (a.shape[0], b.shape[0])
    if inplace and np.ndim(bias) != 2:  # (addr_'s kernel takes a matrix before any size)
        raise RuntimeError(f"2D tensor expected, got {np.ndim(bias)}D tensor for input")
    if inplace and tuple(np.shape(bias)) != shape:
        raise RuntimeError(
            f"size mismatch, input: {list(np.shape(bias))}, v1: {list(a.shape)}, "
            f"v2: {list(b.shape)}"
        )
    error = expand_error(np.asarray(bias), shape)
    if error is not None:
        raise error
    if result_type(bias, a, b) == np.float16:  # (its kernel takes them as float16)
        checked_value(beta, np.dtype(np.float16))
        checked_value(alpha, np.dtype(np.float16))
    if result_type(bias, a, b).kind in "biu":
        for name, value in (("beta", beta), ("alpha", alpha)):
            if isinstance(value, float) or getattr(value, "dtype", np.dtype(int)).kind == "f":
                raise RuntimeError(
                    f"For integral input tensors, argument {name} must not be a "
                    "floating point number."
                )


def addr(input: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * outer(vec1, vec2)``: an outer product added to a matrix.

    Example:
        >>> import minigrad
        >>> minigrad.addr(minigrad.zeros(2, 2), minigrad.tensor([1.0, 2.0]),
        ...               minigrad.tensor([3.0, 4.0]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    _checked_addr(input, vec1, vec2, beta, alpha)
    return Addr.apply(input, vec1, vec2, beta, alpha)


def addr_(input: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``input = beta * input + alpha * outer(vec1, vec2)``, in place (sizes must match)."""
    _checked_addr(input, vec1, vec2, beta, alpha, inplace=True)
    return apply_inplace(Addr, input, vec1, vec2, beta, alpha)


# --- addbmm -----------------------------------------------------------------------------------


class Addbmm(Op):
    """z = beta * input + alpha * sum_b batch1[b] @ batch2[b], input broadcast to the product.

    dinput = beta * grad;  dbatch1[b] = alpha * grad @ batch2[b]^T;  dbatch2[b] = alpha *
    batch1[b]^T @ grad.  Saves each batch only if the other needs a gradient, and the sizes
    (b, n, p) the gradient is expanded to.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("beta", "alpha", "sizes")
    saves = ("batch1", "batch2")
    saved_options = {
        "alpha": "alpha",
        "beta": "beta",
        "batch1_sym_argsize_0": part("sizes", 0),
        "batch1_sym_argsize_1": part("sizes", 1),
        "batch2_sym_argsize_2": part("sizes", 2),
    }
    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, input: Any, batch1: np.ndarray, batch2: np.ndarray, beta: Any, alpha: Any
    ) -> np.ndarray:
        _save_factors(ctx, batch1, batch2, beta, alpha)
        ctx.sizes = (batch1.shape[0], batch1.shape[1], batch2.shape[2])
        if batch1.dtype is FLOAT16 and batch1.shape[0]:
            return _addbmm_half(input, batch1, batch2, beta, alpha)
        if alpha == 0:  # (gemm does not read the factors)
            product = np.zeros((batch1.shape[1], batch2.shape[2]), batch1.dtype)
        else:
            product = np.matmul(batch1, batch2).sum(axis=0, dtype=batch1.dtype)
        return _scaled_sum(input, product, beta, alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        batch1, batch2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        expanded = np.broadcast_to(np.expand_dims(grad, 0), ctx.sizes)  # (PyTorch's expand)
        return (
            maybe_multiply(grad, ctx.beta) if needs[0] else None,
            maybe_multiply(run(Bmm, expanded, np.swapaxes(batch2, 1, 2)), ctx.alpha)
            if needs[1]
            else None,
            maybe_multiply(run(Bmm, np.swapaxes(batch1, 1, 2), expanded), ctx.alpha)
            if needs[2]
            else None,
            None,
            None,
        )


def _addbmm_half(input: Any, batch1: np.ndarray, batch2: np.ndarray, beta: Any,
                 alpha: Any) -> np.ndarray:
    """Addbmm's float16 result: PyTorch's loop of one float16 addmm per batch.

    ``result = addmm(result, batch1[b], batch2[b], beta, alpha)``, beta 1 after the first:
    each step in float32, rounded to float16 (so the sum is rounded once per batch).
    """
    result = input
    for index in range(batch1.shape[0]):
        result = addmm_half(batch1[index], batch2[index], result, beta, alpha)
        beta = 1
    return result


def _checked_addbmm(input: Any, batch1: Any, batch2: Any, beta: Any, alpha: Any) -> tuple[Any, Any]:
    """The checks of addbmm, in PyTorch's order; ``beta`` and ``alpha`` as its kernel takes them."""
    bias, a, b = operand(input), operand(batch1), operand(batch2)
    # PyTorch expands input to (batch1.size(1), batch2.size(2)) first, then checks the batches.
    shape = (dim_size(a.shape, 1), dim_size(b.shape, 2))
    error = expand_error(np.asarray(bias), shape)
    if error is not None:
        raise error
    if a.ndim != 3:
        raise RuntimeError(errors.not_3d("batch1"))
    if b.ndim != 3:
        raise RuntimeError(errors.not_3d("batch2"))
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {a.shape[0]} and {b.shape[0]}"
        )
    if a.shape[2] != b.shape[1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
            f"{b.shape[1]}x{b.shape[2]})"
        )
    check_addmm_dtypes(np.asarray(bias), a, b)
    check_not_bool(a)
    return _scalars_for(a, beta, alpha)


def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]``: a reduced batch product added.

    Example:
        >>> import minigrad
        >>> minigrad.addbmm(minigrad.zeros(1, 1), minigrad.ones(2, 1, 3), minigrad.ones(2, 3, 1))
        tensor([[6.]])
    """
    beta, alpha = _checked_addbmm(input, batch1, batch2, beta, alpha)
    return Addbmm.apply(input, batch1, batch2, beta, alpha)


def addbmm_(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``input = beta * input + alpha * sum_b batch1[b] @ batch2[b]``, in place.

    As PyTorch's, an ``input`` that broadcasts to the product's shape is resized to it (a
    tensor of 3 elements becomes n x 3); a view is resized inside its base's memory, row-major
    where it starts (minigrad refuses one that would need more memory: see docs/api.md).
    """
    beta, alpha = _checked_addbmm(input, batch1, batch2, beta, alpha)
    shape = (operand(batch1).shape[1], operand(batch2).shape[2])
    if tuple(input.shape) != shape:
        if input._base is not None:
            return _addbmm_resizing_view(input, shape, batch1, batch2, beta, alpha)
        return apply_resizing(Addbmm, input, batch1, batch2, beta, alpha)
    return apply_inplace(Addbmm, input, batch1, batch2, beta, alpha)


def _addbmm_resizing_view(
    view: Any, shape: tuple[int, int], batch1: Any, batch2: Any, beta: Any, alpha: Any
) -> Any:
    """``addbmm_`` on a view of another shape: PyTorch's ``out=`` kernel resizes it in place.

    The view takes ``shape`` row-major where it starts in its base's memory; with ``beta`` not 0
    the kernel copies the old view, broadcast, into it first (its copy refuses memory the two
    share other than element for element, as for a 0-d view made 1 x 1), then adds the
    product in place.
    """
    array = view._array
    fitted = in_memory(array, shape, format_strides(shape, contiguous_format))
    if fitted is None:  # (PyTorch would grow the memory the view shares with its base)
        _check_inplace_shape(view, shape)
    resized, steps = fitted
    strides = expand_strides(array.shape, element_strides(array), shape)
    broadcast = np.lib.stride_tricks.as_strided(
        array, shape, tuple(s * array.itemsize for s in strides), writeable=False
    )

    def copied() -> np.ndarray | None:
        """What of self the product adds to (None where beta is 0), read before the write."""
        if beta == 0:
            return None  # (not read: PyTorch copies nothing)
        if partially_overlap(resized, broadcast):
            raise RuntimeError(errors.PARTIAL_OVERLAP)
        return copied_in_kernel_order(resized, broadcast)

    return apply_resizing_view(Addbmm, view, resized, steps, copied, batch1, batch2, beta, alpha)
