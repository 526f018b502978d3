"""Separable resampling: each output position along an axis is a weighted sum of input taps.

Padding by reflection or replication and every ``interpolate`` mode but "area" read their
input one axis at a time: along ``axis``, output position ``j`` is ``sum_t w_t[j] *
x[index_t[j]]`` over a few taps ``t`` (one tap of weight 1 to pad or pick the nearest, two to
interpolate linearly, four for cubic). A *plan* lists, per axis, its taps as
``(index, weight)`` pairs of arrays as long as the output along that axis (``weight`` None for
weight 1).

``gather`` runs a plan; ``scatter`` runs its transpose (each output's gradient added, weighted,
into every input position it read), which is the gradient of ``gather`` and is linear, so the
gradient of ``scatter`` is ``gather`` again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Taps = Sequence[tuple[np.ndarray, np.ndarray | None]]
Plan = Sequence[tuple[int, Taps]]


def gather(x: np.ndarray, plan: Plan) -> np.ndarray:
    """``x`` read through ``plan``: per axis, the weighted sum of its taps (a fresh array)."""
    y = x
    for axis, taps in plan:
        total = None
        for index, weight in taps:
            part = np.take(y, index, axis=axis)
            if weight is not None:
                part = part * weight.reshape((-1,) + (1,) * (y.ndim - 1 - axis))
            total = part if total is None else total + part
        y = total
    return np.ascontiguousarray(y)


def scatter(grad: np.ndarray, shape: Sequence[int], plan: Plan) -> np.ndarray:
    """The transpose of ``gather`` to an input of ``shape``: gradients added where they read.

    Per axis, a dense (output x input) matrix of the taps' weights, applied with tensordot:
    overlapping reads (several outputs of one input) add up without a Python loop.
    """
    result = grad
    for axis, taps in reversed(plan):
        count = taps[0][0].size
        matrix = np.zeros((count, shape[axis]), dtype=grad.dtype)
        rows = np.arange(count)
        for index, weight in taps:
            np.add.at(matrix, (rows, index), 1 if weight is None else weight)
        result = np.moveaxis(np.tensordot(result, matrix, axes=([axis], [0])), -1, axis)
    return np.ascontiguousarray(result, dtype=grad.dtype)
