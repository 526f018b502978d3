"""Before/after of two whole checkouts in ONE process: recorded ops, warm ops, PyTorch beside.

``ab_recorder.py`` swaps the recording factories only, which cannot time a change of the
node's layout, the ops' declarations or the saved values' readers. This script imports the
``minigrad`` package of another checkout (``git archive main | tar -x -C /tmp/main``) and
this checkout's, both in one process: the first one's modules are kept under their names
while the second is imported, and each side's modules are put back in ``sys.modules`` before
its batches (a function that imports at call time finds its own side's). The sides take
turns in short batches (gc off, wall clock); each figure is the minimum over the rounds, and
the ratio to PyTorch's figure of the same round set (cold: each op makes and frees the
leaves' accumulators in PyTorch; warm: a live graph holds them, as in
``bench_core.py``).

    python benchmarks/ab_trees.py /tmp/main [--rounds 60] [--number 2000]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def import_tree(root: str) -> tuple[Any, dict[str, Any]]:
    """``minigrad`` as the checkout at ``root`` defines it, and its modules, then unlisted."""
    for name in [n for n in sys.modules if n == "minigrad" or n.startswith("minigrad.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        import minigrad
    finally:
        sys.path.remove(root)
    modules = {n: m for n, m in sys.modules.items()
               if n == "minigrad" or n.startswith("minigrad.")}
    return minigrad, modules


def statements(lib: Any) -> dict[str, Callable[[], Any]]:
    """The timed statements on (8,) float32 leaves of ``lib`` (minigrad or torch)."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(8, dtype=np.float32) for _ in range(2)]
    a, b = (lib.tensor(x, requires_grad=True) for x in arrays)
    a * b  # minigrad's leaves make their accumulators once (PyTorch: per op, cold)
    wa, wb = (lib.tensor(x, requires_grad=True) for x in arrays)
    live = wa * wb  # noqa: F841 - holds the accumulators (PyTorch's warm case)
    y = wa * wb  # an op result: the chain's ``y * w`` (on the warm leaves: a live graph)

    def no_grad_add() -> None:
        with lib.no_grad():
            for _ in range(10):
                a + b

    return {
        "a + b": lambda: a + b,
        "a * b": lambda: a * b,
        "warm a + b": lambda: wa + wb,
        "warm a * b": lambda: wa * wb,
        "warm y * b (y an op result)": lambda: y * wb,
        "a.sigmoid()": lambda: a.sigmoid(),
        "no_grad: 10 x a + b": no_grad_add,
        "_keep": lambda: live,
    }


def main() -> None:
    """Time the other checkout's ops against this one's (and PyTorch's), interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="another checkout's root (the 'before' side)")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--number", type=int, default=2000)
    options = parser.parse_args()
    before_lib, before_modules = import_tree(os.path.abspath(options.other))
    before = statements(before_lib)
    after_lib, after_modules = import_tree(HERE)
    after = statements(after_lib)
    sides: list[tuple[dict[str, Any] | None, dict[str, Callable[[], Any]]]] = [
        (before_modules, before), (after_modules, after)]
    try:
        import torch
    except ImportError:  # pragma: no cover - PyTorch is optional
        torch = None
    if torch is not None:
        torch.set_num_threads(1)
        sides.append((None, statements(torch)))
    load = os.getloadavg()
    print(f"{options.other} (before) vs {HERE} (after); load {load[0]:.1f} {load[1]:.1f}")
    print(f"µs per call, min of {options.rounds} interleaved rounds of {options.number}; "
          "in brackets: x PyTorch")
    for label in before:
        if label.startswith("_"):
            continue
        timers = [timeit.Timer(cases[label], timer=time.perf_counter) for _, cases in sides]
        best = [float("inf")] * len(sides)
        gc.disable()
        try:
            for _ in range(options.rounds):
                for index, (modules, _) in enumerate(sides):
                    if modules is not None:
                        sys.modules.update(modules)
                    seconds = timers[index].timeit(options.number) / options.number
                    best[index] = min(best[index], seconds)
        finally:
            gc.enable()
        old, new = best[0] * 1e6, best[1] * 1e6
        line = f"  {label:24} {old:7.3f} -> {new:7.3f}  {100 * (new - old) / old:+5.1f} %"
        if len(best) > 2:
            line += f"   ({best[0] / best[2]:.2f}x -> {best[1] / best[2]:.2f}x)"
        print(line)
    sys.modules.update(after_modules)


if __name__ == "__main__":
    main()
