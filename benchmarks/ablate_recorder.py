"""What each remaining step of a recorded ``a + b`` / ``a * b`` costs: the function without it.

``autograd/record.py`` makes one recording function per op (``Add._record``). This script
builds copies of the factory (``_binary_recorder``) with one group of lines replaced by what
a leaner design would run instead, and times each copy against the unchanged one in one
process (gc off, wall clock, the copies in turn in short batches; each line is the minimum
over the rounds). The copies are for timing only and are NOT equivalent to the library's
function: each drops something the semantics need in some case (a view's catch-up, anomaly
mode, promotion, numpy's float warnings ...). The difference to the unchanged copy is what
that step costs today, including freeing what it made, so the lines say where the rest of a
recorded op goes and what a design that moves a step out of the per-op path would buy:

* ``checks``: the entry tests (a tensor subclass or number, the debugging switch, views,
  anomaly mode when modes are on) folded away: what is left of them once
  ``debug_switches.modes_on`` took grad mode's, anomaly mode's and the saving's tests;
* ``result tests``: the test that forward returned an array (add and mul declare that they
  keep their inputs' dtype, ``keeps_dtype``, so no dtype test is left to ablate);
* ``leaf edges``: the edge of each input read from one slot (the floor's per-tensor
  ``(node, nr)``; here ``_meta`` stands in for it) instead of ``_grad_fn`` / ``_output_nr``
  / ``_meta.accumulator``;
* ``quiet context``: the kernel called without entering the quiet context (numpy's float
  warnings not silenced: kept by every design, shown for scale).

Gone since the script was written, as main no longer has what they measured: ``kernel's
notes`` (add's ``alpha = 1`` noted by the recording function: a kernel now saves and notes
nothing) and the dtype test alone (``keeps_dtype`` above).

    python benchmarks/ablate_recorder.py [--rounds 100] [--number 2000]
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
from minigrad.ops import arithmetic  # noqa: E402

# (old lines, new lines) per step; each old text must occur in _binary_recorder's source.
CHECKS = [
    ("""        if not (
            FAST_BRANCH
            and (type(x) is _Tensor or isinstance(x, TensorBase))
            and (type(y) is _Tensor or isinstance(y, TensorBase))
        ):""", "        if type(x) is not _Tensor:"),
    ("if y_dtype is not dtype or (floats_only and dtype.kind != \"f\"):",
     "if y_dtype is not dtype:"),
    ("""            if x._base is not None or y._base is not None:
                return fallback(x, y)  # a view catches up with its base's history first
""", ""),
    ("""                if not fast and _anomaly_state.enabled:
                    return fallback(x, y)  # a forward stack to capture
""", ""),
]
# Add and Mul declare that they keep their inputs' dtype (``keeps_dtype``): the dtype test is
# gone from their path, and what is left is the array test (a 0-d computation gives a numpy
# scalar).
RESULT_TESTS = [("if keeps_dtype and type(raw) is _ndarray:", "if True:")]
LEAF_EDGES = [
    ("""        if x_node is None:
            if x_needs:
                meta = x._meta
                x_node = None if meta is None else meta.accumulator
                if x_node is None:
                    x_node = x._gradient_edge()[0]
            x_nr = 0
        else:
            x_nr = x._output_nr
        if y_node is None:
            if y_needs:
                meta = y._meta
                y_node = None if meta is None else meta.accumulator
                if y_node is None:
                    y_node = y._gradient_edge()[0]
            y_nr = 0
        else:
            y_nr = y._output_nr""", """        x_node = x._meta
        y_node = y._meta
        x_nr = y_nr = 0"""),
]
QUIET_CONTEXT = [
    ("raw = _run_quietly(quiet_kernel, x_array, y_array)\n                except",
     "raw = quiet_kernel(x_array, y_array)\n                except"),
]


def variant(replacements: list[tuple[str, str]]) -> Callable[..., Any]:
    """``_binary_recorder`` rebuilt with ``replacements`` applied, in record.py's namespace."""
    source = inspect.getsource(record._binary_recorder)
    for old, new in replacements:
        assert old in source, f"not found in _binary_recorder: {old[:60]!r}"
        source = source.replace(old, new)
    namespace = dict(vars(record))
    exec(compile("from __future__ import annotations\n" + source,  # noqa: S102
                 "<_binary_recorder, ablated>", "exec"), namespace)
    return namespace["_binary_recorder"]


def main() -> None:
    """Time the ablated copies of Add's and Mul's recording functions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--number", type=int, default=2000)
    options = parser.parse_args()
    array = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    a = minigrad.tensor(array, requires_grad=True)
    b = minigrad.tensor(array + 1, requires_grad=True)
    for leaf in (a, b):  # their accumulators, made by the first op as in a forward pass
        leaf._gradient_edge()
    load = os.getloadavg()
    print(f"(8,) float32 leaves requiring grad; load average {load[0]:.1f} {load[1]:.1f}")
    for name, op in (("Add", arithmetic.Add), ("Mul", arithmetic.Mul)):
        steps = {
            "as in the library": [],
            "checks": CHECKS,
            "result tests": RESULT_TESTS,
            "leaf edges": LEAF_EDGES,
            "all three above": CHECKS + RESULT_TESTS + LEAF_EDGES,
            "quiet context (kept by every design)": QUIET_CONTEXT,
        }
        functions = {label: variant(lines)(op) for label, lines in steps.items()}
        timers = {label: timeit.Timer("f(a, b)", globals={"f": f, "a": a, "b": b},
                                      timer=time.perf_counter)
                  for label, f in functions.items()}
        best = dict.fromkeys(timers, float("inf"))
        gc.disable()
        try:
            for _ in range(options.rounds):
                for label, timer in timers.items():
                    best[label] = min(best[label], timer.timeit(options.number) / options.number)
        finally:
            gc.enable()
        base = best["as in the library"]
        print(f"{name}._record(a, b): µs, min of {options.rounds} rounds; without the step: "
              "saved")
        for label, seconds in best.items():
            print(f"  {label:36} {seconds * 1e6:6.3f}  {(base - seconds) * 1e6:+6.3f}"
                  f"  {100 * (base - seconds) / base:+5.1f} %")


if __name__ == "__main__":
    main()
