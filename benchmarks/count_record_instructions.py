"""Instructions per recorded op, counted by valgrind: an A/B figure load cannot move.

``count_backward_instructions.py`` for the recording side: callgrind counts the CPU
instructions inside ``functools.reduce`` only, through which this script records ``--ops``
ops of one kind (and drops each result, so freeing the node and the tensor is counted, as in
``bench_core.py``), and prints instructions per op. The same number on every run, so a 1 %
change shows where timings of the same code move by 5-50 % between runs; instructions are
not time (cache misses, numpy's kernels), so a change that pays is then confirmed by a timing
(``ab_trees.py``, ``bench_core.py``).

    python benchmarks/count_record_instructions.py [--checkout DIR] [--other DIR] [CASE ...]

Cases: ``add``, ``mul`` ((8,) float32 leaves requiring grad, their accumulators made),
``mul_result`` (``y * b`` with ``y`` an op result), ``mul_one`` (only ``a`` requires grad),
``sigmoid``, ``sum``, ``matmul`` (``m @ n``, two 8x8 float32 leaves requiring grad, as
``bench_core.py``'s), and under ``no_grad``: ``no_grad_add``, ``no_grad_matmul``, ``no_grad_sum``,
``no_grad_mean``, ``no_grad_sum_dim``, ``no_grad_mean_dim`` (``m.sum(1)``, ``m.mean(1)`` of an
8x8 ``m``), ``no_grad_sigmoid``, ``no_grad_exp``. Any other case is a Python expression, counted
under ``no_grad`` (``a``, ``b``, ``m``, ``n`` as above, ``x`` and ``mx`` the arrays behind ``a`` and
``m``, ``np``, ``minigrad``, and its modules ``record``, ``quiet``, ``grad_mode``,
``reduction``, ``unary``, ``new_result``): the steps of a call one by one, e.g.
``"quiet.run_quietly(reduction._sum_all, x)"`` against ``"reduction._sum_all(x)"``.
``--grad``: count the expression cases with grad mode on (recording, or a whole training step:
``"minigrad.nn.functional.cross_entropy(m, c).backward()"``, with ``c`` 8 class indices).
``--checkout``: the checkout whose minigrad is counted (default this one),
``--other``: another one counted too, as "before" (``git archive main | tar -x -C /tmp/main``).
The count moves by up to ~1 % with the length of the checkout's path (copy both trees to paths
of one length for an A/B). Needs ``valgrind`` on the PATH; ~30 s per case and tree on a busy
machine.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

CASES = ("add", "mul", "mul_result", "mul_one", "sigmoid", "sum", "matmul", "no_grad_add",
         "no_grad_matmul", "no_grad_sum", "no_grad_mean", "no_grad_sum_dim", "no_grad_mean_dim",
         "no_grad_sigmoid", "no_grad_exp")


def case_operands() -> dict[str, Any]:
    """The tensors the cases are written on (also ``count_record_bytecodes.py``'s).

    ``a``, ``b``: (8,) float32 leaves requiring grad; ``c``: one that does not; ``m``, ``n``:
    8x8 ones requiring grad; ``y = a * b``: an op result (which also makes the leaves'
    accumulators, as a forward does).
    """
    import numpy as np

    import minigrad

    rng = np.random.default_rng(0)
    a, b = (minigrad.tensor(rng.standard_normal(8).astype(np.float32), requires_grad=True)
            for _ in range(2))
    c = minigrad.tensor(rng.standard_normal(8).astype(np.float32))
    m, n = (minigrad.tensor(rng.standard_normal((8, 8)).astype(np.float32), requires_grad=True)
            for _ in range(2))
    return {"a": a, "b": b, "c": c, "m": m, "n": n, "y": a * b}


def run_case(case: str, count: int, grad: bool = False) -> None:
    """Record ``count`` ops of ``case`` inside ``functools.reduce`` (nothing else is counted)."""
    import numpy as np

    import minigrad

    operands = case_operands()
    a, b, c, m, n, y = (operands[name] for name in "abcmny")
    steps = {
        "add": lambda _, __: a + b,
        "mul": lambda _, __: a * b,
        "mul_result": lambda _, __: y * b,
        "mul_one": lambda _, __: a * c,
        "sigmoid": lambda _, __: a.sigmoid(),
        "sum": lambda _, __: a.sum(),
        "matmul": lambda _, __: m @ n,
        "no_grad_add": lambda _, __: a + b,
        "no_grad_matmul": lambda _, __: m @ n,
        "no_grad_sum": lambda _, __: a.sum(),
        "no_grad_mean": lambda _, __: a.mean(),
        "no_grad_sum_dim": lambda _, __: m.sum(1),
        "no_grad_mean_dim": lambda _, __: m.mean(1),
        "no_grad_sigmoid": lambda _, __: a.sigmoid(),
        "no_grad_exp": lambda _, __: a.exp(),
    }
    if case not in steps:  # an expression: a step of a no-grad call, say
        from minigrad.autograd import grad_mode, quiet, record
        from minigrad.autograd.tensor_base import new_result
        from minigrad.ops import reduction, unary

        namespace = {"np": np, "minigrad": minigrad, "a": a, "b": b, "m": m, "n": n,
                     "x": a._array,
                     "c": minigrad.tensor(np.random.default_rng(0).integers(0, 8, 8)),
                     "mx": m._array, "record": record, "quiet": quiet, "grad_mode": grad_mode,
                     "reduction": reduction, "unary": unary, "new_result": new_result}
        exec(f"def step(_, __):\n    return {case}\n", namespace)
        steps[case] = steps[f"no_grad_{case}"] = namespace["step"]
        if not grad:
            case = f"no_grad_{case}"
    step = steps[case]
    for _ in range(3):  # warm-up: every path taken once (names of saved values, caches)
        step(None, None)
    if case.startswith("no_grad_"):
        with minigrad.no_grad():
            functools.reduce(step, range(count), None)
    else:
        functools.reduce(step, range(count), None)


def count(checkout: str, case: str, ops: int, grad: bool = False) -> float:
    """Instructions per op of ``case`` with ``checkout``'s minigrad."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        "--collect-atstart=no", "--toggle-collect=functools_reduce",
        sys.executable, __file__, "--child", case, "--checkout", checkout, "--ops", str(ops),
        *(["--grad"] if grad else []),
    ]
    # A fixed hash seed: dict layouts, and so the instructions, are the same on every run.
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    collected = int(re.search(r"Collected : (\d+)", output).group(1))  # type: ignore[union-attr]
    return collected / ops


def main() -> None:
    """Count each case for this checkout (and ``--other``'s, if given); print per op."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=list(CASES))
    parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--other", help="another checkout's root, counted too (before)")
    parser.add_argument("--ops", type=int, default=2000)
    parser.add_argument("--grad", action="store_true",
                        help="count the expression cases with grad mode on")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.checkout)
        run_case(args.child, args.ops, args.grad)
        return
    for case in args.cases:
        after = count(args.checkout, case, args.ops, args.grad)
        line = f"  {case:12} {after:9,.0f} instructions per op"
        if args.other:
            before = count(args.other, case, args.ops, args.grad)
            line = (f"  {case:12} {before:9,.0f} -> {after:9,.0f} instructions per op  "
                    f"{100 * (after - before) / before:+5.1f} %")
        print(line, flush=True)


if __name__ == "__main__":
    main()
