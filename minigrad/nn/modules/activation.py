"""Activation functions as modules: each ``forward`` calls the ``nn.functional`` function.

``inplace=True`` overwrites the input (an in-place op: it bumps the input's version, and it
raises in backward if the input was saved by the op that made it, e.g. a sigmoid's output).
"""

from __future__ import annotations

import warnings
from typing import Any

from minigrad.creation import empty
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = [
    "CELU", "ELU", "GELU", "GLU", "SELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh",
    "LeakyReLU", "LogSigmoid", "LogSoftmax", "Mish", "PReLU", "RReLU", "ReLU", "ReLU6", "SiLU",
    "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
    "Tanhshrink", "Threshold",
]


def _inplace_repr(inplace: bool, separator: str = "") -> str:
    return f"{separator}inplace=True" if inplace else ""


class ReLU(Module):
    """``max(x, 0)``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.ReLU()(minigrad.tensor([-1.0, 2.0]))
        tensor([0., 2.])
        >>> nn.ReLU(inplace=True)
        ReLU(inplace=True)
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.relu(input, inplace)``."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` if so."""
        return _inplace_repr(self.inplace)


class Hardtanh(Module):
    """``clamp(x, min_val, max_val)``."""

    def __init__(
        self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False,
        min_value: float | None = None, max_value: float | None = None,
    ) -> None:
        super().__init__()
        if min_value is not None:
            warnings.warn(
                "keyword argument `min_value` is deprecated and renamed to `min_val`",
                FutureWarning, stacklevel=2,
            )
            min_val = min_value
        if max_value is not None:
            warnings.warn(
                "keyword argument `max_value` is deprecated and renamed to `max_val`",
                FutureWarning, stacklevel=2,
            )
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})"
            )

    def forward(self, input: Tensor) -> Tensor:
        """``F.hardtanh(input, min_val, max_val, inplace)``."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        """``min_val=.., max_val=..``."""
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_repr(
            self.inplace, ", "
        )


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` if so."""
        return _inplace_repr(self.inplace)


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` (saves its result)."""

    def forward(self, input: Tensor) -> Tensor:
        """``sigmoid(input)``."""
        return F.sigmoid(input)


class Tanh(Module):
    """``tanh(x)`` (saves its result)."""

    def forward(self, input: Tensor) -> Tensor:
        """``tanh(input)``."""
        return F.tanh(input)


class _InplaceActivation(Module):
    """An activation whose only setting is ``inplace`` (shown in the repr if True)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        """``inplace=True`` if so."""
        return _inplace_repr(self.inplace)


class SiLU(_InplaceActivation):
    """``x * sigmoid(x)``."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.silu(input, inplace)``."""
        return F.silu(input, inplace=self.inplace)


class Mish(_InplaceActivation):
    """``x * tanh(softplus(x))``."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.mish(input, inplace)``."""
        return F.mish(input, inplace=self.inplace)


class SELU(_InplaceActivation):
    """``scale * elu(x, alpha)`` with PyTorch's fixed constants."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.selu(input, inplace)``."""
        return F.selu(input, self.inplace)


class Hardsigmoid(Module):
    """``clamp(x + 3, 0, 6) / 6``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.hardsigmoid(input, inplace)``."""
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Module):
    """``x * clamp(x + 3, 0, 6) / 6``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.hardswish(input, inplace)``."""
        return F.hardswish(input, self.inplace)


class ELU(Module):
    """``x`` if positive, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.elu(input, alpha, inplace)``."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        """``alpha=..``."""
        return f"alpha={self.alpha}" + _inplace_repr(self.inplace, ", ")


class GELU(Module):
    """``x * Phi(x)`` (``approximate='tanh'`` for the tanh approximation).

    Example:
        >>> from minigrad import nn
        >>> nn.GELU()
        GELU(approximate='none')
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        """``F.gelu(input, approximate)``."""
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        """``approximate='none'``."""
        return f"approximate={self.approximate!r}"


class LeakyReLU(Module):
    """``x`` if positive, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.leaky_relu(input, negative_slope, inplace)``."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        """``negative_slope=..``."""
        return f"negative_slope={self.negative_slope}" + _inplace_repr(self.inplace, ", ")


class LogSigmoid(Module):
    """``log(sigmoid(x))``, computed stably."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.logsigmoid(input)``."""
        return F.logsigmoid(input)


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``; linear above ``threshold`` for stability."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        """``F.softplus(input, beta, threshold)``."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        """``beta=.., threshold=..``."""
        return f"beta={self.beta}, threshold={self.threshold}"


class _DimActivation(Module):
    """An activation along one dimension ``dim``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def extra_repr(self) -> str:
        """``dim=..``."""
        return f"dim={self.dim}"


class Softmax(_DimActivation):
    """``exp(x) / sum(exp(x))`` along ``dim`` (without ``dim``, PyTorch's legacy choice + warning).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Softmax(dim=0)(minigrad.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.softmax(input, dim)``."""
        return F.softmax(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """``softmax`` over the channels of (N, C, H, W) or (C, H, W) inputs, at each location.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Softmax2d()(minigrad.zeros(2, 1, 1))
        tensor([[[0.5000]],
        <BLANKLINE>
                [[0.5000]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        """``F.softmax(input, -3)`` of a 3-d or 4-d input."""
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(_DimActivation):
    """``log(softmax(x))`` along ``dim``, computed stably."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.log_softmax(input, dim)``."""
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(_DimActivation):
    """``softmax(-x)`` along ``dim``.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Softmin(dim=0)(minigrad.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    __constants__ = ["dim"]

    def forward(self, input: Tensor) -> Tensor:
        """``F.softmin(input, dim)``."""
        return F.softmin(input, self.dim, _stacklevel=5)


class CELU(Module):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Example:
        >>> from minigrad import nn
        >>> nn.CELU(0.5, inplace=True)
        CELU(alpha=0.5, inplace=True)
    """

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.celu(input, alpha, inplace)``."""
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        """``alpha=..``."""
        return f"alpha={self.alpha}" + _inplace_repr(self.inplace, ", ")


class Threshold(Module):
    """``value`` where ``x <= threshold``, else ``x``.

    Example:
        >>> from minigrad import nn
        >>> nn.Threshold(0.1, 20)
        Threshold(threshold=0.1, value=20)
    """

    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.threshold(input, threshold, value, inplace)``."""
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        """``threshold=.., value=..``."""
        return f"threshold={self.threshold}, value={self.value}" + _inplace_repr(
            self.inplace, ", "
        )


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.softsign(input)``."""
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.tanhshrink(input)``."""
        return F.tanhshrink(input)


class Hardshrink(Module):
    """``x`` outside ``[-lambd, lambd]``, 0 inside.

    Example:
        >>> from minigrad import nn
        >>> nn.Hardshrink()
        Hardshrink(0.5)
    """

    __constants__ = ["lambd"]

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        """``F.hardshrink(input, lambd)``."""
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        """The ``lambd`` alone, as PyTorch shows it."""
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.softshrink(input, lambd)``."""
        return F.softshrink(input, self.lambd)


class GLU(Module):
    """The gated linear unit: one half of the input along ``dim`` times sigmoid(the other)."""

    __constants__ = ["dim"]

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """``F.glu(input, dim)``."""
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        """``dim=..``."""
        return f"dim={self.dim}"


class PReLU(Module):
    """``x`` where positive, else ``weight * x``, with a learned slope (one, or one per channel).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.PReLU(num_parameters=2, init=0.1)
        >>> layer
        PReLU(num_parameters=2)
        >>> layer(minigrad.tensor([[-1.0, 3.0]]))
        tensor([[-0.1000,  3.0000]], grad_fn=<PreluKernelBackward0>)
    """

    __constants__ = ["num_parameters"]

    def __init__(
        self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None
    ) -> None:
        check_device(device)
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every slope back to ``init``."""
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        """``F.prelu(input, weight)``."""
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        """``num_parameters=..``."""
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """Leaky relu with a random slope from ``U(lower, upper)`` per element in training.

    In eval mode the slope is ``(lower + upper) / 2``.

    Example:
        >>> from minigrad import nn
        >>> nn.RReLU(0.1, 0.3)
        RReLU(lower=0.1, upper=0.3)
    """

    __constants__ = ["lower", "upper", "inplace"]

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``F.rrelu(input, lower, upper, training, inplace)``."""
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        """``lower=.., upper=..``."""
        return f"lower={self.lower}, upper={self.upper}" + _inplace_repr(self.inplace, ", ")

