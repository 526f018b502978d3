"""Making tensors: ``tensor``, ``from_numpy`` and the factories (``zeros``, ``rand``, ...).

Defaults follow PyTorch: float data becomes float32, integer data int64, bools bool; only
floating-point tensors may require gradients.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _dtype, _random, errors
from minigrad.tensor import Tensor


def _new(array: np.ndarray, requires_grad: bool) -> Tensor:
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
    return Tensor._make(array, requires_grad=bool(requires_grad))


def tensor(data: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, nested lists, an array or a tensor).

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1, 2, 3.0], requires_grad=True)
        tensor([1., 2., 3.], requires_grad=True)
        >>> minigrad.tensor([[1, 2], [3, 4]]).dtype
        minigrad.int64
    """
    numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
            "requires_grad_(True), rather than minigrad.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        array = np.array(data._array, dtype=numpy_dtype)
    elif isinstance(data, np.ndarray):
        _dtype.from_numpy_dtype(data.dtype)  # rejects unsupported types with PyTorch's message
        array = np.array(data, dtype=numpy_dtype)
    else:
        array = _array_from_python(data, numpy_dtype)
    return _new(array, requires_grad)


def _array_from_python(data: Any, numpy_dtype: np.dtype | None) -> np.ndarray:
    _check_nested(data)
    array = np.array(data, dtype=numpy_dtype)
    if numpy_dtype is None:
        if array.dtype.kind == "f":
            array = array.astype(_dtype.DEFAULT_FLOAT.numpy)
        elif array.dtype.kind in "iu":
            array = array.astype(np.int64)
    return array


def _check_nested(data: Any) -> None:
    """Reject ragged lists and non-numbers with PyTorch's messages (before numpy sees them)."""
    if isinstance(data, (bool, int, float, np.number, np.bool_)):
        return
    if not isinstance(data, (list, tuple)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    _check_level(data, 0)


def _check_level(items: Sequence[Any], dim: int) -> None:
    # Breadth-first over one nesting level at a time: every item must be alike.
    level: list[Any] = [items]
    while level:
        expected = len(level[0])
        children: list[Any] = []
        for seq in level:
            if len(seq) != expected:
                raise ValueError(
                    f"expected sequence of length {expected} at dim {dim} (got {len(seq)})"
                )
            for item in seq:
                if isinstance(item, (list, tuple)):
                    children.append(item)
                elif isinstance(item, Tensor) and item.dim() == 0:
                    continue
                elif not isinstance(item, (bool, int, float, np.number, np.bool_)):
                    raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        if children and len(children) != sum(len(seq) for seq in level):
            raise ValueError(f"expected sequence of length {expected} at dim {dim + 1} (got 0)")
        level, dim = children, dim + 1


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory (writes through either are seen by both).

    Example:
        >>> import numpy as np, minigrad
        >>> a = np.zeros(2, dtype=np.float32)
        >>> t = minigrad.from_numpy(a)
        >>> a[0] = 5
        >>> t
        tensor([5., 0.])
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)
    return Tensor._make(array)


def _shape(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for n in size:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(
                "zeros(): argument 'size' must be tuple of ints, but found element of type "
                f"{type(n).__name__}"
            )
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(size)}"
            )
    return tuple(int(n) for n in size)


def _float_dtype(dtype: _dtype.dtype | None) -> np.dtype:
    return _dtype.DEFAULT_FLOAT.numpy if dtype is None else _dtype.to_numpy_dtype(dtype)


def zeros(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros of the given shape.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 2)
        tensor([[0., 0.],
                [0., 0.]])
    """
    return _new(np.zeros(_shape(size), dtype=_float_dtype(dtype)), requires_grad)


def ones(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones of the given shape."""
    return _new(np.ones(_shape(size), dtype=_float_dtype(dtype)), requires_grad)


def empty(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """An uninitialized tensor of the given shape (numpy's ``empty``)."""
    return _new(np.empty(_shape(size), dtype=_float_dtype(dtype)), requires_grad)


def full(
    size: Sequence[int],
    fill_value: Any,
    *,
    dtype: _dtype.dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (as in PyTorch).

    Example:
        >>> import minigrad
        >>> minigrad.full((2,), 7)
        tensor([7, 7])
    """
    if dtype is not None:
        numpy_dtype = _dtype.to_numpy_dtype(dtype)
    elif isinstance(fill_value, bool):
        numpy_dtype = np.dtype(np.bool_)
    elif isinstance(fill_value, int):
        numpy_dtype = np.dtype(np.int64)
    else:
        numpy_dtype = _dtype.DEFAULT_FLOAT.numpy
    return _new(np.full(_shape(tuple(size)), fill_value, dtype=numpy_dtype), requires_grad)


def rand(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Uniform random numbers in ``[0, 1)``."""
    numpy_dtype = _float_dtype(dtype)
    values = _random.generator().random(_shape(size)).astype(numpy_dtype)
    return _new(values, requires_grad)


def randn(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Standard normal random numbers."""
    numpy_dtype = _float_dtype(dtype)
    values = _random.generator().standard_normal(_shape(size)).astype(numpy_dtype)
    return _new(values, requires_grad)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    *,
    dtype: _dtype.dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``[start, end)`` in steps of ``step``: int64 for integer arguments, else float32.

    Example:
        >>> import minigrad
        >>> minigrad.arange(3)
        tensor([0, 1, 2])
    """
    if end is None:
        start, end = 0, start
    if dtype is not None:
        numpy_dtype = _dtype.to_numpy_dtype(dtype)
    elif all(isinstance(v, (int, np.integer)) for v in (start, end, step)):
        numpy_dtype = np.dtype(np.int64)
    else:
        numpy_dtype = _dtype.DEFAULT_FLOAT.numpy
    if step == 0:
        raise RuntimeError("step must be nonzero")
    return _new(np.arange(start, end, step).astype(numpy_dtype), requires_grad)


def linspace(
    start: float,
    end: float,
    steps: int,
    *,
    dtype: _dtype.dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    values = np.linspace(start, end, steps).astype(_float_dtype(dtype))
    return _new(values, requires_grad)


def _like(
    input: Tensor, dtype: _dtype.dtype | None
) -> tuple[tuple[int, ...], np.dtype]:
    numpy_dtype = input._array.dtype if dtype is None else _dtype.to_numpy_dtype(dtype)
    return input._array.shape, numpy_dtype


def zeros_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Zeros with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(np.zeros(shape, dtype=numpy_dtype), requires_grad)


def ones_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Ones with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(np.ones(shape, dtype=numpy_dtype), requires_grad)


def empty_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """An uninitialized tensor with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(np.empty(shape, dtype=numpy_dtype), requires_grad)


def full_like(
    input: Tensor,
    fill_value: Any,
    *,
    dtype: _dtype.dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``fill_value`` everywhere, with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(np.full(shape, fill_value, dtype=numpy_dtype), requires_grad)


def rand_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Uniform random numbers with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(_random.generator().random(shape).astype(numpy_dtype), requires_grad)


def randn_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Standard normal random numbers with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype)
    return _new(_random.generator().standard_normal(shape).astype(numpy_dtype), requires_grad)
