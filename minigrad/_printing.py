"""Render tensors as text exactly the way PyTorch's ``repr`` does.

The layout rules follow ``torch/_tensor_str.py`` (PyTorch 2.13): one formatter is
chosen for the whole tensor (fixed point, integer-valued or scientific notation and a
common column width), then the nested lists are written row by row, long rows are
wrapped at ``linewidth`` and big tensors are summarized with ``...``. Finally the
``dtype=``/``size=``/``grad_fn=`` suffixes are appended.

This module depends only on numpy so that it can be tested on its own.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from minigrad._dtype import get_default_dtype

__all__ = ["get_printoptions", "set_printoptions", "tensor_repr"]

_PREFIX = "tensor("
_DTYPE_SUFFIX_START = "dtype=minigrad."
_TORCH_DTYPE_SUFFIX_START = "dtype=torch."

# numpy dtype for every dtype name minigrad supports.
_NUMPY_DTYPES: dict[str, type[np.generic]] = {
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "bool": np.bool_,
}
_FLOAT_DTYPES = frozenset({"float16", "float32", "float64"})

# The default float dtype (``get_default_dtype()``, asked at each repr) plus the dtypes
# literals infer: PyTorch leaves their ``dtype=`` suffix out, except for empty tensors
# (nothing to infer it from: only the default float is left out there).
_IMPLICIT_DTYPES = frozenset({"int64", "bool"})

# Thresholds PyTorch uses to switch a float tensor to scientific notation.
_SCI_MAX_RATIO = 1000.0
_SCI_MAX_VALUE = 1.0e8
_SCI_MIN_VALUE = 1.0e-4


@dataclasses.dataclass
class _PrintOptions:
    """The global print options, with PyTorch's defaults."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTIONS = _PrintOptions()

_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the options used when printing tensors, like ``torch.set_printoptions``.

    Options left as ``None`` keep their current value, except ``sci_mode``, which
    PyTorch always overwrites (so omitting it restores automatic selection).

    Args:
        precision: Number of digits after the decimal point (default 4).
        threshold: Number of elements above which the tensor is summarized with
            ``...`` (default 1000).
        edgeitems: Number of items kept at the start and end of each dimension when
            summarizing (default 3).
        linewidth: Characters per line before long rows are wrapped (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``; sets the four options
            above before any of them given explicitly is applied. Other names are
            ignored, as in PyTorch.
        sci_mode: ``True`` or ``False`` forces scientific notation on or off;
            ``None`` lets the formatter decide from the values.
    """
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(_OPTIONS, name, value)
    if precision is not None:
        _OPTIONS.precision = precision
    if threshold is not None:
        _OPTIONS.threshold = threshold
    if edgeitems is not None:
        _OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTIONS.linewidth = linewidth
    _OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as a dict accepted by :func:`set_printoptions`."""
    return dataclasses.asdict(_OPTIONS)


class _Formatter:
    """Formats every element of one tensor with a shared style and column width.

    Attributes:
        is_float: Whether the tensor has a floating dtype.
        int_mode: All finite non-zero floats are integers, so they print as ``3.``.
        sci_mode: Floats print in scientific notation.
        width: Column width every element is right-aligned to.
    """

    def __init__(self, values: np.ndarray, is_float: bool) -> None:
        """Choose the style and width from ``values`` (the elements that will be shown)."""
        self.is_float = is_float
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not is_float:
            self.width = max([self.width, *(len(str(v)) for v in flat.tolist())])
            return

        # Zeros, nan and inf never influence the style or the width.
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return
        self.int_mode = bool(np.all(np.ceil(shown) == shown))
        self.sci_mode = self._wants_sci_mode(shown)
        if self.sci_mode:
            lengths = (len(self._sci(v)) for v in shown.tolist())
        elif self.int_mode:
            # One more for the "." that marks the value as a float.
            lengths = (len(f"{v:.0f}") + 1 for v in shown.tolist())
        else:
            lengths = (len(self._fixed(v)) for v in shown.tolist())
        self.width = max([self.width, *lengths])

    @staticmethod
    def _wants_sci_mode(shown: np.ndarray) -> bool:
        """Decide on scientific notation for finite non-zero ``shown`` values."""
        if _OPTIONS.sci_mode is not None:
            return _OPTIONS.sci_mode
        # Python floats (doubles) give inf instead of a numpy overflow warning
        # when the ratio overflows; float16 extremes cannot overflow either.
        magnitudes = np.abs(shown)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        return bool(
            largest / smallest > _SCI_MAX_RATIO
            or largest > _SCI_MAX_VALUE
            or smallest < _SCI_MIN_VALUE
        )

    @staticmethod
    def _sci(value: float, width: int = 0) -> str:
        """Format ``value`` in scientific notation, right-aligned to ``width``."""
        return f"{value:{width}.{_OPTIONS.precision}e}"

    @staticmethod
    def _fixed(value: float) -> str:
        """Format ``value`` in fixed-point notation with the current precision."""
        return f"{value:.{_OPTIONS.precision}f}"

    def format(self, value: float | int | bool) -> str:
        """Format one element (a Python scalar), right-aligned to the column width."""
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = self._sci(value, self.width)
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = self._fixed(value)
        return text.rjust(self.width)


def _edge_indices(length: int) -> np.ndarray | slice:
    """Return the indices kept along a dimension of ``length`` items when summarizing."""
    edge = _OPTIONS.edgeitems
    if length > 2 * edge:
        return np.r_[0:edge, length - edge : length]
    return slice(None)


def _summarized_values(array: np.ndarray) -> np.ndarray:
    """Return only the elements a summarized print shows, for choosing the format."""
    if array.ndim == 0:
        return array
    if not _OPTIONS.edgeitems:
        # PyTorch keeps a whole vector here (its ``x[-0:]`` is everything) but
        # drops everything from higher-dimensional tensors.
        return array if array.ndim == 1 else array[(slice(0, 0),) * array.ndim]
    for axis, length in enumerate(array.shape):
        array = array[(slice(None),) * axis + (_edge_indices(length),)]
    return array


def _vector_str(vector: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """Render a 1-d array, wrapping it so lines fit in the line width."""
    edge = _OPTIONS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(vector) > 2 * edge:
        items = [fmt.format(v) for v in vector[:edge].tolist()]
        items.append(" ...")
        items += [fmt.format(v) for v in vector[-edge:].tolist()]
    else:
        items = [fmt.format(v) for v in vector.tolist()]

    # Each item takes its width plus ", "; the "..." item is not counted specially.
    per_line = max(1, (_OPTIONS.linewidth - indent) // (fmt.width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _array_str(array: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """Render an array of any rank; ``indent`` is the column of its opening bracket."""
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, fmt)

    edge = _OPTIONS.edgeitems
    if summarize and len(array) > 2 * edge:
        head = [_array_str(array[i], indent + 1, summarize, fmt) for i in range(edge)]
        tail = [
            _array_str(array[i], indent + 1, summarize, fmt)
            for i in range(len(array) - edge, len(array))
        ]
        blocks = [*head, "...", *tail]
    else:
        blocks = [_array_str(sub, indent + 1, summarize, fmt) for sub in array]
    # Sub-blocks of a rank-n array are separated by n - 2 blank lines.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(blocks) + "]"


def _layout_len(suffix: str) -> int:
    """Return the length PyTorch's spelling of ``suffix`` has, for line wrapping.

    PyTorch decides where to wrap with ``dtype=torch.xxx``; measuring the same text
    keeps minigrad's output equal to PyTorch's with ``torch.`` renamed.
    """
    if suffix.startswith(_DTYPE_SUFFIX_START):
        return len(suffix) - len(_DTYPE_SUFFIX_START) + len(_TORCH_DTYPE_SUFFIX_START)
    return len(suffix)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items and the closing parenthesis, wrapping long lines."""
    parts = [text]
    # PyTorch's estimate of the last line's length: two more than the real one.
    line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = _layout_len(suffix)
        if line_len + suffix_len + 2 > _OPTIONS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_len = indent + suffix_len
        else:
            parts.append(", " + suffix)
            line_len += suffix_len + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(
    array: np.ndarray,
    *,
    dtype_name: str,
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
) -> str:
    """Return PyTorch's repr of a tensor holding ``array``.

    Args:
        array: The tensor's data; its numpy dtype matches ``dtype_name``.
        dtype_name: The minigrad dtype name, e.g. ``"float32"`` or ``"int64"``.
        requires_grad: The tensor is a leaf that requires grad.
        grad_fn_name: Class name of the tensor's grad_fn (a non-leaf), e.g.
            ``"SigmoidBackward0"``; takes precedence over ``requires_grad``.

    Returns:
        The text PyTorch prints, e.g.
        ``'tensor([0.7311, 0.8808], grad_fn=<SigmoidBackward0>)'``.

    Raises:
        ValueError: If ``dtype_name`` is not a supported dtype.
    """
    if dtype_name not in _NUMPY_DTYPES:
        raise ValueError(f"unsupported dtype name: {dtype_name!r}")
    array = np.asarray(array, dtype=_NUMPY_DTYPES[dtype_name])
    indent = len(_PREFIX)
    dtype_suffix = _DTYPE_SUFFIX_START + dtype_name
    size_suffix = f"size={tuple(array.shape)}"

    suffixes = []
    default_dtype = get_default_dtype().name
    if array.size == 0:
        # Only the (0,) shape is implied by "[]"; the dtype cannot be inferred.
        if array.ndim != 1:
            suffixes.append(size_suffix)
        if dtype_name != default_dtype:
            suffixes.append(dtype_suffix)
        body = "[]"
    else:
        if not _OPTIONS.edgeitems:
            suffixes.append(size_suffix)
        if dtype_name != default_dtype and dtype_name not in _IMPLICIT_DTYPES:
            suffixes.append(dtype_suffix)
        summarize = array.size > _OPTIONS.threshold
        shown = _summarized_values(array) if summarize else array
        formatter = _Formatter(shown, dtype_name in _FLOAT_DTYPES)
        body = _array_str(array, indent, summarize, formatter)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(_PREFIX + body, suffixes, indent)
