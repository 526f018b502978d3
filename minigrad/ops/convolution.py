"""conv1d, conv2d and conv3d (and their transposes), and their differentiable backward ops.

Computed with strided windows and einsum (no Python loop over pixels); ``_helpers.py`` holds
the pieces the neural-network ops share.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from minigrad import _arguments, errors
from minigrad._dtype import backend_type_name
from minigrad._layout import convolution_result
from minigrad._warnings import warn_once
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import constant, part
from minigrad.ops import shape as shape_ops
from minigrad.ops import views
from minigrad.ops._helpers import (
    operand,
    run,
    save_for_the_other,
    shape_of,
)


def window_view(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
             dilation: Sequence[int]) -> np.ndarray:
    """A strided view (N, C, *out, *kernel) of every window of the padded input ``x``."""
    spatial = tuple(range(2, x.ndim))
    extent = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(x, extent, axis=spatial)
    key = (slice(None), slice(None), *(slice(None, None, s) for s in stride),
           *(slice(None, None, d) for d in dilation))
    return view[key]


def pad_spatial(x: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    """``x`` (N, C, *spatial) with zeros around its spatial dims, ``padding`` on each side."""
    if not any(padding):
        return x
    return np.pad(x, ((0, 0), (0, 0), *((p, p) for p in padding)))


def _conv_forward(x: np.ndarray, w: np.ndarray, stride: Sequence[int], padding: Sequence[int],
                  dilation: Sequence[int], groups: int) -> np.ndarray:
    """im2col convolution: every window against every filter, one einsum per group."""
    windows = window_view(pad_spatial(x, padding), w.shape[2:], stride, dilation)
    positions, kernel = _letters(len(stride))
    spec = f"nc{positions}{kernel},oc{kernel}->no{positions}"
    in_per_group, out_per_group = w.shape[1], w.shape[0] // groups
    parts = [
        np.einsum(spec, windows[:, g * in_per_group:(g + 1) * in_per_group],
                  w[g * out_per_group:(g + 1) * out_per_group], optimize=True)
        for g in range(groups)
    ]
    return np.concatenate(parts, axis=1) if groups > 1 else parts[0]


def _letters(dims: int) -> tuple[str, str]:
    """The einsum letters of the output positions and the kernel offsets (``dims`` each)."""
    return "xyz"[:dims], "ijk"[:dims]


def _conv_weight_grad(x: np.ndarray, grad: np.ndarray, weight_shape: Sequence[int],
                      stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                      groups: int) -> np.ndarray:
    """dW[o, c, k] = sum over batch and positions of grad[n, o, p] * window[n, c, p, k].

    Windows past grad's positions are left out: a transposed convolution's output padding
    can leave x one window longer than its convolution's output.
    """
    windows = window_view(pad_spatial(x, padding), weight_shape[2:], stride, dilation)
    windows = windows[(slice(None), slice(None), *(slice(n) for n in grad.shape[2:]))]
    positions, kernel = _letters(len(stride))
    spec = f"no{positions},nc{positions}{kernel}->oc{kernel}"
    in_per_group, out_per_group = weight_shape[1], weight_shape[0] // groups
    parts = [
        np.einsum(spec, grad[:, g * out_per_group:(g + 1) * out_per_group],
                  windows[:, g * in_per_group:(g + 1) * in_per_group], optimize=True)
        for g in range(groups)
    ]
    return np.concatenate(parts, axis=0) if groups > 1 else parts[0]


def _conv_input_grad(grad: np.ndarray, w: np.ndarray, input_shape: Sequence[int],
                     stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                     groups: int) -> np.ndarray:
    """The transposed convolution: each output position's gradient spread over its window.

    One strided slice per kernel position (a loop over the kernel, not the pixels).
    """
    padded_shape = (*input_shape[:2], *(n + 2 * p for n, p in zip(input_shape[2:], padding)))
    dtype = np.result_type(grad, w)
    result = np.zeros(padded_shape, dtype=dtype)
    in_per_group, out_per_group = w.shape[1], w.shape[0] // groups
    out = grad.shape[2:]
    for g in range(groups):
        gpart = grad[:, g * out_per_group:(g + 1) * out_per_group]
        filters = w[g * out_per_group:(g + 1) * out_per_group]
        # (N, *out, C/g, *kernel): every output position's contribution to its window
        spread = np.tensordot(gpart, filters, ([1], [0]))
        channels = slice(g * in_per_group, (g + 1) * in_per_group)
        # (each kernel position's contribution (N, *out, C/g) moved to (N, C/g, *out))
        add_windows(result[:, channels],
                    lambda k: np.moveaxis(spread[(Ellipsis, *k)], -1, 1),  # noqa: B023 - at once
                    w.shape[2:], stride, dilation, out)
    crop = tuple(slice(p, p + n) for p, n in zip(padding, input_shape[2:]))
    return result[(slice(None), slice(None), *crop)]


def add_windows(result: np.ndarray, values_at: Any, kernel: Sequence[int],
                stride: Sequence[int], dilation: Sequence[int], out: Sequence[int]) -> None:
    """Add into the padded ``result`` (N, C, *padded) each window position's values, in place.

    ``values_at(k)`` gives, for kernel position ``k``, the (N, C, *out) values of that position
    of every window; they land on a strided slice of ``result``. The transpose of reading
    windows (``window_view``): one slice per kernel position, not a loop over pixels.
    """
    for k in itertools.product(*(range(n) for n in kernel)):
        region = tuple(
            slice(ki * d, ki * d + s * (o - 1) + 1, s)
            for ki, d, s, o in zip(k, dilation, stride, out)
        )
        result[(slice(None), slice(None), *region)] += values_at(k)


def _plus_bias(y: np.ndarray, b: Any, dtype: np.dtype) -> np.ndarray:
    """``y`` plus one bias per channel (if any), a fresh array of the input's dtype."""
    if b is not None:
        y = y + np.reshape(b, (1, -1) + (1,) * (y.ndim - 2))
    return np.ascontiguousarray(y, dtype=dtype)


def _bias_grad(grad: Any) -> Any:
    """A bias's gradient: ``grad`` summed over the batch and the positions."""
    return np.sum(grad, axis=(0, *range(2, grad.ndim)))


class Convolution(Op):
    """y = conv(x, w) + b: every window of the padded input against every filter of its group.

    Windows are strided and dilated; the input is zero-padded.

    dx = the transposed convolution of grad with w (ConvolutionInputGrad),
    dw = the correlation of x's windows with grad (ConvolutionWeightGrad),
    db = grad summed over batch and positions. The three ops are each other's gradients, so
    second derivatives work. Saves input and weight (not the bias), as PyTorch.
    """

    fields = ("params", "bias_shape")
    saves = ("input", "weight")
    saved_options = {"stride": part("params", 0), "padding": part("params", 1),
                     "dilation": part("params", 2), "groups": part("params", 3),
                     "transposed": constant(False),
                     "output_padding": lambda node: (0,) * len(node.params[0]),
                     "bias_sym_sizes_opt": "bias_shape"}
    result_layout = staticmethod(convolution_result)  # (channels-last if x or w suggests it)

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, w: np.ndarray, b: Any, stride: tuple[int, ...],
        padding: tuple[int, ...], dilation: tuple[int, ...], groups: int,
    ) -> np.ndarray:
        ctx.save_for_backward(x, w)
        ctx.params = stride, padding, dilation, groups
        ctx.bias_shape = (0,) if b is None else np.shape(b)
        return _plus_bias(_conv_forward(x, w, stride, padding, dilation, groups), b, x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, w = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dx = run(ConvolutionInputGrad, grad, w, shape_of(x), *params) if needs[0] else None
        dw = run(ConvolutionWeightGrad, x, grad, shape_of(w), *params) if needs[1] else None
        db = _bias_grad(grad) if needs[2] else None
        return dx, dw, db, None, None, None, None


class ConvolutionInputGrad(Op):
    """dx = the transposed convolution of ``grad`` with ``w`` (the input's gradient of a conv).

    Bilinear: d(grad) = conv(H, w),  dw = ConvolutionWeightGrad(H, grad).  Saves both inputs
    (each as the other needs a gradient).
    """

    fields = ("params", "weight_shape")

    node_name = "ConvolutionBackwardBackward0"
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, w: np.ndarray, input_shape: tuple[int, ...],
        stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
        groups: int,
    ) -> np.ndarray:
        save_for_the_other(ctx, grad, w)
        ctx.params = stride, padding, dilation, groups
        ctx.weight_shape = w.shape
        result = _conv_input_grad(grad, w, input_shape, stride, padding, dilation, groups)
        return np.ascontiguousarray(result, dtype=grad.dtype)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        grad, w = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dgrad = run(Convolution, h, w, None, *params) if needs[0] else None
        dw = run(ConvolutionWeightGrad, h, grad, ctx.weight_shape, *params) if needs[1] else None
        return dgrad, dw, None, None, None, None, None


class ConvolutionWeightGrad(Op):
    """dw = the correlation of ``x``'s windows with ``grad`` (the weight's gradient of a conv).

    Bilinear: dx = ConvolutionInputGrad(grad, H),  d(grad) = conv(x, H).  Saves both inputs
    (each as the other needs a gradient).
    """

    fields = ("params", "input_shape", "grad_shape")

    node_name = "ConvolutionBackwardBackward0"
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, grad: np.ndarray, weight_shape: tuple[int, ...],
        stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
        groups: int,
    ) -> np.ndarray:
        save_for_the_other(ctx, x, grad)
        ctx.params = stride, padding, dilation, groups
        ctx.input_shape = x.shape
        ctx.grad_shape = grad.shape
        result = _conv_weight_grad(x, grad, weight_shape, stride, padding, dilation, groups)
        return np.ascontiguousarray(result, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        x, grad = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dx = run(ConvolutionInputGrad, grad, h, ctx.input_shape, *params) if needs[0] else None
        dgrad = None
        if needs[1]:
            dgrad = _cropped(run(Convolution, x, h, None, *params), ctx.grad_shape)
        return dx, dgrad, None, None, None, None, None


def _cropped(value: Any, shape: Sequence[int]) -> Any:
    """``value`` cut to the spatial size of ``shape``.

    A convolution of a transposed convolution's output padded past its stride (an output
    padding below the dilation) has one position too many.
    """
    if tuple(value.shape[2:]) == tuple(shape[2:]):
        return value
    return value[(slice(None), slice(None), *(slice(n) for n in shape[2:]))]


class ConvolutionOfGradient(Convolution):
    """A convolution in a backward formula: a transposed convolution's input gradient.

    Under create_graph it records ConvolutionBackwardBackward0, as PyTorch.
    """

    node_name = "ConvolutionBackwardBackward0"


class ConvolutionTranspose(Op):
    """y = conv_transpose(x, w) + b: each input position's value spread over its window.

    The forward of a transposed convolution is the input gradient of the convolution whose
    weight is ``w`` (shape (C_in, C_out / groups, *kernel)): one kernel,
    ``_conv_input_grad``. The output is ``(n - 1) * stride - 2 * padding + dilation *
    (kernel - 1) + output_padding + 1`` long in each dimension.

    dx = conv(grad, w) (ConvolutionOfGradient), dw = the correlation of grad's windows with x
    (ConvolutionWeightGrad, x in the role of the gradient), db = grad summed over batch and
    positions. Saves input and weight, as PyTorch (whose node is ConvolutionBackward0 with
    ``transposed=True``).
    """

    node_name = "ConvolutionBackward0"
    fields = ("params", "bias_shape", "output_padding")
    saves = ("input", "weight")
    saved_options = {**Convolution.saved_options, "transposed": constant(True),
                     "output_padding": "output_padding"}
    result_layout = staticmethod(convolution_result)  # (channels-last if x or w suggests it)

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, w: np.ndarray, b: Any, stride: tuple[int, ...],
        padding: tuple[int, ...], output_padding: tuple[int, ...], dilation: tuple[int, ...],
        groups: int,
    ) -> np.ndarray:
        ctx.save_for_backward(x, w)
        ctx.params = stride, padding, dilation, groups
        ctx.output_padding = output_padding
        ctx.bias_shape = (0,) if b is None else np.shape(b)
        shape = (x.shape[0], w.shape[1] * groups,
                 *transposed_output_size(x.shape[2:], w.shape[2:], stride, padding,
                                         output_padding, dilation))
        return _plus_bias(_conv_input_grad(x, w, shape, stride, padding, dilation, groups), b,
                          x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, w = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dx = dw = db = None
        if needs[0]:
            dx = _cropped(run(ConvolutionOfGradient, grad, w, None, *params), shape_of(x))
        if needs[1]:
            dw = run(ConvolutionWeightGrad, grad, x, shape_of(w), *params)
        if needs[2]:
            db = _bias_grad(grad)
        return dx, dw, db, None, None, None, None, None


def transposed_output_size(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
                           padding: Sequence[int], output_padding: Sequence[int],
                           dilation: Sequence[int]) -> tuple[int, ...]:
    """The spatial size of a transposed convolution's output (its convolution's input)."""
    return tuple((n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, k, s, p, op, d in
                 zip(size, kernel, stride, padding, output_padding, dilation))


def _as_list(value: Any, dims: int) -> tuple[int, ...]:
    if isinstance(value, (int, np.integer)):
        return (_arguments.check_int64(int(value)),) * dims  # (past int64: the parser's error)
    return tuple(value)


def _expand_param(values: tuple[int, ...], name: str, dims: int) -> tuple[int, ...]:
    if len(values) == 1:
        return (int(values[0]),) * dims
    if len(values) != dims:
        raise RuntimeError(errors.conv_param_length(name, dims, values))
    return tuple(int(v) for v in values)


def _batched(
    input: Any, w: np.ndarray, groups: int, dims: int, name: str, aten: bool = False
) -> tuple[Any, np.ndarray, bool]:
    """A convolution's input given a batch dimension (unsqueezed if it had none).

    Returns it, its array and whether it had one, after PyTorch's first checks of the input's
    rank, the weight's and the groups. ``aten``: ATen's ``convolution``, which takes batched
    inputs only (the shape checks then compare the input's rank with the weight's).
    """
    x = operand(input)
    if not aten and x.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(errors.conv_input_dims(dims, name, x.shape))
    batched = aten or x.ndim == dims + 2
    if not batched:
        input = views.unsqueeze(input, 0)
        x = operand(input)
    if w.ndim < 3:
        raise RuntimeError(errors.CONV_WEIGHT_DIMS)
    if groups <= 0:
        raise RuntimeError(errors.CONV_NONPOSITIVE_GROUPS)
    return input, x, batched


def _convolution(
    input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any, groups: int,
    dims: int, name: str, aten: bool = False,
) -> Any:
    """PyTorch's ``conv1d`` / ``2d`` / ``3d``: batchify, checks, ``ConvolutionBackward0``.

    ``aten``: as ``minigrad.convolution`` (ATen's ``convolution``), which lacks conv2d's check
    of the bias's dtype and, for a bool input, reaches the kernel's dispatch error before any
    check of the weight's dtype.
    """
    if not aten:  # (the parser unpacks the option lists first, the last first; ATen's form
        # has its own checks)
        for option, value in (("dilation", dilation), ("padding", padding), ("stride", stride)):
            if isinstance(value, (tuple, list)):
                _arguments.check_int64_items(value, name, option)
    x, w = operand(input), operand(weight)
    if (
        not aten
        and bias is not None
        and not isinstance(padding, str)
        and operand(bias).dtype != x.dtype
    ):
        raise RuntimeError(errors.input_bias_type_mismatch(x.dtype, operand(bias).dtype))
    input, x, batched = _batched(input, w, groups, dims, name, aten)
    # PyTorch's binding turns a number into a list of ``dims`` values (stride=1 -> [1, 1]).
    stride, dilation = _as_list(stride, dims), _as_list(dilation, dims)
    if not isinstance(padding, str):
        padding = _as_list(padding, dims)
    kdims = w.ndim - 2
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,)
        elif padding == "same":
            input, padding = _same_padding(input, w, stride, dilation, kdims)
            x = operand(input)
        else:
            raise RuntimeError(errors.conv_padding_string(padding))
    stride = _expand_param(stride, "stride", kdims)
    padding = _expand_param(padding, "padding", kdims)
    dilation = _expand_param(dilation, "dilation", kdims)
    _check_conv_shapes(x, w, bias, stride, padding, dilation, groups)
    if not aten:
        _check_conv_dtypes(x, w)
    if x.dtype == np.bool_:  # (PyTorch's kernels have no bool version)
        kernel = "compute_columns3d" if kdims == 3 else "slow_conv2d_cpu"
        raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))
    if aten:
        _check_conv_dtypes(x, w)
        if x.dtype == np.float32 and bias is not None and operand(bias).dtype != x.dtype:
            # (the MKLDNN backend's check, which a float input goes to)
            raise RuntimeError(
                errors.conv_input_weight_types(
                    backend_type_name(x.dtype), backend_type_name(operand(bias).dtype), "bias"
                )
            )
    out = Convolution.apply(input, weight, bias, stride, padding, dilation, int(groups))
    return out if batched else views.squeeze(out, 0)


def _check_conv_dtypes(x: np.ndarray, w: np.ndarray) -> None:
    """PyTorch's messages for a weight of another dtype than the input."""
    if w.dtype != x.dtype:
        if x.dtype == np.float32 or w.dtype != np.float32:
            raise RuntimeError(
                errors.conv_input_weight_types(backend_type_name(x.dtype),
                                               backend_type_name(w.dtype))
            )
        raise RuntimeError(errors.expected_scalar_type(x.dtype, w.dtype))


def _same_padding(
    input: Any, w: np.ndarray, stride: Any, dilation: Any, dims: int
) -> tuple[Any, tuple[int, ...]]:
    """Padding that keeps the size (stride 1); an uneven total pads the far end first."""
    strides, dilations = tuple(stride), tuple(dilation)
    if len(strides) not in (1, dims):
        raise RuntimeError(errors.conv_same_broadcast("stride", dims))
    if len(dilations) not in (1, dims):
        raise RuntimeError(errors.conv_same_broadcast("dilation", dims))
    if any(s != 1 for s in strides):
        raise RuntimeError(errors.CONV_SAME_STRIDED)
    left, extra = [], []
    for i in range(dims):
        d = dilations[0] if len(dilations) == 1 else dilations[i]
        total = d * (w.shape[i + 2] - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        warn_once(errors.SAME_PADDING_COPY, stacklevel=4)
        pad: list[int] = []
        for i in reversed(range(dims)):  # F.pad order: last dimension first
            pad.extend((0, extra[i]))
        input = shape_ops.pad(input, tuple(pad))
    return input, tuple(left)


def _check_weight_rank_and_groups(x: np.ndarray, w: np.ndarray, groups: int) -> None:
    """The checks a convolution and a transposed one share, in PyTorch's order."""
    if w.ndim != x.ndim:
        raise RuntimeError(errors.conv_weight_input_dims(w.ndim, w.shape, x.shape))
    if w.shape[0] < groups:
        _arguments.check_int64(groups)  # (past int64, the parser's error comes first)
        raise RuntimeError(errors.conv_groups_too_many(groups, w.shape))
    if w.shape[0] % groups:
        raise RuntimeError(errors.conv_groups_not_divisor(groups, w.shape))


def _check_conv_shapes(x: np.ndarray, w: np.ndarray, bias: Any, stride: tuple[int, ...],
                       padding: tuple[int, ...], dilation: tuple[int, ...], groups: int) -> None:
    """PyTorch's ``check_shape_forward``, in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError(errors.CONV_NEGATIVE_PADDING)
    if any(s <= 0 for s in stride):
        raise RuntimeError(errors.CONV_NONPOSITIVE_STRIDE)
    if any(d <= 0 for d in dilation):
        raise RuntimeError(errors.CONV_NONPOSITIVE_DILATION)
    _check_weight_rank_and_groups(x, w, groups)
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            errors.conv_input_channels(groups, w.shape, x.shape, w.shape[1] * groups)
        )
    if bias is not None and (operand(bias).ndim != 1 or operand(bias).shape[0] != w.shape[0]):
        raise RuntimeError(errors.conv_bias_shape(w.shape, shape_of(bias)))
    padded = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    kernel = [d * (k - 1) + 1 for k, d in zip(w.shape[2:], dilation)]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError(errors.conv_kernel_too_large(padded, kernel))


def conv1d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Any:
    """1-D convolution (cross-correlation) of ``input`` with ``weight``.

    ``input`` is (N, C_in, L) or (C_in, L), ``weight`` (C_out, C_in / groups, K).

    ``padding`` is a number, a 1-tuple, 'valid' (0) or 'same' (output length = input length,
    stride 1). Recorded as one ``ConvolutionBackward0`` node (with Unsqueeze/Squeeze around it
    for an unbatched input), which saves input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv1d(minigrad.ones(1, 1, 4), minigrad.ones(1, 1, 2))
        tensor([[[2., 2., 2.]]])
    """
    _arguments.check_tensor(input, "conv1d", "input", 1)
    _arguments.check_tensor(weight, "conv1d", "weight", 2)
    if bias is not None:
        _arguments.check_tensor(bias, "conv1d", "bias", 3)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Any:
    """2-D convolution (cross-correlation) of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, H, W) or (C_in, H, W), ``weight`` (C_out, C_in / groups, kH, kW),
    ``bias`` (C_out,).

    ``out[n, o] = b[o] + sum over c in o's group, i, j of w[o, c, i, j] *
    x_padded[n, c, s*y + d*i, s*x + d*j]``. Gradients: the input's is the transposed
    convolution of ``grad`` with ``weight``, the weight's the correlation of the input with
    ``grad``, the bias's the sum of ``grad``. One ``ConvolutionBackward0`` node saving input and
    weight. Computed with numpy (strided windows and tensordot), not loops over pixels.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv2d(minigrad.ones(1, 1, 3, 3), minigrad.ones(1, 1, 2, 2))
        tensor([[[[4., 4.],
                  [4., 4.]]]])
    """
    _arguments.check_tensor(input, "conv2d", "input", 1)
    _arguments.check_tensor(weight, "conv2d", "weight", 2)
    if bias is not None:
        _arguments.check_tensor(bias, "conv2d", "bias", 3)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Any:
    """3-D convolution (cross-correlation) of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, D, H, W) or (C_in, D, H, W), ``weight`` (C_out, C_in / groups, kD,
    kH, kW), ``bias`` (C_out,). The same op as ``conv2d`` with one more spatial dimension
    (volumes: video, medical images); ``padding`` is a number, a triple, 'valid' or 'same'.
    One ``ConvolutionBackward0`` node saving input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv3d(minigrad.ones(1, 1, 2, 3, 3), minigrad.ones(1, 1, 2, 2, 2)).shape
        minigrad.Size([1, 1, 1, 2, 2])
    """
    _arguments.check_tensor(input, "conv3d", "input", 1)
    _arguments.check_tensor(weight, "conv3d", "weight", 2)
    if bias is not None:
        _arguments.check_tensor(bias, "conv3d", "bias", 3)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _check_conv_transpose_shapes(
    x: np.ndarray, w: np.ndarray, bias: Any, stride: tuple[int, ...], padding: tuple[int, ...],
    output_padding: tuple[int, ...], dilation: tuple[int, ...], groups: int,
) -> tuple[int, ...]:
    """PyTorch's ``check_shape_forward`` of a transposed convolution, then its kernel's checks.

    Returns the output's spatial size.
    """
    if any(p < 0 for p in padding):
        raise RuntimeError(errors.CONV_NEGATIVE_PADDING)
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError(errors.CONV_NONPOSITIVE_STRIDE)
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    _check_weight_rank_and_groups(x, w, groups)
    if x.shape[1] != w.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {errors.format_size(w.shape)}, expected input"
            f"{errors.format_size(x.shape)} to have {w.shape[0]} channels, but got {x.shape[1]} "
            "channels instead"
        )
    out_channels = w.shape[1] * groups
    if bias is not None and (operand(bias).ndim != 1 or operand(bias).shape[0] != out_channels):
        raise RuntimeError(
            f"Given transposed=1, weight of size {errors.format_size(w.shape)}, expected bias "
            f"to be 1-dimensional with {out_channels} elements, but got bias of size "
            f"{errors.format_size(shape_of(bias))} instead"
        )
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        # (PyTorch's kernels are 2-d and 3-d: a 1-d convolution's lists gain a leading 0 or 1)
        lead = (0, 1, 1) if len(stride) == 1 else ()
        lists = [(lead[i], *v) if lead else v for i, v in
                 enumerate((output_padding, stride, dilation))]
        axes = ("depth", "height", "width")[-len(lists[0]):]
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            + " ".join(f"{name}_{axis}: {value}" for name, values in
                       zip(("output_padding", "stride", "dilation"), lists)
                       for axis, value in zip(axes, values))
        )
    out = transposed_output_size(x.shape[2:], w.shape[2:], stride, padding, output_padding,
                                 dilation)
    if any(n < 1 for n in out):
        if x.dtype == np.float32 and len(stride) < 3:  # (PyTorch's oneDNN path, 1-d and 2-d)
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        size = (1,) * (3 - x.ndim) + x.shape[2:]
        shown = (1,) * (3 - x.ndim) + out
        raise RuntimeError(
            "Given input size per channel: (" + " x ".join(map(str, size)) + "). Calculated "
            "output size per channel: (" + " x ".join(map(str, shown)) + "). Output size is "
            "too small"
        )
    return out


def _convolution_transpose(
    input: Any, weight: Any, bias: Any, stride: Any, padding: Any, output_padding: Any,
    groups: int, dilation: Any, dims: int, name: str, aten: bool = False,
) -> Any:
    """PyTorch's ``conv_transpose1d`` / ``2d`` / ``3d``: batchify, checks, one node.

    ``aten``: as ``minigrad.convolution`` (ATen's), which takes batched inputs only.
    """
    _arguments.check_tensor(input, name, "input", 1)
    _arguments.check_tensor(weight, name, "weight", 2)
    if bias is not None:
        _arguments.check_tensor(bias, name, "bias", 3)
    for position, (option, value) in enumerate(
            (("stride", stride), ("padding", padding), ("output_padding", output_padding)),
            start=4):
        _arguments.check_int_sequence(value, name, option, position)
    _arguments.check_int_sequence(dilation, name, "dilation", 8)
    w = operand(weight)
    input, x, batched = _batched(input, w, groups, dims, name, aten)
    kdims = w.ndim - 2
    stride, padding, output_padding, dilation = (
        _expand_param(_as_list(value, dims), option, kdims) for option, value in (
            ("stride", stride), ("padding", padding), ("output_padding", output_padding),
            ("dilation", dilation)))
    _check_conv_transpose_shapes(x, w, bias, stride, padding, output_padding, dilation, groups)
    if x.dtype == np.bool_:  # (PyTorch's kernel has no bool version)
        kernel = "slow_conv_transpose3d_out_cpu" if dims == 3 else "slow_conv_transpose2d_out_cpu"
        raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))
    if bias is not None and operand(bias).dtype != x.dtype:
        raise RuntimeError(
            errors.conv_input_weight_types(
                backend_type_name(x.dtype), backend_type_name(operand(bias).dtype), "bias"
            )
        )
    _check_conv_dtypes(x, w)
    out = ConvolutionTranspose.apply(input, weight, bias, stride, padding, output_padding,
                                     dilation, int(groups))
    return out if batched else views.squeeze(out, 0)


def conv_transpose1d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
) -> Any:
    """1-D transposed convolution ("deconvolution") of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, L) or (C_in, L), ``weight`` (C_in, C_out / groups, K); the output
    is ``(L - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1`` long. The
    gradient of ``conv1d`` with respect to its input, as a layer. One ``ConvolutionBackward0``
    node (``transposed=True``) saving input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv_transpose1d(minigrad.ones(1, 1, 3), minigrad.ones(1, 1, 2))
        tensor([[[1., 2., 2., 1.]]])
    """
    return _convolution_transpose(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 1, "conv_transpose1d")


def conv_transpose2d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
) -> Any:
    """2-D transposed convolution ("deconvolution") of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, H, W) or (C_in, H, W), ``weight`` (C_in, C_out / groups, kH, kW);
    each output dimension is ``(n - 1) * stride - 2 * padding + dilation * (k - 1) +
    output_padding + 1`` long. One ``ConvolutionBackward0`` node (``transposed=True``) saving
    input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv_transpose2d(minigrad.ones(1, 1, 2, 2), minigrad.ones(1, 1, 2, 2), stride=2)
        tensor([[[[1., 1., 1., 1.],
                  [1., 1., 1., 1.],
                  [1., 1., 1., 1.],
                  [1., 1., 1., 1.]]]])
    """
    return _convolution_transpose(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 2, "conv_transpose2d")


def conv_transpose3d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
) -> Any:
    """3-D transposed convolution ("deconvolution") of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, D, H, W) or (C_in, D, H, W), ``weight`` (C_in, C_out / groups, kD,
    kH, kW); each output dimension is ``(n - 1) * stride - 2 * padding + dilation * (k - 1) +
    output_padding + 1`` long. One ``ConvolutionBackward0`` node (``transposed=True``) saving
    input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv_transpose3d(minigrad.ones(1, 1, 2, 2, 2), minigrad.ones(1, 1, 2, 2, 2),
        ...                    stride=2).shape
        minigrad.Size([1, 1, 4, 4, 4])
    """
    return _convolution_transpose(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 3, "conv_transpose3d")


# ==========================================================================================
# pooling
# ==========================================================================================
