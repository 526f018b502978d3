"""View ops: outputs share the input's buffer and version counter (see autograd/views.py).

Each forward returns a numpy *view*; each backward puts the gradient back in the input's shape.
None of them saves a tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.function import Op
from minigrad.autograd.views import ViewOp
from minigrad.ops._helpers import normalize_dims, operand


def _dim_key(dim: int, item: Any) -> tuple[Any, ...]:
    # An index along ``dim``; the trailing Ellipsis keeps numpy from returning a scalar copy.
    return (slice(None),) * dim + (item, Ellipsis)


class Select(ViewOp):
    """y = x[..., index, ...] along ``dim``;  dx = grad placed at ``index``, 0 elsewhere."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, index: int) -> np.ndarray:
        ctx.shape, ctx.key = x.shape, _dim_key(dim, index)
        return x[_dim_key(dim, index)]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        result = np.zeros(ctx.shape, dtype=grad.dtype)
        result[ctx.key] = grad
        return result, None, None


class Slice(ViewOp):
    """y = x[start:stop:step] along ``dim``;  dx = grad placed in that slice, 0 elsewhere."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int, start: int, stop: int, step: int) -> np.ndarray:
        key = _dim_key(dim, slice(start, stop, step))
        ctx.shape, ctx.key = x.shape, key
        return x[key]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        result = np.zeros(ctx.shape, dtype=grad.dtype)
        result[ctx.key] = grad
        return result, None, None, None, None


class Unsqueeze(ViewOp):
    """y = x with a new size-1 dimension at ``dim``;  dx = grad without it."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        ctx.dim = dim
        return np.expand_dims(x, dim)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.squeeze(grad, ctx.dim), None


class Squeeze(ViewOp):
    """y = x without its size-1 dimensions;  dx = grad reshaped back."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.shape = x.shape
        return np.squeeze(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return np.reshape(grad, ctx.shape)


class SqueezeDim(ViewOp):
    """y = x without dimension ``dim`` if its size is 1;  dx = grad reshaped back."""

    node_name = "SqueezeBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        ctx.shape = x.shape
        return np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x[...]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.reshape(grad, ctx.shape), None


class View(ViewOp):
    """y = x with another shape, same elements in the same order;  dx = grad reshaped back."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        ctx.shape = x.shape
        return np.reshape(x, shape, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.reshape(grad, ctx.shape), None


class Transpose(ViewOp):
    """y = x with dimensions ``dim0`` and ``dim1`` swapped;  dx = grad swapped back."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
        ctx.dims = dim0, dim1
        return np.swapaxes(x, dim0, dim1)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return np.swapaxes(grad, *ctx.dims), None, None


class T(Transpose):
    """y = x.t() (a matrix transposed; vectors unchanged);  dx = grad transposed back."""


class Permute(ViewOp):
    """y = x with its dimensions reordered;  dx = grad with the inverse order."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        ctx.inverse = tuple(np.argsort(dims))
        return np.transpose(x, dims)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return np.transpose(grad, ctx.inverse), None


class Expand(ViewOp):
    """y = x repeated along size-1 dims without copying;  dx = grad summed back (by the node)."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return np.broadcast_to(x, shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad, None


# --- public functions ---------------------------------------------------------------------


def _dim(dim: int, ndim: int) -> int:
    return normalize_dims(dim, ndim)[0]


def select(input: Any, dim: int, index: int) -> Any:
    """The slice at ``index`` along ``dim`` (a view with one dimension fewer)."""
    array = operand(input)
    if array.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _dim(dim, array.ndim)
    size = array.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return Select.apply(input, dim, index % size)


def narrow(input: Any, dim: int, start: int, length: int) -> Any:
    """Elements ``start`` to ``start + length`` along ``dim`` (a view)."""
    array = operand(input)
    dim = _dim(dim, array.ndim)
    start = start % array.shape[dim] if start < 0 else start
    if start + length > array.shape[dim] or length < 0:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({array.shape[dim]}).")
    return Slice.apply(input, dim, start, start + length, 1)


def slice_dim(input: Any, dim: int, start: int | None, stop: int | None, step: int | None) -> Any:
    """``input[start:stop:step]`` along ``dim`` (a view; the step must be positive)."""
    step = 1 if step is None else step
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, stop, _ = slice(start, stop, step).indices(operand(input).shape[dim])
    return Slice.apply(input, dim, start, max(stop, start), step)


def unsqueeze(input: Any, dim: int) -> Any:
    """A view with a new size-1 dimension at ``dim``."""
    ndim = operand(input).ndim
    if not -ndim - 1 <= dim <= ndim:
        raise IndexError(errors.dim_out_of_range(dim, ndim + 1))
    return Unsqueeze.apply(input, dim % (ndim + 1))


def squeeze(input: Any, dim: int | None = None) -> Any:
    """A view without size-1 dimensions (all, or only ``dim``)."""
    if dim is None:
        return Squeeze.apply(input)
    array = operand(input)
    return SqueezeDim.apply(input, _dim(dim, array.ndim) if array.ndim else 0)


def view(input: Any, *shape: Any) -> Any:
    """A view with another shape; raises if the memory layout does not allow one."""
    array = operand(input)
    target = _infer_shape(shape, array.size)
    try:
        np.reshape(array, target, copy=False)
    except ValueError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return View.apply(input, target)


def reshape(input: Any, *shape: Any) -> Any:
    """``input`` with another shape: a view when the layout allows, else a copy (as PyTorch)."""
    array = operand(input)
    target = _infer_shape(shape, array.size)
    try:
        np.reshape(array, target, copy=False)
    except ValueError:
        from minigrad.ops.elementwise import clone

        return UnsafeView.apply(clone(input), target)
    return View.apply(input, target)


def _infer_shape(shape: tuple[Any, ...], size: int) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    shape = tuple(int(n) for n in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([n for n in shape if n != -1]))
    if -1 in shape:
        if known == 0 or size % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
        shape = tuple(size // known if n == -1 else n for n in shape)
    elif known != size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
    return shape


class UnsafeView(Op):
    """y = a fresh copy reshaped (what reshape records when it must copy): not a view.

    Same formulas as View.
    """

    forward = View.forward
    backward = View.backward


def transpose(input: Any, dim0: int, dim1: int) -> Any:
    """A view with dimensions ``dim0`` and ``dim1`` swapped."""
    ndim = operand(input).ndim
    return Transpose.apply(input, _dim(dim0, ndim), _dim(dim1, ndim))


def t(input: Any) -> Any:
    """A 2-D tensor transposed (a view); 0-D and 1-D tensors are returned as they are."""
    ndim = operand(input).ndim
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    return T.apply(input, 0, 1 if ndim == 2 else 0)


def permute(input: Any, *dims: Any) -> Any:
    """A view with the dimensions in the order ``dims``."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    ndim = operand(input).ndim
    if len(dims) != ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    return Permute.apply(input, tuple(_dim(d, ndim) for d in dims))


def expand(input: Any, *sizes: Any) -> Any:
    """A view repeating size-1 dimensions to ``sizes`` (-1 keeps a size) without copying."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    shape = operand(input).shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand(minigrad.FloatTensor{{{list(shape)}}}, size={list(sizes)}): the number of "
            "sizes provided (" + str(len(sizes)) + ") must be greater or equal to the number of "
            "dimensions in the tensor (" + str(len(shape)) + ")"
        )
    target = tuple(shape[i - lead] if n == -1 else n for i, n in enumerate(sizes))
    for i, n in enumerate(shape):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(shape)}"
            )
    return Expand.apply(input, target)
