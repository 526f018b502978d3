"""channel_shuffle: the channels of ``groups`` groups interleaved (ShuffleNet's layer).

``channel_shuffle(x, g)`` views the C channels of (N, C, *) as (g, C / g) and transposes
them: output channel ``i * g + j`` is input channel ``j * (C / g) + i``. A permutation, so its
gradient is the inverse shuffle, ``channel_shuffle(grad, C / g)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._arguments import check_int64_arguments
from minigrad._layout import contiguous_result
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import NoDerivativeOf, operand, run


def _shuffled(x: np.ndarray, groups: int) -> np.ndarray:
    """(N, C, *) with the channels seen as (groups, C / groups) and transposed."""
    n, c, *rest = x.shape
    blocks = x.reshape(n, groups, c // groups, *rest)
    return np.ascontiguousarray(blocks.swapaxes(1, 2)).reshape(x.shape)


class ChannelShuffle(Op):
    """y = x's channel groups interleaved;  dx = channel_shuffle(grad, C / groups).

    Saves nothing (only the groups, PyTorch's ``_saved_groups``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)
    fields = ("groups",)
    saved_options = ("groups",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, groups: int) -> np.ndarray:
        ctx.groups = groups
        return _shuffled(x, groups)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(ChannelShuffle, grad, grad.shape[1] // ctx.groups), None


def _check(x: np.ndarray, groups: int) -> None:
    check_int64_arguments(groups)  # (past int64 either way, the parser's error comes first)
    if x.ndim <= 2:
        shown = ", ".join(map(str, x.shape))
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes [{shown}]"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    if x.shape[1] % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {x.shape[1]} channels and "
            f"{groups} groups."
        )


def channel_shuffle(input: Any, groups: int) -> Any:
    """The channels of (N, C, *) split into ``groups`` groups and interleaved.

    Output channel ``i * groups + j`` is input channel ``j * (C / groups) + i``. One
    ``ChannelShuffleBackward0`` node, saving nothing.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.channel_shuffle(minigrad.arange(4.0).reshape(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    _check(operand(input), groups)
    return ChannelShuffle.apply(input, int(groups))


def native_channel_shuffle(input: Any, groups: int) -> Any:
    """``channel_shuffle`` without a derivative: backward through it raises, as PyTorch's.

    Example:
        >>> import minigrad
        >>> minigrad.native_channel_shuffle(minigrad.arange(4.0).reshape(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    x = operand(input)
    _check(x, groups)
    values = _shuffled(x, int(groups))
    if grad_mode.is_grad_enabled() and input.requires_grad:
        return NoDerivativeOf.apply(input, values, "aten::native_channel_shuffle")
    return TensorBase.output_class._make(values)
