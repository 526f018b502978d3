"""Tensors built around others: ``diag``, ``diag_embed`` and ``cartesian_prod``.

``diag_embed`` writes a tensor onto the diagonals of zeros (its gradient reads the diagonal
back); ``diag`` is ``diag_embed`` for a vector and a diagonal copy for a matrix, and
``cartesian_prod`` is a meshgrid flattened and stacked, recorded as PyTorch records them. None
saves a tensor: writing an input afterwards is legal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops import combining, index_ops, view_copies
from minigrad.ops._helpers import (
    constant_tensor,
    operand,
    wrap_dim,
)
from minigrad.ops.shape import (
    stack,
)
from minigrad.ops.views import (
    Diagonal,
    DiagonalBackward,
    expand,
    reshape,
    view,
)


class DiagEmbed(DiagonalBackward):
    """y = zeros with x's last dim on diagonal ``offset`` of dims ``dim1``, ``dim2``.

    dx = that diagonal of grad.  Saves nothing.
    """

    node_name = "DiagEmbedBackward0"
    fields = ("options",)  # (dims as given: PyTorch's node shows them so)
    saved_options = {"offset": as_given("options", 0), "dim1": as_given("options", 1),
                     "dim2": as_given("options", 2)}


# diag of a matrix: a copy of its diagonal, one node as PyTorch 2.13 records it
# (``DiagonalBackward0_copy``): the view op Diagonal with a copying forward.
DiagonalCopy = view_copies.copy_op(Diagonal)


def _embedded_shape(shape: tuple[int, ...], offset: int, dim1: int, dim2: int) -> tuple[int, ...]:
    size = (shape[-1] if shape else 1) + abs(offset)
    out = list(shape[:-1])
    for dim in sorted((dim1, dim2)):
        out.insert(dim, size)
    return tuple(out)


def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """A tensor whose diagonals (``offset``, in dims ``dim1``, ``dim2``) hold ``input``'s last dim.

    Example:
        >>> import minigrad
        >>> minigrad.diag_embed(minigrad.tensor([[1.0, 2.0]]))
        tensor([[[1., 0.],
                 [0., 2.]]])
    """
    array = operand(input)
    ndim = array.ndim + 1
    first, second = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if first == second:
        raise RuntimeError(errors.identical_diagonal_dims(dim1, dim2))
    shape = _embedded_shape(array.shape, offset, first, second)
    return DiagEmbed.apply(input, shape, (offset, dim1, dim2))


def diag(input: Any, diagonal: int = 0) -> Any:
    """A vector's square diagonal matrix, or a matrix's diagonal ``diagonal`` (as a vector).

    A positive ``diagonal`` is above the main one, a negative one below.

    Example:
        >>> import minigrad
        >>> minigrad.diag(minigrad.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
        >>> minigrad.diag(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)
        tensor([2.])
    """
    _arguments.check_int64_arguments(diagonal)  # (the parser's error comes first)
    ndim = operand(input).ndim
    if ndim == 1:
        return diag_embed(input, diagonal)  # (PyTorch's node shows its default dims, -2 and -1)
    if ndim == 2:
        return DiagonalCopy.apply(input, diagonal, 0, 1)
    raise RuntimeError(errors.diag_dims(ndim))


def cartesian_prod(*tensors: Any) -> Any:
    """All combinations of the vectors' elements, one per row (itertools.product order).

    One vector comes back as it is. Recorded as PyTorch records it: each vector viewed,
    expanded to the grid, flattened (a copy), then the columns stacked.

    Example:
        >>> import minigrad
        >>> minigrad.cartesian_prod(minigrad.tensor([1, 2]), minigrad.tensor([3, 4]))
        tensor([[1, 3],
                [1, 4],
                [2, 3],
                [2, 4]])
    """
    _arguments.check_tensor_sequence(tensors, 0)
    for tensor in tensors:
        shape = operand(tensor).shape
        if len(shape) != 1:
            raise RuntimeError(errors.expect_1d_vector(shape))
    if len(tensors) == 1:
        return tensors[0]
    if not tensors:
        raise RuntimeError(errors.MESHGRID_EMPTY)
    if len({operand(t).dtype for t in tensors}) > 1:
        raise RuntimeError(errors.MESHGRID_DTYPES)
    grid = tuple(operand(t).shape[0] for t in tensors)
    columns = []
    for position, tensor in enumerate(tensors):
        shape = [1] * len(tensors)
        shape[position] = -1
        columns.append(reshape(expand(view(tensor, *shape), grid), (-1,)))
    return stack(columns, 1)


def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Any:
    """The ``r``-element combinations of a vector's elements, one per row (itertools order).

    ``with_replacement`` lets an element repeat (``combinations_with_replacement``). Recorded
    as PyTorch records it: an ``r``-fold meshgrid of the vector, each grid masked to the
    increasing index tuples (``masked_select``), the columns stacked.

    Example:
        >>> import minigrad
        >>> minigrad.combinations(minigrad.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    _arguments.check_int64_arguments(r)  # (past int64, the parser's error first)
    shape = operand(input).shape
    if len(shape) != 1:
        raise RuntimeError(errors.expect_1d_vector(shape))
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    if shape[0] ** r >= 2**63:  # (the r-fold grid PyTorch builds has n ** r elements)
        raise RuntimeError("numel: integer multiplication overflow")
    if r > 64:  # (a grid of 0 or 1 elements: numpy's arrays have at most 64 dims)
        raise RuntimeError(f"minigrad: combinations(r={r}) needs an r-dim grid; numpy allows 64")
    grids = combining.meshgrid(*[input] * r, indexing="ij")
    indices = np.indices((shape[0],) * r)
    # (PyTorch's _triu_mask: each index below the next, or not above it with replacement)
    mask = np.ones((shape[0],) * r, dtype=bool)
    for lower, upper in zip(indices[:-1], indices[1:]):
        mask &= lower <= upper if with_replacement else lower < upper
    mask_tensor = constant_tensor(mask)
    return stack([index_ops.masked_select(grid, mask_tensor) for grid in grids], 1)

