"""``F.affine_grid``: the sampling grid of an affine transform (spatial transformer networks).

``affine_grid(theta, size)`` gives, for every output pixel of an (N, C, H, W) (or 5-d) image,
the normalized input coordinates ``theta @ (x, y, 1)`` it should read, ``x`` and ``y`` running
over [-1, 1] (the pixels' centres inside it unless ``align_corners``, the corner pixels'
centres at -1 and 1 if it is set). It is linear in ``theta``: one op
(``AffineGridGeneratorBackward0``) whose gradient is ``grad``'s product with the base grid.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _warnings
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.ops._helpers import constant_tensor, is_tensor, operand

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
    coordinates = [*reversed(mesh), np.ones(spatial, dtype=dtype)]
    return np.stack(coordinates, axis=-1)


class AffineGridGenerator(Op):
    """grid = base @ theta^T per batch element;  dtheta = grad^T @ base.  Saves no tensor.

    The base grid depends on the size only (PyTorch's ``_saved_size``,
    ``_saved_align_corners``).
    """

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
    return AffineGridGenerator.apply(theta, tuple(int(n) for n in shape), bool(align_corners))
