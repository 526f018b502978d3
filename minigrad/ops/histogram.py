"""Counting: ``bincount``, ``histc``, ``histogram`` and ``histogramdd``. Counts have no gradient.

``histc`` reproduces PyTorch's binning arithmetic exactly (in the input's dtype, truncating
``(x - min) * bins / (max - min)``), so values next to a bin edge land in the same bin as there.
``histogram`` and ``histogramdd`` return their bin edges too: equal-width edges are PyTorch's
``linspace`` values (``_edges``), and a value goes to the bin those edges say it is in (the
division's guess, checked against the neighbouring edges), so the counts and the edges agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._arguments import check_int64
from minigrad._dtype import check_scalar_arguments, display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    NOT_IMPLEMENTED,
    constant_tensor,
)
from minigrad.ops.fused import fused_multiply_add
from minigrad.ops.return_types import return_types


def _type_error(function: str, name: str, expected: str, value: Any) -> TypeError:
    return TypeError(
        errors.wrong_argument_type(function, name, expected, errors.python_type_name(value))
    )


class WeightedBincount(Op):
    """counts[i] = sum of weights where input == i.  PyTorch has no derivative for it.

    Recorded when the weights require grad, as PyTorch's ``torch::autograd::NotImplemented``
    node (whose only edge leads to the weights); its backward raises. Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED

    @staticmethod
    def forward(ctx: Any, weights: np.ndarray, indices: np.ndarray, length: int) -> np.ndarray:
        # Integer and bool weights count in float64, as in PyTorch.
        dtype = weights.dtype if weights.dtype in (np.float32, np.float64) else np.float64
        return np.bincount(indices, weights.astype(np.float64), length).astype(dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::bincount"))




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
    check_int64(minlength)  # (the parser's error comes first)
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
    # (past int64 or uint64, the parser's errors come first, the last argument's first)
    check_scalar_arguments(min, max)
    check_int64(bins)
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


# --- histogram, histogramdd ---------------------------------------------------------------------


def _edges(low: float, high: float, count: int, dtype: np.dtype) -> np.ndarray:
    """PyTorch's ``linspace(low, high, count)`` in ``dtype``, to the last bit.

    The first half counts up from ``low``, the second down from ``high``, each point one
    fused multiply-add ``start + step * i`` (as ATen's compiled loop computes it). float32 and
    float16 products are exact in float64, where one rounding to ``dtype`` finishes the job.
    """
    if dtype.kind != "f":  # (an integer input, which the kernel then refuses)
        return np.linspace(low, high, count).astype(dtype)
    start, end = dtype.type(low), dtype.type(high)
    step = (end - start) / dtype.type(count - 1) if count > 1 else dtype.type(0)
    index = np.arange(count, dtype=np.float64)
    up = index < count // 2
    wide = [np.float64(value) for value in (start, end, step)]
    with np.errstate(all="ignore"):
        if dtype == np.float64:
            down = count - 1 - index
            values = np.where(up, fused_multiply_add(wide[2], index, wide[0], np.float64),
                              fused_multiply_add(-wide[2], down, wide[1], np.float64))
        else:
            values = np.where(up, wide[0] + wide[2] * index,
                              wide[1] - wide[2] * (count - 1 - index))
    return values.astype(dtype)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _outer_edges(points: np.ndarray, range: Any) -> list[tuple[float, float]]:
    """Each dimension's outermost edges: ``range``'s, else the data's extremes (PyTorch's order).

    Empty data spans [0, 1]; a single value v, [v - 0.5, v + 0.5] (NumPy's choices).
    """
    dims = points.shape[1]
    if range is not None:
        bounds = [float(value) for value in range]
        if len(bounds) != 2 * dims:
            raise RuntimeError(
                f"torch.histogramdd: for a {dims}-dimensional histogram range should have "
                f"{2 * dims} elements, but got {len(bounds)}"
            )
        outer = [(bounds[2 * d], bounds[2 * d + 1]) for d in builtins_range(dims)]
    elif points.shape[0] > 0:
        if points.dtype.kind != "f" or points.dtype == np.float16:
            raise NotImplementedError(
                errors.not_implemented_for("histogramdd", display_name(points.dtype))
            )
        low, high = points.min(axis=0), points.max(axis=0)  # (NaN wins, as in aminmax)
        outer = [(float(low[d]), float(high[d])) for d in builtins_range(dims)]
    else:
        outer = [(0.0, 1.0)] * dims
    for d, (low, high) in enumerate(outer):
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(
                f"torch.histogramdd: dimension {d}'s range [{_format_double(low)}, "
                f"{_format_double(high)}] is not finite"
            )
        if low > high:
            raise RuntimeError(
                "torch.histogramdd: min should not exceed max, but got min "
                f"{_format_double(low)} max {_format_double(high)} for dimension {d}"
            )
    return [(low - 0.5, high + 0.5) if low == high else (low, high) for low, high in outer]


builtins_range = range  # (``range`` is PyTorch's name for a parameter here)


def _check_bins_and_weight(points: np.ndarray, shape: tuple[int, ...], edges: list[np.ndarray],
                           weight: np.ndarray | None) -> None:
    """PyTorch's checks of the bin edges and the weight (``shape``: the points' as given)."""
    dims = points.shape[1]
    if len(edges) != dims:
        raise RuntimeError(
            f"torch.histogramdd: expected {dims} sequences of bin edges for a {dims}-dimensional "
            f"histogram but got {len(edges)}"
        )
    names = errors.CPP_TYPE_NAMES
    for d, edge in enumerate(edges):
        if edge.dtype != points.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                f"but got input with dtype {names[points.dtype.name]} and bins for dimension {d} "
                f"with dtype {names[edge.dtype.name]}"
            )
        if edge.ndim != 1:
            raise RuntimeError(
                "torch.histogramdd: bins tensor should have one dimension, but got "
                f"{edge.ndim} dimensions in the bins tensor for dimension {d}"
            )
        if edge.size == 0:
            raise RuntimeError(
                "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                f"elements in the bins tensor for dimension {d}"
            )
    if weight is None:
        return
    if weight.dtype != points.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
            f"should have the same dtype, but got input({names[points.dtype.name]}), and "
            f"weight({names[weight.dtype.name]})"
        )
    if tuple(shape[:-1]) != (tuple(weight.shape) or (1,)):
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as "
            "the input tensor excluding its innermost dimension, but got input with shape "
            f"{_shape_text(shape)} and weight with shape {_shape_text(weight.shape)}"
        )


def _check_bin_counts(counts: list[int]) -> None:
    for d, count in enumerate(counts):
        if count <= 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {count} for dimension {d}"
            )


def _counts(points: np.ndarray, edges: list[np.ndarray], weight: np.ndarray | None,
            density: bool, equal_width: bool) -> np.ndarray:
    """The histogram of ``points`` (M, N) over ``edges`` (one increasing array a dimension).

    A point outside the edges (or NaN) is not counted; each bin holds its left edge, the last
    its right one too. With ``equal_width`` the bin is guessed by division, then settled by the
    edges around the guess (PyTorch's local search); otherwise found by binary search.
    """
    if points.dtype.kind != "f":
        raise NotImplementedError(
            errors.not_implemented_for("histogram_cpu", display_name(points.dtype))
        )
    dtype = points.dtype
    hist = np.zeros(tuple(len(edge) - 1 for edge in edges), dtype=dtype)
    if points.shape[1] == 0:
        return hist
    keep = np.ones(points.shape[0], dtype=bool)
    positions = []
    with np.errstate(all="ignore"):
        for d, edge in enumerate(edges):
            values = points[:, d]
            keep &= (values >= edge[0]) & (values <= edge[-1])
            if equal_width:
                guess = ((values - edge[0]) * dtype.type(len(edge) - 1)
                         / (edge[-1] - edge[0]))
                guess = np.where(keep, guess, 0).astype(np.int64)
                low = np.maximum(guess - 1, 0)
                # The edges in [guess - 1, guess + 2) decide: count those <= value.
                position = low - 1
                for offset in builtins_range(3):
                    index = np.minimum(low + offset, len(edge) - 1)
                    inside = (low + offset < np.minimum(guess + 2, len(edge)))
                    position = position + (inside & (edge[index] <= values))
            else:
                position = np.searchsorted(edge, values, side="right") - 1
            positions.append(np.minimum(position, len(edge) - 2))  # (the last bin is closed)
    where = tuple(position[keep] for position in positions)
    weights = np.ones(int(keep.sum()), dtype=dtype) if weight is None else weight[keep]
    np.add.at(hist, where, weights)
    if density:
        with np.errstate(all="ignore"):
            hist = hist / dtype.type(hist.sum(dtype=np.float64))
            for d, edge in enumerate(edges):
                shape = [1] * len(edges)
                shape[d] = len(edge) - 1
                hist = hist / np.diff(edge).reshape(shape)
    return hist.astype(dtype)


class Histogram(Op):
    """(hist, bin_edges) of ``input``: PyTorch has no derivative for it.

    Recorded when the input or the weight (or tensor bins) requires grad, as PyTorch's
    ``torch::autograd::NotImplemented`` node, both results its outputs; its backward raises.
    Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, input: np.ndarray, bins: Any, weight: Any, count: int, range: Any,
                density: bool) -> tuple[np.ndarray, np.ndarray]:
        points = input.reshape(-1, 1)
        flat_weight = None if weight is None else weight.reshape(-1)
        if bins is None:  # ``count`` equal-width bins
            _check_bin_counts([count])
            ((low, high),) = _outer_edges(points, range)
            edges = _edges(low, high, count + 1, input.dtype)
            _check_bins_and_weight(points, points.shape, [edges], flat_weight)
            return _counts(points, [edges], flat_weight, density, True), edges
        _check_bins_and_weight(points, points.shape, [bins], flat_weight)
        _check_bin_counts([bins.size - 1])
        return _counts(points, [bins], flat_weight, density, False), bins.copy()

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::histogram"))




def _keywords_given(**keywords: Any) -> dict[str, Any]:
    """The keywords a call gave (not at their defaults), for the parser's message."""
    return {key: value for key, value in keywords.items()
            if value is not None and value is not False}


def _float_tuple(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in value
    )


def histogram(input: Any, bins: Any = 100, *, range: Any = None, weight: Any = None,
              density: bool = False) -> Any:
    """A histogram of ``input``'s values: the named tuple ``(hist, bin_edges)``.

    ``bins`` is a number of equal-width bins (over ``range``, or the data's min and max), or
    a 1-D tensor of increasing bin edges. Each bin holds its left edge; the last its right edge
    too. ``weight`` (one per element) sums weights instead of counting; ``density=True``
    divides by the total and by the bin widths. Floating-point input only.

    Example:
        >>> import minigrad
        >>> minigrad.histogram(minigrad.tensor([1.0, 2.0, 1.0, 4.0]), bins=3)
        minigrad.return_types.histogram(
        hist=tensor([2., 1., 1.]),
        bin_edges=tensor([1., 2., 3., 4.]))
    """
    is_count = isinstance(bins, (int, np.integer)) and not isinstance(bins, bool)
    if (
        not isinstance(input, TensorBase)
        or not (is_count or isinstance(bins, TensorBase))
        or (range is not None and (not is_count or not _float_tuple(range)))
        or (weight is not None and not isinstance(weight, TensorBase))
    ):
        given = _keywords_given(range=range, weight=weight, density=density)
        raise TypeError(_arguments.function_call_fits_none("histogram", (input, bins), given))
    tensor_bins = None if is_count else bins
    hist, edges = Histogram.apply(input, tensor_bins, weight, int(bins) if is_count else 0,
                                  None if range is None else tuple(range), bool(density))
    return return_types.histogram(hist, edges)


class HistogramFromBins(Op):
    """The histogram of histogramdd (no derivative: PyTorch's ``NotImplemented`` node).

    Its only edges lead to the input and the weight. Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = NOT_IMPLEMENTED
    num_inputs = 2
    fields = ("aten_name",)

    @staticmethod
    def forward(ctx: Any, input: np.ndarray, weight: Any, edges: list[np.ndarray],
                density: bool, equal_width: bool, aten_name: str) -> np.ndarray:
        ctx.aten_name = aten_name
        points = input.reshape(-1, input.shape[-1])
        flat_weight = None if weight is None else weight.reshape(-1)
        return _counts(points, edges, flat_weight, density, equal_width)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented(ctx.aten_name))


class HistogramEdges(Op):
    """histogramdd's equal-width bin edges, one tensor a dimension (no derivative either)."""

    node_name = NOT_IMPLEMENTED

    @staticmethod
    def forward(ctx: Any, input: np.ndarray, edges: list[np.ndarray]) -> tuple[np.ndarray, ...]:
        return tuple(edge.copy() for edge in edges)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(errors.derivative_not_implemented("aten::_histogramdd_bin_edges"))




def histogramdd(input: Any, bins: Any, range: Any = None, weight: Any = None,
                density: bool = False) -> Any:
    """A histogram of points in N dimensions: the named tuple ``(hist, bin_edges)``.

    ``input``'s last dimension holds each point's N coordinates (all others are flattened).
    ``bins``: one number of equal-width bins for every dimension, a sequence of N numbers, or
    a sequence of N 1-D tensors of increasing edges. ``range`` (2N numbers: each dimension's
    low and high), ``weight`` (one per point) and ``density`` as in ``histogram``.
    ``bin_edges`` is a tuple of N tensors.

    Example:
        >>> import minigrad
        >>> points = minigrad.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
        >>> minigrad.histogramdd(points, bins=2).hist
        tensor([[0., 1.],
                [1., 1.]])
    """
    is_count = isinstance(bins, (int, np.integer)) and not isinstance(bins, bool)
    sequence = isinstance(bins, (tuple, list))
    counts_given = sequence and all(
        isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in bins)
    tensors_given = sequence and bool(bins) and all(isinstance(b, TensorBase) for b in bins)
    if (
        not isinstance(input, TensorBase)
        or not (is_count or counts_given or tensors_given)
        or (range is not None and not _float_tuple(range))
        or (weight is not None and not isinstance(weight, TensorBase))
    ):
        given = _keywords_given(range=range, weight=weight, density=density)
        raise TypeError(_arguments.function_call_fits_none("histogramdd", (input, bins), given))
    array = input._array
    if array.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    dims = array.shape[-1]
    if is_count:
        bins = [int(bins)] * dims
    if len(bins) != dims and not tensors_given:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    weight_array = None if weight is None else weight._array
    if tensors_given:
        edges = [b._array for b in bins]
        points = array.reshape(-1, dims)
        _check_bins_and_weight(points, array.shape, edges, weight_array)
        _check_bin_counts([edge.size - 1 for edge in edges])
        hist = HistogramFromBins.apply(input, weight, edges, bool(density), False,
                                       "aten::_histogramdd_from_bin_tensors")
        return return_types.histogramdd(hist, tuple(bins))
    points = array.reshape(-1, dims)
    outer = _outer_edges(points, range)
    edges = [_edges(low, high, count + 1, array.dtype) for (low, high), count in zip(outer, bins)]
    _check_bins_and_weight(points, array.shape, edges, weight_array)
    _check_bin_counts(list(bins))
    edge_tensors = HistogramEdges.apply(input, edges)
    if not isinstance(edge_tensors, tuple):
        edge_tensors = (edge_tensors,)
    hist = HistogramFromBins.apply(input, weight, edges, bool(density), True,
                                   "aten::_histogramdd_from_bin_cts")
    return return_types.histogramdd(hist, tuple(edge_tensors))


__all__ = ["bincount", "histc", "histogram", "histogramdd"]
