"""The garbage collector's share of long forward chains, minigrad against PyTorch in one process.

Run ``python benchmarks/gc_chains.py`` (chains of 10^3, 10^4 and 10^5 ops) or name the lengths:
``python benchmarks/gc_chains.py 1000 1000000``; ``--kind add|mulAdd|sigmoid`` picks the chain.

Why: CPython collects when the tracked objects alive grow (allocations minus deallocations),
and a collection of the oldest generation traverses *every* tracked object alive: the graph a
forward pass keeps alive, and all the objects of the modules the process imported (numpy,
torch: ~180k here). So a deep chain's collector time depends on how many tracked objects each
op leaves alive. Per chain this prints:

* the tracked objects kept per op (``gc.get_objects`` after ``gc.collect``, 3000 ops), by type;
* per length: µs per op of the forward (CPU time, median of 3 runs, 1 for 10^6) with the
  collector on and off, PyTorch's with it on, and the µs per op spent inside the collector
  (``gc.callbacks``, wall clock) with the number of full collections.

``--freeze`` calls ``gc.freeze()`` first (what a program may do after its imports; minigrad
never does): the modules' objects then leave the collector's view, which shows how much of a
full collection is theirs rather than the graph's.
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import statistics
import sys
import time
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

import minigrad  # noqa: E402

try:
    import torch
except ImportError:  # the minigrad columns still run
    torch = None
else:
    torch.set_num_threads(1)


def chain(lib: Any, kind: str, ops: int) -> Any:
    """The forward of ``ops`` ops of one kind of chain on (8,) float32 tensors; its result."""
    x = lib.ones(8)
    w, b = lib.ones(8, requires_grad=True), lib.ones(8, requires_grad=True)
    y = x
    if kind == "add":
        for _ in range(ops):
            y = y + b
    elif kind == "mulAdd":
        for _ in range(ops // 2):
            y = y * w  # Mul saves both inputs
            y = y + b
    else:
        for _ in range(ops // 3):
            y = (y * w + b).sigmoid()  # Sigmoid saves its result
    return y


class CollectorClock:
    """Time spent inside the collector, and full collections, while installed (gc.callbacks)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.full = 0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
            self.full += info["generation"] == 2


def kept_per_op(kind: str, ops: int = 3000) -> tuple[float, dict[str, float]]:
    """Tracked objects a ``kind`` chain of ``ops`` ops keeps alive per op, total and by type."""
    chain(minigrad, kind, ops)  # whatever the first call makes once is not counted
    gc.collect()
    before = collections.Counter(type(o).__name__ for o in gc.get_objects())
    result = chain(minigrad, kind, ops)
    gc.collect()  # also untracks the tuples that hold only untracked objects
    kept = collections.Counter(type(o).__name__ for o in gc.get_objects())
    kept.subtract(before)
    del result
    by_type = {name: count / ops for name, count in kept.most_common() if count >= ops // 10}
    return sum(kept.values()) / ops, by_type


def forward_point(lib: Any, kind: str, ops: int, collect: bool,
                  runs: int) -> tuple[float, float, float]:
    """Median µs per op (CPU time), µs per op inside the collector, full collections."""
    times, inside, full = [], [], []
    for _ in range(runs):
        gc.collect()
        clock = CollectorClock()
        gc.callbacks.append(clock)
        if not collect:
            gc.disable()
        start = time.process_time()
        try:
            result = chain(lib, kind, ops)
        finally:
            elapsed = time.process_time() - start
            gc.enable()
            gc.callbacks.remove(clock)
        del result
        times.append(elapsed / ops * 1e6)
        inside.append(clock.seconds / ops * 1e6)
        full.append(clock.full)
    return statistics.median(times), statistics.median(inside), statistics.median(full)


def main(argv: list[str] | None = None) -> None:
    """Parse the options, measure the chains, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lengths", nargs="*", type=int, default=[10**3, 10**4, 10**5])
    parser.add_argument("--kind", choices=["add", "mulAdd", "sigmoid"], default="mulAdd")
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() the imports first")
    args = parser.parse_args(argv)
    if args.freeze:
        gc.collect()
        gc.freeze()
    total, by_type = kept_per_op(args.kind)
    types = ", ".join(f"{name} {count:.2f}" for name, count in by_type.items())
    print(f"chain {args.kind}: {total:.2f} GC-tracked objects kept per op ({types}); "
          f"{len(gc.get_objects())} tracked objects in the process")
    print(f"{'ops':>8} {'mg gc on':>9} {'in gc':>6} {'full':>5} {'mg gc off':>10} "
          f"{'torch':>7} {'in gc':>6} {'full':>5} {'on/torch':>9}  (µs per op)")
    for ops in args.lengths:
        runs = 1 if ops >= 10**6 else 3
        on, on_gc, on_full = forward_point(minigrad, args.kind, ops, True, runs)
        off = forward_point(minigrad, args.kind, ops, False, runs)[0]
        row = f"{ops:>8} {on:>9.2f} {on_gc:>6.2f} {on_full:>5.0f} {off:>10.2f}"
        if torch is not None:
            reference, reference_gc, reference_full = forward_point(torch, args.kind, ops, True,
                                                                    runs)
            row += (f" {reference:>7.2f} {reference_gc:>6.2f} {reference_full:>5.0f} "
                    f"{on / reference:>8.2f}x")
        print(row, flush=True)


if __name__ == "__main__":
    main()
