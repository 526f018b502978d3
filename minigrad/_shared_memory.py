"""Which memories ``Tensor.share_memory_()`` marked as shared (``Tensor.is_shared()``).

PyTorch moves a tensor's storage into shared memory for other processes; minigrad runs in one
process, so nothing moves: the mark is kept on the memory (the numpy allocation the tensor's
array lives in), so that every view and alias of it answers ``is_shared()`` as PyTorch's do.
Shared memory cannot grow (``resize_``).
"""

from __future__ import annotations

import weakref

import numpy as np

from minigrad._memory import root as _root

# The root arrays marked shared, by id (weakly: a mark goes with its memory; arrays are not
# hashable, so not a WeakSet).
_SHARED: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()


def share(array: np.ndarray) -> None:
    """Mark ``array``'s memory shared."""
    root = _root(array)
    _SHARED[id(root)] = root


def is_shared(array: np.ndarray) -> bool:
    """Whether ``array``'s memory was marked shared."""
    root = _root(array)
    return _SHARED.get(id(root)) is root
