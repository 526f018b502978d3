"""gradient: a function's derivative estimated from its samples on a grid (finite differences).

Composed of slices, arithmetic and ``cat``, as PyTorch composes it (its result's node is a
CatBackward0): central differences inside, one-sided ones (first or second order) at the two
edges. The spacing is a number per dimension, or the sample coordinates (1-D tensors), which
may be uneven.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import check_python_int
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops.arithmetic import DivScalar, MulScalar
from minigrad.ops.shape import cat
from minigrad.ops.views import slice_dim


def _part(x: Any, dim: int, start: int, stop: int | None = None) -> Any:
    """``x[start:stop]`` along ``dim`` (PyTorch's ``at::slice``)."""
    return slice_dim(x, dim, start, stop, 1)


def _with_spacing(x: Any, dim: int, h: Any, edge_order: int) -> Any:
    """The estimate along ``dim`` for samples ``h`` apart (``gradient_helper_float``).

    As PyTorch's C++ writes it: products and quotients with numbers are ``MulBackward1`` and
    ``DivBackward1`` nodes (Python's ``x * 2`` would record ``MulBackward0``).
    """

    def times(t: Any, c: Any) -> Any:
        """``t * c`` recorded as ``MulBackward1``."""
        return MulScalar.apply(t, c)

    def over(t: Any, c: Any) -> Any:
        """``t / c`` recorded as ``DivBackward1``."""
        return DivScalar.apply(t, c)

    center = over(_part(x, dim, 2) - _part(x, dim, 0, -2), h)
    if edge_order == 1:
        first = over(_part(x, dim, 1, 2) - _part(x, dim, 0, 1), h)
        last = over(_part(x, dim, -1) - _part(x, dim, -2, -1), h)
    else:
        first = over(
            times(_part(x, dim, 0, 1), -1.5) + times(_part(x, dim, 1, 2), 2)
            - times(_part(x, dim, 2, 3), 0.5),
            h,
        )
        last = over(
            times(_part(x, dim, -3, -2), 0.5) - times(_part(x, dim, -2, -1), 2)
            + times(_part(x, dim, -1), 1.5),
            h,
        )
    return cat([first, over(center, 2), last], dim)


def _with_coordinates(x: Any, dim: int, coordinates: Any, edge_order: int) -> Any:
    """The estimate along ``dim`` for samples at ``coordinates`` (``gradient_helper``)."""
    if coordinates.dim() != 1:
        raise RuntimeError(errors.gradient_spacing_dims(coordinates.dim()))
    shape = [1] * x.dim()
    shape[dim] = -1
    dx = coordinates.diff(1, 0)
    dx1, dx2 = _part(dx, 0, 0, -1), _part(dx, 0, 1)
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _part(x, dim, 0, -2) + b * _part(x, dim, 1, -1) + c * _part(x, dim, 2)
    if edge_order == 1:
        first = (_part(x, dim, 1, 2) - _part(x, dim, 0, 1)) / dx[0]
        last = (_part(x, dim, -1) - _part(x, dim, -2, -1)) / dx[-1]
    else:
        h0, h1 = dx[0], dx[1]
        first = (
            -(2.0 * h0 + h1) / (h0 * (h0 + h1)) * _part(x, dim, 0, 1)
            + (h0 + h1) / (h0 * h1) * _part(x, dim, 1, 2)
            + (-h0) / (h1 * (h0 + h1)) * _part(x, dim, 2, 3)
        )
        h0, h1 = dx[-1], dx[-2]
        last = (
            h0 / (h1 * (h0 + h1)) * _part(x, dim, -3, -2)
            - (h0 + h1) / (h0 * h1) * _part(x, dim, -2, -1)
            + (2 * h0 + h1) / (h0 * (h0 + h1)) * _part(x, dim, -1)
        )
    return cat([first, center, last], dim)


def gradient(
    input: Any, *, spacing: Any = None, dim: Any = None, edge_order: int = 1
) -> tuple[Any, ...]:
    """Estimates of ``input``'s partial derivatives, one tensor per dimension in ``dim``.

    Central differences inside; at the edges one-sided differences of order ``edge_order``
    (1 or 2). ``spacing``: a number (the same step everywhere), a number per dimension, or
    one 1-D tensor of sample coordinates per dimension. ``dim``: an int or a list (all
    dimensions if None).

    Example:
        >>> import minigrad
        >>> minigrad.gradient(minigrad.tensor([1.0, 2.0, 4.0, 8.0]))
        (tensor([1.0000, 1.5000, 3.0000, 4.0000]),)
    """
    spacing = 1.0 if spacing is None else spacing  # (PyTorch's default: a float one)
    if isinstance(spacing, bool) or not isinstance(spacing, (list, tuple, int, float)):
        # (PyTorch's parser: no overload takes it; it lists them)
        given = {"spacing": spacing} if dim is None else {"spacing": spacing, "dim": dim}
        raise _arguments.no_overload_fits(
            "gradient", (input,), given, TypeError("gradient(): invalid spacing")
        )
    # (the parser's OverflowError for an int no Scalar holds, the first one, before any other
    # check)
    for step in spacing if isinstance(spacing, (list, tuple)) else (spacing,):
        if type(step) is int:
            check_python_int(step)
    ndim = input.dim()
    dims = _dims(dim, ndim)
    given = spacing if isinstance(spacing, (list, tuple)) else None
    _check(input, None if given is None else len(given), dim, dims, edge_order)
    steps = list(given) if given is not None else [spacing] * len(dims)
    results = []
    for axis, step in zip(dims, steps):
        if isinstance(step, TensorBase):
            results.append(_with_coordinates(input, axis, step, edge_order))
        else:
            results.append(_with_spacing(input, axis, step, edge_order))
    return tuple(results)


def _dims(dim: Any, ndim: int) -> list[int]:
    """The dimensions to differentiate along, wrapped (PyTorch's ``dim_list_to_bitset``)."""
    if dim is None:
        return list(range(ndim))
    given = [dim] if isinstance(dim, int) else [operator.index(d) for d in dim]
    wrapped = []
    for d in given:
        if not -max(ndim, 1) <= d < max(ndim, 1):
            raise IndexError(errors.dim_out_of_range(d, ndim))
        axis = d % max(ndim, 1)
        if axis in wrapped:
            raise RuntimeError(errors.dim_repeated(axis))
        wrapped.append(axis)
    return wrapped


def _check(
    input: Any, spacing_size: int | None, dim: Any, dims: Sequence[int], edge_order: int
) -> None:
    """PyTorch's ``pre_check_gradient``, in its order (after its parser's int64 check)."""
    _arguments.check_int64_arguments(edge_order)
    if input._array.dtype == np.uint8:
        raise RuntimeError(errors.GRADIENT_UINT8)
    if spacing_size is not None and dim is None and spacing_size != input.dim():
        raise RuntimeError(errors.gradient_spacing_size(input.dim(), spacing_size))
    if spacing_size is not None and dim is not None and spacing_size != len(dims):
        raise RuntimeError(errors.gradient_spacing_and_dims(spacing_size, len(dims)))
    if edge_order not in (1, 2):
        raise RuntimeError(errors.GRADIENT_EDGE_ORDER)
    for axis in dims:
        if input.shape[axis] < edge_order + 1:
            raise RuntimeError(errors.GRADIENT_DIM_TOO_SMALL)
