"""What ``import minigrad`` costs: time, and the objects it leaves for the garbage collector.

Run ``python benchmarks/bench_import.py`` (``-n 15`` runs per import; ``--checkout DIR`` times
another tree's minigrad, e.g. ``git archive main | tar -x -C /tmp/main``).

Each run is a fresh ``python -c`` that times its import statement alone (not the interpreter's
start): wall (``perf_counter``) and CPU (``process_time``) time, medians over the runs, and the
GC-tracked objects the import leaves (``len(gc.get_objects())`` after ``gc.collect()``, before
and after). Rows: ``numpy``; ``numpy, scipy.special`` (minigrad's dependencies);
``minigrad`` (with them); ``minigrad`` alone after ``numpy, scipy.special`` were imported
(minigrad's own share); ``torch`` if installed. Ratios are to ``numpy, scipy.special``.

Why it matters: every process pays the import (a script, each pytest-xdist worker's
collection), and every full collection of the oldest generation visits every tracked object
alive, the modules' too (``gc_chains.py``).

Bytecode: by default every module's bytecode is cached first (one warm run each, into a
``pycache_prefix`` in a temporary directory, so no ``__pycache__`` is written into the tree),
as a user's installed package or CI (which unsets ``PYTHONDONTWRITEBYTECODE``) has it.
``--compile``: the modules are compiled on every run instead, as in a sandbox that sets
``PYTHONDONTWRITEBYTECODE`` over an editable install (minigrad's modules only: a site-packages
one keeps the bytecode its installer wrote).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The child: times its import, counts the tracked objects it leaves, prints them as JSON.
CHILD = """
import gc, json, sys, time
{setup}
gc.collect()
objects = len(gc.get_objects())
wall, cpu = time.perf_counter(), time.process_time()
{statement}
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
gc.collect()
module = sys.modules.get("minigrad")
print(json.dumps([wall, cpu, len(gc.get_objects()) - objects, getattr(module, "__file__", "")]))
"""

ROWS = (
    ("numpy", "", "import numpy"),
    ("numpy, scipy.special", "", "import numpy, scipy.special"),
    ("minigrad", "", "import minigrad"),
    ("minigrad after numpy, scipy.special", "import numpy, scipy.special", "import minigrad"),
    ("torch", "", "import torch"),
)


def run(setup: str, statement: str, env: dict[str, str]) -> tuple[float, float, int]:
    """One fresh interpreter's (wall s, CPU s, objects left) for ``statement``."""
    code = CHILD.format(setup=setup, statement=statement)
    # (from another directory: ``-c`` puts the working directory first on the path)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout
    wall, cpu, objects, where = json.loads(out.strip().splitlines()[-1])
    assert not where or where.startswith(env["PYTHONPATH"].split(os.pathsep)[0]), where
    return wall, cpu, objects


def main() -> None:
    """Parse the options, time each import in fresh interpreters, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=15, help="runs per import (default 15)")
    parser.add_argument("--checkout", default=REPO, help="the tree whose minigrad is imported")
    parser.add_argument("--compile", action="store_true",
                        help="compile minigrad's modules on every run (no bytecode cache)")
    args = parser.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.abspath(args.checkout) + os.pathsep + env.get("PYTHONPATH", "")
    prefix = tempfile.mkdtemp(prefix="bench_import_")
    try:
        if args.compile:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX", None)
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = prefix
        rows = []
        for label, setup, statement in ROWS:
            try:
                run(setup, statement, env)  # (warm: the bytecode cached, the files in memory)
            except subprocess.CalledProcessError:
                continue  # (torch not installed)
            runs = [run(setup, statement, env) for _ in range(args.n)]
            rows.append((label, statistics.median(r[0] for r in runs),
                         statistics.median(r[1] for r in runs), runs[-1][2]))
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    mode = "compiled each run" if args.compile else "bytecode cached"
    print(f"python {sys.version.split()[0]}, {args.n} runs each, {mode}, minigrad from "
          f"{os.path.abspath(args.checkout)}")
    base = next(row for row in rows if row[0] == "numpy, scipy.special")
    print(f"{'import':38} {'wall ms':>8} {'CPU ms':>8} {'x deps':>7} {'objects':>9}")
    for label, wall, cpu, objects in rows:
        print(f"{label:38} {wall * 1e3:8.0f} {cpu * 1e3:8.0f} {wall / base[1]:7.2f} "
              f"{objects:9,}")


if __name__ == "__main__":
    main()
