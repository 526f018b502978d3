"""``python -m tests_torch.random_programs --n N --seed S --jobs J``: a batch run by hand.

Runs programs ``S .. S+N-1``, prints each new (unknown) divergence shrunk to a runnable
reproduction, and a count of divergences per class. Exit status 1 if any divergence is new.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor

from tests_torch.random_programs.check import Finding, check_numbered, use_one_thread
from tests_torch.random_programs.shrink import reproduction, shrink


def main(argv: list[str] | None = None) -> int:
    """Run the batch; print reproductions and counts."""
    parser = argparse.ArgumentParser(prog="python -m tests_torch.random_programs")
    parser.add_argument("--n", type=int, default=1000, help="how many programs")
    parser.add_argument("--seed", type=int, default=0, help="the first program's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--show", type=int, default=5, help="reproductions printed per class")
    parser.add_argument("--known", action="store_true", help="print known classes' too")
    args = parser.parse_args(argv)

    seeds = range(args.seed, args.seed + args.n)
    if args.jobs > 1:
        # Fresh interpreters (a forked copy of a process that already ran PyTorch's thread
        # pools can deadlock); an executor, unlike a Pool, fails loudly if a worker dies.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, context, initializer=use_one_thread) as pool:
            results = []
            for result in pool.map(check_numbered, seeds, chunksize=20):
                results.append(result)
                if len(results) % 1000 == 0:
                    print(f"... {len(results)} programs", file=sys.stderr, flush=True)
    else:
        use_one_thread()
        results = [check_numbered(seed) for seed in seeds]

    findings = sorted((seed, f) for seed, f in results if f is not None)
    by_class: dict[str, list[tuple[int, Finding]]] = collections.defaultdict(list)
    for seed, finding in findings:
        label = finding.known or f"NEW: {finding.divergence.category}"
        by_class[label].append((seed, finding))
    for label, members in sorted(by_class.items()):
        if label.startswith("NEW") or args.known:
            for seed, finding in members[: args.show]:
                print(f"--- seed {seed}: {label}")
                print(reproduction(shrink(finding)))
    print(f"{args.n} programs (seeds {args.seed}..{args.seed + args.n - 1}), "
          f"{len(findings)} divergences")
    for label, members in sorted(by_class.items()):
        print(f"  {len(members):5d}  {label}")
    return 1 if any(label.startswith("NEW") for label in by_class) else 0


if __name__ == "__main__":
    sys.exit(main())
