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
    numpy_dtype = None if dtype is None else _dtype.to_numpy_dtype(dtype, "tensor")
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
    if isinstance(data, np.generic):  # a numpy scalar keeps its own dtype, as in PyTorch
        return np.array(data, dtype=numpy_dtype)
    array = np.array(data, dtype=numpy_dtype)
    if numpy_dtype is None:
        if array.dtype.kind == "f":
            array = array.astype(_dtype.DEFAULT_FLOAT.numpy)
        elif array.dtype.kind in "iu":
            array = array.astype(np.int64)
    return array


def _check_nested(data: Any) -> None:
    """Reject ragged lists and non-numbers with PyTorch's messages (before numpy sees them).

    Like PyTorch, the shape is read off the first element at each depth; every other element
    must then match it.
    """
    if not isinstance(data, (list, tuple)):
        _check_scalar(data)
        return
    sizes = []
    item: Any = data
    while isinstance(item, (list, tuple)):
        sizes.append(len(item))
        if not item:
            break
        item = item[0]
    stack = [(data, 0)]
    while stack:
        seq, dim = stack.pop()
        if len(seq) != sizes[dim]:
            raise ValueError(
                f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(seq)})"
            )
        for item in seq:
            nested = isinstance(item, (list, tuple))
            if dim + 1 < len(sizes):
                if not nested:
                    raise TypeError("not a sequence")
                stack.append((item, dim + 1))
            elif nested:
                raise TypeError(
                    f"'{type(item).__name__}' object cannot be interpreted as an integer"
                )
            else:
                _check_scalar(item)


def _check_scalar(value: Any) -> None:
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        return
    if isinstance(value, Tensor) and value.dim() == 0:
        return
    if isinstance(value, str):
        raise ValueError(f"too many dimensions '{type(value).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(value).__name__}")


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


def _float_dtype(dtype: _dtype.dtype | None, factory: str) -> np.dtype:
    return _dtype.DEFAULT_FLOAT.numpy if dtype is None else _dtype.to_numpy_dtype(dtype, factory)


def zeros(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros of the given shape.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 2)
        tensor([[0., 0.],
                [0., 0.]])
    """
    return _new(np.zeros(_shape(size), dtype=_float_dtype(dtype, "zeros")), requires_grad)


def ones(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones of the given shape."""
    return _new(np.ones(_shape(size), dtype=_float_dtype(dtype, "ones")), requires_grad)


def empty(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """An uninitialized tensor of the given shape (numpy's ``empty``)."""
    return _new(np.empty(_shape(size), dtype=_float_dtype(dtype, "empty")), requires_grad)


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
        numpy_dtype = _dtype.to_numpy_dtype(dtype, "full")
    elif isinstance(fill_value, bool):
        numpy_dtype = np.dtype(np.bool_)
    elif isinstance(fill_value, int):
        numpy_dtype = np.dtype(np.int64)
    else:
        numpy_dtype = _dtype.DEFAULT_FLOAT.numpy
    return _new(np.full(_shape(tuple(size)), fill_value, dtype=numpy_dtype), requires_grad)


def rand(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Uniform random numbers in ``[0, 1)``."""
    numpy_dtype = _float_dtype(dtype, "rand")
    values = _random.generator().random(_shape(size)).astype(numpy_dtype)
    return _new(values, requires_grad)


def randn(*size: Any, dtype: _dtype.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Standard normal random numbers."""
    numpy_dtype = _float_dtype(dtype, "randn")
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
        numpy_dtype = _dtype.to_numpy_dtype(dtype, "arange")
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
    values = np.linspace(start, end, steps).astype(_float_dtype(dtype, "linspace"))
    return _new(values, requires_grad)


def _like(
    input: Tensor, dtype: _dtype.dtype | None, factory: str
) -> tuple[tuple[int, ...], np.dtype]:
    numpy_dtype = input._array.dtype if dtype is None else _dtype.to_numpy_dtype(dtype, factory)
    return input._array.shape, numpy_dtype


def zeros_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Zeros with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "zeros_like")
    return _new(np.zeros(shape, dtype=numpy_dtype), requires_grad)


def ones_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Ones with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "ones_like")
    return _new(np.ones(shape, dtype=numpy_dtype), requires_grad)


def empty_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """An uninitialized tensor with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "empty_like")
    return _new(np.empty(shape, dtype=numpy_dtype), requires_grad)


def full_like(
    input: Tensor,
    fill_value: Any,
    *,
    dtype: _dtype.dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``fill_value`` everywhere, with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "full_like")
    return _new(np.full(shape, fill_value, dtype=numpy_dtype), requires_grad)


def rand_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Uniform random numbers with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "rand_like")
    return _new(_random.generator().random(shape).astype(numpy_dtype), requires_grad)


def randn_like(
    input: Tensor, *, dtype: _dtype.dtype | None = None, requires_grad: bool = False
) -> Tensor:
    """Standard normal random numbers with ``input``'s shape and dtype."""
    shape, numpy_dtype = _like(input, dtype, "randn_like")
    return _new(_random.generator().standard_normal(shape).astype(numpy_dtype), requires_grad)
