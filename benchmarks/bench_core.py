"""Core speed and memory of minigrad against raw numpy and PyTorch, in one process and one run.

Run ``python benchmarks/bench_core.py`` (about 2 minutes), ``--quick`` (under 30 s: fewer
repeats, no 10^6-op chain) and ``--json PATH`` to also write every figure as JSON.

Method
------
* Threads: numpy's BLAS and PyTorch run on one thread (threadpoolctl if installed, else
  ``OPENBLAS/OMP/MKL_NUM_THREADS=1`` set before numpy is imported; ``torch.set_num_threads(1)``).
  ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are left as they are and reported.
* Per-op recording cost: ``timeit`` runs one statement (``a * b``) N times in a compiled loop with
  the garbage collector off; N is calibrated so one batch lasts about 20 ms (5 ms with
  ``--quick``). One batch is run and discarded first (warm-up); the figure is the median over
  the repeats of (batch time / N). Inputs are float32, shape (8,) (8x8 for matmul), requiring
  grad; the result is dropped at once, so the cost includes freeing the recorded node. The
  same statements run under ``no_grad``; numpy runs the same math without autograd.
* Chain forward+backward: 100 steps of ``y = sigmoid(y * w + b)`` then ``y.sum().backward()``,
  timed as a whole with the garbage collector on (as users run it), 3 warm-up runs, median over
  the runs, divided by 100. numpy does the same forward keeping the arrays backward needs, then
  the hand-written backward. The three gradients are compared as a sanity check.
* Linear scaling: ``y = y + b`` chains of 10^4, 10^5 and 10^6 ops, forward and backward timed
  separately (median over runs: 5, 3, 1); minigrad with the collector on and off, PyTorch on.
  Peak memory (tracemalloc, which sees numpy buffers but not PyTorch's) is measured in a
  separate untimed pass at 10^5 ops. Dropping a 10^6-node graph without backward runs in a
  child process, so a C stack overflow would be reported instead of killing this run.
* Memory: tracemalloc peak and still-held memory for 10 layers of ``(x @ W).relu()`` on 64x64
  float32, minigrad against a hand-written numpy forward and backward.

Nothing is asserted: the summary prints the issue's targets next to the figures.
"""

from __future__ import annotations

import importlib.util
import os
import sys

_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_REPORTED_VARS = _THREAD_VARS + ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
ORIGINAL_ENV = {name: os.environ.get(name) for name in _REPORTED_VARS}
HAVE_THREADPOOLCTL = importlib.util.find_spec("threadpoolctl") is not None
if not HAVE_THREADPOOLCTL:
    # Must happen before numpy (and its BLAS) is loaded.
    for _name in _THREAD_VARS:
        os.environ[_name] = "1"

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402
import tracemalloc  # noqa: E402
from collections.abc import Callable, Iterable  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import minigrad  # noqa: E402

try:
    import torch
except ImportError:  # the numpy and minigrad columns still run
    torch = None

if HAVE_THREADPOOLCTL:
    import threadpoolctl

    _LIMITS = threadpoolctl.threadpool_limits(1)  # kept alive for the whole run
if torch is not None:
    torch.set_num_threads(1)

KIB = 1024
MIB = 1024 * 1024
CHAIN_STEPS = 100
MLP_LAYERS = 10
MLP_SIZE = 64
TARGET_ADD_MUL = 0.6  # recording add/mul: at most this times PyTorch's per-op time
TARGET_CHAIN = 1.0  # chain forward+backward: at most this times PyTorch's per op
LINEAR_TOLERANCE = 1.5  # "linear": per-op time at the longest chain within 1.5x of 10^4's

# Per-op statements: the same text for minigrad and PyTorch; numpy spells out what differs.
OP_STATEMENTS = {
    "add": "a + b",
    "mul": "a * b",
    "sigmoid": "a.sigmoid()",
    "exp": "a.exp()",
    "sum": "a.sum()",
    "matmul": "m @ n",
}
NUMPY_STATEMENTS = {
    **OP_STATEMENTS,
    # minigrad's own formula (tanh form, two in-place updates), so the ratio is pure overhead.
    "sigmoid": "y = np.tanh(a * 0.5); y += 1; y *= 0.5",
    "exp": "np.exp(a)",
}


# --- settings ---------------------------------------------------------------------------------


class Settings:
    """How long to measure: the default run or ``--quick``."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.batch_seconds = 0.005 if quick else 0.02
        self.op_repeats = 7 if quick else 15
        self.chain_runs = 20 if quick else 50
        self.chain_warmup = 3
        # chain length -> timed runs
        self.lengths = {10**4: 3, 10**5: 1} if quick else {10**4: 5, 10**5: 3, 10**6: 1}
        self.memory_length = 10**5


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (< 30 s), no 10^6 chain")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--drop-graph-child", type=int, metavar="N", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


# --- environment ------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", REPO, "describe", "--always", "--dirty"],
            capture_output=True, text=True, timeout=10, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip()


def thread_settings() -> dict[str, Any]:
    settings: dict[str, Any] = {
        "method": "threadpoolctl" if HAVE_THREADPOOLCTL else "environment variables",
        "torch_num_threads": None if torch is None else torch.get_num_threads(),
    }
    for name in _THREAD_VARS:
        settings[name] = os.environ.get(name)
        settings[name + " (before)"] = ORIGINAL_ENV[name]
    if HAVE_THREADPOOLCTL:
        settings["threadpools"] = [
            f"{info['internal_api']}={info['num_threads']}"
            for info in threadpoolctl.threadpool_info()
        ]
    return settings


def environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": None if torch is None else torch.__version__,
        "minigrad": f"{minigrad.__version__} ({git_revision()})",
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "OPENBLAS_CORETYPE": ORIGINAL_ENV["OPENBLAS_CORETYPE"],
        "OPENBLAS_L2_SIZE": ORIGINAL_ENV["OPENBLAS_L2_SIZE"],
        "threads": thread_settings(),
    }


# --- printing ---------------------------------------------------------------------------------


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def print_table(headers: list[str], rows: Iterable[list[Any]]) -> None:
    cells = [headers] + [[fmt(value) for value in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for index, row in enumerate(cells):
        first = row[0].ljust(widths[0])
        rest = [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        print("  ".join([first, *rest]))
        if index == 0:
            print("  ".join("-" * width for width in widths))


def print_section(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 96 - len(title)))


def print_environment(env: dict[str, Any]) -> None:
    print_section("environment")
    for key, value in env.items():
        if key != "threads":
            print(f"{key:18} {fmt(value)}")
    for key, value in env["threads"].items():
        print(f"{'threads: ' + key:40} {fmt(value)}")


# --- inputs -----------------------------------------------------------------------------------


def numpy_inputs(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "a": rng.standard_normal(8, dtype=np.float32),
        "b": rng.standard_normal(8, dtype=np.float32),
        "m": rng.standard_normal((8, 8), dtype=np.float32),
        "n": rng.standard_normal((8, 8), dtype=np.float32),
    }


def autograd_inputs(lib: Any, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """The same values as tensors of ``lib`` (minigrad or torch) that require grad."""
    return {name: lib.tensor(array, requires_grad=True) for name, array in arrays.items()}


# --- 1. per-op recording cost -----------------------------------------------------------------


def calibrate(timer: timeit.Timer, seconds: float) -> int:
    """The smallest N in 1, 2, 5, 10, 20, ... whose batch lasts at least ``seconds``."""
    number = 1
    while True:
        for factor in (1, 2, 5):
            if timer.timeit(number * factor) >= seconds:
                return number * factor
        number *= 10


def per_op_seconds(statement: str, namespace: dict[str, Any], settings: Settings) -> float:
    """Median over repeats of (time for N runs of ``statement``) / N; gc off, as in timeit."""
    timer = timeit.Timer(statement, globals=namespace)
    number = calibrate(timer, settings.batch_seconds)  # also warms up
    return statistics.median(timer.repeat(repeat=settings.op_repeats, number=number)) / number


def per_op_library(lib: Any, statements: dict[str, str], settings: Settings) -> dict[str, float]:
    namespace = {**autograd_inputs(lib, numpy_inputs()), "np": np}
    return {op: per_op_seconds(stmt, namespace, settings) for op, stmt in statements.items()}


def per_op_library_no_grad(lib: Any, settings: Settings) -> dict[str, float]:
    with lib.no_grad():
        return per_op_library(lib, OP_STATEMENTS, settings)


def per_op_numpy(settings: Settings) -> dict[str, float]:
    namespace = {**numpy_inputs(), "np": np}
    return {op: per_op_seconds(stmt, namespace, settings) for op, stmt in NUMPY_STATEMENTS.items()}


def bench_per_op(settings: Settings) -> dict[str, dict[str, float] | None]:
    return {
        "numpy": per_op_numpy(settings),
        "minigrad": per_op_library(minigrad, OP_STATEMENTS, settings),
        "torch": None if torch is None else per_op_library(torch, OP_STATEMENTS, settings),
        "minigrad_no_grad": per_op_library_no_grad(minigrad, settings),
        "torch_no_grad": None if torch is None else per_op_library_no_grad(torch, settings),
    }


def print_per_op(results: dict[str, dict[str, float] | None]) -> None:
    print_section("1. per-op recording cost, shape (8,) float32 (matmul 8x8 @ 8x8), µs/op")

    def us(kind: str, op: str) -> float | None:
        column = results[kind]
        return None if column is None else column[op] * 1e6

    rows = []
    for op in OP_STATEMENTS:
        mg, tch, npy = us("minigrad", op), us("torch", op), us("numpy", op)
        mg_ng, tch_ng = us("minigrad_no_grad", op), us("torch_no_grad", op)
        rows.append([op, npy, mg, tch, ratio(mg, tch), ratio(mg, npy),
                     mg_ng, tch_ng, ratio(mg_ng, tch_ng)])
    print_table(["op", "numpy", "minigrad", "torch", "mg/torch", "mg/numpy",
                 "mg no_grad", "torch no_grad", "mg/torch no_grad"], rows)
    print("(median over repeats of batch time / N; gc off; grad mode on unless 'no_grad')")


# --- 2. chain forward+backward ----------------------------------------------------------------


def chain_autograd(x: Any, w: Any, b: Any, steps: int) -> None:
    """The chain for minigrad and PyTorch (same code: same API)."""
    y = x
    for _ in range(steps):
        y = (y * w + b).sigmoid()
    y.sum().backward()


def chain_numpy(x: np.ndarray, w: np.ndarray, b: np.ndarray, steps: int) -> tuple[Any, Any]:
    """The same chain by hand: forward keeps (input, output) per step, then backward."""
    kept = []
    y = x
    for _ in range(steps):
        s = np.tanh((y * w + b) * 0.5)
        s += 1
        s *= 0.5
        kept.append((y, s))
        y = s
    grad = np.ones_like(y)
    grad_w, grad_b = np.zeros_like(w), np.zeros_like(b)
    for y_in, s in reversed(kept):
        grad_z = grad * s * (1 - s)
        grad_w += grad_z * y_in
        grad_b += grad_z
        grad = grad_z * w
    return grad_w, grad_b


def time_runs(run: Callable[[], Any], runs: int, warmup: int,
              reset: Callable[[], None] = lambda: None) -> list[float]:
    """Seconds per call of ``run`` (gc on); ``reset`` runs untimed before each call."""
    times = []
    for index in range(warmup + runs):
        reset()
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        if index >= warmup:
            times.append(elapsed)
    return times


def chain_library(lib: Any, settings: Settings) -> tuple[float, list[np.ndarray]]:
    arrays = numpy_inputs()
    x = lib.tensor(arrays["n"][0])
    w, b = lib.tensor(arrays["a"], requires_grad=True), lib.tensor(arrays["b"], requires_grad=True)

    def reset() -> None:
        w.grad = None
        b.grad = None

    times = time_runs(lambda: chain_autograd(x, w, b, CHAIN_STEPS),
                      settings.chain_runs, settings.chain_warmup, reset)
    grads = [w.grad.detach().numpy(), b.grad.detach().numpy()]
    return statistics.median(times) / CHAIN_STEPS, grads


def chain_manual(settings: Settings) -> tuple[float, list[np.ndarray]]:
    arrays = numpy_inputs()
    x, w, b = arrays["n"][0].copy(), arrays["a"], arrays["b"]
    times = time_runs(lambda: chain_numpy(x, w, b, CHAIN_STEPS),
                      settings.chain_runs, settings.chain_warmup)
    return statistics.median(times) / CHAIN_STEPS, list(chain_numpy(x, w, b, CHAIN_STEPS))


def bench_chain(settings: Settings) -> dict[str, Any]:
    results: dict[str, Any] = {}
    grads: dict[str, list[np.ndarray]] = {}
    results["numpy"], grads["numpy"] = chain_manual(settings)
    results["minigrad"], grads["minigrad"] = chain_library(minigrad, settings)
    if torch is not None:
        results["torch"], grads["torch"] = chain_library(torch, settings)
    results["max_grad_difference"] = {
        name: max(float(np.max(np.abs(g - r))) for g, r in zip(grads[name], grads["numpy"]))
        for name in grads if name != "numpy"
    }
    return results


def print_chain(results: dict[str, Any]) -> None:
    print_section(f"2. chain forward+backward: {CHAIN_STEPS} x y = sigmoid(y * w + b), "
                  "(8,) float32")
    mg, tch, npy = results["minigrad"], results.get("torch"), results["numpy"]
    rows = [[name, None if value is None else value * 1e6, ratio(mg, value)]
            for name, value in (("numpy (manual)", npy), ("minigrad", mg), ("torch", tch))]
    print_table(["library", "µs per chain step", "minigrad / this"], rows)
    diffs = ", ".join(f"{k} {v:.1e}" for k, v in results["max_grad_difference"].items())
    print(f"(median of runs / {CHAIN_STEPS}; gc on; max |grad - numpy grad|: {diffs})")


# --- 3. linear scaling ------------------------------------------------------------------------


def add_chain(x: Any, b: Any, length: int) -> Any:
    y = x
    for _ in range(length):
        y = y + b
    return y


def time_add_chain(lib: Any, length: int) -> tuple[float, float]:
    """Seconds for the forward and for ``y.sum().backward()`` of one ``y = y + b`` chain."""
    x, b = lib.ones(8), lib.ones(8, requires_grad=True)
    start = time.perf_counter()
    y = add_chain(x, b, length)
    middle = time.perf_counter()
    y.sum().backward()
    end = time.perf_counter()
    return middle - start, end - middle


def scaling_point(lib: Any, length: int, runs: int, collect: bool) -> dict[str, float]:
    """Median µs per op (forward, backward) over ``runs``; ``collect``: gc on or off."""
    forward, backward = [], []
    for _ in range(runs):
        gc.collect()
        if not collect:
            gc.disable()
        try:
            fwd, bwd = time_add_chain(lib, length)
        finally:
            gc.enable()
        forward.append(fwd)
        backward.append(bwd)
    fwd_us = statistics.median(forward) / length * 1e6
    bwd_us = statistics.median(backward) / length * 1e6
    return {"forward_us": fwd_us, "backward_us": bwd_us, "total_us": fwd_us + bwd_us}


def scaling_memory(length: int) -> dict[str, float]:
    """tracemalloc peak of forward+backward of a minigrad ``y = y + b`` chain (untimed)."""
    x, b = minigrad.ones(8), minigrad.ones(8, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        y = add_chain(x, b, length)
        after_forward = tracemalloc.get_traced_memory()[0] - baseline
        y.sum().backward()
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()
    return {"length": length, "peak_bytes": peak, "graph_bytes": after_forward,
            "bytes_per_op": after_forward / length}


def drop_graph_seconds(length: int) -> float:
    """In this process: build a ``length``-node graph, then time ``del`` without backward."""
    x, b = minigrad.ones(8), minigrad.ones(8, requires_grad=True)
    gc.disable()  # building fast; dropping is refcounting, not the collector
    y = add_chain(x, b, length)
    start = time.perf_counter()
    del y
    elapsed = time.perf_counter() - start
    gc.enable()
    return elapsed


def drop_graph_in_child(length: int) -> dict[str, Any]:
    """Run ``drop_graph_seconds`` in a child process, so a crash is a result, not our end."""
    command = [sys.executable, os.path.abspath(__file__), "--drop-graph-child", str(length)]
    child = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if child.returncode != 0:
        tail = (child.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"length": length, "ok": False, "detail": f"exit code {child.returncode}: {tail}"}
    seconds = float(child.stdout.strip())
    return {"length": length, "ok": True, "seconds": seconds,
            "detail": f"completed in {seconds:.2f} s"}


def bench_scaling(settings: Settings) -> dict[str, Any]:
    points = []
    for length, runs in settings.lengths.items():
        point: dict[str, Any] = {"length": length}
        point["minigrad"] = scaling_point(minigrad, length, runs, collect=True)
        point["minigrad_gc_off"] = scaling_point(minigrad, length, runs, collect=False)
        point["torch"] = None if torch is None else scaling_point(torch, length, runs, True)
        points.append(point)
    return {
        "points": points,
        "memory": scaling_memory(settings.memory_length),
        "drop_graph": drop_graph_in_child(max(settings.lengths)),
    }


def print_scaling(results: dict[str, Any]) -> None:
    print_section("3. linear scaling: y = y + b chains, (8,) float32, µs per op (median)")
    rows = []
    for point in results["points"]:
        mg, off, tch = point["minigrad"], point["minigrad_gc_off"], point["torch"]
        rows.append([f"{point['length']:.0e}".replace("+0", ""),
                     mg["forward_us"], mg["backward_us"], mg["total_us"],
                     off["forward_us"], off["backward_us"], off["total_us"],
                     None if tch is None else tch["forward_us"],
                     None if tch is None else tch["backward_us"],
                     None if tch is None else tch["total_us"]])
    print_table(["ops", "mg fwd", "mg bwd", "mg total", "mg fwd gc-off", "mg bwd gc-off",
                 "mg total gc-off", "torch fwd", "torch bwd", "torch total"], rows)
    memory, drop = results["memory"], results["drop_graph"]
    print(f"tracemalloc, minigrad, {memory['length']:.0e} ops: graph after forward "
          f"{memory['graph_bytes'] / MIB:.1f} MiB ({memory['bytes_per_op']:.0f} B/op), "
          f"peak forward+backward {memory['peak_bytes'] / MIB:.1f} MiB")
    print(f"del of a {drop['length']:.0e}-node graph without backward (child process): "
          f"{'ok' if drop['ok'] else 'FAILED'}, {drop['detail']}")


# --- 4. memory of an MLP-like chain -----------------------------------------------------------


def mlp_arrays(seed: int = 1) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    scale = np.float32(1 / np.sqrt(MLP_SIZE))
    x = rng.standard_normal((MLP_SIZE, MLP_SIZE), dtype=np.float32)
    weights = [rng.standard_normal((MLP_SIZE, MLP_SIZE), dtype=np.float32) * scale
               for _ in range(MLP_LAYERS)]
    return x, weights


def mlp_numpy_forward(x: np.ndarray, weights: list[np.ndarray]) -> list[np.ndarray]:
    """Forward by hand, keeping every layer's input and output for backward."""
    activations = [x]
    for weight in weights:
        activations.append(np.maximum(activations[-1] @ weight, 0))
    return activations


def mlp_numpy_backward(activations: list[np.ndarray], weights: list[np.ndarray]) -> list[Any]:
    """Backward of ``sum(forward)`` by hand: the weights' gradients."""
    grad = np.ones_like(activations[-1])
    grads: list[Any] = [None] * len(weights)
    for index in reversed(range(len(weights))):
        grad = grad * (activations[index + 1] > 0)
        grads[index] = activations[index].T @ grad
        grad = grad @ weights[index].T
    return grads


def mlp_minigrad_forward(inp: Any, params: list[Any]) -> Any:
    y = inp
    for weight in params:
        y = (y @ weight).relu()
    return y


def mlp_minigrad_backward(y: Any, params: list[Any]) -> list[Any]:
    y.sum().backward()
    return [p.grad.numpy() for p in params]


def memory_profile(forward: Callable[[], Any], backward: Callable[[Any], list[Any]]) -> dict:
    """tracemalloc figures (bytes, net of the start) of ``backward(forward())``.

    after_forward: the graph or kept arrays; peak: during forward+backward; held: after backward
    with the forward's result still alive; released: after dropping it (only .grad should stay).
    """
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        state = forward()
        after_forward = tracemalloc.get_traced_memory()[0] - base
        grads = backward(state)
        gc.collect()
        held, peak = tracemalloc.get_traced_memory()
        del state
        gc.collect()
        released = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    return {"after_forward": after_forward, "peak": peak - base, "held": held - base,
            "released": released, "grads": sum(g.nbytes for g in grads)}


def bench_memory() -> dict[str, Any]:
    x, weights = mlp_arrays()
    inp = minigrad.tensor(x)
    params = [minigrad.tensor(w, requires_grad=True) for w in weights]
    return {
        "minigrad": memory_profile(lambda: mlp_minigrad_forward(inp, params),
                                   lambda y: mlp_minigrad_backward(y, params)),
        "numpy": memory_profile(lambda: mlp_numpy_forward(x, weights),
                                lambda acts: mlp_numpy_backward(acts, weights)),
        "layer_bytes": MLP_SIZE * MLP_SIZE * 4,
    }


def print_memory(results: dict[str, Any]) -> None:
    print_section(f"4. memory: {MLP_LAYERS} layers of (x @ W).relu(), {MLP_SIZE}x{MLP_SIZE} "
                  "float32 (tracemalloc, KiB)")
    mg, npy = results["minigrad"], results["numpy"]
    rows = [
        ["after forward (graph / kept activations)", mg["after_forward"], npy["after_forward"]],
        ["peak during forward+backward", mg["peak"], npy["peak"]],
        ["held after backward, output still alive", mg["held"], npy["held"]],
        ["  of which .grad of the weights", mg["grads"], npy["grads"]],
        ["  beyond .grad", mg["held"] - mg["grads"], npy["held"] - npy["grads"]],
        ["held after dropping the output", mg["released"], npy["released"]],
    ]
    print_table(["what", "minigrad", "numpy (manual)"], [
        [label, a / KIB, b / KIB] for label, a, b in rows])
    layer = results["layer_bytes"]
    print(f"(one {MLP_SIZE}x{MLP_SIZE} float32 array = {layer / KIB:.0f} KiB; a manual backward "
          f"must keep the {MLP_LAYERS} layer outputs = {MLP_LAYERS * layer / KIB:.0f} KiB; "
          "numpy keeps them until dropped, minigrad frees saved tensors in backward)")


# --- summary ----------------------------------------------------------------------------------


def status(value: float | None, limit: float) -> str:
    if value is None:
        return "not measured"
    return "met" if value <= limit else "NOT met"


def linearity(scaling: dict[str, Any], key: str) -> float | None:
    """Per-op total at the longest chain divided by that at the shortest."""
    points = scaling["points"]
    if len(points) < 2 or points[-1]["length"] < 10**6:
        return None
    return points[-1][key]["total_us"] / points[0][key]["total_us"]


def summary_rows(results: dict[str, Any]) -> list[list[Any]]:
    per_op, chain, scaling = results["per_op"], results["chain"], results["scaling"]
    rows = []
    for op in ("add", "mul"):
        torch_time = None if per_op["torch"] is None else per_op["torch"][op]
        value = ratio(per_op["minigrad"][op], torch_time)
        rows.append([f"recording {op} <= {TARGET_ADD_MUL}x PyTorch per op",
                     f"{fmt(value)}x ({per_op['minigrad'][op] * 1e6:.2f} vs "
                     f"{fmt(None if torch_time is None else torch_time * 1e6)} µs)",
                     status(value, TARGET_ADD_MUL)])
    value = ratio(chain["minigrad"], chain.get("torch"))
    rows.append([f"chain forward+backward <= {TARGET_CHAIN}x PyTorch per op",
                 f"{fmt(value)}x ({chain['minigrad'] * 1e6:.2f} vs "
                 f"{fmt(None if chain.get('torch') is None else chain['torch'] * 1e6)} µs)",
                 status(value, TARGET_CHAIN)])
    on, off = linearity(scaling, "minigrad"), linearity(scaling, "minigrad_gc_off")
    rows.append([f"10^6-op chain in linear time (per-op 10^6 / 10^4 <= {LINEAR_TOLERANCE})",
                 "n/a (--quick)" if on is None else f"{on:.2f}x gc on, {off:.2f}x gc off",
                 status(on, LINEAR_TOLERANCE)])
    drop = scaling["drop_graph"]
    rows.append([f"del of a {drop['length']:.0e}-node graph completes",
                 drop["detail"], "met" if drop["ok"] else "NOT met"])
    return rows


def print_summary(results: dict[str, Any]) -> None:
    print_section("summary: the issue's targets next to the figures (no assertions)")
    print_table(["target", "measured", "status"], summary_rows(results))


# --- main -------------------------------------------------------------------------------------


def run_all(settings: Settings) -> dict[str, Any]:
    started = time.perf_counter()
    env = environment()
    print_environment(env)
    results: dict[str, Any] = {"environment": env, "quick": settings.quick}
    results["per_op"] = bench_per_op(settings)
    print_per_op(results["per_op"])
    results["chain"] = bench_chain(settings)
    print_chain(results["chain"])
    results["scaling"] = bench_scaling(settings)
    print_scaling(results["scaling"])
    results["memory"] = bench_memory()
    print_memory(results["memory"])
    print_summary(results)
    results["seconds"] = time.perf_counter() - started
    print(f"\n(total {results['seconds']:.0f} s)")
    return results


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.drop_graph_child:
        print(drop_graph_seconds(args.drop_graph_child))
        return
    results = run_all(Settings(args.quick))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2, default=str)
        print(f"results written to {args.json}")


if __name__ == "__main__":
    main()
