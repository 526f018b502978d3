"""Nodes the garbage collector does not walk, as PyTorch's C++ nodes: deep graphs at full speed.

CPython's cyclic collector walks every tracked object alive at each collection of its oldest
generation, and runs one whenever the objects alive grew by a quarter; a forward pass keeps its
whole graph alive, so each node it leaves costs ~1.5-2 µs of collections, more than recording
the op did (``benchmarks/prototype_untracked_nodes.py``, issue 7's 10^6-op row). PyTorch's
nodes are C++ objects the collector never sees. minigrad's are Python objects; a built-in op's
node is taken out of the collector's view (``PyObject_GC_UnTrack``, CPython's documented call
for an object that cannot be part of a cycle) once another op consumed its output, which is
when it becomes part of a graph that may grow long. Reference counting still frees it, as it
frees every node of a graph without a cycle: a built-in node holds its edges (older nodes and
leaves' accumulators, which hold their leaf weakly), its saved input tensors and atoms.

A cycle through a hidden node would never be collected, so a node is shown again (tracked)
before anything a user supplies can hang on it, and never hidden after:

- its hooks, its tensors' hooks, ``retain_grad``, ``metadata``, anomaly mode's stack, values
  packed by saved-tensor hooks: all go through ``graph.extend``, which shows the node (its
  twin class is not hideable);
- a custom Function's node (its ctx takes any attribute) and a leaf's accumulator are never
  hidden;
- a gradient that has a graph (``create_graph=True``, or ``x.grad = g`` with a ``g`` that has
  one) can close the cycle ``leaf -> .grad -> its graph -> a node that saved the leaf``:
  ``show_graph`` shows every node reachable from there (a node walked once is not walked
  again: the gradients of many leaves share most of their graphs), and no node made up to
  then is hidden again; while a ``create_graph`` backward runs, nothing is hidden.

What is left is the cycles PyTorch keeps too, through an object older than the hidden nodes
that later takes a reference to a newer one:

- an in-place op on a tensor an earlier op saved, whose new history leads back to that op;
- an in-place write that gives a ``.grad`` a history (``p.grad.add_(g)`` with a ``g``
  computed from ``p``): showing the graph at every write that gives a tensor its first
  history would walk it each time, quadratic in a loop that fills a fresh buffer per step;
- a hook registered on a tensor whose closure holds a tensor computed from it further down a
  chain; a node's hook, ``metadata`` or custom Function's ctx doing the same, also through
  another object: a module with a full backward hook (its inputs' node's hook holds the
  module) that keeps a tensor its forward computed (``self.out = out``);
- an attribute of a tensor subclass doing the same.

Such a cycle stays alive until broken, as PyTorch's does. ``gc.get_objects()`` and
``gc.get_referrers()`` do not list hidden nodes (they list only tracked objects): code that
looks for nodes without a root to start from asks ``live_nodes``.

On an interpreter without CPython's C API (``ctypes.pythonapi``) nothing is hidden: the graph
behaves the same, and costs the collector what it did before.
"""

from __future__ import annotations

import gc
import itertools
import sys
import threading
import weakref
from collections.abc import Iterable
from typing import Any

try:
    import ctypes
except ImportError:  # (a Python built without libffi: nothing is hidden)
    ctypes = None  # type: ignore[assignment]


def _c_function(name: str) -> Any:
    """CPython's ``void name(void *object)``, called with ``id(object)``, the object's address.

    (A prototype of our own: setting ``argtypes`` on ``ctypes.pythonapi``'s shared function
    would change it for every library. An address converts in ~0.2 µs less than a
    ``py_object``, and the caller holds the object while the call runs.)
    """
    return ctypes.PYFUNCTYPE(None, ctypes.c_void_p)((name, ctypes.pythonapi))


_C_API = sys.implementation.name == "cpython" and hasattr(ctypes, "pythonapi")  # (None has not)
_untrack = _c_function("PyObject_GC_UnTrack") if _C_API else None
_track = _c_function("PyObject_GC_Track") if _C_API else None
_is_tracked = gc.is_tracked
# PyObject_GC_Track aborts the process on an object tracked already: a check and the call
# must not interleave with another thread's. (``show`` is the only caller. ``hide`` takes no
# lock, being on the recording's path: a node another thread shows between its test and its
# untracking stays hidden, a rare leak of the cycles through it, never a crash.)
_track_lock = threading.Lock()


class _State:
    """Which nodes may be hidden: those numbered from ``watermark`` on (none while paused)."""

    __slots__ = ("watermark", "pauses")

    def __init__(self) -> None:
        self.watermark = 0 if _untrack is not None else sys.maxsize
        self.pauses = 0  # create_graph backward passes running


_state = _State()
# The nodes ``show_graph`` walked: shown with all they hold, for good (the watermark).
_walked: weakref.WeakSet[Any] = weakref.WeakSet()


def hide(node: Any) -> None:
    """Take the built-in op's ``node`` out of the collector's view (its output was consumed).

    Called only for a node whose class is hideable (``Node._hideable``, checked by the caller
    on its hot path); does nothing if it is hidden already, or was made before the watermark.
    """
    if node._sequence_nr >= _state.watermark and _is_tracked(node):
        _untrack(id(node))


def show(node: Any) -> None:
    """Let the collector see ``node`` again (it is about to hold something a user supplied)."""
    if _track is not None and not _is_tracked(node):
        with _track_lock:
            if not _is_tracked(node):
                _track(id(node))


def show_graph(roots: Iterable[Any]) -> None:
    """Show every node reachable from ``roots`` (a graph a gradient now holds, or will).

    No node made so far is hidden again: the graph may grow from any of them. So a node walked
    once, and every node it holds, stays shown: a later walk stops there (``p.grad = g`` for
    each of many parameters whose gradients share one graph walks that graph once).
    """
    if _track is None:
        return
    stack = [node for node in roots if node is not None]
    while stack:
        node = stack.pop()
        if node not in _walked:
            _walked.add(node)
            show(node)
            stack.extend(child for child in node._held_nodes if child is not None)
    with _track_lock:
        if not _state.pauses:  # (else ``resume`` raises it)
            _state.watermark = _next_number()


def pause() -> None:
    """Hide nothing until ``resume`` (a ``create_graph`` backward runs)."""
    with _track_lock:
        _state.pauses += 1
        _state.watermark = sys.maxsize


def resume() -> None:
    """End a ``pause``: hide again, only nodes made from now on."""
    with _track_lock:
        _state.pauses -= 1
        if not _state.pauses and _untrack is not None:
            _state.watermark = _next_number()


def live_nodes() -> list[Any]:
    """Every node the process holds, hidden or not (the collector lists only tracked ones).

    A hidden node is found from what refers to it (a tensor, a frame, a later node) and
    along the nodes' references to nodes (``_held_nodes``).
    """
    # graph.py imports this module: imported at call time (rare calls)
    from minigrad.autograd.graph import Node

    tracked = gc.get_objects()
    # (the type read directly: isinstance would ask each object its __class__, which some
    # libraries' lazy objects answer with a warning or an import)
    stack = [obj for obj in itertools.chain(tracked, gc.get_referents(*tracked))
             if issubclass(type(obj), Node)]
    del tracked
    seen: set[int] = set()
    nodes = []
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            nodes.append(node)
            stack.extend(child for child in node._held_nodes if child is not None)
    return nodes


def _next_number() -> int:
    """A sequence number no node gets: the nodes made from now on have larger ones."""
    # graph.py imports this module: its counter is read at call time (rare calls)
    from minigrad.autograd.graph import new_sequence_nr

    return new_sequence_nr()
