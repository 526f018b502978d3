"""Ops that overwrite values.

These are what ``zero_``, ``fill_``, ``copy_``, ``normal_``, ``uniform_`` and ``masked_fill``
record (``scatter`` lives with the other index ops in ``shape.py``). None of them saves a tensor
except the mask that decides which elements were replaced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _random, errors
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import has_internal_overlap
from minigrad.autograd.overlap import partially_overlap


class Zero(Op):
    """y = 0;  dx = 0.  Saves nothing."""

    checks_internal_overlap = False  # one value everywhere: an expanded tensor is fine
    checks_input_overlap = False  # PyTorch's fill_ does not check memory overlap

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.zeros_like(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad * 0


class Fill(Op):
    """y = value everywhere;  dx = 0.  Saves nothing."""

    checks_internal_overlap = False  # one value everywhere: an expanded tensor is fine
    checks_input_overlap = False  # PyTorch's fill_ does not check memory overlap

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: Any) -> np.ndarray:
        return np.full_like(x, value)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad * 0, None


class FillTensor(Op):
    """y = value (a 0-d tensor) everywhere;  dx = 0,  dvalue = sum(grad).  Saves nothing."""

    checks_input_overlap = False  # PyTorch reads the value (or mask) before writing

    node_name = "FillBackward3"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: np.ndarray) -> np.ndarray:
        return np.full_like(x, value)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        return grad * 0, np.sum(grad)


class Copy(Op):
    """y = src (broadcast to x's shape);  dx = 0,  dsrc = grad.  Saves nothing.

    Copying a tensor onto the same elements in the same layout (``x.copy_(x)``) changes
    nothing, so PyTorch skips its memory-overlap check then: an expanded tensor may do it.
    """

    node_name = "torch::autograd::CopyBackwards"
    num_inputs = 2
    # Both overlap checks run in forward (still before anything is written), in PyTorch's order.
    checks_internal_overlap = False
    checks_input_overlap = False

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray) -> np.ndarray:
        if not _same_elements(x, src):
            if has_internal_overlap(x):
                raise RuntimeError(errors.INTERNAL_OVERLAP)
            if partially_overlap(x, src):
                raise RuntimeError(errors.PARTIAL_OVERLAP)
        try:
            shape = np.broadcast_shapes(x.shape, np.shape(src))
        except ValueError:
            raise RuntimeError(errors.broadcast_mismatch(x.shape, np.shape(src))) from None
        if shape != x.shape:
            raise RuntimeError(errors.inplace_shape_mismatch(x.shape, shape))
        return np.broadcast_to(src, x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        return grad * 0, grad


def _same_elements(x: np.ndarray, src: Any) -> bool:
    return (
        isinstance(src, np.ndarray)
        and src.dtype == x.dtype
        and src.shape == x.shape
        and src.strides == x.strides
        and src.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    )


class Normal(Op):
    """y ~ Normal(mean, std);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mean: float, std: float) -> np.ndarray:
        return _random.generator().normal(mean, std, size=x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad * 0, None, None


class Uniform(Op):
    """y ~ Uniform[low, high);  dx = 0.  Saves nothing."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: float, high: float) -> np.ndarray:
        return _random.generator().uniform(low, high, size=x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        return grad * 0, None, None


class MaskedFill(Op):
    """y = value where mask, else x;  dx = grad where not mask.  Saves the mask."""

    checks_input_overlap = False  # PyTorch reads the value (or mask) before writing

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
        ctx.save_for_backward(mask)
        return np.where(mask, np.asarray(value, dtype=x.dtype), x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (mask,) = ctx.saved_tensors
        return np.where(mask, 0, grad), None, None
