"""``resize_`` and ``resize_as_``: a tensor given a new shape over its memory, grown if need be.

PyTorch's rules: the tensor takes the new shape with the strides of a new tensor in the
memory format (row-major unless ``memory_format=`` says), starting where it starts now in its
memory (its storage). The elements that fit keep their values (the memory is reinterpreted,
not reshaped); if the memory is too small it grows, and the new elements are uninitialized.
A tensor that requires grad may not be resized (the op has no gradient), nor shared memory
grown. The shape as it was changes nothing; the version moves only if the shape changes.

minigrad's memory is a numpy allocation, which cannot grow in place: grown memory is new (the
old elements copied to its start), and only the resized tensor moves to it. What shared the
old memory keeps it: the tensor's views or base, its ``detach()`` aliases, tensors ``set_`` to
it, and its ``UntypedStorage`` object (``x.untyped_storage()`` is then a new one), where
PyTorch's all follow the grown storage. The version counter stays shared, so saved-tensor
checks are PyTorch's. A resize that fits the memory changes no memory, as PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _memory_formats, _shared_memory, errors
from minigrad._layout import format_strides
from minigrad.autograd.inplace import rebind_resized
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops.as_strided import AsStrided, _memory, _view

RESIZE_REQUIRES_GRAD = "cannot resize variables that require grad"
_PRESERVE = "Unsupported memory formatPreserve"  # (sic: PyTorch's text has no space)


def resize_(input: TensorBase, shape: tuple[int, ...], memory_format: Any = None) -> TensorBase:
    """``input`` with ``shape`` (checked ints) over its memory, in place; see the module doc.

    Example:
        >>> import minigrad
        >>> x = minigrad.arange(6.0)
        >>> x.resize_(2, 2), x._version
        (tensor([[0., 1.],
                [2., 3.]]), 1)
    """
    if input.requires_grad:
        raise RuntimeError(RESIZE_REQUIRES_GRAD)
    if any(n < 0 for n in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    if memory_format is _memory_formats.preserve_format:
        raise RuntimeError(_PRESERVE)
    strides = format_strides(shape, memory_format or _memory_formats.contiguous_format)
    array = input._array
    if shape == array.shape and memory_format is None:
        return input  # (PyTorch's early return: the strides stay as they are)
    fitted = in_memory(array, shape, strides)
    if fitted is not None:
        resized, steps = fitted
    elif _shared_memory.is_shared(array):
        raise RuntimeError("Trying to resize storage that is not resizable")
    else:  # (new memory: the old one's elements first, as PyTorch's grown storage)
        memory, offset = _memory(array)
        grown = np.empty(_needed(offset, shape, strides), dtype=array.dtype)
        old = memory.reshape(-1) if memory.flags.c_contiguous else array.reshape(-1)
        grown[: old.size] = old
        resized = _view(grown, shape, strides, offset if old is not array else 0, True)
        steps = None
    rebind_resized(input, resized, steps, bump=shape != array.shape)
    return input


def in_memory(
    array: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]
) -> tuple[np.ndarray, Any] | None:
    """``array`` resized to (shape, strides) where it starts in its memory, if that fits.

    The resized array (a numpy view of the same memory) and the view step that replays it on
    its base (an ``as_strided`` in the base's memory); None if the memory is too small (PyTorch
    would grow it).
    """
    memory, offset = _memory(array)
    if _needed(offset, shape, strides) > memory.size or not memory.flags.c_contiguous:
        return None
    resized = _view(memory, shape, strides, offset, array.flags.writeable)
    return resized, ((AsStrided.view_op_number, (shape, strides, offset), None),)


def _needed(offset: int, shape: tuple[int, ...], strides: tuple[int, ...]) -> int:
    """The elements of memory (shape, strides) at ``offset`` reaches: 0 if it has none."""
    return 0 if 0 in shape else offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides))


def resize_as_(input: TensorBase, the_template: TensorBase, memory_format: Any = None) -> Any:
    """``input`` resized to ``the_template``'s shape, in place (``resize_``'s rules).

    Example:
        >>> import minigrad
        >>> minigrad.arange(6.0).resize_as_(minigrad.zeros(2, 2)).shape
        minigrad.Size([2, 2])
    """
    if not isinstance(the_template, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(
                "resize_as_", "the_template", "Tensor", errors.python_type_name(the_template), 1
            )
        )
    return resize_(input, tuple(the_template._array.shape), memory_format)
