"""Cumulative sums and products along a dim, and their inverse: cumsum, cumprod, diff.

logcumsumexp (the cumulative ``log(sum(exp))``) is here too: a cumulative sum, of exponentials.

diff is made of slices and subtractions, as PyTorch's is.

cumsum saves nothing (its gradient is a reversed cumulative sum of grad); cumprod saves its
input and its result. The in-place forms compute in the tensor's own dtype (an int32 tensor
is not widened to int64) and record the same nodes (CumsumBackward0, CumprodBackward0).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import bool_
from minigrad._layout import contiguous_result, empty_preserving_layout
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    check_differentiable_result,
    dtype_name,
    operand,
    raw,
    run,
    sum_dtype,
    wrap_dim,
)
from minigrad.ops.shape import Flip, cat

# The wider type PyTorch's CPU kernels accumulate a running sum in (at::acc_type).
_CUMULATIVE_ACCUMULATOR = {np.dtype(np.float32): np.float64, np.dtype(np.float16): np.float32}


class Cumsum(Op):
    """y_i = x_0 + ... + x_i along ``dim``;  dx = the reversed cumulative sum of grad.

    Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, dtype: Any) -> np.ndarray:
        ctx.dim = dim
        if x.ndim == 0:
            return np.array(x, dtype=dtype or x.dtype, copy=True)
        result_dtype = np.dtype(dtype or x.dtype)
        accumulate = _CUMULATIVE_ACCUMULATOR.get(result_dtype)
        # numpy adds one element at a time in the result's precision: a million float32 steps
        # drift by 1%. PyTorch accumulates in a wider type and rounds each result once.
        sums = np.cumsum(x, axis=dim, dtype=dtype if accumulate is None else accumulate)
        if sums.dtype.kind == "f":  # PyTorch's running sum starts at +0: -0.0 first gives 0.0
            sums += 0.0
        return sums.astype(result_dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        shape = grad.shape
        if math.prod(shape) <= 1 or shape[ctx.dim] == 1:
            # PyTorch's cumsum_backward hands such a gradient back as it is (``grad`` may
            # then return the very tensor given as the output's gradient)
            return grad, None, None
        return _reversed_cumsum(grad, ctx.dim), None, None


def _reversed_cumsum(value: Any, dim: int) -> Any:
    """z_i = value_i + ... + value_last along ``dim``."""
    if np.ndim(value) == 0:
        return value
    flipped = run(Flip, value, (dim,))
    return run(Flip, run(Cumsum, flipped, dim, None), (dim,))


class Cumprod(Op):
    """y_i = x_0 * ... * x_i along ``dim``;  dx_k = sum over j >= k of grad_j * y_j / x_k.

    Saves its input and its result. With zeros in x the division is replaced by the products
    of the other factors (computed per position, so second derivatives stay exact).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, dtype: Any) -> np.ndarray:
        if x.ndim == 0:
            y = np.array(x, dtype=dtype or x.dtype, copy=True)
        else:  # (in the wider type PyTorch's kernel multiplies in, as cumsum's)
            result_dtype = np.dtype(dtype or x.dtype)
            accumulate = _CUMULATIVE_ACCUMULATOR.get(result_dtype)
            if accumulate is None:
                y = np.cumprod(x, axis=dim, dtype=dtype)
            else:
                y = np.cumprod(x, axis=dim, dtype=accumulate).astype(result_dtype)
        ctx.save_for_backward(x, y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        x, y = ctx.saved_tensors
        if np.ndim(x) == 0 or np.shape(x)[ctx.dim] <= 1:
            return grad, None, None
        dim = ctx.dim % np.ndim(x)  # (kept as given: -1 for the last dim)
        if not (raw(x) == 0).any():
            return _reversed_cumsum(y * grad, dim) / x, None, None
        if isinstance(grad, np.ndarray):  # (not create_graph: PyTorch's O(n) formula too)
            return _cumprod_grad_with_zeros(grad, x, y, dim), None, None
        size = np.shape(x)[dim]
        positions = np.arange(size).reshape((-1,) + (1,) * (np.ndim(x) - 1 - dim))
        pieces = []
        for k in range(size):
            # d y_j / d x_k for j >= k: the cumulative product with x_k replaced by 1.
            without_k = run(Cumprod, np.where(positions == k, 1, x), dim, None)
            pieces.append(np.sum(grad * without_k * (positions >= k), axis=dim, keepdims=True))
        return np.concatenate(pieces, axis=dim), None, None


def _cumprod_grad_with_zeros(grad: np.ndarray, x: np.ndarray, y: np.ndarray,
                             dim: int) -> np.ndarray:
    """Cumprod's gradient where x has zeros, as PyTorch's O(n) ``cumprod_backward``.

    Before a slice's first zero z1: the reversed cumsum of grad * y over x; at z1: y[z1 - 1]
    times the sum of grad[j] * x[z1+1..j]'s product for z1 <= j < z2 (the next zero); after
    z1: 0. Its nans and infinities are that formula's (PyTorch runs it without grad mode).
    """
    zeros_so_far = np.cumsum(x == 0, axis=dim)
    before = zeros_so_far == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(before, _reversed_cumsum(np.where(before, y * grad, 0), dim) / x, 0)
        in_run = zeros_so_far == 1
        first = np.argmax(in_run, axis=dim, keepdims=True)  # (0 where there is no zero)
        at_first = np.zeros_like(in_run)
        np.put_along_axis(at_first, first, True, axis=dim)
        at_first &= in_run
        after_first = in_run & ~at_first
        run_sum = np.sum(np.cumprod(np.where(after_first, x, 1), axis=dim)
                         * np.where(in_run, grad, 0), axis=dim, keepdims=True)
        before_first = np.take_along_axis(y, np.maximum(first - 1, 0), axis=dim)
        run_sum = run_sum * np.where(first == 0, 1, before_first)
    return np.where(at_first, run_sum, result).astype(grad.dtype, copy=False)


class Logcumsumexp(Op):
    """y_i = log(exp(x_0) + ... + exp(x_i)) along ``dim``, without overflow.

    dx: PyTorch's ``logcumsumexp_backward``, which splits grad by sign so that each part is a
    reversed logcumsumexp of ``log|grad| - y`` (no exp of a large value). Saves its input and
    its result.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("dim",)  # as given (-1 for the last): PyTorch's node shows it so
    saved_options = {"dim": as_given("dim")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        ctx.dim = dim
        if x.ndim == 0:
            y = x.copy()
        else:
            # PyTorch's CPU kernel accumulates in the wider type (at::acc_type), as cumsum's
            accumulate = _CUMULATIVE_ACCUMULATOR.get(x.dtype, x.dtype)
            with np.errstate(invalid="ignore"):  # (nan in, nan out, as PyTorch)
                y = np.logaddexp.accumulate(x.astype(accumulate), axis=dim).astype(x.dtype)
            y += 0.0  # (PyTorch's first step adds log1p(0) = 0.0 to x_0: -0.0 becomes 0.0)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, y = ctx.saved_tensors
        grad_array = raw(grad)
        if grad_array.ndim == 0 or grad_array.size == 0:
            return grad, None
        lowest = np.finfo(grad_array.dtype).min
        with np.errstate(divide="ignore"):  # (log 0 = -inf where grad is 0: masked below)
            log_abs_grad = np.log(np.abs(grad))
        parts = []
        for has_sign in (grad > 0, grad < 0):
            log_part = np.where(has_sign, log_abs_grad, lowest)
            parts.append(np.exp(_reversed_logcumsumexp(log_part - y, ctx.dim) + x))
        return parts[0] - parts[1], None


def _reversed_logcumsumexp(value: Any, dim: int) -> Any:
    """z_i = log(exp(value_i) + ... + exp(value_last)) along ``dim``."""
    flipped = run(Flip, value, (dim,))
    return run(Flip, run(Logcumsumexp, flipped, dim), (dim,))


def cumsum(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """Cumulative sums along ``dim``; integers and bools sum to int64.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumsum(0)
        tensor([1., 3., 6.])
    """
    array = operand(input)
    wrap_dim(dim, array.ndim)  # (checked; kept as given, as PyTorch's node shows it)
    return Cumsum.apply(input, dim, _cumulative_dtype(input, dtype, "cumsum"))


def cumprod(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """Cumulative products along ``dim``; integers and bools multiply to int64.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumprod(0)
        tensor([1., 2., 6.])
    """
    array = operand(input)
    wrap_dim(dim, array.ndim)  # (checked; kept as given, as PyTorch's node shows it)
    return Cumprod.apply(input, dim, _cumulative_dtype(input, dtype, "cumprod"))


def logcumsumexp(input: Any, dim: int) -> Any:
    """``log(cumsum(exp(input), dim))``, computed without overflow; floating inputs only.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([0.0, 0.0, 0.0]).logcumsumexp(0)
        tensor([0.0000, 0.6931, 1.0986])
    """
    array = operand(input)
    wrap_dim(dim, array.ndim)  # (checked; kept as given, as PyTorch's node shows it)
    if array.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(
            "logcumsumexp_out_cpu", dtype_name(input)))
    return Logcumsumexp.apply(input, dim)


def cumsum_(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """``input = cumsum(input, dim)`` in place; ``dtype``, if given, must be ``input``'s.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumsum_(0)
        tensor([1., 3., 6.])
    """
    array = operand(input)
    wrap_dim(dim, array.ndim)  # (checked; kept as given, as PyTorch's node shows it)
    return apply_inplace(Cumsum, input, dim, _inplace_dtype(array, dtype, "cumsum"))


def cumprod_(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """``input = cumprod(input, dim)`` in place; ``dtype``, if given, must be ``input``'s.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumprod_(0)
        tensor([1., 2., 6.])
    """
    array = operand(input)
    wrap_dim(dim, array.ndim)  # (checked; kept as given, as PyTorch's node shows it)
    return apply_inplace(Cumprod, input, dim, _inplace_dtype(array, dtype, "cumprod"))


def _inplace_dtype(array: np.ndarray, dtype: Any, name: str) -> np.dtype:
    """The dtype an in-place ``name`` computes in: the tensor's own (PyTorch's checks)."""
    wanted = sum_dtype(array, dtype, name) if dtype is not None else array.dtype
    if wanted != array.dtype:
        raise RuntimeError(errors.inplace_dtype_differs(array.dtype, wanted))
    if array.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for(f"{name}_out_cpu", "Bool"))
    return array.dtype


def _cumulative_dtype(input: Any, dtype: Any, name: str) -> np.dtype | None:
    """The dtype ``name`` computes in; PyTorch has no bool kernel to compute in.

    An integer ``dtype`` of an input that requires grad: autograd's error, after the kernel's.
    """
    array = operand(input)
    numpy_dtype = sum_dtype(array, dtype, name)
    if numpy_dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for(f"{name}_out_cpu", "Bool"))
    check_differentiable_result(array.dtype if numpy_dtype is None else numpy_dtype, input)
    return numpy_dtype


def diff(input: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """The ``n``-th forward difference along ``dim``: ``out[i] = input[i + 1] - input[i]``.

    ``prepend`` and ``append`` join ``input`` along ``dim`` first. As PyTorch's, it is made of
    slices and subtractions (``SubBackward0`` over ``SliceBackward0``), of ``logical_xor``
    for bools.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 4.0, 9.0, 16.0]).diff()
        tensor([3., 5., 7.])
    """
    _arguments.check_int64_arguments(n, dim)  # (the parser's error comes first)
    array = operand(input)
    if array.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    axis = wrap_dim(dim, array.ndim)
    for other in (prepend, append):
        _check_joinable(array, other, axis)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], dim)
    if n == 0:  # PyTorch's zeros_like(input).copy_(input): a copy recorded as CopyBackwards
        zeros = empty_preserving_layout(operand(input))
        zeros.fill(0)
        return TensorBase.output_class._make(zeros).copy_(input)
    length = input.shape[axis] - 1
    for _ in range(min(n, input.shape[axis])):
        # (narrowed along ``dim`` as given: PyTorch's SliceBackward0 shows it so)
        later, earlier = input.narrow(dim, 1, length), input.narrow(dim, 0, length)
        input = later.logical_xor(earlier) if input.dtype == bool_ else later - earlier
        length -= 1
    return input


def _check_joinable(array: np.ndarray, other: Any, axis: int) -> None:
    """PyTorch's checks of diff's ``prepend``/``append``: same ndim, same sizes off ``axis``."""
    if other is None:
        return
    shape = operand(other).shape
    if len(shape) != array.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (mine, theirs) in enumerate(zip(array.shape, shape)):
        if i != axis and mine != theirs:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = {mine}, but got "
                f"tensor.size({i}) = {theirs}")
