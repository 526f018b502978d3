"""Fractional max pooling (Graham, 2014): windows at pseudo-random, increasing starts.

Each (batch, channel) plane draws one number ``u`` in [0, 1) per spatial dim (PyTorch's
``_random_samples``, shape (N, C, dims)); the ``m`` windows of size ``k`` along a dim of size
``n`` start at ``int((i + u) * alpha) - int(u * alpha)`` with ``alpha = (n - k) / (m - 1)``,
the last one at ``n - k`` (PyTorch's ``generate_intervals``, computed in the input's dtype).
Each output is its window's maximum; the gradient goes to it as in max pooling (the same
scatter op, under the fractional nodes' names). The 2-d samples are read as (W, H), the 3-d
ones as (T, H, W), as PyTorch's kernels read them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.creation import rand
from minigrad.ops._helpers import operand, run
from minigrad.ops.pooling import MaxPool2DWithIndicesBackward, argmax_nan_last

__all__ = [
    "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
]


def _window_starts(samples: np.ndarray, size: int, out: int, kernel: int) -> np.ndarray:
    """(..., out): where each window starts, for each plane's sample (PyTorch's arithmetic)."""
    dtype = samples.dtype.type
    starts = np.full((*samples.shape, out), size - kernel, dtype=np.int64)
    if out > 1:
        alpha = dtype(size - kernel) / dtype(out - 1)
        steps = np.arange(out - 1).astype(samples.dtype)
        first = ((steps + samples[..., None]) * alpha).astype(np.int64)
        starts[..., :-1] = first - (samples * alpha).astype(np.int64)[..., None]
    return starts


class FractionalMaxPool2D(Op):
    """y = the maximum of each fractional window, and its flat index in the input plane.

    Works on as many spatial dims as the kernel has (``FractionalMaxPool3D`` is this op under
    its 3-d name). dx = grad placed at the indices (max pooling's scatter). Saves the input
    and the indices (output 1), as PyTorch; ties go to the first maximum, a nan wins.
    """

    saves = ("self", "result1")
    saved_options = ("kernel_size", "output_size")
    fields = ("kernel_size", "output_size")
    tensor_options = True  # (the random samples)

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        kernel_size: tuple[int, ...],
        output_size: tuple[int, ...],
        samples: np.ndarray,
        sample_order: tuple[int, ...],
    ) -> tuple[np.ndarray, np.ndarray]:
        ctx.kernel_size, ctx.output_size = kernel_size, output_size
        dims = len(kernel_size)
        batch = x if x.ndim == dims + 2 else x[None]
        n, c = batch.shape[:2]
        size = batch.shape[2:]
        # Each spatial dim's window positions (N, C, out, kernel), placed to broadcast over
        # (N, C, *out, *kernel); the plane's flat position of each, row-major.
        coordinates = []
        for axis in range(dims):
            starts = _window_starts(
                samples[:n, :, sample_order[axis]], size[axis], output_size[axis], kernel_size[axis]
            )
            shape = [n, c] + [1] * (2 * dims)
            kernel = max(kernel_size[axis], 0)
            shape[2 + axis], shape[2 + dims + axis] = output_size[axis], max(kernel, 1)
            offsets = np.arange(max(kernel, 1))  # (an empty window keeps its start)
            coordinates.append((starts[..., None] + offsets).reshape(shape))
        position = np.zeros((1,) * (2 + 2 * dims), dtype=np.int64)
        for extent, coordinate in zip(size, coordinates):
            position = position * extent + coordinate
        count = int(np.prod([max(k, 0) for k in kernel_size]))
        if count == 0:  # PyTorch's kernel: -inf, at the window's start
            values = np.full((n, c, *output_size), -np.inf, dtype=x.dtype)
            indices = position.reshape(n, c, *output_size)
        else:
            windows = batch[
                (
                    np.arange(n)[(...,) + (None,) * (2 * dims + 1)],
                    np.arange(c)[(...,) + (None,) * (2 * dims)],
                    *coordinates,
                )
            ]
            flat = windows.reshape(n, c, *output_size, count)
            choice = argmax_nan_last(flat)
            values = np.take_along_axis(flat, choice[..., None], -1)[..., 0]
            position = np.broadcast_to(position, windows.shape).reshape(flat.shape)
            indices = np.take_along_axis(position, choice[..., None], -1)[..., 0]
        if x.ndim == dims + 1:
            values, indices = values[0], indices[0]
        values = np.ascontiguousarray(values, dtype=x.dtype)
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        ctx.save_for_backward(x, indices)
        return values, indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, ...]:
        x, indices = ctx.saved_tensors
        return (run(FractionalMaxPool2DBackward, grad, x, indices, 2), None, None, None, None)


class FractionalMaxPool3D(FractionalMaxPool2D):
    """``fractional_max_pool3d``: the same op over volumes, under PyTorch's 3-d node names."""

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, ...]:
        x, indices = ctx.saved_tensors
        return (run(FractionalMaxPool3DBackward, grad, x, indices, 3), None, None, None, None)


class FractionalMaxPool2DBackward(MaxPool2DWithIndicesBackward):
    """fractional_max_pool2d's gradient: max pooling's scatter, under its create_graph name."""

    node_name = "FractionalMaxPool2DBackwardBackward0"


class FractionalMaxPool3DBackward(MaxPool2DWithIndicesBackward):
    """fractional_max_pool3d's gradient: max pooling's scatter, under its create_graph name."""

    node_name = "FractionalMaxPool3DBackwardBackward0"


def _sizes(value: Any, dims: int, function: str, what: str) -> tuple[int, ...]:
    """An int or a ``dims``-tuple, as PyTorch's kernel checks it."""
    values = (value,) * dims if _arguments.is_int(value) else tuple(value)
    if len(values) != dims:
        form = "tuple of Ints" if dims == 2 else "tuple of three Ints"
        raise RuntimeError(f"{function}: {what} must either be a single Int or {form}")
    return tuple(int(v) for v in values)


def _check_samples(x: np.ndarray, samples: np.ndarray, dims: int) -> None:
    """PyTorch's ``fractional_max_pool_check_shape``."""
    if samples.dtype != x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batched = x.ndim == dims + 2
    batch, channels = (x.shape[0], x.shape[1]) if batched else (1, x.shape[0])
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != dims:
        raise RuntimeError(
            f"Expect _random_samples.size(2) equals to {dims}; got {samples.shape[2]}."
        )


def _fractional_max_pool(
    input: Any, kernel_size: Any, output_size: Any, output_ratio: Any, samples: Any, dims: int
) -> tuple[Any, Any]:
    """PyTorch's Python part (output size from the ratio, samples drawn), then its kernel."""
    name = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if dims == 2 and len(output_ratio) > 2:  # (a lone float has no len(), as in PyTorch)
            raise ValueError(
                f"{name} requires output_ratio to either be a single Int or tuple of Ints."
            )
        ratio = (
            tuple(output_ratio)
            if isinstance(output_ratio, (list, tuple))
            else ((output_ratio,) * dims)
        )
        output_size = [int(input.size(d - dims) * ratio[d]) for d in range(dims)]
    if samples is None:
        batch = 1 if input.dim() == dims + 1 else input.size(0)
        samples = rand(batch, input.size(-dims - 1), dims, dtype=input.dtype)
    _arguments.check_tensor(input, name, "input", 1)
    _arguments.check_int_sequence(kernel_size, name, "kernel_size", 2)
    _arguments.check_int_sequence(output_size, name, "output_size", 3)
    _arguments.check_tensor(samples, name, "random_samples", 4)
    kernel = _sizes(kernel_size, dims, name, "kernel_size")
    out = _sizes(output_size, dims, name, "output_size")
    x = operand(input)
    where = "fractional_max_pool2d()" if dims == 2 else "fractional_max_pool3d_out()"
    if x.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{where}: Expected {dims + 1}D or {dims + 2}D tensor, but got: {list(x.shape)}"
        )
    for dim in range(1, x.ndim):
        if x.shape[dim] == 0:
            raise RuntimeError(
                f"{where}: Expected input to have non-zero size for non-batch dimensions, but "
                f"got{list(x.shape)} with dimension {dim} being empty."
            )
    axes = ("time", "height", "width")[-dims:]
    for axis, n, k, m in zip(axes, x.shape[-dims:], kernel, out):
        # (PyTorch's 3-d check is strict: a window at every position is refused there)
        if m + k - 1 > n or (dims == 3 and m + k - 1 == n):
            raise RuntimeError(f"{where}: pool {axis} {k} too large relative to input {axis} {n}")
    for m in out:
        if m < 0:
            raise RuntimeError(errors.negative_dimension(m, (*x.shape[:-dims], *out)))
    _check_samples(x, operand(samples), dims)
    if x.dtype.kind != "f":
        raise NotImplementedError(
            errors.not_implemented_for(
                f"fractional_max_pool{dims}d_out_frame", display_name(x.dtype)
            )
        )
    # (PyTorch reads a plane's 2-d samples as (W, H), its 3-d ones as (T, H, W))
    op, order = (FractionalMaxPool2D, (1, 0)) if dims == 2 else (FractionalMaxPool3D, (0, 1, 2))
    return op.apply(input, kernel, out, samples, order)


def fractional_max_pool2d_with_indices(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> tuple[Any, Any]:
    """``fractional_max_pool2d``'s values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> samples = minigrad.tensor([[[0.5, 0.5]]])
        >>> F.fractional_max_pool2d_with_indices(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2,
        ...                                      output_size=2, _random_samples=samples)
        (tensor([[[[ 5.,  7.],
                  [13., 15.]]]]), tensor([[[[ 5,  7],
                  [13, 15]]]]))
    """
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples, 2)


def fractional_max_pool2d(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """Fractional max pooling of a (N, C, H, W) or (C, H, W) input.

    ``kernel_size`` windows at pseudo-random increasing starts, ``output_size`` of them per
    dim (or ``output_ratio`` of the input's size). ``_random_samples`` (N, C, 2) in [0, 1)
    fixes where they start (drawn from minigrad's generator when not given). One
    ``FractionalMaxPool2DBackward0`` node saving the input and the indices.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.fractional_max_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2,
        ...                         output_size=2, _random_samples=minigrad.zeros(1, 1, 2))
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    values, indices = fractional_max_pool2d_with_indices(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples
    )
    return (values, indices) if return_indices else values


def fractional_max_pool3d_with_indices(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> tuple[Any, Any]:
    """``fractional_max_pool3d``'s values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.fractional_max_pool3d_with_indices(minigrad.arange(27.0).reshape(1, 3, 3, 3), 2,
        ...                                      output_size=1)[1].shape
        minigrad.Size([1, 1, 1, 1])
    """
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples, 3)


def fractional_max_pool3d(
    input: Any,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """Fractional max pooling of a (N, C, T, H, W) or (C, T, H, W) input.

    As ``fractional_max_pool2d`` with three spatial dims (``_random_samples`` (N, C, 3)). One
    ``FractionalMaxPool3DBackward0`` node saving the input and the indices.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.fractional_max_pool3d(minigrad.ones(1, 3, 3, 3), 2, output_size=1)
        tensor([[[[1.]]]])
    """
    values, indices = fractional_max_pool3d_with_indices(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples
    )
    return (values, indices) if return_indices else values
