"""In-process A/B of the backward engine on the chain ``y = sigmoid(y * w + b)`` x100.

Loads another version of ``minigrad/autograd/engine.py`` (e.g. main's, saved with
``git show main:minigrad/autograd/engine.py > /tmp/main_engine.py``) next to this checkout's,
and times ``backward`` of freshly built chains with each engine and with PyTorch, one of each
in turn, so all see the machine in the same state. Everything else (nodes, op
formulas, saved values) is this checkout's: only the engine differs.

Given a directory instead (another checkout's root, e.g. ``git archive main | tar -x -C
/tmp/main``), the other side also runs that checkout's per-node steps: its
``BackwardNode._backward`` (``autograd/function.py``), its built-in ops' runners (made by its
``function.backward_runner``, if it has one) and ``saved.unpack``, compiled in this checkout's
modules and swapped in while the other side runs.

    python benchmarks/ab_engine.py /tmp/main_engine.py [--runs 60] [--rounds 15]
    python benchmarks/ab_engine.py /tmp/main [--runs 60] [--rounds 15]

Prints µs per chain step of backward: per engine, the minimum over rounds of the median of
``--runs`` backwards (the minimum is the least disturbed round on a shared machine).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minigrad  # noqa: E402
from minigrad.autograd import engine as this_engine  # noqa: E402
from minigrad.autograd import function, saved  # noqa: E402

STEPS = 100


def load_engine(path: str) -> Any:
    """The engine module at ``path``, imported inside the minigrad package (its imports work)."""
    spec = importlib.util.spec_from_file_location("minigrad.autograd._other_engine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled(source_path: Path, module: Any, name: str, class_name: str | None = None) -> Any:
    """The function ``name`` (a method of ``class_name``) of another checkout's module source,
    compiled with this checkout's ``module``'s globals (a copy: the module is not changed)."""
    tree = ast.parse(source_path.read_text())
    body = tree.body
    if class_name is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == class_name).body
    definition = next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)
    namespace = dict(vars(module))
    exec(compile(ast.Module([definition], []), str(source_path), "exec"), namespace)
    return namespace[name]


def node_swap(checkout: Path) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """A context manager that runs the other checkout's per-node steps (module docstring)."""
    autograd = checkout / "minigrad" / "autograd"
    backward = compiled(autograd / "function.py", function, "_backward", "BackwardNode")
    unpack = compiled(autograd / "saved.py", saved, "unpack")

    # This checkout's built-in ops' nodes may have their own ``_backward`` (made per op class
    # by ``function.backward_runner``): while the other side runs they are replaced by the
    # other checkout's runners, made by its ``backward_runner`` if it has one, else hidden.
    source = (autograd / "function.py").read_text()
    make_runner = (compiled(autograd / "function.py", function, "backward_runner")
                   if "\ndef backward_runner(" in source else None)
    own_runners = {}
    other_runners = {}
    pending = [function.Op]
    while pending:
        klass = pending.pop()
        pending.extend(klass.__subclasses__())
        if "_backward" in klass._Node.__dict__:
            own_runners[klass._Node] = klass._Node.__dict__["_backward"]
            if make_runner is not None:
                other_runners[klass._Node] = make_runner(klass)

    @contextlib.contextmanager
    def swapped() -> Iterator[None]:
        """Run the block on the other checkout's ``_backward``, ``unpack`` and runners."""
        own = function.BackwardNode._backward, saved.unpack
        function.BackwardNode._backward, saved.unpack = backward, unpack
        for node_class in own_runners:
            if node_class in other_runners:
                node_class._backward = other_runners[node_class]
            else:
                del node_class._backward
        try:
            yield
        finally:
            function.BackwardNode._backward, saved.unpack = own
            for node_class, runner in own_runners.items():
                node_class._backward = runner

    return swapped


def chain_builder(lib: Any) -> Callable[[], tuple[Any, Any, Any]]:
    """A function that records the chain with ``lib`` and returns (sum, w, b)."""
    rng = np.random.default_rng(0)
    x_array, w_array, b_array = (rng.standard_normal(8).astype(np.float32) for _ in range(3))
    x = lib.tensor(x_array)
    w = lib.tensor(w_array, requires_grad=True)
    b = lib.tensor(b_array, requires_grad=True)

    def build() -> tuple[Any, Any, Any]:
        """The chain's forward: its output and the two leaves."""
        y = x
        for _ in range(STEPS):
            y = (y * w + b).sigmoid()
        return y.sum(), w, b

    return build


def backward_time(build: Callable[[], tuple[Any, Any, Any]], backward: Callable[[Any], None],
                  context: Callable[[], Any] = contextlib.nullcontext) -> float:
    """Seconds of one ``backward`` (run in ``context``) of a freshly built chain."""
    root, w, b = build()
    w.grad = b.grad = None
    with context():
        start = time.perf_counter()
        backward(root)
        return time.perf_counter() - start


def main() -> None:
    """Parse the arguments, time both engines and PyTorch on the chain, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="path of the engine.py to compare with")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    path = Path(args.other)
    swap: Callable[[], Any] = contextlib.nullcontext
    if path.is_dir():
        swap = node_swap(path)
        path = path / "minigrad" / "autograd" / "engine.py"
    other = load_engine(str(path))
    build = chain_builder(minigrad)
    contenders: dict[str, tuple[Callable[..., Any], Callable[[Any], None], Callable[[], Any]]]
    contenders = {
        "other": (build, other.backward, swap),
        "this": (build, this_engine.backward, contextlib.nullcontext),
    }
    try:
        import torch

        contenders["torch"] = (chain_builder(torch), lambda root: root.backward(),
                               contextlib.nullcontext)
    except ImportError:
        pass
    best = {name: float("inf") for name in contenders}
    for _ in range(args.rounds):
        # One backward of each in turn, so that all see the machine in the same state.
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.runs):
            for name, (builder, backward, context) in contenders.items():
                times[name].append(backward_time(builder, backward, context))
        for name, values in times.items():
            best[name] = min(best[name], statistics.median(values) / STEPS * 1e6)
    line = "  ".join(f"{name} {value:.2f}" for name, value in best.items())
    print(f"backward µs per chain step: {line}  | this / other {best['this'] / best['other']:.2f}")
    if "torch" in best:
        print(f"ratio to torch: other {best['other'] / best['torch']:.2f}, "
              f"this {best['this'] / best['torch']:.2f}")
    # Both engines must give the same gradients, bit for bit.
    results = []
    for backward, context in ((other.backward, swap), (this_engine.backward,
                                                       contextlib.nullcontext)):
        root, w, b = build()
        w.grad = b.grad = None
        with context():
            backward(root)
        results.append((w.grad.numpy().copy(), b.grad.numpy().copy()))
    assert all(np.array_equal(p, q) for p, q in zip(*results)), "the engines' gradients differ"


if __name__ == "__main__":
    main()
