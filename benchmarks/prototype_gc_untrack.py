"""Prototype: untrack young graph nodes through ctypes before each young collection (issue 7).

Issue 7's last row asks a deep chain's forward to cost no more than PyTorch's with the collector
on. minigrad leaves 1.5 GC-tracked objects per op alive on the ``y = y*w; y = y+b`` chain (a
node per op, and the product's input tensor, which PyTorch keeps too: 0.5 per op), and the
collector's cost grows with them (``benchmarks/gc_chains.py``). CPython offers Python code no
way to make an instance of a class untracked (every instance of a class defined in Python is
tracked, subclasses of ``int``, ``tuple`` or ``ndarray`` included), so this prototype reaches
for the C API: a ``gc.callbacks`` hook that, when a generation-0 collection starts, untracks
the built-in nodes among the young objects (``gc.get_objects(0)``) with
``PyObject_GC_UnTrack`` through ctypes. Nothing on the recording path changes.

It is a measurement, not a design to ship: an untracked node in a reference cycle (a hook's
closure holding the node's output, ``retain_grad`` with ``create_graph``) would never be
freed, and the hook runs in every program that imports minigrad. What it measures is whether
the trade could pay: the µs per op of the forward with the collector on, with and without the
hook, with the collector off, and PyTorch's (CPU time, medians of 3 runs, one for 10^6), and
the cost of one ctypes call.

Stop 44 shipped a design that answers both objections, ``minigrad/autograd/collector.py``:
recording itself untracks a built-in op's node when another op consumes its output (no hook,
no scan of the young objects), and a node is tracked again before it can hold a user's object
or a gradient's graph can reach it (``tests/test_graph_cycles.py``). Since then ``minigrad``'s
own columns here already hide their nodes.

Run ``python benchmarks/prototype_gc_untrack.py`` (10^4 and 10^5 ops) or name the lengths.
"""

from __future__ import annotations

import ctypes
import gc
import os
import statistics
import sys
import time
import timeit
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (REPO, os.path.join(REPO, "benchmarks")):
    if path not in sys.path:
        sys.path.insert(0, path)  # run from a checkout without installing

from gc_chains import chain  # noqa: E402

import minigrad  # noqa: E402,F401
from minigrad.autograd.function import BackwardNode  # noqa: E402

try:
    import torch
except ImportError:  # the minigrad columns still run
    torch = None
else:
    torch.set_num_threads(1)

_untrack = ctypes.PYFUNCTYPE(None, ctypes.py_object)(("PyObject_GC_UnTrack", ctypes.pythonapi))


def untrack_young_nodes(phase: str, info: dict[str, Any]) -> None:
    """The ``gc.callbacks`` hook: untrack the built-in nodes of generation 0 as it is collected."""
    if phase == "start" and info["generation"] == 0:
        for candidate in gc.get_objects(0):
            if isinstance(candidate, BackwardNode):
                _untrack(candidate)


def forward_time(lib: Any, ops: int, collect: bool, hook: bool, runs: int) -> float:
    """Median µs per op (CPU time) of a ``mulAdd`` chain's forward of ``ops`` ops."""
    times = []
    for _ in range(runs):
        gc.collect()
        if hook:
            gc.callbacks.append(untrack_young_nodes)
        if not collect:
            gc.disable()
        start = time.process_time()
        try:
            result = chain(lib, "mulAdd", ops)
        finally:
            elapsed = time.process_time() - start
            gc.enable()
            if hook:
                gc.callbacks.remove(untrack_young_nodes)
        del result
        times.append(elapsed / ops * 1e6)
    return statistics.median(times)


def ctypes_call_ns() -> float:
    """ns per ``PyObject_GC_UnTrack`` call through ctypes on fresh slots objects."""

    class Slots:
        __slots__ = ("a",)

    objects = [Slots() for _ in range(20000)]
    return timeit.timeit(lambda: list(map(_untrack, objects)), number=1) / len(objects) * 1e9


def main(argv: list[str]) -> None:
    """Print one row per chain length."""
    lengths = [int(arg) for arg in argv] or [10**4, 10**5]
    print(f"one PyObject_GC_UnTrack call through ctypes: {ctypes_call_ns():.0f} ns")
    print(f"{'ops':>8} {'mg gc on':>9} {'+untrack':>9} {'gc off':>7} {'torch':>7} "
          f"{'on/torch':>9} {'+untrack/torch':>15}  (µs per op, CPU time)")
    for ops in lengths:
        runs = 1 if ops >= 10**6 else 3
        on = forward_time(minigrad, ops, True, False, runs)
        hooked = forward_time(minigrad, ops, True, True, runs)
        off = forward_time(minigrad, ops, False, False, runs)
        row = f"{ops:>8} {on:>9.2f} {hooked:>9.2f} {off:>7.2f}"
        if torch is not None:
            reference = forward_time(torch, ops, True, False, runs)
            row += f" {reference:>7.2f} {on / reference:>8.2f}x {hooked / reference:>14.2f}x"
        print(row, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
