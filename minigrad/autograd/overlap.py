"""PyTorch's rule for an in-place op whose input shares memory with the tensor it writes.

PyTorch's elementwise kernels (its TensorIterator) compare the written tensor with each input
before computing anything:

- the very same tensor object, or the same elements in the same layout (``x.mul_(x)``,
  ``x.add_(x.detach())``): *full* overlap, allowed — each element reads only itself;
- memory ranges that intersect otherwise (``x.t().add_(x)``, ``x[0:2].add_(x[1:3])``, a
  ``[1]`` view of a 0-d tensor): *partial* overlap, refused, since the result would depend on
  the order elements are visited;
- either tensor not dense (gaps between its elements, as in ``x[:, :1]``): "too hard" to
  decide, allowed without a check, as PyTorch does. The result is then what PyTorch's loop
  computes, reading elements it already wrote (``kernel_order_result``).

The check runs after autograd's own checks and before the shape check, in PyTorch's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._layout import is_non_overlapping_and_dense
from minigrad.autograd.quiet import quiet_floats
from minigrad.autograd.record import NO_GRAD_CTX
from minigrad.autograd.tensor_base import TensorBase


def check_inputs_overlap(op: Any, tensor: TensorBase, args: tuple[Any, ...]) -> bool:
    """Raise PyTorch's error if an input of ``op`` partially overlaps ``tensor``'s memory.

    Ops that do not use PyTorch's elementwise kernels (fills, index and scatter ops) declare
    ``checks_input_overlap = False`` (``Op``'s default is True). Returns True if an input
    shares memory with ``tensor`` in a way PyTorch does not check (either is not dense): its
    kernel then reads elements it already wrote, see ``kernel_order_result``.
    """
    if not op.checks_input_overlap:
        return False
    undecided = False
    output = tensor._array
    for arg in args:
        if isinstance(arg, TensorBase) and arg is not tensor:
            array = arg._array
            if output.size == 0 or array.size == 0:
                continue
            # Disjoint memory bounds (checked in C): no overlap of any kind, so neither test
            # below can find one (the common case: SGD's ``p.add_(g, ...)``).
            if not np.may_share_memory(output, array):
                continue
            if not (is_non_overlapping_and_dense(output) and is_non_overlapping_and_dense(array)):
                undecided = undecided or np.shares_memory(output, array)
            elif partially_overlap(output, array):
                raise RuntimeError(errors.PARTIAL_OVERLAP)
    return undecided


def refuse_partial_overlap(tensor: TensorBase, others: tuple[Any, ...]) -> None:
    """Raise PyTorch's error if a tensor of ``others`` partially overlaps ``tensor``'s memory.

    The part of ``check_inputs_overlap`` that can fail, for the paths that must rule on it
    before an error PyTorch's kernels find later (a result dtype the tensor cannot hold).
    """
    for other in others:
        if (isinstance(other, TensorBase) and other is not tensor
                and partially_overlap(tensor._array, other._array)):
            raise RuntimeError(errors.PARTIAL_OVERLAP)


def kernel_order_result(op: Any, tensor: TensorBase, args: tuple[Any, ...]) -> np.ndarray:
    """What PyTorch's kernel writes when inputs overlap ``tensor`` in a way it does not check.

    Its loop visits the written elements in memory order, one at a time (for the small
    tensors where this happens; its vectorized loops need long contiguous rows), and reads each
    input element when it gets there: an input element that is also a written one has its new
    value if the loop already passed it. ``x.add_(x.diagonal())`` adds the new ``x[0, 0]`` to
    ``x[1, 0]``. Computed here element by element with ``op``'s forward, from the values before
    the write.
    """
    output = tensor._array
    shape = output.shape
    # Per operand: its values (tensors broadcast to the output's shape, copied before the
    # write), and for those sharing memory with the output, each element's address.
    operands: list[tuple[Any, np.ndarray | None]] = [(np.array(output), None)]
    tensors = [True]
    for arg in args:
        tensors.append(isinstance(arg, TensorBase))
        if tensors[-1]:
            array = np.broadcast_to(arg._array, shape)
            shared = np.shares_memory(output, array)
            operands.append((np.array(array), _addresses(array) if shared else None))
        else:
            operands.append((arg, None))
    written: dict[int, Any] = {}  # address -> new value, for the elements written so far
    output_addresses = _addresses(output)
    result = np.empty(shape, dtype=output.dtype)
    with quiet_floats():  # inf and nan are values, as in every op's forward
        _visit_in_memory_order(op, operands, tensors, output_addresses, written, result)
    return result


def copied_in_kernel_order(
    output: np.ndarray, source: np.ndarray, values: np.ndarray | None = None
) -> np.ndarray:
    """The values PyTorch's copy of ``source`` into ``output`` (of one shape) leaves there.

    Where the two share memory in a way its copy does not check (one is not dense), its loop
    visits ``output``'s elements in memory order and reads each ``source`` element when it
    gets there: one the loop already wrote has its new value. ``values``: ``source``'s values
    as they are written (converted to ``output``'s dtype), if not ``source`` itself.
    """
    values = np.array(source) if values is None else values
    if not np.shares_memory(output, source):
        return values
    output_addresses, source_addresses = _addresses(output), _addresses(source)
    written: dict[int, Any] = {}  # address -> new value, for the elements written so far
    result = np.empty(output.shape, dtype=output.dtype)
    order = np.argsort(output_addresses, axis=None, kind="stable")
    row, block = _vectorized_rows(output, source)
    for start in range(0, order.size, row):
        # Within a row the vectorized loop reads each block of ``block`` elements whole,
        # then writes it; the rest of the row goes one element at a time.
        blocks = range(0, row - block + 1, block) if block else range(0)
        steps = [(b, b + block) for b in blocks] + [
            (i, i + 1) for i in range(len(blocks) * block if block else 0, row)
        ]
        for first, end in steps:
            indices = [np.unravel_index(flat, output.shape) for flat in order[start + first:
                                                                            start + end]]
            read = [written.get(int(source_addresses[i]), values[i]) for i in indices]
            for index, value in zip(indices, read):
                written[int(output_addresses[index])] = result[index] = value
    return result


# PyTorch's vector registers on the AVX2 kernels the differential tests pin: 32 bytes, and its
# vectorized loop handles two of them at once (cpu/Loops.h's ``vectorized_loop``).
_VECTOR_BYTES = 32


def _vectorized_rows(output: np.ndarray, source: np.ndarray) -> tuple[int, int]:
    """The length of the kernel's rows (its inner dimension) and its vectorized block (or 0).

    TensorIterator orders the dimensions by the written tensor's strides and merges those that
    are contiguous for both tensors into the inner one; the vectorized loop runs over it when
    both are contiguous there (or the source is one element repeated), a copy of one dtype.
    """
    dims = sorted(
        (d for d in range(output.ndim) if output.shape[d] > 1), key=lambda d: output.strides[d]
    )
    if not dims:
        return max(output.size, 1), 0
    inner = dims[0]
    row = output.shape[inner]
    out_stride, in_stride = output.strides[inner], source.strides[inner]
    for dim in dims[1:]:
        if output.strides[dim] != out_stride * row or source.strides[dim] != in_stride * row:
            break
        row *= output.shape[dim]
    itemsize = output.itemsize
    vectorized = (
        output.dtype == source.dtype and out_stride == itemsize and in_stride in (itemsize, 0)
    )
    return row, 2 * (_VECTOR_BYTES // itemsize) if vectorized else 0


def _visit_in_memory_order(
    op: Any,
    operands: list[tuple[Any, np.ndarray | None]],
    tensors: list[bool],
    output_addresses: np.ndarray,
    written: dict[int, Any],
    result: np.ndarray,
) -> None:
    shape = result.shape
    for flat in np.argsort(output_addresses, axis=None, kind="stable"):
        index = np.unravel_index(flat, shape)
        values = []
        for is_tensor, (operand, where) in zip(tensors, operands):
            if not is_tensor:
                values.append(operand)
            elif where is None:
                values.append(operand[index])
            else:
                values.append(written.get(int(where[index]), operand[index]))
        value = np.asarray(op.forward(NO_GRAD_CTX, *map(np.asarray, values[:1]), *values[1:]))
        written[int(output_addresses[index])] = result[index] = value.astype(result.dtype)


def _addresses(array: np.ndarray) -> np.ndarray:
    """Each element's memory address, in an array of ``array``'s shape."""
    start = array.__array_interface__["data"][0]
    offsets = sum(
        (np.arange(size) * stride).reshape((-1,) + (1,) * (array.ndim - 1 - dim))
        for dim, (size, stride) in enumerate(zip(array.shape, array.strides))
    )
    return np.broadcast_to(start + np.asarray(offsets, dtype=np.int64), array.shape)


def partially_overlap(output: np.ndarray, input: np.ndarray) -> bool:
    """True if ``input``'s elements and ``output``'s share memory other than one to one."""
    if not np.may_share_memory(output, input):  # disjoint memory bounds, checked in C
        return False
    if output.size == 0 or input.size == 0:
        return False
    if not (is_non_overlapping_and_dense(output) and is_non_overlapping_and_dense(input)):
        return False  # PyTorch's "too hard": no check
    output_begin, output_end = _memory_range(output)
    input_begin, input_end = _memory_range(input)
    if (output_begin, output_end) == (input_begin, input_end):
        return output.strides != input.strides
    return output_begin < input_end and input_begin < output_end


def _memory_range(array: np.ndarray) -> tuple[int, int]:
    begin = array.__array_interface__["data"][0]
    return begin, begin + array.size * array.itemsize
