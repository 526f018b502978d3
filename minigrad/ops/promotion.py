"""Type promotion, asked directly: ``result_type``, ``promote_types``, ``can_cast``.

These answer with the rules every op already applies (``minigrad/_dtype.py``): ``result_type``
is the dtype ``promote`` gives a binary op, ``promote_types`` PyTorch's table of two dtypes,
``can_cast`` the rule in-place ops and ``out=`` apply to their result.
"""

from __future__ import annotations

from typing import Any

from minigrad import _dtype, errors
from minigrad._dtype import dtype, from_numpy_dtype, to_numpy_dtype
from minigrad.ops._helpers import operand, python_scalar


def _dtype_argument(function: str, name: str, position: int, value: Any) -> Any:
    """A ``dtype`` argument as numpy's dtype (Python's float, int and bool too, as PyTorch).

    Anything else gets PyTorch's parser error, naming the argument.
    """
    if not isinstance(value, (dtype, type)):
        raise TypeError(errors.wrong_argument_type(
            function, name, "minigrad.dtype", errors.python_type_name(value), position))
    return to_numpy_dtype(value, function)


def result_type(tensor: Any, other: Any) -> dtype:
    """The dtype an arithmetic op on ``tensor`` and ``other`` gives (tensors or numbers).

    Example:
        >>> import minigrad
        >>> minigrad.result_type(minigrad.tensor([1, 2]), 1.5)
        minigrad.float32
        >>> minigrad.result_type(minigrad.tensor([1], dtype=minigrad.int8), 1000)
        minigrad.int8
    """
    numpy_dtype = _dtype.result_type(operand(python_scalar(tensor)),
                                     operand(python_scalar(other)))
    return from_numpy_dtype(numpy_dtype)


def promote_types(type1: Any, type2: Any) -> dtype:
    """The smallest dtype both ``type1`` and ``type2`` fit in, by PyTorch's table.

    Example:
        >>> import minigrad
        >>> minigrad.promote_types(minigrad.int8, minigrad.uint8)
        minigrad.int16
        >>> minigrad.promote_types(minigrad.float16, minigrad.int64)
        minigrad.float16
    """
    first = _dtype_argument("promote_types", "type1", 1, type1)
    second = _dtype_argument("promote_types", "type2", 2, type2)
    return from_numpy_dtype(_dtype.promote_types(first, second))


def can_cast(from_: Any, to: Any) -> bool:
    """Whether PyTorch's casting rules let a value of ``from_`` be written into ``to``.

    Floating point does not go into integers, and nothing but bool into bool; narrowing is
    allowed (int64 into uint8).

    Example:
        >>> import minigrad
        >>> minigrad.can_cast(minigrad.float32, minigrad.int32)
        False
        >>> minigrad.can_cast(minigrad.int64, minigrad.uint8)
        True
    """
    return _dtype.can_cast(_dtype_argument("can_cast", "from_", 1, from_),
                           _dtype_argument("can_cast", "to", 2, to))
