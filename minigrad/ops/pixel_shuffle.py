"""pixel_shuffle and pixel_unshuffle: channels traded for resolution, each the other's gradient.

``pixel_shuffle(x, r)`` turns (*, C * r * r, H, W) into (*, C, H * r, W * r): the r * r
channels of a group become an r x r block of pixels (sub-pixel convolution's upsampling).
``pixel_unshuffle`` is its inverse. Both are permutations of the elements, so each one's
gradient is the other applied to ``grad``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._arguments import check_int64_arguments
from minigrad._layout import contiguous_result
from minigrad.autograd.function import Op
from minigrad.ops._helpers import operand, run


def _shuffled(x: np.ndarray, r: int) -> np.ndarray:
    """(*, C r r, H, W) -> (*, C, H r, W r): channel c * r * r + i * r + j goes to pixel (i, j)."""
    *batch, channels, height, width = x.shape
    blocks = x.reshape(*batch, channels // (r * r), r, r, height, width)
    n = len(batch)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, i, W, j)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(
        *batch, channels // (r * r), height * r, width * r)


def _unshuffled(x: np.ndarray, r: int) -> np.ndarray:
    """(*, C, H r, W r) -> (*, C r r, H, W): the inverse of ``_shuffled``."""
    *batch, channels, height, width = x.shape
    blocks = x.reshape(*batch, channels, height // r, r, width // r, r)
    n = len(batch)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, i, j, H, W)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(
        *batch, channels * r * r, height // r, width // r)


class PixelShuffle(Op):
    """y = x's channel groups of r * r spread into r x r pixel blocks.

    dx = pixel_unshuffle(grad, r). Saves nothing (only the factor).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)
    fields = ("upscale_factor",)
    saved_options = ("upscale_factor",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, upscale_factor: int) -> np.ndarray:
        ctx.upscale_factor = upscale_factor
        return _shuffled(x, upscale_factor)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(PixelUnshuffle, grad, ctx.upscale_factor), None


class PixelUnshuffle(Op):
    """y = x's r x r pixel blocks gathered into channel groups of r * r.

    dx = pixel_shuffle(grad, r). Saves nothing (only the factor).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)
    fields = ("downscale_factor",)
    saved_options = ("downscale_factor",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, downscale_factor: int) -> np.ndarray:
        ctx.downscale_factor = downscale_factor
        return _unshuffled(x, downscale_factor)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(PixelShuffle, grad, ctx.downscale_factor), None


def _check(x: np.ndarray, name: str, factor_name: str, factor: int) -> None:
    check_int64_arguments(factor)  # (past int64, the parser's error first)
    if x.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {x.ndim} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {factor_name}, but got {factor}")


def pixel_shuffle(input: Any, upscale_factor: int) -> Any:
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r) with r = ``upscale_factor``.

    Each group of r * r channels becomes an r x r block of pixels. Gradient:
    ``pixel_unshuffle(grad, r)``. One ``PixelShuffleBackward0`` node, saving nothing.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.pixel_shuffle(minigrad.arange(4.0).reshape(4, 1, 1), 2)
        tensor([[[0., 1.],
                 [2., 3.]]])
    """
    x = operand(input)
    _check(x, "pixel_shuffle", "upscale_factor", upscale_factor)
    if x.shape[-3] % (upscale_factor * upscale_factor):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={x.shape[-3]} is not divisible by "
            f"{upscale_factor * upscale_factor}"
        )
    return PixelShuffle.apply(input, int(upscale_factor))


def pixel_unshuffle(input: Any, downscale_factor: int) -> Any:
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W) with r = ``downscale_factor``.

    The inverse of ``pixel_shuffle``: each r x r block of pixels becomes r * r channels.
    Gradient: ``pixel_shuffle(grad, r)``. One ``PixelUnshuffleBackward0`` node, saving nothing.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.pixel_unshuffle(minigrad.arange(4.0).reshape(1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    x = operand(input)
    _check(x, "pixel_unshuffle", "downscale_factor", downscale_factor)
    for dim, side in ((-2, "height"), (-1, "width")):
        if x.shape[dim] % downscale_factor:
            raise RuntimeError(
                f"pixel_unshuffle expects {side} to be divisible by downscale_factor, but "
                f"input.size({dim})={x.shape[dim]} is not divisible by {downscale_factor}"
            )
    return PixelUnshuffle.apply(input, int(downscale_factor))
