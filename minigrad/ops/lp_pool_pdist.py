"""Power-average pooling (``lp_pool1d/2d/3d``), row distances (``pdist``), ``gumbel_softmax``.

``lp_pool`` and ``gumbel_softmax`` are PyTorch's Python compositions, written with the same
steps so that autograd records the same nodes (``PowBackward0`` over ``MulBackward0`` over
the pooling ...). ``pdist`` is a kernel of its own (``PdistBackward0``, saving the input, the
result and ``p``); PyTorch has no derivative of its gradient (``PdistBackwardBackward0``), so
differentiating it again raises as there.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad.autograd.function import Op
from minigrad.creation import empty_like, zeros_like
from minigrad.ops import distance_kernels, pooling, unary
from minigrad.ops._helpers import operand, run
from minigrad.ops.unary import relu

__all__ = ["gumbel_softmax", "lp_pool1d", "lp_pool2d", "lp_pool3d", "pdist"]


# ==========================================================================================
# lp pooling
# ==========================================================================================


def _lp_root(out: Any, window: int, norm_type: float) -> Any:
    """``(sign(out) relu(|out|) window) ** (1 / p)``: the mean of powers back to a p-norm."""
    return (unary.sign(out) * relu(unary.abs(out))).mul(window).pow(1.0 / norm_type)


def _lp_pool(input: Any, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool,
             max_pool: Any, avg_pool: Any, window: int) -> Any:
    """PyTorch's ``lp_pool1d/2d/3d`` body, given the pools of their dimension.

    The mean of ``x ** p`` over each window (``avg_pool``) back to a p-norm; ``norm_type`` inf
    is the max pool of ``|x|``, -inf minus the max pool of ``-|x|``.
    """
    if isinstance(norm_type, (int, float)):
        if norm_type == math.inf:
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_root(out, window, norm_type)


def lp_pool1d(
    input: Any, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False
) -> Any:
    """The p-norm ``(sum x ** p) ** (1 / p)`` of each ``kernel_size`` window of (N, C, L).

    ``norm_type`` inf is the max pool of ``|x|``; -inf the min.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.lp_pool1d(minigrad.tensor([[[3.0, 4.0, 1.0, 1.0]]]), 2, 2)
        tensor([[[5.0000, 1.4142]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, pooling.max_pool1d,
                    pooling.avg_pool1d, kernel_size)


def lp_pool2d(
    input: Any, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Any:
    """The p-norm ``(sum x ** p) ** (1 / p)`` of each ``kernel_size`` window of (N, C, H, W).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.lp_pool2d(minigrad.tensor([[[[1.0, 2.0], [2.0, 4.0]]]]), 1, 2)
        tensor([[[[9.]]]])
    """
    kw, kh = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, pooling.max_pool2d,
                    pooling.avg_pool2d, kw * kh)


def lp_pool3d(
    input: Any, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Any:
    """The p-norm ``(sum x ** p) ** (1 / p)`` of each ``kernel_size`` window of (N, C, D, H, W).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.lp_pool3d(minigrad.ones(1, 1, 2, 2, 2), 1, 2)
        tensor([[[[[8.]]]]])
    """
    kd, kw, kh = (kernel_size,) * 3 if isinstance(kernel_size, int) else kernel_size
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, pooling.max_pool3d,
                    pooling.avg_pool3d, kd * kw * kh)


# ==========================================================================================
# pdist
# ==========================================================================================


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The row pairs (i, j), i < j, in PyTorch's order (row-major upper triangle)."""
    return np.triu_indices(n, 1)


def _pdist_values(x: np.ndarray, p: float) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's difference (M, D) and its p-norm (M,).

    PyTorch's vectorized pdist loop: a nan difference makes the pair's distance nan for every
    p (its vector maximum keeps nan, unlike cdist's scalar one).
    """
    i, j = _pairs(x.shape[0])
    diff = x[i] - x[j]
    terms = distance_kernels.mapped(np.abs(diff), p)
    aggregate = terms.max(axis=1, initial=0) if p == math.inf else terms.sum(axis=1)
    return diff, distance_kernels.finish(aggregate, p).astype(x.dtype, copy=False)


def _pdist_gradient(grad: np.ndarray, x: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """PyTorch's ``_pdist_backward``: each pair's norm gradient, + to row i and - to row j.

    The per-pair formula is the kernel's (``distance_kernels.pair_gradient``). Each row adds
    up as PyTorch's loop does: first minus the pairs where it is the second row, then plus
    those where it is the first, each in order.
    """
    diff, _ = _pdist_values(x, p)
    pair = distance_kernels.pair_gradient(diff, grad[:, None], dist[:, None], p)
    i, j = _pairs(x.shape[0])
    gradient = np.zeros_like(x)
    np.add.at(gradient, j, -pair)
    np.add.at(gradient, i, pair)
    return gradient.astype(x.dtype, copy=False)


class Pdist(Op):
    """y[k] = ||x[i] - x[j]||_p for each row pair i < j (row-major upper triangle).

    dx[i] += dy[k] d||diff||/d diff, dx[j] -= the same (``PdistGradient``). Saves the input,
    the result and p.
    """

    fields = ("p",)
    saves = ("self", "result")
    saved_options = ("p",)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, p: float) -> np.ndarray:
        _, dist = _pdist_values(x, p)
        ctx.save_for_backward(x, dist)
        ctx.p = p
        return dist

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        x, dist = ctx.saved_tensors
        return run(PdistGradient, grad, x, dist, ctx.p), None


class PdistGradient(Op):
    """pdist's gradient as an op of its own (PyTorch's ``_pdist_backward``).

    Under create_graph it records PdistBackwardBackward0, whose own backward raises: PyTorch
    has no derivative of it. Saves nothing.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    node_name = "PdistBackwardBackward0"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, grad: Any, x: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
        return _pdist_gradient(grad, x, dist, p)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise NotImplementedError(errors.derivative_not_implemented_quoted("_pdist_backward"))


def pdist(input: Any, p: float = 2) -> Any:
    """The p-norm distance between every pair of rows of (N, M) ``input``: N (N - 1) / 2 values.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.pdist(minigrad.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
        tensor([5.0000, 1.0000, 4.2426])
    """
    array = operand(input)
    if array.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {array.ndim}D")
    if array.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return Pdist.apply(input.contiguous(), float(p))


# ==========================================================================================
# gumbel softmax
# ==========================================================================================


def gumbel_softmax(
    logits: Any, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Any:
    """A sample of softmax((logits + Gumbel noise) / tau): a differentiable categorical draw.

    With ``hard=True`` the result is one-hot (the arg max) in value, while its gradient is the
    soft sample's (the straight-through estimator). The noise comes from minigrad's generator.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> sample = F.gumbel_softmax(minigrad.zeros(2, 3), hard=True)
        >>> sample.sum(-1)
        tensor([1., 1.])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    _arguments.check_tensor(logits, "empty_like", "input", 1)  # (empty_like sees it first)
    gumbels = -empty_like(logits).exponential_().log()  # ~Gumbel(0, 1)
    gumbels = (logits + gumbels) / tau  # ~Gumbel(logits, tau)
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft  # the reparameterization trick
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft  # straight through
