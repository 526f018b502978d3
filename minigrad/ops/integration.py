"""The trapezoidal rule: ``trapezoid`` (``trapz``) and ``cumulative_trapezoid``.

Compositions in PyTorch and here, op for op: with a spacing ``dx``,
``(y.sum(dim) - (y[0] + y[-1]) / 2) * dx``; with sample points ``x``, the sum (or the cumulative
sum) of ``(y[1:] + y[:-1]) * (x[1:] - x[:-1])``, halved.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import NOT_GIVEN, function_call_fits_none
from minigrad._dtype import check_scalar_arguments
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, cumulative, reduction, views
from minigrad.ops._helpers import float_input, operand, wrap_dim


def _pair_sums(y: Any, dim: int) -> Any:
    """``y[:-1] + y[1:]`` along ``dim`` (PyTorch's slices, ``dim`` as it gives them)."""
    return arithmetic.add(
        views.Slice.apply(y, dim, 0, -1, 1), views.Slice.apply(y, dim, 1, None, 1)
    )


def _spacings(x: Any, y: Any, dim: int) -> Any:
    """``x[1:] - x[:-1]`` along ``dim``, a vector ``x`` viewed along ``dim`` of ``y``."""
    x_array, y_ndim = operand(x), operand(y).ndim
    if x_array.ndim == 1:
        shape = [1] * y_ndim
        shape[dim] = x_array.shape[0]
        x = views.view(x, *shape)
    elif x_array.ndim < y_ndim:
        x = views.view(x, *([1] * (y_ndim - x_array.ndim)), *x_array.shape)
    return arithmetic.sub(
        views.Slice.apply(x, dim, 1, None, 1), views.Slice.apply(x, dim, 0, -1, 1)
    )


def _check_call(name: str, y: Any, x: Any, dx: Any, dim: Any) -> int:
    """``dim``, or the parser's TypeError unless the call fits one of ``name``'s overloads.

    Bool samples get PyTorch's RuntimeError then. The overloads are ``(Tensor y, *, Number
    dx = 1, int dim = -1)`` and ``(Tensor y, Tensor x, *, int dim = -1)``: the parser names the
    argument that does not fit, or lists both.
    """
    if x is NOT_GIVEN:
        fits = dx is NOT_GIVEN or isinstance(dx, (int, float, np.number))
    else:
        fits = isinstance(x, TensorBase) and dx is NOT_GIVEN
    int_dim = isinstance(dim, (int, np.integer)) and not isinstance(dim, bool)
    fits = fits and isinstance(y, TensorBase) and (dim is NOT_GIVEN or int_dim)
    check_scalar_arguments(dx)  # (the parser's error comes first)
    if not fits:
        args = (y,) if x is NOT_GIVEN else (y, x)
        given = {"dx": dx, "dim": dim}
        kwargs = {key: value for key, value in given.items() if value is not NOT_GIVEN}
        raise TypeError(function_call_fits_none(name, args, kwargs))
    kernel = "cumulative_trapezoid" if name == "cumulative_trapezoid" else "trapezoid"
    if x is NOT_GIVEN:
        if y._array.dtype == np.bool_:
            raise RuntimeError(
                f"{kernel}: received a bool input for `y`, but bool is not supported"
            )
    elif np.bool_ in (y._array.dtype, x._array.dtype):
        raise RuntimeError(
            f"{kernel}: received a bool input for `x` or `y`, but bool is not supported"
        )
    return -1 if dim is NOT_GIVEN else dim


def _check_points(x: Any, y: Any, dim: int, function: str) -> None:
    x_array, y_array = operand(x), operand(y)
    size = x_array.shape[0] if x_array.ndim == 1 else x_array.shape[dim]
    if x_array.ndim == 1 and size != y_array.shape[dim]:
        raise RuntimeError(f"{function}: There must be one `x` value for each sample point")


def trapezoid(y: Any, x: Any = NOT_GIVEN, *, dx: Any = NOT_GIVEN, dim: Any = NOT_GIVEN) -> Any:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule.

    Sample points ``x`` (a tensor) or a constant spacing ``dx`` (default 1).

    Example:
        >>> import minigrad
        >>> minigrad.trapezoid(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor(4.)
    """
    return _trapezoid("trapezoid", y, x, dx, dim)


def _trapezoid(name: str, y: Any, x: Any, dx: Any, dim: Any) -> Any:
    """``trapezoid`` or ``trapz`` (``name``: the parser's, in its errors)."""
    dim = _check_call(name, y, x, dx, dim)
    axis = wrap_dim(dim, operand(y).ndim)
    if isinstance(x, TensorBase):
        _check_points(x, y, axis, "trapezoid")
        spacing = _spacings(x, y, axis)
        products = arithmetic.mul(_pair_sums(y, axis), spacing)
        # (integers: PyTorch's true division makes the default float)
        return arithmetic.DivScalar.apply(float_input(reduction.sum(products, axis)), 2.0)
    spacing = 1 if dx is NOT_GIVEN else dx
    array = operand(y)
    if array.shape[axis] == 0:  # (no interval: PyTorch's zeros of y's dtype, without history)
        shape = array.shape[:axis] + array.shape[axis + 1 :]
        return TensorBase.output_class._make(np.zeros(shape, dtype=array.dtype))
    y = float_input(y)  # (integers: PyTorch's products with 0.5 make the default float)
    ends = arithmetic.add(views.select(y, dim, 0), views.select(y, dim, -1))
    difference = arithmetic.sub(reduction.sum(y, dim), arithmetic.MulScalar.apply(ends, 0.5))
    return arithmetic.MulScalar.apply(difference, float(spacing))  # (C++ takes a double)


def trapz(y: Any, x: Any = NOT_GIVEN, *, dx: Any = NOT_GIVEN, dim: Any = NOT_GIVEN) -> Any:
    """``minigrad.trapezoid``'s older name.

    Example:
        >>> import minigrad
        >>> minigrad.trapz(minigrad.tensor([1.0, 2.0, 3.0]), dx=0.5)
        tensor(2.)
    """
    return _trapezoid("trapz", y, x, dx, dim)


def cumulative_trapezoid(
    y: Any, x: Any = NOT_GIVEN, *, dx: Any = NOT_GIVEN, dim: Any = NOT_GIVEN
) -> Any:
    """The running integral of ``y`` along ``dim`` by the trapezoidal rule (one fewer element).

    Example:
        >>> import minigrad
        >>> minigrad.cumulative_trapezoid(minigrad.tensor([1.0, 2.0, 3.0]))
        tensor([1.5000, 4.0000])
    """
    dim = _check_call("cumulative_trapezoid", y, x, dx, dim)
    array = operand(y)
    if array.ndim == 0:
        raise IndexError(errors.dim_of_0d(dim))
    axis = wrap_dim(dim, array.ndim)
    if isinstance(x, TensorBase):
        _check_points(x, y, axis, "cumulative_trapezoid")
        products = arithmetic.mul(_pair_sums(y, axis), _spacings(x, y, axis))
        return arithmetic.DivScalar.apply(float_input(cumulative.cumsum(products, axis)), 2.0)
    spacing = 1 if dx is NOT_GIVEN else dx
    y = float_input(y)
    return cumulative.cumsum(arithmetic.MulScalar.apply(_pair_sums(y, dim), spacing / 2), dim)
