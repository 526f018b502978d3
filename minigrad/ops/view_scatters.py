"""Writing into a view of a copy: slice_scatter, select_scatter, diagonal_scatter.

``y = op_scatter(x, src, *options)`` is a copy of ``x`` whose view ``view(y, *options)`` holds
``src`` (cast to ``x``'s dtype): the out-of-place form of ``x.view_op(...).copy_(src)``. One
class, ``ViewScatter``, holds the forward and the gradient; each op names its view op
(``Slice``, ``Select``, ``Diagonal`` of ``views.py``), which gives the region on arrays and on
tensors alike:

    dx = grad with the region zeroed (the op itself, scattering zeros);
    dsrc = the region of grad (the view op).

None of them saves a tensor (PyTorch's SliceScatterBackward0 ... keep only the options).
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, errors
from minigrad._layout import copy_preserving_layout, preserved_result
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.saved_attributes import as_given, part
from minigrad.autograd.tensor_base import TensorBase
from minigrad.autograd.views import ViewOp
from minigrad.ops import views
from minigrad.ops._helpers import check_differentiable_result, is_tensor, operand, run, wrap_dim


class ViewScatter(Op):
    """y = x with ``view(y, *options)`` set to src;  dx = grad, 0 in the region;  dsrc = its view.

    Saves no tensor: writing x, src or y later is legal. ``options`` are kept as given (the
    node shows them so); numpy's slicing normalises negative ones the way PyTorch does.
    """

    # Not one of PyTorch's elementwise kernels: their own overlap rules, not checked here.
    checks_input_overlap = False
    result_layout = staticmethod(preserved_result)  # (a clone of x, written into)

    num_inputs = 2
    fields = ("options",)
    view: ClassVar[type[ViewOp]]  # the view op whose region is written

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, src: np.ndarray, *options: Any) -> np.ndarray:
        ctx.options = options
        y = copy_preserving_layout(x)
        cls.view.forward(NO_GRAD_CTX, y, *options)[...] = src  # (cast to x's dtype)
        return y

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, ...]:
        options = ctx.options
        dx = dsrc = None
        if ctx.needs_input_grad[0]:
            zero = np.zeros((), dtype=operand(grad).dtype)
            dx = run(cls, grad, zero, *options)
        if ctx.needs_input_grad[1]:
            if is_tensor(grad):  # create_graph: the view, recorded
                dsrc = cls.view.apply(grad, *options)
            else:
                dsrc = cls.view.forward(NO_GRAD_CTX, grad, *options).copy()
        return (dx, dsrc) + (None,) * len(options)


class SliceScatter(ViewScatter):
    """slice_scatter: the region is ``y[start:end:step]`` along ``dim`` (see ViewScatter)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    view = views.Slice
    saved_options = {
        "dim": as_given("options", 0),
        "start": as_given("options", 1),
        "end": as_given("options", 2),
        "step": part("options", 3),
    }


class SelectScatter(ViewScatter):
    """select_scatter: the region is ``y.select(dim, index)`` (see ViewScatter)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    view = views.Select
    saved_options = {"dim": as_given("options", 0), "index": as_given("options", 1)}


class DiagonalScatter(ViewScatter):
    """diagonal_scatter: the region is ``y.diagonal(offset, dim1, dim2)`` (see ViewScatter)."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    view = views.Diagonal
    saved_options = {
        "offset": as_given("options", 0),
        "dim1": as_given("options", 1),
        "dim2": as_given("options", 2),
    }


def _check_src(src: Any, region: np.ndarray) -> None:
    """PyTorch's checks of ``src``: the region's shape (it is not broadcast), then the dtype.

    The result must be able to have a gradient if ``src`` needs one.
    """
    shape = operand(src).shape
    if shape != region.shape:
        raise RuntimeError(errors.scatter_src_size(shape, region.shape))
    check_differentiable_result(region.dtype, src)


def _bound(value: Any) -> Any:
    """A slice bound as PyTorch reads it: None, an int, or a 0-d tensor's int."""
    if value is None:
        return None
    return int(value.item()) if isinstance(value, TensorBase) else operator.index(value)


def slice_scatter(
    input: Any, src: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1
) -> Any:
    """A copy of ``input`` with ``input[start:end:step]`` along ``dim`` replaced by ``src``.

    ``src`` must have the slice's shape; it is cast to ``input``'s dtype.

    Example:
        >>> import minigrad
        >>> minigrad.slice_scatter(minigrad.zeros(2, 4), minigrad.ones(2, 2), 1, 0, 4, 2)
        tensor([[1., 0., 1., 0.],
                [1., 0., 1., 0.]])
    """
    _arguments.check_int64_arguments(dim, start, end, step)
    array = operand(input)
    if array.ndim == 0:
        raise IndexError(errors.SLICE_0D)
    axis = wrap_dim(dim, array.ndim)
    start, end, step = _bound(start), _bound(end), operator.index(step)
    if step <= 0:
        raise RuntimeError(errors.SLICE_STEP_NOT_POSITIVE)
    _check_src(src, array[(slice(None),) * axis + (slice(start, end, step),)])
    return SliceScatter.apply(input, src, dim, start, end, step)  # (as given: the node shows so)


def select_scatter(input: Any, src: Any, dim: int, index: int) -> Any:
    """A copy of ``input`` with the slice at ``index`` along ``dim`` replaced by ``src``.

    ``src`` has one dimension fewer than ``input``; it is cast to ``input``'s dtype.

    Example:
        >>> import minigrad
        >>> minigrad.select_scatter(minigrad.zeros(2, 2), minigrad.ones(2), 0, 0)
        tensor([[1., 1.],
                [0., 0.]])
    """
    _arguments.check_int64_arguments(dim, index)
    array = operand(input)
    if array.ndim == 0:
        raise IndexError(errors.SELECT_0D)
    axis = wrap_dim(dim, array.ndim)
    index = operator.index(index)
    size = array.shape[axis]
    if not -size <= index < size:
        raise IndexError(errors.select_out_of_range(index, array.shape, axis))
    _check_src(src, array[(slice(None),) * axis + (index, Ellipsis)])
    return SelectScatter.apply(input, src, dim, index)  # (as given: the node shows them so)


def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """A copy of ``input`` with the diagonal ``offset`` of ``dim1``, ``dim2`` replaced by ``src``.

    ``src`` has the shape of ``input.diagonal(offset, dim1, dim2)``; it is cast to ``input``'s
    dtype.

    Example:
        >>> import minigrad
        >>> minigrad.diagonal_scatter(minigrad.zeros(2, 3), minigrad.ones(2), 1)
        tensor([[0., 1., 0.],
                [0., 0., 1.]])
    """
    _arguments.check_int64_arguments(offset, dim1, dim2)
    array = operand(input)
    ndim = array.ndim
    if wrap_dim(dim1, ndim) == wrap_dim(dim2, ndim):
        raise RuntimeError(errors.identical_diagonal_dims(dim1, dim2))
    offset = operator.index(offset)
    _check_src(src, views.Diagonal.forward(NO_GRAD_CTX, array, offset, dim1, dim2))
    return DiagonalScatter.apply(input, src, offset, dim1, dim2)  # (as given: the node shows so)
