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

from minigrad.autograd.variable import TensorBase
from minigrad.ops import elementwise as ew
from minigrad.ops import linalg, reduction, views


def _sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    return reduction.sum(a, axis, keepdims)


def _expand_dims(a: Any, axis: Any) -> Any:
    for dim in sorted((axis,) if isinstance(axis, int) else axis):
        a = views.unsqueeze(a, dim)
    return a


def _squeeze(a: Any, axis: Any = None) -> Any:
    if axis is None or isinstance(axis, int):
        return views.squeeze(a, axis)
    for dim in sorted(axis, reverse=True):
        a = views.squeeze(a, dim)
    return a


def _transpose(a: Any, axes: Any = None) -> Any:
    ndim = a.dim()
    return views.permute(a, tuple(range(ndim - 1, -1, -1)) if axes is None else tuple(axes))


def _compare(ufunc: np.ufunc) -> Callable[..., Any]:
    # Comparisons and logical ops are not differentiable: compute on arrays, wrap the result.
    def compare(*operands: Any) -> Any:
        arrays = [x._array if isinstance(x, TensorBase) else x for x in operands]
        return TensorBase.output_class._make(np.asarray(ufunc(*arrays)))

    return compare


UFUNCS: dict[np.ufunc, Callable[..., Any]] = {
    np.add: ew.add,
    np.subtract: ew.sub,
    np.multiply: ew.mul,
    np.true_divide: ew.div,
    np.floor_divide: ew.floor_divide,
    np.negative: ew.neg,
    np.power: ew.pow,
    np.exp: ew.exp,
    np.log: ew.log,
    np.sqrt: ew.sqrt,
    np.tanh: ew.tanh,
    np.absolute: ew.abs,
    np.reciprocal: ew.reciprocal,
    np.sign: ew.sign,
    np.matmul: linalg.matmul,
    **{
        ufunc: _compare(ufunc)
        for ufunc in (
            np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
            np.logical_and, np.logical_or, np.logical_xor, np.logical_not,
            np.bitwise_and, np.bitwise_or, np.invert,
        )
    },
}

FUNCTIONS: dict[Callable[..., Any], Callable[..., Any]] = {
    np.sum: _sum,
    np.reshape: lambda a, shape, **_: views.reshape(a, shape),
    np.broadcast_to: lambda a, shape, **_: views.expand(a, shape),
    np.expand_dims: _expand_dims,
    np.squeeze: _squeeze,
    np.swapaxes: lambda a, axis1, axis2: views.transpose(a, axis1, axis2),
    np.transpose: _transpose,
    np.where: ew.where,
    np.outer: lambda a, b: linalg.matmul(views.unsqueeze(a, 1), views.unsqueeze(b, 0)),
    np.shape: lambda a: tuple(a.shape),
    np.ndim: lambda a: a.dim(),
}


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
