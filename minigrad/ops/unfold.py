"""``Tensor.unfold``: the sliding windows of a dimension, as a view.

``x.unfold(dim, size, step)`` has, along ``dim``, one entry per window (``(n - size) // step +
1`` of them) and a new last dimension of ``size`` elements: window ``i`` is ``x``'s elements
``i * step ... i * step + size - 1`` along ``dim``. Windows may overlap (``step < size``), so
several view elements share one memory element, as in PyTorch. The gradient adds each window's
gradient back into its place (``UnfoldBackward0``; under ``create_graph`` that step is an op of
its own, ``UnfoldBackwardBackward0``, whose gradient unfolds again).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from minigrad._arguments import check_int64
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given, part
from minigrad.autograd.views import ViewOp
from minigrad.ops._helpers import along, is_tensor, operand, run, wrap_dim
from minigrad.ops.strides import element_strides, strided


def _windows(x: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """The unfold view of ``x`` (``dim`` in range, ``size`` and ``step`` checked)."""
    if x.ndim == 0:  # a 0-d tensor is one element along its one implicit dimension
        return strided(x, (size,), (1,))
    axis = dim % x.ndim
    strides = element_strides(x)
    shape = list(x.shape)
    shape[axis] = (x.shape[axis] - size) // step + 1
    view_strides = list(strides)
    view_strides[axis] = strides[axis] * step
    return strided(x, (*shape, size), (*view_strides, strides[axis]))


class Unfold(ViewOp):
    """y = the windows of ``size`` every ``step`` along ``dim``;  dx = their gradients summed back.

    Saves no tensor: only the input's sizes and the options (PyTorch's ``_saved_dimension``,
    ``_saved_size``, ``_saved_step``, ``_saved_self_sym_sizes``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "options")
    saved_options = {"dimension": as_given("options", 0), "size": part("options", 1),
                     "step": part("options", 2), "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
        ctx.shape, ctx.options = x.shape, (dim, size, step)  # (dim as given, as PyTorch's)
        return _windows(x, dim, size, step)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return run(UnfoldBackward, grad, ctx.shape, ctx.options), None, None, None


class UnfoldBackward(Op):
    """The backward of unfold as an op (``create_graph``);  dgrad = gg unfolded again."""

    node_name = "UnfoldBackwardBackward0"
    fields = ("options",)
    saved_options = {"dim": part("options", 0), "size": part("options", 1),
                     "step": part("options", 2)}

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, shape: tuple[int, ...], options: tuple[int, int, int]
    ) -> np.ndarray:
        ctx.options = options
        dim, size, step = options
        result = np.zeros(shape, dtype=grad.dtype)
        if not shape:  # 0-d: the one element is every window's
            return np.asarray(grad.sum(dtype=grad.dtype))
        axis = dim % len(shape)
        count = grad.shape[axis]
        for offset in range(size):
            # The elements at ``offset`` in each window: distinct positions ``offset + i * step``
            # (windows overlap, but one offset's positions never do), so ``+=`` is exact.
            place = along(axis, slice(offset, offset + (count - 1) * step + 1, step))
            result[place] += grad[..., offset]
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        dim, size, step = ctx.options
        if is_tensor(grad):  # create_graph: the view, recorded
            return unfold(grad, dim, size, step), None, None
        return _windows(grad, dim % max(grad.ndim, 1), size, step).copy(), None, None


def unfold(input: Any, dimension: int, size: int, step: int) -> Any:
    """A view of the windows of ``size`` elements every ``step`` along ``dimension``.

    The windows run along ``dimension``; their elements along a new last dimension.

    Example:
        >>> import minigrad
        >>> minigrad.arange(6.).unfold(0, 3, 2)
        tensor([[0., 1., 2.],
                [2., 3., 4.]])
    """
    array = operand(input)
    size, step = check_int64(operator.index(size)), check_int64(operator.index(step))
    axis = wrap_dim(dimension, array.ndim)  # (kept as given, as PyTorch's node shows it)
    length = array.shape[axis] if array.ndim else 1
    if size > length:
        raise RuntimeError(
            f"maximum size for tensor at dimension {axis} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(input, dimension, size, step)
