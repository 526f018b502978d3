"""One program through both libraries: the divergence found, if any, and its known class."""

from __future__ import annotations

from dataclasses import dataclass

import torch

import minigrad
from tests_torch.random_programs.compare import Divergence, compare
from tests_torch.random_programs.generator import Statement, generate
from tests_torch.random_programs.known import classify
from tests_torch.random_programs.rounding import only_inherited
from tests_torch.random_programs.runner import run


@dataclass(frozen=True)
class Finding:
    """A program on which minigrad diverges from PyTorch."""

    program: list[Statement]
    divergence: Divergence
    known: str | None  # the known class (see known.py), or None for a new divergence

    @property
    def signature(self) -> tuple[str, str | None]:
        """What a shrunk program must keep showing: the kind of difference and its class."""
        return self.divergence.category, self.known


def check_program(program: list[Statement]) -> Finding | None:
    """Run ``program`` in PyTorch and minigrad; the first divergence, or None."""
    torch_run = run(program, torch)
    minigrad_run = run(program, minigrad)
    divergence = compare(torch_run, minigrad_run)
    if divergence is not None and divergence.category == "value" and only_inherited(program):
        # last-bit differences the statements passed on (rounding.py): the rest still counts
        divergence = compare(torch_run, minigrad_run, values=False)
    if divergence is None:
        return None
    return Finding(program, divergence, classify(program, minigrad_run, divergence))


def check_seed(seed: int) -> Finding | None:
    """Generate the program of ``seed`` and check it."""
    return check_program(generate(seed))


def check_code(code: str) -> Finding | None:
    """Check a program written out as code, one statement a line (a reproduction, pinned).

    An indented line continues the statement before it (a ``with`` block's body). A line
    binding a result of ``autograd.grad`` is of that kind (its version is compared from then
    on, as a generated one's); the rest need no kind.
    """
    program: list[Statement] = []
    for line in code.strip().splitlines():
        if line.startswith(" ") and program:
            last = program.pop()
            program.append(Statement(f"{last.code}\n{line}", last.kind, last.target))
            continue
        target, is_binding, value = line.partition(" = ")
        kind = "grad" if is_binding and "autograd.grad(" in value else "code"
        program.append(Statement(line, kind, target.strip() if is_binding else None))
    return check_program(program)


def check_numbered(seed: int) -> tuple[int, Finding | None]:
    """``(seed, check_seed(seed))``: the unit of work of a batch run in worker processes."""
    return seed, check_seed(seed)


def use_one_thread() -> None:
    """PyTorch on one thread: the tensors are tiny, and the machine is shared."""
    torch.set_num_threads(1)
