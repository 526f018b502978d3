"""Where a recorded op's microseconds go inside its recording function, step by step.

``autograd/record.py`` makes one recording function per op (``Add._record``). This script
takes the source of the factory (``_binary_recorder`` / ``_unary_recorder``), inserts
``if STOP == k: return None`` before each step's first line, builds the op's function from
that copy in record.py's namespace, and times ``record(a, b, STOP=k)`` for every k: the
difference between consecutive lines is what a step costs, including freeing what it made
(the function returns early, dropping its locals); the last step's line includes freeing
the result. The statements take turns in short
batches (gc off, wall clock) and each line is the minimum over the rounds. Nothing is
asserted; the copy is only for timing (the library's function is not changed).

    python benchmarks/profile_recorder_steps.py [--rounds 60] [--number 2000]
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
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
from minigrad.ops import arithmetic, unary  # noqa: E402

# The first line of each step (stripped), in the order the recorded path meets them.
BINARY_STEPS = [
    ("entry: operands are tensors, one dtype", "x_array = x._array"),
    ("modes: one test, or grad mode's thread-local read", "fast = not _modes_on"),
    ("views, needs", "if x._base is not None or y._base is not None:"),
    ("anomaly mode (unless the modes test said none is on)",
     "if not fast and _anomaly_state.enabled:"),
    ("node: made, _saved, needs_input_grad", "node = make_node()"),
    ("forward: its kernel in numpy's quiet context (or forward itself)", "try:"),
    ("result: one array of the inputs' dtype", "if keeps_dtype and type(raw) is _ndarray:"),
    ("shapes for backward (_input_meta)", "x_shape = x._shape"),
    ("sequence number", "node._sequence_nr = next(sequence_numbers)"),
    ("edges", "if x_node is None:"),
    ("output tensor", "output = _new(_Tensor)"),
    ("saved values (written out, or the packing)", "if for_the_other:"),
]
UNARY_STEPS = [
    ("entry: the operand is a tensor", "x_array = x._array"),
    ("modes: one test, or grad mode's thread-local read", "fast = not _modes_on"),
    ("views, needs", "if x._base is not None:"),
    ("anomaly mode (unless the modes test said none is on)",
     "if not fast and _anomaly_state.enabled:"),
    ("node: made, _saved, needs_input_grad", "node = make_node()"),
    ("forward: its kernel in numpy's quiet context (or forward itself)", "try:"),
    ("result: one array of the input's dtype", "out_array = raw if"),
    ("shape for backward (_input_meta)", "if elementwise:"),
    ("sequence number", "node._sequence_nr = next(sequence_numbers)"),
    ("edge", "if x_node is None:"),
    ("output tensor", "output = _new(_Tensor)"),
    ("saved values (written out, or the packing)", "if step is not None:"),
]


def stopping_copy(factory: Callable[..., Any], steps: list[tuple[str, str]]) -> Callable[..., Any]:
    """``factory`` rebuilt with ``if STOP == k: return None`` before step k's first line."""
    lines = inspect.getsource(factory).splitlines()
    found = 0
    copy = []
    inner = None
    for line in lines:
        stripped = line.strip()
        if found < len(steps) and stripped.startswith(steps[found][1]):
            indent = line[: len(line) - len(stripped)]
            copy.append(f"{indent}if STOP == {found}: return None")
            found += 1
        if stripped.startswith("def record_"):
            inner = stripped[4:stripped.index("(")]
            line = line.replace("):", ", STOP=-1):").replace(") -> Any:", ", STOP=-1):")
        copy.append(line)
    assert found == len(steps), f"step {steps[found][0]!r} not found in {factory.__name__}"
    assert inner is not None
    namespace = dict(vars(record))
    exec(compile("from __future__ import annotations\n" + "\n".join(copy),  # noqa: S102
                 f"<{factory.__name__}, steps>", "exec"), namespace)
    return namespace[factory.__name__]


def profile(title: str, function: Callable[..., Any], args: tuple[Any, ...],
            steps: list[tuple[str, str]], rounds: int, number: int) -> None:
    """Time ``function`` stopped after each step and print what each step adds."""
    namespace = {"function": function, "args": args}
    timers = [timeit.Timer(f"function(*args, STOP={k})", globals=namespace,
                           timer=time.perf_counter) for k in range(len(steps))]
    timers.append(timeit.Timer("function(*args)", globals=namespace, timer=time.perf_counter))
    best = [float("inf")] * len(timers)
    gc.disable()
    try:
        for _ in range(rounds):
            for index, timer in enumerate(timers):
                best[index] = min(best[index], timer.timeit(number) / number * 1e6)
    finally:
        gc.enable()
    print(f"{title}: µs per step (differences of minimums over {rounds} rounds), cumulative")
    print(f"  {'the call itself (STOP passed by keyword)':48} {best[0]:+6.2f} {best[0]:6.2f}")
    for k, (label, _) in enumerate(steps):
        print(f"  {label:48} {best[k + 1] - best[k]:+6.2f} {best[k + 1]:6.2f}")


def main() -> None:
    """Profile the recording functions of add, mul, exp and sigmoid."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--number", type=int, default=2000)
    options = parser.parse_args()
    array = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    a = minigrad.tensor(array, requires_grad=True)
    b = minigrad.tensor(array + 1, requires_grad=True)
    binary = stopping_copy(record._binary_recorder, BINARY_STEPS)
    unary_ = stopping_copy(record._unary_recorder, UNARY_STEPS)
    load = os.getloadavg()
    print(f"(8,) float32 leaves requiring grad; load average {load[0]:.1f} {load[1]:.1f}")
    for name, op in (("Add", arithmetic.Add), ("Mul", arithmetic.Mul)):
        profile(f"{name}._record(a, b)", binary(op), (a, b), BINARY_STEPS,
                options.rounds, options.number)
    for name, op in (("Exp", unary.Exp), ("Sigmoid", unary.Sigmoid)):
        profile(f"{name}._record(a)", unary_(op), (a,), UNARY_STEPS,
                options.rounds, options.number)


if __name__ == "__main__":
    main()
