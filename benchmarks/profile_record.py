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
from minigrad.autograd.quiet import QUIET, restore, set_error_state, silence  # noqa: E402
from minigrad.autograd.record import NO_GRAD_CTX, record, untracked  # noqa: E402
from minigrad.ops import arithmetic, unary  # noqa: E402

Add, Mul, Sigmoid = arithmetic.Add, arithmetic.Mul, unary.Sigmoid

REPEATS = 15
NUMBER = 20000


def cost(statement: str, namespace: dict) -> float:
    """µs per run of ``statement``: the minimum over repeats (gc off, as timeit does)."""
    timer = timeit.Timer(statement, globals=namespace, timer=time.process_time)
    return min(timer.repeat(REPEATS, NUMBER)) / NUMBER * 1e6


def main() -> None:
    """Time each step of the recorded ops and print the differences."""
    array = np.random.default_rng(0).standard_normal(8, dtype=np.float32)
    other = array + 1
    a = minigrad.tensor(array, requires_grad=True)
    b = minigrad.tensor(other, requires_grad=True)
    c = minigrad.tensor(array)  # requires no grad: nothing is recorded
    output = minigrad.tensor(array)
    node = object.__new__(arithmetic.Mul._Node)  # a node to pack into
    ns = {"saved": saved, "record": record, "untracked": untracked,
          "silence": silence, "restore": restore, "set_error_state": set_error_state,
          "QUIET": QUIET, "arithmetic": arithmetic, "unary": unary, "Add": Add, "Mul": Mul,
          "Sigmoid": Sigmoid, "x": array, "y": other, "a": a, "b": b, "c": c, "output": output,
          "node": node, "NO_GRAD": NO_GRAD_CTX}
    steps = [
        ("add", [
            ("numpy x + y", "x + y"),
            ("+ the op's forward call (Add.forward)", "arithmetic.Add.forward(NO_GRAD, x, y)"),
            ("Add._record(), nothing recorded", "Add._record(c, c)"),
            ("  of which a tensor around the result (a call)", "untracked(x)"),
            ("  of which silencing float warnings", "restore(set_error_state(QUIET))"),
            ("  (silence()/restore(), the general path's)", "restore(silence())"),
            ("Add._record(), node + edges", "Add._record(a, b)"),
            ("record(): Add.apply, one call more", "record(Add, a, b)"),
            ("a + b (the operator: dtype check)", "a + b"),
        ]),
        ("mul", [
            ("numpy x * y", "x * y"),
            ("+ the op's forward call (Mul.forward)", "arithmetic.Mul.forward(NO_GRAD, x, y)"),
            ("Mul._record(), nothing recorded", "Mul._record(c, c)"),
            ("Mul._record(), node + edges + 2 saved", "Mul._record(a, b)"),
            ("  of which saved.pack_fast of 2 inputs",
             "saved.pack_fast(node, (x, y), a, b, output._array, output)"),
            ("  (saved.pack, the general one)",
             "saved.pack(node, (x, y), (x, y), (a, b), (output._array,), (output,))"),
            ("a * b", "a * b"),
        ]),
        ("sigmoid", [
            ("numpy, 0-d constants (Sigmoid.forward)", "unary.Sigmoid.forward(NO_GRAD, x)"),
            ("Sigmoid._record(), nothing recorded", "Sigmoid._record(c)"),
            ("Sigmoid._record(), node + edge + saved result", "Sigmoid._record(a)"),
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
            print(f"  {label:50} {value:6.2f}  {step}")
            if not label.startswith("  "):
                previous = value
    gc.enable()


if __name__ == "__main__":
    main()
