"""``nn.init``: fill a tensor in place with values drawn the way PyTorch's initialisers do.

Every function writes under ``no_grad`` with the same in-place ops as PyTorch (so the
tensor's version goes up by the same amount) and returns the tensor. The numbers come from
minigrad's own generator (``minigrad.manual_seed``): the same distributions and bounds as
PyTorch, not the same samples.

``fan_in`` and ``fan_out`` of a weight of shape ``(out, in, *kernel)`` are ``in * prod(kernel)``
and ``out * prod(kernel)``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.grad_mode import no_grad
from minigrad.creation import empty_like
from minigrad.creation import tensor as new_tensor
from minigrad.ops.comparison import (
    where,
)
from minigrad.tensor import Tensor

__all__ = [
    "calculate_gain",
    "constant",
    "constant_",
    "dirac",
    "dirac_",
    "eye",
    "eye_",
    "kaiming_normal",
    "kaiming_normal_",
    "kaiming_uniform",
    "kaiming_uniform_",
    "normal",
    "normal_",
    "ones_",
    "orthogonal",
    "orthogonal_",
    "sparse",
    "sparse_",
    "trunc_normal_",
    "uniform",
    "uniform_",
    "xavier_normal",
    "xavier_normal_",
    "xavier_uniform",
    "xavier_uniform_",
    "zeros_",
]

_LINEAR_FNS = (
    "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d",
)


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale of the weights in front of ``nonlinearity``.

    1 for linear layers and sigmoid, 5/3 for tanh, sqrt(2) for relu,
    sqrt(2 / (1 + slope**2)) for leaky_relu (slope ``param``, default 0.01), 3/4 for selu.

    Example:
        >>> from minigrad import nn
        >>> nn.init.calculate_gain("tanh")
        1.6666666666666667
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope: float = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    """Fill with samples of U(a, b).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> w = nn.init.uniform_(minigrad.empty(1000), -0.5, 0.5)
        >>> bool(w.min() >= -0.5), bool(w.max() < 0.5), w._version
        (True, True, 1)
    """
    with no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """Fill with samples of N(mean, std**2)."""
    with no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0
) -> Tensor:
    """Fill with samples of N(mean, std**2) restricted to [a, b] (rejection sampling).

    As PyTorch 2.13: when [a, b] holds more than 30% of the mass, draw normals and redraw the
    ones outside; otherwise draw uniformly on [a, b] and accept with the normal's density.
    """

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
            stacklevel=2,
        )
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            result = tensor.normal_(mean, std)
            while True:
                outside = (result < a) | (result > b)
                if not outside.any():
                    break
                result = where(outside, empty_like(result).normal_(mean, std), result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
        candidates, accept = empty_like(tensor), empty_like(tensor)

        def rejected(values: Tensor) -> Tensor:
            log_density = values.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            return accept.uniform_().log_().gt(log_density)

        tensor.uniform_(a, b)
        candidates.copy_(tensor)
        pending = rejected(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b)
                result = where(pending, candidates, result)
                pending = where(pending, rejected(candidates), pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones."""
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros."""
    with no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity matrix (ones on the diagonal)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor.copy_(new_tensor(np.eye(*tensor.shape), dtype=tensor.dtype))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-d convolution weight with the identity (Dirac delta) kernel.

    Each of the ``groups`` groups of output channels passes its input channels through
    unchanged: a 1 at the kernel's centre for output ``d`` and input ``d``, zeros elsewhere.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.init.dirac_(minigrad.empty(2, 2, 3))[:, :, 1]
        tensor([[1., 0.],
                [0., 1.]])
    """
    dimensions = tensor.dim()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    centre = tuple(size // 2 for size in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(out_per_group, sizes[1])):
                tensor[(g * out_per_group + d, d, *centre)] = 1
    return tensor


def sparse_(
    tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None
) -> Tensor:
    """Fill a 2-d tensor with N(0, std**2) samples and zero some entries of each column.

    ``ceil(sparsity * rows)`` random entries of each column become 0.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> w = nn.init.sparse_(minigrad.empty(4, 3), sparsity=0.5)
        >>> (w == 0).sum(0)
        tensor([2, 2, 2])
    """
    from minigrad.creation import randperm

    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = randperm(rows)[:num_zeros]
            tensor[zero_rows, col] = 0
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """``(in * receptive field, out * receptive field)`` of a weight ``(out, in, *kernel)``."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive_field_size = math.prod(tensor.shape[2:])
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """Glorot uniform: U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """Glorot normal: N(0, std**2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    """``gain / sqrt(fan)``, or None (after PyTorch's warning) for an empty tensor."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    """He uniform: U(-bound, bound) with ``bound = gain * sqrt(3 / fan)``.

    ``fan`` is ``fan_in`` or ``fan_out`` (``mode``), ``gain = calculate_gain(nonlinearity, a)``.
    PyTorch's Linear and Conv layers use ``a=sqrt(5)``, which makes the bound
    ``1 / sqrt(fan_in)``.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    with no_grad():
        return tensor.uniform_(-bound, bound)


def kaiming_normal_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    """He normal: N(0, std**2) with ``std = gain / sqrt(fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    with no_grad():
        return tensor.normal_(0, std)


def orthogonal_(tensor: Tensor, gain: float = 1) -> Tensor:
    """Fill with a (semi-)orthogonal matrix times ``gain`` (QR of a Gaussian sample).

    Dimensions after the first are flattened: rows (or columns, if fewer) come out orthonormal.
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    sample: Any = empty_like(tensor).reshape(rows, cols).normal_(0, 1).numpy().astype(np.float64)
    if rows < cols:
        sample = sample.T
    q, r = np.linalg.qr(sample)
    q = q * np.sign(np.diag(r))  # makes the decomposition unique (uniform over orthogonal Q)
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.view(rows, cols).copy_(new_tensor(q))
        return tensor.mul_(gain)


def _deprecated(function: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """The old name without the trailing underscore: warns as PyTorch's, then calls it."""
    new_name = function.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
            FutureWarning,
            stacklevel=2,
        )
        return function(*args, **kwargs)

    deprecated_init.__doc__ = f"""Deprecated: use ``nn.init.{new_name}`` (this one warns).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> from minigrad import nn
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     _ = nn.init.normal(minigrad.empty(2))
        >>> print(caught[0].message)
        `nn.init.normal` is now deprecated in favor of `nn.init.normal_`.
    """
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
