"""Write tracking: remember *where* each in-place write happened, so the version error says so.

PyTorch's version error says *that* a saved tensor was modified, never where. With write tracking
on (``set_track_writes(True)``, or anomaly mode) every version counter keeps a short history of
the in-place writes that bumped it: which call made the write, at which line of the user's code,
and the version before and after. Every node that saves values remembers the line that made it.
The version error then appends, after PyTorch's exact text, the place where the tensor was saved
and each write since then::

    saved by SigmoidBackward0 at train.py:12 (version 0): out = a.sigmoid()
    modified by zero_() at train.py:15 (version 0 -> 1): out.detach().zero_()

With tracking off nothing is recorded, and the hooks in the core cost one flag read each
(``debug_switches``): PyTorch's text is then the whole message.
"""

from __future__ import annotations

import linecache
import os
import sys
import weakref
from collections import deque
from functools import lru_cache
from types import FrameType
from typing import TYPE_CHECKING, Any, NamedTuple

from minigrad.autograd import debug_switches
from minigrad.autograd.anomaly import _PACKAGE_DIR

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node
    from minigrad.autograd.version import VersionCounter

HISTORY_LENGTH = 8
"""How many writes each version counter remembers (the most recent ones)."""

# Python's in-place operators, as the user wrote them.
_OPERATORS = {
    "__iadd__": "+=", "__isub__": "-=", "__imul__": "*=", "__itruediv__": "/=",
    "__ifloordiv__": "//=", "__imod__": "%=", "__ipow__": "**=", "__imatmul__": "@=",
    "__iand__": "&=", "__ior__": "|=", "__ixor__": "^=", "__ilshift__": "<<=",
    "__irshift__": ">>=", "__setitem__": "[...] =",
}

# Generic wrapper frames that do not say what the user called.
_WRAPPERS = frozenset(
    {"wrapper", "decorate_context", "_call_impl", "__call__", "<lambda>", "checked",
     "checked_or_listed"}
)


class Site(NamedTuple):
    """A line of the user's code: the first frame outside minigrad."""

    filename: str
    lineno: int

    @property
    def source(self) -> str:
        """The text of that line, stripped ('' if the file cannot be read)."""
        return linecache.getline(self.filename, self.lineno).strip()

    def __str__(self) -> str:
        return f"{_short_path(self.filename)}:{self.lineno}"


class WriteRecord(NamedTuple):
    """One in-place write: the call that made it, where, and the counter before and after."""

    op: str
    site: Site | None
    version_before: int
    version_after: int

    def describe(self) -> str:
        """``modified by zero_() at train.py:15 (version 0 -> 1): out.zero_()``."""
        versions = f"(version {self.version_before} -> {self.version_after})"
        return f"modified by {self.op} {_at(self.site)}{versions}{_source(self.site)}"


class _WriteHistory:
    """The recent writes of one counter, and how many writes it has recorded in all."""

    __slots__ = ("records", "total")

    def __init__(self) -> None:
        self.records: deque[WriteRecord] = deque(maxlen=HISTORY_LENGTH)
        self.total = 0


# Keyed weakly: a counter's history goes when the counter does. Counters and nodes are not
# changed by tracking at all, so their layout stays the core's business.
_histories: weakref.WeakKeyDictionary[VersionCounter, _WriteHistory] = (
    weakref.WeakKeyDictionary()
)
_save_sites: weakref.WeakKeyDictionary[Node, Site | None] = weakref.WeakKeyDictionary()


def is_track_writes_enabled() -> bool:
    """Return True if in-place writes are being tracked (``set_track_writes`` or anomaly mode).

    Example:
        >>> import minigrad
        >>> minigrad.autograd.is_track_writes_enabled()
        False
    """
    return debug_switches.switches.writes


class set_track_writes:  # noqa: N801 - named like set_detect_anomaly, its heavier sibling
    """Track where in-place writes happen: at once, and as a context manager that restores it.

    While on, each version counter remembers its last writes (call, file:line, versions) and each
    node remembers where it saved its values; a version error then says where the tensor was
    saved and where it was modified since. Anomaly mode tracks writes too. Results never change.

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> with minigrad.autograd.set_track_writes(True):
        ...     out = a.sigmoid()
        ...     _ = out.detach().zero_()
        ...     try:
        ...         out.sum().backward()
        ...     except RuntimeError as error:
        ...         print(str(error).splitlines()[-1].split(" at ")[0])
        modified by zero_()
    """

    def __init__(self, mode: bool) -> None:
        self._previous = debug_switches.switches.track_writes
        _set(bool(mode))

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: object) -> None:
        _set(self._previous)


def _set(mode: bool) -> None:
    debug_switches.switches.track_writes = mode
    debug_switches.refresh()


# --- what the core's hooks call (only while tracking is on) -----------------------------------


def remember_write(counter: VersionCounter) -> None:
    """Record the write that just bumped ``counter`` (called by ``VersionCounter.bump``)."""
    history = _histories.get(counter)
    if history is None:
        history = _histories[counter] = _WriteHistory()
    op, site = _caller(sys._getframe(1))
    version = counter.version
    history.records.append(WriteRecord(op, site, version - 1, version))
    history.total += 1


def remember_save(node: Node) -> None:
    """Record where ``node`` saved its values (called when saved values are packed)."""
    _save_sites[node] = _caller(sys._getframe(1))[1]


def user_site() -> Site | None:
    """The line of the user's code that led to this call (the first frame outside minigrad)."""
    return _caller(sys._getframe(1))[1]


def writes_of(counter: VersionCounter) -> list[WriteRecord]:
    """The writes recorded for ``counter``, oldest first (at most ``HISTORY_LENGTH``)."""
    history = _histories.get(counter)
    return [] if history is None else list(history.records)


def save_site(node: Node) -> Site | None:
    """Where ``node`` saved its values, if tracking was on then."""
    site = _save_sites.get(node)
    if site is None and node._forward_stack:
        site = _site_from_stack(node._forward_stack)
    return site


def where_modified(owner: Node, counter: VersionCounter, saved_version: int) -> str:
    """The lines appended to PyTorch's version error: where saved, where modified since.

    Empty when nothing was recorded (tracking off), so the message is exactly PyTorch's.
    """
    site = save_site(owner)
    since = [w for w in writes_of(counter) if w.version_after > saved_version]
    if site is None and not since:
        return ""
    lines = [
        f"saved by {owner.name()} {_at(site)}(version {saved_version}){_source(site)}"
        if site is not None
        else f"saved by {owner.name()} (version {saved_version}); where: not recorded"
    ]
    lines.extend(write.describe() for write in since)
    missing = counter.version - saved_version - len(since)
    if missing > 0:
        lines.append(
            f"and {missing} more write(s) since it was saved that were not recorded "
            f"(write tracking was off, or they fell out of the last {HISTORY_LENGTH})"
        )
    return "\n" + "\n".join(lines)


# --- finding the user's line -------------------------------------------------------------------


def _caller(frame: FrameType | None) -> tuple[str, Site | None]:
    """The call the user made into minigrad (``zero_()``, ``+=``) and the line it was made on."""
    inside = []  # minigrad's frames, innermost first
    while frame is not None and _is_minigrad(frame.f_code.co_filename):
        inside.append(frame)
        frame = frame.f_back
    # The call the user made is the outermost of minigrad's frames, past generic wrappers
    # (decorators, Module.__call__) to the first one with a meaningful name.
    entry = next((f for f in reversed(inside) if f.f_code.co_name not in _WRAPPERS), None)
    op = "<minigrad internals>" if entry is None else _op_name(entry)
    site = None if frame is None else Site(frame.f_code.co_filename, frame.f_lineno)
    return op, site


def _op_name(frame: FrameType) -> str:
    code = frame.f_code
    name = code.co_name
    if name in _OPERATORS:
        return _OPERATORS[name]
    owner: Any = frame.f_locals.get("self", frame.f_locals.get("cls"))
    if owner is not None and name != "<module>":
        cls = owner if isinstance(owner, type) else type(owner)
        if cls.__name__ not in ("Tensor", "TensorBase"):
            return f"{cls.__name__}.{name}()"
    return f"{name}()"


@lru_cache(maxsize=512)
def _is_minigrad(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_PACKAGE_DIR)


def _site_from_stack(stack: list[str]) -> Site | None:
    # Anomaly mode's forward traceback, as formatted lines: its last frame is the user's call.
    for entry in reversed(stack):
        first = entry.lstrip().splitlines()[0]
        if first.startswith('File "'):
            path, _, rest = first[len('File "'):].partition('", line ')
            return Site(path, int(rest.split(",")[0]))
    return None


def _short_path(filename: str) -> str:
    """The file relative to the working directory when it is under it (as people read it)."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive on Windows
        return filename
    return filename if relative.startswith(os.pardir) else relative


def _at(site: Site | None) -> str:
    return "" if site is None else f"at {site} "


def _source(site: Site | None) -> str:
    source = "" if site is None else site.source
    return f": {source}" if source else ""
