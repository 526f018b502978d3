"""guard_saved_tensors: catch the writes to saved buffers that the version counter cannot see.

The version counter sees every write made through minigrad on a tensor that shares it: the
tensor, its views, ``.detach()``. It cannot see writes through ``.data`` (a fresh counter),
``.numpy()`` and ``__array__`` (plain numpy), or the array a tensor was made from with
``from_numpy``: PyTorch's documented hole, where backward silently computes wrong gradients.
While the guard is on, every buffer saved for backward is protected until its node is released:

- a write through minigrad whose counter is not the saved one (``out.data.zero_()``,
  ``from_numpy(out.numpy()).add_(1)``) raises at its own line, naming the tensor and the node;
- the saved array itself is made read-only (numpy's ``writeable`` flag, restored when the node is
  released), so a numpy write through ``.numpy()``, ``__array__``, the ``from_numpy`` array or a
  view made from them raises numpy's ``ValueError: assignment destination is read-only`` at its
  own line (``who_saved`` then names the node);
- a write the flag cannot stop (through a numpy view made *before* the value was saved) changes
  the buffer's checksum, which is compared when backward unpacks it: backward raises, naming the
  tensor and the node, instead of computing a wrong gradient.

Writes that the counter sees are never stopped: they behave exactly as in PyTorch (backward
raises the version error). The guard never changes a result; it costs a checksum per saved
buffer, so it is a debugging switch, off by default.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad._memory import allocation
from minigrad.autograd import debug_switches, saved_access, write_tracking
from minigrad.autograd.debug_switches import switches
from minigrad.errors import format_size

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node
    from minigrad.autograd.tensor_base import TensorBase


class guard_saved_tensors:  # noqa: N801 - a switch named like set_detect_anomaly
    """Protect buffers saved for backward against writes that bypass the version counter.

    Works at once (``guard_saved_tensors(True)`` until ``guard_saved_tensors(False)``) and as
    a context manager that restores the previous setting. Buffers saved while it is on stay
    protected until backward releases them (or their graph is dropped).

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> with minigrad.autograd.guard_saved_tensors():
        ...     out = a.sigmoid()
        ...     try:
        ...         out.data.zero_()  # the seed's silent bug: now it fails at this line
        ...     except RuntimeError as error:
        ...         print(str(error).splitlines()[0])
        guard_saved_tensors: this in-place write bypasses autograd's version counter.
    """

    def __init__(self, mode: bool = True) -> None:
        self._previous = switches.guard
        _set(bool(mode))

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous)


def is_guarding_saved_tensors() -> bool:
    """Return True while ``guard_saved_tensors`` protects newly saved buffers.

    Example:
        >>> import minigrad
        >>> minigrad.autograd.is_guarding_saved_tensors()
        False
    """
    return switches.guard


def _set(mode: bool) -> None:
    switches.guard = mode
    if mode:
        switches.guard_used = True  # until the last guarded buffer is released: see _retire
    else:
        _retire()
    debug_switches.refresh()


def _retire() -> None:
    """With the guard off and nothing guarded, return the writes to their unguarded path.

    Nothing is locked any more and the views that inherited a lock's read-only flag were
    healed when it went (``note_view``), so no counted write needs the guard's help.
    """
    if not switches.guard and not _by_node:
        switches.guard_used = False


class _Guarded:
    """One protected saved value: where it lives, who saved it, and its checksum.

    It holds the saved value's holder and array but not the node: a graph that is dropped
    must be freed as usual (its finalizer then lifts the protection).
    """

    __slots__ = ("holder", "value", "counter", "saved_version", "what", "owner", "root",
                 "digest", "site")

    def __init__(self, entry: saved_access.SavedEntry, site: write_tracking.Site | None) -> None:
        self.holder = entry.handle
        self.value = entry.value
        self.counter = entry.counter
        self.saved_version = entry.saved_version
        self.what = entry.describe()
        self.owner = entry.owner.name()
        self.root = _root(entry.value)
        self.digest = _digest(entry.value)
        which = f"its output {entry.output_nr}" if entry.role == "output" else "one of its inputs"
        where = "" if site is None else f" at {site}"
        self.site = (
            f"saved for backward by {self.owner} ({which}, saved at version "
            f"{entry.saved_version}{where})"
        )


# Per node (by id; a finalizer releases a dropped node): its protected values.
_by_node: dict[int, list[_Guarded]] = {}
# Per saved value (by its handle, (node id, index), alive while its node is): its record,
# for the unpack check.
_by_holder: dict[Any, _Guarded] = {}
# The arrays made read-only: id -> [array, how many saved values hold it, its previous flag].
_locks: dict[int, list[Any]] = {}
# The arrays of tensors made while buffers were locked that inherited a read-only flag (numpy
# gives a view its base's flag, and lifting the base's later does not lift the view's): each
# is healed when the last lock goes.
_inherited: list[weakref.ref[np.ndarray]] = []


def note_view(array: np.ndarray) -> None:
    """Remember a new tensor's array, made while buffers are guarded, if a lock made it read-only.

    (A view of an array read-only by its owner's choice stays read-only: it is not noted.)
    """
    if read_only_by_lock(array):
        _inherited.append(weakref.ref(array))


def read_only_by_lock(array: np.ndarray) -> bool:
    """Whether ``array`` is read-only only because the guard locked a buffer it is on."""
    return not array.flags.writeable and any(
        id(link) in _locks and _locks[id(link)][0] is link and _locks[id(link)][2]
        for link in _chain(array)
    )


def protect(node: Node) -> None:
    """Guard what ``node`` just saved (called when its saved values are packed)."""
    records = []
    site = write_tracking.save_site(node) or write_tracking.user_site()
    for entry in saved_access.saved_entries(node):
        if entry.counter is None or not isinstance(entry.value, np.ndarray):
            continue  # a private value: nobody else holds it
        record = _Guarded(entry, site)
        records.append(record)
        _by_holder[record.holder] = record
        _lock(entry.value)
    if records:
        key = id(node)
        _by_node[key] = records
        weakref.finalize(node, release_id, key)
        debug_switches.refresh(len(_by_node))


def release(node: Node) -> None:
    """Lift the protection of ``node``'s saved values (backward freed them)."""
    release_id(id(node))


def release_id(key: int) -> None:
    """Lift the protection of the node with this id (released, or garbage-collected)."""
    records = _by_node.pop(key, None)
    if records is None:
        return
    for record in records:
        _by_holder.pop(record.holder, None)
        _unlock(record.value)
    if not _by_node:  # the last lock went: no flag of the guard's may outlive it
        for reference in _inherited:
            array = reference()
            if array is not None:
                heal(array)
        _inherited.clear()
        _retire()
    debug_switches.refresh(len(_by_node))


def verify(holder: Any, owner: Node) -> None:
    """At unpack: raise if the saved buffer changed although its counter did not move."""
    record = _by_holder.get(holder)
    if record is None:
        return
    if _digest(record.value) != record.digest:
        raise RuntimeError(_unseen_write_message(record))


def before_counted_write(tensor: TensorBase) -> Callable[[], None] | None:
    """Called before minigrad writes into ``tensor``'s buffer: allow it, or refuse a bypass.

    A write whose counter is not the one of an overlapping saved buffer is exactly the write
    autograd would miss: refused. A write that the counter sees goes through (PyTorch's rules
    then apply); if the buffer is read-only because it is saved, it is made writeable for the
    write, and the returned function makes it read-only again.
    """
    target = tensor._array
    if _by_node:
        root = _root(target)
        for records in _by_node.values():
            for record in records:
                if (
                    record.root is root
                    and record.counter is not tensor._version_counter()
                    and _overlaps(target, record.value)
                ):
                    raise RuntimeError(_bypass_message(tensor, record))
    if target.flags.writeable:
        return None
    return _open_for_write(target)


# --- read-only flags ------------------------------------------------------------------------


# from_numpy's tensors hold an array object of their own on the caller's array's memory (which
# a reshape of the caller's leaves alone): id of that array -> a weak reference to it and the
# caller's array. Locking such an array locks the caller's too, the one the user writes to.
_borrowed: dict[int, tuple[weakref.ref[np.ndarray], np.ndarray]] = {}


def note_borrowed(own: np.ndarray, lender: np.ndarray) -> None:
    """Remember that ``own``, a new tensor's array, is on the memory of the caller's ``lender``."""
    key = id(own)
    _borrowed[key] = (weakref.ref(own, lambda _, key=key: _borrowed.pop(key, None)), lender)


def _with_lender(array: np.ndarray) -> tuple[np.ndarray, ...]:
    """``array``, and the caller's array if it is a from_numpy tensor's own array on it."""
    entry = _borrowed.get(id(array))
    if entry is not None and entry[0]() is array:
        return array, entry[1]
    return (array,)


def _lock(array: np.ndarray) -> None:
    for link in _with_lender(array):
        lock = _locks.get(id(link))
        if lock is None:
            _locks[id(link)] = [link, 1, link.flags.writeable]
            link.flags.writeable = False
        else:
            lock[1] += 1


def _unlock(array: np.ndarray) -> None:
    # (the lender first: a view can be made writeable only once its base is)
    for link in reversed(_with_lender(array)):
        lock = _locks.get(id(link))
        if lock is None:
            continue
        lock[1] -= 1
        if lock[1] == 0:
            del _locks[id(link)]
            if lock[2]:
                _make_writeable(link)


def _chain(array: np.ndarray) -> list[np.ndarray]:
    """``array`` and the numpy arrays it is a view of, innermost first."""
    chain = [array]
    while isinstance(chain[-1].base, np.ndarray):
        chain.append(chain[-1].base)
    return chain


def _make_writeable(array: np.ndarray) -> bool:
    # A view can only be made writeable if its bases are: go from the root down. An array
    # still locked for another saved value, or read-only by its owner's choice, stays so.
    for link in reversed(_chain(array)):
        if not link.flags.writeable:
            if id(link) in _locks:
                return False
            try:
                link.flags.writeable = True
            except ValueError:
                return False
    return True


def _open_for_write(target: np.ndarray) -> Callable[[], None] | None:
    """Make ``target`` writeable for one counted write; return how to restore its protection.

    ``target`` may be read-only because it is a saved buffer, or a view made from one (numpy
    views inherit the flag). If nothing in its chain is locked any more, the flag was left by a
    released guard: it is lifted for good.
    """
    chain = _chain(target)
    if not any(id(link) in _locks for link in chain):
        _make_writeable(target)
        return None
    previous = [(link, link.flags.writeable) for link in chain]
    for link in reversed(chain):
        link.flags.writeable = True

    def restore() -> None:
        for link, writeable in previous:
            if not writeable:
                link.flags.writeable = False

    return restore


def heal(array: np.ndarray) -> None:
    """Lift a read-only flag left on a view by a guard since released (not a locked one)."""
    if not array.flags.writeable and not any(id(link) in _locks for link in _chain(array)):
        _make_writeable(array)


# --- helpers ----------------------------------------------------------------------------------


def _root(array: np.ndarray) -> Any:
    return allocation(array)  # (through borrowed memory: a from_numpy view's is its array's)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    if a is b:
        return True
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except np.exceptions.TooHardError:
        return bool(np.may_share_memory(a, b))


def _digest(array: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(array).view(np.uint8), digest_size=16).digest()


def _bypass_message(tensor: TensorBase, record: _Guarded) -> str:
    written = f"[{tensor._type_name()} {format_size(tensor._array.shape)}]"
    return (
        "guard_saved_tensors: this in-place write bypasses autograd's version counter.\n"
        f"The tensor written, {written}, has a version counter of its own (made by "
        f".data, or by from_numpy on a shared array) but shares memory with a tensor "
        f"{record.site}. Autograd would not see this write, and backward would "
        "silently compute a wrong gradient. Write through .detach() instead (autograd then "
        "checks the write), or write into a clone()."
    )


def _unseen_write_message(record: _Guarded) -> str:
    return (
        f"guard_saved_tensors: {record.what}, {record.site}, was modified by a "
        "write that bypassed autograd's version counter (through .data, .numpy(), __array__, a "
        "from_numpy array or a numpy view of one): its version is still "
        f"{record.counter.version} but its values changed. Backward "
        "would have computed a wrong gradient silently. Modify a clone(), or write through "
        ".detach() so that autograd sees the write."
    )
