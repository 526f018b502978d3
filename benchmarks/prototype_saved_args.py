"""Prototype of the backward's next step: formulas that receive their saved values as arguments.

Today a built-in node's runner (``function.backward_runner``) checks the saved values, stores
them in the node's ``_unpacked`` slot, calls the op's ``backward(ctx, *grads)``, which reads
them back through the ``ctx.saved_tensors`` property, and empties the slot. This script
measures what the chain ``y = sigmoid(y * w + b)`` x100 would gain if the formula took them as
arguments instead (``backward(ctx, grad, *saved)``: no slot round trip, no property, no
``*grads`` list): it swaps in, for the sigmoid and mul nodes only, runners written that way
(the same layout checks and release as the library's common case; anything else falls back
to the library's runner) and times backward against the library's, in one process, taking
turns. The formulas here are the library's own lines with the saved values as parameters;
this is a measurement, not library code. Nothing is asserted beyond equal gradients.

    python benchmarks/prototype_saved_args.py [--runs 40] [--rounds 8]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import saved  # noqa: E402
from minigrad.autograd.debug_switches import switches  # noqa: E402
from minigrad.autograd.graph import COUNTER_IN_NODE  # noqa: E402
from minigrad.ops.arithmetic import Mul  # noqa: E402
from minigrad.ops.unary import Sigmoid, _sigmoid_grad  # noqa: E402

STEPS = 100
SIGMOID_NODE, MUL_NODE = Sigmoid._Node, Mul._Node
LIBRARY = {SIGMOID_NODE: SIGMOID_NODE._backward, MUL_NODE: MUL_NODE._backward}


def mul_formula(ctx: Any, grad: Any, x: Any, y: Any) -> tuple[Any, Any, None]:
    """``Mul.backward`` with its saved values as arguments."""
    return (
        grad * y if ctx.needs_input_grad[0] else None,
        grad * x if ctx.needs_input_grad[1] else None,
        None,
    )


def _finish(node: Any, result: tuple[Any, ...], incoming: Any, release: bool) -> tuple[Any, ...]:
    dtype = incoming.dtype
    for grad in result:
        if grad is not None and grad.dtype is not dtype and grad.dtype != dtype:
            return LIBRARY[type(node)](node, [incoming], False, release)  # (never, here)
    if release:
        node._saved = None
        node._input0 = node._input1 = None
    return result


def sigmoid_runner(node: Any, grads: list[Any], as_tensors: bool = False,
                   release: bool = False, run: Any = None) -> tuple[Any, ...]:
    """The library runner's common case for a node that saved its result, formula by argument.

    (It returns its gradients whatever ``run``: the engine delivers them.)
    """
    values = node._saved
    if (as_tensors or not values or switches.guarded or node._input_meta is not None
            or len(values) != saved.FIELDS or values[1] is not saved.OUTPUT_COUNTER
            or _version(node._output_counter) != values[2]):
        return LIBRARY[SIGMOID_NODE](node, grads, as_tensors, release)
    incoming = grads[0]
    return _finish(node, (_sigmoid_grad(incoming, values[0]),), incoming, release)


def _version(counter: Any) -> int:
    """A counter's version; None (made on first need, ``saved_output_counter``): 0."""
    return 0 if counter is None else counter.version


def _clean_input(node: Any, values: tuple[Any, ...], start: int, slot: str) -> bool:
    tensor = getattr(node, slot)
    counter = tensor._counter
    if counter is COUNTER_IN_NODE:  # a result its node saved: the node's counter is its own
        counter = tensor._grad_fn._output_counter
    version = _version(counter)
    return version == values[start + 2] and (tensor._grad_fn is not None
                                             or not values[start + 4])


def mul_runner(node: Any, grads: list[Any], as_tensors: bool = False,
               release: bool = False, run: Any = None) -> tuple[Any, ...]:
    """The library runner's common case for mul (both inputs saved), formula by argument.

    (It returns its gradients whatever ``run``: the engine delivers them.)
    """
    values = node._saved
    if (as_tensors or not values or switches.guarded or node._input_meta is not None
            or len(values) != 2 * saved.FIELDS or values[1] is not saved.ON_TENSOR
            or values[7] is not saved.ON_TENSOR
            or not _clean_input(node, values, 0, "_input0")
            or not _clean_input(node, values, 6, "_input1")):
        return LIBRARY[MUL_NODE](node, grads, as_tensors, release)
    incoming = grads[0]
    return _finish(node, mul_formula(node, incoming, values[0], values[6]), incoming, release)


PROTOTYPE = {SIGMOID_NODE: sigmoid_runner, MUL_NODE: mul_runner}


def chain() -> Callable[[], tuple[float, Any]]:
    """A function that records the chain, times its backward, returns (seconds, w.grad)."""
    rng = np.random.default_rng(0)
    x, w, b = (minigrad.tensor(rng.standard_normal(8).astype(np.float32)) for _ in range(3))
    w.requires_grad_(True)
    b.requires_grad_(True)

    def run() -> tuple[float, Any]:
        """One forward (untimed) and one timed backward."""
        y = x
        for _ in range(STEPS):
            y = (y * w + b).sigmoid()
        root = y.sum()
        w.grad = b.grad = None
        start = time.perf_counter()
        root.backward()
        return time.perf_counter() - start, w.grad.numpy().copy()

    return run


def use(runners: dict[type, Any]) -> None:
    """Install ``runners`` as the two node classes' ``_backward``."""
    for node_class, runner in runners.items():
        node_class._backward = runner


def main() -> None:
    """Time the library's runners against the prototype's, in turns; print µs per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    run = chain()
    best = {"library": float("inf"), "prototype": float("inf")}
    gradients = {}
    for _ in range(args.rounds):
        times: dict[str, list[float]] = {name: [] for name in best}
        for _ in range(args.runs):
            for name, runners in (("library", LIBRARY), ("prototype", PROTOTYPE)):
                use(runners)
                seconds, gradients[name] = run()
                times[name].append(seconds)
        for name, values in times.items():
            best[name] = min(best[name], statistics.median(values) / STEPS * 1e6)
    use(LIBRARY)
    assert np.array_equal(gradients["library"], gradients["prototype"]), "gradients differ"
    ratio = best["prototype"] / best["library"]
    print(f"backward µs per chain step: library {best['library']:.2f}, prototype "
          f"{best['prototype']:.2f} | prototype / library {ratio:.3f}")


if __name__ == "__main__":
    main()
