"""Every common way of writing an op, timed in minigrad, PyTorch and numpy in one process.

``bench_core.py`` times six ops in one spelling each (``a + b``, ``a.sigmoid()``, ``m @ n`` ...).
Users write the same math many ways: ``torch.add(a, b)``, ``a.add(b)``, ``F.relu(x)``,
``x.relu()``, ``x.view(-1)``, ``x[0]``, ``torch.cat(...)``. This script times those forms on the
same small inputs (float32 (8,) vectors, 8x8 matrices), recording (inputs require grad) and under
``no_grad``, so a form that misses the fast path shows up next to the one that takes it.

Run ``python benchmarks/bench_forms.py`` (about a minute of CPU), ``--quick`` (about 20 s),
``--only TEXT`` to time the forms whose statement contains TEXT, ``--json PATH`` to write the
figures. Method as ``bench_core.py``'s per-op section (one thread, CPU time, ``timeit`` batches
with the collector off, repeats going round the columns in turn, medians). Nothing is asserted:
the last column flags the forms above issue 7's per-op limits (recording <= 1.2x PyTorch,
no_grad <= 1.0x PyTorch's no_grad).
"""

from __future__ import annotations

import argparse
import json
import timeit
from typing import Any

import bench_core  # sets the thread limits before numpy is imported
import numpy as np  # (after bench_core: one BLAS thread)
from bench_core import (
    Settings,
    micro,
    print_section,
    print_table,
    ratio,
    time_round_robin,
    torch,
)

import minigrad
import minigrad.nn.functional

RECORD_LIMIT = bench_core.TARGET_OTHER_OPS
NO_GRAD_LIMIT = bench_core.TARGET_NO_GRAD

# (statement for minigrad and PyTorch, with T the library and F its nn.functional;
#  the same computation in numpy). a, b: (8,) vectors; p: positive (8,); m, n: 8x8; c: classes.
_SIGMOID = "e = np.exp(-a); e += 1; 1 / e"
_SOFTMAX = "e = np.exp(m - m.max(1, keepdims=True)); e / e.sum(1, keepdims=True)"
_LOG_SOFTMAX = "s = m - m.max(1, keepdims=True); s - np.log(np.exp(s).sum(1, keepdims=True))"
FORMS: list[tuple[str, str]] = [
    ("a + b", "a + b"),
    ("a.add(b)", "a + b"),
    ("T.add(a, b)", "a + b"),
    ("a * b", "a * b"),
    ("T.mul(a, b)", "a * b"),
    ("a - b", "a - b"),
    ("a / b", "a / b"),
    ("a * 2.0", "a * 2.0"),
    ("a + 1", "a + 1"),
    ("2 * a", "2 * a"),
    ("1 - a", "1 - a"),
    ("a / 2", "a / 2"),
    ("a - 1", "a - 1"),
    ("a.mul(0.5)", "a * 0.5"),
    ("a.add(1, alpha=2)", "a + 2"),
    ("a ** 2", "a ** 2"),
    ("a.pow(2)", "a ** 2"),
    ("-a", "-a"),
    ("a.exp()", "np.exp(a)"),
    ("T.exp(a)", "np.exp(a)"),
    ("p.log()", "np.log(p)"),
    ("p.sqrt()", "np.sqrt(p)"),
    ("a.abs()", "np.abs(a)"),
    ("a.sigmoid()", _SIGMOID),
    ("T.sigmoid(a)", _SIGMOID),
    ("a.tanh()", "np.tanh(a)"),
    ("T.tanh(a)", "np.tanh(a)"),
    ("a.relu()", "np.maximum(a, 0)"),
    ("T.relu(a)", "np.maximum(a, 0)"),
    ("F.relu(a)", "np.maximum(a, 0)"),
    ("a.clamp(min=0)", "np.maximum(a, 0)"),
    ("a.sum()", "a.sum()"),
    ("T.sum(a)", "a.sum()"),
    ("m.sum(0)", "m.sum(0)"),
    ("m.sum(dim=1, keepdim=True)", "m.sum(1, keepdims=True)"),
    ("a.mean()", "a.mean()"),
    ("m.mean(1)", "m.mean(1)"),
    ("m.max()", "m.max()"),
    ("m @ n", "m @ n"),
    ("T.matmul(m, n)", "m @ n"),
    ("m.mm(n)", "m @ n"),
    ("F.linear(m, n, a)", "m @ n.T + a"),
    ("m.t()", "m.T"),
    ("m.T", "m.T"),
    ("m.view(64)", "m.reshape(64)"),
    ("m.view(-1)", "m.reshape(-1)"),
    ("m.reshape(64)", "m.reshape(64)"),
    ("m.flatten()", "m.reshape(-1)"),
    ("m.unsqueeze(0)", "m[None]"),
    ("m[0]", "m[0]"),
    ("m[:, 1:3]", "m[:, 1:3]"),
    ("m.transpose(0, 1)", "m.swapaxes(0, 1)"),
    ("T.cat([a, b])", "np.concatenate([a, b])"),
    ("T.stack([a, b])", "np.stack([a, b])"),
    ("F.softmax(m, dim=1)", _SOFTMAX),
    ("F.log_softmax(m, dim=1)", _LOG_SOFTMAX),
    ("F.cross_entropy(m, c)", _LOG_SOFTMAX + "; -s[np.arange(8), c].mean()"),
    ("F.mse_loss(a, b)", "((a - b) ** 2).mean()"),
]
COLUMNS = ("numpy", "minigrad", "torch", "minigrad_no_grad", "torch_no_grad")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (about 20 s)")
    parser.add_argument("--only", metavar="TEXT", help="only the forms containing TEXT")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    return parser.parse_args(argv)


def namespaces() -> dict[str, dict[str, Any]]:
    """The inputs each column sees: the same values everywhere; autograd inputs require grad
    when recording (the class indices ``c`` never do)."""
    rng = np.random.default_rng(0)
    arrays = {
        "a": rng.standard_normal(8, dtype=np.float32),
        "b": rng.standard_normal(8, dtype=np.float32),
        "p": rng.uniform(0.5, 2.0, 8).astype(np.float32),
        "m": rng.standard_normal((8, 8), dtype=np.float32),
        "n": rng.standard_normal((8, 8), dtype=np.float32),
    }
    classes = rng.integers(0, 8, 8)
    spaces = {"numpy": {**arrays, "c": classes, "np": np}}
    for name, lib, functional in (("minigrad", minigrad, minigrad.nn.functional),
                                  ("torch", torch, torch and torch.nn.functional)):
        if lib is None:
            continue  # PyTorch is not installed: its columns read n/a
        for suffix, grad in (("", True), ("_no_grad", False)):
            spaces[name + suffix] = {
                **{key: lib.tensor(value, requires_grad=grad) for key, value in arrays.items()},
                "c": lib.tensor(classes), "T": lib, "F": functional}
    return spaces


def time_form(form: tuple[str, str], spaces: dict[str, dict[str, Any]],
              settings: Settings) -> dict[str, float | None]:
    """Seconds per run of one form in every column (repeats round the columns; medians)."""
    statement, numpy_statement = form
    timers = {
        column: timeit.Timer(numpy_statement if column == "numpy" else statement,
                             timer=settings.clock, globals=spaces[column])
        if column in spaces else None
        for column in COLUMNS
    }
    return time_round_robin(timers, grad_mode, settings)


def grad_mode(column: str) -> Any:
    """``no_grad()`` of the column's library for the no_grad columns, else a no-op."""
    if column.endswith("_no_grad"):
        return (minigrad if column.startswith("minigrad") else torch).no_grad()
    return minigrad.enable_grad()  # (the default mode, made explicit)


def flag(record: float | None, no_grad: float | None) -> str:
    """Which of issue 7's per-op limits the form misses."""
    missed = [label for value, limit, label in ((record, RECORD_LIMIT, "record"),
                                                (no_grad, NO_GRAD_LIMIT, "no_grad"))
              if value is not None and value > limit]
    return ", ".join(missed)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    settings = Settings(quick=args.quick)
    forms = [form for form in FORMS if args.only is None or args.only in form[0]]
    spaces = namespaces()
    results = {form[0]: time_form(form, spaces, settings) for form in forms}
    print_section("forms of common ops, float32 (8,) and 8x8, µs per statement")
    rows = []
    for statement, figures in results.items():
        us = {column: micro(seconds) for column, seconds in figures.items()}
        record = ratio(us["minigrad"], us["torch"])
        no_grad = ratio(us["minigrad_no_grad"], us["torch_no_grad"])
        rows.append([statement, us["numpy"], us["minigrad"], us["torch"], record,
                     us["minigrad_no_grad"], us["torch_no_grad"], no_grad,
                     flag(record, no_grad)])
    print_table(["form", "numpy", "minigrad", "torch", "mg/torch", "mg no_grad",
                 "torch no_grad", "mg/torch no_grad", "above the limit"], rows)
    print(f"(limits: recording <= {RECORD_LIMIT}x PyTorch, no_grad <= {NO_GRAD_LIMIT}x; "
          "T = minigrad or torch, F = its nn.functional)")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"settings": {"quick": args.quick}, "forms": results}, file, indent=1)


if __name__ == "__main__":
    main()
