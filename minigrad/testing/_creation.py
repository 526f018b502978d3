"""``make_tensor``: a random tensor of a given shape and dtype for tests, as PyTorch makes one.

The ranges, the checks on ``low``/``high`` and their messages, the non-contiguous layout and
``exclude_zero`` are PyTorch's; the values come from minigrad's generator (numpy's PCG64), so a
seed gives other numbers than in PyTorch (see docs/api.md, "Random numbers").
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import minigrad
from minigrad._dtype import bool_, int8, int16, int32, int64, uint8

_INTEGRAL_OR_BOOL = (bool_, uint8, int8, int16, int32, int64)


def _bounds(
    low: Any,
    high: Any,
    dtype: Any,
    *,
    lowest: float,
    highest: float,
    default_low: float,
    default_high: float,
) -> tuple[Any, Any]:
    """``low`` and ``high`` (or the defaults), checked and clamped into ``[lowest, highest)``.

    Integer and bool bounds are rounded up (``high`` too: randint's high is exclusive).
    """
    low = default_low if low is None else low
    high = default_high if high is None else high
    floating = dtype.is_floating_point
    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
    if low == high and floating:
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
            "is deprecated since 2.1 and will be removed in 2.3. "
            "Use `torch.full(...)` instead.".replace("torch.", "minigrad."),
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), "
            f"but {dtype} only supports [{lowest}, {highest})"
        )
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype is minigrad.bool or not floating:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(
    *shape: int | Sequence[int],
    dtype: Any,
    device: Any,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Any:
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)``, for tests.

    The default range: bool [0, 2), uint8 [0, 10), signed integers [-9, 10), floats [-9, 9);
    ``low``/``high`` beyond the dtype's finite range are clamped to it. ``noncontiguous=True``
    gives a strided view (for tensors of two elements or more); ``exclude_zero=True`` replaces
    zeros by 1 (integers, bool) or the dtype's smallest normal number (floats). The values are
    minigrad's random stream, not PyTorch's.

    Example:
        >>> import minigrad
        >>> from minigrad.testing import make_tensor
        >>> t = make_tensor(2, 3, dtype=minigrad.float32, device="cpu", low=-1, high=1)
        >>> t.shape, bool(((t >= -1) & (t < 1)).all())
        (minigrad.Size([2, 3]), True)
        >>> make_tensor((4,), dtype=minigrad.int64, device="cpu", noncontiguous=True).stride()
        (2,)
    """
    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = shape[0]  # type: ignore[assignment]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            "The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got {noncontiguous=} and {memory_format=}"
        )
    integral = dtype in _INTEGRAL_OR_BOOL
    if requires_grad and integral:
        raise ValueError(
            "`requires_grad=True` is not supported for boolean and integral dtypes, "
            f"but got {dtype=}"
        )
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice as many columns: the view takes every other one
        shape = (*shape[:-1], 2 * shape[-1])

    if dtype is minigrad.bool:
        low, high = _bounds(low, high, dtype, lowest=0, highest=2, default_low=0, default_high=2)
        result = minigrad.randint(low, high, shape, device=device, dtype=dtype)
    elif integral:
        info = minigrad.iinfo(dtype)
        # (randint draws below an int64 high: int64's largest value cannot be drawn)
        highest = info.max + (1 if dtype is not minigrad.int64 else 0)
        low, high = _bounds(
            low, high, dtype, lowest=info.min, highest=highest, default_low=-9, default_high=10
        )
        result = minigrad.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in (minigrad.float16, minigrad.float32, minigrad.float64):
        info = minigrad.finfo(dtype)
        low, high = _bounds(
            low, high, dtype, lowest=info.min, highest=info.max, default_low=-9, default_high=9
        )
        result = minigrad.empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:  # (the width would overflow: draw half of it, then double)
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by minigrad.testing.make_tensor()."
            " To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
        )

    if noncontiguous:
        result = result[..., 1::2]  # (offset by one: catches offset bugs too)
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if integral else minigrad.finfo(dtype).tiny
    if not integral:
        result.requires_grad = requires_grad
    return result

