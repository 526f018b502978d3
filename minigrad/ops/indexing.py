"""Indexing: ``x[key]`` and ``x[key] = value``.

Basic indexing (ints, slices, None, ``...``) makes views, one view op per index item, exactly as
PyTorch records them (``x[1:3, 0]`` is a SliceBackward0 followed by a SelectBackward0). Advanced
indexing (integer lists/tensors, bool masks) makes copies and saves the index tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops import views


def _rebuild(template: tuple[Any, ...], arrays: tuple[np.ndarray, ...]) -> tuple[Any, ...]:
    # The key with its index tensors (passed separately, so they are version-tracked) put back.
    found = iter(arrays)
    return tuple(next(found) if item is _INDEX else item for item in template)


_INDEX = object()  # placeholder for an index tensor inside a key template


class Index(Op):
    """y = x[key] with integer or bool index tensors;  dx = grad added at ``key``.

    Saves the index tensors: changing one in place before backward raises.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, template: tuple[Any, ...], *indices: np.ndarray) -> Any:
        ctx.save_for_backward(*indices)
        ctx.shape, ctx.template = x.shape, template
        return x[_rebuild(template, indices)]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        indices = ctx.saved_tensors
        result = np.zeros(ctx.shape, dtype=grad.dtype)
        np.add.at(result, _rebuild(ctx.template, indices), grad)
        return (result, None) + (None,) * len(indices)


class IndexPut(Op):
    """y = x with ``values`` written at ``key``;  dx = grad, 0 at ``key``;  dvalues = grad[key].

    Saves the index tensors.
    """

    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, values: Any, template: tuple[Any, ...], *indices: np.ndarray
    ) -> np.ndarray:
        ctx.save_for_backward(*indices)
        ctx.template = template
        result = x.copy()
        result[_rebuild(template, indices)] = values
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        indices = ctx.saved_tensors
        key = _rebuild(ctx.template, indices)
        dx = np.array(grad, copy=True)
        dx[key] = 0
        return (dx, grad[key], None) + (None,) * len(indices)


def _is_advanced(item: Any) -> bool:
    return isinstance(item, (TensorBase, list, np.ndarray)) and not isinstance(item, bool)


def _split_key(key: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The key as a template plus its index tensors (lists become int64 tensors)."""
    items = key if isinstance(key, tuple) else (key,)
    template, indices = [], []
    for item in items:
        if _is_advanced(item):
            if not isinstance(item, TensorBase):
                array = np.asarray(item)
                item = TensorBase.output_class._make(
                    array.astype(np.int64) if array.dtype.kind in "iu" else array)
            if item._array.dtype.kind not in "iub":
                raise IndexError(
                    "tensors used as indices must be long, int, byte or bool tensors")
            template.append(_INDEX)
            indices.append(item)
        else:
            template.append(item)
    return tuple(template), tuple(indices)


def getitem(input: Any, key: Any) -> Any:
    """``input[key]``: a view for basic indexing, a copy for advanced indexing."""
    template, indices = _split_key(key)
    if indices:
        try:
            return Index.apply(input, template, *indices)
        except IndexError as error:
            raise IndexError(str(error)) from None
    return _basic_index(input, template)


def _basic_index(input: Any, items: tuple[Any, ...]) -> Any:
    ndim = input._array.ndim
    used = sum(1 for item in items if item is not None and item is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim = input, 0
    for item in items:
        if item is Ellipsis:
            dim += ndim - used
        elif item is None:
            result = views.Unsqueeze.apply(result, dim)
            dim += 1
        elif isinstance(item, slice):
            result = views.slice_dim(result, dim, item.start, item.stop, item.step)
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            result = views.select(result, dim, int(item))
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                "are valid indices (got " + type(item).__name__ + ")"
            )
    if result is input:  # x[...] and x[()] are still views in PyTorch
        result = views.View.apply(input, input._array.shape)
    return result


def setitem(input: Any, key: Any, value: Any) -> None:
    """``input[key] = value``: a write through a view, or an index_put for advanced keys."""
    from minigrad.autograd.inplace import apply_inplace
    from minigrad.ops.fill import Copy, Fill

    template, indices = _split_key(key)
    if indices:
        values = value if isinstance(value, TensorBase) else np.asarray(
            value, dtype=input._array.dtype)
        apply_inplace(IndexPut, input, values, template, *indices)
        return
    region = _basic_index(input, template)
    if isinstance(value, TensorBase):
        apply_inplace(Copy, region, value)
    else:
        apply_inplace(Fill, region, value)
