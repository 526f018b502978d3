"""``F.affine_grid`` and ``F.grid_sample``: spatial transformer networks' sampling.

``affine_grid(theta, size)`` gives, for every output pixel of an (N, C, H, W) (or 5-d) image,
the normalized input coordinates ``theta @ (x, y, 1)`` it should read, ``x`` and ``y`` running
over [-1, 1] (the pixels' centres inside it unless ``align_corners``, the corner pixels'
centres at -1 and 1 if it is set). It is linear in ``theta``: one op
(``AffineGridGeneratorBackward0``) whose gradient is ``grad``'s product with the base grid.

``grid_sample(x, grid)`` reads 4-d or 5-d ``x`` at those positions. Every mode is a list of
taps per output point (``_taps``): the pixel read, its weight and the weight's slopes along
the grid's coordinates: one tap for nearest, the 2 ** dims corners for (tri)linear, 4 x 4
pixels of cubic convolution for bicubic. The values, the input's gradient (each tap's
weighted gradient added back) and the grid's (the slopes times the values read) all walk that
one list, so the three modes and both ranks share one forward and one backward
(``GridSampler2DBackward0`` / ``GridSampler3DBackward0``).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from minigrad import _arguments, _warnings, errors
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.ops._helpers import constant_tensor, dtype_name, is_tensor, operand

_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def _steps(count: int, align_corners: bool, dtype: Any) -> np.ndarray:
    """PyTorch's ``linspace_from_neg_one``: ``count`` positions over [-1, 1]."""
    if count <= 1:
        return np.zeros(1, dtype=dtype)
    steps = np.linspace(-1, 1, count, dtype=dtype)
    if not align_corners:  # (the pixels' centres, not their edges, span [-1, 1])
        steps = steps * dtype.type((count - 1) / count)
    return steps


def _base_grid(spatial: tuple[int, ...], align_corners: bool, dtype: Any) -> np.ndarray:
    """(*spatial, dims + 1): each position's (x, y[, z], 1), x along the last spatial dim."""
    axes = [_steps(n, align_corners, dtype) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")  # (D,) H, W order
    # (a size of 0 or 1 has one step: broadcast to the spatial shape, as PyTorch's copy_)
    coordinates = [*(np.broadcast_to(m, spatial) for m in reversed(mesh)), np.ones(spatial, dtype)]
    return np.stack(coordinates, axis=-1)


class AffineGridGenerator(Op):
    """grid = base @ theta^T per batch element;  dtheta = grad^T @ base.  Saves no tensor.

    The base grid depends on the size only (PyTorch's ``_saved_size``,
    ``_saved_align_corners``).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("options",)
    saved_options = {"size": part("options", 0), "align_corners": part("options", 1)}

    @staticmethod
    def forward(ctx: Any, theta: np.ndarray, size: tuple[int, ...], align_corners: bool) -> Any:
        ctx.options = (size, align_corners)
        base = _base_grid(tuple(size[2:]), align_corners, theta.dtype)
        flat = base.reshape(-1, base.shape[-1])  # (positions, dims + 1)
        grid = np.matmul(flat, np.swapaxes(theta, 1, 2))  # (N, positions, dims)
        return np.ascontiguousarray(grid.reshape(size[0], *size[2:], theta.shape[1]))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        size, align_corners = ctx.options
        base = _base_grid(tuple(size[2:]), align_corners, operand(grad).dtype)
        flat_t = base.reshape(-1, base.shape[-1]).T  # (dims + 1, positions): a constant
        if is_tensor(grad):  # create_graph: the product recorded (the base as a tensor)
            flat_t = constant_tensor(flat_t)
        per_position = np.reshape(grad, (size[0], -1, len(size) - 2))
        return np.swapaxes(np.matmul(flat_t, per_position), 1, 2), None, None


def affine_grid(theta: Any, size: Any, align_corners: bool | None = None) -> Any:
    """The (N, H, W, 2) grid of input coordinates an affine ``theta`` (N, 2, 3) maps to.

    ``size`` is the output's (N, C, H, W), or (N, C, D, H, W) with ``theta`` (N, 3, 4). Use it
    with ``grid_sample``. Without ``align_corners`` it warns (as PyTorch) and takes False.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> identity = minigrad.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(identity, (1, 1, 2, 2), align_corners=True)
        tensor([[[[-1., -1.],
                  [ 1., -1.]],
        <BLANKLINE>
                 [[-1.,  1.],
                  [ 1.,  1.]]]])
    """
    if align_corners is None:
        _warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shape = tuple(size)
    if len(shape) in (4, 5):
        rows = len(shape) - 2
        if theta.dim() != 3 or theta.shape[-2] != rows or theta.shape[-1] != rows + 1:
            raise ValueError(
                f"Expected a batch of {rows}D affine matrices of shape Nx{rows}x{rows + 1} for "
                f"size {size}. Got {theta.shape}."
            )
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    spatial = shape[2:]
    if align_corners and min(spatial) == 1:
        _warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(shape) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != shape[0]:  # (PyTorch's bmm of the base grids and theta)
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{shape[0]}, "
            f"{rows + 1}] but got: [{theta.shape[0]}, {rows + 1}]."
        )
    _arguments.check_value(align_corners, "bool", "affine_grid_generator", "align_corners", 3)
    return AffineGridGenerator.apply(theta, tuple(int(n) for n in shape), bool(align_corners))


# --- grid_sample ------------------------------------------------------------------------------

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def _clipped(x: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's ``clip_coordinates_set_grad``: ``x`` clamped to [0, size - 1], and its slope."""
    inside = (x > 0) & (x < size - 1)
    return np.clip(x, 0, size - 1), inside.astype(x.dtype)


def _reflected(x: np.ndarray, twice_low: int, twice_high: int) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's ``reflect_coordinates_set_grad``: ``x`` mirrored into [low, high], its slope."""
    one = x.dtype.type(1)
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    low = x.dtype.type(twice_low / 2)
    span = x.dtype.type((twice_high - twice_low) / 2)
    x = x - low
    sign = np.where(x < 0, -one, one)
    x = np.abs(x)
    extra = np.fmod(x, span)
    even = np.floor(x / span) % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _unnormalized(coordinate: np.ndarray, size: int, align_corners: bool) -> tuple[Any, Any]:
    """PyTorch's ``grid_sampler_unnormalize_set_grad``: [-1, 1] to a pixel position, slope."""
    dtype = coordinate.dtype.type
    if align_corners:  # -1 and 1 are the corner pixels' centres
        return (coordinate + 1) / 2 * dtype(size - 1), dtype((size - 1) / 2)
    return ((coordinate + 1) * dtype(size) - 1) / 2, dtype(size / 2)  # -1 and 1: the edges


def _padded(x: np.ndarray, size: int, padding_mode: int, align_corners: bool) -> Any:
    """Where padding moves position ``x`` (PyTorch's ``compute_coordinates``), and its slope."""
    if padding_mode == 1:
        return _clipped(x, size)
    if padding_mode == 2:
        bounds = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        x, reflect_slope = _reflected(x, *bounds)
        x, clip_slope = _clipped(x, size)
        return x, reflect_slope * clip_slope
    return x, None


def _source(
    coordinate: np.ndarray, size: int, padding_mode: int, align_corners: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The pixel position a normalized coordinate reads, and its slope.

    PyTorch's ``grid_sampler_compute_source_index_set_grad``.
    """
    x, slope = _unnormalized(coordinate, size, align_corners)
    x, pad_slope = _padded(x, size, padding_mode, align_corners)
    return x, slope if pad_slope is None else slope * pad_slope


# A tap: the pixel it reads (one index array per spatial dim, in the input's D, H, W order),
# its weight (None: 1, nearest) and the weight's slope along each grid coordinate (x, y, z).
Tap = tuple[tuple[np.ndarray, ...], Any, tuple[Any, ...]]


def _linear_taps(positions: list[np.ndarray]) -> list[Tap]:
    """The 2 ** dims corners around each position; weights are products of 1-d hat weights."""
    lows = [np.floor(p) for p in positions]
    taps = []
    for corner in itertools.product((0, 1), repeat=len(positions)):
        # PyTorch's weights: (high - x) for the low corner, (x - low) for the high one.
        factors = [p - low if up else low + 1 - p for p, low, up in zip(positions, lows, corner)]
        slopes = tuple(
            _product(factors[:k] + factors[k + 1 :]) * (1 if up else -1)
            for k, up in enumerate(corner)
        )
        index = [(low + up).astype(np.int64) for low, up in zip(lows, corner)]
        taps.append((tuple(reversed(index)), _product(factors), slopes))
    return taps


def _product(factors: list[np.ndarray]) -> Any:
    result: Any = 1
    for factor in factors:
        result = result * factor
    return result


def _cubic_weights(t: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The 4 cubic-convolution weights (A = -0.75) at fraction ``t`` and their slopes in t."""
    a = t.dtype.type(-0.75)

    def near(s: np.ndarray) -> np.ndarray:  # |s| <= 1
        return ((a + 2) * s - (a + 3)) * s * s + 1

    def far(s: np.ndarray) -> np.ndarray:  # 1 < |s| < 2
        return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a

    def near_slope(s: np.ndarray) -> np.ndarray:
        return (3 * (a + 2) * s - 2 * (a + 3)) * s

    def far_slope(s: np.ndarray) -> np.ndarray:
        return (3 * a * s - 10 * a) * s + 8 * a

    one, two = t.dtype.type(1), t.dtype.type(2)
    weights = [far(t + one), near(t), near(one - t), far(two - t)]
    slopes = [far_slope(t + one), near_slope(t), -near_slope(one - t), -far_slope(two - t)]
    return weights, slopes


def _cubic_taps(
    positions: list[np.ndarray], spatial: tuple[int, ...], padding_mode: int, align_corners: bool
) -> list[Tap]:
    """The 4 x 4 pixels around each position; padding moves each tap, not the position."""
    (ix, iy), (height, width) = positions, spatial
    west, north = np.floor(ix), np.floor(iy)
    wx, sx = _cubic_weights(ix - west)
    wy, sy = _cubic_weights(iy - north)
    taps = []
    for i in range(4):
        row, _ = _padded(north + (i - 1), height, padding_mode, align_corners)
        for j in range(4):
            col, _ = _padded(west + (j - 1), width, padding_mode, align_corners)
            index = (row.astype(np.int64), col.astype(np.int64))
            taps.append((index, wx[j] * wy[i], (sx[j] * wy[i], wx[j] * sy[i])))
    return taps


def _taps(x: np.ndarray, grid: np.ndarray, options: tuple[int, int, bool]) -> Any:
    """Each output point's taps, and each grid coordinate's slope (pixels per unit)."""
    mode, padding_mode, align_corners = options
    spatial = x.shape[2:]
    sizes = spatial[::-1]  # grid[..., 0] is x: the last spatial dim
    if mode == 2:  # bicubic: unnormalized only, the taps are padded one by one
        found = [_unnormalized(grid[..., k], n, align_corners) for k, n in enumerate(sizes)]
        positions, slopes = [p for p, _ in found], [s for _, s in found]
        return _cubic_taps(positions, spatial, padding_mode, align_corners), slopes
    found = [_source(grid[..., k], n, padding_mode, align_corners) for k, n in enumerate(sizes)]
    positions, slopes = [p for p, _ in found], [s for _, s in found]
    if mode == 1:  # nearest (half to even, as nearbyint)
        index = tuple(np.rint(p).astype(np.int64) for p in reversed(positions))
        return [(index, None, ())], slopes
    return _linear_taps(positions), slopes


def _values(x: np.ndarray, index: tuple[np.ndarray, ...]) -> np.ndarray:
    """x[n, :, *index] as (N, C, *grid) where inside the image, else 0."""
    inside = _inside(x, index)
    batch = np.arange(x.shape[0]).reshape(-1, *([1] * (index[0].ndim - 1)))
    clipped = tuple(np.clip(i, 0, n - 1) for i, n in zip(index, x.shape[2:]))
    picked = np.moveaxis(x[(batch, slice(None), *clipped)], -1, 1)  # (N, C, *grid)
    return np.where(inside[:, None], picked, 0)


def _inside(x: np.ndarray, index: tuple[np.ndarray, ...]) -> np.ndarray:
    inside = np.ones(index[0].shape, dtype=bool)
    for i, n in zip(index, x.shape[2:]):
        inside &= (i >= 0) & (i < n)
    return inside


def _grid_sample(x: np.ndarray, grid: np.ndarray, options: tuple[int, int, bool]) -> np.ndarray:
    taps, _ = _taps(x, grid, options)
    total = None
    for index, weight, _ in taps:
        values = _values(x, index)
        part = values if weight is None else values * weight[:, None]
        total = part if total is None else total + part
    return np.ascontiguousarray(total, dtype=x.dtype)


def _grid_sample_grads(
    grad: np.ndarray, x: np.ndarray, grid: np.ndarray, options: tuple[int, int, bool]
) -> tuple[np.ndarray, np.ndarray]:
    """The input's gradient (each tap's weighted gradient added back) and the grid's.

    The grid's: each tap's weight slopes times the values it read (0 for nearest), times the
    coordinate's slope.
    """
    taps, slopes = _taps(x, grid, options)
    dx = np.zeros_like(x)
    dgrid = np.zeros_like(grid)
    batch = np.broadcast_to(
        np.arange(x.shape[0]).reshape(-1, *([1] * (grid.ndim - 2))), grid.shape[:-1]
    )
    for index, weight, weight_slopes in taps:
        inside = _inside(x, index)
        contribution = grad if weight is None else grad * weight[:, None]
        moved = np.moveaxis(contribution, 1, -1)[inside]  # (points, C)
        np.add.at(dx, (batch[inside], slice(None), *(i[inside] for i in index)), moved)
        if weight_slopes:
            seen = (_values(x, index) * grad).sum(axis=1)  # (N, *grid)
            for k, slope in enumerate(weight_slopes):
                dgrid[..., k] += seen * slope
    for k, slope in enumerate(slopes):
        dgrid[..., k] *= slope
    return dx, dgrid


class GridSampler2D(Op):
    """y[n, c, h, w] = x[n, c] read at grid[n, h, w] (bilinear, nearest or bicubic, padded).

    dx = each output's gradient added back at the pixels it read, weighted; dgrid = the
    interpolation's slopes times the values read (0 for nearest). Saves input and grid, as
    PyTorch. Its backward is one op (``GridSampler2DBackwardBackward0`` under create_graph)
    that minigrad cannot differentiate again. ``GridSampler3D`` is the same on 5-d inputs.
    """

    num_inputs = 2
    saves = ("input", "grid")
    fields = ("options",)
    saved_options = {
        "interpolation_mode": part("options", 0),
        "padding_mode": part("options", 1),
        "align_corners": part("options", 2),
    }

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, grid: np.ndarray, options: tuple) -> np.ndarray:
        ctx.save_for_backward(x, grid)
        ctx.options = options
        return _grid_sample(x, grid, options)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, grid = ctx.saved_tensors
        dx, dgrid = _grads(grad, x, grid, ctx.options)
        needs = ctx.needs_input_grad
        return (dx if needs[0] else None), (dgrid if needs[1] else None), None


class GridSampler3D(GridSampler2D):
    """``GridSampler2D`` on (N, C, D, H, W) inputs and (N, D_out, H_out, W_out, 3) grids."""

    node_name = "GridSampler3DBackward0"


def _grads(grad: Any, x: Any, grid: Any, options: tuple) -> tuple[Any, Any]:
    """Both gradients, recorded as one node when the saved values are tensors (create_graph)."""
    if is_tensor(x) or is_tensor(grid) or is_tensor(grad):
        op = GridSampler2DBackward if operand(x).ndim == 4 else GridSampler3DBackward
        both = op.apply(grad, x, grid, options)
        return both[0], both[1]
    return _grid_sample_grads(grad, x, grid, options)


class GridSampler2DBackward(Op):
    """grid_sample's backward as an op: (dx, dgrid). Its own derivative is not implemented."""

    num_inputs = 3
    fields = ("options",)

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, x: np.ndarray, grid: np.ndarray, options: tuple
    ) -> tuple[np.ndarray, np.ndarray]:
        ctx.options = options
        return _grid_sample_grads(grad, x, grid, options)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError("minigrad: the second derivative of grid_sample is not implemented")


class GridSampler3DBackward(GridSampler2DBackward):
    """The 5-d backward op (PyTorch's ``GridSampler3DBackwardBackward0`` node)."""

    node_name = "GridSampler3DBackwardBackward0"


def _check_grid_sampler(x: np.ndarray, grid: np.ndarray, mode: str) -> None:
    """PyTorch's ``check_grid_sampler_common`` and ``_2d`` / ``_3d`` checks, in their order.

    A 4-d input goes the 2-d way; any other the 3-d way (as PyTorch's ``grid_sampler``).
    """
    sizes = (
        f"input with sizes {errors.format_size(x.shape)} and grid with sizes "
        f"{errors.format_size(grid.shape)}"
    )
    if x.shape[:1] != grid.shape[:1]:
        raise RuntimeError(
            f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}"
        )
    if grid.shape[-1] != x.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {x.ndim - 2} in last dimension, but "
            f"got grid with sizes {errors.format_size(grid.shape)}"
        )
    for dim in range(2, x.ndim):
        if x.shape[dim] == 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                f"has sizes {errors.format_size(x.shape)} with dimension {dim} being empty"
            )
    dims = 4 if x.ndim == 4 else 5
    if x.ndim != dims or grid.ndim != dims:
        raise RuntimeError(
            f"grid_sampler(): expected {dims}D input and grid with same number of dimensions, "
            f"but got {sizes}"
        )
    if dims == 5 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")


def grid_sample(
    input: Any,
    grid: Any,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Any:
    """``input`` (N, C, H, W) read at the normalized positions ``grid`` (N, H_out, W_out, 2).

    ``grid[..., 0]`` is x (the width), ``grid[..., 1]`` y, both in [-1, 1] across the image
    (the corner pixels' centres with ``align_corners``). A 5-d ``input`` (N, C, D, H, W) takes
    a grid (N, D_out, H_out, W_out, 3) whose ``[..., 2]`` is z. ``mode``: "bilinear"
    (trilinear in 5-d), "nearest" or "bicubic" (4-d only: PyTorch's cubic convolution, A =
    -0.75, over 4 x 4 pixels); ``padding_mode``: "zeros", "border" or "reflection" for
    positions outside. Without ``align_corners`` it warns and takes False.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> image = minigrad.tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
        >>> F.grid_sample(image, minigrad.tensor([[[[0.0, 0.0]]]]), align_corners=True)
        tensor([[[[1.5000]]]])
    """
    if mode not in _MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in _PADDING_MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        _warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    _arguments.check_tensor(input, "grid_sampler", "input", 1)
    _arguments.check_tensor(grid, "grid_sampler", "grid", 2)
    _arguments.check_value(align_corners, "bool", "grid_sampler", "align_corners", 5)
    x, points = operand(input), operand(grid)
    _check_grid_sampler(x, points, mode)
    if x.dtype.kind != "f":
        kernel = "grid_sampler_2d_cpu_kernel_impl" if x.ndim == 4 else "grid_sampler3d_cpu"
        raise NotImplementedError(errors.not_implemented_for(kernel, dtype_name(input)))
    if points.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {dtype_name(input)} but found {dtype_name(grid)}")
    options = (_MODES[mode], _PADDING_MODES[padding_mode], bool(align_corners))
    return (GridSampler2D if x.ndim == 4 else GridSampler3D).apply(input, grid, options)
