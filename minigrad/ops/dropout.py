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

The top-level forms (``minigrad.dropout(input, p, train)`` and the rest, ``*_aten`` here) are
the same routine under ATen's signatures: no defaults, and a RuntimeError for a bad ``p``
where ``nn.functional`` raises a ValueError. ``native_dropout`` is an op of its own
(``NativeDropoutBackward0``), which also returns its boolean mask.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, _random, errors
from minigrad.autograd.function import Op
from minigrad.ops import arithmetic, inplace_views, views
from minigrad.ops._helpers import constant_tensor, dtype_name, operand

__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
    "native_dropout",
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


# --- the top-level forms: ATen's signatures (input, p, train), no defaults --------------------


def _check_aten_probability(p: float) -> None:
    """ATen's check, before anything else (also when ``train`` is False): a RuntimeError."""
    if p < 0 or p > 1:
        raise RuntimeError(errors.dropout_probability(f"{p:g}"))  # (C++ prints a double so)


def _aten_form(kernel: str, **kinds: bool) -> Any:
    """The top-level function ``kernel(input, p, train)`` of one dropout kind."""

    def form(input: Any, p: float, train: bool) -> Any:
        _arguments.check_tensor(input, kernel, "input", 1)
        _check_aten_probability(p)
        return _dropout_impl(input, p, train, kernel.endswith("_"), kernel.rstrip("_"), **kinds)

    form.__name__ = form.__qualname__ = kernel
    return form


def dropout_aten(input: Any, p: float, train: bool) -> Any:
    """``minigrad.dropout``: ``nn.functional.dropout`` under ATen's signature (no defaults).

    Example:
        >>> import minigrad
        >>> x = minigrad.ones(3)
        >>> minigrad.dropout(x, 0.5, False) is x
        True
    """
    return _DROPOUT(input, p, train)


def dropout_aten_(input: Any, p: float, train: bool) -> Any:
    """``minigrad.dropout_``: dropout written into ``input`` (``MulBackward0``).

    Example:
        >>> import minigrad
        >>> minigrad.dropout_(minigrad.ones(2), 1.0, True)
        tensor([0., 0.])
    """
    return _DROPOUT_(input, p, train)


def alpha_dropout_aten(input: Any, p: float, train: bool) -> Any:
    """``minigrad.alpha_dropout``: SELU-preserving dropout, ATen's signature (no defaults).

    Example:
        >>> import minigrad
        >>> minigrad.alpha_dropout(minigrad.ones(2), 1.0, True)
        tensor([0., 0.])
    """
    return _ALPHA(input, p, train)


def alpha_dropout_aten_(input: Any, p: float, train: bool) -> Any:
    """``minigrad.alpha_dropout_``: alpha dropout written into ``input``.

    Example:
        >>> import minigrad
        >>> minigrad.alpha_dropout_(minigrad.ones(2), 0.5, False)
        tensor([1., 1.])
    """
    return _ALPHA_(input, p, train)


def feature_dropout_aten(input: Any, p: float, train: bool) -> Any:
    """``minigrad.feature_dropout``: whole channels (dim 1) of an (N, C, *) input dropped.

    Example:
        >>> import minigrad
        >>> minigrad.feature_dropout(minigrad.ones(1, 2), 1.0, True)
        tensor([[0., 0.]])
    """
    return _FEATURE(input, p, train)


def feature_dropout_aten_(input: Any, p: float, train: bool) -> Any:
    """``minigrad.feature_dropout_``: feature dropout written into ``input``.

    Example:
        >>> import minigrad
        >>> minigrad.feature_dropout_(minigrad.ones(1, 2), 0.5, False)
        tensor([[1., 1.]])
    """
    return _FEATURE_(input, p, train)


def feature_alpha_dropout_aten(input: Any, p: float, train: bool) -> Any:
    """``minigrad.feature_alpha_dropout``: alpha dropout of whole channels, ATen's signature.

    Example:
        >>> import minigrad
        >>> minigrad.feature_alpha_dropout(minigrad.ones(1, 2), 1.0, True)
        tensor([[0., 0.]])
    """
    return _FEATURE_ALPHA(input, p, train)


def feature_alpha_dropout_aten_(input: Any, p: float, train: bool) -> Any:
    """``minigrad.feature_alpha_dropout_``: feature alpha dropout written into ``input``.

    Example:
        >>> import minigrad
        >>> minigrad.feature_alpha_dropout_(minigrad.ones(1, 2), 0.5, False)
        tensor([[1., 1.]])
    """
    return _FEATURE_ALPHA_(input, p, train)


_DROPOUT = _aten_form("dropout")
_DROPOUT_ = _aten_form("dropout_")
_ALPHA = _aten_form("alpha_dropout", alpha=True)
_ALPHA_ = _aten_form("alpha_dropout_", alpha=True)
_FEATURE = _aten_form("feature_dropout", feature=True)
_FEATURE_ = _aten_form("feature_dropout_", feature=True)
_FEATURE_ALPHA = _aten_form("feature_alpha_dropout", feature=True, alpha=True)
_FEATURE_ALPHA_ = _aten_form("feature_alpha_dropout_", feature=True, alpha=True)


# --- native_dropout: (output, mask) ----------------------------------------------------------


class NativeDropout(Op):
    """(y, mask) = (x * mask * scale, mask);  dx = grad * mask * scale.

    scale = 1 / (1 - p) (0 for p = 1). In eval (``train`` False) the mask is all True and y a
    copy of x. Saves its mask output (``result1``: writing it later makes backward raise). As
    PyTorch's formula does, backward scales by 1 unless ``train`` is True: with ``train=None``
    forward drops and scales, and the gradient is ``grad * mask`` only.
    """

    fields = ("p", "scale")
    saves = ("result1",)
    saved_options = ("p",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, p: float, train: bool | None) -> tuple[Any, Any]:
        ctx.p = p
        ctx.scale = (0.0 if p == 1 else 1.0 / (1.0 - p)) if train else 1.0
        if x.size == 0:  # (ATen: the input and an uninitialized mask of its dtype)
            mask = np.empty_like(x)
            ctx.mark_non_differentiable(mask)  # (a bool mask has no gradient anyway)
        elif train is not None and not train:
            mask = np.ones(x.shape, dtype=np.bool_)
        else:
            mask = _random.generator().random(x.shape) < 1 - p
        ctx.save_for_backward(mask)
        if x.size == 0 or (train is not None and not train):
            return x.copy(), mask
        scale = np.asarray(0.0 if p == 1 else 1.0 / (1.0 - p), dtype=x.dtype)
        return x * mask * scale, mask

    @staticmethod
    def backward(ctx: Any, grad: Any, _: Any) -> tuple[Any, None, None]:
        (mask,) = ctx.saved_tensors
        return grad * mask * ctx.scale, None, None


def native_dropout(input: Any, p: float, train: bool | None) -> Any:
    """``(output, mask)``: dropout that also returns its boolean mask (``True``: kept).

    ``output = input * mask / (1 - p)`` (``NativeDropoutBackward0``); with ``train=False``
    the mask is all True and the output a copy of the input.

    Example:
        >>> import minigrad
        >>> minigrad.native_dropout(minigrad.ones(2), 0.5, False)
        (tensor([1., 1.]), tensor([True, True]))
    """
    _arguments.check_tensor(input, "native_dropout", "input", 1)
    array = operand(input)
    if array.size and not (train is not None and not train):
        if not 0 <= 1 - p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={1 - p:g}")
        if array.dtype.kind != "f":  # (ATen multiplies the input by the scale in place)
            raise RuntimeError(errors.inplace_dtype_mismatch("Float", dtype_name(input)))
    return tuple(NativeDropout.apply(input, float(p), train))
