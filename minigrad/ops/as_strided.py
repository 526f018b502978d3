"""as_strided (and as_strided_, as_strided_scatter): a view of a tensor's memory, by hand.

The geometry (``size``, ``stride`` and ``storage_offset``, in elements) counts in the memory
the tensor shares with its base, as PyTorch's storage: ``v.as_strided(...)`` of a view ``v``
addresses the base's elements, and a missing ``storage_offset`` is ``v``'s own. The gradient
is PyTorch's as_strided_backward: the output's gradient added up in a storage-sized buffer,
then read back at the input's own elements (elements of the storage outside the input get
none; an input whose elements share memory shares their gradient evenly).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._arguments import check_int64_arguments, check_int64_items
from minigrad._memory import offset_in, typed
from minigrad._memory import root as _memory_root
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace_view
from minigrad.autograd.saved_attributes import part
from minigrad.autograd.views import ViewOp
from minigrad.ops._helpers import (
    check_differentiable_result,
    constant_tensor,
    is_tensor,
    raw,
    run,
)
from minigrad.ops.view_scatters import ViewScatter


def _memory(x: np.ndarray) -> tuple[np.ndarray, int]:
    """The memory ``x`` lives in (its root array, in ``x``'s dtype) and ``x``'s offset in it.

    The offset counts ``x``'s elements. A root of another dtype (a tensor ``set_`` to a
    storage of bytes, or of another type) is read as ``x``'s dtype, as PyTorch's storage is.
    """
    owner = _memory_root(x)
    offset = offset_in(owner, x)
    if owner.dtype != x.dtype:
        owner = typed(owner, x.dtype)
    return owner, offset


def _view(
    owner: np.ndarray,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    offset: int,
    writeable: bool,
) -> np.ndarray:
    """The elements of ``owner``'s memory at (shape, strides, offset), as a numpy view of it.

    Made on ``owner``'s buffer where it is one block, so that the view's ``base`` is the
    owner (``storage_offset`` reads it); numpy's ``as_strided`` otherwise.
    """
    itemsize = owner.itemsize
    byte_strides = tuple(s * itemsize for s in strides)
    if owner.flags.c_contiguous and owner.size:
        view = np.ndarray(
            shape, owner.dtype, buffer=owner, offset=offset * itemsize, strides=byte_strides
        )
    else:
        flat = np.ravel(owner, order="K")  # (a view: numpy's allocations are dense)
        view = np.lib.stride_tricks.as_strided(
            flat[offset:] if flat.size else flat, shape=shape, strides=byte_strides
        )
    if not writeable:  # (a read-only input gives a read-only view)
        view.flags.writeable = False
    return view


def _offsets(shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> np.ndarray:
    """The memory position of each element of a (shape, strides, offset) geometry."""
    positions = np.full(shape, offset, dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(shape, strides)):
        steps = [1] * len(shape)
        steps[axis] = size
        positions = positions + (np.arange(size, dtype=np.int64) * stride).reshape(steps)
    return positions


class AsStridedGradient(Op):
    """y = (grad added up in memory at ``source``) read at ``target``, times ``weight``.

    as_strided's backward as an op, so that ``create_graph`` records it; its own gradient is
    the same op with the roles of ``source`` and ``target`` exchanged.
    """

    fields = ("source", "target", "size", "weight")
    node_name = "AsStridedBackwardBackward0"

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, source: np.ndarray, target: np.ndarray, size: int, weight: Any
    ) -> np.ndarray:
        ctx.source, ctx.target, ctx.size, ctx.weight = source, target, size, weight
        memory = np.zeros(size, dtype=grad.dtype)
        np.add.at(memory, source, grad)
        result = memory[target]
        return result if weight is None else result * weight

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        weighted = grad if ctx.weight is None else grad * ctx.weight
        back = run(AsStridedGradient, weighted, ctx.target, ctx.source, ctx.size, None)
        return back, None, None, None, None


class AsStrided(ViewOp):
    """y = the elements of x's memory at (size, stride, offset);  dx: see the module docstring.

    Saves no tensor; PyTorch's node shows the geometry as given (``storage_offset`` None when
    it was not given).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = (
        "size",
        "stride",
        "storage_offset",
        "memory_size",
        "source",
        "target",
        "weight",
        "input_geometry",
        "offset",
    )
    saved_options = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        size: tuple[int, ...],
        stride: tuple[int, ...],
        storage_offset: int | None,
    ) -> np.ndarray:
        memory, own_offset = _memory(x)
        offset = own_offset if storage_offset is None else storage_offset
        if ctx is not NO_GRAD_CTX:  # (what backward needs: where x's and y's elements live)
            ctx.size, ctx.stride, ctx.storage_offset = size, stride, storage_offset
            ctx.memory_size = memory.size
            ctx.source = _offsets(size, stride, offset)
            inputs = _offsets(x.shape, tuple(s // x.itemsize for s in x.strides), own_offset)
            counts = np.bincount(inputs.reshape(-1), minlength=memory.size)[inputs]
            ctx.target = inputs
            ctx.weight = None if np.all(counts <= 1) else (1.0 / counts).astype(x.dtype)
            ctx.offset = offset
            ctx.input_geometry = (x.shape, tuple(s // x.itemsize for s in x.strides), own_offset)
        return _view(memory, size, stride, offset, x.flags.writeable)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        overlapping = np.unique(ctx.source).size != ctx.source.size
        if not is_tensor(grad) or overlapping:
            dx = run(AsStridedGradient, grad, ctx.source, ctx.target, ctx.memory_size, ctx.weight)
            return dx, None, None, None
        # create_graph: PyTorch's composition, the gradient added into a view of zeros (a
        # CopySlices), then read through the input's own geometry (AsStridedBackward0)
        memory = constant_tensor(np.zeros(ctx.memory_size, dtype=grad._array.dtype))
        as_strided(memory, ctx.size, ctx.stride, ctx.offset).add_(grad)
        dx = as_strided(memory, *ctx.input_geometry)
        return (dx if ctx.weight is None else dx * ctx.weight), None, None, None


class AsStridedInplace(AsStrided):
    """``as_strided_``: the same view, taken in place (PyTorch's node: AsStridedBackward1)."""

    node_name = "AsStridedBackward1"


def _checked(
    input: Any, size: Any, stride: Any, storage_offset: Any, function: str = "as_strided"
) -> tuple[Any, ...]:
    """The geometry as tuples of ints, with PyTorch's errors for one out of the memory.

    ``function`` names the op in the parser's errors for an int no int64 holds, which come
    first (PyTorch's parser unpacks every argument before the op looks at one, the last
    first).
    """
    check_int64_arguments(storage_offset)
    check_int64_items(stride, function, "stride")
    check_int64_items(size, function, "size")
    size = tuple(operator.index(n) for n in size)
    stride = tuple(operator.index(s) for s in stride)
    if storage_offset is not None:
        storage_offset = operator.index(storage_offset)
    if len(size) != len(stride):
        raise RuntimeError(errors.AS_STRIDED_LENGTHS)
    if any(s < 0 for s in stride):
        raise RuntimeError(errors.as_strided_negative_strides(stride))
    if any(n < 0 for n in size):
        raise RuntimeError(errors.as_strided_overflow(size, stride))
    array = input._array
    memory, own_offset = _memory(array)
    offset = own_offset if storage_offset is None else storage_offset
    if offset < 0:
        raise RuntimeError(errors.as_strided_negative_offset(offset))
    itemsize = array.itemsize
    needed = 0 if 0 in size else (offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)))
    if needed * itemsize > memory.size * itemsize:
        raise RuntimeError(
            errors.as_strided_out_of_bounds(
                size, stride, offset, itemsize, needed * itemsize, memory.size * itemsize
            )
        )
    return size, stride, storage_offset


def as_strided(input: Any, size: Any, stride: Any, storage_offset: Any = None) -> Any:
    """A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset``.

    All count elements of the memory ``input`` shares with its base (a view's base's);
    without ``storage_offset``, ``input``'s own offset. Elements may overlap.

    Example:
        >>> import minigrad
        >>> minigrad.arange(6.).as_strided((2, 2), (1, 2))
        tensor([[0., 2.],
                [1., 3.]])
    """
    return AsStrided.apply(input, *_checked(input, size, stride, storage_offset))


def as_strided_copy_view(input: Any, size: Any, stride: Any, storage_offset: Any = None) -> Any:
    """``as_strided``'s view, checked under the name ``as_strided_copy`` (for view_copies)."""
    return AsStrided.apply(input, *_checked(input, size, stride, storage_offset, "as_strided_copy"))


def as_strided_(input: Any, size: Any, stride: Any, storage_offset: Any = None) -> Any:
    """Give ``input`` the geometry (``size``, ``stride``, ``storage_offset``), in place."""
    return apply_inplace_view(
        AsStridedInplace, input, *_checked(input, size, stride, storage_offset, "as_strided_")
    )


class AsStridedScatter(ViewScatter):
    """as_strided_scatter: the region is ``y.as_strided(size, stride, storage_offset)``.

    ``y`` is the copy of x (see ViewScatter); PyTorch's AsStridedScatterBackward0. The
    gradient for x is the true one (grad, 0 in the region): PyTorch 2.13's puts the region's
    gradient there instead, which a finite-difference check refutes.
    """

    view = AsStrided
    saved_options = {
        "size": part("options", 0),
        "stride": part("options", 1),
        "storage_offset": part("options", 2),
    }

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        # The geometry counts in a row-major copy's memory: the gradient's must be one too.
        grad = grad.contiguous() if is_tensor(grad) else np.ascontiguousarray(grad)
        return super().backward.__func__(cls, ctx, grad)


def as_strided_scatter(
    input: Any, src: Any, size: Any, stride: Any, storage_offset: Any = None
) -> Any:
    """A copy of ``input`` whose elements at (``size``, ``stride``, ``storage_offset``) are ``src``.

    The geometry counts in the copy's own memory (laid out as ``input``).

    Example:
        >>> import minigrad
        >>> minigrad.as_strided_scatter(minigrad.zeros(4), minigrad.ones(2), (2,), (2,))
        tensor([1., 0., 1., 0.])
    """
    # (in input's memory, as PyTorch)
    geometry = _checked(input, size, stride, storage_offset, "as_strided_scatter")
    shape = tuple(geometry[0])
    if tuple(raw(src).shape) != shape:
        raise RuntimeError(errors.scatter_src_size(raw(src).shape, shape))
    check_differentiable_result(raw(input).dtype, src)
    return AsStridedScatter.apply(input, src, *geometry)
