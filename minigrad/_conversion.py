"""The arguments of ``Tensor.to`` and ``Tensor.type``: which device, which dtype, copy or not.

``to`` has PyTorch's three signatures (the first one that fits the arguments wins)::

    to(device=None, dtype=None, non_blocking=False, copy=False, *, memory_format=None)
    to(dtype, non_blocking=False, copy=False, *, memory_format=None)
    to(tensor, non_blocking=False, copy=False, *, memory_format=None)

Every tensor lives on the CPU, so the device only has to be checked; the dtype and the memory
format decide whether a conversion (a differentiable copy) is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minigrad import _dtype, _memory_formats, errors
from minigrad._device import as_device, check_available, device
from minigrad.autograd.tensor_base import TensorBase

_FORMAT = ", *, minigrad.memory_format memory_format = None"
_TO_SIGNATURES = (
    "minigrad.device device = None, minigrad.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False" + _FORMAT,
    "minigrad.dtype dtype, bool non_blocking = False, bool copy = False" + _FORMAT,
    "Tensor tensor, bool non_blocking = False, bool copy = False" + _FORMAT,
)


def _is_device(value: Any) -> bool:
    return value is None or isinstance(value, (str, device)) or _is_int(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_dtype(value: Any) -> bool:
    # (Python's float, int and bool stand for float64, int64 and bool, as in PyTorch.)
    return isinstance(value, _dtype.dtype) or value is float or value is int or value is bool


def _is_tensor(value: Any) -> bool:
    return isinstance(value, TensorBase)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_memory_format(value: Any) -> bool:
    return value is None or isinstance(value, _memory_formats.memory_format)


# Each signature: its parameters as (name, test its argument must pass, required); after the
# positional ones, the keyword-only memory format every signature ends with.
_Signature = tuple[tuple[str, Callable[[Any], bool], bool], ...]
_SIGNATURES: tuple[_Signature, ...] = (
    (
        ("device", _is_device, False),
        ("dtype", lambda v: v is None or _is_dtype(v), False),
        ("non_blocking", _is_bool, False),
        ("copy", _is_bool, False),
    ),
    (("dtype", _is_dtype, True), ("non_blocking", _is_bool, False), ("copy", _is_bool, False)),
    (("tensor", _is_tensor, True), ("non_blocking", _is_bool, False), ("copy", _is_bool, False)),
)
_KEYWORD_ONLY = (("memory_format", _is_memory_format, False),)


def _bind(
    signature: _Signature, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any] | None:
    """The arguments by name if they fit ``signature``, else None."""
    names = [name for name, _, _ in signature]
    if len(args) > len(names) or any(
        name not in names and name != "memory_format" for name in kwargs
    ):
        return None
    bound = dict(zip(names, args))
    for name, value in kwargs.items():
        if name in bound:
            return None
        bound[name] = value
    for name, accepts, required in signature + _KEYWORD_ONLY:
        if name in bound:
            if not accepts(bound[name]):
                return None
        elif required:
            return None
    return bound


def parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, bool, Any]:
    """``(numpy dtype or None, copy, memory format or None)`` for ``Tensor.to(...)``.

    Raises PyTorch's TypeError if no signature fits, and the device's error if it is not the CPU.
    """
    for signature in _SIGNATURES:
        bound = _bind(signature, args, kwargs)
        if bound is not None:
            break
    else:
        raise TypeError(errors.invalid_arguments("to", args, kwargs, _TO_SIGNATURES))
    if "tensor" in bound:
        numpy_dtype = bound["tensor"]._array.dtype
    else:
        where = bound.get("device")
        if where is not None:
            check_available(as_device(where, "to"))
        dtype = bound.get("dtype")
        numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype, "to")
    return numpy_dtype, bound.get("copy", False), bound.get("memory_format")


def parse_type_name(name: str) -> Any:
    """The dtype named by a legacy type string: ``"minigrad.FloatTensor"`` (or ``"torch."``)."""
    prefix, _, tensor_type = name.rpartition(".")
    if prefix in ("torch.cuda", "minigrad.cuda"):
        check_available(device("cuda"))
    if prefix in ("torch", "minigrad"):
        for dtype in _dtype.ALL_DTYPES:
            if dtype.tensor_type == tensor_type:
                return dtype
    raise ValueError(f"invalid type: '{name}'")
