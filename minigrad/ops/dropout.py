"""Dropout and its variants: element-wise, channel-wise (``dropout1d/2d/3d``) and alpha dropout.

All of them are PyTorch's one ATen routine (``_dropout_impl`` in ``Dropout.cpp``): draw a
noise tensor of 0s and 1s, turn it into a mask, and multiply the input by it (``MulBackward0``,
which saves the mask, so the gradient is ``grad * mask``). What varies:

- *feature* dropout draws one value per channel, a noise of shape ``(N, C, 1, ..., 1)``, so a
  whole channel is kept or zeroed together;
- *alpha* dropout (for SELU networks) keeps the mean and variance: the mask is ``a`` where kept
  and ``0`` where dropped, and a constant ``b`` is added after (``AddBackward0``), so a dropped
  value becomes SELU's negative saturation ``-alpha * scale`` moved by the same affine map.

With ``p == 0``, ``training=False`` or an empty input the input itself is returned (no node);
``p == 1`` multiplies by a 0-d zero (also for alpha dropout: PyTorch returns zeros there).
``inplace=True`` multiplies the input in place (``mul_``, then ``add_`` for alpha dropout).
The noise comes from minigrad's generator (``minigrad.manual_seed``), so the zeros fall
elsewhere than PyTorch's.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, _random, errors
from minigrad.ops import arithmetic, inplace_views, views
from minigrad.ops._helpers import constant_tensor, dtype_name, operand

__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
]

# SELU's alpha * scale: where alpha dropout sends a dropped value (ATen's constant).
_SELU_SATURATION = 1.7580993408473766


def _dropout_impl(
    input: Any,
    p: float,
    training: bool,
    inplace: bool,
    kernel: str,
    *,
    feature: bool = False,
    alpha: bool = False,
) -> Any:
    """ATen's ``_dropout_impl``: the argument checks of ``kernel``, then noise, mask, multiply.

    A feature dropout draws one value per (sample, channel) of its (N, C, *) input.
    """
    if inplace:
        kernel += "_"
    _arguments.check_tensor(input, kernel, "input", 1)
    _arguments.check_value(training, "bool", kernel, "train", 3)
    p = float(p)
    array = operand(input)
    if p == 0 or not training or array.size == 0:
        return input
    if p == 1:
        zero = constant_tensor(np.zeros((), dtype=array.dtype))
        return input.mul_(zero) if inplace else arithmetic.mul(input, zero)
    if feature and array.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if array.dtype.kind != "f":
        raise RuntimeError(errors.inplace_dtype_mismatch("Float", dtype_name(input)))
    shape = array.shape
    if feature:  # one draw per (sample, channel): a whole channel is kept or dropped
        shape = shape[:2] + (1,) * (array.ndim - 2)
    keep = (_random.generator().random(shape) < 1 - p).astype(array.dtype)
    if not alpha:
        mask = constant_tensor(keep / np.asarray(1 - p, dtype=array.dtype))
        return input.mul_(mask) if inplace else arithmetic.mul(input, mask)
    # Mean and variance kept: dropped -> a * (-saturation) + b', kept -> a * x + b'.
    a = 1.0 / math.sqrt((_SELU_SATURATION**2 * p + 1) * (1 - p))
    shift = constant_tensor(
        ((keep - 1) * (_SELU_SATURATION * a) + _SELU_SATURATION * a * p).astype(array.dtype)
    )
    mask = constant_tensor((keep * a).astype(array.dtype))
    if inplace:
        return input.mul_(mask).add_(shift)
    return arithmetic.add(arithmetic.mul(input, mask), shift)


def _check_probability(p: float) -> None:
    # PyTorch's Python compares p first: a p that is no number fails there.
    if p < 0.0 or p > 1.0:
        raise ValueError(errors.dropout_probability(p))


def dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    ``input * mask`` with a fresh mask of ``1 / (1 - p)`` and zeros (``MulBackward0``, which
    saves the mask); the input itself when nothing is dropped (see the module's docstring).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.ones(4)
        >>> F.dropout(x, 0.5, training=False) is x
        True
    """
    _check_probability(p)
    return _dropout_impl(input, p, training, inplace, "dropout")


def _feature_dropout(input: Any, p: float, training: bool, inplace: bool, batched: bool) -> Any:
    """``feature_dropout`` of (N, C, *), or of an unbatched (C, *) input seen as (1, C, *)."""
    if batched:
        return _dropout_impl(input, p, training, inplace, "feature_dropout", feature=True)
    if inplace:  # (PyTorch's Python: unsqueeze_(0), dropout in place, squeeze_(0))
        inplace_views.unsqueeze_(input, 0)
        _dropout_impl(input, p, training, True, "feature_dropout", feature=True)
        return inplace_views.squeeze_(input, 0)
    result = _dropout_impl(
        views.unsqueeze(input, 0), p, training, False, "feature_dropout", feature=True
    )
    return views.squeeze(result, 0)


def dropout1d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability ``p``; scale the rest.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.dropout1d(minigrad.ones(2, 3), 1.0)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
    _check_probability(p)
    _arguments.check_has_attribute(input, "dim")
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    return _feature_dropout(input, p, training, inplace, batched=ndim == 3)


def _deprecated_rank_warning(name: str, ndim: int, spatial: str, expected: str) -> None:
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in "
        "an error in a future release. To retain the behavior and silence this warning, please "
        f"use dropout instead. Note that {name} exists to provide channel-wise dropout on "
        f"inputs with {spatial} spatial dimensions, a channel dimension, and an optional batch "
        f"dimension (i.e. {expected} inputs).",
        stacklevel=3,
    )


def dropout2d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels of (N, C, H, W) inputs with probability ``p``; scale the rest.

    As PyTorch 2.13: a 3-D input is taken as (N, C, L) (one-dimensional channels, with a
    warning), and inputs of other ranks are dropped channel-wise too, with a deprecation
    warning.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.dropout2d(minigrad.ones(1, 2, 1, 1), 0.5, training=False)
        tensor([[[[1.]],
        <BLANKLINE>
                 [[1.]]]])
    """
    _check_probability(p)
    _arguments.check_has_attribute(input, "dim")
    ndim = input.dim()
    if ndim not in (3, 4):
        _deprecated_rank_warning("dropout2d", ndim, "2", "3D or 4D")
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2,
        )
    return _feature_dropout(input, p, training, inplace, batched=True)


def dropout3d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p``.

    The other channels are scaled by ``1 / (1 - p)``. Inputs of other ranks are taken as
    unbatched, with PyTorch's deprecation warning.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.dropout3d(minigrad.ones(2, 1, 1, 1), 1.0).flatten()
        tensor([0., 0.])
    """
    _check_probability(p)
    _arguments.check_has_attribute(input, "dim")
    ndim = input.dim()
    if ndim not in (4, 5):
        _deprecated_rank_warning("dropout3d", ndim, "3", "4D or 5D")
    return _feature_dropout(input, p, training, inplace, batched=ndim == 5)


def alpha_dropout(input: Any, p: float = 0.5, training: bool = False, inplace: bool = False) -> Any:
    """Dropout for SELU networks: keeps the input's mean and variance (note: ``training=False``).

    A dropped element becomes SELU's negative saturation; then everything is scaled and
    shifted by ``a`` and ``b`` so that a standard normal input stays standard normal:
    ``input * mask + b`` (``AddBackward0`` over ``MulBackward0``).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.ones(3)
        >>> F.alpha_dropout(x, 0.5) is x
        True
    """
    _check_probability(p)
    return _dropout_impl(input, p, training, inplace, "alpha_dropout", alpha=True)


def feature_alpha_dropout(
    input: Any, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Any:
    """Alpha dropout of whole channels (dim 1) of (N, C, *) inputs (note: ``training=False``).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.feature_alpha_dropout(minigrad.ones(1, 2), 1.0, training=True)
        tensor([[0., 0.]])
    """
    _check_probability(p)
    return _dropout_impl(
        input, p, training, inplace, "feature_alpha_dropout", feature=True, alpha=True
    )
