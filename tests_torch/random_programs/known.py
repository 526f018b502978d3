"""Divergences of known classes that are not fixed on this branch yet, each with its issue.

The CI batch fails on any divergence this module does not recognise. Keep every rule narrow
(it must not hide a new kind of divergence) and delete it as soon as its fix lands: the list
is meant to shrink to nothing (ZeroTensor's class excepted: an internal of PyTorch's that
minigrad does not reproduce; and PyTorch's own failed internal asserts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests_torch.random_programs.compare import Divergence
from tests_torch.random_programs.generator import Statement
from tests_torch.random_programs.runner import Run


@dataclass(frozen=True)
class KnownClass:
    """A class of divergence: its name, where it is tracked, and how to recognise it."""

    name: str
    issue: str
    matches: Callable[[list[Statement], Run, Divergence], bool]


def _only_pytorch_raised(divergence: Divergence, text: str) -> bool:
    """PyTorch raised an error whose text starts with ``text``, and minigrad did not raise."""
    error = divergence.torch
    return (
        divergence.category == "raise"
        and divergence.minigrad is None
        and error is not None
        and error[1].startswith(text)
    )


def _zero_tensor_is_immutable(
    program: list[Statement], minigrad_run: Run, divergence: Divergence
) -> bool:
    """PyTorch raised because a gradient it holds is a ZeroTensor, and minigrad did not.

    A ZeroTensor is PyTorch's internal stand-in for a gradient known to be all zeros (abs's
    double backward makes one); accumulating into it again raises. minigrad has no such
    tensor (its zeros are ordinary), so the class stays: recognised by PyTorch's own text.
    """
    return _only_pytorch_raised(divergence, "ZeroTensors are immutable.")


def _retain_grad_assert(
    program: list[Statement], minigrad_run: Run, divergence: Divergence
) -> bool:
    """PyTorch failed its own internal assert on a retained, detach_()-ed tensor written again.

    ``t2.retain_grad(); t2.detach_(); t2.sub_(t0)`` (t0 requiring grad): PyTorch writes, gives
    t2 its new node, then asserts that the retain_grad hook's old node exists (variable.cpp,
    ``old_fn``): a bug of PyTorch's, which minigrad does not copy. Recognised by its text.
    """
    return _only_pytorch_raised(divergence, "old_fn INTERNAL ASSERT FAILED at ")


# A rule names its class and issue, and recognises it narrowly, by the facts the runner
# records (see runner.py) or PyTorch's own text.
KNOWN: tuple[KnownClass, ...] = (
    KnownClass("PyTorch's ZeroTensor gradients", "issue 8", _zero_tensor_is_immutable),
    KnownClass("PyTorch's retain_grad assert after detach_", "issue 8", _retain_grad_assert),
)


def classify(program: list[Statement], minigrad_run: Run, divergence: Divergence) -> str | None:
    """The known class of ``divergence`` (its name and issue), or None if it is new."""
    for known in KNOWN:
        if known.matches(program, minigrad_run, divergence):
            return f"{known.name} [{known.issue}]"
    return None
