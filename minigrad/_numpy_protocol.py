"""How numpy functions act on minigrad tensors.

This is numpy's ``__array_ufunc__`` and ``__array_function__`` protocols. Every backward
formula is written once, with operators and numpy functions. On arrays (the fast default) it
runs as plain numpy. On tensors (backward with ``create_graph=True``) numpy hands each call to
the minigrad op of the same meaning, so the gradient computation is itself recorded and can be
differentiated again. Only the functions below are supported that way; any other numpy function
receives the tensors as arrays (``numpy()``), as it would with PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import (
    arithmetic,
    bitwise,
    clamp,
    comparison,
    cumulative,
    linalg,
    power,
    reduction,
    rounding,
    shape,
    trigonometric,
    unary,
    views,
)


def _sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if axis is None and not keepdims:  # numpy's every axis: PyTorch's sum() (SumBackward0)
        return reduction.sum(a)
    return reduction.sum(a, axis, keepdims)


def _expand_dims(a: Any, axis: Any) -> Any:
    for dim in sorted((axis,) if isinstance(axis, int) else axis):
        a = views.unsqueeze(a, dim)
    return a


def _squeeze(a: Any, axis: Any = None) -> Any:
    if axis is None:  # numpy's None: every size-1 dim
        return views.squeeze(a)
    if isinstance(axis, int):
        return views.squeeze(a, axis)
    for dim in sorted(axis, reverse=True):
        a = views.squeeze(a, dim)
    return a


def _transpose(a: Any, axes: Any = None) -> Any:
    ndim = a.dim()
    return views.permute(a, tuple(range(ndim - 1, -1, -1)) if axes is None else tuple(axes))


def _compare(ufunc: np.ufunc) -> Callable[..., Any]:
    # Comparisons and logical ops are not differentiable: computed on arrays, not recorded.
    if ufunc.nin == 1:
        return lambda a: comparison.bool_unary(ufunc, a)
    return lambda a, b: comparison.bool_op(ufunc, a, b)


def _extreme(of_tensors: Callable[..., Any], with_number: Callable[..., Any]) -> Any:
    # np.maximum(t, 0) in a formula: a tensor and a number is a clamp, two tensors maximum.
    def extreme(a: Any, b: Any) -> Any:
        if not isinstance(b, TensorBase):
            return with_number(a, b)
        if not isinstance(a, TensorBase):
            return with_number(b, a)
        return of_tensors(a, b)

    return extreme


_maximum = _extreme(arithmetic.maximum, clamp.clamp_min)
_minimum = _extreme(arithmetic.minimum, clamp.clamp_max)


def _logaddexp(a: Any, b: Any) -> Any:
    # log(exp(a) + exp(b)) = max(a, b) + log1p(exp(-|a - b|)), without overflow.
    return _maximum(a, b) + unary.log1p(unary.exp(-unary.abs(a - b)))


UFUNCS: dict[np.ufunc, Callable[..., Any]] = {
    np.add: arithmetic.add,
    np.subtract: arithmetic.sub,
    np.multiply: arithmetic.mul,
    np.true_divide: arithmetic.div,
    np.floor_divide: arithmetic.floor_divide,
    np.negative: unary.neg,
    np.power: power.pow,
    np.exp: unary.exp,
    np.log: unary.log,
    np.sqrt: unary.sqrt,
    np.tanh: unary.tanh,
    np.absolute: unary.abs,
    np.reciprocal: unary.reciprocal,
    np.sign: unary.sign,
    np.sin: trigonometric.sin,
    np.cos: trigonometric.cos,
    np.tan: trigonometric.tan,
    np.arcsin: trigonometric.asin,
    np.arccos: trigonometric.acos,
    np.arctan: trigonometric.atan,
    np.arctan2: arithmetic.atan2,
    np.sinh: trigonometric.sinh,
    np.cosh: trigonometric.cosh,
    np.exp2: unary.exp2,
    np.expm1: unary.expm1,
    np.log2: unary.log2,
    np.log10: unary.log10,
    np.log1p: unary.log1p,
    np.square: unary.square,
    np.floor: rounding.floor,
    np.ceil: rounding.ceil,
    np.trunc: rounding.trunc,
    np.remainder: arithmetic.remainder,
    np.maximum: _maximum,
    np.minimum: _minimum,
    np.logaddexp: _logaddexp,
    np.isnan: _compare(np.isnan),
    np.isinf: _compare(np.isinf),
    np.isfinite: _compare(np.isfinite),
    np.matmul: linalg.matmul,
    **{
        ufunc: _compare(ufunc)
        for ufunc in (
            np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
            np.logical_and, np.logical_or, np.logical_xor, np.logical_not,
        )
    },
    np.bitwise_and: bitwise.bitwise_and,
    np.bitwise_or: bitwise.bitwise_or,
    np.bitwise_xor: bitwise.bitwise_xor,
    np.invert: bitwise.bitwise_not,
}

FUNCTIONS: dict[Callable[..., Any], Callable[..., Any]] = {
    np.sum: _sum,
    np.reshape: lambda a, shape, **_: views.reshape(a, shape),
    np.broadcast_to: lambda a, shape, **_: views.expand(a, shape),
    np.expand_dims: _expand_dims,
    np.squeeze: _squeeze,
    np.swapaxes: lambda a, axis1, axis2: views.transpose(a, axis1, axis2),
    np.transpose: _transpose,
    np.where: comparison.where,
    np.outer: lambda a, b: linalg.matmul(views.unsqueeze(a, 1), views.unsqueeze(b, 0)),
    np.shape: lambda a: tuple(a.shape),
    np.ndim: lambda a: a.dim(),
}


# --- reductions, linear algebra, shape and indexing (copies) ----------------------------------


def _tensors(values: Any) -> list[Any]:
    # Constant arrays next to tensors (zeros, ones) become tensors that need no gradient.
    return [v if isinstance(v, TensorBase) else TensorBase.output_class._make(np.asarray(v))
            for v in values]


def _concatenate(arrays: Any, axis: int = 0, **_: Any) -> Any:
    return shape.cat(_tensors(arrays), axis)


def _stack(arrays: Any, axis: int = 0, **_: Any) -> Any:
    return shape.stack(_tensors(arrays), axis)


def _cumulative(name: str) -> Callable[..., Any]:
    def along_axis(a: Any, axis: int, dtype: Any = None, **_: Any) -> Any:
        return getattr(cumulative, name)(a, axis)

    return along_axis


def _flip(a: Any, axis: Any = None) -> Any:
    # (numpy's axis may be one int; minigrad.flip's dims are a list, as PyTorch's)
    if axis is None:
        axis = tuple(range(a.dim()))
    return shape.flip(a, axis if isinstance(axis, (tuple, list)) else (axis,))


def _triangle(name: str) -> Callable[..., Any]:
    def triangle(a: Any, k: int = 0) -> Any:
        return getattr(shape, name)(a, k)

    return triangle


FUNCTIONS.update({
    np.concatenate: _concatenate,
    np.stack: _stack,
    np.cumsum: _cumulative("cumsum"),
    np.cumprod: _cumulative("cumprod"),
    np.flip: _flip,
    np.tril: _triangle("tril"),
    np.triu: _triangle("triu"),
})


def array_ufunc(ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """Run ``ufunc`` on tensors as the matching minigrad op (NotImplemented if none)."""
    handler = UFUNCS.get(ufunc)
    if method != "__call__" or handler is None or kwargs.get("out") is not None:
        return NotImplemented
    return handler(*inputs)


def array_function(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run numpy function ``func`` on tensors: as a minigrad op if supported, else on arrays."""
    handler = FUNCTIONS.get(func)
    if handler is not None:
        return handler(*args, **kwargs)
    return func(*_arrays(args), **{key: _arrays(value) for key, value in kwargs.items()})


def _arrays(value: Any) -> Any:
    if isinstance(value, TensorBase):
        return np.asarray(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_arrays(item) for item in value)
    return value
