"""The cost of minigrad's debugging aids (issue 12), against PyTorch, in one process and one run.

Run ``python benchmarks/bench_debugging.py`` (about a minute of CPU) or ``--quick``.

What is compared, for each workload, in one interleaved loop:

* ``no hooks``: minigrad with the debugging hooks *removed* from the core: the functions that
  hold a hook (the version counter's bump, packing, unpacking and releasing saved values, the
  in-place write) are recompiled from their own source without the hook statements (every
  ``if switches.<flag>:`` block, and what only it uses). This is the core as it was before
  issue 12, measured in the same process.
* ``off``: minigrad as shipped, every aid off (the default): the hooks cost one flag read each.
  ``off / no hooks - 1`` is the overhead of having the aids at all: the target is <= 2 %.
* ``off, guard used``: the same, in a process that had the guard on before (in-place writes
  then check for read-only views the guard may have left behind).
* ``tracking``: ``set_track_writes(True)``; ``guard``: ``guard_saved_tensors()``;
  ``anomaly``: ``set_detect_anomaly(True)`` (which also captures each node's forward stack).
* ``torch``: the same statements in PyTorch 2.13 (CPU, one thread), if installed.

Method: CPU time of this process (``time.process_time``); numpy and PyTorch on one thread.
``timeit`` runs a statement N times with the garbage collector off, N calibrated so that a batch
lasts ~20 ms (5 ms with ``--quick``). The variants take turns batch by batch, so a slow spell
of the shared machine hits them alike; the figure is the median over the batches. The overhead
is the median of the per-round ratios ``off / no hooks`` (paired rounds cancel drift; the order
of the variants is shuffled every round), with its quartiles. On a busy machine that ratio's
noise is larger than the hooks, so the hooks are also counted (``hooks/op``: flag reads per
operation, all aids off) and priced (one false flag test, timed alone): ``est. hooks cost``.
Inputs: float32, shape (8,), requiring grad. Nothing is asserted.
"""

from __future__ import annotations

import os
import sys

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before numpy loads its BLAS

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)  # run from a checkout without installing

import argparse  # noqa: E402
import ast  # noqa: E402
import contextlib  # noqa: E402
import inspect  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import graph, guard, inplace, saved, version  # noqa: E402
from minigrad.autograd.debug_switches import switches  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # PyTorch is optional: its column reads n/a
    torch = None

# Where the debugging hooks live: (owner, attribute).
HOOKED = [
    (version.VersionCounter, "bump"),
    (saved, "pack"),
    (saved, "unpack"),
    (graph.Node, "_release_saved"),
    (inplace, "_copy_into"),
    (inplace, "write_recorded"),
]

WORKLOADS = {
    "sigmoid (saves its result)": "x.sigmoid()",
    "mul (saves both inputs)": "x * w",
    "exp then in-place mul_": "x.exp().mul_(2)",
    "chain fwd+bwd, per step": "chain(x, w, b)",
}
CHAIN_STEPS = 20


def chain(x: Any, w: Any, b: Any) -> None:
    """``CHAIN_STEPS`` steps of ``y = sigmoid(y * w + b)``, then backward."""
    y = x
    for _ in range(CHAIN_STEPS):
        y = (y * w + b).sigmoid()
    y.sum().backward()


# --- the core without its hooks -------------------------------------------------------------


class _StripHooks(ast.NodeTransformer):
    """Drop every ``if switches.<flag>:`` statement, and the statements built only for it."""

    def __init__(self) -> None:
        self.dropped: set[str] = set()  # names assigned by dropped statements
        self.count = 0

    def _is_hook(self, test: ast.AST) -> bool:
        text = ast.unparse(test)
        return "switches." in text or any(
            isinstance(n, ast.Name) and n.id in self.dropped for n in ast.walk(test)
        )

    def visit_If(self, node: ast.If) -> Any:  # noqa: N802 - ast's name
        if self._is_hook(node.test):
            self.count += 1
            return node.orelse or None
        self.generic_visit(node)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:  # noqa: N802 - ast's name
        if isinstance(node.value, ast.IfExp) and self._is_hook(node.value.test):
            self.count += 1
            self.dropped |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            return None
        return node


def _without_hooks(function_: Callable[..., Any]) -> tuple[Callable[..., Any], int]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function_)))
    stripper = _StripHooks()
    tree = ast.fix_missing_locations(stripper.visit(tree))
    namespace = dict(function_.__globals__)
    exec(compile(tree, f"<{function_.__qualname__} without hooks>", "exec"), namespace)
    return namespace[function_.__name__], stripper.count


def stripped_core() -> tuple[list[tuple[Any, str, Any, Any]], int]:
    """Hook-free replacements: (owner, attribute, original, replacement), and hooks removed."""
    swaps, removed = [], 0
    for owner, attribute in HOOKED:
        original = getattr(owner, attribute)
        replacement, count = _without_hooks(original)
        removed += count
        swaps.append((owner, attribute, original, replacement))
    # A replacement calling another hooked function (write_recorded calls _copy_into) must
    # call its replacement: their namespaces are copies made before any swap.
    for _, _, _, replacement in swaps:
        namespace = replacement.__globals__
        for _, _, original, other in swaps:
            for name, value in list(namespace.items()):
                if value is original:
                    namespace[name] = other
    return swaps, removed


@contextlib.contextmanager
def swapped(swaps: list[tuple[Any, str, Any, Any]]) -> Iterator[None]:
    """Use the hook-free functions everywhere minigrad refers to the originals."""
    modules = [m for name, m in sys.modules.items() if name.startswith("minigrad") and m]
    done = []
    for owner, attribute, original, replacement in swaps:
        setattr(owner, attribute, replacement)
        done.append((owner, attribute, original))
        if not isinstance(owner, type):
            for module in modules:  # names imported with "from ... import"
                for name, value in list(vars(module).items()):
                    if value is original:
                        setattr(module, name, replacement)
                        done.append((module, name, original))
    try:
        yield
    finally:
        for owner, attribute, original in done:
            setattr(owner, attribute, original)


# --- measuring ----------------------------------------------------------------------------


def namespace(lib: Any) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(8).astype(np.float32) for _ in range(3)]
    x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
    return {"x": x, "w": w, "b": b, "chain": chain}


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """``guard_saved_tensors()``, then back to a process that never used the guard.

    Once the guard was on, every in-place write checks for read-only views it may have left
    (``switches.guard_used``). These batches make no views and free every graph, so nothing is
    left to heal: the flag is cleared, and "off" keeps measuring the default process. The
    cost of the flag is the "off, guard used" column.
    """
    with minigrad.autograd.guard_saved_tensors():
        yield
    assert not guard._by_node, "a guarded graph outlived its batch"
    switches.guard_used = False


@contextlib.contextmanager
def guard_used() -> Iterator[None]:
    """Every aid off, in a process where the guard was on before (see ``guarded``)."""
    switches.guard_used = True
    try:
        yield
    finally:
        switches.guard_used = False


def variants(swaps: list[tuple[Any, str, Any, Any]]) -> dict[str, Callable[[], Any]]:
    found = {
        "no hooks": lambda: swapped(swaps),
        "off": contextlib.nullcontext,
        "off, guard used": guard_used,
        "tracking": lambda: minigrad.autograd.set_track_writes(True),
        "guard": guarded,
        "anomaly": lambda: minigrad.autograd.set_detect_anomaly(True),
    }
    if torch is not None:
        found["torch"] = contextlib.nullcontext
    return found


def measure(statement: str, names: list[str], contexts: dict[str, Callable[[], Any]],
            rounds: int, batch_seconds: float) -> dict[str, list[float]]:
    """Per-call seconds of ``statement`` for each variant, ``rounds`` interleaved batches."""
    timers, numbers = {}, {}
    for name in names:
        lib = torch if name == "torch" else minigrad
        timer = timeit.Timer(statement, globals=namespace(lib), timer=time.process_time)
        with contexts[name]():
            number = 1
            while timer.timeit(number) < batch_seconds:  # calibration is the warm-up
                number *= 2
        timers[name], numbers[name] = timer, number
    results: dict[str, list[float]] = {name: [] for name in names}
    order = list(names)
    shuffle = random.Random(0).shuffle
    for _ in range(rounds):
        shuffle(order)  # a different order each round: no variant always follows another
        for name in order:
            with contexts[name]():
                results[name].append(timers[name].timeit(numbers[name]) / numbers[name])
    return results


def check_stripping(swaps: list[tuple[Any, str, Any, Any]]) -> str:
    """With the hooks removed, turning tracking on records nothing (so they really are gone)."""
    from minigrad.autograd import write_tracking

    with swapped(swaps), minigrad.autograd.set_track_writes(True):
        t = minigrad.zeros(3)
        t.add_(1)
        stripped_records = len(write_tracking.writes_of(t._version_counter()))
    with minigrad.autograd.set_track_writes(True):
        t = minigrad.zeros(3)
        t.add_(1)
        shipped_records = len(write_tracking.writes_of(t._version_counter()))
    ok = stripped_records == 0 and shipped_records == 1
    return "verified" if ok else f"NOT verified ({stripped_records}, {shipped_records})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter batches")
    args = parser.parse_args(argv)
    rounds, batch = (9, 0.005) if args.quick else (41, 0.02)
    swaps, removed = stripped_core()
    contexts = variants(swaps)
    names = list(contexts)
    print(f"minigrad {minigrad.__version__}, numpy {np.__version__}, "
          f"torch {torch.__version__ if torch else 'n/a'}; {rounds} rounds of ~{batch * 1e3:.0f} "
          f"ms batches; CPU time; {removed} hook statements removed for 'no hooks' "
          f"({check_stripping(swaps)})")
    header = ["workload", *[f"{n} µs" for n in names], "off/no hooks", "hooks/op",
              "est. hooks cost", "tracking/off", "guard/off", "off/torch"]
    rows = []
    per_hook = hook_cost()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # anomaly mode's warnings are not the subject here
        for title, statement in WORKLOADS.items():
            per_call = measure(statement, names, contexts, rounds, batch)
            steps = CHAIN_STEPS if statement.startswith("chain") else 1
            median = {n: statistics.median(v) / steps for n, v in per_call.items()}
            ratios = [off / bare for off, bare in zip(per_call["off"], per_call["no hooks"])]
            low, paired, high = statistics.quantiles(ratios, n=4)
            row = [title, *[f"{median[n] * 1e6:.2f}" for n in names],
                   f"{(paired - 1) * 100:+.1f} % ({(low - 1) * 100:+.0f}..{(high - 1) * 100:+.0f})",
                   f"{hooks_per_call(statement):g}",
                   f"+{hooks_per_call(statement) * per_hook / median['off'] * 100:.2f} %",
                   f"{median['tracking'] / median['off']:.2f}x",
                   f"{median['guard'] / median['off']:.2f}x",
                   f"{median['off'] / median['torch']:.2f}x" if torch else "n/a"]
            rows.append(row)
            print(" | ".join(str(c) for c in row), flush=True)
    print()
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    print("\noff/no hooks: median of the paired per-round ratios (quartiles in brackets)")
    print(f"one hook when its aid is off (`if switches.writes:`): {per_hook * 1e9:.0f} ns; "
          "est. hooks cost = hooks/op x that / off")
    print("target (issue 12): off/no hooks <= +2 % (the cost of the aids when they are off)")


class _CountingFlags:
    """Stands in for ``switches``: every flag reads False, and each read is counted."""

    def __init__(self) -> None:
        self.reads = 0

    def __getattr__(self, name: str) -> bool:
        self.reads += 1
        return False


def hooks_per_call(statement: str) -> float:
    """How many hooks one run of ``statement`` passes (flag reads), all aids off."""
    modules = [m for name, m in sys.modules.items()
               if name.startswith("minigrad") and getattr(m, "switches", None) is switches]
    counting = _CountingFlags()
    names = namespace(minigrad)
    exec(statement, names)  # warm-up: first calls may take other paths
    for module in modules:
        module.switches = counting
    try:
        exec(statement, names)
    finally:
        for module in modules:
            module.switches = switches
    steps = CHAIN_STEPS if statement.startswith("chain") else 1
    return counting.reads / steps


def hook_cost() -> float:
    """Seconds per false flag test, as each hook makes it (minus an empty statement's time)."""
    timer = timeit.Timer("if switches.writes: pass", globals={"switches": switches},
                         timer=time.process_time)
    empty = timeit.Timer("pass", timer=time.process_time)
    runs = [(timer.timeit(10**6) - empty.timeit(10**6)) / 10**6 for _ in range(7)]
    return statistics.median(runs)


if __name__ == "__main__":
    main()
