"""Functions PyTorch composes of views and cat: broadcasting, meshgrid, atleast_Nd, the stacks.

None of them is an op of its own: each returns what the views (``expand``, ``reshape``,
``unsqueeze``) and ``cat`` it is made of return, with their nodes (``ExpandBackward0``,
``ViewBackward0``, ``UnsqueezeBackward0``, ``CatBackward0``), as PyTorch's do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minigrad import _arguments, _warnings
from minigrad._dtype import type_name
from minigrad._size import Size
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import broadcast_shapes as broadcast_two_shapes
from minigrad.ops.shape import _tensor_list, cat

# --- broadcasting -------------------------------------------------------------------------------


def broadcast_to(input: Any, size: Sequence[int]) -> Any:
    """``input`` expanded to ``size`` (a view: ``ExpandBackward0``)."""
    if isinstance(size, (tuple, list)):  # (the parser's error names broadcast_to)
        _arguments.check_int64_items(size, "broadcast_to", "size")
    return input.expand(size)


def broadcast_shapes(*shapes: Any) -> Size:
    """The shape that tensors of ``shapes`` (ints or sequences of ints) broadcast to.

    Example:
        >>> import minigrad
        >>> minigrad.broadcast_shapes((2, 1), (3,))
        minigrad.Size([2, 3])
    """
    # PyTorch's own Python (torch._refs._broadcast_shapes), with its messages
    given = [(shape,) if isinstance(shape, int) else shape for shape in shapes if shape is not None]
    for shape in given:
        if not isinstance(shape, Sequence):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    common = [1] * max((len(shape) for shape in given), default=0)
    for index, shape in enumerate(given):
        for axis in range(-1, -1 - len(shape), -1):
            if shape[axis] == common[axis]:
                continue
            if common[axis] == 1:
                if shape[axis] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[axis] = shape[axis]
            if shape[axis] != 1 and common[axis] != shape[axis]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[axis]} at {axis}! "
                    f"Mismatching argument at index {index} had {shape}; but expected shape "
                    f"should be broadcastable to {common}")
    return Size(common)


def broadcast_tensors(*tensors: Any) -> tuple[Any, ...]:
    """The tensors expanded to their common shape (one of that shape is returned as it is)."""
    _arguments.check_tensor_sequence(tensors, 0)
    shape: tuple[int, ...] = ()
    for tensor in tensors:
        shape = broadcast_two_shapes(shape, tensor.shape)
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


_MESHGRID_WITHOUT_INDEXING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."
)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Any, ...]:
    """Coordinate grids of 1-D (or 0-d) tensors, each a view.

    With ``indexing="ij"`` the i-th grid varies along dim i; with ``"xy"`` the first two are
    swapped (Cartesian). Without ``indexing``: "ij", with PyTorch's warning (once).

    Example:
        >>> import minigrad
        >>> rows, cols = minigrad.meshgrid(minigrad.arange(2), minigrad.arange(3), indexing="ij")
        >>> rows.shape, cols[1]
        (minigrad.Size([2, 3]), tensor([0, 1, 2]))
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    _arguments.check_tensor_sequence(tensors, 0)
    if indexing is None:
        _warnings.warn_once(_MESHGRID_WITHOUT_INDEXING)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for tensor in tensors[1:]:
        if tensor.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for tensor in tensors:
        if tensor.dim() > 1:
            # (PyTorch prints the tensor's values too, in C++'s format: only its footer here)
            sizes = ",".join(str(size) for size in tensor.shape)
            raise RuntimeError(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                f"[ {type_name(tensor._array.dtype)}{{{sizes}}} ]")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    ordered = [tensors[1], tensors[0], *tensors[2:]] if swap else list(tensors)
    sizes = [t.numel() for t in ordered]
    grids = []
    for axis, tensor in enumerate(ordered):
        shape = [1] * len(ordered)
        shape[axis] = -1
        grids.append(tensor.view(shape).expand(sizes))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


# --- at least N dimensions ----------------------------------------------------------------------


def _at_least(tensors: tuple[Any, ...], grow: Any) -> Any:
    """``grow`` of one tensor, or a tuple of them for several (or one given as a sequence)."""
    if len(tensors) == 1:
        (tensors,) = tensors
    if isinstance(tensors, TensorBase):
        return grow(tensors)
    _arguments.check_tensor_sequence(tensors, 0)
    return tuple(grow(tensor) for tensor in tensors)


def _1d(tensor: Any) -> Any:
    return tensor.reshape(1) if tensor.dim() == 0 else tensor


def _2d(tensor: Any) -> Any:
    ndim = tensor.dim()
    return tensor.reshape(1, 1) if ndim == 0 else tensor.unsqueeze(0) if ndim == 1 else tensor


def _3d(tensor: Any) -> Any:
    ndim = tensor.dim()
    if ndim == 0:
        return tensor.reshape(1, 1, 1)
    if ndim == 1:
        return tensor.unsqueeze(0).unsqueeze(-1)
    return tensor.unsqueeze(-1) if ndim == 2 else tensor


def atleast_1d(*tensors: Any) -> Any:
    """A 0-d tensor as a vector of one element; others as they are (a tuple for several)."""
    return _at_least(tensors, _1d)


def atleast_2d(*tensors: Any) -> Any:
    """Tensors of fewer than two dims given leading dims of size 1 (a tuple for several)."""
    return _at_least(tensors, _2d)


def atleast_3d(*tensors: Any) -> Any:
    """Tensors of fewer than three dims given dims of size 1 (a tuple for several).

    A matrix (m, n) becomes (m, n, 1), a vector (n,) (1, n, 1), a 0-d tensor (1, 1, 1).
    """
    return _at_least(tensors, _3d)


# --- stacks: cat along a dim of tensors grown to enough dims ----------------------------------


def _stackable(tensors: Any, name: str) -> Sequence[Any]:
    tensors = _tensor_list(tensors, name)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors: Any) -> Any:
    """The tensors joined column-wise: along dim 1, or dim 0 for vectors.

    Example:
        >>> import minigrad
        >>> minigrad.hstack([minigrad.zeros(2, 1), minigrad.ones(2, 2)]).shape
        minigrad.Size([2, 3])
    """
    grown = [_1d(t) for t in _stackable(tensors, "hstack")]
    return cat(grown, 0 if grown[0].dim() == 1 else 1)


def vstack(tensors: Any) -> Any:
    """The tensors joined row-wise: vectors as rows, along dim 0."""
    return cat([_2d(t) for t in _stackable(tensors, "vstack")], 0)


def row_stack(tensors: Any) -> Any:
    """``vstack``'s other name."""
    return cat([_2d(t) for t in _stackable(tensors, "row_stack")], 0)


def dstack(tensors: Any) -> Any:
    """The tensors joined depth-wise: along dim 2, after ``atleast_3d``."""
    return cat([_3d(t) for t in _stackable(tensors, "dstack")], 2)


def column_stack(tensors: Any) -> Any:
    """The tensors as columns side by side: vectors (and 0-d tensors) as columns."""
    columns = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t
               for t in _stackable(tensors, "column_stack")]
    return cat(columns, 1)
