"""Searching sorted sequences and testing membership: ``searchsorted``, ``bucketize``, ``isin``.

Their results are positions (int64, or int32 with ``out_int32``) or booleans, so they have no
gradient and record nothing, whatever their inputs require (as in PyTorch).

``searchsorted`` is PyTorch's binary search, run for all values at once: each step halves
every value's interval ``[lo, hi)`` by the comparison ``mid_value >= value`` (``>`` for the
right side), written negated as PyTorch's kernel does, so that NaN (for which every comparison
is False) lands where PyTorch puts it rather than where numpy's NaN-last ``searchsorted``
would.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _warnings
from minigrad._dtype import check_scalar_arguments
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import compute_dtype, constant_tensor, dtype_name, not_implemented

_NUMBERS = (bool, int, float, np.number, np.bool_)
_NON_CONTIGUOUS = (
    "minigrad.searchsorted(): {what} tensor is non-contiguous, this will lower the performance "
    "due to extra data copy when converting non-contiguous tensor to contiguous, please use "
    "contiguous {what} tensor if possible. This message will only appear once per program."
)


def _tensor_or_number(value: Any, function: str) -> Any:
    """``value`` if it is a tensor or a number; the TypeError the parser rewords otherwise."""
    if not isinstance(value, (TensorBase, *_NUMBERS)):
        raise TypeError(f"{function}(): expected a Tensor or a Number")
    return value


def _tensor(value: Any, function: str) -> TensorBase:
    """``value`` if it is a tensor; the TypeError the parser rewords otherwise."""
    if not isinstance(value, TensorBase):
        raise TypeError(f"{function}(): expected a Tensor")
    return value


def _as_compared(value: Any, dtype: np.dtype | None) -> np.ndarray:
    """The array of a tensor or a number, in the dtype both sides are compared in.

    A number wraps into an integer dtype as PyTorch's wrapped numbers do (-1 is 255 in uint8),
    one past a float dtype's range becomes inf, silently.
    """
    array = value._array if isinstance(value, TensorBase) else np.asarray(value)
    if dtype is None or array.dtype == dtype:
        return array
    with np.errstate(over="ignore"):
        return array.astype(dtype)


def _check_options(right: bool, side: str | None) -> bool:
    """Whether to search from the right (``side`` wins, but may not contradict ``right``)."""
    if side is None:
        return right
    if side not in ("left", "right"):
        raise RuntimeError(
            f"minigrad.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if right and side != "right":
        raise RuntimeError("minigrad.searchsorted(): side and right can't be set to opposites, got "
                           f"side of {side} while right was True")
    return side == "right"


def _check_sorter(sorter: np.ndarray, boundaries: np.ndarray) -> None:
    if sorter.shape != boundaries.shape:
        raise RuntimeError(
            "minigrad.searchsorted(): boundary and sorter must have the same size, but got "
            f"boundary tensor {list(boundaries.shape)}and got sorter tensor {list(sorter.shape)}")
    if sorter.dtype != np.int64:
        raise RuntimeError("minigrad.searchsorted(): sorter must be a tensor of long dtype but got "
                           f"dtype {dtype_name(sorter)}")
    if sorter.size and (sorter.max() >= sorter.shape[-1] or sorter.min() < 0):
        raise RuntimeError("minigrad.searchsorted(): sorter index out of range")


def _check_shapes(boundaries: np.ndarray, values: np.ndarray) -> None:
    if values.ndim == 0 and boundaries.ndim != 1:
        raise RuntimeError(
            "minigrad.searchsorted(): input value can be a scalar only when boundaries tensor "
            f"dimension is 1, but we got boundaries tensor dim({boundaries.ndim}) and input "
            f"value's dim(0) numel(1)")
    if boundaries.ndim == 0:
        raise RuntimeError("minigrad.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if boundaries.ndim != 1 and (
        boundaries.ndim != values.ndim or boundaries.shape[:-1] != values.shape[:-1]
    ):
        raise RuntimeError(
            "minigrad.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(boundaries.shape)} and input value tensor "
            f"{list(values.shape)}")


def _warn_non_contiguous(**tensors: Any) -> None:
    """PyTorch's once-per-program warnings about inputs it copies to make them contiguous."""
    for what, tensor in tensors.items():
        if isinstance(tensor, TensorBase) and not tensor.is_contiguous():
            _warnings.warn_once(_NON_CONTIGUOUS.format(what=what), stacklevel=3)


def _binary_search(
    boundaries: np.ndarray, values: np.ndarray, right: bool, sorter: np.ndarray | None
) -> np.ndarray:
    """Each value's insertion point in its row of ``boundaries`` (the last dimension).

    PyTorch's ``cus_lower_bound``/``cus_upper_bound``, one step for all values at a time.
    """
    length = boundaries.shape[-1]
    rows = boundaries.reshape(-1, length)
    wanted = values.reshape(rows.shape[0], -1)
    order = None if sorter is None else sorter.reshape(rows.shape)
    row = np.arange(rows.shape[0])[:, None]
    low = np.zeros(wanted.shape, dtype=np.int64)
    high = np.full(wanted.shape, length, dtype=np.int64)
    active = low < high
    while active.any():
        middle = low + ((high - low) >> 1)
        at = np.minimum(middle, length - 1)  # (finished values look anywhere: not used)
        if order is not None:
            at = order[row, at]
        middle_values = rows[row, at]
        with np.errstate(invalid="ignore"):
            before = ~(middle_values > wanted) if right else ~(middle_values >= wanted)
        low = np.where(active & before, middle + 1, low)
        high = np.where(active & ~before, middle, high)
        active = low < high
    return low.reshape(values.shape)


def searchsorted(
    sorted_sequence: Any,
    input: Any,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Any = None,
) -> Any:
    """Where each value of ``input`` would be inserted into ``sorted_sequence`` to keep order.

    A 1-D ``sorted_sequence`` serves every value; an N-D one holds one sorted row per row of
    ``input`` (their first N-1 dims match). ``right=True`` (or ``side="right"``) gives the
    last such position instead of the first; ``sorter`` (int64 indices) sorts an unsorted
    sequence, as ``argsort`` would. ``input`` may be a number. int64 positions, int32 with
    ``out_int32``; no gradient.

    Example:
        >>> import minigrad
        >>> s = minigrad.tensor([1, 3, 5, 7, 9])
        >>> minigrad.searchsorted(s, minigrad.tensor([3, 6, 9]))
        tensor([1, 3, 4])
        >>> minigrad.searchsorted(s, minigrad.tensor([3, 6, 9]), right=True)
        tensor([2, 3, 5])
        >>> minigrad.searchsorted(s, 4, out_int32=True)
        tensor(2, dtype=minigrad.int32)
    """
    boundaries = _tensor(sorted_sequence, "searchsorted")._array
    _tensor_or_number(input, "searchsorted")
    if sorter is not None:
        _tensor(sorter, "searchsorted")
    is_right = _check_options(right, side)
    if sorter is not None:
        _check_sorter(sorter._array, boundaries)
    values = input._array if isinstance(input, TensorBase) else np.asarray(input)
    _check_shapes(boundaries, values)
    result_dtype = np.dtype(np.int32 if out_int32 else np.int64)
    if values.size == 0 or boundaries.shape[-1] == 0:  # (nothing to search, or in)
        return constant_tensor(np.zeros(values.shape, dtype=result_dtype))
    _warn_non_contiguous(**{"input value": input, "boundary": sorted_sequence,
                            "sorter": sorter})
    dtype = compute_dtype(sorted_sequence, input)
    if (dtype or values.dtype).kind not in "iuf":
        raise not_implemented("searchsorted_out_cpu", _as_compared(input, dtype))
    positions = _binary_search(_as_compared(sorted_sequence, dtype), _as_compared(input, dtype),
                               is_right, None if sorter is None else sorter._array)
    return constant_tensor(positions.astype(result_dtype))


def bucketize(
    input: Any, boundaries: Any, *, out_int32: bool = False, right: bool = False
) -> Any:
    """The bucket of each value of ``input`` among the sorted 1-D ``boundaries``.

    ``searchsorted(boundaries, input, right=right)``: with ``right=False`` a value equal to a
    boundary goes into the bucket it starts (``boundaries[i-1] < x <= boundaries[i]``), with
    ``right=True`` into the next one. int64 indices, int32 with ``out_int32``; no gradient.

    Example:
        >>> import minigrad
        >>> b = minigrad.tensor([1, 3, 5, 7, 9])
        >>> minigrad.bucketize(minigrad.tensor([[3, 6, 9], [3, 6, 9]]), b)
        tensor([[1, 3, 4],
                [1, 3, 4]])
        >>> minigrad.bucketize(minigrad.tensor([3, 6, 9]), b, right=True)
        tensor([2, 3, 5])
    """
    check_scalar_arguments(input)  # (the parser's error comes first)
    _tensor_or_number(input, "bucketize")
    dims = _tensor(boundaries, "bucketize").dim()
    if dims != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({dims})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def _isin_dtype_name(value: Any) -> str | None:
    """The dtype name isin refuses (bool, complex) for a tensor or a number, else None."""
    if isinstance(value, TensorBase):
        kind = value._array.dtype.kind
        return dtype_name(value._array) if kind in "bc" else None
    if isinstance(value, (bool, np.bool_)):
        return "Bool"
    return "ComplexDouble" if isinstance(value, complex) else None


def isin(
    elements: Any,
    test_elements: Any,
    *,
    assume_unique: bool = False,
    invert: bool = False,
) -> Any:
    """Whether each element of ``elements`` is among ``test_elements`` (a bool tensor).

    Either may be a number (not both); values are compared in their promoted dtype, and NaN
    is in nothing. ``invert=True`` asks "not in" instead; ``assume_unique`` is accepted (it
    only lets PyTorch skip work). No gradient.

    Example:
        >>> import minigrad
        >>> minigrad.isin(minigrad.tensor([[1, 2], [3, 4]]), minigrad.tensor([2, 3]))
        tensor([[False,  True],
                [ True, False]])
        >>> minigrad.isin(3, minigrad.tensor([1, 3]), invert=True)
        tensor(False)
    """
    check_scalar_arguments(elements, test_elements)  # (the parser's error comes first)
    for value in (elements, test_elements):
        name = _isin_dtype_name(value)
        if name is not None:
            raise RuntimeError(f"Unsupported input type encountered for isin(): {name}")
    dtype = compute_dtype(elements, test_elements)
    wanted = _as_compared(elements, dtype)
    # Sorted test values, each element looked up by a binary search: equality decides, so
    # NaN matches nothing and -0.0 matches 0.0.
    pool = np.sort(_as_compared(test_elements, dtype).reshape(-1))
    if pool.size:
        at = np.minimum(np.searchsorted(pool, wanted), pool.size - 1)
        found = pool[at] == wanted
    else:
        found = np.zeros(wanted.shape, dtype=bool)
    return constant_tensor(found != invert)


__all__ = ["bucketize", "isin", "searchsorted"]
