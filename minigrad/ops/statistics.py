"""Statistics composed of other ops: ``quantile``, ``nanquantile`` and ``nanmean``.

PyTorch writes them as compositions, so their graphs are chains of ordinary nodes, and so are
minigrad's (the same ops, in the same order):

- ``quantile``: sort the values along the reduced dim (``SortBackward0``, after a
  ``ViewBackward0`` that flattens them or an unsqueeze/transpose that moves the dim last), view
  them as ``reduced shape + (n,)``, gather the values at the ranks below (and above) each
  ``q * (n - 1)`` (``GatherBackward0``), interpolate in place (``lerp_``: ``LerpBackward1``)
  and move the quantiles' dim first with PyTorch's in-place view ops (``squeeze_``:
  ``SqueezeBackward4``; ``unsqueeze_``, ``transpose_``: ``UnsqueezeBackward1``,
  ``TransposeBackward1``). The ranks are tensors made of ``q`` as PyTorch makes them
  (``q * (n - 1)``, ``MulBackward1``; an ``ExpandBackward0`` where they broadcast; the NaN
  rows' ranks filled in, ``MaskedFillBackward0``), so a ``q`` that requires grad gets one
  through the linear interpolation's weights (``ranks - ranks_below``, ``SubBackward0``).
- ``nanmean``: ``nansum / (number of non-NaN values)`` (``DivBackward0`` saving the count).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._dtype import display_name, to_numpy_dtype
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import (
    arithmetic,
    combining,
    comparison,
    fill,
    gather_scatter,
    inplace_views,
    reduction,
    reduction_extra,
    sorting,
    ternary,
    views,
)
from minigrad.ops._helpers import constant_tensor, dtype_name, wrap_dim

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")
# The rounding of the rank each interpolation asks for (linear and midpoint interpolate).
_ROUNDING = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}

# --- quantile -------------------------------------------------------------------------------------


def _checked_q(input: Any, q: Any) -> Any:
    """``q`` as a tensor: a number is checked, then made a 0-d tensor of ``input``'s dtype.

    (PyTorch's ``scalar_tensor(q, self.options())``.)
    """
    if isinstance(q, TensorBase):
        return q
    if isinstance(q, (bool, np.bool_)) or not isinstance(q, (int, float, np.number)):
        raise TypeError("quantile(): q must be a Tensor or a float")  # (the parser's listing)
    if not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {float(q):g}")
    return constant_tensor(np.asarray(q, dtype=input._array.dtype))


def _check(input: Any, q: np.ndarray, dim: int | None) -> None:
    """PyTorch's checks, in its order (after the interpolation's and a number q's)."""
    array = input._array
    if dim is not None:
        wrap_dim(dim, max(array.ndim, 1))
    if array.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if array.dtype not in (np.float32, np.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype != array.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    with np.errstate(invalid="ignore"):
        if not ((q >= 0) & (q <= 1)).all():
            raise RuntimeError("quantile() q values must be in the range [0, 1]")


def _sorted_rows(input: Any, dim: int | None, keepdim: bool) -> Any:
    """The values sorted along the reduced dim, viewed as ``reduced shape + (n,)``."""
    shape = input._array.shape
    ndim = len(shape)
    if dim is None:
        values = sorting.sort(views.flatten(input)).values
    elif wrap_dim(dim, max(ndim, 1)) == ndim - 1:
        values = sorting.sort(input).values
    else:  # (the dim wrapped: a new last dim takes its place)
        moved = views.transpose(views.unsqueeze(input, -1), wrap_dim(dim, max(ndim, 1)), -1)
        values = sorting.sort(moved).values
    if dim is not None and ndim:
        axis = wrap_dim(dim, ndim)
        reduced = [*shape[:axis], *([1] if keepdim else []), *shape[axis + 1 :]]
    else:
        reduced = [1] * ndim if keepdim else []
    return views.view(values, *reduced, values.shape[-1])


def _ranks(rows: Any, q: Any, ignore_nan: bool) -> Any:
    """Each quantile's rank among its row's ``n`` sorted values: ``q * (n - 1)``.

    A tensor of shape ``reduced shape + (number of q,)``, made with PyTorch's ops (``q`` may
    require grad). A row with NaN ranks last (its quantiles are NaN); ``nanquantile`` ranks
    among the values that are not NaN (an all-NaN row: rank 0, NaN again).
    """
    nan = comparison.isnan(rows)
    if ignore_nan:
        count = reduction.sum(comparison.logical_not(nan), -1, True)
        ranks = arithmetic.mul(q, arithmetic.sub(count, 1))
        return fill.masked_fill_(ranks, comparison.lt(ranks, 0), 0)
    last = rows.shape[-1] - 1
    # (C++'s ``q * last_index``: MulBackward1, the tensor-times-number node)
    scaled, any_nan = combining.broadcast_tensors(
        arithmetic.MulScalar.apply(q, last), reduction.any(nan, -1, True)
    )
    return fill.masked_fill(scaled, any_nan, last)


def _quantile(
    input: Any, q: Any, dim: int | None, keepdim: bool, interpolation: str, ignore_nan: bool
) -> Any:
    """``quantile`` and ``nanquantile``: PyTorch's ``quantile_impl``, step by step."""
    q = _checked_q(input, q)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    _check(input, q._array, dim)
    rows = _sorted_rows(input, dim, keepdim)
    ranks = _ranks(rows, q, ignore_nan)
    rank_values = ranks._array
    if interpolation in _ROUNDING:
        rank_values = _ROUNDING[interpolation](rank_values)
    below = rank_values.astype(np.int64)
    values = gather_scatter.gather(rows, -1, constant_tensor(below))
    if interpolation in ("linear", "midpoint"):
        weights = (constant_tensor(np.full_like(rank_values, 0.5)) if interpolation == "midpoint"
                   else arithmetic.sub(ranks, constant_tensor(below)))
        above = np.ceil(rank_values).astype(np.int64)
        values = ternary.lerp_(values, gather_scatter.gather(rows, -1, constant_tensor(above)),
                               weights)
    # (PyTorch's in-place view ops: the same tensor, one more version and node per op)
    if q.ndim > 0:  # the quantiles' dim first
        inplace_views.transpose_(inplace_views.unsqueeze_(values, 0), 0, -1)
    return inplace_views.squeeze_(values, -1)


def quantile(
    input: Any,
    q: Any,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Any:
    """The ``q``-th quantiles of ``input``'s values (all of them, or along ``dim``).

    ``q`` is a number or a 1-D tensor (of ``input``'s float dtype) in ``[0, 1]``; a tensor ``q``
    puts its quantiles in a new first dim. Between two values, ``interpolation`` decides:
    ``"linear"`` (default), ``"lower"``, ``"higher"``, ``"nearest"`` or ``"midpoint"``. A NaN
    among the values makes their quantiles NaN (``nanquantile`` leaves them out). The gradient
    goes to the values picked (split by the interpolation weights) and, with linear
    interpolation, to a ``q`` that requires grad (through the weights), as in PyTorch.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[0.0, 1.0, 2.0, 3.0], [4.0, 6.0, 8.0, 10.0]])
        >>> minigrad.quantile(x, 0.5, dim=1)
        tensor([1.5000, 7.0000])
        >>> x.quantile(minigrad.tensor([0.25, 0.75]), dim=1, interpolation="lower")
        tensor([[0., 4.],
                [2., 8.]])
    """
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(
    input: Any,
    q: Any,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Any:
    """``quantile`` of the values that are not NaN (NaN where all of them are).

    Example:
        >>> import minigrad
        >>> minigrad.nanquantile(minigrad.tensor([float("nan"), 1.0, 2.0]), 0.5)
        tensor(1.5000)
    """
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


# --- nanmean ------------------------------------------------------------------------------------


def nanmean(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The mean of the values that are not NaN, of all or over ``dim`` (an int or a tuple).

    ``nansum(input, dim, keepdim, dtype=dtype) / count``, as PyTorch computes it: NaN where every
    value is NaN. Floating-point inputs (and dtypes) only.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0, float("nan")], [2.0, 4.0]])
        >>> minigrad.nanmean(x)
        tensor(2.3333)
        >>> x.nanmean(dim=1)
        tensor([1., 3.])
    """
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {dtype_name(array)}")
    if dtype is not None and to_numpy_dtype(dtype, "nanmean").kind != "f":
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           "either a floating point or complex dtype. Got: "
                           f"{display_name(to_numpy_dtype(dtype, 'nanmean'))}")
    axes = reduction.reduced_dims(dim, array.ndim)  # (as nansum's: () is every dim)
    count = (~np.isnan(array)).sum(axis=axes, keepdims=keepdim)
    total = reduction_extra.nansum(input, dim, keepdim, dtype=dtype)
    return arithmetic.div(total, constant_tensor(np.asarray(count, dtype=np.int64)))


__all__ = ["nanmean", "nanquantile", "quantile"]
