"""Small helpers the op modules share: argument checks, dtype casts, error translation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import result_type
from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase


class ToCopy(Op):
    """y = x as another dtype;  dx = grad (cast back by the node).  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, dtype: np.dtype) -> np.ndarray:
        return x.astype(dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad, None


def operand(value: Any) -> Any:
    """What promotion looks at: the array behind a tensor, or the Python scalar itself."""
    return value._array if isinstance(value, TensorBase) else value


def cast(value: Any, dtype: np.dtype) -> Any:
    """``value`` as ``dtype`` (tensors only; Python scalars are left to numpy's weak typing)."""
    if not isinstance(value, TensorBase) or value._array.dtype == dtype:
        return value
    if value.requires_grad:
        return ToCopy.apply(value, dtype)
    return TensorBase.output_class._make(value._array.astype(dtype))


def promote(a: Any, b: Any, true_divide: bool = False) -> tuple[Any, Any]:
    """Cast ``a`` and ``b`` so that numpy computes in the dtype PyTorch would produce."""
    array_a, array_b = operand(a), operand(b)
    same = isinstance(array_a, np.ndarray) and isinstance(array_b, np.ndarray)
    if same and array_a.dtype == array_b.dtype and array_a.ndim and array_b.ndim:
        dtype = array_a.dtype
    else:
        dtype = result_type(array_a, array_b)
    if true_divide and dtype.kind != "f":
        dtype = np.dtype(np.float32)  # int / int is the default float dtype
    return cast(a, dtype), cast(b, dtype)


def call_broadcasting(apply: Callable[..., Any], a: Any, b: Any, *options: Any) -> Any:
    """Run a binary op, turning numpy's broadcasting error into PyTorch's message."""
    try:
        return apply(a, b, *options)
    except ValueError as error:
        message = errors.from_numpy_value_error(error, np.shape(operand(a)), np.shape(operand(b)))
        raise RuntimeError(message) from None


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` (an int, a sequence, or None for all) as sorted non-negative axes."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    rank = max(ndim, 1)  # a 0-d tensor accepts dim 0 and -1, as in PyTorch
    axes = []
    for d in dims:
        if not -rank <= d < rank:
            raise IndexError(errors.dim_out_of_range(d, ndim))
        axes.append(d % rank)
    if len(set(axes)) != len(axes):
        raise RuntimeError(f"dim {axes[0]} appears multiple times in the list of dims")
    return tuple(sorted(a for a in axes if a < ndim or ndim > 0))


def promote_inplace(target: TensorBase, other: Any, true_divide: bool = False) -> Any:
    """``other`` ready for an in-place op on ``target``.

    Raises PyTorch's error if the result type cannot be written into ``target`` (an int tensor
    cannot take ``+= 1.5``).
    """
    dtype = result_type(target._array, operand(other))
    if true_divide and dtype.kind != "f":
        dtype = np.dtype(np.float32)
    if not np.can_cast(dtype, target._array.dtype, casting="same_kind"):
        from minigrad._dtype import display_name

        raise RuntimeError(
            errors.inplace_dtype_mismatch(display_name(dtype), display_name(target._array.dtype))
        )
    return cast(other, dtype) if isinstance(other, TensorBase) else other
