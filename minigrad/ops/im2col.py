"""``F.unfold`` (im2col) and ``F.fold`` (col2im): image windows as columns and back.

``unfold`` turns an (N, C, H, W) image into (N, C * kh * kw, L): one column per sliding window
(``L`` of them, row-major over the window positions), holding the window's values channel by
channel. ``fold`` is its transpose: it adds each column back into its window of an (N, C, H, W)
image, so values of overlapping windows sum. Each is the other's gradient
(``Im2ColBackward0``, ``Col2ImBackward0``); neither saves a tensor. The windows are the strided
views the convolutions read (``convolution.window_view``) and are written back the way a
convolution's input gradient is (``convolution.add_windows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._layout import contiguous_result
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.ops._helpers import dtype_name, is_tensor, operand, run
from minigrad.ops.convolution import add_windows, pad_spatial, window_view

Params = tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]
_SHOWN = {
    "kernel_size": part("params", 0),
    "dilation": part("params", 1),
    "padding": part("params", 2),
    "stride": part("params", 3),
}


def _blocks(size: Sequence[int], params: Params) -> tuple[int, int]:
    """The number of window positions along H and W of an image of spatial ``size``."""
    kernel, dilation, padding, stride = params
    return tuple(  # type: ignore[return-value]
        (n + 2 * p - (d * (k - 1) + 1)) // s + 1
        for n, k, d, p, s in zip(size, kernel, dilation, padding, stride)
    )


def _im2col(x: np.ndarray, params: Params) -> np.ndarray:
    """(N, C, H, W) -> (N, C * kh * kw, L), or without N."""
    kernel, dilation, padding, stride = params
    batch = x if x.ndim == 4 else x[None]
    windows = window_view(pad_spatial(batch, padding), kernel, stride, dilation)
    n, c, oh, ow = windows.shape[:4]
    columns = windows.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kernel[0] * kernel[1], oh * ow)
    return np.ascontiguousarray(columns if x.ndim == 4 else columns[0])


def _col2im(columns: np.ndarray, size: tuple[int, int], params: Params) -> np.ndarray:
    """(N, C * kh * kw, L) -> (N, C, H, W), overlapping windows summed; or without N."""
    kernel, dilation, padding, stride = params
    batch = columns if columns.ndim == 3 else columns[None]
    out = _blocks(size, params)
    n = batch.shape[0]
    c = batch.shape[1] // (kernel[0] * kernel[1])
    blocks = batch.reshape(n, c, kernel[0], kernel[1], *out)
    padded = np.zeros((n, c, *(s + 2 * p for s, p in zip(size, padding))), dtype=columns.dtype)
    add_windows(padded, lambda k: blocks[:, :, k[0], k[1]], kernel, stride, dilation, out)
    image = padded[:, :, padding[0] : padding[0] + size[0], padding[1] : padding[1] + size[1]]
    return np.ascontiguousarray(image if columns.ndim == 3 else image[0])


class Im2Col(Op):
    """y = the image's sliding windows as columns;  dx = fold(grad) (Col2Im).

    Saves no tensor: the options and the input's spatial size (PyTorch's
    ``_saved_self_sym_argsize_minus_2``, ``_minus_1``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)
    fields = ("params", "size")
    saved_options = {
        **_SHOWN,
        "self_sym_argsize_minus_2": part("size", 0),
        "self_sym_argsize_minus_1": part("size", 1),
    }

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, params: Params) -> np.ndarray:
        ctx.params, ctx.size = params, x.shape[-2:]
        return _im2col(x, params)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(Col2Im, grad, ctx.size, ctx.params), None


class Col2Im(Op):
    """y = the columns added back into their windows;  dx = unfold(grad) (Im2Col).

    Saves no tensor: the options.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    result_layout = staticmethod(contiguous_result)
    fields = ("params",)
    saved_options = _SHOWN

    @staticmethod
    def forward(ctx: Any, columns: np.ndarray, size: tuple[int, int], params: Params) -> Any:
        ctx.params = params
        return _col2im(columns, size, params)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return run(Im2Col, grad, ctx.params), None, None


def _pair_of(value: Any) -> Any:
    """PyTorch's Python ``_pair``: a sequence as it is, anything else twice."""
    return value if isinstance(value, (list, tuple)) else (value, value)


def _pair(value: Any, name: str) -> tuple[int, int]:
    """PyTorch's ``_pair`` then the kernel's check that two values were given."""
    values = tuple(value) if isinstance(value, (list, tuple)) else (value, value)
    if len(values) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(values)}")
    return int(values[0]), int(values[1])


_RULES = {  # (PyTorch's words for each option's lower bound)
    "kernel": ("kernel size should be greater than zero", "kernel", 1),
    "dilation": ("dilation should be greater than zero", "dilation", 1),
    "padding": ("padding should be non-negative", "pad", 0),
    "stride": ("stride should be greater than zero", "stride", 1),
}


def _check_positive(params: dict[str, tuple[int, int]], order: Sequence[str]) -> None:
    for name in order:
        text, word, lowest = _RULES[name]
        height, width = params[name]
        if height < lowest or width < lowest:
            raise RuntimeError(f"{text}, but got {word}_height: {height} {word}_width: {width}")


def _params(kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> dict[str, Any]:
    return {
        "kernel": _pair(kernel_size, "kernel_size"),
        "dilation": _pair(dilation, "dilation"),
        "padding": _pair(padding, "padding"),
        "stride": _pair(stride, "stride"),
    }


def _check_dtype(x: np.ndarray, kernel: str) -> None:
    if x.dtype.kind != "f" and x.dtype != np.bool_:
        raise NotImplementedError(errors.not_implemented_for(kernel, dtype_name(x)))


def unfold(
    input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Any:
    """The sliding windows of an (N, C, H, W) or (C, H, W) image as columns (im2col).

    The result is (N, C * kh * kw, L), ``L`` the number of window positions; column ``l``
    holds window ``l``'s values, channel by channel, each channel's row-major. The input is
    zero-padded by ``padding``; windows are ``dilation`` apart inside, ``stride`` apart.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.unfold(minigrad.arange(6.0).reshape(1, 1, 2, 3), (2, 2))
        tensor([[[0., 1.],
                 [1., 2.],
                 [3., 4.],
                 [4., 5.]]])
    """
    _arguments.check_tensor(input, "im2col", "input", 1)
    for position, (name, value) in enumerate(
        (
            ("kernel_size", kernel_size),
            ("dilation", dilation),
            ("padding", padding),
            ("stride", stride),
        ),
        start=2,
    ):
        _arguments.check_int_sequence(_pair_of(value), "im2col", name, position)
    x = operand(input)
    if x.ndim == 1 and is_tensor(input) and input.requires_grad and grad_mode.is_grad_enabled():
        # (PyTorch's autograd reads the input's size(-2) to save it, before the kernel runs)
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
    params = _params(kernel_size, dilation, padding, stride)
    if x.ndim < 3:  # (PyTorch reads the image's dims before checking their number)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], "
            f"but got {x.ndim})"
        )
    _check_positive(params, ("kernel", "dilation", "padding", "stride"))
    first = 1 if x.ndim == 4 else 0
    if x.ndim not in (3, 4) or 0 in x.shape[first:]:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
            f"non-zero dimensions for input, but got: {errors.format_size(x.shape)}"
        )
    ordered = (params["kernel"], params["dilation"], params["padding"], params["stride"])
    blocks = _blocks(x.shape[-2:], ordered)
    if min(blocks) < 1:
        (kh, kw), (dh, dw), (ph, pw) = ordered[:3]
        raise RuntimeError(
            f"Given input with spatial size ({x.shape[-2]}, {x.shape[-1]}), kernel_size=({kh}, "
            f"{kw}), dilation=({dh}, {dw}), padding=({ph}, {pw}), calculated shape of the array "
            f"of sliding blocks as ({blocks[0]}, {blocks[1]}), but its components must be at "
            "least one."
        )
    _check_dtype(x, "im2col_out_cpu")
    return Im2Col.apply(input, ordered)


def fold(
    input: Any,
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Any:
    """Columns of sliding windows added back into an image of ``output_size`` (col2im).

    The inverse layout of ``unfold``: (N, C * kh * kw, L) or (C * kh * kw, L) becomes
    (N, C, H, W); values of overlapping windows are summed. ``fold(unfold(x))`` is ``x`` times
    the number of windows covering each pixel.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.fold(minigrad.ones(1, 4, 2), (2, 3), (2, 2))
        tensor([[[[1., 2., 1.],
                  [1., 2., 1.]]]])
    """
    _arguments.check_tensor(input, "col2im", "input", 1)
    for position, (name, value) in enumerate(
        (
            ("output_size", output_size),
            ("kernel_size", kernel_size),
            ("dilation", dilation),
            ("padding", padding),
            ("stride", stride),
        ),
        start=2,
    ):
        _arguments.check_int_sequence(_pair_of(value), "col2im", name, position)
    x = operand(input)
    size = _pair(output_size, "output_size")
    params = _params(kernel_size, dilation, padding, stride)
    _check_positive(params, ("kernel", "stride", "dilation", "padding"))
    first = 1 if x.ndim == 3 else 0
    if x.ndim not in (2, 3) or 0 in x.shape[first:]:
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {errors.format_size(x.shape)}"
        )
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = ordered = (
        params["kernel"],
        params["dilation"],
        params["padding"],
        params["stride"],
    )
    if x.shape[-2] % (kh * kw):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={x.shape[-2]} and kernel_size=({kh}, {kw})."
        )
    blocks = _blocks(size, ordered)
    if x.shape[-1] != blocks[0] * blocks[1]:
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kh}, {kw}), dilation=("
            f"{dh}, {dw}), padding=({ph}, {pw}), stride=({sh}, {sw}), expected size of input's "
            "dimension 2 to match the calculated number of sliding blocks "
            f"{blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
            f"input.size(2)={x.shape[-1]}."
        )
    _check_dtype(x, "col2im_out_cpu")
    return Col2Im.apply(input, size, ordered)
