"""Ops that cut a tensor into views: split, split_with_sizes, chunk, unbind, tensor_split, ...

Also hsplit, vsplit, dsplit. They return several views from one node; PyTorch forbids writing
to those in place while gradients are recorded (``Output 0 of Split is a view and ...``). None
saves a tensor: the backward stacks or joins the pieces' gradients back into the input's shape.
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._arguments import check_int64
from minigrad._memory import empty_at
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.autograd.views import ViewOp
from minigrad.ops._helpers import along, is_tensor, operand, wrap_dim
from minigrad.ops.shape import cat, stack
from minigrad.ops.views import slice_dim


class Split(ViewOp):
    """ys = consecutive pieces of ``split_size`` along ``dim``;  dx = their gradients side by side.

    The last piece may be shorter; ``split_size`` and ``dim`` are kept as given (PyTorch shows
    them so).
    """

    fields = ("shape", "keys", "dim", "split_size")
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape",
                     "split_size": "split_size"}

    multi_output = "Split"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, split_size: int) -> tuple[Any, ...]:
        size = x.shape[dim]
        # (one piece, maybe empty, if there is nothing to cut)
        bounds = (*range(0, size, split_size), size) if split_size and size else (0, size)
        if ctx is not NO_GRAD_CTX:  # (what backward needs)
            ctx.split_size = split_size
        return _cut(ctx, x, dim, bounds)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple[Any, None, None]:
        return _pieces_backward(grads, ctx.shape, ctx.keys, ctx.dim, False), None, None


def _cut(ctx: Any, x: np.ndarray, dim: int, bounds: tuple[int, ...]) -> tuple[Any, ...]:
    """The views of ``x`` between consecutive ``bounds`` along ``dim``, noted for backward."""
    axis = dim % x.ndim
    keys = [along(axis, slice(a, b)) for a, b in zip(bounds, bounds[1:])]
    if ctx is not NO_GRAD_CTX:  # (what backward needs)
        ctx.shape, ctx.keys, ctx.dim = x.shape, keys, dim
    pieces = tuple(map(x.__getitem__, keys))
    # (the bounds never decrease: a piece is empty where two are equal, or all are if x is)
    if not x.size or len(set(bounds)) < len(bounds):
        # (an empty piece: numpy points it at the dimension's start, PyTorch's at its bound)
        step = x.strides[axis]
        pieces = tuple(
            piece if piece.size else empty_at(x, piece, a * step)
            for piece, a in zip(pieces, bounds)
        )
    return pieces


def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> tuple[Any, ...]:
    """``tensor`` cut along ``dim`` into pieces of ``split_size``, or of the sizes in a list.

    With an int the last piece may be shorter. The pieces are views that may not be written in
    place while gradients are recorded.

    Example:
        >>> import minigrad
        >>> minigrad.arange(5.).split(2)
        (tensor([0., 1.]), tensor([2., 3.]), tensor([4.]))
    """
    if not isinstance(tensor, TensorBase):  # PyTorch's torch.split is Python: tensor.split(...)
        return tensor.split(split_size_or_sections, dim)
    array = operand(tensor)
    if isinstance(split_size_or_sections, TensorBase):
        # (PyTorch's Tensor.split: a tensor that converts to an int is a split size)
        with contextlib.suppress(ValueError):
            split_size_or_sections = int(split_size_or_sections)
    if not isinstance(split_size_or_sections, (int, np.integer)):
        # (PyTorch's split is Python: what is not an int goes to split_with_sizes's parser)
        _arguments.check_int_sequence(
            split_size_or_sections, "split_with_sizes", "split_sizes", 2, lone_int=False)
        _arguments.check_value(dim, "int", "split_with_sizes", "dim", 3)
        return split_with_sizes(tensor, split_size_or_sections, dim)
    split_size = operator.index(split_size_or_sections)
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        # (PyTorch's split is Python: it passes the int on to torch._VF.split, whose parser
        # lists its overloads)
        raise TypeError(_arguments.kernel_call_fits_none("split", (tensor, split_size, dim)))
    _check_split_size(array, split_size, dim)
    return Split.apply(tensor, dim, split_size)  # (dim as given: the node shows it so)


def _check_split_size(array: np.ndarray, split_size: int, dim: int) -> None:
    """PyTorch's checks of an int ``split_size`` (``split``, ``unsafe_split``)."""
    check_int64(split_size)  # (past int64, the parser's error comes first)
    if array.ndim == 0:
        raise RuntimeError(errors.SPLIT_0D)
    if split_size < 0:
        raise RuntimeError(errors.split_size_negative(split_size))
    size = array.shape[wrap_dim(dim, array.ndim)]
    if split_size == 0 and size != 0:
        raise RuntimeError(errors.split_size_zero(size))


class SplitWithSizes(Split):
    """ys = consecutive pieces of the given sizes along ``dim``;  dx = their gradients joined."""

    fields = ("split_sizes",)
    saved_options = {"dim": as_given("dim"), "self_sym_sizes": "shape",
                     "split_sizes": "split_sizes"}

    multi_output = "SplitWithSizes"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, split_sizes: tuple[int, ...]) -> tuple[Any, ...]:
        bounds = tuple(int(b) for b in np.cumsum([0, *split_sizes]))
        ctx.split_sizes = split_sizes
        return _cut(ctx, x, dim, bounds)


def split_with_sizes(input: Any, split_sizes: Any, dim: int = 0) -> tuple[Any, ...]:
    """``input`` cut along ``dim`` into pieces of the given sizes (they must add up)."""
    _arguments.check_int_sequence(split_sizes, "split_with_sizes", "split_sizes", 1,
                                  lone_int=False)
    return SplitWithSizes.apply(input, dim, _checked_sizes(input, split_sizes, dim))


def _checked_sizes(input: Any, split_sizes: Any, dim: int) -> tuple[int, ...]:
    """PyTorch's checks of ``split_sizes`` (``split_with_sizes`` and its unsafe form)."""
    array = operand(input)
    if array.ndim == 0:
        raise RuntimeError(errors.SPLIT_0D)
    sizes = [operator.index(s) for s in split_sizes]
    size = array.shape[wrap_dim(dim, array.ndim)]
    if any(s < 0 for s in sizes):
        raise RuntimeError(errors.split_sizes_negative(sizes))
    if sum(sizes) != size:
        raise RuntimeError(errors.split_sizes_sum(size, dim, sizes))
    return tuple(sizes)  # (dim as given, as Split's)


# --- the unsafe forms: the same pieces, not views for autograd -----------------------------------


class UnsafeSplit(Op):
    """split's pieces, recorded as one op whose outputs are not views (UnsafeSplitBackward0).

    They share ``x``'s memory but each has a version counter of its own, and writing them in
    place is allowed (PyTorch's "unsafe": its autograd does not track the aliasing). Same
    formulas as Split.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = Split.fields
    saved_options = Split.saved_options
    forward = Split.forward
    backward = Split.backward


class UnsafeSplitWithSizes(Op):
    """split_with_sizes's pieces as UnsafeSplit's (UnsafeSplitWithSizesBackward0)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = (*Split.fields, *SplitWithSizes.fields)
    saved_options = SplitWithSizes.saved_options
    forward = SplitWithSizes.forward
    backward = Split.backward


def unsafe_split(input: Any, split_size: int, dim: int = 0) -> tuple[Any, ...]:
    """``split`` into pieces of ``split_size`` whose in-place writes autograd does not police.

    The pieces share ``input``'s memory but are not views for autograd (PyTorch's "unsafe").

    Example:
        >>> import minigrad
        >>> minigrad.unsafe_split(minigrad.arange(5.), 2)
        (tensor([0., 1.]), tensor([2., 3.]), tensor([4.]))
    """
    _check_split_size(operand(input), split_size, dim)
    return UnsafeSplit.apply(input, dim, split_size)  # (dim as given: the node shows it so)


def unsafe_split_with_sizes(input: Any, split_sizes: Any, dim: int = 0) -> tuple[Any, ...]:
    """``split_with_sizes``, its pieces not views for autograd (see ``unsafe_split``).

    Example:
        >>> import minigrad
        >>> minigrad.unsafe_split_with_sizes(minigrad.arange(3.), [1, 2])
        (tensor([0.]), tensor([1., 2.]))
    """
    _arguments.check_int_sequence(split_sizes, "unsafe_split_with_sizes", "split_sizes", 1,
                                  lone_int=False)
    return UnsafeSplitWithSizes.apply(input, dim, _checked_sizes(input, split_sizes, dim))


class Unbind(ViewOp):
    """ys = the slices x[..., i, ...] along ``dim``, one per index;  dx = them stacked."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "keys", "dim")  # (dim as given: PyTorch's node shows it so)
    saved_options = {"dim": as_given("dim")}

    multi_output = "Unbind"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> tuple[Any, ...]:
        keys = [along(dim % x.ndim, i) for i in range(x.shape[dim])]
        ctx.shape, ctx.keys, ctx.dim = x.shape, keys, dim
        return tuple(x[key] for key in keys)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple[Any, None]:
        return _pieces_backward(grads, ctx.shape, ctx.keys, ctx.dim, True), None


def unbind(input: Any, dim: int = 0) -> tuple[Any, ...]:
    """The slices of ``input`` along ``dim``.

    They are views that may not be written in place while gradients are recorded.

    Example:
        >>> import minigrad
        >>> minigrad.tensor([[1., 2.], [3., 4.]]).unbind(1)
        (tensor([1., 3.]), tensor([2., 4.]))
    """
    ndim = operand(input).ndim
    if ndim == 0:
        raise IndexError(errors.dim_of_0d(0))
    wrap_dim(dim, ndim)  # (checked; kept as given)
    return Unbind.apply(input, dim)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple[Any, ...]:
    """``input`` cut along ``dim`` into at most ``chunks`` pieces of equal size.

    That is ``split`` with ``ceil(size / chunks)``: the last piece may be smaller.

    Example:
        >>> import minigrad
        >>> [piece.shape[0] for piece in minigrad.zeros(5).chunk(3)]
        [2, 2, 1]
    """
    return _chunk(input, chunks, dim, split, split_with_sizes)


def unsafe_chunk(input: Any, chunks: int, dim: int = 0) -> tuple[Any, ...]:
    """``chunk``, its pieces not views for autograd (see ``unsafe_split``).

    Example:
        >>> import minigrad
        >>> [piece.shape[0] for piece in minigrad.unsafe_chunk(minigrad.zeros(5), 3)]
        [2, 2, 1]
    """
    return _chunk(input, chunks, dim, unsafe_split, unsafe_split_with_sizes)


def _chunk(input: Any, chunks: int, dim: int, by_size: Any, by_sizes: Any) -> tuple[Any, ...]:
    """``chunk`` through ``by_size`` (split) or, for empty chunks, ``by_sizes``."""
    array = operand(input)
    check_int64(chunks)  # (past int64, the parser's error comes first)
    if array.ndim == 0:
        raise RuntimeError(errors.CHUNK_0D)
    if chunks <= 0:
        raise RuntimeError(errors.chunks_not_positive(chunks))
    size = array.shape[wrap_dim(dim, array.ndim)]
    split_size = -(-size // chunks)
    if split_size == 0 and size == 0:
        # PyTorch keeps the number of (empty) chunks, through split_with_sizes.
        return by_sizes(input, [0] * chunks, dim)
    return by_size(input, split_size, dim)


def tensor_split(input: Any, indices_or_sections: Any, dim: int = 0) -> tuple[Any, ...]:
    """``input`` cut along ``dim`` into ``n`` nearly equal pieces, or at the given indices.

    Unlike ``split``, each piece is its own slice (a view that may be written in place).
    """
    array = operand(input)
    if array.ndim == 0:
        raise RuntimeError(errors.TENSOR_SPLIT_0D)
    if isinstance(indices_or_sections, TensorBase):
        value = indices_or_sections._array
        indices_or_sections = int(value) if value.ndim == 0 else [int(i) for i in value]
    dim = wrap_dim(dim, array.ndim)
    size = array.shape[dim]
    if isinstance(indices_or_sections, (list, tuple)):
        # (an int list's items past int64: the parser's error, after dim's)
        _arguments.check_int64_items(indices_or_sections, "tensor_split", "indices")
        cuts = [operator.index(i) for i in indices_or_sections]
        starts, stops = [0, *cuts], [*cuts, size]
    else:
        sections = check_int64(operator.index(indices_or_sections))
        if sections <= 0:
            raise RuntimeError(errors.sections_not_positive(sections))
        small, extra = divmod(size, sections)
        lengths = [small + 1 if i < extra else small for i in range(sections)]
        starts = [int(s) for s in np.cumsum([0, *lengths[:-1]])]
        stops = [a + n for a, n in zip(starts, lengths)]
    return tuple(slice_dim(input, dim, a, b, 1) for a, b in zip(starts, stops))


def hsplit(input: Any, sections: Any) -> tuple[Any, ...]:
    """``tensor_split`` along dimension 1 (dimension 0 of a 1-D tensor)."""
    return _split_along(input, sections, "hsplit", 1, 0 if operand(input).ndim == 1 else 1)


def _split_along(input: Any, sections: Any, name: str, min_dim: int, dim: int) -> Any:
    """``name`` (hsplit, vsplit, dsplit): ``tensor_split`` along ``dim``, with their checks."""
    if isinstance(sections, (list, tuple)):  # (past int64: the parser's errors come first)
        _arguments.check_int64_items(sections, name, "indices")
    else:
        _arguments.check_int64_arguments(sections)
    ndim = operand(input).ndim
    if ndim < min_dim:
        raise RuntimeError(errors.dsplit_too_few_dims(name, min_dim, ndim))
    if not isinstance(sections, (list, tuple)):
        size = operand(input).shape[dim]
        if sections == 0 or size % sections:
            raise RuntimeError(errors.dsplit_not_divisible(name, dim, size, sections))
    return tensor_split(input, sections, dim)


def vsplit(input: Any, sections: Any) -> tuple[Any, ...]:
    """``tensor_split`` along dimension 0 of an at least 2-D tensor."""
    return _split_along(input, sections, "vsplit", 2, 0)


def dsplit(input: Any, sections: Any) -> tuple[Any, ...]:
    """``tensor_split`` along dimension 2 of an at least 3-D tensor."""
    return _split_along(input, sections, "dsplit", 3, 2)


def _pieces_backward(
    grads: tuple[Any, ...], shape: tuple[int, ...], keys: list[Any], dim: int, stacked: bool
) -> Any:
    """The gradient of a multi-output view op: each output's gradient placed at its key."""
    if any(is_tensor(g) for g in grads):
        # create_graph: PyTorch records one cat (split) or stack (unbind) of the gradients.
        make = TensorBase.output_class._make
        tensors = [g if isinstance(g, TensorBase) else make(np.asarray(g)) for g in grads]
        return stack(tensors, dim) if stacked else cat(tensors, dim)
    result = np.zeros(shape, dtype=grads[0].dtype)
    for grad, key in zip(grads, keys):
        result[key] = grad
    return result
