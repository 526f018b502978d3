"""Gradient clipping: ``clip_grad_norm_`` and ``clip_grad_value_`` (in place, under no_grad).

Like PyTorch's (foreach) implementation, ``clip_grad_norm_`` multiplies every gradient by the
clipping factor once (its version goes up by one even when the factor is 1) and
``clip_grad_value_`` clamps each gradient from below and then from above (two bumps).
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable
from typing import Any

from minigrad.autograd.grad_mode import no_grad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.creation import tensor
from minigrad.ops.clamp import (
    clamp,
)
from minigrad.ops.norms import vector_norm
from minigrad.ops.shape import (
    stack,
)
from minigrad.tensor import Tensor

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
]


def _as_list(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    return [parameters] if isinstance(parameters, TensorBase) else list(parameters)


def get_total_norm(
    tensors: Tensor | Iterable[Tensor],
    norm_type: Any = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """The joint ``norm_type``-norm of ``tensors``: the norm of their norms (0-d tensor).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.utils.get_total_norm([minigrad.tensor([3.0]), minigrad.tensor([4.0])])
        tensor(5.)
    """
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    with no_grad():
        if not tensors:
            return tensor(0.0)
        total_norm = vector_norm(stack([vector_norm(t, norm_type) for t in tensors]), norm_type)
        if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`"
            )
    return total_norm


def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    total_norm: Tensor,
    foreach: bool | None = None,
) -> None:
    """Multiply every gradient by ``min(1, max_norm / (total_norm + 1e-6))``, in place.

    ``total_norm`` is usually ``get_total_norm`` of the gradients (possibly gathered from
    several groups of parameters).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> p = nn.Parameter(minigrad.ones(2))
        >>> p.grad = minigrad.tensor([3.0, 4.0])
        >>> nn.utils.clip_grads_with_norm_([p], 1.0, minigrad.tensor(10.0))
        >>> p.grad
        tensor([0.3000, 0.4000])
    """
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        return
    with no_grad():
        factor = clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for grad in grads:
            grad.mul_(factor)


def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: Any = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Scale the gradients so that their joint ``norm_type``-norm is at most ``max_norm``.

    ``get_total_norm`` of the gradients, then ``clip_grads_with_norm_``: every gradient is
    multiplied by ``min(1, max_norm / (total_norm + 1e-6))``.

    Returns:
        The joint norm before clipping (a 0-d tensor).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> p = nn.Parameter(minigrad.ones(4))
        >>> (p * 3).sum().backward()
        >>> nn.utils.clip_grad_norm_([p], max_norm=1.0)
        tensor(6.)
        >>> p.grad
        tensor([0.5000, 0.5000, 0.5000, 0.5000])
    """
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn(
            "`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2
        )
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: Any = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Deprecated alias of ``clip_grad_norm_`` (warns as PyTorch does).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> from minigrad import nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     nn.utils.clip_grad_norm([nn.Parameter(minigrad.ones(1))], 1.0)
        tensor(0.)
    """
    warnings.warn(
        "`minigrad.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`minigrad.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(
    parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None
) -> None:
    """Clamp every gradient elementwise to ``[-clip_value, clip_value]``, in place.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> p = nn.Parameter(minigrad.ones(2))
        >>> (p * minigrad.tensor([5.0, -0.5])).sum().backward()
        >>> nn.utils.clip_grad_value_([p], 1.0)
        >>> p.grad
        tensor([ 1.0000, -0.5000])
    """
    clip_value = float(clip_value)
    with no_grad():
        for param in _as_list(parameters):
            if param.grad is not None:
                param.grad.clamp_min_(-clip_value)
                param.grad.clamp_max_(clip_value)
