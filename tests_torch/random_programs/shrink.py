"""Reduce a failing program to the fewest statements that still show its divergence."""

from __future__ import annotations

from tests_torch.random_programs.check import Finding, check_code, check_program
from tests_torch.random_programs.generator import Statement, source


def shrink(finding: Finding) -> Finding:
    """Drop statements, and unwrap ``with`` blocks, while the divergence's signature stays.

    Greedy, to a fixed point: a statement is removed for good if the program without it still
    diverges in the same category and known class. Removing a statement whose result a later
    one uses makes both libraries raise the same NameError there, so that is safe to try.
    """
    best = finding
    changed = True
    while changed:
        changed = False
        index = len(best.program) - 1
        while index >= 0:
            for candidate in _variants(best.program, index):
                found = check_program(candidate)
                if found is not None and found.signature == finding.signature:
                    best, changed = found, True
                    break
            index = min(index, len(best.program)) - 1
    return best


def _variants(program: list[Statement], index: int) -> list[list[Statement]]:
    """Smaller programs: without statement ``index``, or with its ``with`` block unwrapped."""
    variants = [program[:index] + program[index + 1 :]]
    statement = program[index]
    if statement.code.startswith("with "):
        body = statement.code.split("\n", 1)[1].replace("\n    ", "\n").strip()
        plain = Statement(body, statement.kind, statement.target, statement.operands)
        variants.append([*program[:index], plain, *program[index + 1 :]])
    return variants


def reproduction(finding: Finding) -> str:
    """The program as runnable code, with the divergence as a comment."""
    known = f"  (known: {finding.known})" if finding.known else ""
    return (
        f"# {finding.divergence.describe()}{known}\n"
        "# run with `import torch` and with `import minigrad as torch`\n"
        + source(finding.program)
    )


def assert_agrees(code: str) -> None:
    """Fail with the shrunk reproduction if minigrad and PyTorch differ on ``code`` (a test).

    ``code``: a program written out, one statement a line (``check.check_code``).
    """
    finding = check_code(code)
    if finding is not None:
        raise AssertionError(reproduction(finding))
