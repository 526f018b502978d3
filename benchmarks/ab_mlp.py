"""Two whole minigrad checkouts in ONE process: the MLP training step, against numpy's.

``bench_nn.py``'s ``nn + optim`` step (784 -> 256 -> 10 MLP on a batch of 256: forward,
``F.cross_entropy``, backward, ``optim.SGD``) built with checkout A's ``minigrad`` and with
checkout B's (imported as ``ab_trees.py`` imports them), and the same step written by hand in
numpy (``bench_nn.numpy_step_factory``), from the same weights and data. Each round runs
``--steps`` steps of each: numpy, then A and B in turn (A first in even rounds, B first in odd
ones), timed with the process's CPU clock, so a busy spell of the shared machine hits all three
alike. Each side's modules are put back in ``sys.modules`` before its steps, so a function that
imports at call time finds its own side's.

Read the per-round ratios: the median over rounds of B/A, A/numpy and B/numpy, each taken
within one round (the machine's speed moves by up to 2x between runs; within a round it mostly
cancels). The losses after the run are printed as a check that all three compute the same thing.

    git archive main | tar -x -C /tmp/main
    python benchmarks/ab_mlp.py /tmp/main [B, default this checkout] [--rounds 60] [--steps 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType

# Sets the BLAS threads to 1 before numpy loads (through bench_core) and brings the importer.
from ab_trees import HERE, import_tree
from bench_nn import initial_state, nn_step_factory, numpy_step_factory


def main() -> None:
    """Time the three steps interleaved; print the medians and the per-round ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="checkout A's root (the baseline)")
    parser.add_argument("b", nargs="?", default=HERE, help="checkout B's root (default: this one)")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--steps", type=int, default=4, help="training steps per side and round")
    parser.add_argument("--warmup", type=int, default=3, help="rounds run first, not counted")
    options = parser.parse_args()
    state = initial_state()
    sides: dict[str, tuple[Callable[[], float], dict[str, ModuleType] | None]] = {
        "numpy": (numpy_step_factory(state), None)}
    for side, root in (("A", options.a), ("B", options.b)):
        lib, modules = import_tree(os.path.abspath(root))
        sides[side] = (nn_step_factory(lib, state), modules)
    seconds: dict[str, list[float]] = {side: [] for side in sides}
    losses: dict[str, float] = {}
    for round_ in range(options.warmup + options.rounds):
        for side in ("numpy", "A", "B") if round_ % 2 == 0 else ("numpy", "B", "A"):
            step, modules = sides[side]
            if modules is not None:
                sys.modules.update(modules)
            start = time.process_time()
            for _ in range(options.steps):
                losses[side] = step()
            if round_ >= options.warmup:
                seconds[side].append((time.process_time() - start) / options.steps)

    def ratio(top: str, bottom: str) -> float:
        return statistics.median(x / y for x, y in zip(seconds[top], seconds[bottom]))

    print(f"A = {options.a}, B = {options.b}; load average {os.getloadavg()[0]:.1f}")
    print(f"MLP step, ms per step (CPU time): median over {options.rounds} interleaved rounds of "
          f"{options.steps} steps")
    for side in sides:
        print(f"  {side:6} {statistics.median(seconds[side]) * 1e3:7.3f} ms"
              f"   loss after the run {losses[side]:.6f}")
    print(f"per-round medians: B/A {ratio('B', 'A'):.3f}   A/numpy {ratio('A', 'numpy'):.3f}"
          f"   B/numpy {ratio('B', 'numpy'):.3f}")


if __name__ == "__main__":
    main()
