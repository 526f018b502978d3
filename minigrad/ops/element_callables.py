"""``apply_``, ``map_``, ``map2_``: a Python callable run on each element, written in place.

PyTorch's CPU-only loops for code that needs a Python function per element: the elements are
visited in row-major order of the tensor's shape (of a transposed tensor: its own order, not
memory's), each call's result converted to the tensor's dtype (an integer tensor truncates a
float). No gradient: a tensor that requires grad is refused, and the write is not counted
(the version stays, as a write through ``numpy()``). An element stored twice (an expanded
tensor) is visited twice, each visit reading the value written before.

A callable that raises leaves the tensor as it was (PyTorch's keeps the elements written
before; minigrad's rule is that a failed op changes nothing): the loop runs on a copy of the
memory, written back at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.inplace import write_uncounted
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops.as_strided import _memory, _view
from minigrad.ops.strides import element_strides

_NUMBERS = (bool, int, float, np.number, np.bool_)


def apply_(input: TensorBase, callable: Callable[[Any], Any]) -> TensorBase:
    """Each element replaced by ``callable(element)``, in place.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([1.0, 2.0]).apply_(lambda v: v * 10)
        tensor([10., 20.])
    """
    _refuse_grad("apply_", (input,))
    return _run(input, (), callable)


def map_(input: TensorBase, other: TensorBase, callable: Callable[[Any, Any], Any]) -> Any:
    """Each element replaced by ``callable(element, other's)``, ``other`` broadcast, in place.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 2).map_(minigrad.tensor([1.0, 2.0]), lambda a, b: a + b)
        tensor([[1., 2.],
                [1., 2.]])
    """
    _refuse_grad("map_", (input, other))
    _same_type("map_: expected {} for 'other' (got {})", input, other)
    return _run(input, (other.expand(input.shape)._array,), callable)


def map2_(
    input: TensorBase, x: TensorBase, y: TensorBase, callable: Callable[[Any, Any, Any], Any]
) -> Any:
    """Each element replaced by ``callable(element, x's, y's)``, both broadcast, in place.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2).map2_(minigrad.ones(2), minigrad.tensor(3.0), lambda a, b, c: b + c)
        tensor([4., 4.])
    """
    _refuse_grad("map2_", (input, x, y))
    _same_type("map2_: expected {} for argument 'x' (got {})", input, x)
    _same_type("map2_: expected {} for argument 'y' (got {})", input, y)
    shape = input.shape
    return _run(input, (x.expand(shape)._array, y.expand(shape)._array), callable)


def _refuse_grad(name: str, tensors: tuple[TensorBase, ...]) -> None:
    if any(tensor.requires_grad for tensor in tensors):
        raise RuntimeError(
            f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() "
            "instead."
        )


def _same_type(text: str, input: TensorBase, other: TensorBase) -> None:
    if other._array.dtype != input._array.dtype:
        raise TypeError(text.format(input._type_name(), other._type_name()))


def _run(input: TensorBase, others: tuple[np.ndarray, ...], function: Callable[..., Any]) -> Any:
    """The loop, on a copy of ``input``'s memory; written back once every call returned."""
    array = input._array
    memory, offset = _memory(array)
    if memory.flags.c_contiguous:  # (aliased elements stay aliased in the copy)
        work = _view(memory.copy(), array.shape, element_strides(array), offset, True)
    else:
        work = array.copy()
    convert = _converter(array.dtype)
    for index in np.ndindex(array.shape):
        value = function(work[index].item(), *(other[index].item() for other in others))
        work[index] = convert(value)
    write_uncounted(input, work)
    return input


def _converter(dtype: np.dtype) -> Callable[[Any], Any]:
    """The callable's result as an element of ``dtype`` (PyTorch's unpacking of a number)."""
    kind = {"f": float, "b": bool}.get(dtype.kind, int)

    def convert(value: Any) -> Any:
        if not isinstance(value, _NUMBERS):
            raise TypeError(f"must be real number, not {type(value).__name__}")
        return kind(value)

    return convert
