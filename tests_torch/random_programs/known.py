"""Divergences of known classes that are not fixed on this branch yet, each with its issue.

The CI batch fails on any divergence this module does not recognise. Keep every rule narrow
(it must not hide a new kind of divergence) and delete it as soon as its fix lands: the list
is meant to shrink to nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests_torch.random_programs.compare import Divergence
from tests_torch.random_programs.generator import Statement
from tests_torch.random_programs.runner import Run

_STALE = "modified by an inplace operation"


@dataclass(frozen=True)
class KnownClass:
    """A class of divergence: its name, where it is tracked, and how to recognise it."""

    name: str
    issue: str
    matches: Callable[[list[Statement], Run, Divergence], bool]


def _inplace_operand_shares_counter(
    program: list[Statement], minigrad_run: Run, divergence: Divergence
) -> bool:
    """Issue 8, class 1: ``x.mul_(x)``, ``t2 = t0.detach(); t2.div_(t0)``.

    PyTorch saves the other operand before the write and bumps the shared counter after it, so
    backward finds the saved operand stale; minigrad does not raise, or names another tensor.
    Recognised only when an earlier in-place op's operand shared the written tensor's counter
    and PyTorch's first difference is its stale-saved-tensor error at a backward.
    """
    if divergence.category not in ("raise", "error") or divergence.statement is None:
        return False
    error = divergence.torch
    if error is None or _STALE not in error[1]:
        return False
    earlier = minigrad_run.facts[: divergence.statement]
    return any("inplace_operand_shares_counter" in facts for facts in earlier)


def _none_operand(program: list[Statement], minigrad_run: Run, divergence: Divergence) -> bool:
    """Issue 10 (argument errors, branch `misuse`): an op given None instead of a tensor.

    ``t5 = t3.grad`` binds None when no gradient was accumulated; ``t1 + t5``, ``t1.add_(t5)``
    then raise PyTorch's TypeError, while minigrad turns None into an object array. Recognised
    only at the statement that uses None, when PyTorch raised a TypeError about ``NoneType``.
    """
    index = divergence.statement
    if divergence.category not in ("raise", "error") or index is None:
        return False
    error = divergence.torch
    return (
        error is not None
        and error[0] == "TypeError"
        and "NoneType" in error[1]
        and "operand_is_none" in minigrad_run.facts[index]
    )


_REBASE_ERROR = "is a view and its base or another view of its base has been modified inplace"


def _unpack_order(program: list[Statement], minigrad_run: Run, divergence: Divergence) -> bool:
    """Issue 8, found by this tester: which stale saved tensor a node reports first.

    PyTorch's generated nodes unpack their saved tensors in the order of their names
    (``other`` before ``self``), so with both stale the error names ``other``; minigrad checks
    them in the order they were saved (and, for a view made by a multi-output op, raises the
    view's error while naming it). Recognised only when both raise at the same statement,
    PyTorch its stale-tensor error, minigrad one naming another tensor or the view's error.
    """
    if divergence.category != "error":
        return False
    expected, actual = divergence.torch[1], divergence.minigrad[1]
    if _STALE not in expected:
        return False
    if _REBASE_ERROR in actual:
        return True
    return _STALE in actual and _named_tensor(expected) != _named_tensor(actual)


def _named_tensor(message: str) -> str:
    return message.split("]", 1)[0]


def _backward_formula_nodes(
    program: list[Statement], minigrad_run: Run, divergence: Divergence
) -> bool:
    """Issue 8, found by this tester: the nodes a gradient taken with create_graph carries.

    PyTorch records fused nodes for many backward formulas (``SigmoidBackwardBackward0``,
    ``ThresholdBackwardBackward0``); minigrad records the ops its formula is written with
    (``MulBackward0``, ``WhereBackward0``). The values and higher-order gradients agree.
    Recognised only as a ``grad_fn`` difference of a result of ``autograd.grad`` (or a view).
    """
    return divergence.category == "grad_fn" and divergence.name in minigrad_run.from_grad


KNOWN: tuple[KnownClass, ...] = (
    KnownClass(
        "in-place op whose operand shares the written tensor's counter",
        "issue 8, class 1 (fixed for most programs; 12 in 20,000 left, e.g. after pow)",
        _inplace_operand_shares_counter,
    ),
    KnownClass(
        "None passed where a tensor is expected",
        "issue 10 (the TypeError is raised; some messages name the argument differently)",
        _none_operand,
    ),
    KnownClass(
        "order in which a node checks its stale saved tensors",
        "issue 8, found by the random-program tester",
        _unpack_order,
    ),
    KnownClass(
        "nodes recorded by backward formulas under create_graph",
        "issue 8, found by the random-program tester",
        _backward_formula_nodes,
    ),
)


def classify(program: list[Statement], minigrad_run: Run, divergence: Divergence) -> str | None:
    """The known class of ``divergence`` (its name and issue), or None if it is new."""
    for known in KNOWN:
        if known.matches(program, minigrad_run, divergence):
            return f"{known.name} [{known.issue}]"
    return None
