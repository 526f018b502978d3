"""PyTorch's legacy tensor types and constructor, kept so that old tutorials run.

``minigrad.Tensor(data)`` / ``minigrad.Tensor(2, 3)`` and ``minigrad.FloatTensor(...)``,
``DoubleTensor``, ``LongTensor``, ... build tensors the way PyTorch's pre-0.4 API does: from
data (a sequence or array, converted to the type's dtype), from sizes (uninitialized memory),
or from another tensor (an alias of it). ``isinstance(t, minigrad.FloatTensor)`` asks whether
``t`` is a float32 tensor, as in PyTorch. New code should use ``minigrad.tensor`` and the
factories instead.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from minigrad import _dtype, _warnings, errors
from minigrad._device import as_device
from minigrad._size import Size
from minigrad.creation import tensor as _tensor_from_data
from minigrad.creation import warn_if_read_only
from minigrad.ops import views
from minigrad.tensor import Tensor

_SIGNATURES = (
    "*, minigrad.device device = None",
    "Tensor other",
    "tuple of ints size, *, minigrad.device device = None",
    "object data, *, minigrad.device device = None",
)


def _options(numpy_dtype: np.dtype) -> str:
    return (
        f"TensorOptions(dtype={errors.CPP_TYPE_NAMES[numpy_dtype.name]}, device=cpu, "
        "layout=Strided, requires_grad=false (default), pinned_memory=false (default), "
        "memory_format=(nullopt))"
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def new(dtype: _dtype.dtype, args: tuple[Any, ...], kwargs: dict[str, Any], any_dtype: bool) -> Any:
    """A tensor built by a legacy constructor of ``dtype`` (``Tensor(...)``: ``any_dtype``).

    ``args`` is empty (an empty tensor), sizes, a ``Size``, data, or a tensor to alias (of the
    constructor's dtype, unless ``any_dtype``).
    """
    kwargs = dict(kwargs)
    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(errors.invalid_arguments("new", args, kwargs, _SIGNATURES))
    if device is not None and as_device(device, "new").type != "cpu":
        raise RuntimeError(
            "legacy constructor expects device type: cpu but device type: "
            f"{as_device(device, 'new').type} was passed"
        )
    numpy_dtype = dtype.numpy
    if len(args) == 1 and not _is_int(args[0]):
        (value,) = args
        if isinstance(value, Tensor):
            if device is not None:
                raise RuntimeError(
                    "Legacy tensor constructor of the form minigrad.Tensor(tensor, device=device) "
                    "is not supported.  Use minigrad.tensor(...) or minigrad.as_tensor(...) "
                    "instead."
                )
            if not any_dtype and value._array.dtype != numpy_dtype:
                raise TypeError(
                    f"expected {_options(numpy_dtype)} (got {_options(value._array.dtype)})"
                )
            return views.alias(value)  # the same buffer and version counter
        if isinstance(value, Size):
            return _uninitialized(tuple(value), numpy_dtype)
        if isinstance(value, (list, tuple, np.ndarray)):
            warn_if_read_only(value, stacklevel=4)  # (PyTorch shares an array first)
            return _tensor_from_data(value, dtype=dtype)
        if isinstance(value, str):
            raise TypeError(f"new(): invalid data type '{type(value).__name__}'")
        raise TypeError(f"new(): data must be a sequence (got {errors.python_type_name(value)})")
    for position, size in enumerate(args, start=1):
        if not _is_int(size):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {position} with error "
                f'"type must be tuple of ints,but got {errors.python_type_name(size)}"'
            )
    return _uninitialized(tuple(int(n) for n in args) if args else (0,), numpy_dtype)


def _uninitialized(shape: tuple[int, ...], numpy_dtype: np.dtype) -> Any:
    for n in shape:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )
    return Tensor._make(np.empty(shape, dtype=numpy_dtype))


class _LegacyTensorType(type):
    """The metaclass of ``FloatTensor`` & co.

    Calling one builds a Tensor of its dtype; ``isinstance`` checks a tensor's dtype.
    """

    dtype: _dtype.dtype

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and instance._array.dtype == cls.dtype.numpy

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return new(cls.dtype, args, kwargs, any_dtype=False)

    def __repr__(cls) -> str:
        return f"<class 'minigrad.{cls.__name__}'>"


class FloatTensor(metaclass=_LegacyTensorType):
    """float32 tensors: ``FloatTensor([1, 2])`` (data), ``FloatTensor(2, 3)`` (uninitialized).

    Example:
        >>> import minigrad
        >>> minigrad.FloatTensor([1, 2])
        tensor([1., 2.])
        >>> isinstance(minigrad.ones(2), minigrad.FloatTensor)
        True
    """

    dtype = _dtype.float32


class DoubleTensor(metaclass=_LegacyTensorType):
    """float64 tensors (see ``FloatTensor``)."""

    dtype = _dtype.float64


class HalfTensor(metaclass=_LegacyTensorType):
    """float16 tensors (see ``FloatTensor``)."""

    dtype = _dtype.float16


class LongTensor(metaclass=_LegacyTensorType):
    """int64 tensors (see ``FloatTensor``); float data is truncated.

    Example:
        >>> import minigrad
        >>> minigrad.LongTensor([1.7, 2])
        tensor([1, 2])
    """

    dtype = _dtype.int64


class IntTensor(metaclass=_LegacyTensorType):
    """int32 tensors (see ``FloatTensor``)."""

    dtype = _dtype.int32


class ShortTensor(metaclass=_LegacyTensorType):
    """int16 tensors (see ``FloatTensor``)."""

    dtype = _dtype.int16


class CharTensor(metaclass=_LegacyTensorType):
    """int8 tensors (see ``FloatTensor``)."""

    dtype = _dtype.int8


class ByteTensor(metaclass=_LegacyTensorType):
    """uint8 tensors (see ``FloatTensor``)."""

    dtype = _dtype.uint8


class BoolTensor(metaclass=_LegacyTensorType):
    """bool tensors (see ``FloatTensor``)."""

    dtype = _dtype.bool_


_TENSOR_TYPE_DEPRECATED = (
    "minigrad.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
    "minigrad.set_default_dtype() and minigrad.set_default_device() as alternatives."
)


def set_default_tensor_type(t: Any, /) -> None:
    """Make a floating legacy type's dtype the default (deprecated: use ``set_default_dtype``).

    ``t`` is a type (``minigrad.DoubleTensor``) or its dotted name (``"minigrad.DoubleTensor"``).

    Example:
        >>> import minigrad, warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.set_default_tensor_type(minigrad.DoubleTensor)
        >>> minigrad.get_default_dtype()
        minigrad.float64
        >>> minigrad.set_default_dtype(minigrad.float32)
    """
    if isinstance(t, str):  # (PyTorch's _import_dotted_name)
        module, *attributes = t.split(".")
        t = importlib.import_module(module)
        for attribute in attributes:
            t = getattr(t, attribute)
    _warnings.warn_once(_TENSOR_TYPE_DEPRECATED)
    if not isinstance(t, _LegacyTensorType):
        raise TypeError("invalid type object: " + _dtype._NOT_FLOATING)
    _dtype.set_default_dtype(t.dtype)


__all__ = [
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
    "set_default_tensor_type",
]
