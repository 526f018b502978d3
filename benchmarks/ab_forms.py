"""``bench_forms.py``'s forms timed with two minigrad checkouts and PyTorch in ONE process.

``bench_forms.py`` times one checkout; on a shared machine two runs of it move 5-20 % apart.
This script imports both checkouts as ``ab_trees.py`` does (each side's modules put back in
``sys.modules`` before its batch) and times each chosen form recording (inputs require grad)
and under ``no_grad`` with A, B and PyTorch in turn, in short ``timeit`` batches (gc off, wall
clock), A and B taking turns going first. Per form and mode: each side's minimum over the
rounds (µs), B/A and both sides over PyTorch of the minimums. (No median of the ratios within
rounds: a batch of these ~1 ms is preempted whole on a loaded machine, so the ratio of one
round ranges over 0.1-10x there, where the minimums stay within a few per cent.) Checked with
one tree on both sides: single-output forms within 2 %; the recorded multi-output views
(``m.split(4)``, ``m.unbind()``, eight views each) 0.7-1.4x apart, so time those standalone.

    git archive main | tar -x -C /tmp/main
    python benchmarks/ab_forms.py /tmp/main [B, default this checkout]
        [--only "m.t(),m[0],T.cat"] [--statements "u.squeeze(0);m.chunk(2)"]
        [--rounds 20] [--number 200]

``--statements``: other statements, ``;``-separated, on the same inputs plus ``u``, a (1, 8)
matrix (``m``'s first row), ``z``, (64, 10) logits, and ``t``, 64 class indices (a training
step's ``F.cross_entropy(z, t).backward()``); ``--record-only``: time them recording only
(a statement calling ``backward()`` has nothing to differentiate under ``no_grad``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import timeit
from typing import Any

import ab_trees  # (imports bench_core first: one BLAS thread)
import bench_core
import bench_forms
import numpy as np


def inputs(lib: Any) -> dict[str, Any]:
    """``bench_forms.py``'s inputs for ``lib`` (minigrad or torch), requiring grad."""
    arrays = bench_forms.namespaces()["numpy"]  # (its values: the same in every column)
    space = {key: lib.tensor(arrays[key], requires_grad=True) for key in "abpmn"}
    space["u"] = lib.tensor(arrays["m"][:1], requires_grad=True)
    rng = np.random.default_rng(1)
    space["z"] = lib.tensor(rng.standard_normal((64, 10), dtype=np.float32), requires_grad=True)
    space["t"] = lib.tensor(rng.integers(0, 10, 64))
    space["a"] * space["b"]  # minigrad's leaves make their accumulators once, before timing
    return {**space, "c": lib.tensor(arrays["c"]), "T": lib, "F": lib.nn.functional}


def main() -> None:
    """Time the chosen forms with both checkouts and PyTorch, interleaved; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="checkout A's root (the baseline)")
    parser.add_argument("b", nargs="?", default=ab_trees.HERE,
                        help="checkout B's root (default: this one)")
    parser.add_argument("--only", help="comma-separated texts: the forms containing any of them")
    parser.add_argument("--statements", help="other statements, ';'-separated")
    parser.add_argument("--record-only", action="store_true",
                        help="time the statements recording only (no no_grad rows)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--number", type=int, default=200)
    options = parser.parse_args()
    texts = None if options.only is None else options.only.split(",")
    forms = [statement for statement, _ in bench_forms.FORMS
             if texts is None or any(text in statement for text in texts)]
    if options.statements:
        forms = [form for form in forms if options.only] + options.statements.split(";")
    sides: dict[str, tuple[Any, Any]] = {
        "A": ab_trees.import_tree(os.path.abspath(options.a)),
        "B": ab_trees.import_tree(os.path.abspath(options.b)),
    }
    if bench_core.torch is None:
        sys.exit("ab_forms.py compares with PyTorch: install torch")
    sides["torch"] = (bench_core.torch, None)
    modes = (False,) if options.record_only else (False, True)
    timers = {}
    for side, (lib, modules) in sides.items():
        space = inputs(lib)
        for form in forms:
            for no_grad in modes:
                mode = lib.no_grad if no_grad else contextlib.nullcontext
                timers[form, no_grad, side] = (timeit.Timer(form, globals=space), modules, mode)
    times: dict[Any, list[float]] = {key: [] for key in timers}
    for round_ in range(options.rounds):
        order = ["A", "B", "torch"] if round_ % 2 == 0 else ["B", "A", "torch"]
        for form in forms:
            for no_grad in modes:
                for side in order:
                    timer, modules, mode = timers[form, no_grad, side]
                    if modules is not None:
                        sys.modules.update(modules)
                    with mode():
                        seconds = timer.timeit(options.number) / options.number
                    times[form, no_grad, side].append(seconds * 1e6)
    print(f"A = {options.a}, B = {options.b}; load average {os.getloadavg()[0]:.1f}")
    print(f"µs per statement, min over {options.rounds} interleaved rounds of {options.number}")
    print(f"{'form':28} {'mode':7} {'A':>7} {'B':>7} {'B/A':>6} {'torch':>7} "
          f"{'A/torch':>7} {'B/torch':>7}")
    for form in forms:
        for no_grad in modes:
            a, b, t = (min(times[form, no_grad, side]) for side in ("A", "B", "torch"))
            print(f"{form:28} {'no_grad' if no_grad else 'record':7} {a:7.2f} {b:7.2f} "
                  f"{b / a:6.2f} {t:7.2f} {a / t:7.2f} {b / t:7.2f}")


if __name__ == "__main__":
    main()
