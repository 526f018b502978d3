"""Instructions per phase of a tiny MLP training step, counted by valgrind (repeatable).

The step is ``bench_nn.py``'s (``nn.Sequential(Linear, ReLU, Linear)``, ``F.cross_entropy``,
``backward``, ``optim.SGD``) at 2x4 -> 4 -> 3, where the array work is nil and what is left is
bookkeeping. One callgrind run per phase: that phase runs inside ``functools.reduce`` (which
minigrad does not call) and the others outside it, and callgrind counts only inside
``functools.reduce``: the count of one phase, the same on every run (``PYTHONHASHSEED=0``).

    python benchmarks/count_mlp_step_instructions.py [--checkout DIR] [--steps 100]

``--checkout``: the root of another checkout (``git archive main | tar -x -C /tmp/main``),
whose minigrad is imported instead of this one's; give both checkouts paths of one length
(file names are hashed into dicts). Needs ``valgrind``; takes ~1 min.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

PHASES = ("opt.zero_grad()", "model", "F.cross_entropy", "loss.backward()", "opt.step()")


def run_steps(steps: int, counted: str) -> None:
    """Run ``steps`` tiny training steps, the ``counted`` phase inside ``functools.reduce``."""
    import numpy as np

    import minigrad

    rng = np.random.default_rng(0)
    model = minigrad.nn.Sequential(
        minigrad.nn.Linear(4, 4), minigrad.nn.ReLU(), minigrad.nn.Linear(4, 3))
    optimizer = minigrad.optim.SGD(model.parameters(), lr=0.01)
    x = minigrad.tensor(rng.standard_normal((2, 4)).astype(np.float32))
    y = minigrad.tensor(rng.integers(0, 3, 2))
    cross_entropy = minigrad.nn.functional.cross_entropy
    state: dict[str, Any] = {}
    phases: dict[str, Callable[[], None]] = {
        "opt.zero_grad()": optimizer.zero_grad,
        "model": lambda: state.update(hidden=model(x)),
        "F.cross_entropy": lambda: state.update(loss=cross_entropy(state["hidden"], y)),
        "loss.backward()": lambda: state["loss"].backward(),
        "opt.step()": optimizer.step,
    }

    def counted_phase(_: None, __: None) -> None:
        phases[counted]()

    for step in range(steps + 5):  # five warm-up steps: accumulators, names, numpy's caches
        for name, phase in phases.items():
            if name == counted and step >= 5:
                functools.reduce(counted_phase, (None,), None)
            else:
                phase()
        state.clear()


def count(checkout: str, steps: int, phase: str) -> float:
    """Instructions per step of ``phase``, from one callgrind run."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        "--collect-atstart=no", "--toggle-collect=functools_reduce",
        sys.executable, __file__, "--child", "--checkout", checkout, "--steps", str(steps),
        "--phases", phase,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    collected = int(re.search(r"Collected : (\d+)", output).group(1))  # type: ignore[union-attr]
    return collected / steps


def main() -> None:
    """Count each phase of the chosen checkout's tiny step; print instructions per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--phases", default=",".join(PHASES), help="comma-separated")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.checkout)
        run_steps(args.steps, args.phases)
        return
    total = 0.0
    print(f"{args.checkout}: instructions per tiny step")
    for phase in args.phases.split(","):
        per_step = count(args.checkout, args.steps, phase)
        total += per_step
        print(f"  {phase:<18} {per_step:>12,.0f}")
    print(f"  {'sum':<18} {total:>12,.0f}")


if __name__ == "__main__":
    main()
