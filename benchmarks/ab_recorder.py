"""Before/after of the recording functions in ONE process: another revision's against this tree's.

``autograd/record.py`` makes one recording function per op (``Add._record``) with
``_unary_recorder`` / ``_binary_recorder``. This script takes those two factories from
another git revision's ``record.py`` (``--rev``, default ``HEAD``), builds them in this tree's
``record`` module namespace, and times the recording functions both make for the same ops on
the same tensors, interleaved in short batches (gc off, wall clock; each figure is the minimum
over the rounds), so load changes hit both alike. The old factories must only need names the
current module still has (true between neighbouring commits; the script says which is missing).

Cases: recorded ``a + b``, ``a * b``, ``a.sigmoid()`` on (8,) float32 leaves requiring grad
(their accumulators made, as after a first forward), ``y * w`` with ``y`` an op result, and
``a + b`` under ``no_grad``.

    python benchmarks/ab_recorder.py [--rev HEAD] [--rounds 100] [--number 2000]
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import record  # noqa: E402
from minigrad.ops import arithmetic  # noqa: E402
from minigrad.ops import unary as unary_ops  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def factories_at(rev: str) -> dict[str, Any]:
    """``_unary_recorder`` and ``_binary_recorder`` as ``rev``'s record.py defines them."""
    source = subprocess.run(
        ["git", "show", f"{rev}:minigrad/autograd/record.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    namespace = dict(vars(record))
    exec(compile(source, f"<record.py at {rev}>", "exec"), namespace)  # noqa: S102
    # Only the two factories are taken; their free names resolve in this tree's module, so
    # the old functions test the same switches the new ones do.
    old = dict(vars(record))
    for name in ("_unary_recorder", "_binary_recorder"):
        function = namespace[name]
        old[name] = type(function)(function.__code__, old, name, function.__defaults__)
    return old


def cases(factories: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """The timed statements, each calling a recording function ``factories`` made."""
    unary = factories["_unary_recorder"]
    binary = factories["_binary_recorder"]
    add = binary(arithmetic.Add)
    mul = binary(arithmetic.Mul)
    sigmoid = unary(unary_ops.Sigmoid)
    array = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    a = minigrad.tensor(array, requires_grad=True)
    b = minigrad.tensor(array + 1, requires_grad=True)
    for leaf in (a, b):  # their accumulators, made by the first op as in a forward pass
        leaf._gradient_edge()
    y = a * b  # an op result: the chain's ``y * w``

    def no_grad_add() -> Any:
        """Ten additions inside one ``no_grad`` block (the context's cost included)."""
        with minigrad.no_grad():
            for _ in range(10):
                add(a, b)

    return {
        "a + b": lambda: add(a, b),
        "a * b": lambda: mul(a, b),
        "a.sigmoid()": lambda: sigmoid(a),
        "y * b (y an op result)": lambda: mul(y, b),
        "no_grad: 10 x a + b": no_grad_add,
    }


def main() -> None:
    """Time ``--rev``'s recording functions against this tree's, interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--number", type=int, default=2000)
    options = parser.parse_args()
    before = cases(factories_at(options.rev))
    after = cases(dict(vars(record)))
    load = os.getloadavg()
    print(f"{options.rev} (before) vs this tree (after); load average {load[0]:.1f} {load[1]:.1f}")
    print(f"µs per call, min of {options.rounds} interleaved rounds of {options.number}")
    for label in before:
        timers = [timeit.Timer(f, timer=time.perf_counter) for f in (before[label], after[label])]
        best = [float("inf"), float("inf")]
        gc.disable()
        try:
            for _ in range(options.rounds):
                for index, timer in enumerate(timers):
                    best[index] = min(best[index], timer.timeit(options.number) / options.number)
        finally:
            gc.enable()
        old, new = (seconds * 1e6 for seconds in best)
        print(f"  {label:24} {old:7.3f} -> {new:7.3f}  {100 * (new - old) / old:+5.1f} %")


if __name__ == "__main__":
    main()
