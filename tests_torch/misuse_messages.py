"""The misuse sweep's message differences, grouped by cause (a script, not a test).

tests_torch/test_misuse_sweep_torch.py compares the exception *types* of thousands of bad calls
with PyTorch's. This lists the calls where both raise the same type but the messages differ
(PyTorch's with ``torch`` replaced by ``minigrad``), grouped by the shape of the two messages:
names, numbers, quoted words and type names replaced by placeholders, so that one cause (say,
Python's "Tensor.f() got an unexpected keyword argument" for the parser's "f() got ...") is one
group however many functions show it. Largest groups first, each with a few examples.

    .venv/bin/python tests_torch/misuse_messages.py [--examples 3] [--rows NAME,NAME]
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import torch  # noqa: E402
from misuse import outcome, to_lib, variants  # noqa: E402
from test_misuse_sweep_torch import ROWS, describe  # noqa: E402
from test_ops import row_samples  # noqa: E402

import minigrad  # noqa: E402

_PLACEHOLDERS = (
    (re.compile(r"\n.*", re.S), " ..."),  # the first line says the cause; listings follow
    (re.compile(r"'[^']*'|\"[^\"]*\""), "'Q'"),
    (re.compile(r"\b[\w.]+\(\)"), "F()"),
    (re.compile(r"-?\d+(\.\d+)?"), "N"),
    (re.compile(r"\b(Tensor|NoneType|str|int|float|bool|list|tuple|object|minigrad\.\w+)\b"),
     "T"),
)


def shape(message: str) -> str:
    """``message`` with what varies from call to call replaced by placeholders."""
    for pattern, placeholder in _PLACEHOLDERS:
        message = pattern.sub(placeholder, message)
    return message[:160]


def errors_of(row: Any, variant: Any) -> tuple[BaseException | None, BaseException | None]:
    """What PyTorch and minigrad raise for one bad call (None: it passed)."""
    errors = []
    for lib in (torch, minigrad):
        args = [to_lib(lib, v, "float32", True) for v in variant.args]
        kwargs = {k: to_lib(lib, v, "float32", False) for k, v in variant.kwargs.items()}
        errors.append(outcome(lambda: row.call(lib, *args, **kwargs))[1])  # noqa: B023
    return errors[0], errors[1]


def differences(rows: Any) -> list[tuple[str, str, str]]:
    """(label, PyTorch's message, minigrad's) for every bad call raising one type, two texts."""
    found = []
    for row in rows:
        sample = row_samples(row)[0]
        for variant in variants(sample.args, sample.kwargs):
            theirs, mine = errors_of(row, variant)
            if theirs is None or mine is None or type(theirs) is not type(mine):
                continue  # (types: the sweep's own test)
            expected = str(theirs).replace("torch.", "minigrad.").replace("torch::", "minigrad::")
            if str(mine) != expected:
                found.append((describe(row, variant.where, variant.what), expected, str(mine)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    options = parser.parse_args()
    wanted = set(filter(None, options.rows.split(",")))
    rows = [row for row in ROWS if not wanted or row.name in wanted]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = differences(rows)
    groups: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)
    for label, expected, got in found:
        groups[(shape(expected), shape(got))].append((label, expected, got))
    print(f"{len(found)} message differences in {len(groups)} groups\n")
    for (expected, got), members in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"[{len(members)}] PyTorch: {expected}\n     minigrad: {got}")
        for label, theirs, mine in members[: options.examples]:
            print(f"       {label}\n         {theirs.splitlines()[0][:150]}\n"
                  f"         {mine.splitlines()[0][:150]}")
        print()


if __name__ == "__main__":
    main()
