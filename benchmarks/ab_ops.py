"""Two whole minigrad checkouts and PyTorch in ONE process: bench_core's per-op statements.

``ab_recorder.py`` swaps only the recording factories; a change elsewhere (an op's forward, a
Tensor method, ``ops/linalg.py``) needs both trees whole. This script imports checkout A's
minigrad, sets its modules aside, imports checkout B's, and times each statement of
``bench_core.py``'s per-op section with A, B and PyTorch in turn, in short batches, so load
changes hit all three alike (each side's modules are put back in ``sys.modules`` while it
runs). Per statement: the minimum over the rounds of each side (µs), B/A and each side over
PyTorch of the minimums, and the median over rounds of B/A taken within each round, which is
the figure to read on a busy machine.

    git archive main | tar -x -C /tmp/main
    python benchmarks/ab_ops.py /tmp/main . [--rounds 60] [--number 400] [--ops "ng sum,rec sum"]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import timeit
from types import ModuleType
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

# name -> (statement, inputs require grad: recorded; else run under no_grad)
STATEMENTS = {
    "rec add": ("a + b", True),
    "rec sigmoid": ("a.sigmoid()", True),
    "rec sum": ("a.sum()", True),
    "rec matmul": ("m @ n", True),
    "ng add": ("a + b", False),
    "ng sigmoid": ("a.sigmoid()", False),
    "ng sum": ("a.sum()", False),
    "ng matmul": ("m @ n", False),
}


def load(root: str) -> tuple[ModuleType, dict[str, ModuleType]]:
    """minigrad imported from ``root``, and its modules (taken out of ``sys.modules``)."""
    for name in [n for n in sys.modules if n == "minigrad" or n.startswith("minigrad.")]:
        del sys.modules[name]
    sys.path.insert(0, os.path.abspath(root))
    try:
        module = importlib.import_module("minigrad")
    finally:
        sys.path.pop(0)
    modules = {n: m for n, m in sys.modules.items() if n == "minigrad" or n.startswith("minigrad.")}
    return module, modules


def main() -> None:
    """Time the statements with both checkouts and PyTorch; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="checkout A's root (the baseline)")
    parser.add_argument("b", help="checkout B's root")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--number", type=int, default=400)
    parser.add_argument("--ops", default=",".join(STATEMENTS))
    options = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    libraries: dict[str, tuple[Any, dict[str, ModuleType] | None]] = {
        "A": load(options.a), "B": load(options.b), "torch": (torch, None),
    }
    rng = np.random.default_rng(0)
    vectors = [rng.standard_normal(8).astype(np.float32) for _ in range(2)]
    matrices = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(2)]
    ops = options.ops.split(",")
    timers = {}
    for op in ops:
        statement, requires_grad = STATEMENTS[op]
        for side, (library, modules) in libraries.items():
            names = {name: library.tensor(values, requires_grad=requires_grad)
                     for name, values in zip("abmn", [*vectors, *matrices])}
            mode = None if requires_grad else library.no_grad
            timers[op, side] = (timeit.Timer(statement, globals=names), modules, mode)
    times: dict[tuple[str, str], list[float]] = {key: [] for key in timers}
    for _ in range(options.rounds):
        for key, (timer, modules, mode) in timers.items():
            if modules is not None:
                sys.modules.update(modules)
            if mode is None:
                seconds = timer.timeit(options.number)
            else:
                with mode():
                    seconds = timer.timeit(options.number)
            times[key].append(seconds / options.number * 1e6)
    load_average = os.getloadavg()[0]
    print(f"µs per op, min over {options.rounds} rounds; load average {load_average:.1f}")
    print(f"{'op':12} {'A':>7} {'B':>7} {'torch':>7} {'B/A':>6} {'A/torch':>8} {'B/torch':>8}"
          f" {'B/A median':>11}")
    for op in ops:
        a, b, t = (min(times[op, side]) for side in ("A", "B", "torch"))
        paired = statistics.median(x / y for x, y in zip(times[op, "B"], times[op, "A"]))
        print(f"{op:12} {a:7.3f} {b:7.3f} {t:7.3f} {b / a:6.3f} {a / t:8.3f} {b / t:8.3f}"
              f" {paired:11.3f}")


if __name__ == "__main__":
    main()
