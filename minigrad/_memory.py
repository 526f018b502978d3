"""The memory behind a tensor: which numpy allocation it is, where it starts, how long it is.

A minigrad tensor's elements live in a numpy array; views are numpy views of it. The array at
the end of a view's chain of numpy bases owns the memory: that *root* is what PyTorch calls
the tensor's storage (``Tensor.untyped_storage()``, ``storage_offset()``, ``is_shared()``).
numpy's ``as_strided`` puts a small wrapper object between a view and its base; the chain is
followed through it. A root may also be memory *borrowed* from another array (``from_numpy``
of a slice, a slice of a storage): then the chain stops at the borrowed array, so that the
storage starts where PyTorch's does, at the borrowed memory's first byte.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def root(array: np.ndarray) -> np.ndarray:
    """The array owning ``array``'s memory (the end of its chain of numpy bases)."""
    while True:
        base = array.base
        if isinstance(base, np.ndarray):
            array = base
            continue
        inner = getattr(base, "base", None)  # (numpy's as_strided: a DummyArray in between)
        if isinstance(inner, np.ndarray):
            array = inner
            continue
        return array


def start(owner: np.ndarray) -> int:
    """The address of the lowest byte of ``owner``'s elements (a root may run backwards)."""
    address = owner.__array_interface__["data"][0]
    if owner.size:
        address += sum(min(0, (n - 1) * s) for n, s in zip(owner.shape, owner.strides))
    return address


def extent(owner: np.ndarray) -> int:
    """How many bytes ``owner``'s elements span, from the lowest to past the highest."""
    if not owner.size:
        return 0
    span = sum(abs((n - 1) * s) for n, s in zip(owner.shape, owner.strides))
    return span + owner.itemsize


class _Borrowed:
    """Memory borrowed from ``owner``, for ``numpy.asarray``: numpy's chain of bases stops here.

    (The attribute holding the owner is not named ``base``, so ``root`` does not follow it.)
    """

    __slots__ = ("__array_interface__", "_owner")

    def __init__(self, owner: np.ndarray, address: int, nbytes: int, dtype: np.dtype) -> None:
        self._owner = owner  # (keeps the memory alive)
        self.__array_interface__ = {
            "data": (address, not owner.flags.writeable),
            "shape": (nbytes // dtype.itemsize,),
            "typestr": dtype.str,
            "version": 3,
        }


def borrow(owner: np.ndarray, address: int, nbytes: int, dtype: Any) -> np.ndarray:
    """A 1-D array of ``dtype`` over ``nbytes`` of ``owner``'s memory from ``address``: a root."""
    return np.asarray(_Borrowed(owner, address, nbytes, np.dtype(dtype)))


def borrowed_view(array: np.ndarray) -> np.ndarray:
    """``array`` (positive strides) as a view of a new root that starts at its first element.

    ``from_numpy`` of a numpy view: PyTorch's storage starts at the view's first element and
    spans its elements, not the whole allocation.
    """
    address = array.__array_interface__["data"][0]
    memory = borrow(array, address, extent(array), np.uint8)
    return np.ndarray(array.shape, array.dtype, buffer=memory, strides=array.strides)


def allocation(array: np.ndarray) -> np.ndarray:
    """The array that really owns ``array``'s memory: ``root``, and on through borrowed roots."""
    while True:
        array = root(array)
        if not isinstance(array.base, _Borrowed):
            return array
        array = array.base._owner


def as_bytes(owner: np.ndarray) -> np.ndarray:
    """The bytes of a root's memory as a 1-D uint8 array whose chain of bases leads to it."""
    if not owner.size:
        return owner.reshape(-1).view(np.uint8)
    flat = np.ravel(owner, order="K")  # (a view for a dense root: reversed axes flipped back)
    if np.shares_memory(flat, owner) and flat.flags.c_contiguous and extent(owner) == flat.nbytes:
        return flat.view(np.uint8)
    # A root with gaps between its elements (memory numpy was handed): all the bytes it spans.
    return borrow(owner, start(owner), extent(owner), np.uint8)


def offset_in(owner: np.ndarray, array: np.ndarray) -> int:
    """Where ``array``'s first element sits in ``owner``'s memory, in ``array``'s elements."""
    return (array.__array_interface__["data"][0] - start(owner)) // array.itemsize


def typed(owner: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A root's memory as a 1-D array of ``dtype`` (whole elements only), a view of it."""
    if owner.dtype == dtype and owner.ndim == 1 and owner.flags.c_contiguous:
        return owner
    memory = as_bytes(owner)
    return memory[: memory.size - memory.size % dtype.itemsize].view(dtype)


def empty_at(x: np.ndarray, empty: np.ndarray, step: int) -> np.ndarray:
    """``empty`` (a view of ``x`` without elements) placed ``step`` bytes past ``x``'s start.

    numpy keeps no position for a slice without elements; PyTorch's ``storage_offset()``
    counts its start (``x[6:]`` of 6 elements: 6), so the view is made at that address.
    """
    owner = root(x)
    memory = as_bytes(owner)
    at = x.__array_interface__["data"][0] + step - start(owner)
    if not 0 <= at <= memory.size:
        return empty
    view = np.ndarray(empty.shape, empty.dtype, buffer=memory, offset=at, strides=empty.strides)
    view.flags.writeable = x.flags.writeable
    return view
