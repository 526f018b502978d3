"""``F.max_unpool1d/2d/3d``: a max pooling's values put back where they came from.

``max_unpool2d(x, indices, ...)`` makes a zero image of the pooling's input size (or
``output_size``) and writes each value of ``x`` at its flat position ``indices`` (per batch and
channel): the partial inverse of ``max_pool2d(..., return_indices=True)``. The gradient reads
the output's gradient back at the same positions. 1-d unpooling is 2-d unpooling of the input
unsqueezed at the end, as PyTorch composes it; 3-d unpooling is the same op over volumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.ops import views
from minigrad.ops._helpers import constant_tensor, is_tensor, operand, raw
from minigrad.ops.gather_scatter import gather


class MaxUnpool2D(Op):
    """y = zeros with y[n, c, indices[n, c, p]] = x[n, c, p];  dx = grad read at ``indices``.

    The planes are the last ``len(output_size)`` dims (two here, three for ``MaxUnpool3D``).
    Saves the indices (PyTorch's ``_saved_indices``): writing them in place before backward
    raises. Where indices repeat, the last value written stays (PyTorch's serial kernel).
    """

    tensor_options = True  # (the indices: a tensor, not an input of the graph)
    saves = ("indices",)
    fields = ("dims",)

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, indices: np.ndarray, output_size: tuple[int, ...]
    ) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.dims = len(output_size)
        lead = x.shape[:-len(output_size)]
        out = np.zeros((*lead, int(np.prod(output_size))), dtype=x.dtype)
        np.put_along_axis(out, indices.reshape(*lead, -1), x.reshape(*lead, -1), axis=-1)
        return out.reshape(*lead, *output_size)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (indices,) = ctx.saved_tensors
        index = raw(indices)
        lead = index.shape[:-ctx.dims]
        flat_index = index.reshape(*lead, -1)
        if is_tensor(grad):  # create_graph: a gather and a view, as PyTorch records them
            picked = gather(views.reshape(grad, (*lead, -1)), -1, constant_tensor(flat_index))
            return views.view(picked, index.shape), None, None
        picked = np.take_along_axis(grad.reshape(*lead, -1), flat_index, axis=-1)
        return picked.reshape(index.shape), None, None


class MaxUnpool3D(MaxUnpool2D):
    """``max_unpool3d``: the same op over volumes, under PyTorch's 3-d node name."""


def _tuple(value: Any, count: int) -> tuple[int, ...]:
    """PyTorch's ``_single`` / ``_pair``."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * count


def _output_size(
    input: Any,
    kernel: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    output_size: Any,
) -> list[int]:
    """PyTorch's ``_unpool_output_size``: the pooling's input size, or ``output_size`` checked."""
    dims = len(kernel)
    shape = operand(input).shape
    default = [(shape[-dims + d] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(dims)]
    if output_size is None:
        sizes = default
    else:
        if len(output_size) == dims + 2:
            output_size = output_size[2:]
        if len(output_size) != dims:
            raise ValueError(
                f"output_size should be a sequence containing {dims} or {dims + 2} elements, but "
                f"it has a length of '{len(output_size)}'"
            )
        for d in range(dims):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise ValueError(
                    f'invalid output_size "{output_size}" (dim {d} must be between {low} and '
                    f"{high})"
                )
        sizes = list(output_size)
    for d in range(dims):
        if sizes[d] < 0:
            raise ValueError(
                "max_unpooling: output_size must contain non-negative spatial dimensions, but "
                f"got output_size[{d}]={sizes[d]}"
            )
    return sizes


def _max_unpool2d(input: Any, indices: Any, output_size: Sequence[int]) -> Any:
    """PyTorch's ``max_unpool2d`` kernel: its checks, then one ``MaxUnpool2DBackward0``."""
    _arguments.check_tensor(input, "max_unpool2d", "input", 1)
    _arguments.check_tensor(indices, "max_unpool2d", "indices", 2)
    _arguments.check_int_sequence(list(output_size), "max_unpool2d", "output_size", 3)
    x, index = operand(input), operand(indices)
    if index.dtype != np.int64:
        raise RuntimeError(
            f"elements in indices should be type int64 but got: {display_name(index.dtype)}"
        )
    if x.ndim not in (3, 4):
        raise RuntimeError(
            "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
            f"{x.ndim} dimensions."
        )
    if index.shape != x.shape:
        raise RuntimeError(
            "Expected shape of indices to be same as that of the input tensor "
            f"({errors.format_size(x.shape)}) but got indices tensor with shape: "
            f"{errors.format_size(index.shape)}"
        )
    if x.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for("max_unpool2d", display_name(x.dtype)))
    height, width = int(output_size[0]), int(output_size[1])
    invalid = (index < 0) | (index >= height * width)
    if invalid.any():
        raise RuntimeError(
            f"Found an invalid max index: {index[invalid].flat[0]} (output volumes are of size "
            f"{height}x{width})"
        )
    return MaxUnpool2D.apply(input, indices, (height, width))


def max_unpool2d(
    input: Any,
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Any:
    """The partial inverse of ``max_pool2d``: ``input``'s values at ``indices``, zeros elsewhere.

    ``indices`` are ``max_pool2d(..., return_indices=True)``'s; the output is the pooling's
    input size ((H - 1) * stride + kernel - 2 * padding), or ``output_size`` (which may differ
    from it by less than the stride).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> values, indices = F.max_pool2d(minigrad.tensor([[[[1.0, 3.0], [2.0, 0.0]]]]), 2,
        ...                                return_indices=True)
        >>> F.max_unpool2d(values, indices, 2)
        tensor([[[[0., 3.],
                  [0., 0.]]]])
    """
    kernel = _tuple(kernel_size, 2)
    steps = _tuple(stride, 2) if stride is not None else kernel
    size = _output_size(input, kernel, steps, _tuple(padding, 2), output_size)
    return _max_unpool2d(input, indices, size)


def max_unpool1d(
    input: Any,
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Any:
    """The partial inverse of ``max_pool1d``: ``input``'s values at ``indices``, zeros elsewhere.

    Computed as PyTorch does: ``max_unpool2d`` of the inputs unsqueezed at the end.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> values, indices = F.max_pool1d(minigrad.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2,
        ...                                return_indices=True)
        >>> F.max_unpool1d(values, indices, 2)
        tensor([[[0., 3., 2., 0.]]])
    """
    kernel = _tuple(kernel_size, 1)
    steps = _tuple(stride, 1) if stride is not None else kernel
    size = _output_size(input, kernel, steps, _tuple(padding, 1), output_size)
    unpooled = _max_unpool2d(views.unsqueeze(input, -1), views.unsqueeze(indices, -1), [*size, 1])
    return views.squeeze(unpooled, -1)


def _max_unpool3d(input: Any, indices: Any, output_size: Sequence[int],
                  stride: Sequence[int]) -> Any:
    """PyTorch's ``max_unpool3d`` kernel: its checks, then one ``MaxUnpool3DBackward0``."""
    x, index = operand(input), operand(indices)
    if index.dtype != np.int64:
        raise RuntimeError("elements in indices should be type int64")
    if x.ndim not in (4, 5):
        raise RuntimeError(
            "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with "
            f"{x.ndim} dimensions."
        )
    if index.shape != x.shape:
        raise RuntimeError(
            "Expected shape of indices to be same as that of the input tensor "
            f"({errors.format_size(x.shape)}) but got indices tensor with shape: "
            f"{errors.format_size(index.shape)}"
        )
    for dim in range(1, x.ndim):
        if x.shape[dim] == 0:
            raise RuntimeError(
                "max_unpooling3d_forward_out_cpu(): Expected input to have non-zero size for "
                f"non-batch dimensions, but got {errors.format_size(x.shape)} with dimension "
                f"{dim} being empty."
            )
    if any(s <= 0 for s in stride):
        raise RuntimeError(
            f"strides should be greater than zero, but got stride: {errors.format_size(stride)}"
        )
    if x.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for("max_unpool3d", display_name(x.dtype)))
    sizes = tuple(int(n) for n in output_size)
    invalid = (index < 0) | (index >= int(np.prod(sizes)))
    if invalid.any():
        raise RuntimeError(
            f"Found an invalid max index: {index[invalid].flat[0]} (output volumes are of size "
            + "x".join(map(str, sizes)) + ")"
        )
    return MaxUnpool3D.apply(input, indices, sizes)


def max_unpool3d(
    input: Any,
    indices: Any,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Any:
    """The partial inverse of ``max_pool3d``: ``input``'s values at ``indices``, zeros elsewhere.

    ``indices`` are ``max_pool3d(..., return_indices=True)``'s; the output is the pooling's
    input size ((D - 1) * stride + kernel - 2 * padding in each dim), or ``output_size``.
    One ``MaxUnpool3DBackward0`` node saving the indices.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> values, indices = F.max_pool3d(minigrad.arange(8.0).reshape(1, 2, 2, 2), 2,
        ...                                return_indices=True)
        >>> F.max_unpool3d(values, indices, 2)[0, 1]
        tensor([[0., 0.],
                [0., 7.]])
    """
    kernel = _tuple(kernel_size, 3)
    steps = _tuple(stride, 3) if stride is not None else kernel
    size = _output_size(input, kernel, steps, _tuple(padding, 3), output_size)
    _arguments.check_tensor(input, "max_unpool3d", "input", 1)
    _arguments.check_tensor(indices, "max_unpool3d", "indices", 2)
    _arguments.check_int_sequence(list(size), "max_unpool3d", "output_size", 3)
    return _max_unpool3d(input, indices, size, steps)
