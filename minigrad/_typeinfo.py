"""``finfo`` and ``iinfo``: the numeric limits of a dtype, as PyTorch reports them.

The values are numpy's (``np.finfo``/``np.iinfo``) as Python numbers; ``dtype`` is the
dtype's name, a string, as in PyTorch; the repr prints them as C's ``%g`` does.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from minigrad import _arguments, _dtype

_MISSING: Any = object()


def _dtype_argument(value: Any, function: str) -> _dtype.dtype:
    """``type`` as PyTorch's parser reads it: a dtype, or Python's float, int or bool."""
    if isinstance(value, _dtype.dtype):
        return value
    if any(value is kind for kind in (builtins.float, builtins.int, builtins.bool)):
        return _dtype.from_numpy_dtype(_dtype.to_numpy_dtype(value, function))
    raise _arguments.parser_error(
        f"{function}(): argument 'type' (position 1) must be minigrad.dtype, not "
        f"{type(value).__name__}")


class _TypeInfo:
    """What finfo and iinfo share: equality by dtype, no hash (PyTorch's), the repr."""

    __slots__ = ("bits", "dtype", "max", "min")
    __hash__ = None  # type: ignore[assignment]
    _shown: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.dtype == self.dtype  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name):g}" for name in self._shown)
        return f"{type(self).__name__}({fields}, dtype={self.dtype})"


class finfo(_TypeInfo):  # noqa: N801 - PyTorch's name
    """The limits of a floating dtype (the default dtype if none is given).

    ``bits``, ``eps`` (the gap between 1 and the next number), ``max``, ``min``, ``tiny`` and
    ``smallest_normal`` (the smallest positive normal number), ``resolution`` (10 to the
    minus the decimal digits the dtype keeps) and ``dtype`` (its name).

    Example:
        >>> import minigrad
        >>> minigrad.finfo(minigrad.float32).eps
        1.1920928955078125e-07
        >>> minigrad.finfo(minigrad.float16)
        finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)
    """  # noqa: E501 - the repr is one line

    __slots__ = ("eps", "resolution", "smallest_normal", "tiny")
    _shown = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, type: Any = _MISSING) -> None:  # noqa: A002 - PyTorch's name
        dtype = _dtype.get_default_dtype() if type is _MISSING else _dtype_argument(
            type, "finfo")
        if not dtype.is_floating_point:
            raise TypeError("minigrad.finfo() requires a floating point input type. Use "
                            "minigrad.iinfo to handle 'minigrad.finfo'")
        info = np.finfo(dtype.numpy)
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # (numpy's is rounded to the dtype)
        self.dtype = dtype.name


class iinfo(_TypeInfo):  # noqa: N801 - PyTorch's name
    """The limits of an integer dtype: ``bits``, ``max``, ``min`` (ints) and ``dtype`` (its name).

    Example:
        >>> import minigrad
        >>> minigrad.iinfo(minigrad.int8)
        iinfo(min=-128, max=127, dtype=int8)
        >>> minigrad.iinfo(minigrad.int64).max
        9223372036854775807
    """

    __slots__ = ()
    _shown = ("min", "max")

    def __init__(self, type: Any = _MISSING) -> None:  # noqa: A002 - PyTorch's name
        if type is _MISSING:
            raise TypeError('iinfo() missing 1 required positional arguments: "type"')
        dtype = _dtype_argument(type, "iinfo")
        if dtype is _dtype.bool_:
            raise TypeError("minigrad.bool is not supported by minigrad.iinfo")
        if dtype.is_floating_point:
            raise TypeError("minigrad.iinfo() requires an integer input type. Use "
                            "minigrad.finfo to handle 'minigrad.iinfo'")
        info = np.iinfo(dtype.numpy)
        self.bits = info.bits
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = dtype.name
