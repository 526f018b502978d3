"""Where the microseconds of one recorded op go: a breakdown by differences of timed calls.

Each line times a call that does one more step of ``a + b`` / ``a * b`` / ``a.sigmoid()``
than the line before (same process, CPU time, gc off, minimum over repeats: the least
disturbed figure), so the differences are what each step costs. Nothing is asserted.

    python benchmarks/profile_record.py
"""

from __future__ import annotations

import gc
import os
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import saved  # noqa: E402
from minigrad.autograd.quiet import restore, silence  # noqa: E402
from minigrad.autograd.record import NO_GRAD_CTX, record, record_fast, untracked  # noqa: E402
from minigrad.ops import arithmetic, unary  # noqa: E402

REPEATS = 15
NUMBER = 20000


def cost(statement: str, namespace: dict) -> float:
    """µs per run of ``statement``: the minimum over repeats (gc off, as timeit does)."""
    timer = timeit.Timer(statement, globals=namespace, timer=time.process_time)
    return min(timer.repeat(REPEATS, NUMBER)) / NUMBER * 1e6


def main() -> None:
    array = np.random.default_rng(0).standard_normal(8, dtype=np.float32)
    other = array + 1
    a = minigrad.tensor(array, requires_grad=True)
    b = minigrad.tensor(other, requires_grad=True)
    c = minigrad.tensor(array)  # requires no grad: nothing is recorded
    output = minigrad.tensor(array)
    node = object.__new__(arithmetic.Mul._Node)  # a node to pack into
    ns = {"saved": saved, "record": record, "record_fast": record_fast, "untracked": untracked,
          "silence": silence, "restore": restore, "arithmetic": arithmetic,
          "unary": unary, "x": array, "y": other, "a": a, "b": b, "c": c, "output": output,
          "node": node, "NO_GRAD": NO_GRAD_CTX}
    steps = [
        ("add", [
            ("numpy x + y", "x + y"),
            ("+ the op's forward call (Add.forward)", "arithmetic.Add.forward(NO_GRAD, x, y)"),
            ("record_fast(), nothing recorded", "record_fast(arithmetic.Add, c, c)"),
            ("  of which a tensor around the result", "untracked(x)"),
            ("  of which silencing float warnings", "restore(silence())"),
            ("record_fast(), node + edges", "record_fast(arithmetic.Add, a, b)"),
            ("record(): Add.apply, one call more", "record(arithmetic.Add, a, b)"),
            ("a + b (the operator: dtype check)", "a + b"),
        ]),
        ("mul", [
            ("numpy x * y", "x * y"),
            ("+ the op's forward call (Mul.forward)", "arithmetic.Mul.forward(NO_GRAD, x, y)"),
            ("record_fast(), nothing recorded", "record_fast(arithmetic.Mul, c, c)"),
            ("record_fast(), node + edges + 2 saved", "record_fast(arithmetic.Mul, a, b)"),
            ("  of which saved.pack_fast of 2 inputs",
             "saved.pack_fast(node, (x, y), a, b, output._array, output)"),
            ("  (saved.pack, the general one)",
             "saved.pack(node, (x, y), (x, y), (a, b), (output._array,), (output,))"),
            ("a * b", "a * b"),
        ]),
        ("sigmoid", [
            ("numpy, 0-d constants (Sigmoid.forward)", "unary.Sigmoid.forward(NO_GRAD, x)"),
            ("record_fast(), nothing recorded", "record_fast(unary.Sigmoid, c)"),
            ("record_fast(), node + edge + saved result", "record_fast(unary.Sigmoid, a)"),
            ("a.sigmoid()", "a.sigmoid()"),
        ]),
    ]
    gc.disable()
    for op, lines in steps:
        print(f"{op}: µs per call (cumulative), difference to the line above")
        previous = None
        for label, statement in lines:
            value = cost(statement, ns)
            step = "" if previous is None or label.startswith("  ") else f"{value - previous:+.2f}"
            print(f"  {label:46} {value:6.2f}  {step}")
            if not label.startswith("  "):
                previous = value
    gc.enable()


if __name__ == "__main__":
    main()
