"""``cov`` and ``corrcoef``: the covariance and correlation matrices of variables (rows).

Both are compositions in PyTorch (``aten/src/ATen/native/Correlation.cpp``) and here, op for
op, so the recorded graph and its gradients are PyTorch's: centre each row on its (weighted)
mean, multiply by its own transpose, divide by the degrees of freedom, squeeze; corrcoef then
divides by the standard deviations on both sides and clips to [-1, 1].
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _warnings
from minigrad._arguments import check_int64_arguments
from minigrad._dtype import display_name
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, clamp, fill, reduction, unary, views
from minigrad.ops._helpers import operand
from minigrad.ops.linalg import mm

_OBSERVATIONS = 1  # the dim of the observations; each row is a variable
DEGREES_OF_FREEDOM = (
    "cov(): degrees of freedom is <= 0. Correction should be strictly less "
    "than the number of observations."
)


def _check_weights(weights: Any, name: str, observations: int) -> np.ndarray:
    """PyTorch's checks of ``fweights`` (integers) or ``aweights`` (floats)."""
    array = operand(weights)
    if array.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got "
            f"{name} with {array.ndim} dimensions"
        )
    integral = name == "fweights"
    if (array.dtype.kind in "iu") != integral or (not integral and array.dtype.kind != "f"):
        kind = "integral" if integral else "floating point"
        raise RuntimeError(
            f"cov(): expected {name} to have {kind} dtype but got {name} with "
            f"{display_name(array.dtype)} dtype"
        )
    if array.size != observations:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are "
            f"observations in the input but got {array.size} != {observations}"
        )
    if observations and array.min() < 0:
        raise RuntimeError(f"cov(): {name} cannot be negative")
    return array


def cov(input: Any, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Any:
    """The covariance matrix of the variables in the rows of ``input`` (observations in columns).

    ``correction``: subtracted from the number of observations (1: Bessel's unbiased estimate);
    ``fweights``: integer frequencies of the observations; ``aweights``: float weights.

    Example:
        >>> import minigrad
        >>> minigrad.cov(minigrad.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    check_int64_arguments(correction)  # (the parser's error comes first)
    array = operand(input)
    if array.ndim > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an "
            f"input with {array.ndim} dimensions"
        )
    if array.dtype == np.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    rows = views.view(input, 1, -1) if array.ndim < 2 else input
    observations = operand(rows).shape[_OBSERVATIONS]
    weights = None
    if fweights is not None:
        _check_weights(fweights, "fweights", observations)
        weights = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", observations)
        weights = aweights if weights is None else arithmetic.mul(weights, aweights)
    if weights is None:
        total = TensorBase.output_class._make(np.array(observations, dtype=np.int64))
    else:
        total = reduction.sum(weights)
        if not operand(total) != 0:
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    weighted = rows if weights is None else arithmetic.mul(rows, weights)
    average = arithmetic.div(reduction.sum(weighted, _OBSERVATIONS), total)
    if weights is not None and aweights is not None and correction != 0:
        spread = reduction.sum(arithmetic.mul(weights, aweights))
        norm_factor = arithmetic.sub(
            total, arithmetic.div(arithmetic.mul(spread, correction), total)
        )
    else:
        norm_factor = arithmetic.sub(total, correction)
    if operand(norm_factor) <= 0:
        _warnings.warn(DEGREES_OF_FREEDOM)
        fill.zero_(norm_factor)
    centred = arithmetic.sub(rows, views.unsqueeze(average, 1))
    other = centred if weights is None else arithmetic.mul(centred, weights)
    return views.squeeze(arithmetic.true_divide(mm(centred, views.t(other)), norm_factor))


def corrcoef(input: Any) -> Any:
    """Pearson's correlation coefficients of the variables in the rows of ``input``.

    Example:
        >>> import minigrad
        >>> minigrad.corrcoef(minigrad.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    ndim = operand(input).ndim
    if ndim > 2:
        raise RuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got "
            f"an input with {ndim} dimensions"
        )
    c = cov(input)
    if operand(c).ndim == 0:  # one variable: 1, or nan for a covariance of 0, nan or inf
        return arithmetic.div(c, c)
    stddev = unary.sqrt(views.diagonal(c))
    c = arithmetic.div(c, views.view(stddev, -1, 1))
    c = arithmetic.div(c, views.view(stddev, 1, -1))
    return clamp.clamp(c, -1, 1)  # (floating point errors can step outside)
