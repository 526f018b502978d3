"""Finding elements: ``nonzero`` (and ``argwhere``, one-argument ``where``) and ``unique``.

Their results are indices or a subset of the values picked by comparisons, so they have no
gradient. PyTorch still records a node for ``unique`` of a tensor that requires grad (its
backward raises "not implemented"), and so does minigrad: the error comes at backward, where
PyTorch raises it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import comparison, splitting
from minigrad.ops._helpers import constant_tensor, normalize_dims


def _check_input(function: str, value: Any) -> np.ndarray:
    if not isinstance(value, TensorBase):
        raise TypeError(errors.wrong_argument_type(
            function, "input", "Tensor", errors.python_type_name(value), 1
        ))
    return value._array


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """The indices of the nonzero elements (NaN counts as nonzero), in row-major order.

    Returns an ``(N, input.dim())`` int64 tensor, one row per element; with ``as_tuple``, one
    1-D tensor per dimension instead (what advanced indexing takes: ``x[x.nonzero(as_tuple=
    True)]``), which a 0-d input treats as 1-D.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[0.0, 1.0], [2.0, 0.0]])
        >>> minigrad.nonzero(x)
        tensor([[0, 1],
                [1, 0]])
        >>> x.nonzero(as_tuple=True)
        (tensor([0, 1]), tensor([1, 0]))
    """
    array = _check_input("nonzero", input)
    if not as_tuple:
        return constant_tensor(np.argwhere(array))
    # PyTorch splits the (N, ndim) result into its columns: views of one tensor.
    indices = constant_tensor(np.argwhere(array.reshape(1) if array.ndim == 0 else array))
    return splitting.unbind(indices, 1)


def nonzero_static(input: Any, *, size: int, fill_value: int = -1) -> Any:
    """``nonzero(input)`` with exactly ``size`` rows: cut, or padded with ``fill_value`` rows.

    Example:
        >>> import minigrad
        >>> minigrad.nonzero_static(minigrad.tensor([0, 3, 4]), size=3)
        tensor([[ 1],
                [ 2],
                [-1]])
    """
    array = _check_input("nonzero_static", input)
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = np.argwhere(array)[:size]
    padding = np.full((size - len(found), array.ndim), fill_value, dtype=np.int64)
    return constant_tensor(np.concatenate([found.astype(np.int64), padding]))


def argwhere(input: Any) -> Any:
    """The indices of the nonzero elements, as an ``(N, input.dim())`` tensor (``nonzero``).

    Example:
        >>> import minigrad
        >>> minigrad.argwhere(minigrad.tensor([0, 3, 0, 4]))
        tensor([[1],
                [3]])
    """
    _check_input("argwhere", input)
    return nonzero(input)


_WHERE_SIGNATURES = (
    "Tensor condition",
    "Tensor condition, Tensor input, Tensor other",
    "Tensor condition, Number self, Tensor other",
    "Tensor condition, Tensor input, Number other",
    "Tensor condition, Number self, Number other",
)
_NOT_GIVEN: Any = object()


def where(condition: Any, input: Any = _NOT_GIVEN, other: Any = _NOT_GIVEN) -> Any:
    """``input`` where ``condition`` is True, else ``other``.

    With the condition alone, its nonzero indices: ``nonzero(condition, as_tuple=True)``.

    Example:
        >>> import minigrad
        >>> c = minigrad.tensor([True, False, True])
        >>> minigrad.where(c, minigrad.ones(3), 0.0)
        tensor([1., 0., 1.])
        >>> minigrad.where(c)
        (tensor([0, 2]),)
    """
    if input is _NOT_GIVEN and other is _NOT_GIVEN:
        return nonzero(condition, as_tuple=True)
    if input is _NOT_GIVEN or other is _NOT_GIVEN:
        given = tuple(a for a in (condition, input, other) if a is not _NOT_GIVEN)
        raise TypeError(errors.invalid_arguments("where", given, {}, _WHERE_SIGNATURES))
    return comparison.where(condition, input, other)


class Unique(Op):
    """(values, inverse, counts) = unique(x);  no derivative: backward raises, as PyTorch's.

    Recorded (when ``x`` requires grad) as ``Unique2Backward0``; along a dimension as
    ``UniqueDimBackward0`` (``UniqueDim``). Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = "Unique2Backward0"
    aten_name = "_unique2"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int | None) -> tuple[np.ndarray, ...]:
        if dim is None:
            values, inverse, counts = np.unique(
                x.reshape(-1), return_inverse=True, return_counts=True, equal_nan=False
            )
            return values, inverse.reshape(x.shape), counts
        if x.shape[dim] == 0:  # nothing to compare: PyTorch returns the empty input
            empty = np.zeros(0, dtype=np.int64)
            return x.copy(), empty, empty
        values, inverse, counts = np.unique(
            x, axis=dim, return_inverse=True, return_counts=True, equal_nan=False
        )
        return values, inverse.reshape(-1), counts

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError(
            errors.derivative_not_implemented_quoted(ctx._function.aten_name)
        )


class UniqueDim(Unique):
    """``unique`` along a dimension: the node PyTorch names ``UniqueDimBackward0``."""

    node_name = "UniqueDimBackward0"
    aten_name = "unique_dim"


class UniqueConsecutive(Unique):
    """(values, inverse, counts) of the runs of equal elements (or slices along ``dim``).

    No derivative: backward raises, as PyTorch's ``UniqueConsecutiveBackward0``. Saves nothing.
    """

    node_name = "UniqueConsecutiveBackward0"
    aten_name = "unique_consecutive"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dim: int | None) -> tuple[np.ndarray, ...]:
        length = x.size if dim is None else x.shape[dim]
        rows = (x if dim is None else np.moveaxis(x, dim, 0)).reshape(
            length, x.size // max(length, 1))  # (one row per element, or per slice along dim)
        # A run starts where a row differs from the one before (NaN never equals itself).
        starts = np.ones(len(rows), dtype=bool)
        starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
        first = np.flatnonzero(starts)
        inverse = np.cumsum(starts, dtype=np.int64) - 1
        counts = np.diff(np.append(first, len(rows))).astype(np.int64)
        if dim is None:
            return x.reshape(-1)[first], inverse.reshape(x.shape), counts
        return np.take(x, first, axis=dim), inverse, counts


def unique_consecutive(
    input: Any, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None
) -> Any:
    """``input`` with each run of equal consecutive elements (or slices along ``dim``) kept once.

    Like ``itertools.groupby``: unlike ``unique``, nothing is sorted. ``return_inverse``: the
    run each element belongs to; ``return_counts``: each run's length.

    Example:
        >>> import minigrad
        >>> minigrad.unique_consecutive(minigrad.tensor([1, 1, 2, 2, 3, 1]), return_counts=True)
        (tensor([1, 2, 3, 1]), tensor([2, 2, 1, 1]))
    """
    array = _check_input("unique_consecutive", input)
    for name, value in (("return_inverse", return_inverse), ("return_counts", return_counts)):
        _check_flag("unique_consecutive", name, value)
    if dim is not None:
        if array.ndim == 0:
            raise IndexError(errors.dim_of_0d(dim))
        (dim,) = normalize_dims(dim, array.ndim)
        if array.size == 0 and array.shape[dim] != 0:
            raise RuntimeError(errors.UNIQUE_EMPTY_DIMS)
    values, inverse, counts = UniqueConsecutive.apply(input, dim)
    wanted = [values]
    if return_inverse:
        wanted.append(inverse)
    if return_counts:
        wanted.append(counts)
    return values if len(wanted) == 1 else tuple(wanted)


def _check_flag(kernel: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(
            errors.wrong_argument_type(kernel, name, "bool", errors.python_type_name(value))
        )


def unique(
    input: Any,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct elements of ``input``, sorted (or its distinct slices along ``dim``).

    With ``return_inverse``, also where each element went (``values[inverse]`` rebuilds the
    input); with ``return_counts``, how often each value occurs. NaNs are all distinct, as in
    PyTorch. ``sorted=False`` gives the same sorted order (as PyTorch on the CPU).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([3, 1, 2, 3, 1, 5])
        >>> minigrad.unique(x)
        tensor([1, 2, 3, 5])
        >>> x.unique(return_inverse=True, return_counts=True)
        (tensor([1, 2, 3, 5]), tensor([2, 0, 1, 2, 0, 3]), tensor([2, 1, 2, 1]))
    """
    kernel = "_unique2" if dim is None else "unique_dim"
    array = _check_input(kernel, input)
    for name, value in (
        ("sorted", sorted), ("return_inverse", return_inverse), ("return_counts", return_counts)
    ):
        _check_flag(kernel, name, value)
    op: type[Unique] = Unique
    if dim is not None:
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(errors.wrong_argument_type(
                "unique_dim", "dim", "int", errors.python_type_name(dim), 2
            ))
        if array.ndim == 0:
            raise IndexError(errors.dim_of_0d(dim))
        (dim,) = normalize_dims(dim, array.ndim)
        if array.size == 0 and array.shape[dim] != 0:
            raise RuntimeError(errors.UNIQUE_EMPTY_DIMS)
        op = UniqueDim
    values, inverse, counts = op.apply(input, dim)
    wanted = [values]
    if return_inverse:
        wanted.append(inverse)
    if return_counts:
        wanted.append(counts)
    return values if len(wanted) == 1 else tuple(wanted)


__all__ = ["argwhere", "nonzero", "unique", "unique_consecutive", "where"]
