"""Counting: ``bincount`` and ``histc``. Counts have no gradient.

``histc`` reproduces PyTorch's binning arithmetic exactly (in the input's dtype, truncating
``(x - min) * bins / (max - min)``), so values next to a bin edge land in the same bin as there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_int64
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    constant_tensor,
    not_implemented_name,
)


def _type_error(function: str, name: str, expected: str, value: Any) -> TypeError:
    return TypeError(
        errors.wrong_argument_type(function, name, expected, errors.python_type_name(value))
    )


class WeightedBincount(Op):
    """counts[i] = sum of weights where input == i.  PyTorch has no derivative for it.

    Recorded when the weights require grad, as PyTorch's ``torch::autograd::NotImplemented``
    node (whose only edge leads to the weights); its backward raises. Saves nothing.
    """

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, weights: np.ndarray, indices: np.ndarray, length: int) -> np.ndarray:
        # Integer and bool weights count in float64, as in PyTorch.
        dtype = weights.dtype if weights.dtype in (np.float32, np.float64) else np.float64
        return np.bincount(indices, weights.astype(np.float64), length).astype(dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::bincount"))


WeightedBincount._Node.name = not_implemented_name  # type: ignore[method-assign]


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Any:
    """How often each value ``0 .. max(input)`` occurs in a 1-D tensor of non-negative ints.

    With ``weights`` (one per element), their sums instead of counts (float64 unless the weights
    are float32). The result has at least ``minlength`` bins.

    Example:
        >>> import minigrad
        >>> minigrad.bincount(minigrad.tensor([0, 1, 1, 3]))
        tensor([1, 2, 0, 1])
        >>> minigrad.bincount(minigrad.tensor([0, 1, 1]), weights=minigrad.tensor([0.5, 1., 2.]))
        tensor([0.5000, 3.0000])
    """
    if not isinstance(input, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            "bincount", "input", "Tensor", errors.python_type_name(input), 1
        ))
    if weights is not None and not isinstance(weights, TensorBase):
        raise _type_error("bincount", "weights", "Tensor", weights)
    if not isinstance(minlength, (int, np.integer)) or isinstance(minlength, bool):
        raise _type_error("bincount", "minlength", "int", minlength)
    indices = input._array
    if indices.dtype.kind not in "iu":
        raise NotImplementedError(
            errors.not_implemented_for("bincount_cpu", display_name(indices.dtype))
        )
    if minlength < 0:
        raise RuntimeError(errors.BINCOUNT_NEGATIVE_MINLENGTH)
    if indices.ndim != 1 or (indices.size and indices.min() < 0):  # (checked before the weights)
        raise RuntimeError(errors.BINCOUNT_INPUT)
    if indices.size == 0:  # PyTorch ignores the weights then: int64 zeros, no history
        return constant_tensor(np.zeros(minlength, dtype=np.int64))
    if weights is not None and (weights._array.ndim != 1 or len(weights._array) != len(indices)):
        raise RuntimeError(errors.BINCOUNT_WEIGHTS)
    length = max(int(minlength), int(indices.max()) + 1)
    if weights is None:
        return constant_tensor(np.bincount(indices, minlength=length).astype(np.int64))
    return WeightedBincount.apply(weights, indices, length)


def _format_double(value: float) -> str:
    """A double as PyTorch's C++ messages print it (``1``, ``0.5``, ``inf``, ``-nan``)."""
    if np.isnan(value):
        return "-nan" if np.signbit(value) else "nan"
    return f"{value:g}"


def _number(name: str, value: Any) -> float:
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise _type_error("histc", name, "Number", value)
    return float(value)


def histc(input: Any, bins: int = 100, min: Any = 0, max: Any = 0) -> Any:
    """A histogram of ``input``'s values in ``bins`` equal-width bins over ``[min, max]``.

    If ``min`` and ``max`` are equal (the default), the data's own range is used. Values outside
    the range are ignored; the last bin includes its right edge. Floating-point input only; the
    counts have its dtype.

    Example:
        >>> import minigrad
        >>> minigrad.histc(minigrad.tensor([1.0, 2.0, 1.0, 4.0, 2.5]), bins=4, min=0, max=3)
        tensor([0., 2., 1., 1.])
    """
    if not isinstance(input, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            "histc", "input", "Tensor", errors.python_type_name(input), 1
        ))
    if not isinstance(bins, (int, np.integer)) or isinstance(bins, bool):
        raise _type_error("histc", "bins", "int", bins)
    check_int64(bins)  # (past int64, the parser's error comes first)
    low, high = _number("min", min), _number("max", max)
    x = input._array
    if bins <= 0:
        raise RuntimeError(errors.histogram_bins(bins))
    if low == high and x.size:
        low, high = float(x.min()), float(x.max())
        if np.isnan(low):
            low = high = -np.nan  # PyTorch's aminmax hands back a NaN with its sign bit set
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(
            errors.histc_range_not_finite(_format_double(low), _format_double(high))
        )
    if not low < high:
        raise RuntimeError(errors.HISTC_MAX_NOT_LARGER)
    if x.dtype.kind != "f":
        kernel = "linspace_cpu" if x.dtype == np.bool_ else "histogram_cpu"
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(x.dtype)))
    # PyTorch's arithmetic, step by step in the input's dtype (histc's LINEAR_INTERPOLATION).
    scalar = x.dtype.type
    left, right = scalar(low), scalar(high)
    values = x.reshape(-1)
    values = values[(values >= left) & (values <= right)]  # (NaN fails both)
    with np.errstate(over="ignore"):
        positions = ((values - left) * scalar(bins) / (right - left)).astype(np.int64)
    positions[positions == bins] = bins - 1  # the last bin includes its right edge
    return constant_tensor(np.bincount(positions, minlength=bins).astype(x.dtype))


__all__ = ["bincount", "histc"]
