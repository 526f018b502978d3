"""The array work of sigmoid, exp, sum and mm against PyTorch's whole op: the numeric floor.

For each op, in one process (CPU time, gc off, one thread, statements interleaved round by
round, minimum over the rounds: the least disturbed figure on a shared machine):

- PyTorch's op under ``no_grad`` (the figure issue 7's no_grad target compares with);
- minigrad's forward on the arrays with the no-grad ctx (``Op.forward(NO_GRAD_CTX, ...)``: the
  formula and its Python, without recording);
- the bare numpy calls of that formula (the floor any formulation with the same values pays),
  and one numpy call for scale.

Inputs are (8,) float32 (8x8 for mm), as in ``bench_core.py``'s per-op section. Nothing is
asserted.

    python benchmarks/kernel_floors.py [--rounds N]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

from minigrad.autograd.record import NO_GRAD_CTX  # noqa: E402
from minigrad.ops import linalg, reduction, unary  # noqa: E402

try:
    import torch
except ImportError:  # the numpy and minigrad lines still run
    torch = None

# op -> [(label, statement)], the namespace below; "numpy" lines are the floor.
STEPS = {
    "sigmoid": [
        ("torch no_grad a.sigmoid()", "ta.sigmoid()"),
        ("minigrad Sigmoid.forward", "unary.Sigmoid.forward(NO_GRAD_CTX, x)"),
        ("numpy, 4 calls: 1 / (1 + exp(-x)), in place",
         "e = np.negative(x); np.exp(e, e); np.add(e, one, e); np.reciprocal(e, e)"),
    ],
    "exp": [
        ("torch no_grad a.exp()", "ta.exp()"),
        ("minigrad Exp.forward", "unary.Exp.forward(NO_GRAD_CTX, x)"),
        ("numpy, 2 calls: exp in float64, rounded", "np.exp(x, dtype=F64).astype(F32)"),
        ("(numpy's float32 exp, 1 call, ulps off)", "np.exp(x)"),
    ],
    "sum": [
        ("torch no_grad a.sum()", "ta.sum()"),
        ("minigrad Sum.forward", "reduction.Sum.forward(NO_GRAD_CTX, x)"),
        ("numpy, 1 call: np.add.reduce(out=...)", "np.add.reduce(x, None, None, out=...)"),
    ],
    "mm": [
        ("torch no_grad m @ m", "tm @ tm"),
        ("minigrad Mm.forward", "linalg.Mm.forward(NO_GRAD_CTX, m, m)"),
        ("numpy, 1 call: m.dot(m) (np.dot without its dispatch)", "m.dot(m)"),
        ("(numpy np.dot(m, m))", "np.dot(m, m)"),
        ("(numpy m @ m)", "m @ m"),
    ],
    "sigmoid backward": [
        ("torch sigmoid_backward(g, y)", "torch.ops.aten.sigmoid_backward(tg, ty)"),
        ("minigrad's formula (_sigmoid_grad)", "unary._sigmoid_grad(g, y)"),
        ("numpy, 3 calls: g * (1 - y) * y", "g * (one - y) * y"),
    ],
}


def namespace() -> dict:
    """The inputs and functions the timed statements use."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8).astype(np.float32)
    m = rng.standard_normal((8, 8)).astype(np.float32)
    g = rng.standard_normal(8).astype(np.float32)
    y = unary.Sigmoid.forward(NO_GRAD_CTX, x)
    names = {"np": np, "unary": unary, "reduction": reduction, "linalg": linalg,
             "NO_GRAD_CTX": NO_GRAD_CTX, "x": x, "m": m, "g": g, "y": y,
             "one": np.array(1.0, np.float32), "F32": np.dtype(np.float32),
             "F64": np.dtype(np.float64)}
    if torch is not None:
        torch.set_num_threads(1)
        names.update(torch=torch, ta=torch.from_numpy(x), tm=torch.from_numpy(m),
                     tg=torch.from_numpy(g), ty=torch.from_numpy(y))
    return names


def main() -> None:
    """Time each formula against PyTorch and print the floors."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of 3000 calls each")
    args = parser.parse_args()
    names = namespace()
    timers = {
        (op, label): timeit.Timer(statement, globals=names, timer=time.process_time)
        for op, lines in STEPS.items() for label, statement in lines
        if torch is not None or not label.startswith("torch")
    }
    best = dict.fromkeys(timers, float("inf"))
    gc.disable()
    for _ in range(args.rounds):  # round by round: every statement sees the same load
        for key, timer in timers.items():
            best[key] = min(best[key], timer.timeit(3000) / 3000 * 1e6)
    gc.enable()
    print(f"µs per call, min over {args.rounds} rounds (load average {os.getloadavg()[0]:.1f})")
    for op, lines in STEPS.items():
        print(op)
        for label, _ in lines:
            if (op, label) in best:
                print(f"  {label:44} {best[op, label]:6.2f}")


if __name__ == "__main__":
    main()
