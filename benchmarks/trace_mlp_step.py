"""Where an MLP training step spends its time, source line by source line.

Runs ``bench_nn.py``'s step (``nn`` for minigrad's ``nn + optim`` step, ``numpy`` for the
hand-written one) under ``sys.settrace`` and charges the time between two trace events to the
line that was running, in whichever function (numpy's Python wrappers included): a line's
*self* time. A line that calls numpy's C code (a matrix product, a ufunc) is charged that
call, so the array work shows as the lines that do it; lines of pure bookkeeping show as many
small entries inflated by the tracer's own cost per event (~1 µs), so read their sum against
the untraced step (``bench_nn.py``, ``ab_mlp.py``), not their size.

    python benchmarks/trace_mlp_step.py nn [--steps 50] [--min-us 5]
    python benchmarks/trace_mlp_step.py numpy

Prints the traced total per step, then the lines above ``--min-us`` µs per step: µs per step,
runs per step, file:line and the source.
"""

from __future__ import annotations

import argparse
import collections
import linecache
import os
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from bench_nn import initial_state, nn_step_factory, numpy_step_factory  # (BLAS: one thread)

import minigrad

Line = tuple[str, int]


def trace_lines(step: Callable[[], Any], steps: int) -> tuple[dict[Line, float], dict[Line, int]]:
    """Self seconds and runs of each source line over ``steps`` calls of ``step``."""
    seconds: dict[Line, float] = collections.Counter()
    runs: dict[Line, int] = collections.Counter()
    clock = time.perf_counter
    current: list[Any] = [None, 0.0]  # the line running, and when the last event came

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        now = clock()
        if current[0] is not None:
            seconds[current[0]] += now - current[1]
        if event in ("call", "line"):
            current[0] = (frame.f_code.co_filename, frame.f_lineno)
            if event == "line":
                runs[current[0]] += 1
        elif event == "return":  # back to the caller's line
            back = frame.f_back
            current[0] = None if back is None else (back.f_code.co_filename, back.f_lineno)
        current[1] = clock()
        return tracer

    for _ in range(steps):
        current[0] = None
        sys.settrace(tracer)
        try:
            step()
        finally:
            sys.settrace(None)
    return seconds, runs


def main() -> None:
    """Trace the chosen step and print its costliest lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("nn", "numpy"))
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--min-us", type=float, default=5.0, help="lines below are not listed")
    options = parser.parse_args()
    state = initial_state()
    step = nn_step_factory(minigrad, state) if options.step == "nn" else numpy_step_factory(state)
    for _ in range(5):  # warm-up: buffers, accumulators, numpy's caches
        step()
    seconds, runs = trace_lines(step, options.steps)
    print(f"{options.step}: traced total {sum(seconds.values()) / options.steps * 1e6:.0f} µs "
          "per step")
    for (path, line), total in sorted(seconds.items(), key=lambda item: -item[1]):
        per_step = total / options.steps * 1e6
        if per_step < options.min_us:
            break
        where = f"{os.path.relpath(path)[-40:]}:{line}"
        print(f"{per_step:8.1f} µs {runs[path, line] / options.steps:5.1f}x  {where:>46}  "
              f"{linecache.getline(path, line).strip()[:80]}")


if __name__ == "__main__":
    main()
