"""Instructions per step of the chain's backward, counted by valgrind: a figure load cannot move.

On the shared machine timings of the same code move by 5-50 % between runs; an A/B of two
checkouts needs a difference above that. Counting the CPU instructions of the backward alone
(``valgrind --tool=callgrind``, counting only inside ``functools.reduce``, through which this
script runs the backwards and nothing else) gives the same number on every run, so a 1 %
change shows. Instructions are not time (cache misses, numpy's kernels), so a change that pays
is then confirmed by a timing (``ab_engine.py``, ``bench_core.py``).

    python benchmarks/count_backward_instructions.py [--checkout DIR] [--backwards 20]

``--checkout``: the root of another checkout (``git archive main | tar -x -C /tmp/main``),
whose minigrad is imported instead of this one's. Needs ``valgrind`` on the PATH; takes ~40 s.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

STEPS = 100


def run_backwards(count: int) -> None:
    """Build ``count`` chains, then run their backwards inside ``functools.reduce``."""
    import numpy as np

    import minigrad

    rng = np.random.default_rng(0)
    x, w, b = (minigrad.tensor(rng.standard_normal(8).astype(np.float32)) for _ in range(3))
    w.requires_grad_(True)
    b.requires_grad_(True)

    def build() -> minigrad.Tensor:
        """The chain's forward: ``y = sigmoid(y * w + b)`` x100, summed."""
        y = x
        for _ in range(STEPS):
            y = (y * w + b).sigmoid()
        return y.sum()

    build().backward()  # a first backward, as in any run: ops name their saved values once
    roots = [build() for _ in range(count)]

    def backward(_: None, root: minigrad.Tensor) -> None:
        """One backward (the reduce's step), from fresh leaves' gradients."""
        w.grad = b.grad = None
        root.backward()

    functools.reduce(backward, roots, None)


def main() -> None:
    """Run this script under callgrind on the chosen checkout; print instructions per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--backwards", type=int, default=20)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.checkout)
        run_backwards(args.backwards)
        return
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        "--collect-atstart=no", "--toggle-collect=functools_reduce",
        sys.executable, __file__, "--child", "--checkout", args.checkout,
        "--backwards", str(args.backwards),
    ]
    # A fixed hash seed: dict layouts, and so the instructions, are the same on every run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    collected = int(re.search(r"Collected : (\d+)", output).group(1))  # type: ignore[union-attr]
    per_step = collected / (args.backwards * STEPS)
    print(f"{args.checkout}: {per_step:,.0f} instructions per chain step of backward")


if __name__ == "__main__":
    main()
