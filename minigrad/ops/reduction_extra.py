"""Reductions added beside ``reduction.py``'s: nansum, count_nonzero and trace.

nansum saves its input (its gradient is 0 where the input was NaN), as PyTorch's does, so
writing the input in place after a nansum makes backward raise. count_nonzero is not
differentiable: its result is int64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._layout import contiguous_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import dims_as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    check_differentiable_result,
    dtype_name,
    operand,
    sum_dtype,
)
from minigrad.ops.reduction import _spread, reduced_dims


class Nansum(Op):
    """y = sum of the elements that are not NaN (over ``axes``);  dx = grad where x is not NaN.

    Saves its input (where the NaNs were). ``given_dim``: the dims as given, which PyTorch's
    ``_saved_dim`` shows (None without dims).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("shape", "axes", "keepdim", "given_dim")
    saved_options = {"dim": dims_as_given("given_dim"), "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool, dtype: Any,
                given_dim: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.shape, ctx.axes, ctx.keepdim, ctx.given_dim = x.shape, axes, keepdim, given_dim
        return np.asarray(np.nansum(x, axis=axes, keepdims=keepdim, dtype=dtype))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        (x,) = ctx.saved_tensors
        spread = _spread(grad, ctx.shape, ctx.axes, ctx.keepdim)
        return spread * np.logical_not(np.isnan(x)), None, None, None, None


def nansum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """Sum of the elements that are not NaN, of all or over ``dim`` (an int or a tuple).

    Integers and bools sum to int64, as ``sum``'s do; an empty tuple of dims means every dim.
    Records NansumBackward0, which saves the input.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, float("nan")], [3.0, 4.0]]).nansum(dim=1)
        tensor([1., 7.])
    """
    array = operand(input)
    numpy_dtype = sum_dtype(array, dtype, "nansum")
    dims = reduced_dims(dim, array.ndim)
    check_differentiable_result(array.dtype if numpy_dtype is None else numpy_dtype, input)
    return Nansum.apply(input, dims, keepdim, numpy_dtype, dim)


def count_nonzero(input: Any, dim: Any = None) -> Any:
    """How many elements are nonzero, of all or over ``dim`` (an int or a tuple): int64.

    NaN counts as nonzero. Not differentiable.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[0.0, 1.0], [2.0, 0.0]]).count_nonzero(dim=0)
        tensor([1, 1])
    """
    array = operand(input)
    axes = reduced_dims(dim, array.ndim)  # (an empty list of dims: every dim, as sum's)
    result = np.asarray(np.count_nonzero(array, axis=axes), dtype=np.int64)
    # (not recorded: laid out here as the recorded reductions are, ``contiguous_result``)
    return TensorBase.output_class._make(contiguous_result(result, (array,)))


class Trace(Op):
    """y = the sum of a matrix's diagonal;  dx = grad on the diagonal, 0 elsewhere.

    Saves the input's shape (PyTorch's ``_saved_self_sym_sizes``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape",)
    saved_options = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: Any) -> np.ndarray:
        ctx.shape = x.shape
        return np.asarray(np.trace(x, dtype=dtype))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        # (a where, not grad * eye: an infinite gradient leaves 0 off the diagonal, as
        # PyTorch's index_fill does)
        return np.where(np.eye(*ctx.shape, dtype=bool), grad, 0), None


def trace(input: Any) -> Any:
    """The sum of the diagonal of a matrix (integers sum to int64).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).trace()
        tensor(5.)
    """
    array = operand(input)
    if array.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {array.ndim}")
    if array.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for("trace", dtype_name(input)))
    return Trace.apply(input, sum_dtype(array, None, "trace"))


def sum_to_size(input: Any, *size: Any) -> Any:
    """``input`` summed down to ``size`` (to which it must broadcast): PyTorch's ``sum_to``.

    The leading dims are summed away and dims of size 1 in ``size`` summed with keepdim (one
    SumBackward1), then a view drops the leading ones; ``input`` itself if nothing changes.

    Example:
        >>> import minigrad
        >>> minigrad.ones(2, 3).sum_to_size(1, 3)
        tensor([[2., 2., 2.]])
    """
    from minigrad.ops import reduction, views  # (reduction imports this module's neighbours)

    given = views.method_int_list(size, "sum_to_size", "size")  # (given whole, or unpacked)
    _arguments.check_int_sequence(given, "sum_to_size", "size", 1)
    shape = _arguments.int_tuple(given)
    sizes = operand(input).shape
    lead = len(sizes) - len(shape)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(shape, sizes[lead:])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(sizes)}}}."
                           .replace("'", ""))
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and sizes[lead + i] != 1)
    result = reduction.sum(input, dims, True) if dims else input
    return views.view(result, *shape) if lead > 0 else result

