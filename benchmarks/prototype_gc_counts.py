"""Which GC-tracked objects a deep chain keeps per op, and what removing the non-node ones buys.

Issue 7's deep-chain rows pay CPython's full collections, which walk every tracked object alive
(benchmarks/README.md, "deep chains with gc on"). Branch ``gcnodes`` priced out untracking the
nodes themselves; this script looks at everything *else* a chain keeps tracked:

* ``count``: tracked objects per op by type, for ``y = y + b`` (bench_core.py's scaling row),
  ``y = y * w; y = y + b`` and ``y = sigmoid(y * w + b)``, minigrad and PyTorch: kept after a
  ``gc.collect()`` (what every full collection walks), and *young* (made and still tracked
  before any collection ran: what the generation-0 collections walk once, tuples included);
* ``time``: µs per op of the forward at several lengths, gc on, minigrad and PyTorch in one
  process taking turns, with the time inside each generation's collections (``gc.callbacks``,
  wall clock) and the number of full collections;
* ``layouts``: instructions to make and free a node with Mul's saved values in one tuple
  (today's) or in six slots of their own (the tuple is the one young object per Mul a
  generation-0 collection walks before untracking it), under callgrind.

(The ``tree DIR`` mode, which wrote a prototype tree with the output counter made on first
need, is gone: branch ``lazyctr`` built that design for real (``tensor_base.saved_output_counter``)
and main has it, so the prototype's patches no longer applied. To A/B a change of yours, make the
two trees with ``git archive`` at paths of one length.)

``--checkout DIR`` picks the minigrad measured (default this checkout). For an A/B::

    git archive main | tar -x -C /tmp/gc-a/minigrad        # same path length
    git archive HEAD | tar -x -C /tmp/gc-b/minigrad
    python benchmarks/prototype_gc_counts.py --checkout /tmp/gc-a/minigrad count time
    python benchmarks/prototype_gc_counts.py --checkout /tmp/gc-b/minigrad count time
    python benchmarks/count_record_instructions.py --checkout /tmp/gc-b/minigrad \\
        --other /tmp/gc-a/minigrad add mul sigmoid no_grad_add

Run long chains under ``ulimit -v 10000000`` (a 10^6-op graph holds ~1 GB).
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def chain(lib: Any, kind: str, ops: int) -> Any:
    """The forward of about ``ops`` ops of one chain on (8,) or (8, 8) float32; its result."""
    if kind in ("view", "mmRelu", "tanh"):
        return matrix_chain(lib, kind, ops)
    y = lib.ones(8)
    w, b = lib.ones(8, requires_grad=True), lib.ones(8, requires_grad=True)
    if kind == "add":
        for _ in range(ops):
            y = y + b
    elif kind == "mulAdd":
        for _ in range(ops // 2):
            y = y * w  # Mul saves both inputs (the previous result and w)
            y = y + b
    else:
        for _ in range(ops // 3):
            y = (y * w + b).sigmoid()  # Sigmoid saves its result
    return y


def matrix_chain(lib: Any, kind: str, ops: int) -> Any:
    """The chains beyond the issue's rows, on (8, 8) float32 (``--kinds view,mmRelu,tanh``)."""
    y = lib.ones(8, 8)
    weight = lib.ones(8, 8, requires_grad=True)
    for _ in range(ops // OPS_PER_STEP[kind]):
        if kind == "view":
            y = y.view(64).view(8, 8) * weight  # a view of a view, saved by Mul
        elif kind == "mmRelu":
            y = (y @ weight).relu()  # Relu saves its result, Mm its input
        else:
            y = (y * weight).tanh()  # Tanh saves its result
    return y


KINDS = ("add", "mulAdd", "sigmoid")
OPS_PER_STEP = {"add": 1, "mulAdd": 2, "sigmoid": 3, "view": 3, "mmRelu": 2, "tanh": 2}


def by_type(objects: list[Any], ops: int) -> str:
    """``objects`` per op, by type name (the types above 0.05 per op)."""
    counts = collections.Counter(type(o).__name__ for o in objects)
    shown = [f"{name} {n / ops:.2f}" for name, n in counts.most_common() if n / ops >= 0.05]
    return f"{len(objects) / ops:.2f} ({', '.join(shown)})"


def count_kind(lib: Any, kind: str, ops: int) -> tuple[str, str]:
    """Tracked objects per op a ``kind`` chain keeps: young (no collection yet), then kept."""
    chain(lib, kind, 100)  # what the first call makes once is not counted
    gc.collect()
    gc.disable()
    try:
        before = {id(o) for o in gc.get_objects()}
        result = chain(lib, kind, ops)
        young = [o for o in gc.get_objects() if id(o) not in before]
        made = ops // OPS_PER_STEP[kind] * OPS_PER_STEP[kind]
        young_text = by_type(young, made)
        del young
        # A collection untracks the tuples holding only untracked objects, one level of
        # nesting per pass in the worst order: collect until the count settles, as the many
        # collections during a long chain do.
        tracked = -1
        while tracked != (tracked := len(gc.get_objects())):
            gc.collect()
        kept = [o for o in gc.get_objects() if id(o) not in before]
        kept_text = by_type(kept, made)
        del kept, result
    finally:
        gc.enable()
    return young_text, kept_text


def count_rows(libraries: dict[str, Any], kinds: list[str], ops: int) -> None:
    """Print each library's tracked objects per op, young and kept, for each kind of chain."""
    for kind in kinds:
        for name, lib in libraries.items():
            young, kept = count_kind(lib, kind, ops)
            print(f"{kind:8} {name:9} young {young}\n{'':18} kept  {kept}", flush=True)


class CollectorClock:
    """Wall time inside each generation's collections, and their number (a gc callback)."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.runs = [0, 0, 0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            generation = info["generation"]
            self.seconds[generation] += time.perf_counter() - self._started
            self.runs[generation] += 1


def timed_forward(lib: Any, kind: str, ops: int) -> tuple[float, CollectorClock]:
    """CPU seconds of one forward of a ``kind`` chain with gc on, and its collector clock."""
    gc.collect()
    clock = CollectorClock()
    gc.callbacks.append(clock)
    start = time.process_time()
    try:
        result = chain(lib, kind, ops)
    finally:
        elapsed = time.process_time() - start
        gc.callbacks.remove(clock)
    del result
    return elapsed, clock


def time_rows(libraries: dict[str, Any], kinds: list[str], lengths: list[int], rounds: int) -> None:
    """Print µs per op (median over rounds, libraries taking turns) with the collector split."""
    print(
        f"{'chain':8} {'ops':>8} {'library':9} {'µs/op':>6} {'gen0':>6} {'gen1':>6} "
        f"{'gen2':>6} {'full':>4}  (µs per op, gc on; gen*: inside the collections)"
    )
    for kind in kinds:
        for ops in lengths:
            runs: dict[str, list[tuple[float, CollectorClock]]] = {n: [] for n in libraries}
            for _ in range(1 if ops >= 10**6 else rounds):
                for name, lib in libraries.items():
                    runs[name].append(timed_forward(lib, kind, ops))
            for name, results in runs.items():
                results.sort(key=lambda run: run[0])
                elapsed, clock = results[len(results) // 2]
                gens = " ".join(f"{s / ops * 1e6:6.3f}" for s in clock.seconds)
                print(
                    f"{kind:8} {ops:>8} {name:9} {elapsed / ops * 1e6:6.2f} {gens} "
                    f"{clock.runs[2]:>4}",
                    flush=True,
                )


class _Node:
    """A stand-in node: ten slots, and ``_saved`` (``layouts``)."""

    __slots__ = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "_saved")


class _WideNode(_Node):
    """The same with Mul's six varying saved fields in slots of their own."""

    __slots__ = ("_s0", "_s1", "_v0", "_v1", "_h0", "_h1")


def layout_step(layout: str) -> Callable[[Any, Any], Any]:
    """Make one node with Mul's saved values as ``layout`` says; ``functools.reduce``'s step."""
    import numpy as np

    x, y = np.ones(8, np.float32), np.ones(8, np.float32)
    marker, constant_layout = "on tensor", ("layout",)

    def plain(_: Any, __: Any) -> Any:
        return object.__new__(_Node)

    def in_a_tuple(_: Any, __: Any) -> Any:  # today's: one 12-entry tuple (tracked when made)
        node = object.__new__(_Node)
        node._saved = (x, marker, 0, "_input0", True, 0, y, marker, 0, "_input1", False, 1)
        return node

    def in_slots(_: Any, __: Any) -> Any:  # the varying fields in slots, a shared layout
        node = object.__new__(_WideNode)
        node._s0 = x  # (one store each: a 6-target assignment would build a tuple too)
        node._s1 = y
        node._v0 = 0
        node._v1 = 0
        node._h0 = True
        node._h1 = False
        node._saved = constant_layout
        return node

    return {"plain": plain, "tuple": in_a_tuple, "slots": in_slots}[layout]


def count_layouts(nodes: int = 20000) -> None:
    """Instructions per node made and freed, per saved-value layout (callgrind, as
    ``count_record_instructions.py`` counts: inside ``functools.reduce`` only)."""
    for layout in ("plain", "tuple", "slots"):
        command = [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
            "--collect-atstart=no", "--toggle-collect=functools_reduce",
            sys.executable, __file__, "--layout-child", layout, "--count-ops", str(nodes),
            "count",
        ]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        output = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        collected = int(output.stderr.split("Collected : ")[1].split()[0])
        print(f"saved values {layout:6}: {collected / nodes:8,.0f} instructions per node")


def main() -> None:
    """Parse the actions and run them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("actions", nargs="+", help="count, time or layouts")
    parser.add_argument("--checkout", default=REPO, help="the minigrad tree measured")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--lengths", default="10000,100000,1000000")
    parser.add_argument("--count-ops", type=int, default=10**4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--layout-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.layout_child:  # (count_layouts' child under valgrind)
        step = layout_step(args.layout_child)
        functools.reduce(step, range(3), None)  # warm-up
        functools.reduce(step, range(args.count_ops), None)
        return
    if args.actions == ["layouts"]:
        count_layouts()
        return
    sys.path.insert(0, args.checkout)
    import minigrad

    libraries: dict[str, Any] = {"minigrad": minigrad}
    try:
        import torch
    except ImportError:
        pass
    else:
        torch.set_num_threads(1)
        libraries["torch"] = torch
    gc.collect()
    print(
        f"minigrad from {os.path.dirname(os.path.dirname(minigrad.__file__))}; "
        f"{len(gc.get_objects())} tracked objects in the process after the imports"
    )
    kinds = args.kinds.split(",")
    actions: dict[str, Callable[[], None]] = {
        "count": lambda: count_rows(libraries, kinds, args.count_ops),
        "time": lambda: time_rows(
            libraries, kinds, [int(n) for n in args.lengths.split(",")], args.rounds
        ),
    }
    for action in args.actions:
        actions[action]()


if __name__ == "__main__":
    main()
