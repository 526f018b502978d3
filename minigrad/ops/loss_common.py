"""What the loss functions share: the ``reduction`` argument, target broadcasting, scalar ops.

``reduction`` ("none", "mean", "sum") and the legacy ``size_average``/``reduce`` flags are
resolved here once, with PyTorch's messages and warnings.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad import errors
from minigrad.ops import reduction as reduction_module
from minigrad.ops import views
from minigrad.ops._helpers import shape_of, size_text
from minigrad.ops.arithmetic import MulScalar

# PyTorch's _Reduction enum: what reduction a loss kernel applies.
NONE, MEAN, SUM = 0, 1, 2


def legacy_reduction(size_average: Any, reduce: Any) -> str:
    """The reduction meant by the deprecated ``size_average`` / ``reduce`` flags (warns).

    The warning points at the line that asked for the legacy reduction, inside minigrad, not
    at the user's: PyTorch's ``_Reduction.legacy_get_string`` warns with ``stacklevel=2``, so
    its warnings name torch/nn/functional.py, _reduction.py or modules/loss.py.
    """
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    name = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(errors.size_average_deprecated(name), stacklevel=2)
    return name


def mul_scalar(x: Any, c: float) -> Any:
    """``x * c`` for a number ``c``: PyTorch's MulBackward1 (C++'s ``tensor * double``)."""
    return MulScalar.apply(x, float(c))


def broadcast_pair(a: Any, b: Any) -> tuple[Any, Any]:
    """``torch.broadcast_tensors(a, b)``: each operand expanded (a view) only if it must be."""
    return _expand_pair(a, b, only_if_needed=True)


def _expand_pair(a: Any, b: Any, only_if_needed: bool) -> tuple[Any, Any]:
    shape_a, shape_b = shape_of(a), shape_of(b)
    if shape_a == shape_b:
        return a, b
    try:
        shape = np.broadcast_shapes(shape_a, shape_b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(shape_a, shape_b)) from None
    return (
        a if only_if_needed and shape_a == shape else views.expand(a, shape),
        b if only_if_needed and shape_b == shape else views.expand(b, shape),
    )


def expand_outplace(a: Any, b: Any) -> tuple[Any, Any]:
    """C++'s two-tensor ``expand_outplace``: if the shapes differ, *both* are expanded."""
    return _expand_pair(a, b, only_if_needed=False)


def reduction_enum(reduction: Any) -> int:
    """PyTorch's ``_Reduction.get_enum``: 'none' -> 0, 'mean' -> 1, 'sum' -> 2."""
    if reduction == "none":
        return NONE
    if reduction == "mean":
        return MEAN
    if reduction == "elementwise_mean":
        warnings.warn(errors.ELEMENTWISE_MEAN_DEPRECATED, stacklevel=3)
        return MEAN
    if reduction == "sum":
        return SUM
    raise ValueError(errors.invalid_reduction(reduction))


def reduction_name(reduction: str, size_average: Any, reduce: Any) -> str:
    """The reduction a loss uses: ``reduction``, or the legacy flags' if either is given."""
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    return reduction


def reduce_array(loss: np.ndarray, reduction: int) -> np.ndarray:
    """A loss kernel's reduction on arrays (the mean of nothing is nan, silently)."""
    if reduction == NONE:
        return loss
    total = _add_reduce(loss, None, loss.dtype)  # (np.sum's own call, without its layers)
    return np.asarray(total / loss.size if reduction == MEAN else total, dtype=loss.dtype)


_add_reduce = np.add.reduce


def reduction_norm(reduction: int, size: int) -> float:
    """The factor a loss kernel's backward applies for its reduction: 1/n for 'mean'."""
    return 1.0 / size if reduction == MEAN and size else 1.0


def apply_loss_reduction(loss: Any, reduction: int) -> Any:
    """PyTorch's C++ ``apply_loss_reduction``: records MeanBackward0 / SumBackward0."""
    if reduction == MEAN:
        return reduction_module.mean(loss)
    if reduction == SUM:
        return reduction_module.sum(loss)
    return loss


def warn_target_size(input: Any, target: Any, stacklevel: int = 3) -> None:
    """PyTorch's UserWarning when a loss's target and input sizes differ.

    ``stacklevel``: the warning's frame, counted from here; it points at the line that called
    the loss function (3 for a loss function calling this).
    """
    if shape_of(input) != shape_of(target):
        warnings.warn(
            errors.target_size_broadcast(size_text(shape_of(target)), size_text(shape_of(input))),
            stacklevel=stacklevel,
        )
