"""softmax, log_softmax, cross_entropy, linear and mse_loss: minigrad against the numpy floor.

For each form, three columns of one process: ``numpy`` (the fewest, cheapest numpy calls that
compute PyTorch's result: the floor a pure-Python library on numpy cannot go under), minigrad
and PyTorch; in three modes: the forward under ``no_grad``, the forward recording (inputs
require grad), and one training step's forward and backward (``loss.backward()``, or
``y.backward(g)`` for a result that is not a scalar; the numpy column computes the same
gradients by hand). Shapes: bench_forms' (8, 8) float32 and a (64, 10) batch of logits with 64
targets (``F.linear``: a (64, 32) input, a (10, 32) weight; and the MLP's first layer, a
(256, 784) input and a (256, 784) weight).

Run ``python benchmarks/bench_nn_kernels.py`` (about a minute), ``--quick`` (~20 s),
``--only TEXT`` for the forms containing TEXT. Method as ``bench_forms.py``'s (one thread,
CPU time, ``timeit`` batches with the collector off, repeats going round the columns, medians).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import timeit
from typing import Any

import bench_core  # noqa: F401  (first: sets the thread limits before numpy is imported)
import numpy as np  # (after bench_core: one BLAS thread)
from bench_core import Settings, micro, print_section, print_table, ratio, time_round_robin, torch

import minigrad
import minigrad.nn.functional

_max, _sum = np.maximum.reduce, np.add.reduce


# --- the numpy floor: PyTorch's results with the fewest numpy calls ------------------------------

def softmax(x: np.ndarray) -> np.ndarray:
    """exp(x - max) / sum, along the last axis, in one new array."""
    y = np.subtract(x, _max(x, 1, None, None, True))
    np.exp(y, y)
    return np.divide(y, _sum(y, 1, None, None, True), y)


def softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y * (g - sum(g * y))."""
    d = g * y
    np.subtract(g, _sum(d, 1, None, None, True), d)
    return np.multiply(d, y, d)


def log_softmax(x: np.ndarray) -> np.ndarray:
    """(x - max) - log(sum(exp(x - max)))."""
    s = np.subtract(x, _max(x, 1, None, None, True))
    lse = _sum(np.exp(s), 1, None, None, True)
    return np.subtract(s, np.log(lse, lse), s)


def log_softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g - exp(y) * sum(g)."""
    e = np.exp(y)
    np.multiply(e, _sum(g, 1, None, None, True), e)
    return np.subtract(g, e, e)


def cross_entropy(x: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mean(-log_softmax(x)[i, t_i]), and the log_softmax (saved for backward)."""
    y = log_softmax(x)
    picked = y[np.arange(len(t)), t]
    return np.negative(_sum(picked)) / np.float32(len(t)), y


def cross_entropy_step(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The loss and the logits' gradient: nll's one-hot pattern, then log_softmax's backward."""
    _, y = cross_entropy(x, t)
    g = np.zeros_like(x)
    g[np.arange(len(t)), t] = np.float32(-1.0 / len(t))
    return log_softmax_backward(g, y)


def linear_step(x: np.ndarray, w: np.ndarray, b: np.ndarray, g: np.ndarray) -> tuple:
    """x @ w.T + b, then the three gradients for an incoming ``g``."""
    y = np.matmul(x, w.T)
    y += b
    return g @ w, g.T @ x, _sum(g, 0)


def mse_step(a: np.ndarray, b: np.ndarray) -> tuple:
    """mean((a - b) ** 2) and the two gradients."""
    d = a - b
    loss = _sum(d * d) / np.float32(d.size)
    da = d * np.float32(2.0 / d.size)
    return loss, da, -da


def namespaces() -> dict[str, dict[str, Any]]:
    """Each column's inputs: the same values everywhere (``c``/``t``: class indices)."""
    rng = np.random.default_rng(0)
    arrays = {
        "m": rng.standard_normal((8, 8), dtype=np.float32),
        "n": rng.standard_normal((8, 8), dtype=np.float32),
        "a": rng.standard_normal(8, dtype=np.float32),
        "b": rng.standard_normal(8, dtype=np.float32),
        "z": rng.standard_normal((64, 10), dtype=np.float32) * 3,
        "x": rng.standard_normal((64, 32), dtype=np.float32),
        "w": rng.standard_normal((10, 32), dtype=np.float32),
        "v": rng.standard_normal(10, dtype=np.float32),
        "g": rng.standard_normal((64, 10), dtype=np.float32),
        "h": rng.standard_normal((8, 8), dtype=np.float32),
        # the MLP's first layer (bench_core's MLP step): 256 rows of 784 features -> 256
        "X": rng.standard_normal((256, 784), dtype=np.float32),
        "W": rng.standard_normal((256, 784), dtype=np.float32) / np.float32(28),
        "V": rng.standard_normal(256, dtype=np.float32),
        "G": rng.standard_normal((256, 256), dtype=np.float32),
    }
    classes = {"c": rng.integers(0, 8, 8), "t": rng.integers(0, 10, 64)}
    spaces = {"numpy": {**arrays, **classes, "np": np, **{
        name: globals()[name] for name in (
            "softmax", "softmax_backward", "log_softmax", "log_softmax_backward",
            "cross_entropy", "cross_entropy_step", "linear_step", "mse_step")}}}
    for name, lib in (("minigrad", minigrad), ("torch", torch)):
        if lib is None:
            continue
        for suffix, grad in (("", True), ("_no_grad", False)):
            spaces[name + suffix] = {
                **{key: lib.tensor(value, requires_grad=grad and key not in _GRADIENTS)
                   for key, value in arrays.items()},
                **{key: lib.tensor(value) for key, value in classes.items()},
                "T": lib, "F": lib.nn.functional}
    return spaces


_GRADIENTS = ("g", "h", "G")  # (given gradients: they need none themselves)


# (form, its forward, the forward and backward in minigrad / torch, and the same in numpy)
FORMS: list[tuple[str, str, str, str, str]] = [
    ("softmax (8, 8)", "F.softmax(m, dim=1)", "F.softmax(m, dim=1).backward(h)",
     "softmax(m)", "softmax_backward(h, softmax(m))"),
    ("log_softmax (8, 8)", "F.log_softmax(m, dim=1)", "F.log_softmax(m, dim=1).backward(h)",
     "log_softmax(m)", "log_softmax_backward(h, log_softmax(m))"),
    ("cross_entropy (8, 8)", "F.cross_entropy(m, c)", "F.cross_entropy(m, c).backward()",
     "cross_entropy(m, c)", "cross_entropy_step(m, c)"),
    ("cross_entropy (64, 10)", "F.cross_entropy(z, t)", "F.cross_entropy(z, t).backward()",
     "cross_entropy(z, t)", "cross_entropy_step(z, t)"),
    ("linear (8, 8)", "F.linear(m, n, a)", "F.linear(m, n, a).backward(h)",
     "y = np.matmul(m, n.T); y += a", "linear_step(m, n, a, h)"),
    ("linear (64, 32)->10", "F.linear(x, w, v)", "F.linear(x, w, v).backward(g)",
     "y = np.matmul(x, w.T); y += v", "linear_step(x, w, v, g)"),
    ("linear (256, 784)->256", "F.linear(X, W, V)", "F.linear(X, W, V).backward(G)",
     "y = np.matmul(X, W.T); y += V", "linear_step(X, W, V, G)"),
    ("mse_loss (8,)", "F.mse_loss(a, b)", "F.mse_loss(a, b).backward()",
     "d = a - b; np.add.reduce(d * d) / np.float32(8)", "mse_step(a, b)"),
]
MODES = ("no_grad", "record", "step")


def time_form(form: tuple[str, str, str, str, str], settings: Settings,
              spaces: dict[str, dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Seconds per statement, per mode and column."""
    _, forward, step, np_forward, np_step = form
    results = {}
    for mode in MODES:
        statement = step if mode == "step" else forward
        columns = {"numpy": np_step if mode == "step" else np_forward,
                   "minigrad": statement, "torch": statement}
        timers = {}
        for column, text in columns.items():
            space = column if column == "numpy" or mode != "no_grad" else column + "_no_grad"
            timers[column] = (timeit.Timer(text, timer=settings.clock, globals=spaces[space])
                              if space in spaces else None)

        def grad_mode(column: str, mode: str = mode) -> Any:
            if mode == "no_grad" and column != "numpy":
                return (minigrad if column == "minigrad" else torch).no_grad()
            return minigrad.enable_grad()

        results[mode] = time_round_robin(timers, grad_mode, settings)
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (about 20 s)")
    parser.add_argument("--only", metavar="TEXT", help="only the forms containing TEXT")
    args = parser.parse_args(argv)
    settings = Settings(quick=args.quick)
    spaces = namespaces()
    rows = []
    for form in FORMS:
        if args.only is not None and args.only not in form[0]:
            continue
        figures = time_form(form, settings, spaces)
        for mode in MODES:
            us = {column: micro(seconds) for column, seconds in figures[mode].items()}
            rows.append([form[0], mode, us["numpy"], us["minigrad"], us["torch"],
                         ratio(us["minigrad"], us["numpy"]), ratio(us["minigrad"], us["torch"])])
    print_section("nn kernels, float32, µs per statement (step: forward + backward)")
    print_table(["form", "mode", "numpy floor", "minigrad", "torch", "mg/numpy", "mg/torch"],
                rows)


if __name__ == "__main__":
    main()
