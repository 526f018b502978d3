"""``cdist``: the p-norm distance between each row of ``x1`` and each row of ``x2``.

PyTorch computes it in one of two ways, and records which:

- directly, ``||x1[i] - x2[j]||_p`` for every pair (``CdistBackward0``, saving both inputs,
  ``p`` and the result); any ``p >= 0``, including 0 (a count of differing coordinates) and inf;
- for ``p = 2`` with many rows (more than 25 in either input, or
  ``compute_mode="use_mm_for_euclid_dist"``), through one matrix product:
  ``|a - b|^2 = |a|^2 - 2 a.b + |b|^2``, clamped at 0 before the square root
  (``EuclideanDistBackward0``, then a view). Faster, and a little less exact for close points.

The gradient of a distance that is 0 is 0 (PyTorch's subgradient), for every p; the direct
path's formulas (and their nan and inf behaviour) are PyTorch's kernel's, in
``distance_kernels``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.ops import distance_kernels, views
from minigrad.ops._helpers import broadcast_shapes, operand, run

_COMPUTE_MODES = {
    "use_mm_for_euclid_dist_if_necessary": 0,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}
_MANY_ROWS = 25  # beyond this many rows PyTorch's default mode takes the matrix product


def _differences(x1: Any, x2: Any) -> Any:
    """``x1[..., i, :] - x2[..., j, :]`` for every pair: shape (..., r1, r2, columns)."""
    return np.expand_dims(x1, -2) - np.expand_dims(x2, -3)


def _sequential_sum(values: np.ndarray, axis: int) -> np.ndarray:
    """The sum over ``axis`` added one term after another from 0, as PyTorch's loops add.

    (``np.sum`` adds in pairs, which rounds differently from 8 terms on.)
    """
    if values.shape[axis] == 0:
        return np.sum(values, axis=axis)
    return np.take(np.cumsum(values, axis=axis), -1, axis=axis) + 0  # (+ 0: 0 + -0.0 is 0)


def _p_distance(diff: np.ndarray, p: float) -> np.ndarray:
    """The p-norm of ``diff`` over its last axis, as PyTorch's scalar cdist loop computes it.

    Coordinates in order from 0; for p = inf a nan difference is passed over (``std::max``
    keeps the running maximum against nan), while every other p's aggregate turns nan.
    """
    terms = distance_kernels.mapped(np.abs(diff), p)
    if p == float("inf"):
        aggregate = np.fmax.reduce(terms, axis=-1, initial=0)
    else:
        aggregate = _sequential_sum(terms, -1)
    return distance_kernels.finish(aggregate, p)


def _pair_gradients(grad: Any, x1: Any, x2: Any, result: Any, p: float) -> Any:
    """PyTorch's ``_cdist_backward(grad, x1, x2, p, result)``: the gradient for ``x1``.

    Each pair's gradient (``distance_kernels.pair_gradient``) summed over ``x2``'s rows in
    order. The gradient for ``x2`` is the same call with the roles swapped, as PyTorch's.
    """
    if p == 0:  # (PyTorch's kernel leaves its zeros: no gradient, whatever the inputs)
        return np.zeros(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]) + x1.shape[-2:],
                        x1.dtype)
    pairs = distance_kernels.pair_gradient(
        _differences(x1, x2), np.expand_dims(grad, -1), np.expand_dims(result, -1), p
    )
    return _sequential_sum(pairs, -2)


class Cdist(Op):
    """y[..., i, j] = ||x1[..., i, :] - x2[..., j, :]||_p, batch dims broadcast.

    dx1[i] = sum_j grad[i, j] * d||x1[i] - x2[j]|| / dx1[i];  dx2 the same with the sign
    flipped, summed over i.  Saves both inputs and the result (and p), as PyTorch.
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    fields = ("p",)
    saves = ("x1", "x2", "result")
    saved_options = ("p",)
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x1: np.ndarray, x2: np.ndarray, p: float) -> np.ndarray:
        result = _p_distance(_differences(x1, x2), p)
        ctx.save_for_backward(x1, x2, result)
        ctx.p = p
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x1, x2, result = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            run(CdistBackward, grad, x1, x2, result, ctx.p, 0) if needs[0] else None,
            run(CdistBackward, grad, x1, x2, result, ctx.p, 1) if needs[1] else None,
            None,
        )


class CdistBackward(Op):
    """cdist's gradient for ``x1`` (``which`` = 0) or ``x2`` (1): PyTorch's ``_cdist_backward``.

    A node of its own under create_graph, as PyTorch's ``CdistBackwardBackward0``, whose
    backward raises: PyTorch has no second derivative of cdist's direct path.
    """

    fields = ()
    num_inputs = 4

    @staticmethod
    def forward(
        ctx: Any,
        grad: np.ndarray,
        x1: np.ndarray,
        x2: np.ndarray,
        result: np.ndarray,
        p: float,
        which: int,
    ) -> np.ndarray:
        if which == 0:
            return _pair_gradients(grad, x1, x2, result, p)
        return _pair_gradients(np.swapaxes(grad, -1, -2), x2, x1, np.swapaxes(result, -1, -2), p)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise NotImplementedError(errors.derivative_not_implemented_quoted("_cdist_backward"))


class EuclideanDist(Op):
    """y = sqrt(max(|x1_i|^2 - 2 x1_i.x2_j + |x2_j|^2, 0)) by one matrix product.

    dx1 = x1 * sum_j r_ij - r @ x2,  dx2 = x2 * sum_i r_ij - r^T @ x1,  with r = grad / y
    (0 where y is 0).  Saves both inputs and the result, as PyTorch.
    """

    saves = ("x1", "x2", "result")
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
        x1_norm = np.sum(x1 * x1, axis=-1, keepdims=True)
        x2_norm = np.sum(x2 * x2, axis=-1, keepdims=True)
        squared = x1_norm - 2 * (x1 @ np.swapaxes(x2, -1, -2)) + np.swapaxes(x2_norm, -1, -2)
        result = np.sqrt(np.maximum(squared, 0))
        ctx.save_for_backward(x1, x2, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x1, x2, result = ctx.saved_tensors
        zero = result == 0
        ratio = np.where(zero, 0, grad / np.where(zero, 1, result))
        return (
            x1 * np.sum(ratio, axis=-1, keepdims=True) - ratio @ x2,
            x2 * np.expand_dims(np.sum(ratio, axis=-2), -1) - np.swapaxes(ratio, -1, -2) @ x1,
        )


def _check_cdist(a: np.ndarray, b: np.ndarray, p: float) -> tuple[int, ...]:
    """The checks of cdist, in PyTorch's order; the broadcast batch shape."""
    for name, array in (("X1", a), ("X2", b)):
        if array.ndim < 2:
            raise RuntimeError(
                f"cdist only supports at least 2D tensors, {name} got: {array.ndim}D"
            )
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {a.shape[-1]} X2: {b.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    for name, array in (("X1", a), ("X2", b)):
        if array.dtype.kind != "f":
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: "
                f"{display_name(array.dtype)}"
            )
    if a.dtype != b.dtype:
        raise RuntimeError(errors.expected_scalar_type(a.dtype, b.dtype))
    if a.dtype == np.float16:
        raise NotImplementedError(errors.not_implemented_for("cdist", "Half"))
    return broadcast_shapes(a.shape[:-2], b.shape[:-2])


def cdist(
    x1: Any, x2: Any, p: float = 2.0, compute_mode: Any = "use_mm_for_euclid_dist_if_necessary"
) -> Any:
    """The p-norm distance between each row vector of ``x1`` and each of ``x2``.

    ``x1`` is (..., r1, c) and ``x2`` (..., r2, c), batch dims broadcast; the result is
    (..., r1, r2). ``compute_mode`` decides whether p = 2 goes through a matrix product (see
    the module's docstring).

    Example:
        >>> import minigrad
        >>> minigrad.cdist(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([[3.0, 4.0], [1.0, 0.0]]))
        tensor([[5., 1.]])
    """
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    a, b = operand(x1), operand(x2)
    batch = _check_cdist(a, b, p)
    mode = _COMPUTE_MODES[compute_mode]
    rows1, rows2 = a.shape[-2], b.shape[-2]
    euclid = p == 2 and (mode == 1 or (mode == 0 and (rows1 > _MANY_ROWS or rows2 > _MANY_ROWS)))
    if not euclid or a.size == 0 or b.size == 0 or a.shape[-1] == 0:
        return Cdist.apply(x1, x2, float(p))
    count = int(np.prod(batch))
    if count != 1:  # PyTorch's batching: expand, contiguous, view as one batch dim
        x1 = views.view(
            views.expand(x1, *batch, rows1, a.shape[-1]).contiguous(), count, rows1, a.shape[-1]
        )
        x2 = views.view(
            views.expand(x2, *batch, rows2, b.shape[-1]).contiguous(), count, rows2, b.shape[-1]
        )
    return views.view(EuclideanDist.apply(x1, x2), *batch, rows1, rows2)
