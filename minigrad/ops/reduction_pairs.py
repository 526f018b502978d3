"""Reductions with two results from one node: ``var_mean``, ``std_mean`` and ``aminmax``.

Each records ONE node for both results, as PyTorch's do (VarMeanBackward0, StdMeanBackward0,
AminmaxBackward0): its backward adds up what each result's gradient gives. var_mean saves its
input; std_mean its input and the std (``result0``); aminmax its input and both results (the
elements equal to each extreme share its gradient, as ``amin``/``amax``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._layout import contiguous_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops._helpers import given_gradient, operand, wrap_dim
from minigrad.ops.reduction import (
    Moments,
    Var,
    _mean_all,
    _share_per_slice,
    _var_grad,
    _variance,
    first_zero_kept,
    mean_grad,
    moments_arguments,
    std_grad,
)
from minigrad.ops.return_types import return_types


def _sum_given(*parts: Any) -> Any:
    """The sum of the parts that are not None (PyTorch adds only the defined gradients)."""
    given = [part for part in parts if part is not None]
    return given[0] if len(given) == 1 else given[0] + given[1]


def running_moments(x: np.ndarray, moments: Moments,
                    take_sqrt: bool) -> tuple[np.ndarray, np.ndarray]:
    """(var or std, mean) as PyTorch's CPU kernel computes them: Welford's running update.

    PyTorch's var_mean/std_mean (every dim form, the all-reduce too) fold the elements one by
    one in float64 (WelfordOps with a double accumulator), rounded once to x's dtype: a float32
    slice of 3e38s has mean 3e38, not the float32 sum's inf. The update ``mean += (x_k -
    mean) / k`` equals the float64 two-pass values for finite elements (to float64's last
    bits), but an infinity met before a slice's last element makes every later update inf -
    inf: the mean is nan there (the variance is nan with any infinity, as the two-pass one).
    """
    wide = x.astype(np.float64)
    variance = _variance(wide, moments.axes, moments.correction, moments.keepdim)
    mean = _mean_all(wide, None, moments.axes, moments.keepdim)
    if x.size and moments.axes:
        # an infinity anywhere but at the last element each slice folds (index -1 on every
        # reduced axis, whatever order the kernel walks them in)
        early = np.isinf(wide)
        early[tuple(-1 if axis in moments.axes else slice(None) for axis in range(x.ndim))] = False
        mean = np.where(early.any(axis=moments.axes, keepdims=moments.keepdim), np.nan, mean)
    spread = np.sqrt(variance) if take_sqrt else variance
    return np.asarray(spread, dtype=x.dtype), np.asarray(mean, dtype=x.dtype)


class VarMean(Op):
    """(var, mean) over ``dim``;  dx = var's gradient for grad_var + mean's for grad_mean.

    A result that received no gradient adds nothing (var's gradient is inf where n <=
    correction). Saves its input.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = Var.fields
    saved_options = Var.saved_options

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, moments: Moments) -> tuple[np.ndarray, np.ndarray]:
        ctx.save_for_backward(x)
        moments.keep_on(ctx)
        return running_moments(x, moments, take_sqrt=False)

    @staticmethod
    def backward(ctx: Any, grad_var: Any, grad_mean: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        grad_var, grad_mean = given_gradient(grad_var), given_gradient(grad_mean)
        if grad_var is None and grad_mean is None:
            return None, None
        from_var = None if grad_var is None else _var_grad(
            grad_var, x, ctx.axes, ctx.correction, ctx.keepdim, ctx.grad_rule)
        from_mean = None if grad_mean is None else mean_grad(
            grad_mean, np.shape(x), ctx.axes, ctx.keepdim)
        return _sum_given(from_var, from_mean), None


class StdMean(Op):
    """(std, mean) over ``dim``;  dx = std's gradient for grad_std + mean's for grad_mean.

    Saves its input and the std (PyTorch's ``result0``).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = Var.fields
    saves = ("self", "result0")
    saved_options = Var.saved_options

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, moments: Moments) -> tuple[np.ndarray, np.ndarray]:
        std, mean = running_moments(x, moments, take_sqrt=True)
        ctx.save_for_backward(x, std)
        moments.keep_on(ctx)
        return std, mean

    @staticmethod
    def backward(ctx: Any, grad_std: Any, grad_mean: Any) -> tuple[Any, None]:
        x, std = ctx.saved_tensors
        grad_std, grad_mean = given_gradient(grad_std), given_gradient(grad_mean)
        if grad_std is None and grad_mean is None:
            return None, None
        from_std = None if grad_std is None else std_grad(ctx, grad_std, x, std)
        from_mean = None if grad_mean is None else mean_grad(
            grad_mean, np.shape(x), ctx.axes, ctx.keepdim)
        return _sum_given(from_std, from_mean), None


def var_mean(input: Any, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
             keepdim: bool = _arguments.NOT_GIVEN, *,
             correction: float | None = _arguments.NOT_GIVEN) -> tuple[Any, Any]:
    """``(var(input, ...), mean(input, ...))`` over ``dim``, from one node.

    The arguments are ``var``'s. Returns a plain tuple, as PyTorch's.

    Example:
        >>> import minigrad
        >>> minigrad.var_mean(minigrad.tensor([1.0, 2.0, 3.0, 4.0]))
        (tensor(1.6667), tensor(2.5000))
    """
    _arguments.check_tensor(input, "var_mean", "input", 1)
    moments = moments_arguments(input, dim, unbiased, keepdim, correction, "var_mean",
                                "var_mean")
    return VarMean.apply(input, moments)


def std_mean(input: Any, dim: Any = _arguments.NOT_GIVEN, unbiased: bool = _arguments.NOT_GIVEN,
             keepdim: bool = _arguments.NOT_GIVEN, *,
             correction: float | None = _arguments.NOT_GIVEN) -> tuple[Any, Any]:
    """``(std(input, ...), mean(input, ...))`` over ``dim``, from one node.

    Example:
        >>> import minigrad
        >>> minigrad.std_mean(minigrad.tensor([1.0, 2.0, 3.0, 4.0]), unbiased=False)
        (tensor(1.1180), tensor(2.5000))
    """
    _arguments.check_tensor(input, "std_mean", "input", 1)
    moments = moments_arguments(input, dim, unbiased, keepdim, correction, "std_mean",
                                "std_mean")
    return StdMean.apply(input, moments)


class Aminmax(Op):
    """(min, max) over ``dim`` (all elements if None).

    dx = grad_min shared by each slice's minima + grad_max shared by its maxima (as amin's and
    amax's: ties share evenly). Saves its input and both results.
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    fields = ("axes", "keepdim", "given_dim")
    saves = ("self", "min", "max")
    saved_options = {"dim": as_given("given_dim"), "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, axes: tuple[int, ...], keepdim: bool,
                given_dim: Any) -> tuple[np.ndarray, np.ndarray]:
        low = np.asarray(np.min(x, axis=axes, keepdims=keepdim))
        high = np.asarray(np.max(x, axis=axes, keepdims=keepdim))
        if given_dim is not None:  # (over a dim PyTorch keeps the first of equal zeros)
            low, high = (first_zero_kept(x, low, axes, keepdim),
                         first_zero_kept(x, high, axes, keepdim))
        ctx.save_for_backward(x, low, high)
        ctx.axes, ctx.keepdim, ctx.given_dim = axes, keepdim, given_dim
        return low, high

    @staticmethod
    def backward(ctx: Any, grad_min: Any, grad_max: Any) -> tuple[Any, None, None, None]:
        x, low, high = ctx.saved_tensors
        return (_share_per_slice(grad_min, x, low, ctx.axes, ctx.keepdim)
                + _share_per_slice(grad_max, x, high, ctx.axes, ctx.keepdim)), None, None, None


def aminmax(input: Any, *, dim: int | None = None, keepdim: bool = False) -> Any:
    """``(min, max)``: the smallest and largest elements, of all or over ``dim``.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1.0, 5.0], [7.0, 2.0]]).aminmax(dim=1)
        minigrad.return_types.aminmax(
        min=tensor([1., 2.]),
        max=tensor([5., 7.]))
    """
    array = operand(input)
    if dim is None:
        if array.size == 0:
            raise RuntimeError(errors.AMINMAX_EMPTY)
        axes: tuple[int, ...] = tuple(range(array.ndim))
    else:
        axis = wrap_dim(dim, array.ndim)
        if array.ndim and array.shape[axis] == 0:
            raise IndexError(errors.aminmax_empty_dim(axis))
        axes = (axis,) if array.ndim else ()
    low, high = Aminmax.apply(input, axes, keepdim, dim)
    return return_types.aminmax(low, high)

