"""In-process A/B of the backward engine on the chain ``y = sigmoid(y * w + b)`` x100.

Loads another version of ``minigrad/autograd/engine.py`` (e.g. main's, saved with
``git show main:minigrad/autograd/engine.py > /tmp/main_engine.py``) next to this checkout's,
and times ``backward`` of freshly built chains with each engine and with PyTorch, interleaved
in rounds, so both engines see the machine in the same state. Everything else (nodes, op
formulas, saved values) is this checkout's: only the engine differs.

    python benchmarks/ab_engine.py /tmp/main_engine.py [--runs 60] [--rounds 15]

Prints µs per chain step of backward: per engine, the minimum over rounds of the median of
``--runs`` backwards (the minimum is the least disturbed round on a shared machine).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minigrad  # noqa: E402
from minigrad.autograd import engine as this_engine  # noqa: E402

STEPS = 100


def load_engine(path: str) -> Any:
    """The engine module at ``path``, imported inside the minigrad package (its imports work)."""
    spec = importlib.util.spec_from_file_location("minigrad.autograd._other_engine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chain_builder(lib: Any) -> Callable[[], tuple[Any, Any, Any]]:
    """A function that records the chain with ``lib`` and returns (sum, w, b)."""
    rng = np.random.default_rng(0)
    x_array, w_array, b_array = (rng.standard_normal(8).astype(np.float32) for _ in range(3))
    x = lib.tensor(x_array)
    w = lib.tensor(w_array, requires_grad=True)
    b = lib.tensor(b_array, requires_grad=True)

    def build() -> tuple[Any, Any, Any]:
        y = x
        for _ in range(STEPS):
            y = (y * w + b).sigmoid()
        return y.sum(), w, b

    return build


def backward_time(build: Callable[[], tuple[Any, Any, Any]], backward: Callable[[Any], None],
                  runs: int) -> float:
    """Median µs per chain step of ``backward`` over ``runs`` freshly built chains."""
    times = []
    for _ in range(runs):
        root, w, b = build()
        w.grad = b.grad = None
        start = time.perf_counter()
        backward(root)
        times.append(time.perf_counter() - start)
    return statistics.median(times) / STEPS * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="path of the engine.py to compare with")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    other = load_engine(args.other)
    build = chain_builder(minigrad)
    contenders: dict[str, tuple[Callable[..., Any], Callable[[Any], None]]] = {
        "other": (build, other.backward),
        "this": (build, this_engine.backward),
    }
    try:
        import torch

        contenders["torch"] = (chain_builder(torch), lambda root: root.backward())
    except ImportError:
        pass
    best = {name: float("inf") for name in contenders}
    for _ in range(args.rounds):
        for name, (builder, backward) in contenders.items():
            best[name] = min(best[name], backward_time(builder, backward, args.runs))
    line = "  ".join(f"{name} {value:.2f}" for name, value in best.items())
    print(f"backward µs per chain step: {line}  | this / other {best['this'] / best['other']:.2f}")
    if "torch" in best:
        print(f"ratio to torch: other {best['other'] / best['torch']:.2f}, "
              f"this {best['this'] / best['torch']:.2f}")
    # Both engines must give the same gradients, bit for bit.
    results = []
    for backward in (other.backward, this_engine.backward):
        root, w, b = build()
        w.grad = b.grad = None
        backward(root)
        results.append((w.grad.numpy().copy(), b.grad.numpy().copy()))
    assert all(np.array_equal(p, q) for p, q in zip(*results)), "the engines' gradients differ"


if __name__ == "__main__":
    main()
