"""PyTorch's top-level ATen forms of layer functions, over the ops ``nn.functional`` uses.

``minigrad.convolution`` (the generic convolution: plain or transposed, any of 1 to 3 spatial
dims), ``constant_pad_nd``, ``grid_sampler`` / ``grid_sampler_2d`` (modes as numbers) and
``affine_grid_generator``: each picks the ``nn.functional`` op that PyTorch's own dispatch
reaches, so the nodes are the same (``ConvolutionBackward0``, ``ConstantPadNdBackward0``,
``GridSampler2DBackward0``, ``AffineGridGeneratorBackward0``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad.ops import convolution as conv
from minigrad.ops._helpers import operand, shape_of, wrap_dim
from minigrad.ops.grid_sampling import AffineGridGenerator, grid_sample
from minigrad.ops.shape import pad as _pad

# grid_sampler's numbered modes (ATen's GridSamplerInterpolation and GridSamplerPadding)
_INTERPOLATION = ("bilinear", "nearest", "bicubic")
_PADDING = ("zeros", "border", "reflection")


def _ints(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def convolution(
    input: Any,
    weight: Any,
    bias: Any | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> Any:
    """The generic convolution: ``conv{1,2,3}d`` or, ``transposed``, ``conv_transpose{1,2,3}d``.

    The number of spatial dims is the weight's dims less 2; one value in ``stride``,
    ``padding``, ``dilation`` or ``output_padding`` stands for all dims.

    Example:
        >>> import minigrad
        >>> x, w = minigrad.ones(1, 1, 3), minigrad.ones(1, 1, 2)
        >>> minigrad.convolution(x, w, None, [1], [0], [1], False, [0], 1)
        tensor([[[2., 2.]]])
    """
    _arguments.check_tensor(input, "convolution", "input", 1)
    _arguments.check_tensor(weight, "convolution", "weight", 2)
    for position, (name, value) in enumerate(
        (("stride", stride), ("padding", padding), ("dilation", dilation)), 4
    ):
        _arguments.check_int_sequence(value, "convolution", name, position)
    _arguments.check_int_sequence(output_padding, "convolution", "output_padding", 8)
    spatial = len(shape_of(weight)) - 2
    if spatial < 1:
        raise RuntimeError("weight should have at least three dimensions")
    if spatial > 3:
        raise NotImplementedError(f"minigrad: convolutions of {spatial} spatial dims")
    options = [_ints(v) for v in (stride, padding, dilation, output_padding)]
    stride, padding, dilation, output_padding = (v[0] if len(v) == 1 else v for v in options)
    # (the functions behind conv{1,2,3}d and conv_transpose{1,2,3}d, as ATen's convolution:
    # batched inputs only, and its own order of the dtype checks)
    if transposed:
        return conv._convolution_transpose(
            input,
            weight,
            bias,
            stride,
            padding,
            output_padding,
            int(groups),
            dilation,
            spatial,
            f"conv_transpose{spatial}d",
            aten=True,
        )
    return conv._convolution(
        input,
        weight,
        bias,
        stride,
        padding,
        dilation,
        int(groups),
        spatial,
        f"conv{spatial}d",
        aten=True,
    )


def constant_pad_nd(input: Any, pad: Sequence[int], value: float = 0) -> Any:
    """``nn.functional.pad(input, pad, value=value)``: pad (or crop, negative) the last dims.

    Example:
        >>> import minigrad
        >>> minigrad.constant_pad_nd(minigrad.ones(2), [1, 0], 5.0)
        tensor([5., 1., 1.])
    """
    _arguments.check_tensor(input, "constant_pad_nd", "input", 1)
    _arguments.check_int_sequence(pad, "constant_pad_nd", "pad", 2, lone_int=False)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    return _pad(input, list(_ints(pad)), "constant", value)


_RANKS = {"grid_sampler_2d": 4, "grid_sampler_3d": 5}


def _grid_sampler(
    name: str,
    input: Any,
    grid: Any,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
) -> Any:
    _arguments.check_tensor(input, name, "input", 1)
    _arguments.check_tensor(grid, name, "grid", 2)
    rank = _RANKS.get(name)  # (the 2-d and 3-d kernels take one rank each)
    if rank is not None and (len(shape_of(input)) != rank or len(shape_of(grid)) != rank):
        raise RuntimeError(
            f"grid_sampler(): expected {rank}D input and grid with same number of dimensions, "
            f"but got input with sizes {list(shape_of(input))} and grid with sizes "
            f"{list(shape_of(grid))}"
        )
    _arguments.check_int64(interpolation_mode), _arguments.check_int64(padding_mode)
    # (ATen reads a number past the known modes as the last one's neighbour: the default)
    mode = _INTERPOLATION[interpolation_mode] if 0 <= interpolation_mode < 3 else "bilinear"
    padding = _PADDING[padding_mode] if 0 <= padding_mode < 3 else "zeros"
    return grid_sample(input, grid, mode, padding, bool(align_corners))


def grid_sampler(
    input: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Any:
    """``nn.functional.grid_sample`` with numbered modes.

    ``interpolation_mode`` 0 bilinear, 1 nearest, 2 bicubic; ``padding_mode`` 0 zeros,
    1 border, 2 reflection.

    Example:
        >>> import minigrad
        >>> x = minigrad.arange(4.0).reshape(1, 1, 2, 2)
        >>> minigrad.grid_sampler(x, minigrad.zeros(1, 1, 1, 2), 0, 0, False)
        tensor([[[[1.5000]]]])
    """
    return _grid_sampler(
        "grid_sampler", input, grid, interpolation_mode, padding_mode, align_corners
    )


def grid_sampler_2d(
    input: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Any:
    """``grid_sampler`` of 4-D inputs only (``GridSampler2DBackward0``).

    Example:
        >>> import minigrad
        >>> x = minigrad.arange(4.0).reshape(1, 1, 2, 2)
        >>> minigrad.grid_sampler_2d(x, minigrad.zeros(1, 1, 1, 2), 1, 0, True)
        tensor([[[[0.]]]])
    """
    return _grid_sampler(
        "grid_sampler_2d", input, grid, interpolation_mode, padding_mode, align_corners
    )


def grid_sampler_3d(
    input: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Any:
    """``grid_sampler`` of 5-D inputs only (``GridSampler3DBackward0``; no bicubic mode).

    Example:
        >>> import minigrad
        >>> x = minigrad.arange(8.0).reshape(1, 1, 2, 2, 2)
        >>> minigrad.grid_sampler_3d(x, minigrad.zeros(1, 1, 1, 1, 3), 0, 0, False)
        tensor([[[[[3.5000]]]]])
    """
    return _grid_sampler(
        "grid_sampler_3d", input, grid, interpolation_mode, padding_mode, align_corners
    )


def affine_grid_generator(theta: Any, size: Sequence[int], align_corners: bool) -> Any:
    """The sampling grid of ``theta``'s affine maps: ``nn.functional.affine_grid``'s op.

    Without its Python checks and warnings; ``align_corners`` is required.

    Example:
        >>> import minigrad
        >>> theta = minigrad.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> minigrad.affine_grid_generator(theta, [1, 1, 1, 2], True)
        tensor([[[[-1.,  0.],
                  [ 1.,  0.]]]])
    """
    _arguments.check_tensor(theta, "affine_grid_generator", "theta", 1)
    _arguments.check_int_sequence(size, "affine_grid_generator", "size", 2, lone_int=False)
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    size = _ints(size)
    _check_theta(operand(theta), size)
    return AffineGridGenerator.apply(theta, size, bool(align_corners))


def _check_theta(theta: np.ndarray, size: tuple[int, ...]) -> None:
    """The errors of PyTorch's composition (AffineGridGenerator.cpp), in its order.

    It allocates the (N, *spatial, dims + 1) base grid, fills its x column with a linspace
    over the last size (a 0-d tensor for one step: neither has a bool kernel), then takes
    ``base.view(N, -1, dims + 1).bmm(theta.transpose(1, 2))`` and views that as
    (N, *spatial, dims).
    """
    spatial = size[2:]
    dims = len(spatial)
    base = (size[0], *spatial, dims + 1)
    for n in base:
        if n < 0:
            raise RuntimeError(errors.negative_dimension(n, base))
    if theta.dtype == np.bool_:
        kernel = "linspace_cpu" if size[-1] > 1 else "tensor_cpu"
        raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))
    wrap_dim(1, theta.ndim), wrap_dim(2, theta.ndim)  # (theta.transpose(1, 2))
    if theta.ndim != 3:
        raise RuntimeError(errors.not_3d("batch2"))
    rows, outputs, columns = theta.shape
    if (rows, columns) != (size[0], dims + 1):
        flat = (size[0], math.prod(spatial), dims + 1)  # (the base grid, viewed)
        raise RuntimeError(errors.bmm_shapes(flat, (rows, columns)))
    if outputs != dims:
        numel = size[0] * math.prod(spatial) * outputs
        raise RuntimeError(errors.shape_invalid_for_size((size[0], *spatial, dims), numel))
