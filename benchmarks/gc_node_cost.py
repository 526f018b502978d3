"""The garbage collector's cost per node of a live graph: one full ``gc.collect()`` of a chain.

    python benchmarks/gc_node_cost.py [--checkout DIR] [--kind add|mul] [--ops N] [--runs R]
                                      [--instructions]

Builds one chain of ``--ops`` ops (default 10^6) on (8,) float32 tensors, ``y = y + b`` or
``y = y * b`` with ``b`` a leaf requiring grad, with the collector off, then times ``--runs``
full collections of it (wall clock) and prints ns per node: the minimum and the median. What
a full collection costs per node is what each of a long forward pass's collections pays for
every node alive (CPython traverses each tracked object twice per collection and walks every
member slot of its class, set or not). Also prints the bytes per op the chain keeps
(tracemalloc, over a chain of 10^4 ops, as ``bench_core.py`` measures them).

``--checkout``: the checkout whose minigrad is measured (default this one), for an A/B of two
trees run alternately (``git archive`` each into a path of one length).

``--instructions``: instead of timing, count the CPU instructions of the collections with
valgrind (callgrind, inside ``gc_collect_main``), once with the chain and once without (the
same process otherwise: imports, their collections), and print the difference per node per
collection: a figure load cannot move (try ``--ops 100000``: ~1 min per tree).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any


def build(lib: Any, kind: str, ops: int) -> Any:
    """The result of a chain of ``ops`` adds or muls of a leaf ``b`` requiring grad."""
    x, b = lib.ones(8), lib.ones(8, requires_grad=True)
    y = x
    if kind == "add":
        for _ in range(ops):
            y = y + b
    else:
        for _ in range(ops):
            y = y * b
    return y


def bytes_per_op(lib: Any, kind: str, ops: int = 10_000) -> float:
    """Bytes the chain keeps alive per op (tracemalloc, after a warm-up chain)."""
    build(lib, kind, 100)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    y = build(lib, kind, ops)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del y
    return (after - before) / ops


def main() -> None:
    """Parse the arguments, build the chain, time its collections and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--kind", choices=("add", "mul"), default="add")
    parser.add_argument("--ops", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.instructions:
        counts = [instructions(args, ops) for ops in (0, args.ops)]
        per_node = (counts[1] - counts[0]) / args.ops / (args.runs + 1)
        print(f"{args.kind} x {args.ops}: {per_node:,.0f} instructions per node per full "
              f"collection ({args.runs + 1} collections)")
        return
    sys.path.insert(0, args.checkout)
    import minigrad

    assert os.path.dirname(os.path.dirname(minigrad.__file__)) == os.path.abspath(args.checkout)
    memory = 0.0 if args.child else bytes_per_op(minigrad, args.kind)
    gc.collect()
    gc.disable()
    y = build(minigrad, args.kind, args.ops)
    gc.collect()  # (the first one untracks the tuples that hold only atoms)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - start)
    del y
    if args.child:
        return
    per_node = [seconds / args.ops * 1e9 for seconds in times]
    print(f"{args.kind} x {args.ops}: gc.collect() {min(per_node):.1f} ns/node min, "
          f"{statistics.median(per_node):.1f} median; {memory:.0f} bytes/op kept")


def instructions(args: argparse.Namespace, ops: int) -> int:
    """The instructions inside the collector of this script run with a chain of ``ops`` ops."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        "--collect-atstart=no", "--toggle-collect=gc_collect_main",
        sys.executable, __file__, "--child", "--checkout", args.checkout, "--kind", args.kind,
        "--ops", str(ops), "--runs", str(args.runs),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    return int(re.search(r"Collected : (\d+)", output).group(1))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
