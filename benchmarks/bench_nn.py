"""The cost of nn and optim: an MLP training step with modules against the same step by hand.

One training step of a 784 -> 256 -> 10 MLP on a batch of 256 (forward, cross-entropy,
backward, SGD update), written five ways and measured in one process, round after round:

- ``raw``: plain tensors, ``relu(x @ W1.t() + b1) @ W2.t() + b2``, gradients set to None and
  the update ``p.sub_(lr * p.grad)`` by hand under ``no_grad``;
- ``raw F.linear``: the same by hand but with ``F.linear`` (the op ``nn.Linear`` calls, which
  records one ``AddmmBackward0`` node instead of matmul + add);
- ``nn + optim``: ``nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)``, ``F.cross_entropy`` and
  ``optim.SGD`` (``zero_grad``, ``step``): what users write;
- ``torch nn + optim``: the same ``nn`` program on PyTorch (if installed), for scale;
- ``numpy by hand``: forward, loss, backward and update written in numpy (``bench_core.py``'s
  section 5 runs the same function).

Two figures: ``nn + optim`` / ``raw`` (target: at most 1.1), what the module and optimizer
machinery adds on top of the tensor ops; and ``nn + optim`` / ``numpy by hand`` (issue 7's
target: at most 1.15), what autograd costs against no autograd at all. All five start from the
same weights and data, and their losses after the timed steps are compared as a sanity check.

Method (as ``bench_core.py``): CPU time of this process by default (``--clock wall`` for wall
time); numpy's BLAS and PyTorch on one thread; each variant runs ``--steps`` training steps per
round, the rounds go round the variants in turn (so a busy spell of the machine hits them
alike), warm-up rounds are discarded and the figure is the median over rounds of the time per
step. Nothing is asserted. Run ``python benchmarks/bench_nn.py`` (~10 s) or ``--quick``.
"""

from __future__ import annotations

import os
import sys

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # before numpy (and its BLAS) is loaded

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
import minigrad.nn.functional as F  # noqa: E402

try:
    import torch
except ImportError:
    torch = None
else:
    torch.set_num_threads(1)

BATCH, IN, HIDDEN, OUT = 256, 784, 256, 10
LR = 0.01
TARGET = 1.1
TARGET_NUMPY = 1.15  # issue 7: the nn step at most 1.15x the hand-written numpy step
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def initial_state(seed: int = 0) -> dict[str, np.ndarray]:
    """Weights as nn.Linear draws them (U(-1/sqrt(fan_in), ..)), a batch and its labels."""
    rng = np.random.default_rng(seed)

    def uniform(shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        bound = 1 / np.sqrt(fan_in)
        return rng.uniform(-bound, bound, shape).astype(np.float32)

    return {
        "0.weight": uniform((HIDDEN, IN), IN), "0.bias": uniform((HIDDEN,), IN),
        "2.weight": uniform((OUT, HIDDEN), HIDDEN), "2.bias": uniform((OUT,), HIDDEN),
        "x": rng.standard_normal((BATCH, IN)).astype(np.float32),
        "y": rng.integers(0, OUT, BATCH),
    }


def raw_step_factory(state: dict[str, np.ndarray], use_linear: bool) -> Callable[[], float]:
    """A training step on plain minigrad tensors (the update written by hand)."""
    w1, b1, w2, b2 = (minigrad.tensor(state[k], requires_grad=True)
                      for k in ("0.weight", "0.bias", "2.weight", "2.bias"))
    x, y = minigrad.tensor(state["x"]), minigrad.tensor(state["y"])
    params = (w1, b1, w2, b2)

    def step() -> float:
        if use_linear:
            logits = F.linear(F.linear(x, w1, b1).relu(), w2, b2)
        else:
            logits = (x @ w1.t() + b1).relu() @ w2.t() + b2
        loss = F.cross_entropy(logits, y)
        for p in params:
            p.grad = None
        loss.backward()
        with minigrad.no_grad():
            for p in params:
                p.sub_(LR * p.grad)
        return loss.item()

    return step


def nn_step_factory(lib, state: dict[str, np.ndarray]) -> Callable[[], float]:
    """A training step with nn.Sequential, F.cross_entropy and optim.SGD, in ``lib``."""
    model = lib.nn.Sequential(lib.nn.Linear(IN, HIDDEN), lib.nn.ReLU(), lib.nn.Linear(HIDDEN, OUT))
    model.load_state_dict({k: lib.tensor(state[k]) for k in model.state_dict()})
    optimizer = lib.optim.SGD(model.parameters(), lr=LR)
    x, y = lib.tensor(state["x"]), lib.tensor(state["y"])
    cross_entropy = lib.nn.functional.cross_entropy

    def step() -> float:
        optimizer.zero_grad()
        loss = cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    return step


def numpy_step_factory(state: dict[str, np.ndarray]) -> Callable[[], float]:
    """The step as a numpy programmer writes it: forward, loss, backward and update by hand."""
    w1, b1, w2, b2 = (state[k].copy() for k in ("0.weight", "0.bias", "2.weight", "2.bias"))
    x, y = state["x"], state["y"]
    rows = np.arange(len(y))
    lr = np.float32(LR)

    def step() -> float:
        hidden = x @ w1.T
        hidden += b1
        np.maximum(hidden, 0, out=hidden)
        logits = hidden @ w2.T
        logits += b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = np.log(total[:, 0]).mean() - shifted[rows, y].mean()
        grad = exp / total  # d loss / d logits = (softmax - one_hot) / batch
        grad[rows, y] -= 1
        grad /= len(y)
        grad_w2 = grad.T @ hidden
        grad_b2 = grad.sum(axis=0)
        grad_hidden = grad @ w2
        grad_hidden[hidden <= 0] = 0
        grad_w1 = grad_hidden.T @ x
        grad_b1 = grad_hidden.sum(axis=0)
        for param, param_grad in ((w1, grad_w1), (b1, grad_b1), (w2, grad_w2), (b2, grad_b2)):
            param -= lr * param_grad
        return float(loss)

    return step


def measure(variants: dict[str, Callable[[], float]], steps: int, rounds: int, warmup: int,
            clock: Callable[[], float]) -> tuple[dict[str, float], dict[str, float]]:
    """Median seconds per step of each variant, and each variant's last loss."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    losses: dict[str, float] = {}
    for round_index in range(warmup + rounds):
        for name, step in variants.items():
            start = clock()
            for _ in range(steps):
                losses[name] = step()
            if round_index >= warmup:
                times[name].append((clock() - start) / steps)
    return {name: statistics.median(values) for name, values in times.items()}, losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (~3 s)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--steps", type=int, default=10, help="training steps per round")
    args = parser.parse_args()
    rounds, warmup = (5, 1) if args.quick else (21, 3)

    state = initial_state()
    variants = {
        "raw": raw_step_factory(state, use_linear=False),
        "raw F.linear": raw_step_factory(state, use_linear=True),
        "nn + optim": nn_step_factory(minigrad, state),
    }
    if torch is not None:
        variants["torch nn + optim"] = nn_step_factory(torch, state)
    variants["numpy by hand"] = numpy_step_factory(state)
    per_step, losses = measure(variants, args.steps, rounds, warmup, CLOCKS[args.clock])

    print(f"MLP {BATCH}x{IN} -> {HIDDEN} -> {OUT}, one SGD training step; {args.clock} clock, "
          f"median of {rounds} rounds x {args.steps} steps (after {warmup} warm-up rounds)")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"torch {torch.__version__ if torch is not None else 'n/a'}, one BLAS thread")
    print()
    print("| variant | ms / step | / raw | / numpy | loss after the run |")
    print("|---|---:|---:|---:|---:|")
    base, numpy_base = per_step["raw"], per_step["numpy by hand"]
    for name, seconds in per_step.items():
        print(f"| {name} | {seconds * 1e3:.2f} | {seconds / base:.3f} | "
              f"{seconds / numpy_base:.3f} | {losses[name]:.6f} |")
    print()
    for label, ratio, target in (
        ("raw", per_step["nn + optim"] / base, TARGET),
        ("numpy by hand", per_step["nn + optim"] / numpy_base, TARGET_NUMPY),
    ):
        print(f"target: nn + optim <= {target}x {label} -> {ratio:.3f}x: "
              f"{'met' if ratio <= target else 'not met'}")


if __name__ == "__main__":
    main()
