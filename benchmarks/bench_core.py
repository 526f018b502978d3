"""Core speed and memory of minigrad against raw numpy and PyTorch, in one process and one run.

Run ``python benchmarks/bench_core.py`` (about 2.5 minutes of CPU), ``--quick`` (under 30 s: fewer
repeats, no 10^6-op chain), ``--json PATH`` to also write every figure as JSON, and
``--clock wall`` to time with the wall clock instead of this process's CPU time.

Method
------
* Clock: ``time.process_time`` by default (CPU time of this process): on a shared machine it is
  not inflated by other processes taking the CPU. Everything measured is single-threaded, so on
  an idle machine it agrees with the wall clock (``--clock wall``, ``time.perf_counter``).
* Threads: numpy's BLAS and PyTorch run on one thread (threadpoolctl if installed, else
  ``OPENBLAS/OMP/MKL_NUM_THREADS=1`` set before numpy is imported; ``torch.set_num_threads(1)``).
  ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are left as they are and reported.
* Per-op recording cost: ``timeit`` runs one statement (``a * b``) N times in a compiled loop with
  the garbage collector off. N is calibrated so that one batch lasts about 20 ms (5 ms with
  ``--quick``); the calibration batches are the warm-up. The figure is the median over the
  repeats of (batch time / N). Inputs are float32, shape (8,) (8x8 for matmul), requiring
  grad; the result is dropped at once, so the figure includes freeing what was recorded. The
  libraries are measured op by op, back to back, so the ratios see the same machine state.
  "warm" repeats add and mul while a live graph holds the inputs' gradient accumulators (as
  inside a forward pass); otherwise PyTorch makes and frees a leaf's accumulator with every op
  (minigrad's leaves keep theirs).
* Chain forward+backward: 100 steps of ``y = sigmoid(y * w + b)`` then ``y.sum().backward()``,
  forward and backward timed separately with the garbage collector on (as users run it). The
  libraries take turns, round by round (3 warm-up rounds), each running 3 chains of which the
  first is untimed (it follows another library's); the figures are medians over the rounds,
  divided by 100, and the ratios medians of the per-round ratios. numpy does the same forward,
  keeping the arrays backward needs, then the hand-written backward. The three libraries'
  gradients are compared as a sanity check.
* Linear scaling: ``y = y + b`` chains of 10^4, 10^5 and 10^6 ops, forward and backward timed
  separately (medians over 5, 3 and 3 rounds; in each round minigrad with the collector on,
  minigrad with it off and PyTorch with it on run one chain each, in turn); the collector's
  cost is the difference of minigrad's two columns (it grows with the number of live objects).
  The 10^6 forward ratio is the median of the per-round ratios. Untimed: the tracemalloc peak
  at 10^5 ops (10^4 with ``--quick``; tracemalloc sees numpy's buffers but not PyTorch's) and
  the GC-tracked objects the graph keeps per op.
  Dropping a 10^6-node graph (``y = y * b``, which saves tensors) without backward runs in a
  child process, so a C stack overflow would be reported instead of ending this run.
* Memory: tracemalloc figures for 10 layers of ``(x @ W).relu()`` on 64x64 float32, minigrad
  against a hand-written numpy forward and backward.
* MLP training step: 256x784 -> 256 -> 10 (forward, cross-entropy, backward, SGD update) with
  ``nn.Sequential``, ``F.cross_entropy`` and ``optim.SGD`` in minigrad and PyTorch, against the
  same step written by hand in numpy; rounds go round the three in turn, median per step;
  the ratios are medians of the per-round ratios (see ``bench_training``).

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
import contextlib  # noqa: E402
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
# Issue 7's targets, as ratios to PyTorch measured in the same run (printed, never asserted).
TARGET_ADD_MUL = 0.7  # recording add/mul
TARGET_WARM = 0.9  # add/mul while a live graph keeps the accumulators alive
TARGET_OTHER_OPS = 1.2  # recording sigmoid, exp, sum, matmul
TARGET_NO_GRAD = 1.0  # every op under no_grad, against PyTorch's no_grad
TARGET_CHAIN = 0.8  # chain forward+backward
TARGET_TRACKED = 2.0  # GC-tracked objects a y = y + b graph keeps per node
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
    # numpy has no sigmoid: PyTorch's formula 1 / (1 + exp(-x)) by hand, as a numpy user writes
    # it (four numpy calls; minigrad's kernel is SciPy's expit, the formula as one ufunc).
    "sigmoid": "e = np.exp(-a); e += 1; 1 / e",
    "exp": "np.exp(a)",
}


# --- settings ---------------------------------------------------------------------------------

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


class Settings:
    """How long to measure (the default run or ``--quick``) and with which clock."""

    def __init__(self, quick: bool, clock: str = "cpu") -> None:
        self.quick = quick
        self.clock_name = clock
        self.clock = CLOCKS[clock]
        self.batch_seconds = 0.005 if quick else 0.02
        self.op_repeats = 7 if quick else 15
        self.chain_runs = 20 if quick else 50
        self.chain_warmup = 3
        # chain length -> timed runs
        self.lengths = {10**4: 3, 10**5: 1} if quick else {10**4: 5, 10**5: 3, 10**6: 3}
        self.memory_length = 10**4 if quick else 10**5  # tracemalloc makes this slow
        self.tracked_length = 10**4
        self.drop_length = 10**5 if quick else 10**6


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (< 30 s), no 10^6 chain")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: this process's CPU time (default); wall: the wall clock")
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


def load_average() -> str:
    try:
        return " ".join(f"{load:.2f}" for load in os.getloadavg())
    except OSError:
        return "unknown"


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


def environment(settings: Settings) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": None if torch is None else torch.__version__,
        "minigrad": f"{minigrad.__version__} (git {git_revision()})",
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "load average": load_average(),
        "clock": f"{settings.clock_name} ({settings.clock.__name__})",
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


def times(value: float | None) -> str:
    """A ratio as ``2.31x`` (or n/a)."""
    return "n/a" if value is None else f"{value:.2f}x"


def micro(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1e6


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

# column -> (library name, grad mode on, inputs' accumulators kept alive by a live graph)
PER_OP_COLUMNS = {
    "numpy": ("numpy", False, False),
    "minigrad": ("minigrad", True, False),
    "torch": ("torch", True, False),
    "minigrad_no_grad": ("minigrad", False, False),
    "torch_no_grad": ("torch", False, False),
    "minigrad_warm": ("minigrad", True, True),
    "torch_warm": ("torch", True, True),
}
WARM_OPS = ("add", "mul")


def calibrate(timer: timeit.Timer, seconds: float) -> int:
    """The smallest N in 1, 2, 5, 10, 20, ... whose batch lasts at least ``seconds``.

    After one untimed run: a first call's one-off costs (SciPy imported by the first sigmoid,
    numpy's first use of a loop) would otherwise make N = 1, and a batch of one call measures
    the clock's own overhead.
    """
    timer.timeit(1)
    number = 1
    while True:
        for factor in (1, 2, 5):
            if timer.timeit(number * factor) >= seconds:
                return number * factor
        number *= 10


def per_op_namespaces() -> dict[str, dict[str, Any]]:
    """The inputs each column's statements see (the same values everywhere)."""
    arrays = numpy_inputs()
    namespaces = {"numpy": {**arrays, "np": np}}
    for name, lib in (("minigrad", minigrad), ("torch", torch)):
        if lib is None:
            continue
        namespaces[name] = autograd_inputs(lib, arrays)
        warm = autograd_inputs(lib, arrays)  # other tensors: their accumulators stay alive
        namespaces[name + "_warm"] = {**warm, "live": warm["a"] * warm["b"]}
    return namespaces


def grad_mode_of(column: str) -> contextlib.AbstractContextManager[Any]:
    library, grad_on, _ = PER_OP_COLUMNS[column]
    if grad_on or library == "numpy":
        return contextlib.nullcontext()
    return (minigrad if library == "minigrad" else torch).no_grad()


def column_timer(column: str, op: str, namespaces: dict[str, Any],
                 settings: Settings) -> timeit.Timer | None:
    library, _, warm = PER_OP_COLUMNS[column]
    namespace = namespaces.get(library + "_warm" if warm else library)
    if namespace is None:
        return None  # PyTorch is not installed
    statement = (NUMPY_STATEMENTS if library == "numpy" else OP_STATEMENTS)[op]
    return timeit.Timer(statement, timer=settings.clock, globals=namespace)


def time_op(op: str, namespaces: dict[str, Any], settings: Settings) -> dict[str, float | None]:
    """Seconds per run of ``op`` in every column: the repeats go round the columns in turn,
    so a slow spell of the machine touches all of them alike; median per column."""
    columns = [column for column, (_, _, warm) in PER_OP_COLUMNS.items()
               if op in WARM_OPS or not warm]
    timers = {column: column_timer(column, op, namespaces, settings) for column in columns}
    return time_round_robin(timers, grad_mode_of, settings)


def time_round_robin(timers: dict[str, timeit.Timer | None],
                     mode_of: Callable[[str], contextlib.AbstractContextManager[Any]],
                     settings: Settings) -> dict[str, float | None]:
    """Seconds per run of each column's timer (None: not measured), median over the repeats.

    Each timer is calibrated first (also its warm-up), then the repeats go round the columns
    in turn, each inside ``mode_of(column)`` (its grad mode).
    """
    numbers = {}
    for column, timer in timers.items():
        if timer is not None:
            with mode_of(column):
                numbers[column] = calibrate(timer, settings.batch_seconds)
    samples: dict[str, list[float]] = {column: [] for column in numbers}
    for _ in range(settings.op_repeats):
        for column, number in numbers.items():
            with mode_of(column):
                samples[column].append(timers[column].timeit(number) / number)
    return {column: statistics.median(samples[column]) if column in samples else None
            for column in timers}


def bench_per_op(settings: Settings) -> dict[str, dict[str, float | None]]:
    namespaces = per_op_namespaces()
    results: dict[str, dict[str, float | None]] = {column: {} for column in PER_OP_COLUMNS}
    for op in OP_STATEMENTS:
        for column, seconds in time_op(op, namespaces, settings).items():
            results[column][op] = seconds
    return results


def print_per_op(results: dict[str, dict[str, float | None]]) -> None:
    print_section("1. per-op recording cost, shape (8,) float32 (matmul 8x8 @ 8x8), µs/op")

    def us(column: str, op: str) -> float | None:
        return micro(results[column].get(op))

    rows = []
    for op in OP_STATEMENTS:
        mg, tch, npy = us("minigrad", op), us("torch", op), us("numpy", op)
        mg_ng, tch_ng = us("minigrad_no_grad", op), us("torch_no_grad", op)
        rows.append([op, npy, mg, tch, ratio(mg, tch), ratio(mg, npy),
                     mg_ng, tch_ng, ratio(mg_ng, tch_ng)])
    print_table(["op", "numpy", "minigrad", "torch", "mg/torch", "mg/numpy",
                 "mg no_grad", "torch no_grad", "mg/torch no_grad"], rows)
    print("(median over repeats of batch time / N; gc off; inputs require grad; result dropped)")
    rows = [[op, us("minigrad_warm", op), us("torch_warm", op),
             ratio(us("minigrad_warm", op), us("torch_warm", op))] for op in WARM_OPS]
    print("warm: the same with the inputs' gradient accumulators kept alive by a live graph")
    print_table(["op", "minigrad warm", "torch warm", "mg/torch warm"], rows)


# --- 2. chain forward+backward ----------------------------------------------------------------


def chain_forward(x: Any, w: Any, b: Any, steps: int) -> Any:
    """The chain for minigrad and PyTorch (same code: same API)."""
    y = x
    for _ in range(steps):
        y = (y * w + b).sigmoid()
    return y


def chain_backward(y: Any) -> None:
    y.sum().backward()


def chain_numpy_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray,
                        steps: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The same chain by hand, keeping (input, output) of each step for backward."""
    kept = []
    y = x
    for _ in range(steps):
        s = np.exp(-(y * w + b))
        s += 1
        s = 1 / s
        kept.append((y, s))
        y = s
    return kept


def chain_numpy_backward(kept: list[tuple[np.ndarray, np.ndarray]],
                         w: np.ndarray) -> list[np.ndarray]:
    """Gradients of ``sum(y)`` with respect to w and b, by hand."""
    grad = np.ones_like(kept[-1][1])
    grad_w, grad_b = np.zeros_like(w), np.zeros_like(w)
    for y_in, s in reversed(kept):
        grad_z = grad * (1 - s) * s
        grad_w += grad_z * y_in
        grad_b += grad_z
        grad = grad_z * w
    return [grad_w, grad_b]


# Chains each library runs per round: the first untimed (it follows another library's, with
# colder caches: measured 10-17 % slower for both, more for minigrad), the others timed.
CHAIN_PER_ROUND = 3


def chain_runner(forward: Callable[[], Any], backward: Callable[[Any], Any],
                 reset: Callable[[], None], clock: Callable[[], float]) -> Callable[[], Any]:
    """A function running one chain (``reset`` untimed, then ``backward(forward())``, gc on),
    returning (forward seconds, backward seconds, what backward returned)."""

    def run() -> tuple[float, float, Any]:
        reset()
        start = clock()
        state = forward()
        middle = clock()
        result = backward(state)
        end = clock()
        del state  # (untimed: dropping the used graph)
        return middle - start, end - middle, result

    return run


def library_chain(lib: Any, clock: Callable[[], float]) -> tuple[Callable[[], Any], Any, Any]:
    """The chain of minigrad or PyTorch, and its two leaves (w, b)."""
    arrays = numpy_inputs()
    x = lib.tensor(arrays["n"][0])
    w, b = lib.tensor(arrays["a"], requires_grad=True), lib.tensor(arrays["b"], requires_grad=True)

    def reset() -> None:
        w.grad = None
        b.grad = None

    return (chain_runner(lambda: chain_forward(x, w, b, CHAIN_STEPS), chain_backward, reset,
                         clock), w, b)


def bench_chain(settings: Settings) -> dict[str, Any]:
    """Per chain step: forward, backward and both, and minigrad's ratio to each library.

    The libraries take turns, round by round (``CHAIN_PER_ROUND`` chains each, the first
    untimed), so a change of the machine's load hits all of them alike: timed in blocks (all
    numpy, then all minigrad, then all PyTorch), the ratio moved with the load between the
    blocks. The figures are medians over the rounds of each round's mean, and the ratios
    medians of the per-round ratios (as ``bench_training`` takes them); the clock is the
    process's CPU time (``--clock``), the collector is on, as users run it.
    """
    arrays = numpy_inputs()
    x, w_np, b_np = arrays["n"][0].copy(), arrays["a"], arrays["b"]
    runners = {"numpy": chain_runner(lambda: chain_numpy_forward(x, w_np, b_np, CHAIN_STEPS),
                                     lambda kept: chain_numpy_backward(kept, w_np),
                                     lambda: None, settings.clock)}
    leaves = {}
    libraries = [("minigrad", minigrad)] + ([("torch", torch)] if torch is not None else [])
    for name, lib in libraries:
        runners[name], *leaves[name] = library_chain(lib, settings.clock)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
    grads: dict[str, list[np.ndarray]] = {}
    for round_index in range(settings.chain_warmup + settings.chain_runs):
        for name, run in runners.items():
            forward = backward = 0.0
            for index in range(CHAIN_PER_ROUND):
                seconds_forward, seconds_backward, result = run()
                if index:
                    forward += seconds_forward
                    backward += seconds_backward
            if round_index >= settings.chain_warmup:
                timed = (CHAIN_PER_ROUND - 1) * CHAIN_STEPS
                samples[name].append((forward / timed, backward / timed))
            if name == "numpy":
                grads[name] = result
    for name, (w, b) in leaves.items():
        grads[name] = [w.grad.detach().numpy(), b.grad.detach().numpy()]
    results: dict[str, Any] = {}
    totals = {name: [f + b for f, b in values] for name, values in samples.items()}
    for name, values in samples.items():
        results[name] = {
            "forward": statistics.median(f for f, _ in values),
            "backward": statistics.median(b for _, b in values),
            "total": statistics.median(totals[name]),
            # minigrad's total over this library's, round by round
            "minigrad_ratio": statistics.median(
                m / t for m, t in zip(totals["minigrad"], totals[name])),
        }
    results["max_grad_difference"] = {
        name: max(float(np.max(np.abs(g - r))) for g, r in zip(grads[name], grads["numpy"]))
        for name in grads if name != "numpy"
    }
    return results


def print_chain(results: dict[str, Any]) -> None:
    print_section(f"2. chain forward+backward: {CHAIN_STEPS} x y = sigmoid(y * w + b), "
                  "(8,) float32, µs per chain step")
    rows = []
    for name, key in (("numpy (manual)", "numpy"), ("minigrad", "minigrad"), ("torch", "torch")):
        row = results.get(key)
        if row is None:
            rows.append([name, None, None, None, None])
            continue
        rows.append([name, micro(row["forward"]), micro(row["backward"]), micro(row["total"]),
                     row["minigrad_ratio"]])
    print_table(["library", "forward", "backward", "forward+backward", "minigrad / this"], rows)
    diffs = ", ".join(f"{k} {v:.1e}" for k, v in results["max_grad_difference"].items())
    print(f"(medians over rounds, the libraries taking turns; 'minigrad / this': median of the "
          f"per-round ratios; CPU time, gc on; max |grad - numpy's grad|: {diffs})")


# --- 3. linear scaling ------------------------------------------------------------------------


def add_chain(x: Any, b: Any, length: int) -> Any:
    y = x
    for _ in range(length):
        y = y + b
    return y


def mul_chain(x: Any, b: Any, length: int) -> Any:
    y = x
    for _ in range(length):
        y = y * b  # Mul saves both operands: the graph also holds saved tensors
    return y


def time_add_chain(lib: Any, length: int, clock: Callable[[], float]) -> tuple[float, float]:
    """Seconds for the forward and for ``y.sum().backward()`` of one ``y = y + b`` chain."""
    x, b = lib.ones(8), lib.ones(8, requires_grad=True)
    start = clock()
    y = add_chain(x, b, length)
    middle = clock()
    y.sum().backward()
    end = clock()
    return middle - start, end - middle


def time_scaling_run(lib: Any, length: int, collect: bool,
                     settings: Settings) -> tuple[float, float]:
    """µs per op (forward, backward) of one chain; ``collect``: gc on or off."""
    gc.collect()
    if not collect:
        gc.disable()
    try:
        forward, backward = time_add_chain(lib, length, settings.clock)
    finally:
        gc.enable()
    return forward / length * 1e6, backward / length * 1e6


def scaling_point(length: int, runs: int, settings: Settings) -> dict[str, Any]:
    """Medians over ``runs`` rounds; in each round every column runs once, in turn.

    Columns: minigrad with the collector on, minigrad with it off, PyTorch (collector on). The
    forward ratio to PyTorch is the median of the per-round ratios, so a slow moment of the
    machine falls on both libraries of one round rather than on one library's only run.
    """
    columns = {"minigrad": (minigrad, True), "minigrad_gc_off": (minigrad, False)}
    if torch is not None:
        columns["torch"] = (torch, True)
    runs_us: dict[str, list[tuple[float, float]]] = {name: [] for name in columns}
    for _ in range(runs):
        for name, (lib, collect) in columns.items():
            runs_us[name].append(time_scaling_run(lib, length, collect, settings))
    point: dict[str, Any] = {"length": length, "runs": runs, "torch": None}
    for name, measured in runs_us.items():
        forward = statistics.median(fwd for fwd, _ in measured)
        backward = statistics.median(bwd for _, bwd in measured)
        point[name] = {"forward_us": forward, "backward_us": backward,
                       "total_us": forward + backward}
    if torch is not None:
        point["forward_ratio"] = statistics.median(
            mg[0] / tch[0] for mg, tch in zip(runs_us["minigrad"], runs_us["torch"]))
    return point


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


def tracked_objects_per_op(length: int) -> float:
    """GC-tracked objects a ``y = y + b`` graph keeps alive per op (the collector's workload)."""
    x, b = minigrad.ones(8), minigrad.ones(8, requires_grad=True)
    gc.collect()
    before = len(gc.get_objects())
    y = add_chain(x, b, length)
    gc.collect()  # also untracks tuples that hold only atoms
    kept = len(gc.get_objects()) - before
    del y
    return kept / length


def drop_graph_seconds(length: int) -> float:
    """In this process: build a ``length``-node graph, then time ``del`` without backward."""
    x, b = minigrad.ones(8), minigrad.ones(8, requires_grad=True)
    gc.disable()  # building fast; dropping is refcounting, not the collector
    y = mul_chain(x, b, length)
    start = time.perf_counter()
    del y
    elapsed = time.perf_counter() - start
    gc.enable()
    return elapsed


def drop_graph_in_child(length: int) -> dict[str, Any]:
    """Run ``drop_graph_seconds`` in a child process, so a crash is a result, not our end."""
    command = [sys.executable, os.path.abspath(__file__), "--drop-graph-child", str(length)]
    child = subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)
    if child.returncode != 0:
        tail = (child.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"length": length, "ok": False, "detail": f"exit code {child.returncode}: {tail}"}
    seconds = float(child.stdout.strip())
    return {"length": length, "ok": True, "seconds": seconds,
            "detail": f"completed in {seconds:.2f} s (wall)"}


def bench_scaling(settings: Settings) -> dict[str, Any]:
    """Section 3: the chains of each length, then the memory, tracked-object and drop figures."""
    return {
        "points": [scaling_point(length, runs, settings)
                   for length, runs in settings.lengths.items()],
        "memory": scaling_memory(settings.memory_length),
        "tracked_objects_per_op": tracked_objects_per_op(settings.tracked_length),
        "drop_graph": drop_graph_in_child(settings.drop_length),
    }


def print_scaling(results: dict[str, Any]) -> None:
    print_section("3. linear scaling: y = y + b chains, (8,) float32, µs per op (median)")
    rows = []
    for point in results["points"]:
        mg, off, tch = point["minigrad"], point["minigrad_gc_off"], point["torch"] or {}
        rows.append([f"10^{len(str(point['length'])) - 1}",
                     mg["forward_us"], mg["backward_us"], mg["total_us"],
                     off["forward_us"], off["backward_us"], off["total_us"],
                     tch.get("forward_us"), tch.get("backward_us"), tch.get("total_us")])
    print_table(["ops", "mg fwd", "mg bwd", "mg total", "gc-off fwd", "gc-off bwd",
                 "gc-off total", "torch fwd", "torch bwd", "torch total"], rows)
    memory, drop = results["memory"], results["drop_graph"]
    print(f"minigrad at 10^{len(str(memory['length'])) - 1} ops (tracemalloc): graph after forward "
          f"{memory['graph_bytes'] / MIB:.1f} MiB ({memory['bytes_per_op']:.0f} B/op), "
          f"peak forward+backward {memory['peak_bytes'] / MIB:.1f} MiB; "
          f"{results['tracked_objects_per_op']:.2f} GC-tracked objects kept per op")
    print(f"del of a 10^{len(str(drop['length'])) - 1}-node y = y * b graph without backward "
          f"(child process): {'ok' if drop['ok'] else 'FAILED'}, {drop['detail']}")


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


# --- 5. an MLP training step against hand-written numpy -----------------------------------------

# The MLP step is bench_nn.py's problem (same sizes, weights, batch and library step).
from bench_nn import BATCH as TRAIN_BATCH  # noqa: E402
from bench_nn import HIDDEN as TRAIN_HIDDEN  # noqa: E402
from bench_nn import IN as TRAIN_IN  # noqa: E402
from bench_nn import OUT as TRAIN_OUT  # noqa: E402
from bench_nn import initial_state as train_state  # noqa: E402
from bench_nn import nn_step_factory as library_train_step_factory  # noqa: E402
from bench_nn import numpy_step_factory as numpy_train_step_factory  # noqa: E402

TARGET_TRAIN = 1.15  # minigrad's step at most 1.15x the hand-written numpy step


def bench_training(settings: Settings) -> dict[str, Any]:
    """ms per training step of each library, rounds going round the libraries in turn.

    The ratios to numpy are the medians over rounds of the ratio within each round, as
    ``ab_mlp.py`` takes them: the machine's speed drifts through a run (numpy's step moved
    from 3.7 to 4.5 ms within one 40 s run, load ~1.5), and a ratio of two medians mixes
    rounds taken at different speeds. Measured against each other in one process (12
    alternations, load 2.9), ``mg/numpy`` read 1.19-1.47 (stdev 0.078) with the former 7
    rounds and a ratio of medians, 1.16-1.32 (stdev 0.041) with 30 rounds and per-round
    ratios. PyTorch's step in the round does not move minigrad's ratio (rounds of numpy,
    minigrad, torch against numpy, minigrad alone, in blocks: 1.179 against 1.230, load 4.4;
    the first step after another library's is ~0.5 ms slower for all three, the same
    absolute cost for each), so it stays in.
    """
    state = train_state()
    steps = {"numpy": numpy_train_step_factory(state),
             "minigrad": library_train_step_factory(minigrad, state)}
    if torch is not None:
        steps["torch"] = library_train_step_factory(torch, state)
    rounds, per_round, warmup = (30, 3, 2) if settings.quick else (60, 5, 3)
    samples: dict[str, list[float]] = {name: [] for name in steps}
    losses: dict[str, float] = {}
    for round_index in range(warmup + rounds):
        for name, step in steps.items():
            start = settings.clock()
            for _ in range(per_round):
                losses[name] = step()
            if round_index >= warmup:
                samples[name].append((settings.clock() - start) / per_round)
    ratios = {name: statistics.median(x / y for x, y in zip(values, samples["numpy"]))
              for name, values in samples.items()}
    return {"ms": {name: statistics.median(values) * 1e3 for name, values in samples.items()},
            "per_round_ratio": ratios, "losses": losses}


def print_training(results: dict[str, Any]) -> None:
    print_section(f"5. MLP training step {TRAIN_BATCH}x{TRAIN_IN} -> {TRAIN_HIDDEN} -> "
                  f"{TRAIN_OUT} (forward, cross-entropy, backward, SGD), ms per step")
    ms = results["ms"]
    print_table(["library", "ms / step", "/ numpy", "loss after the run"], [
        [name, value, times(results["per_round_ratio"][name]),
         f"{results['losses'][name]:.6f}"]
        for name, value in ms.items()])
    print("(median over rounds; '/ numpy': median of the per-round ratios; numpy: forward, "
          "loss, backward and update written by hand; minigrad and torch: nn.Sequential, "
          "F.cross_entropy, optim.SGD)")


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


def per_op_target_row(per_op: dict[str, dict[str, float | None]], op: str, column: str,
                      limit: float) -> list[Any]:
    """``column``: "" (recording), "_warm" or "_no_grad", against the same torch column."""
    mg = micro(per_op["minigrad" + column].get(op))
    tch = micro(per_op["torch" + column].get(op))
    value = ratio(mg, tch)
    label = {"": "recording", "_warm": "warm", "_no_grad": "no_grad"}[column]
    return [f"{label} {op} <= {limit}x PyTorch", f"{times(value)} ({fmt(mg)} vs {fmt(tch)} µs)",
            status(value, limit)]


def chain_target_row(chain: dict[str, Any]) -> list[Any]:
    mg = chain["minigrad"]["total"]
    tch = None if chain.get("torch") is None else chain["torch"]["total"]
    value = None if tch is None else chain["torch"]["minigrad_ratio"]
    return [f"chain forward+backward <= {TARGET_CHAIN}x PyTorch per op",
            f"{times(value)} ({fmt(micro(mg))} vs {fmt(micro(tch))} µs per step)",
            status(value, TARGET_CHAIN)]


def longest_forward_row(scaling: dict[str, Any]) -> list[Any]:
    point = scaling["points"][-1]
    mg = point["minigrad"]["forward_us"]
    tch = None if point["torch"] is None else point["torch"]["forward_us"]
    value = point.get("forward_ratio")
    return [f"10^{len(str(point['length'])) - 1}-op chain forward <= PyTorch's",
            f"{times(value)} ({fmt(mg)} vs {fmt(tch)} µs/op)", status(value, 1.0)]


def tracked_target_row(scaling: dict[str, Any]) -> list[Any]:
    value = round(scaling["tracked_objects_per_op"], 2)  # the counting's own objects: noise
    return [f"GC-tracked objects per node <= {TARGET_TRACKED:.0f}", f"{value:.2f}",
            status(value, TARGET_TRACKED)]


def linear_target_row(scaling: dict[str, Any]) -> list[Any]:
    on, off = linearity(scaling, "minigrad"), linearity(scaling, "minigrad_gc_off")
    measured = "n/a (--quick)" if on is None else f"{times(on)} gc on, {times(off)} gc off"
    return [f"10^6-op chain in linear time (per-op 10^6 / 10^4 <= {LINEAR_TOLERANCE})",
            measured, status(on, LINEAR_TOLERANCE)]


def drop_target_row(scaling: dict[str, Any]) -> list[Any]:
    drop = scaling["drop_graph"]
    return [f"del of a 10^{len(str(drop['length'])) - 1}-node graph completes", drop["detail"],
            "met" if drop["ok"] else "NOT met"]


def training_target_row(training: dict[str, Any]) -> list[Any]:
    ms, ratios = training["ms"], training["per_round_ratio"]
    value = ratios["minigrad"]
    torch_ratio = ratios.get("torch")
    return [f"MLP step <= {TARGET_TRAIN}x hand-written numpy",
            f"{times(value)} ({fmt(ms['minigrad'])} vs {fmt(ms['numpy'])} ms; "
            f"torch {times(torch_ratio)})", status(value, TARGET_TRAIN)]


def summary_rows(results: dict[str, Any]) -> list[list[Any]]:
    per_op, scaling = results["per_op"], results["scaling"]
    rows = [per_op_target_row(per_op, op, "", TARGET_ADD_MUL) for op in ("add", "mul")]
    rows += [per_op_target_row(per_op, op, "_warm", TARGET_WARM) for op in WARM_OPS]
    rows += [per_op_target_row(per_op, op, "", TARGET_OTHER_OPS)
             for op in OP_STATEMENTS if op not in ("add", "mul")]
    rows += [per_op_target_row(per_op, op, "_no_grad", TARGET_NO_GRAD) for op in OP_STATEMENTS]
    rows += [chain_target_row(results["chain"]), longest_forward_row(scaling),
             linear_target_row(scaling), tracked_target_row(scaling), drop_target_row(scaling),
             training_target_row(results["training"])]
    return rows


def print_summary(rows: list[list[Any]]) -> None:
    print_section("summary: the issue's targets next to the figures (no assertions)")
    print_table(["target", "measured", "status"], rows)


# --- main -------------------------------------------------------------------------------------


def run_all(settings: Settings) -> dict[str, Any]:
    started = time.perf_counter()
    env = environment(settings)
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
    results["training"] = bench_training(settings)
    print_training(results["training"])
    results["summary"] = summary_rows(results)
    print_summary(results["summary"])
    results["seconds"] = time.perf_counter() - started
    results["load_average_at_end"] = load_average()
    print(f"\n(total {results['seconds']:.0f} s wall; load average at the end: "
          f"{results['load_average_at_end']})")
    return results


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the sections, print the tables and the summary."""
    args = parse_args(argv)
    if args.drop_graph_child:
        print(drop_graph_seconds(args.drop_graph_child))
        return
    results = run_all(Settings(args.quick, args.clock))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2, default=str)
        print(f"results written to {args.json}")


if __name__ == "__main__":
    main()
