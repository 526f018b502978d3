"""Arrays built from others: ``rot90``, ``fliplr``, ``flipud``, ``diagflat``, ``block_diag``.

``rot90`` and ``block_diag`` are ops of their own in PyTorch (``Rot90Backward0``,
``BlockDiagBackward0``); ``fliplr``/``flipud`` are ``flip`` (``FlipBackward0``) and
``diagflat`` is ``diag_embed`` of the flattened input (``DiagEmbedBackward0`` over a view).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments
from minigrad._dtype import default_float, result_type
from minigrad._layout import preserved_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops import constructions, shape, views
from minigrad.ops._helpers import constant_tensor, operand, run, wrap_dim


class Rot90(Op):
    """y = x turned ``k`` quarter turns in the plane ``dims`` (from dims[0] towards dims[1]).

    dx = grad turned back (``-k``).  Saves nothing. As PyTorch lays it out: a flip (in the
    input's layout) with the two dims transposed for odd ``k``; a row-major copy for ``k = 0``.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("k", "dims")  # (as given: PyTorch's node shows them so)
    saved_options = {"k": as_given("k"), "dims": as_given("dims")}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, k: int, dims: tuple[int, int]) -> np.ndarray:
        ctx.k, ctx.dims = k, dims
        first, second = (dim % x.ndim for dim in dims)
        turns = k % 4
        if turns == 0:
            return np.array(x, order="C", copy=True)
        flipped = {1: (second,), 2: (first, second), 3: (first,)}[turns]
        result = preserved_result(np.array(np.flip(x, flipped), copy=True), (x,))
        return result if turns == 2 else np.swapaxes(result, first, second)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(Rot90, grad, -ctx.k, ctx.dims), None, None


def rot90(input: Any, k: int = 1, dims: Any = (0, 1)) -> Any:
    """``input`` rotated by ``k`` quarter turns in the plane of ``dims``.

    The first dim turns towards the second (counterclockwise for a matrix shown as usual);
    a negative ``k`` turns the other way.

    Example:
        >>> import minigrad
        >>> minigrad.rot90(minigrad.tensor([[1, 2], [3, 4]]))
        tensor([[2, 4],
                [1, 3]])
    """
    _arguments.check_int64_arguments(k)  # (past int64, the parser's error first)
    _arguments.check_int_sequence(dims, "rot90", "dims", 3)
    dims = tuple(dims)
    ndim = operand(input).ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    for dim in dims:
        wrap_dim(dim, ndim)
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == ndim:
        raise RuntimeError("expected rotation dims to be different, but got dim0 = "
                           f"{dims[0]} and dim1 = {dims[1]}")
    return Rot90.apply(input, k, dims)


def fliplr(input: Any) -> Any:
    """``input`` reversed left to right (along dim 1; at least 2-d).

    Example:
        >>> import minigrad
        >>> minigrad.fliplr(minigrad.tensor([[1, 2], [3, 4]]))
        tensor([[2, 1],
                [4, 3]])
    """
    if operand(input).ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return shape.flip(input, (1,))


def flipud(input: Any) -> Any:
    """``input`` reversed upside down (along dim 0; at least 1-d).

    Example:
        >>> import minigrad
        >>> minigrad.flipud(minigrad.tensor([[1, 2], [3, 4]]))
        tensor([[3, 4],
                [1, 2]])
    """
    if operand(input).ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return shape.flip(input, (0,))


def diagflat(input: Any, offset: int = 0) -> Any:
    """A matrix with ``input``'s elements (flattened) on its diagonal ``offset``.

    Example:
        >>> import minigrad
        >>> minigrad.diagflat(minigrad.tensor([[1, 2], [3, 4]]))
        tensor([[1, 0, 0, 0],
                [0, 2, 0, 0],
                [0, 0, 3, 0],
                [0, 0, 0, 4]])
    """
    _arguments.check_tensor(input, "diagflat", "input", 1)
    _arguments.check_int64_arguments(offset)  # (the parser's error comes first)
    return constructions.diag_embed(views.view(input.contiguous(), -1), offset)


class BlockDiag(Op):
    """y = the blocks on the diagonal of a matrix of zeros;  each block's d = grad's block.

    Saves no tensor (the blocks' shapes only).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shapes",)

    @staticmethod
    def forward(ctx: Any, *arrays: np.ndarray) -> np.ndarray:
        blocks = [array.reshape(1, -1) if array.ndim < 2 else array for array in arrays]
        ctx.shapes = [array.shape for array in arrays]
        rows = sum(block.shape[0] for block in blocks)
        columns = sum(block.shape[1] for block in blocks)
        result = np.zeros((rows, columns), dtype=result_type(*arrays))
        row = column = 0
        for block in blocks:
            height, width = block.shape
            result[row : row + height, column : column + width] = block
            row, column = row + height, column + width
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        grads = []
        row = column = 0
        for block_shape in ctx.shapes:
            height, width = (1, int(np.prod(block_shape))) if len(block_shape) < 2 else block_shape
            block = grad[row : row + height, column : column + width]
            grads.append(np.reshape(block, block_shape))
            row, column = row + height, column + width
        return tuple(grads)


def block_diag(*tensors: Any) -> Any:
    """The matrix with ``tensors`` (matrices, or vectors and scalars as one row) on its diagonal.

    Example:
        >>> import minigrad
        >>> minigrad.block_diag(minigrad.tensor([[1, 2]]), minigrad.tensor([[3], [4]]))
        tensor([[1, 2, 0],
                [0, 0, 3],
                [0, 0, 4]])
    """
    _arguments.check_tensor_sequence(tensors, 0)
    for position, tensor in enumerate(tensors):
        if tensor.dim() > 2:
            raise RuntimeError("minigrad.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {position} has {tensor.dim()} dimensions")
    if not tensors:  # (PyTorch's: one empty row of the default dtype)
        return constant_tensor(np.zeros((1, 0), dtype=default_float()))
    return shape._with_inputs(BlockDiag, len(tensors)).apply(*tensors)


__all__ = ["block_diag", "diagflat", "fliplr", "flipud", "rot90"]
