"""``median`` and ``nanmedian``: the lower of the two middle values, with PyTorch's index choice.

Without ``dim`` they are ``Max``'s kind of reduction (``reduction.Extreme``): the node saves the
input and the result, and the elements equal to the median share its gradient evenly
(MedianBackward0, NanmedianBackward0). Over ``dim`` they are ``max(dim)``'s kind
(``reduction.ExtremeDim``): ``(values, indices)``, the node saves the indices and the gradient
goes to them (MedianBackward1, NanmedianBackward1).

PyTorch's CPU kernel picks the index with ``std::nth_element`` under the order "smaller value,
or equal value and smaller index": a total order, so the index is that of position
``(n - 1) // 2`` of a stable sort. ``median`` returns the first NaN of a slice that has one;
``nanmedian`` takes the median of the values that are not NaN (NaN if there is none).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.ops._helpers import operand, wrap_dim
from minigrad.ops.reduction import Extreme, ExtremeDim, _check_nonempty
from minigrad.ops.return_types import return_types
from minigrad.ops.sorting import _nth_element


def _lower_median(x: np.ndarray, ignore_nan: bool) -> np.ndarray:
    """The lower median of all of ``x`` (NaN if ``x`` is empty, or has a NaN and not ignored)."""
    values = x.reshape(-1)
    if ignore_nan and values.dtype.kind == "f":
        values = values[~np.isnan(values)]
    if values.size == 0 or (values.dtype.kind == "f" and np.isnan(values).any()):
        # (an empty integer tensor gives NaN cast to its dtype, as PyTorch's does)
        with np.errstate(invalid="ignore"):
            return np.asarray(np.nan).astype(x.dtype)
    middle = (values.size - 1) // 2
    median = np.partition(values, middle)[middle].copy()
    if median == 0 and values.dtype.kind == "f":
        zeros = np.signbit(values[values == 0])
        if zeros.any() and not zeros.all():
            flat = x.reshape(-1).tolist()  # (NaNs too: the kernel runs on them all)
            return np.asarray(_stl_median(flat, ignore_nan), dtype=values.dtype)
    return median


def _stl_median(values: list[float], ignore_nan: bool) -> float:
    """The median PyTorch's kernel leaves, where it is a zero of either sign in ``values``.

    Which zero lands at the middle is an accident of ``std::nth_element`` (under ``<``; with
    NaN last for nanmedian), replayed here: only for such a tie, the rare case.
    """
    if ignore_nan:
        def comp(a: float, b: float) -> bool:
            """``a < b`` with NaN last."""
            return a < b or (b != b and a == a)
        middle = (len(values) - sum(v != v for v in values) - 1) // 2
    else:
        def comp(a: float, b: float) -> bool:
            """``a < b``."""
            return a < b
        middle = (len(values) - 1) // 2
    _nth_element(values, 0, middle, len(values), comp)
    return values[middle]


def _median_indices(x: np.ndarray, axis: int, ignore_nan: bool) -> np.ndarray:
    """The index of each slice's lower median along ``axis`` (kept as a size-1 axis)."""
    order = np.argsort(x, axis=axis, kind="stable")  # (NaN last; equal values by index)
    size = x.shape[axis]
    if x.dtype.kind != "f":
        return np.take(order, [(size - 1) // 2], axis=axis)
    nans = np.isnan(x)
    if not ignore_nan:
        middle = np.take(order, [(size - 1) // 2], axis=axis)
        first_nan = np.argmax(nans, axis=axis, keepdims=True)
        return np.where(nans.any(axis=axis, keepdims=True), first_nan, middle)
    counts = size - nans.sum(axis=axis, keepdims=True)
    picked = np.take_along_axis(order, np.maximum(counts - 1, 0) // 2, axis=axis)
    if (counts == 0).any():
        all_nan = np.moveaxis(picked, axis, -1)
        for place in zip(*np.nonzero(np.moveaxis(counts, axis, -1) == 0)):
            all_nan[place] = _all_nan_index(size)
    return picked


def _all_nan_index(size: int) -> int:
    """The index PyTorch's nanmedian returns for a slice of NaNs only.

    ``std::nth_element`` for position 0 under an order in which no NaN is less than another:
    the index it leaves there is an accident of libstdc++'s algorithm, replayed here.
    """
    indices = list(range(size))
    _nth_element(indices, 0, 0, size, lambda a, b: False)
    return indices[0]


class Median(Extreme):
    """y = the lower median of all elements;  dx = grad shared by the elements equal to y.

    A NaN anywhere makes y NaN (the NaNs then share the gradient). Saves input and result.
    """

    pick = staticmethod(lambda x: _lower_median(x, ignore_nan=False))


class Nanmedian(Extreme):
    """y = the lower median of the elements that are not NaN;  dx = grad shared by its ties.

    Saves input and result.
    """

    pick = staticmethod(lambda x: _lower_median(x, ignore_nan=True))


class MedianDim(ExtremeDim):
    """(values, indices) = the lower median over ``dim``;  dx = grad at its index, 0 else."""

    node_name = "MedianBackward1"
    pick = staticmethod(lambda x, axis, keepdims: _median_indices(x, axis, ignore_nan=False))


class NanmedianDim(ExtremeDim):
    """(values, indices) = nanmedian over ``dim``;  dx = grad at its index, 0 else."""

    node_name = "NanmedianBackward1"
    pick = staticmethod(lambda x, axis, keepdims: _median_indices(x, axis, ignore_nan=True))


def _median(input: Any, dim: Any, keepdim: bool, name: str) -> Any:
    array = operand(input)
    # (the dim is checked first, the dtype by the kernel after it)
    axis = None if dim is _arguments.NOT_GIVEN else wrap_dim(dim, array.ndim)
    if array.dtype.kind in "bc":
        kernel = "median_cpu" if dim is _arguments.NOT_GIVEN else "median_out"
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(array.dtype)))
    ignore_nan = name == "nanmedian"
    if axis is None:
        return (Nanmedian if ignore_nan else Median).apply(input)
    _check_nonempty(array, (axis,), "median")
    values, indices = (NanmedianDim if ignore_nan else MedianDim).apply(input, axis, keepdim, dim)
    return getattr(return_types, name)(values, indices)


def median(input: Any, dim: int = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
    """The lower of the two middle values; ``(values, indices)`` over ``dim``.

    A NaN makes the median NaN. Over ``dim``, equal values give the index of the stable sort's
    middle position (PyTorch's CPU choice).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([4.0, 1.0, 3.0, 2.0]).median()
        tensor(2.)
        >>> minigrad.tensor([[1.0, 5.0, 3.0], [2.0, 2.0, 2.0]]).median(dim=1).indices
        tensor([2, 1])
    """
    return _median(input, dim, keepdim, "median")


def nanmedian(input: Any, dim: int = _arguments.NOT_GIVEN, keepdim: bool = False) -> Any:
    """``median`` of the values that are not NaN (NaN where there is none).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian()
        tensor(2.)
    """
    return _median(input, dim, keepdim, "nanmedian")

