"""How a ``DataLoader`` makes one batch of its samples: ``default_collate``, ``default_convert``.

PyTorch's ``torch.utils.data._utils.collate`` rules: tensors are stacked along a new first
dimension; numpy arrays and numbers become tensors (Python floats as float64, ints as int64);
strings stay lists; dicts, named tuples, tuples and lists are collated field by field.
"""

from __future__ import annotations

import collections.abc
from collections.abc import Sequence
from typing import Any

import numpy as np

import minigrad
from minigrad.autograd.tensor_base import TensorBase

__all__ = ["default_collate", "default_convert"]

_ERROR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def default_convert(data: Any) -> Any:
    """Numpy arrays (and numpy numbers) in ``data`` made tensors; the rest as it is, recursively.

    What the ``DataLoader`` does to each sample when it does not batch (``batch_size=None``).

    Example:
        >>> import numpy as np
        >>> from minigrad.utils.data import default_convert
        >>> default_convert({"x": np.array([1.0, 2.0]), "name": "a"})
        {'x': tensor([1., 2.], dtype=minigrad.float64), 'name': 'a'}
    """
    if isinstance(data, TensorBase):
        return data
    if isinstance(data, (np.ndarray, np.generic)):
        if data.dtype.kind in "USO":  # (strings and objects: nothing a tensor can hold)
            return data
        return minigrad.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            return type(data)({key: default_convert(data[key]) for key in data})  # type: ignore
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if _is_namedtuple(data):
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return type(data)([default_convert(item) for item in data])  # type: ignore
        except TypeError:
            return [default_convert(item) for item in data]
    return data


def default_collate(batch: Sequence[Any]) -> Any:
    """One batch of the samples in ``batch``, their structure kept (PyTorch's rules above).

    Example:
        >>> import minigrad
        >>> from minigrad.utils.data import default_collate
        >>> default_collate([(minigrad.tensor([1.0]), 0), (minigrad.tensor([2.0]), 1)])
        [tensor([[1.],
                [2.]]), tensor([0, 1])]
    """
    elem = batch[0]
    if isinstance(elem, TensorBase):
        return minigrad.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "USO":
            raise TypeError(_ERROR.format(elem.dtype))
        return default_collate([minigrad.as_tensor(item) for item in batch])
    if isinstance(elem, np.generic):
        if elem.dtype.kind in "USO":
            raise TypeError(_ERROR.format(elem.dtype))
        return minigrad.as_tensor(np.asarray(batch))
    if isinstance(elem, int):  # (bools too: a bool tensor)
        return minigrad.tensor(batch)
    if isinstance(elem, float):
        return minigrad.tensor(batch, dtype=minigrad.float64)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([item[key] for item in batch]) for key in elem}
        try:
            return type(elem)(fields)  # type: ignore[call-arg]
        except TypeError:
            return fields
    if _is_namedtuple(elem):
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(item) == size for item in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(samples) for samples in zip(*batch)]  # (tuples, as PyTorch's)
        if isinstance(elem, tuple):
            return columns  # (PyTorch returns a list for tuples)
        try:
            return type(elem)(columns)  # type: ignore[call-arg]
        except TypeError:
            return columns
    raise TypeError(_ERROR.format(type(elem)))
