"""``Identity``, ``Linear`` and ``Bilinear``: the affine layers, with PyTorch's initialisation."""

from __future__ import annotations

import math
from typing import Any

from minigrad.creation import empty
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.utils import check_device
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Bilinear", "Identity", "Linear"]


class Identity(Module):
    """Returns its input unchanged (any constructor arguments are ignored).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Identity(54, unused="argument")(minigrad.tensor([1.0]))
        tensor([1.])
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        """Return ``input`` itself."""
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``, with ``weight`` (out_features, in_features).

    Initialised as PyTorch does: ``weight`` with ``kaiming_uniform_(a=sqrt(5))`` and ``bias``
    with U(-1/sqrt(in_features), 1/sqrt(in_features)), so both lie in that range.

    Example:
        >>> from minigrad import nn
        >>> nn.Linear(3, 2)
        Linear(in_features=3, out_features=2, bias=True)
        >>> nn.Linear(3, 2).weight.shape
        minigrad.Size([2, 3])
    """

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), dtype=dtype))
        self.register_parameter(
            "bias", Parameter(empty(out_features, dtype=dtype)) if bias else None
        )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw the weight and bias afresh (PyTorch's default initialisation)."""
        reset_affine_parameters(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        """``F.linear(input, weight, bias)``."""
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        """``in_features=.., out_features=.., bias=..``."""
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


def reset_affine_parameters(weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch's default initialisation of Linear and Conv layers, in place.

    ``kaiming_uniform_(weight, a=sqrt(5))``, i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and the
    bias from the same range.
    """
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)


class Bilinear(Module):
    """``y = x1^T A x2 + b`` for each output feature: ``weight`` (out, in1, in2), ``bias`` (out).

    Weight and bias start in U(-1/sqrt(in1_features), 1/sqrt(in1_features)).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.Bilinear(2, 3, 4)
        >>> layer(minigrad.ones(5, 2), minigrad.ones(5, 3)).shape
        minigrad.Size([5, 4])
    """

    def __init__(
        self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
        device: Any = None, dtype: Any = None,
    ) -> None:
        super().__init__()
        check_device(device)
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in1_features, in2_features), dtype=dtype))
        self.register_parameter(
            "bias", Parameter(empty(out_features, dtype=dtype)) if bias else None
        )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw the weight and bias afresh from U(-1/sqrt(in1), 1/sqrt(in1))."""
        if self.in1_features <= 0:
            raise ValueError(
                f"in1_features must be > 0, but got (in1_features={self.in1_features})"
            )
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        """``F.bilinear(input1, input2, weight, bias)``."""
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        """``in1_features=.., in2_features=.., out_features=.., bias=..``."""
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
