"""Prototype: graph nodes the garbage collector does not see, for deep chains with gc on.

Issue 7 asks a 10^6-op chain forward (``y = y*w; y = y+b``) to cost no more than PyTorch's with
the collector on. minigrad kept one GC-tracked object per node up to stop 43 (``gc_chains.py``)
and so does the perf-floor prototype (``/work/shared/perf-floor/lean2.py``, slots-only nodes):
each full collection walks every node alive, and CPython runs one whenever the tracked objects
alive grew by a quarter, so a growing graph costs ~1-2 µs per op more on this machine (a full
collection here visits ~4 million objects a second), whatever the per-op recording costs.
PyTorch's nodes are C++ objects: the collector never walks them.

This prototype measures one pure-Python way out: nodes as exact tuples holding only objects
the collector does not track. CPython untracks such a tuple at the first collection it survives
(``_PyTuple_MaybeUntrack``), but only once everything it holds is untracked: a chain of tuples
pointing at older tuples is untracked one level per collection (measured: 3 of 2000 after 4 full
collections), so the edges go into a numpy object array instead (numpy arrays, even of objects,
are not tracked: the collector never walks through them). What that needs, and the prototype does:

* the edges to the next nodes in a 2-element object array (the graph has no reference cycle to
  collect: a saved result is kept as buffer and counter, not as a tensor);
* an edge to a leaf's accumulator is an untracked token (``("acc", key)``) looked up in a
  table, not a reference to an accumulator object (which holds a weakref: tracked);
* a version counter is a one-element int64 array (untracked, mutable, shared), not a Python
  object;
* saved values are (array, counter, version) inside the tuple; backward frees nothing in place
  (a real node would keep its mutable state in an object array too).

What it leaves out, and a real design would need: mutable node state (hooks, freeing saved
values after backward, ``retain_graph`` errors) in a side table or an untracked container; the
public node object (``grad_fn``, ``next_functions``, ``_saved_*``) made on first access and
cached, as PyTorch makes a node's Python object only when Python asks for it.

Why the count of surviving tracked objects per op is the figure that matters: CPython runs a
full collection whenever the objects moved to the oldest generation since the last one exceed a
quarter of those already there, and a full collection walks the whole heap (numpy, minigrad and
PyTorch imported: ~194k objects, ~0.2 s here). So the collector's cost per op is about
proportional to the tracked objects each op leaves alive, whatever the heap's size. PyTorch
leaves 0.5 per op on this chain, not 0: the product keeps its input's Python tensor object alive
(``_saved_self is x`` after ``del x``), so one tensor object per ``y*w`` survives. minigrad
leaves 1.5 (the node of each op, and that tensor). ``prototype+saved`` keeps those tensor objects
too (PyTorch's semantics), so it shows what untracked nodes alone would reach with nothing
given up; ``prototype`` saves buffers only (not PyTorch's semantics, a lower bound).

``minigrad, nodes hidden`` is minigrad with one change made from outside: at the start of
each collection of the youngest generation, a ``gc.callbacks`` hook takes every minigrad node
there out of the collector's view (CPython's ``PyObject_GC_UnTrack`` through ctypes). It was
the measurement that led to the library's own design, ``minigrad/autograd/collector.py``
(stop 44): recording hides a built-in op's node once another op consumed its output (one
ctypes call, ~0.25 µs), and shows it again before it can hold a user's object or a gradient's
graph can reach it. Since then ``minigrad`` here hides its nodes itself, and the hook finds
few left to hide (its time is printed apart).

Run: ``python benchmarks/prototype_untracked_nodes.py [ops ...]`` (default 10^4 10^5): µs per op
of the chain's forward, gc on and off, for minigrad, the prototype (with and without its saved
tensor objects kept) and PyTorch in one process,
and a check that the prototype's gradients of w and b equal PyTorch's.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import heapq
import itertools
import os
import statistics
import sys
import time
import weakref
from typing import Any

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

import minigrad  # noqa: E402
from minigrad.autograd.graph import Node  # noqa: E402

try:
    import torch
except ImportError:
    torch = None
else:
    torch.set_num_threads(1)

_new = object.__new__
_next_sequence_nr = itertools.count().__next__
_leaves: dict[int, weakref.ref[Any]] = {}  # accumulator token's key -> the leaf
_next_key = itertools.count().__next__


class Tensor:
    """A tensor of the prototype: buffer, version counter, edge (node, output_nr) or None."""

    __slots__ = ("_array", "_counter", "_edge", "grad", "__weakref__")

    def __init__(self, data: Any, requires_grad: bool = False) -> None:
        self._array = np.asarray(data, dtype=np.float32)
        self._counter = None  # made when first saved: a one-element int64 array (untracked)
        self.grad = None
        self._edge = None
        if requires_grad:
            key = _next_key()
            _leaves[key] = weakref.ref(self)
            self._edge = (("acc", key), 0)

    def _version_counter(self) -> np.ndarray:
        counter = self._counter
        if counter is None:
            counter = self._counter = np.zeros(1, np.int64)
        return counter

    def __mul__(self, other: Tensor) -> Tensor:
        return _record(MUL, self, other)

    def __add__(self, other: Tensor) -> Tensor:
        return _record(ADD, self, other)

    def backward(self) -> None:
        """Backward from a tensor (gradient of ones), in PyTorch's order (sequence numbers)."""
        _run_backward(self._edge[0], np.ones_like(self._array))


ADD, MUL = "add", "mul"
_NO_EDGE = (None, 0)
_empty = np.empty


def _record(kind: str, a: Tensor, b: Tensor, keep_saved: bool = False) -> Tensor:
    xa, xb = a._array, b._array
    out = _new(a.__class__)
    out._array = xa * xb if kind is MUL else xa + xb
    out._counter = None
    out.grad = None
    ea, eb = a._edge, b._edge
    if ea is None and eb is None:
        out._edge = None
        return out
    # The edges go in an object array: numpy arrays are not tracked, so the collector never
    # walks from this node to the ones before it, and the node tuple (which then holds only
    # untracked objects) is untracked at the first collection it survives.
    edges = _empty(4 if keep_saved and kind is MUL else 2, object)
    edges[0] = ea or _NO_EDGE
    edges[1] = eb or _NO_EDGE
    if kind is MUL:
        if keep_saved:
            # PyTorch keeps a saved input's Python object alive (``_saved_self is x`` after
            # ``del x``): the tensors stay (tracked objects), only the node is hidden.
            edges[2] = a
            edges[3] = b
        # Saved: each operand the other's gradient needs, with its counter and version now.
        ca, cb = a._version_counter(), b._version_counter()
        node = (MUL, _next_sequence_nr(), edges, xa, ca, int(ca[0]), xb, cb, int(cb[0]))
    else:
        node = (ADD, _next_sequence_nr(), edges)
    out._edge = (node, 0)
    return out


def _apply(node: tuple, grad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if node[0] is ADD:
        return grad, grad
    _, _, _, xa, ca, va, xb, cb, vb = node
    if ca[0] != va or cb[0] != vb:
        raise RuntimeError("one of the variables needed for gradient computation has been "
                           "modified by an inplace operation")
    return grad * xb, grad * xa


def _run_backward(root: tuple, grad: np.ndarray) -> None:
    # (nodes are keyed by identity: a tuple holding arrays has no hash)
    dependencies = {id(root): 0}
    stack = [root]
    while stack:
        node = stack.pop()
        if node[0] == "acc":
            continue
        for next_node, _ in node[2]:
            if next_node is not None:
                key = id(next_node)
                if key in dependencies:
                    dependencies[key] += 1
                else:
                    dependencies[key] = 1
                    stack.append(next_node)
    buffers = {id(root): grad}
    ready = [(0, 0, root)]  # (minus the sequence number, arrival, node): PyTorch's order
    arrival = itertools.count(1).__next__
    while ready:
        node = heapq.heappop(ready)[2]
        grad = buffers.pop(id(node))
        if node[0] == "acc":
            leaf = _leaves[node[1]]()
            if leaf is not None:
                leaf.grad = grad if leaf.grad is None else leaf.grad + grad
            continue
        for (next_node, _), next_grad in zip(node[2], _apply(node, grad)):
            if next_node is None:
                continue
            key = id(next_node)
            previous = buffers.get(key)
            buffers[key] = next_grad if previous is None else previous + next_grad
            dependencies[key] -= 1
            if dependencies[key] == 0:
                # an accumulator runs as soon as it is ready (PyTorch: the highest priority)
                priority = -sys.maxsize if next_node[0] == "acc" else -next_node[1]
                heapq.heappush(ready, (priority, arrival(), next_node))


class _Prototype:
    """The prototype as a library with the two calls the chain needs."""

    @staticmethod
    def tensor(data: Any, requires_grad: bool = False) -> Tensor:
        """A prototype tensor, called as ``torch.tensor`` is."""
        return Tensor(data, requires_grad)


class TensorKeepingSaved(Tensor):
    """A prototype tensor whose mul keeps its saved inputs' tensor objects, as PyTorch does."""

    __slots__ = ()

    def __mul__(self, other: Tensor) -> Tensor:
        return _record(MUL, self, other, keep_saved=True)


class _PrototypeKeepingSaved:
    """The prototype with saved input tensors kept alive (tracked objects beside hidden nodes)."""

    @staticmethod
    def tensor(data: Any, requires_grad: bool = False) -> Tensor:
        """A prototype tensor whose products keep their inputs' tensor objects."""
        return TensorKeepingSaved(data, requires_grad)


class _NodesHidden:
    """minigrad, with its nodes taken out of the collector's view by a gc callback (see above)."""

    tensor = staticmethod(minigrad.tensor)
    hook_seconds = 0.0  # CPU time spent in the callback since the last reset

    @classmethod
    @contextlib.contextmanager
    def active(cls) -> Any:
        """Hide every node that survives to a collection of the youngest generation."""
        untrack = ctypes.pythonapi.PyObject_GC_UnTrack
        untrack.argtypes, untrack.restype = [ctypes.py_object], None

        def hide(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 0:
                start = time.process_time()
                for obj in gc.get_objects(0):
                    if isinstance(obj, Node) and not getattr(obj, "__dict__", None):
                        untrack(obj)
                cls.hook_seconds += time.process_time() - start

        cls.hook_seconds = 0.0
        gc.callbacks.append(hide)
        try:
            yield
        finally:
            gc.callbacks.remove(hide)


def run_chain(lib: Any, ops: int) -> tuple[float, Any, Any, Any]:
    """``chain``, with the nodes-hidden variant's callback active while it runs."""
    if lib is not _NodesHidden:
        return chain(lib, ops)
    with _NodesHidden.active():
        return chain(lib, ops)


def chain(lib: Any, ops: int) -> tuple[float, Any, Any, Any]:
    """µs per op of the forward of ``ops`` ops ``y = y*w; y = y+b``; its result, w and b."""
    ones = np.ones(8, np.float32)
    x = lib.tensor(ones)
    w = lib.tensor(ones * 0.999, requires_grad=True)
    b = lib.tensor(ones * 0.001, requires_grad=True)
    y = x
    start = time.process_time()
    for _ in range(ops // 2):
        y = y * w
        y = y + b
    return (time.process_time() - start) / ops * 1e6, y, w, b


def tracked_objects_per_op(lib: Any, ops: int = 2000) -> float:
    """The objects the collector tracks that a chain of ``ops`` ops keeps alive, per op."""
    gc.collect()
    before = len(gc.get_objects())
    graph = run_chain(lib, ops)
    gc.collect()
    alive = len(gc.get_objects()) - before
    del graph
    return alive / ops


def main() -> None:
    """Print µs per op with the collector on and off, and the gradient check."""
    lengths = [int(a) for a in sys.argv[1:]] or [10**4, 10**5]
    libraries = {"minigrad": minigrad, "minigrad, nodes hidden": _NodesHidden,
                 "prototype": _Prototype, "prototype+saved": _PrototypeKeepingSaved}
    if torch is not None:
        libraries["torch"] = torch
    print("deep chain forward y = y*w; y = y+b on (8,) float32, µs per op (CPU time, median of 3)")
    for ops in lengths:
        for collector in (True, False):
            row = {}
            for name, lib in libraries.items():
                runs = []
                for _ in range(3 if ops <= 10**5 else 1):
                    gc.collect()
                    if not collector:
                        gc.disable()
                    runs.append(run_chain(lib, ops)[0])  # (the graph dies before gc.enable)
                    gc.enable()
                row[name] = statistics.median(runs)
                if lib is _NodesHidden:
                    hook = _NodesHidden.hook_seconds / ops * 1e6  # (the last run's)
            ratios = ""
            if torch is not None:
                ratios = "   " + "  ".join(
                    f"{n}/torch {row[n] / row['torch']:.2f}x" for n in row if n != "torch")
            print(f"{ops:>8} gc {'on ' if collector else 'off'} "
                  + "  ".join(f"{n} {v:.2f}" for n, v in row.items()) + ratios
                  + (f"   (hiding the nodes took {hook:.2f} of them)" if collector else ""),
                  flush=True)
    survivors = {name: tracked_objects_per_op(lib) for name, lib in libraries.items()}
    print("tracked objects each op leaves alive (after a full collection): "
          + "  ".join(f"{name} {count:.2f}" for name, count in survivors.items()))
    _, y, w, b = chain(_Prototype, 2000)
    gc.collect()
    print("prototype node tracked by the collector after a collection:",
          gc.is_tracked(y._edge[0]))
    y.backward()
    if torch is not None:
        _, ty, tw, tb = chain(torch, 2000)
        ty.sum().backward()
        same = np.allclose(w.grad, tw.grad.numpy(), rtol=1e-5) and np.allclose(
            b.grad, tb.grad.numpy(), rtol=1e-5)
        print("prototype gradients of w and b equal PyTorch's:", same)


if __name__ == "__main__":
    main()
