"""Adaptive pooling: windows chosen so that the output has a given size, whatever the input's.

Output position ``i`` of a dimension of size ``n`` pooled to ``m`` covers the input positions
``[floor(i * n / m), ceil((i + 1) * n / m))`` (PyTorch's ``start_index``/``end_index``): bins
of uneven sizes that may overlap by one. The ops work on as many trailing dims as the output
size has (2-d and 3-d share them under PyTorch's two node names); the 1-d functions are the
2-d ones on an input with a height of 1, as in PyTorch (``Unsqueeze``, the 2-d node,
``Squeeze``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad._layout import contiguous_result, suggested_result, suggests_channels_last
from minigrad.autograd.function import Op
from minigrad.ops import reduction, views
from minigrad.ops._helpers import operand, run, zeros_like_grad
from minigrad.ops.pooling import (
    MaxPool2DWithIndicesBackward,
    argmax_nan_last,
    check_1d_input,
    one_int,
)


def _bins(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``out`` adaptive bins over ``size`` positions starts and ends."""
    i = np.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def _averaging_matrix(size: int, out: int, dtype: np.dtype) -> np.ndarray:
    """(out, size): row i is 1 / (bin length) over bin i, so ``x @ A.T`` averages each bin."""
    start, end = _bins(size, out)
    positions = np.arange(size)
    inside = (positions >= start[:, None]) & (positions < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _apply_per_dim(x: np.ndarray, matrices: list[np.ndarray]) -> np.ndarray:
    """``x`` with its last ``len(matrices)`` dims each multiplied by its matrix (``A @ x``)."""
    for axis, matrix in zip(range(-len(matrices), 0), matrices):
        x = np.swapaxes(np.swapaxes(x, axis, -1) @ matrix.T, axis, -1)
    return np.ascontiguousarray(x)


def _average(x: np.ndarray, out: tuple[int, ...]) -> np.ndarray:
    """The mean of each bin of the last ``len(out)`` dims: one averaging matrix per dim."""
    size = x.shape[-len(out):]
    return _apply_per_dim(x, [_averaging_matrix(n, m, x.dtype) for n, m in zip(size, out)])


class AdaptiveAvgPool2D(Op):
    """y = the mean of each adaptive bin of the last two dimensions.

    The mean over a rectangle is a mean over rows then over columns, so
    ``y = R @ x @ C.T`` with R, C the averaging matrices of the two dimensions. dx =
    ``R.T @ grad @ C`` (AdaptiveAvgPool2DBackward), a linear map whose gradient is this op
    again. Saves the input (PyTorch does, for its shape). Works on as many trailing dims as
    ``output_size`` has (``AdaptiveAvgPool3D`` is this op under its 3-d name).
    """

    fields = ("output_size",)
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, output_size: tuple[int, ...]) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.output_size = output_size
        return _average(x, output_size)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(AdaptiveAvgPool2DBackward, grad, x, 2), None


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    """``adaptive_avg_pool3d``: the same op over three dims, under PyTorch's 3-d node names."""

    result_layout = staticmethod(contiguous_result)  # (PyTorch's 3-d one: row-major)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(AdaptiveAvgPool3DBackward, grad, x, 3), None


class AdaptiveAvgPool2DBackward(Op):
    """dx = each output gradient spread evenly over its bin (``R.T @ grad @ C``).

    An op of its own, as PyTorch's ``_adaptive_avg_pool2d_backward``: its inputs are grad and x
    (which gives only the shape); the bins span the last ``dims`` dims. d(grad) = adaptive
    average pooling of the incoming gradient; d(x) = 0. Under create_graph it records
    AdaptiveAvgPool2DBackwardBackward0. Saves nothing.
    """

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    num_inputs = 2
    fields = ("output_size",)

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, x: np.ndarray, dims: int) -> np.ndarray:
        ctx.output_size = grad.shape[-dims:]
        sizes = zip(x.shape[-dims:], grad.shape[-dims:])
        return _apply_per_dim(grad, [_averaging_matrix(n, m, grad.dtype).T for n, m in sizes])

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, Any, None]:
        needs = ctx.needs_input_grad
        d_grad = run(AdaptiveAvgPool2D, h, ctx.output_size) if needs[0] else None
        return d_grad, zeros_like_grad(h) if needs[1] else None, None


class AdaptiveAvgPool3DBackward(AdaptiveAvgPool2DBackward):
    """adaptive_avg_pool3d's gradient: the same spreading, under its create_graph node name."""

    node_name = "AdaptiveAvgPool3DBackwardBackward0"

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, Any, None]:
        needs = ctx.needs_input_grad
        d_grad = run(AdaptiveAvgPool3D, h, ctx.output_size) if needs[0] else None
        return d_grad, zeros_like_grad(h) if needs[1] else None, None


def _bin_members(size: int, out: int) -> np.ndarray:
    """(out, longest bin): the positions of each bin, its last one repeated to fill the row.

    A repeat never changes a bin's maximum nor which position holds it.
    """
    start, end = _bins(size, out)
    longest = int((end - start).max(initial=1))
    return np.minimum(start[:, None] + np.arange(longest), end[:, None] - 1)


class AdaptiveMaxPool2D(Op):
    """y = the maximum of each adaptive bin, and its flat index in the input plane.

    dx = grad placed at those indices (added where bins share a maximum); the indices take no
    gradient. Saves the input and the indices (output 1), as PyTorch. Ties go to the first
    maximum, a nan wins (the last one). Works on as many trailing dims as ``output_size`` has
    (``AdaptiveMaxPool3D`` is this op under its 3-d name).
    """

    saves = ("self", "result1")
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray,
                output_size: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        dims = len(output_size)
        size = x.shape[-dims:]
        # Each dim's bin members placed to broadcast over (*out, *longest bins).
        members = []
        for axis, (n, m) in enumerate(zip(size, output_size)):
            shape = [1] * (2 * dims)
            bins = _bin_members(n, m)
            shape[axis], shape[dims + axis] = bins.shape
            members.append(bins.reshape(shape))
        windows = x[(Ellipsis, *members)]  # (..., *out, *longest)
        count = int(np.prod(windows.shape[x.ndim:]))
        flat = windows.reshape(*windows.shape[:x.ndim], count)
        choice = argmax_nan_last(flat)
        values = np.take_along_axis(flat, choice[..., None], -1)[..., 0]
        position = np.zeros((1,) * (2 * dims), dtype=np.int64)
        for n, member in zip(size, members):
            position = position * n + member
        position = np.broadcast_to(position, windows.shape[-2 * dims:]).reshape(*output_size,
                                                                                  count)
        indices = np.take_along_axis(np.broadcast_to(position, flat.shape), choice[..., None],
                                     -1)[..., 0]
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        ctx.save_for_backward(x, indices)
        return np.ascontiguousarray(values), indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, None]:
        x, indices = ctx.saved_tensors
        return run(AdaptiveMaxPool2DBackward, grad, x, indices, 2), None


class AdaptiveMaxPool3D(AdaptiveMaxPool2D):
    """``adaptive_max_pool3d``: the same op over three dims, under PyTorch's 3-d node names."""

    result_layout = staticmethod(contiguous_result)  # (PyTorch's 3-d one: row-major)

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, None]:
        x, indices = ctx.saved_tensors
        return run(AdaptiveMaxPool3DBackward, grad, x, indices, 3), None


class AdaptiveMaxPool2DBackward(MaxPool2DWithIndicesBackward):
    """adaptive_max_pool2d's gradient: max pooling's scatter to the indices, under its own name.

    Under create_graph it records AdaptiveMaxPool2DBackwardBackward0. Saves the indices.
    """

    node_name = "AdaptiveMaxPool2DBackwardBackward0"


class AdaptiveMaxPool3DBackward(MaxPool2DWithIndicesBackward):
    """adaptive_max_pool3d's gradient: the same scatter, under its create_graph node name."""

    node_name = "AdaptiveMaxPool3DBackwardBackward0"


def _output_size_2d(output_size: Any, shape: tuple[int, ...]) -> Any:
    """PyTorch's ``_list_with_default``: None entries take the input's size there."""
    if _arguments.is_int(output_size):
        return output_size
    if len(shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return [shape[i - len(output_size)] if v is None else v
            for i, v in enumerate(output_size)]


def _check_floating(input: Any, kernel: str) -> None:
    """Adaptive pooling has floating-point kernels only; their name says the memory format."""
    x = operand(input)
    if x.dtype.kind != "f":
        if x.ndim == 4 and suggests_channels_last(x.shape, input.stride()):
            kernel += "_channels_last"
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(x.dtype)))


def _adaptive_avg_pool2d(input: Any, output_size: Any) -> Any:
    """``torch._C._nn.adaptive_avg_pool2d``: an output size of (1, 1) is a mean, as PyTorch's."""
    _arguments.check_int_sequence(output_size, "adaptive_avg_pool2d", "output_size", 2)
    out = (output_size,) * 2 if _arguments.is_int(output_size) else tuple(output_size)
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    out = (int(out[0]), int(out[1]))
    if out[0] < 0 or out[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than "
                           f"or equal to 0 but received {{{out[0]}, {out[1]}}}")
    if out == (1, 1):
        return reduction.mean(input, (-1, -2), keepdim=True)
    x = operand(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    for dim in (x.ndim - 2, x.ndim - 1):
        _check_nonempty(x, dim, "adaptive_avg_pool2d")
    _check_floating(input, "adaptive_avg_pool2d")
    return AdaptiveAvgPool2D.apply(input, out)


def _check_nonempty(x: np.ndarray, dim: int, name: str) -> None:
    if x.shape[dim] == 0:
        raise RuntimeError(
            f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
            f"input has sizes {list(x.shape)} with dimension {dim} being empty"
        )


def _adaptive_max_pool2d(input: Any, output_size: Any) -> tuple[Any, Any]:
    """``torch._C._nn.adaptive_max_pool2d``: values and indices."""
    _arguments.check_int_sequence(output_size, "adaptive_max_pool2d", "output_size", 2)
    out = (output_size,) * 2 if _arguments.is_int(output_size) else tuple(output_size)
    x = operand(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(
            f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(x.shape)}")
    for dim in range(1, x.ndim):
        _check_nonempty(x, dim, "adaptive_max_pool2d")
    if len(out) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    out = (int(out[0]), int(out[1]))
    for size in out:
        if size < 0:
            raise RuntimeError(errors.negative_dimension(size, (*x.shape[:-2], *out)))
    _check_floating(input, "adaptive_max_pool2d")
    return AdaptiveMaxPool2D.apply(input, out)


def _adaptive_avg_pool3d(input: Any, output_size: Any) -> Any:
    """``torch._C._nn.adaptive_avg_pool3d``: an output size of (1, 1, 1) is a mean."""
    _arguments.check_int_sequence(output_size, "adaptive_avg_pool3d", "output_size", 2)
    out = (output_size,) * 3 if _arguments.is_int(output_size) else tuple(output_size)
    if len(out) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    out = tuple(int(n) for n in out)
    if min(out) < 0:
        raise RuntimeError("adaptive_avg_pool3d: elements of output_size must be greater than "
                           "or equal to 0 but received {{{}, {},{}}}".format(*out))
    if out == (1, 1, 1):
        return reduction.mean(input, (-1, -2, -3), keepdim=True)
    x = operand(input)
    if x.ndim not in (4, 5):
        raise RuntimeError(
            f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(x.shape)}")
    for dim in range(1, x.ndim):
        _check_nonempty(x, dim, "adaptive_avg_pool3d")
    _check_floating(input, "adaptive_avg_pool3d_cpu")
    return AdaptiveAvgPool3D.apply(input, out)


def _adaptive_max_pool3d(input: Any, output_size: Any) -> tuple[Any, Any]:
    """``torch._C._nn.adaptive_max_pool3d``: values and indices."""
    _arguments.check_int_sequence(output_size, "adaptive_max_pool3d", "output_size", 2)
    out = (output_size,) * 3 if _arguments.is_int(output_size) else tuple(output_size)
    x = operand(input)
    if x.ndim not in (4, 5):
        raise RuntimeError(
            f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {list(x.shape)}")
    for dim in range(1, x.ndim):
        _check_nonempty(x, dim, "adaptive_max_pool3d")
    if len(out) != 3:
        raise RuntimeError("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    out = tuple(int(n) for n in out)
    for size in out:
        if size < 0:
            raise RuntimeError(errors.negative_dimension(size, (*x.shape[:-3], *out)))
    _check_floating(input, "adaptive_max_pool3d_cpu")
    return AdaptiveMaxPool3D.apply(input, out)


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Any:
    """The mean of each of ``output_size`` adaptive bins of a (N, C, H, W) or (C, H, W) input.

    ``output_size`` is an int or a pair; a None entry keeps the input's size there. Bin ``i``
    of a dimension of ``n`` covers ``[floor(i*n/m), ceil((i+1)*n/m))``. Gradient: each
    output's gradient spread evenly over its bin. One ``AdaptiveAvgPool2DBackward0`` node, which
    saves the input; an output size of (1, 1) is the mean over the plane (``MeanBackward1``).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_avg_pool2d(minigrad.arange(9.0).reshape(1, 3, 3), 2)
        tensor([[[2., 3.],
                 [5., 6.]]])
    """
    return _adaptive_avg_pool2d(input, _output_size_2d(output_size, input.size()))


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """The maximum of each of ``output_size`` adaptive bins of a (N, C, H, W) or (C, H, W) input.

    Bins as ``adaptive_avg_pool2d``'s. Gradient: ``grad`` routed to each bin's maximum. One
    ``AdaptiveMaxPool2DBackward0`` node that saves the input and the indices;
    ``return_indices=True`` also returns the indices (flat positions in each input plane).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool2d(minigrad.arange(9.0).reshape(1, 3, 3), 2)
        tensor([[[4., 5.],
                 [7., 8.]]])
    """
    values, indices = _adaptive_max_pool2d(input, _output_size_2d(output_size, input.size()))
    return (values, indices) if return_indices else values


def adaptive_avg_pool1d(input: Any, output_size: Any) -> Any:
    """The mean of each of ``output_size`` adaptive bins of a (N, C, L) or (C, L) input.

    PyTorch's composition: ``adaptive_avg_pool2d`` of the input unsqueezed at -2 to
    ``(1, output_size)``, squeezed back (``SqueezeBackward1`` over the 2-d node).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_avg_pool1d(minigrad.arange(5.0).reshape(1, 5), 2)
        tensor([[1., 3.]])
    """
    _arguments.check_tensor(input, "adaptive_avg_pool1d", "input", 1)
    _arguments.check_int_sequence(output_size, "adaptive_avg_pool1d", "output_size", 2)
    check_1d_input(input, "adaptive_avg_pool1d")
    size = one_int(output_size, "adaptive_avg_pool1d", "output_size")
    pooled = _adaptive_avg_pool2d(views.unsqueeze(input, -2), (1, size))
    return views.squeeze(pooled, -2)


def adaptive_max_pool1d(input: Any, output_size: Any) -> tuple[Any, Any]:
    """The maximum of each of ``output_size`` adaptive bins of a (N, C, L) or (C, L) input.

    Returns the values and their indices, as ``torch.adaptive_max_pool1d``
    (``F.adaptive_max_pool1d`` returns the values unless ``return_indices``).

    Example:
        >>> import minigrad
        >>> minigrad.adaptive_max_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    _arguments.check_tensor(input, "adaptive_max_pool1d", "input", 1)
    _arguments.check_int_sequence(output_size, "adaptive_max_pool1d", "output_size", 2)
    check_1d_input(input, "adaptive_max_pool1d")
    size = one_int(output_size, "adaptive_max_pool1d", "output_size")
    for dim in range(1, input.ndim):
        _check_nonempty(operand(input), dim, "adaptive_max_pool1d")
    values, indices = _adaptive_max_pool2d(views.unsqueeze(input, -2), (1, size))
    return views.squeeze(values, -2), views.squeeze(indices, -2)


def adaptive_max_pool1d_functional(input: Any, output_size: Any,
                                   return_indices: bool = False) -> Any:
    """``F.adaptive_max_pool1d``: ``adaptive_max_pool1d``'s values (and indices if asked).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        tensor([[3., 2.]])
    """
    values, indices = adaptive_max_pool1d(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices(input: Any, output_size: Any,
                                     return_indices: bool = False) -> tuple[Any, Any]:
    """``F.adaptive_max_pool1d`` with ``return_indices=True``: values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool1d_with_indices(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    return adaptive_max_pool1d(input, output_size)


def adaptive_max_pool2d_with_indices(input: Any, output_size: Any,
                                     return_indices: bool = False) -> tuple[Any, Any]:
    """``F.adaptive_max_pool2d`` with ``return_indices=True``: values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool2d_with_indices(minigrad.arange(4.0).reshape(1, 2, 2), 1)
        (tensor([[[3.]]]), tensor([[[3]]]))
    """
    return _adaptive_max_pool2d(input, _output_size_2d(output_size, input.size()))


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Any:
    """The mean of each of ``output_size`` adaptive bins of a (N, C, D, H, W) or (C, D, H, W) input.

    ``output_size`` is an int or a triple; a None entry keeps the input's size there. Bins as
    ``adaptive_avg_pool2d``'s, in three dims. One ``AdaptiveAvgPool3DBackward0`` node, which
    saves the input; an output size of (1, 1, 1) is the mean over the volume
    (``MeanBackward1``).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_avg_pool3d(minigrad.arange(8.0).reshape(1, 2, 2, 2), (1, 2, 1))
        tensor([[[[2.5000],
                  [4.5000]]]])
    """
    return _adaptive_avg_pool3d(input, _output_size_2d(output_size, input.size()))


def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """The maximum of each of ``output_size`` adaptive bins of a (N, C, D, H, W) input.

    An unbatched (C, D, H, W) input is taken too. Bins as ``adaptive_avg_pool3d``'s.
    Gradient: ``grad`` routed to each bin's maximum. One ``AdaptiveMaxPool3DBackward0`` node
    that saves the input and the indices; ``return_indices=True`` also returns the indices
    (flat positions in each input volume).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool3d(minigrad.arange(8.0).reshape(1, 2, 2, 2), 1)
        tensor([[[[7.]]]])
    """
    values, indices = _adaptive_max_pool3d(input, _output_size_2d(output_size, input.size()))
    return (values, indices) if return_indices else values


def adaptive_max_pool3d_with_indices(input: Any, output_size: Any,
                                     return_indices: bool = False) -> tuple[Any, Any]:
    """``adaptive_max_pool3d`` with ``return_indices=True``: values and indices, always.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_max_pool3d_with_indices(minigrad.arange(8.0).reshape(1, 2, 2, 2), 1)
        (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """
    return _adaptive_max_pool3d(input, _output_size_2d(output_size, input.size()))
