"""In-place view ops: ``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_`` (and its aliases).

Each is its out-of-place view op under the node name PyTorch gives the in-place variant
(``UnsqueezeBackward1``, ``SqueezeBackward3/4/5``, ``TBackward1``, ``TransposeBackward1``):
forward, backward and saved options are the view op's own. ``apply_inplace_view``
(``autograd/inplace.py``) gives the tensor the view's geometry and continues its history.
"""

from __future__ import annotations

from typing import Any

from minigrad import _arguments
from minigrad.autograd.inplace import apply_inplace_view
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import operand, wrap_dim
from minigrad.ops.views import (
    Squeeze,
    SqueezeDim,
    SqueezeDims,
    T,
    Transpose,
    Unsqueeze,
    check_unsqueeze_dim,
    squeeze_op,
    t_dims,
)


class UnsqueezeInplace(Unsqueeze):
    """``unsqueeze_``: y = x with a new size-1 dimension at ``dim``;  dx = grad without it."""

    node_name = "UnsqueezeBackward1"


class SqueezeInplace(Squeeze):
    """``squeeze_()``: y = x without its size-1 dimensions;  dx = grad with them put back."""

    node_name = "SqueezeBackward3"


class SqueezeDimInplace(SqueezeDim):
    """``squeeze_(dim)``: y = x without ``dim`` if its size is 1;  dx = grad with it back."""

    node_name = "SqueezeBackward4"


class SqueezeDimsInplace(SqueezeDims):
    """``squeeze_(dims)``: y = x without those of ``dims`` of size 1;  dx = grad with them back."""

    node_name = "SqueezeBackward5"


class TransposeInplace(Transpose):
    """``transpose_``: y = x with ``dim0`` and ``dim1`` swapped;  dx = grad swapped back."""

    node_name = "TransposeBackward1"


class TInplace(T):
    """``t_``: y = x transposed (a matrix; vectors unchanged);  dx = grad transposed back."""

    node_name = "TBackward1"


def unsqueeze_(input: TensorBase, dim: int) -> TensorBase:
    """``input`` given a new size-1 dimension at ``dim``, in place.

    Example:
        >>> import minigrad
        >>> x = minigrad.zeros(2, 3)
        >>> x.unsqueeze_(0).shape, x._version
        (minigrad.Size([1, 2, 3]), 1)
    """
    check_unsqueeze_dim(input, dim)
    return apply_inplace_view(UnsqueezeInplace, input, dim)


def squeeze_(input: TensorBase, dim: Any = _arguments.NOT_GIVEN) -> TensorBase:
    """``input`` without size-1 dimensions (all, or those among ``dim``), in place.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(1, 3, 1).squeeze_(0).shape
        minigrad.Size([3, 1])
    """
    if dim is _arguments.NOT_GIVEN:
        return apply_inplace_view(SqueezeInplace, input)
    op, dim = squeeze_op(input, dim, SqueezeDimInplace, SqueezeDimsInplace)
    return apply_inplace_view(op, input, dim)


def transpose_(input: TensorBase, dim0: int, dim1: int) -> TensorBase:
    """``input`` with dimensions ``dim0`` and ``dim1`` swapped, in place.

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3, 4).transpose_(0, 2).shape
        minigrad.Size([4, 3, 2])
    """
    ndim = operand(input).ndim
    wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)  # (checked; kept as given)
    return apply_inplace_view(TransposeInplace, input, dim0, dim1)


def t_(input: TensorBase) -> TensorBase:
    """A matrix transposed in place (0-D and 1-D tensors stay as they are, at a new version).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).t_().shape
        minigrad.Size([3, 2])
    """
    return apply_inplace_view(TInplace, input, *t_dims(input, "t_"))
