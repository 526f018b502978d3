"""Bytecodes one recorded op executes, per function and per source line: seconds, not minutes.

``count_record_instructions.py`` counts CPU instructions under valgrind (~3-15 min per case
and tree on a loaded machine). Most of a recorded op's instructions outside numpy are the
recording function's bytecodes (~20 instructions each on CPython 3.11, the eval loop's own
work), so the number of bytecodes a change adds or removes on a path, and on which lines, is
a quick first check before the valgrind count: a trace of one op (``sys.settrace`` with
opcode events), after a warm-up. Bytecodes are not instructions: a ``CALL`` or a generic
``LOAD_ATTR`` (numpy's ``ndim``, ~180 instructions) weighs far more than a ``LOAD_FAST``; C
calls made from the frame (numpy's kernel, allocation, deallocation) are not seen at all.

    python benchmarks/count_record_bytecodes.py [--checkout DIR] [--lines] [CASE ...]

Cases as ``count_record_instructions.py``'s: ``add``, ``mul``, ``mul_result``, ``mul_one``,
``sigmoid``, ``exp``, ``sum`` (recorded, (8,) float32 leaves whose accumulators exist), ``matmul``
(``m @ n``, 8x8), the same with a ``no_grad_`` prefix (under ``no_grad``), or a Python
expression on ``a``, ``b``, ``c``, ``m``, ``n``
(recorded; ``no_grad_`` + expression: under ``no_grad``). ``--lines``: each function's count
per source line too.
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any


def make_step(case: str) -> tuple[Callable[[], Any], bool]:
    """The step of ``case`` (a function of no arguments) and whether it runs under no_grad."""
    import numpy as np
    from count_record_instructions import case_operands

    import minigrad

    no_grad = case.startswith("no_grad_")
    name = case.removeprefix("no_grad_")
    named = {"add": "a + b", "mul": "a * b", "mul_result": "y * b", "mul_one": "a * c",
             "sigmoid": "a.sigmoid()", "exp": "a.exp()", "sum": "a.sum()", "matmul": "m @ n"}
    namespace = {"np": np, "minigrad": minigrad, **case_operands()}
    exec(f"def step():\n    return {named.get(name, name)}\n", namespace)
    return namespace["step"], no_grad


def trace_one(step: Callable[[], Any]) -> collections.Counter[tuple[str, int | None]]:
    """Bytecodes executed by one call of ``step``, per (function name, line)."""
    counts: collections.Counter[tuple[str, int | None]] = collections.Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        """Count each opcode event by (function, line); trace every frame's opcodes."""
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts[(frame.f_code.co_name, frame.f_lineno)] += 1
        return tracer

    sys.settrace(tracer)
    try:
        step()
    finally:
        sys.settrace(None)
    return counts


def main() -> None:
    """Print the bytecodes per function (and per line with ``--lines``) of each case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=["add", "mul", "no_grad_add"])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--lines", action="store_true", help="per source line too")
    args = parser.parse_args()
    sys.path.insert(0, args.checkout)
    import minigrad

    for case in args.cases:
        step, no_grad = make_step(case)
        with minigrad.set_grad_enabled(not no_grad):
            for _ in range(100):  # warm-up: CPython 3.11 specialises after a few calls
                step()
            counts = trace_one(step)
        per_function: collections.Counter[str] = collections.Counter()
        for (function, _), count in counts.items():
            per_function[function] += count
        total = sum(per_function.values()) - per_function["step"]
        print(f"{case}: {total} bytecodes outside the step itself  "
              + ", ".join(f"{name} {count}" for name, count in per_function.most_common()))
        if args.lines:
            for (function, line), count in sorted(counts.items(),
                                                   key=lambda item: (item[0][0], item[0][1] or 0)):
                print(f"    {function:24} line {line}: {count}")


if __name__ == "__main__":
    main()
