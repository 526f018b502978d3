"""The version a gradient shows: how often PyTorch's engine added into it in place.

When a node's input receives a second gradient, PyTorch's ``InputBuffer::accumulate`` adds it
into the first one in place (``old.add_(new)``, one version bump) if grad mode is off and it
may: the first is a dense tensor that nothing else refers to, such as a backward formula's
fresh result. Otherwise it adds out of place (``old + new``: a fresh tensor at version 0) --
a gradient passed along unchanged (add's, given to two inputs or also to another node), a
view (an expanded seed, the sum that undid a broadcast), or any sum under ``create_graph``.
So after ``(x * x).sum().backward()`` the leaf's ``.grad`` (the summed buffer, stolen) is at
version 1, after ``x * x * x`` at 2, and a hook or ``autograd.grad`` sees the same.

minigrad's engine sums in place where PyTorch does when nothing else holds the array, out of
place otherwise (the values are the same); this module counts the additions PyTorch would make
in place, in the node's buffer while it sums (``add_into``), then per summed array
(``hand_on``), so that the tensor made from the array (a hook's argument, ``.grad``,
``autograd.grad``'s result) starts at that version.
"""

from __future__ import annotations

import sys
import weakref
from typing import Any

import numpy as np

from minigrad.autograd.version import VersionCounter

# id of a summed array -> (a weak reference to it, the in-place additions PyTorch made). An
# entry whose array died stays until the next purge; a lookup checks the reference, so an id
# reused by a new array never finds an old count.
_counts: dict[int, tuple[weakref.ref[np.ndarray], int]] = {}
_PURGE_AT = 4096  # entries; purging then drops the dead ones (cheaper than a callback each)
# (module-level names read once: ``add_into`` runs for every gradient summed in backward)
_reference = weakref.ref
_ndarray = np.ndarray
_add = np.add
_refcount = sys.getrefcount


def _held_by_buffer_only() -> int:
    """``previous``'s reference count in ``add_into`` when only the buffer's list holds it.

    Measured as ``add_into`` reads it (the list, its local, getrefcount's argument) rather
    than assumed: interpreters count differently.
    """

    def probe(slots: list[Any], index: int) -> int:
        """``add_into``'s reading, with ``add_into``'s local."""
        previous = slots[index]
        return _refcount(previous)

    return probe([np.zeros(1)], 0)


_HELD_BY_BUFFER_ONLY = _held_by_buffer_only()


def add_into(slots: list[Any], index: int, outputs: int, grad: Any, fitted: bool = False) -> None:
    """Add ``grad`` to ``slots[index]``, a node's buffer entry, as PyTorch's engine adds it.

    ``slots`` holds the gradients the node received so far, one per output (``outputs`` of
    them, None where none came yet), then, once a sum was counted, one count per output: how
    many of the additions that made ``slots[i]`` PyTorch made in place (None: not counted
    here). The count stays in the buffer while the node waits, so that a leaf's accumulator
    summing one gradient per use of the leaf looks nothing up per sum; ``hand_on`` gives it
    to the array once the node is ready.

    PyTorch adds in place (``can_accumulate_inplace``) when ``previous`` is a dense tensor
    nothing else refers to. Its test is on reference counts; here the same cases by their
    kind: ``previous`` owns its memory (a backward formula's fresh result, or an earlier sum;
    a view keeps its base alive in PyTorch, an expanded seed is a view) and is not ``grad``
    itself (a gradient handed to two inputs). Tensors (``create_graph``) are summed out of
    place by PyTorch too; numpy's 0-d sums are scalars, never handed out as they are.

    ``fitted``: the caller knows that both gradients have the shape and dtype of the entry's
    input, as the engine knows it for a leaf's accumulator reached only by built-in ops'
    runners (each fits its gradients to the input's shape and dtype as recorded, and a leaf
    whose buffer changed shape or dtype since is seen: ``graph.note_new_buffer``). The
    comparison of shapes and dtypes (four numpy attribute reads, ~1,200 instructions) is
    then left out; every other test stays.
    """
    previous = slots[index]
    if previous is None:
        slots[index] = grad
        return
    counted = len(slots) > outputs and slots[outputs + index] is not None
    if (
        previous is grad
        # (a counted entry is an array that owns its memory: a sum this buffer made)
        or not counted and (type(previous) is not _ndarray or previous.base is not None)
        or type(grad) is not _ndarray
        or not fitted and (
            grad.dtype is not previous.dtype and grad.dtype != previous.dtype
            or grad.shape != previous.shape
        )
    ):
        slots[index] = previous + grad  # (PyTorch's out-of-place sum: a fresh array at 0)
        if counted:
            slots[outputs + index] = None
        return
    if not counted:
        if len(slots) == outputs:
            slots.extend([None] * outputs)
        slots[outputs + index] = version_of(previous)  # (it may come summed from elsewhere)
    if _refcount(previous) == _HELD_BY_BUFFER_ONLY:
        # Nothing but the buffer holds it: add in place, as PyTorch does (no new array).
        _add(previous, grad, previous)  # (out positional: ufunc keywords cost more)
    else:
        total = previous + grad  # (held elsewhere too, by the node's results, say: same value)
        if type(total) is not _ndarray:  # numpy gives a 0-d sum as a scalar
            total = np.asarray(total)
        slots[index] = total
    slots[outputs + index] += 1


def hand_on(slots: list[Any], outputs: int) -> None:
    """Give each array of a ready node's buffer its count (``add_into``), and drop the counts.

    The tensor later made from the array (a hook's argument, ``.grad``, ``autograd.grad``'s
    result) starts at that version (``counter_of``).
    """
    for index in range(outputs):
        count = slots[outputs + index]
        if count:
            _counts[id(slots[index])] = (_reference(slots[index]), count)
            if len(_counts) >= _PURGE_AT:
                _purge()
    del slots[outputs:]


def written(array: np.ndarray, count: int) -> np.ndarray:
    """Record that PyTorch's backward formula wrote its result ``array`` ``count`` times.

    (``as_strided``'s backward copies the gradient into zeros: its result is at version 1.)
    """
    _counts[id(array)] = (_reference(array), count)
    if len(_counts) >= _PURGE_AT:
        _purge()
    return array


def _purge() -> None:
    for key, (reference, _) in list(_counts.items()):
        if reference() is None:
            _counts.pop(key, None)


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


# id of an array that stands for a gradient tensor something else holds -> a weak reference to
# it (``held``). The entry goes with the array.
_held: dict[int, weakref.ref[np.ndarray]] = {}


def held(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` standing for a gradient tensor that something else holds too.

    A custom backward may return a tensor it keeps (or the gradient it was given): PyTorch's
    engine then neither adds into it in place (the view is summed out of place,
    ``add_into``) nor lets a leaf's accumulator steal it (``is_held``), while a view its
    formula made is stolen (PyTorch counts references to tensors, not to their memory).
    """
    view = array[...]
    key = id(view)
    _held[key] = _reference(view, lambda _: _held.pop(key, None))
    return view


def is_held(array: np.ndarray) -> bool:
    """Whether ``array`` was made by ``held``: it stands for a tensor held elsewhere."""
    entry = _held.get(id(array))
    return entry is not None and entry() is array
