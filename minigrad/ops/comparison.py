"""Whole-tensor comparisons: ``isclose``, ``allclose`` and ``equal``. None is differentiable.

``isclose`` is PyTorch's closeness test, elementwise::

    |input - other| <= atol + rtol * |other|      (finite values)
    input == other                                (infinities; NaN == NaN with equal_nan)

computed in the tensors' own dtype (integers and bools in the default float dtype, float32, as
PyTorch does to avoid integer overflow). Unlike numpy's, the two tensors must have the same
dtype. ``equal`` asks for the same shape and the same values (after type promotion).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import DEFAULT_FLOAT, display_name, result_type
from minigrad.autograd.variable import TensorBase


def check_tensor(function: str, name: str, position: int, value: Any) -> None:
    """PyTorch's TypeError unless ``value`` (argument ``name`` at ``position``) is a tensor."""
    if not isinstance(value, TensorBase):
        raise TypeError(
            f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{errors.python_type_name(value)}"
        )


def _float_argument(function: str, name: str, value: Any) -> float:
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(
            f"{function}(): argument '{name}' must be float, not {errors.python_type_name(value)}"
        )
    return float(value)


def _close(function: str, input: Any, other: Any, rtol: Any, atol: Any, equal_nan: Any) -> Any:
    """The boolean array of ``isclose``, after PyTorch's checks in PyTorch's order."""
    check_tensor(function, "input", 1, input)
    check_tensor(function, "other", 2, other)
    rtol, atol = _float_argument(function, "rtol", rtol), _float_argument(function, "atol", atol)
    if not isinstance(equal_nan, bool):
        raise TypeError(
            f"{function}(): argument 'equal_nan' must be bool, not "
            f"{errors.python_type_name(equal_nan)}"
        )
    a, b = input._array, other._array
    if a.dtype != b.dtype:
        raise RuntimeError(f"{display_name(a.dtype)} did not match {display_name(b.dtype)}")
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not value >= 0:  # (nan too; C++ prints doubles as Python's :g does)
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {value:g}")
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a.shape, b.shape)) from None
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    close = a == b
    if equal_nan and a.dtype.kind == "f":
        close |= np.isnan(a) & np.isnan(b)
    if rtol == 0 and atol == 0:  # closeness is equality then
        return close
    if a.dtype.kind != "f":  # subtracting integers could overflow: PyTorch uses floats
        a, b = a.astype(DEFAULT_FLOAT.numpy), b.astype(DEFAULT_FLOAT.numpy)
    with np.errstate(all="ignore"):  # inf - inf is nan: not close, not a warning
        allowed = a.dtype.type(atol) + np.abs(a.dtype.type(rtol) * b)
        actual = np.abs(a - b)
        close |= np.isfinite(actual) & (actual <= allowed)
    return close


def isclose(
    input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """Where ``|input - other| <= atol + rtol * |other|``, elementwise (a bool tensor).

    Infinities are close only to themselves; NaNs are close to each other only with
    ``equal_nan``. Both tensors must have the same dtype; their shapes broadcast.

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0, float("nan")])
        >>> minigrad.isclose(a, minigrad.tensor([1.0, 2.0001, float("nan")]))
        tensor([ True, False, False])
        >>> minigrad.isclose(a, a, equal_nan=True)
        tensor([True, True, True])
    """
    close = _close("isclose", input, other, rtol, atol, equal_nan)
    return TensorBase.output_class._make(np.array(close, dtype=np.bool_))


def allclose(
    input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """True if every element of ``input`` is close to ``other``'s (see ``isclose``).

    Example:
        >>> import minigrad
        >>> minigrad.allclose(minigrad.tensor([1e4, 1e-8]), minigrad.tensor([10000.1, 1e-9]))
        True
        >>> minigrad.allclose(minigrad.tensor([1e4, 1e-7]), minigrad.tensor([10000.1, 1e-8]))
        False
    """
    return bool(_close("allclose", input, other, rtol, atol, equal_nan).all())


def equal(input: Any, other: Any) -> bool:
    """True if the tensors have the same shape and the same values (dtypes may differ).

    The values are compared after PyTorch's type promotion; NaN equals nothing.

    Example:
        >>> import minigrad
        >>> minigrad.equal(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1, 2]))
        True
        >>> minigrad.equal(minigrad.tensor([1.0, 2.0]), minigrad.tensor([[1.0, 2.0]]))
        False
    """
    check_tensor("equal", "input", 1, input)
    check_tensor("equal", "other", 2, other)
    a, b = input._array, other._array
    if a.shape != b.shape:
        return False
    dtype = result_type(a, b)
    return bool(np.array_equal(a.astype(dtype, copy=False), b.astype(dtype, copy=False)))


__all__ = ["allclose", "equal", "isclose"]
