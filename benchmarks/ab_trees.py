"""Two whole minigrad checkouts and PyTorch in ONE process: recorded, warm and no_grad ops.

``ab_recorder.py`` swaps only the recording factories, which cannot time a change of the
node's layout, an op's declaration or forward, or a Tensor method. This script imports
checkout A's ``minigrad``, sets its modules aside, imports checkout B's, and times each
statement with A, B and PyTorch in turn, in short batches (``timeit``: gc off; the clock is
the process's CPU time, as ``bench_core.py``'s, unless ``--clock wall``), so
load changes hit all three alike; A and B take turns going first, as the first batch after
another statement's runs slower (always A first: B/A 0.91-0.98 for one tree against itself,
load 6). Each side's modules are put back in ``sys.modules`` before its batch, so a function
that imports at call time finds its own side's.

The statements are ``bench_core.py``'s per-op ones on the same inputs ((8,) float32, 8x8 for
matmul, requiring grad): "rec" records them on cold leaves (PyTorch makes and frees the
leaves' accumulators with every op; minigrad's leaves keep theirs), "warm" while a live graph
holds the accumulators (plus ``y * b``, ``y`` an op result), "ng" under ``no_grad`` (and
"ng 10x add": a ``with no_grad()`` block of ten ``a + b``, entering it counted). "chain" is
``bench_core.py``'s chain, ``y = sigmoid(y * w + b)`` x100 then ``y.sum().backward()`` (the
leaves' ``.grad`` reset first), "chain fwd" its forward alone (the graph dropped unused): the
backward is their difference. Their figures are per chain step, and a batch runs the chain
``--number`` / 100 times (at least once); like every case here, with the collector off.

Per statement: each side's minimum over the rounds (µs per op), B/A and each side over
PyTorch of the minimums, and the medians over the rounds of B/A and of B/torch taken within
each round: the figures to read on a busy machine (a ratio of two minimums pairs batches
taken at different moments; PyTorch's chain minimum moved 23-28 µs between runs). A chain
batch is preceded by one untimed chain, as ``bench_core.py`` times warm chains.

    git archive main | tar -x -C /tmp/main
    python benchmarks/ab_trees.py /tmp/main [B, default this checkout]
        [--rounds 100] [--number 200] [--ops "rec mul,warm mul,ng sum"] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import timeit
from types import ModuleType
from typing import Any

# Sets the BLAS threads to 1 before numpy loads; imports this checkout's minigrad, set aside
# below like any other side's.
import bench_core
import numpy as np

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# case -> (statement, namespace: "cold" or "warm" leaves, run under no_grad)
OPS = {
    **bench_core.OP_STATEMENTS,
    # the other reductions that share sum's path (not in bench_core's table)
    "mean": "a.mean()",
    "sum dim": "m.sum(1)",
    "mean dim": "m.mean(1)",
    "t": "m.t()",  # F.linear's weight.t(): a recorded view
    # the activations, softmax and losses of nn.functional (bench_forms.py's spellings)
    "relu": "a.relu()",
    "F.relu": "F.relu(a)",
    "clamp min": "a.clamp(min=0)",
    "F.sigmoid": "F.sigmoid(a)",
    "softmax": "F.softmax(m, dim=1)",
    "log_softmax": "F.log_softmax(m, dim=1)",
    "cross_entropy fwd": "F.cross_entropy(m, labels)",
    "linear": "F.linear(m, n, a)",
}
# ``bench_core.chain_forward`` written out (``x`` needs no gradient; ``a``, ``b`` the leaves).
CHAIN = (f"a.grad = b.grad = None\ny = x\nfor _ in range({bench_core.CHAIN_STEPS}):\n"
         " y = (y * a + b).sigmoid()")
CASES = {
    **{f"rec {op}": (statement, "cold", False) for op, statement in OPS.items()},
    **{f"warm {op}": (OPS[op], "warm", False) for op in bench_core.WARM_OPS},
    "warm y * b": ("y * b", "warm", False),
    **{f"ng {op}": (statement, "cold", True) for op, statement in OPS.items()},
    # entering no_grad counted too, once per 10 ops (the figure is per block)
    "ng 10x add": ("with no_grad():\n for _ in range(10): a + b", "cold", False),
    # optim.SGD's update of a parameter (in place, under no_grad)
    "ng sgd add_": ("a.add_(b, alpha=-0.01)", "cold", True),
    # F.cross_entropy forward and backward on (8, 8) logits (the MLP step's loss)
    "cross_entropy": ("F.cross_entropy(m, labels).backward()", "cold", False),
    "chain": (CHAIN + "\ny.sum().backward()", "cold", False),
    "chain fwd": (CHAIN, "cold", False),
}
# Ops (chain steps) per run of each case's statement: its figures are per op.
STEPS = {case: bench_core.CHAIN_STEPS if case.startswith("chain") else 1 for case in CASES}


def import_tree(root: str) -> tuple[ModuleType, dict[str, ModuleType]]:
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


def namespaces(lib: Any) -> dict[str, dict[str, Any]]:
    """The cold and warm inputs of ``lib`` (minigrad or torch), the same values everywhere."""
    arrays = bench_core.numpy_inputs()
    cold = {**bench_core.autograd_inputs(lib, arrays), "no_grad": lib.no_grad,
            "x": lib.tensor(arrays["n"][0]),  # the chain's input
            "F": lib.nn.functional, "labels": lib.tensor(np.arange(8) % 3)}
    cold["a"] * cold["b"]  # minigrad's leaves make their accumulators once, before any timing
    warm = bench_core.autograd_inputs(lib, arrays)
    warm["live"] = warm["a"] * warm["b"]  # holds the accumulators
    warm["y"] = warm["a"] * warm["b"]
    return {"cold": cold, "warm": warm}


def main() -> None:
    """Time the cases with both checkouts and PyTorch, interleaved; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="checkout A's root (the baseline)")
    parser.add_argument("b", nargs="?", default=HERE, help="checkout B's root (default: this one)")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--ops", default=",".join(CASES), help="comma-separated cases")
    parser.add_argument("--clock", choices=sorted(bench_core.CLOCKS), default="cpu",
                        help="cpu: this process's CPU time (default, as bench_core.py); wall")
    options = parser.parse_args()
    cases = options.ops.split(",")
    if unknown := set(cases) - set(CASES):
        parser.error(f"unknown cases {sorted(unknown)}; known: {', '.join(CASES)}")
    sides: dict[str, tuple[Any, dict[str, ModuleType] | None]] = {
        "A": import_tree(os.path.abspath(options.a)), "B": import_tree(os.path.abspath(options.b))}
    if bench_core.torch is not None:  # PyTorch is optional
        sides["torch"] = (bench_core.torch, None)
    timers = {}
    for side, (lib, modules) in sides.items():
        inputs = namespaces(lib)
        for case in cases:
            statement, leaves, no_grad = CASES[case]
            # A chain batch starts with an untimed chain (timeit's setup): the first chain
            # after another side's runs 10-17 % slower, more so minigrad's, and a batch is
            # two chains; bench_core.py times warm chains too.
            setup = statement if case.startswith("chain") else "pass"
            timer = timeit.Timer(statement, setup, bench_core.CLOCKS[options.clock],
                                 globals=inputs[leaves])
            timers[case, side] = (timer, modules,
                                  lib.no_grad if no_grad else contextlib.nullcontext)
    times: dict[tuple[str, str], list[float]] = {key: [] for key in timers}
    for round_ in range(options.rounds):
        # The first batch after another case's runs slower: A and B go first in turn (after
        # the previous case's PyTorch batch, which runs last).
        order = (["A", "B"] if round_ % 2 == 0 else ["B", "A"]) + list(sides)[2:]
        for case in cases:
            for side in order:
                timer, modules, mode = timers[case, side]
                if modules is not None:
                    sys.modules.update(modules)
                with mode():
                    runs = max(1, options.number // STEPS[case])
                    seconds = timer.timeit(runs) / (runs * STEPS[case])
                    times[case, side].append(seconds * 1e6)
    print(f"A = {options.a}, B = {options.b}; load average {os.getloadavg()[0]:.1f}")
    print(f"µs per op ({options.clock} clock), min over {options.rounds} interleaved rounds of "
          f"{options.number}")
    header = f"{'case':12} {'A':>7} {'B':>7} {'B/A':>6} {'B/A median':>10}"
    print(header + (f" {'torch':>7} {'A/torch':>7} {'B/torch':>7} {'B/torch median':>14}"
                    if "torch" in sides else ""))
    for case in cases:
        a, b = min(times[case, "A"]), min(times[case, "B"])
        paired = statistics.median(y / x for x, y in zip(times[case, "A"], times[case, "B"]))
        line = f"{case:12} {a:7.3f} {b:7.3f} {b / a:6.3f} {paired:10.3f}"
        if "torch" in sides:
            t = min(times[case, "torch"])
            against = statistics.median(
                y / x for x, y in zip(times[case, "torch"], times[case, "B"]))
            line += f" {t:7.3f} {a / t:7.3f} {b / t:7.3f} {against:14.3f}"
        print(line)


if __name__ == "__main__":
    main()
