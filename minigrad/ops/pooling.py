"""Max and average pooling over strided windows, and their differentiable backward ops.

The ops work on any number of spatial dims (the length of the kernel); the 2-d and 3-d ones
are the same classes under PyTorch's two node names. The 1-d functions call the 2-d ops on the
input unsqueezed to a height of 1, as PyTorch does (its 1-d pools record the 2-d nodes between
Unsqueeze and Squeeze).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._layout import contiguous_result, suggested_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.ops import views
from minigrad.ops._helpers import (
    operand,
    run,
    trunc_div,
    zeros_like_grad,
)
from minigrad.ops.convolution import add_windows, window_view


def _pool_output_size(size: int, kernel: int, pad: int, stride: int, dilation: int,
                      ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape`` with its checks."""
    if stride == 0:
        raise RuntimeError(errors.POOL_ZERO_STRIDE)
    if pad < 0:
        raise RuntimeError(errors.pool_negative_pad(pad))
    if pad > trunc_div((kernel - 1) * dilation + 1, 2):
        raise RuntimeError(errors.pool_pad_too_large(pad, kernel, dilation))
    numerator = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = numerator // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


_COUNT_WORDS = {2: "two", 3: "three"}


def as_parsed(value: Any, dims: int) -> tuple[int, ...]:
    """An ``int[dims]`` option as PyTorch's parser hands it to the kernel (and its node keeps).

    One int is repeated ``dims`` times, a list stays as given (``[2]`` is ``(2,)``), a stride
    of None is the empty list: ``MaxPool2DWithIndicesBackward0._saved_stride`` is ``()``.
    """
    if value is None:
        return ()
    if isinstance(value, (int, np.integer)):
        return (int(value),) * dims
    return tuple(int(item) for item in value)


# The options a pooling node shows (PyTorch's names), from the ``given`` tuple it keeps.
_MAX_POOL_OPTIONS = {name: part("given", index) for index, name in enumerate(
    ("kernel_size", "stride", "padding", "dilation", "ceil_mode"))}
_AVG_POOL_OPTIONS = {name: part("given", index) for index, name in enumerate(
    ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"))}


def _pool_params(name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any = 1,
                 dims: int = 2) -> tuple[tuple[int, ...], ...]:
    """Kernel, stride (the kernel's if empty), padding and dilation as ``dims`` ints each.

    PyTorch's checks that each is one int or ``dims`` of them, with its messages (avg_pool3d's
    say "must be", the others "must either be").
    """
    def spread(value: Any, message: str, allow_empty: bool = False) -> tuple[int, ...] | None:
        values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
        if allow_empty and not values:
            return None
        if len(values) not in (1, dims):
            if dims != 2:
                message = message.replace("two", _COUNT_WORDS[dims])
            if name == "avg_pool3d":
                message = message.replace("must either be", "must be")
            raise RuntimeError(errors.pool_argument(name, message))
        return tuple(int(values[0 if len(values) == 1 else i]) for i in range(dims))

    kernel = spread(kernel_size, errors.POOL_KERNEL_SIZE_FORM)
    steps = spread((() if stride is None else stride),
                   errors.POOL_STRIDE_FORM, True)
    pads = spread(padding, errors.POOL_PADDING_FORM)
    dils = spread(dilation, errors.POOL_DILATION_FORM)
    assert kernel is not None and pads is not None and dils is not None
    return kernel, steps or kernel, pads, dils


def _pool_shape_check(x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int],
                      padding: tuple[int, int], dilation: tuple[int, int],
                      out: tuple[int, int]) -> None:
    """PyTorch's ``pool2d_shape_check``."""
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(errors.pool_kernel_size(kernel))
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(errors.pool_stride(stride))
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(errors.pool_dilation(dilation))
    valid = x.shape[-3] != 0 and x.shape[-2] != 0
    if not ((x.ndim == 3 and x.shape[0] != 0 and valid) or (x.ndim == 4 and valid
                                                            and x.shape[3] != 0)):
        raise RuntimeError(errors.pool_input_dims(x.shape))
    if kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]:
        raise RuntimeError(errors.pool_pad_over_half_kernel(padding, kernel))
    if out[0] < 1 or out[1] < 1:
        planes, height, width = x.shape[-3:]
        raise RuntimeError(errors.pool_output_too_small(planes, height, width, out))


def _pool3d_shape_check(x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
                        padding: tuple[int, ...], dilation: tuple[int, ...],
                        out: tuple[int, ...], function: str, check_input_size: bool) -> None:
    """PyTorch's ``pool3d_shape_check`` (``check_input_size``: average pooling's)."""
    if min(kernel) <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got "
                           "kT: {} kH: {} kW: {}".format(*kernel))
    if min(stride) <= 0:
        raise RuntimeError("stride should be greater than zero, but got "
                           "dT: {} dH: {} dW: {}".format(*stride))
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got "
                           "dilationT: {} dilationH: {} dilationW: {}".format(*dilation))
    if x.ndim not in (4, 5):
        raise RuntimeError(f"{function}: Expected 4D or 5D tensor for input, but got: "
                           f"{list(x.shape)}")
    for i in range(x.ndim):
        if x.shape[i] == 0 and not (x.ndim == 5 and i == 0):
            # (PyTorch's text names the empty dimension by its length, 0)
            raise RuntimeError(
                f"{function}: Expected input's non-batch dimensions to have positive length, "
                f"but input has a shape of {list(x.shape)} and non-batch dimension 0 has "
                "length zero!")
    size = x.shape[-3:]
    if check_input_size and any(n < k for n, k in zip(size, kernel)):
        raise RuntimeError("input image (T: {} H: {} W: {}) smaller than kernel size ".format(
            *size) + "(kT: {} kH: {} kW: {})".format(*kernel))
    if any(k // 2 < p for k, p in zip(kernel, padding)):
        (kt, kh, kw), (pt, ph, pw) = kernel, padding
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but got "
                           f"kT: {kt} kW: {kw} kH: {kh} padT: {pt} padW: {pw} padH: {ph}")
    if min(out) < 1:
        planes = x.shape[-4]
        raise RuntimeError(
            "Given input size: ({}x{}x{}x{}). ".format(planes, *size)
            + "Calculated output size: ({}x{}x{}x{}). Output size is too small".format(
                planes, *out))


def _as_batch(x: np.ndarray, dims: int) -> np.ndarray:
    """``x`` with its batch dimension (a leading 1 for an unbatched (C, *spatial) input)."""
    return x if x.ndim == dims + 2 else x[None]


def _window_starts(out: int, stride: int, pad: int) -> np.ndarray:
    return np.arange(out) * stride - pad


def _along(values: np.ndarray, axis: int, dims: int) -> np.ndarray:
    """``values`` (out, kernel) of spatial dim ``axis``, shaped to broadcast over (*out, *kernel).

    ``dims``: how many spatial dims the windows have.
    """
    shape = [1] * (2 * dims)
    shape[axis], shape[dims + axis] = values.shape
    return values.reshape(shape)


def argmax_nan_last(flat: np.ndarray) -> np.ndarray:
    """The position of each row's maximum (the first of ties), or of its last nan if it has one.

    PyTorch's max pooling kernels take a value when ``val > max || isnan(val)``.
    """
    choice = np.argmax(flat, axis=-1)
    if flat.dtype.kind == "f":
        nan = np.isnan(flat)
        last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        choice = np.where(nan.any(axis=-1), last_nan, choice)
    return choice


class MaxPool2DWithIndices(Op):
    """y = the maximum of each (dilated, strided) window, and its flat index in the input plane.

    dx = grad placed at those indices (added where windows share a maximum); the indices take
    no gradient. Saves the input and the indices (output 1), as PyTorch: writing the input (or
    the indices) in place before backward raises, writing the output does not. Ties go to the
    first maximum, a nan wins (the last one), padding never does. The forward works on as many
    spatial dims as the kernel has (``MaxPool3DWithIndices`` is this op under its 3-d name).
    ``given``: the options as PyTorch's node shows them (``as_parsed``), kept for that only.
    """

    saves = ("self", "result1")
    fields = ("given",)
    saved_options = _MAX_POOL_OPTIONS
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
        padding: tuple[int, ...], dilation: tuple[int, ...], out: tuple[int, ...],
        given: tuple[Any, ...],
    ) -> tuple[np.ndarray, np.ndarray]:
        ctx.given = given
        dims = len(kernel)
        batch = _as_batch(x, dims)
        size = batch.shape[2:]
        fill = -np.inf if batch.dtype.kind == "f" else np.iinfo(batch.dtype).min
        extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        far = [max(0, (o - 1) * s + e - n - p)
               for o, s, e, n, p in zip(out, stride, extent, size, padding)]
        padded = np.pad(batch, ((0, 0), (0, 0), *zip(padding, far)), constant_values=fill)
        windows = window_view(padded, kernel, stride, dilation)
        windows = windows[(slice(None), slice(None), *(slice(o) for o in out))]
        flat = windows.reshape(*windows.shape[:2 + dims], int(np.prod(kernel)))
        choice = argmax_nan_last(flat)
        values = np.take_along_axis(flat, choice[..., None], -1)[..., 0]
        # Where each window position lies in the input plane (row-major over the spatial
        # dims), and whether it is padding: (*out, *kernel) arrays, flattened per window.
        position = np.zeros((1,) * (2 * dims), dtype=np.int64)
        inside = np.ones((1,) * (2 * dims), dtype=bool)
        for axis in range(dims):
            coordinate = _along(_window_starts(out[axis], stride[axis], padding[axis])[:, None]
                                + np.arange(kernel[axis]) * dilation[axis], axis, dims)
            position = position * size[axis] + coordinate
            inside = inside & (coordinate >= 0) & (coordinate < size[axis])
        shape = (*out, *kernel)
        position = np.broadcast_to(position, shape).reshape(*out, -1)
        inside = np.broadcast_to(inside, shape).reshape(*out, -1)
        first_inside = np.argmax(inside, axis=-1)
        chosen_inside = np.take_along_axis(
            np.broadcast_to(inside, choice.shape + inside.shape[-1:]), choice[..., None], -1
        )[..., 0]
        choice = np.where(chosen_inside, choice, first_inside)
        indices = np.take_along_axis(
            np.broadcast_to(position, choice.shape + position.shape[-1:]), choice[..., None], -1
        )[..., 0].astype(np.int64)
        if x.ndim == dims + 1:
            values, indices = values[0], indices[0]
        values = np.ascontiguousarray(values)
        indices = np.ascontiguousarray(indices)
        ctx.save_for_backward(x, indices)
        return values, indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, ...]:
        x, indices = ctx.saved_tensors
        return (run(MaxPool2DWithIndicesBackward, grad, x, indices, 2),
                None, None, None, None, None, None)


class MaxPool3DWithIndices(MaxPool2DWithIndices):
    """``max_pool3d``: the same op over three spatial dims, under PyTorch's 3-d node names."""

    node_name = "MaxPool3DWithIndicesBackward0"

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, ...]:
        x, indices = ctx.saved_tensors
        return (run(MaxPool3DWithIndicesBackward, grad, x, indices, 3),
                None, None, None, None, None, None)


class MaxPoolScatter(Op):
    """dx = ``grad`` added at ``indices`` of each plane of ``input_shape`` (a scatter).

    A plane is the last ``dims`` dimensions. Linear in grad; its gradient gathers back:
    d(grad) = H at the indices (MaxPoolGather), whose own gradient is this op again. Saves the
    indices.
    """

    tensor_options = True  # an index or target tensor among the options
    fields = ("dims",)

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, indices: np.ndarray,
                input_shape: tuple[int, ...], dims: int) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.dims = dims
        return _scatter_to_planes(grad, indices, input_shape, dims)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, None, None, None]:
        (indices,) = ctx.saved_tensors
        return run(MaxPoolGather, h, indices, ctx.dims), None, None, None


def _scatter_to_planes(grad: np.ndarray, indices: np.ndarray,
                       input_shape: tuple[int, ...], dims: int) -> np.ndarray:
    """``grad`` added at ``indices`` of each input plane: max pooling's backward kernel.

    A plane is the last ``dims`` dimensions of ``input_shape``.
    """
    plane = int(np.prod(input_shape[-dims:]))
    planes = int(np.prod(input_shape[:-dims]))
    per_plane = int(np.prod(indices.shape[-dims:]))
    offsets = indices.reshape(planes, per_plane) + (np.arange(planes) * plane)[:, None]
    total = np.bincount(offsets.ravel(), weights=grad.reshape(-1).astype(np.float64),
                        minlength=planes * plane)
    return total.astype(grad.dtype).reshape(input_shape)


class MaxPool2DWithIndicesBackward(Op):
    """max_pool2d's gradient as an op of its own (``max_pool2d_with_indices_backward``).

    f(grad, x) = grad added at the indices of x's planes (x gives the shape; a plane is its
    last ``dims`` dimensions).  d(grad) = H at the indices (MaxPoolGather);  d(x) = 0
    (``zeros_like``: PyTorch's node has x as an input). Under create_graph it records
    MaxPool2DWithIndicesBackwardBackward0. Saves the indices.
    """

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    num_inputs = 2
    tensor_options = True  # the indices
    fields = ("dims",)

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, x: np.ndarray, indices: np.ndarray,
                dims: int) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.dims = dims
        return _scatter_to_planes(grad, indices, x.shape, dims)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, Any, None, None]:
        (indices,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        d_grad = run(MaxPoolGather, h, indices, ctx.dims) if needs[0] else None
        return d_grad, zeros_like_grad(h) if needs[1] else None, None, None


class MaxPool3DWithIndicesBackward(MaxPool2DWithIndicesBackward):
    """max_pool3d's gradient: the same scatter, under its node name for create_graph."""

    node_name = "MaxPool3DWithIndicesBackwardBackward0"


class MaxPoolGather(Op):
    """y = x at ``indices`` of each plane;  dx = grad added back at the indices.

    A plane is the last ``dims`` dimensions. The double backward of max pooling. Saves the
    indices.
    """

    fields = ("input_shape", "dims")

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, indices: np.ndarray, dims: int) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.input_shape = x.shape
        ctx.dims = dims
        planes = int(np.prod(x.shape[:-dims]))
        flat = x.reshape(planes, -1)
        per_plane = int(np.prod(indices.shape[-dims:]))
        picked = np.take_along_axis(flat, indices.reshape(planes, per_plane), axis=1)
        return picked.reshape(indices.shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (indices,) = ctx.saved_tensors
        return run(MaxPoolScatter, grad, indices, ctx.input_shape, ctx.dims), None, None


def _check_not_bool(x: np.ndarray, kernel: str) -> None:
    # PyTorch's pooling kernels exist for numbers only (after the shape checks).
    if x.dtype == np.bool_:
        raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))


def max_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:
    """The maximum of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input.

    Windows move by ``stride`` (default: the kernel size), over an input padded by ``padding``
    (at most half the kernel; padding never wins), their elements ``dilation`` apart;
    ``ceil_mode`` keeps a last partial window. Gradient: ``grad`` routed to each window's
    maximum. One ``MaxPool2DWithIndicesBackward0`` node that saves the input and the indices;
    ``return_indices=True`` also returns the indices (flat positions in each input plane).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    # PyTorch's F.max_pool2d is Python: it calls the kernel that returns indices when asked,
    # passing every argument by position to that kernel's parser (whose name its messages say).
    kernel_name = "max_pool2d_with_indices" if return_indices else "max_pool2d"
    check_pool_arguments(kernel_name, input, kernel_size, stride, padding, dilation)
    _arguments.check_value(ceil_mode, "bool", kernel_name, "ceil_mode", 6)
    values, indices = _max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (values, indices) if return_indices else values


def max_pool2d_with_indices(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Any, Any]:
    """``max_pool2d`` with ``return_indices=True``: the values and their indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool2d_with_indices(minigrad.arange(4.0).reshape(1, 2, 2), 2)
        (tensor([[[3.]]]), tensor([[[3]]]))
    """
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def check_pool_arguments(function: str, input: Any, *sizes: Any) -> None:
    """The parser's TypeErrors: ``input`` a tensor, then ``kernel_size, stride, ...`` int lists.

    A ``stride`` of None is the empty list (the kernel size), as PyTorch's parser takes it.
    """
    _arguments.check_tensor(input, function, "input", 1)
    names = ("kernel_size", "stride", "padding", "dilation")
    for position, (name, value) in enumerate(zip(names, sizes), start=2):
        if value is not None or name != "stride":
            _arguments.check_int_sequence(value, function, name, position)


def _max_pool2d(input: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                ceil_mode: bool) -> tuple[Any, Any]:
    """PyTorch's ``max_pool2d_with_indices`` kernel: its checks, then one node."""
    kernel, steps, pads, dils = _pool_params("max_pool2d", kernel_size, stride, padding, dilation)
    x = operand(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(errors.POOL_EMPTY_INPUT)
    out = tuple(
        _pool_output_size(x.shape[i - 2], kernel[i], pads[i], steps[i], dils[i], ceil_mode)
        for i in range(2)
    )
    _pool_shape_check(x, kernel, steps, pads, dils, out)  # type: ignore[arg-type]
    _check_not_bool(x, "max_pool2d")
    given = (*(as_parsed(option, 2) for option in (kernel_size, stride, padding, dilation)),
             bool(ceil_mode))
    return MaxPool2DWithIndices.apply(input, kernel, steps, pads, dils, out, given)


def max_pool3d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:
    """The maximum of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W) input.

    ``max_pool2d`` with one more spatial dim: windows move by ``stride`` (default: the kernel
    size) over an input padded by ``padding`` (at most half the kernel; padding never wins),
    their elements ``dilation`` apart; ``ceil_mode`` keeps a last partial window. One
    ``MaxPool3DWithIndicesBackward0`` node saving the input and the indices;
    ``return_indices=True`` also returns the indices (flat positions in each input volume).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool3d(minigrad.arange(8.0).reshape(1, 2, 2, 2), 2)
        tensor([[[[7.]]]])
    """
    kernel_name = "max_pool3d_with_indices" if return_indices else "max_pool3d"
    if return_indices:  # (PyTorch's Python function first asks ``input.is_cuda``)
        _arguments.check_has_attribute(input, "is_cuda")
    check_pool_arguments(kernel_name, input, kernel_size, stride, padding, dilation)
    _arguments.check_value(ceil_mode, "bool", kernel_name, "ceil_mode", 6)
    kernel, steps, pads, dils = _pool_params("max_pool3d", kernel_size, stride, padding,
                                             dilation, 3)
    x = operand(input)
    if x.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    out = tuple(
        _pool_output_size(x.shape[i - 3], kernel[i], pads[i], steps[i], dils[i], ceil_mode)
        for i in range(3)
    )
    _pool3d_shape_check(x, kernel, steps, pads, dils, out,
                        "max_pool3d_with_indices_out_cpu_template()", False)
    _check_not_bool(x, "max_pool3d")
    given = (*(as_parsed(option, 3) for option in (kernel_size, stride, padding, dilation)),
             bool(ceil_mode))
    values, indices = MaxPool3DWithIndices.apply(input, kernel, steps, pads, dils, out, given)
    return (values, indices) if return_indices else values


def max_pool3d_with_indices(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Any, Any]:
    """``max_pool3d`` with ``return_indices=True``: the values and their indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool3d_with_indices(minigrad.arange(8.0).reshape(1, 2, 2, 2), 2)
        (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def one_int(value: Any, function: str, parameter: str) -> int:
    """PyTorch's ``check1d``: an int or a sequence of exactly one int."""
    values = (value,) if _arguments.is_int(value) else tuple(value)
    if len(values) != 1:
        raise RuntimeError(
            f"{function}() argument '{parameter}' should contain one int (got {len(values)})")
    return int(values[0])


def check_1d_input(input: Any, function: str) -> None:
    """PyTorch's ``checkDimRange(2, 4)`` of a 1-d pooling's (N, C, L) or (C, L) input."""
    ndim = operand(input).ndim
    if ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {ndim}-dimensional tensor for argument #1 "
            f"'self' (while checking arguments for {function})"
        )


def _check_max_pool1d(x: np.ndarray, kernel_size: Any, stride: Any, padding: Any,
                      dilation: Any, ceil_mode: bool) -> None:
    """PyTorch's ``check_max_pool1d`` (``max_pool1d`` without indices checks this first)."""
    if not (x.ndim in (2, 3) and x.shape[-1] != 0 and x.shape[-2] != 0):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{errors.format_size(x.shape)}")
    sizes = {name: (v,) if _arguments.is_int(v) else tuple(v) for name, v in (
        ("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
        ("dilation", dilation))}
    forms = {"kernel_size": "an int, list of ints or tuple of ints",
             "stride": "None, an int, list of ints, or tuple of ints",
             "padding": "an int, list of ints, or tuple of ints",
             "dilation": "an int, list of ints or tuple of ints"}
    for name, values in sizes.items():
        if len(values) != 1 and not (name == "stride" and not values):
            raise RuntimeError(f"max_pool1d() {name} must be {forms[name]} of size 1 but got "
                               f"size {len(values)}")
    (k,), (p,), (d,) = sizes["kernel_size"], sizes["padding"], sizes["dilation"]
    (s,) = sizes["stride"] or (k,)
    for name, value in (("kernel_size", k), ("stride", s)):
        if value <= 0:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {value}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but got "
                           f"padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    size = _pool_output_size(x.shape[-1], k, p, s, d, ceil_mode)
    if size <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {size}")


def max_pool1d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:
    """The maximum of each ``kernel_size`` window of a (N, C, L) or (C, L) input.

    ``max_pool2d`` of the input unsqueezed at -2 (a height of 1), squeezed back, as PyTorch
    records it: ``SqueezeBackward1`` over ``MaxPool2DWithIndicesBackward0``.
    ``return_indices=True`` also returns the indices (positions along the input's length).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        tensor([[3., 2.]])
    """
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    stride = () if stride is None else stride
    check_pool_arguments("max_pool1d", input, kernel_size, stride, padding, dilation)
    x = operand(input)
    _check_max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode)
    if x.dtype.kind != "f":  # (PyTorch's kernel for values alone has floating types only)
        raise NotImplementedError(errors.not_implemented_for("max_pool1d_impl",
                                                             display_name(x.dtype)))
    return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)[0]


def max_pool1d_with_indices(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Any, Any]:
    """``max_pool1d``'s values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool1d_with_indices(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    stride = () if stride is None else stride
    check_pool_arguments("max_pool1d_with_indices", input, kernel_size, stride, padding,
                         dilation)
    check_1d_input(input, "max_pool1d")
    kernel = one_int(kernel_size, "max_pool1d", "kernel_size")
    steps = one_int(stride if _arguments.is_int(stride) or len(stride) else kernel,
                    "max_pool1d", "stride")
    pads = one_int(padding, "max_pool1d", "padding")
    dils = one_int(dilation, "max_pool1d", "dilation")
    values, indices = _max_pool2d(views.unsqueeze(input, -2), (1, kernel), (1, steps),
                                  (0, pads), (1, dils), ceil_mode)
    return views.squeeze(values, -2), views.squeeze(indices, -2)


class AvgPool2D(Op):
    """y = the sum of each window of the zero-padded input divided by its divisor.

    The divisor is the window size, clipped to the padded input (without the padding if
    ``count_include_pad=False``), or ``divisor_override``. Works on as many spatial dims as the
    kernel has (``AvgPool3D`` is this op under its 3-d name).

    dx = each output's grad / divisor spread back over its window (AvgPool2DBackward), a linear
    map whose gradient is this op again. Saves the input (PyTorch does, for its shape).
    ``given``: the options as PyTorch's node shows them (``as_parsed``), kept for that and
    for the gradient's own node.
    """

    fields = ("params", "given")
    saved_options = _AVG_POOL_OPTIONS
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
        padding: tuple[int, ...], out: tuple[int, ...], count_include_pad: bool,
        divisor_override: Any, given: tuple[Any, ...],
    ) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.params = kernel, stride, padding, out, count_include_pad, divisor_override
        ctx.given = given
        dims = len(kernel)
        batch = _as_batch(x, dims)
        padded = np.pad(batch, ((0, 0), (0, 0), *_avg_pads(batch.shape[2:], kernel, stride,
                                                             padding, out)))
        windows = window_view(padded, kernel, stride, (1,) * dims)
        windows = windows[(slice(None), slice(None), *(slice(o) for o in out))]
        divisor = _avg_divisors(batch.shape[2:], kernel, stride, padding, out,
                                count_include_pad, divisor_override)
        total = windows.sum(axis=tuple(range(-dims, 0)),
                            dtype=x.dtype if x.dtype.kind == "f" else None)
        safe = np.where(divisor > 0, divisor, 1)
        if x.dtype.kind == "f":
            y = np.where(divisor > 0, total / safe, 0)
        else:  # integer pooling divides rounding toward zero, as C++ does
            y = np.where(divisor > 0, np.sign(total) * (np.abs(total) // safe), 0)
        y = y.astype(x.dtype)
        return np.ascontiguousarray(y[0] if x.ndim == dims + 1 else y)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        (x,) = ctx.saved_tensors
        return (run(AvgPool2DBackward, grad, x, *ctx.params, ctx.given),
                None, None, None, None, None, None, None)


class AvgPool3D(AvgPool2D):
    """``avg_pool3d``: the same op over three spatial dims, under PyTorch's 3-d node names."""

    result_layout = staticmethod(contiguous_result)  # (PyTorch's 3-d one: row-major)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        (x,) = ctx.saved_tensors
        return (run(AvgPool3DBackward, grad, x, *ctx.params, ctx.given),
                None, None, None, None, None, None, None)


def _avg_pads(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], out: Sequence[int]) -> list[tuple[int, int]]:
    return [(p, max(0, (o - 1) * s + k - n - p))
            for n, k, s, p, o in zip(size, kernel, stride, padding, out)]


def _avg_divisors(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
                  padding: Sequence[int], out: Sequence[int], count_include_pad: bool,
                  divisor_override: Any) -> np.ndarray:
    """The divisor of each output position (PyTorch's avg_pool2d/3d kernels)."""
    if divisor_override is not None:
        return np.full(tuple(out), divisor_override, dtype=np.int64)
    divisor = np.ones((), dtype=np.int64)
    for n, k, s, p, o in zip(size, kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        pooled = end - start
        start, end = np.maximum(start, 0), np.minimum(end, n)
        divisor = np.multiply.outer(divisor, pooled if count_include_pad else end - start)
    return divisor


class AvgPool2DBackward(Op):
    """dx = each output gradient / its divisor, added over its window (avg pooling's backward).

    An op of its own, as PyTorch's ``avg_pool2d_backward``: its inputs are grad and x (which
    gives only the shape). Linear in grad: d(grad) is average pooling of the incoming
    gradient;  d(x) = 0 (``zeros_like``). Under create_graph it records
    AvgPool2DBackwardBackward0. Saves nothing.
    """

    node_name = "AvgPool2DBackwardBackward0"
    num_inputs = 2
    fields = ("params", "given")

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, x: np.ndarray, kernel: tuple[int, ...],
        stride: tuple[int, ...], padding: tuple[int, ...], out: tuple[int, ...],
        count_include_pad: bool, divisor_override: Any, given: tuple[Any, ...],
    ) -> np.ndarray:
        ctx.params = kernel, stride, padding, out, count_include_pad, divisor_override
        ctx.given = given
        dims = len(kernel)
        input_shape = x.shape
        batch = _as_batch(grad, dims)
        size = input_shape[-dims:]
        divisor = _avg_divisors(size, kernel, stride, padding, out, count_include_pad,
                                divisor_override)
        share = batch / np.where(divisor > 0, divisor, 1) * (divisor > 0)
        pads = _avg_pads(size, kernel, stride, padding, out)
        padded = np.zeros((*batch.shape[:2], *(n + lo + hi for n, (lo, hi) in zip(size, pads))),
                          dtype=grad.dtype)
        add_windows(padded, lambda _: share, kernel, stride, (1,) * dims, out)
        crop = tuple(slice(lo, lo + n) for n, (lo, _) in zip(size, pads))
        result = np.ascontiguousarray(padded[(slice(None), slice(None), *crop)],
                                      dtype=grad.dtype)
        return result if len(input_shape) == dims + 2 else result[0]

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        needs = ctx.needs_input_grad
        d_grad = run(AvgPool2D, h, *ctx.params, ctx.given) if needs[0] else None
        return (d_grad, zeros_like_grad(h) if needs[1] else None) + (None,) * 7


class AvgPool3DBackward(AvgPool2DBackward):
    """avg_pool3d's gradient: the same spreading, under its node name for create_graph."""

    node_name = "AvgPool3DBackwardBackward0"

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        needs = ctx.needs_input_grad
        d_grad = run(AvgPool3D, h, *ctx.params, ctx.given) if needs[0] else None
        return (d_grad, zeros_like_grad(h) if needs[1] else None) + (None,) * 7


def avg_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True, divisor_override: int | None = None,
) -> Any:
    """The mean of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input.

    Zero padding counts in the mean unless ``count_include_pad=False``; ``divisor_override``
    replaces the divisor. Gradient: ``grad / divisor`` spread evenly over each window. One
    ``AvgPool2DBackward0`` node, which saves the input.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.avg_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """
    _arguments.check_int_sequence(kernel_size, "avg_pool2d", "kernel_size", 2)
    kernel, steps, pads, _ = _pool_params("avg_pool2d", kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError(errors.ZERO_DIVISOR)
    x = operand(input)
    for dim in (-3, -2, -1):
        if dim < -x.ndim:
            raise IndexError(errors.dim_out_of_range(dim, x.ndim))
    out = tuple(
        _pool_output_size(x.shape[i - 2], kernel[i], pads[i], steps[i], 1, ceil_mode)
        for i in range(2)
    )
    _pool_shape_check(x, kernel, steps, pads, (1, 1), out)  # type: ignore[arg-type]
    _check_not_bool(x, "avg_pool2d")
    given = (as_parsed(kernel_size, 2), as_parsed(stride, 2), as_parsed(padding, 2),
             bool(ceil_mode), bool(count_include_pad), divisor_override)
    return AvgPool2D.apply(input, kernel, steps, pads, out, bool(count_include_pad),
                           divisor_override, given)


def avg_pool1d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Any:
    """The mean of each ``kernel_size`` window of a (N, C, L) or (C, L) input.

    ``avg_pool2d`` of the input unsqueezed at -2 (a height of 1), squeezed back, as PyTorch
    records it: ``SqueezeBackward1`` over ``AvgPool2DBackward0``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.avg_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        tensor([[2., 1.]])
    """
    stride = () if stride is None else stride
    check_pool_arguments("avg_pool1d", input, kernel_size, stride, padding)
    check_1d_input(input, "avg_pool1d")
    kernel = one_int(kernel_size, "avg_pool1d", "kernel_size")
    steps = one_int(stride if _arguments.is_int(stride) or len(stride) else kernel,
                    "avg_pool1d", "stride")
    pads = one_int(padding, "avg_pool1d", "padding")
    pooled = avg_pool2d(views.unsqueeze(input, -2), (1, kernel), (1, steps), (0, pads),
                        ceil_mode, count_include_pad)
    return views.squeeze(pooled, -2)


def avg_pool3d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True, divisor_override: int | None = None,
) -> Any:
    """The mean of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W) input.

    ``avg_pool2d`` with one more spatial dim: zero padding counts in the mean unless
    ``count_include_pad=False``; ``divisor_override`` replaces the divisor. Gradient:
    ``grad / divisor`` spread evenly over each window. One ``AvgPool3DBackward0`` node, which
    saves the input.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.avg_pool3d(minigrad.arange(8.0).reshape(1, 2, 2, 2), 2)
        tensor([[[[3.5000]]]])
    """
    _arguments.check_int_sequence(kernel_size, "avg_pool3d", "kernel_size", 2)
    kernel, steps, pads, _ = _pool_params("avg_pool3d", kernel_size, stride, padding, 1, 3)
    x = operand(input)
    if x.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError(errors.ZERO_DIVISOR)
    out = tuple(
        _pool_output_size(x.shape[i - 3], kernel[i], pads[i], steps[i], 1, ceil_mode)
        for i in range(3)
    )
    _pool3d_shape_check(x, kernel, steps, pads, (1, 1, 1), out, "avg_pool3d()", True)
    _check_not_bool(x, "avg_pool3d_out_frame")
    given = (as_parsed(kernel_size, 3), as_parsed(stride, 3), as_parsed(padding, 3),
             bool(ceil_mode), bool(count_include_pad), divisor_override)
    return AvgPool3D.apply(input, kernel, steps, pads, out, bool(count_include_pad),
                           divisor_override, given)
