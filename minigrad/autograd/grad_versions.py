"""The version a gradient shows: how often PyTorch's engine added into it in place.

When a node's input receives a second gradient, PyTorch's ``InputBuffer::accumulate`` adds it
into the first one in place (``old.add_(new)``, one version bump) if grad mode is off and it
may: the first is a dense tensor that nothing else refers to, such as a backward formula's
fresh result. Otherwise it adds out of place (``old + new``: a fresh tensor at version 0) --
a gradient passed along unchanged (add's, given to two inputs or also to another node), a
view (an expanded seed, the sum that undid a broadcast), or any sum under ``create_graph``.
So after ``(x * x).sum().backward()`` the leaf's ``.grad`` (the summed buffer, stolen) is at
version 1, after ``x * x * x`` at 2, and a hook or ``autograd.grad`` sees the same.

minigrad's engine sums out of place always (the values are the same); this module counts
the additions PyTorch would make in place, per summed array, so that the tensor made from
the array (a hook's argument, ``.grad``, ``autograd.grad``'s result) starts at that version.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from minigrad.autograd.version import VersionCounter

# id of a summed array -> (a weak reference to it, the in-place additions PyTorch made)
_counts: dict[int, tuple[weakref.ref[np.ndarray], int]] = {}


def summed(previous: Any, grad: Any) -> Any:
    """``previous + grad``: a buffer's gradients added, remembering PyTorch's version."""
    total = previous + grad
    # (tensors under create_graph: PyTorch sums out of place; numpy's 0-d sums are scalars)
    if type(previous) is np.ndarray and type(total) is np.ndarray and _in_place(previous, grad):
        key = id(total)
        forget = weakref.ref(total, lambda _, key=key: _counts.pop(key, None))
        _counts[key] = (forget, 1 + version_of(previous))
    return total


def _in_place(previous: np.ndarray, grad: Any) -> bool:
    """Whether PyTorch adds ``grad`` into ``previous`` in place (``can_accumulate_inplace``).

    Its test is on reference counts; here the same cases by their shape: ``previous`` owns
    its memory (a view keeps its base alive in PyTorch), is writeable and dense (not an
    expanded seed), and is not ``grad`` itself (a gradient given to two inputs).
    """
    return (
        previous is not grad
        and previous.base is None
        and previous.flags.writeable
        and (previous.flags.c_contiguous or previous.flags.f_contiguous)
    )


def version_of(array: Any) -> int:
    """The in-place additions PyTorch made into the gradient ``array`` (0 if none)."""
    entry = _counts.get(id(array))
    return entry[1] if entry is not None and entry[0]() is array else 0


def counter_of(array: Any) -> VersionCounter | None:
    """A counter at ``array``'s version for the tensor made from it (None: a fresh one)."""
    version = version_of(array)
    if not version:
        return None
    counter = VersionCounter()
    counter.version = version
    return counter
