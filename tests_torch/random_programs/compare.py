"""The first difference between PyTorch's and minigrad's run of one program."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tests_torch.random_programs.runner import Run

# float32 results of numpy and PyTorch may differ in the last bits (exp, sigmoid, chains).
_RTOL, _ATOL = 1e-5, 1e-6


@dataclass(frozen=True)
class Divergence:
    """Where the two runs first differ.

    ``category``: ``"raise"`` (one raised, the other not), ``"error"`` (both raised, differently),
    ``"warning"``, ``"tensors"`` (a name is a tensor in one run only) or the tensor field that
    differs (``"value"``, ``"grad"``, ``"grad_fn"``, ...). ``statement``: the statement's index
    for the first four, else None; ``name``: the tensor for field differences.
    """

    category: str
    statement: int | None
    name: str | None
    torch: Any
    minigrad: Any

    def describe(self) -> str:
        """One line for humans."""
        where = f"statement {self.statement}" if self.statement is not None else self.name
        return (
            f"{self.category} differs at {where}: "
            f"torch={self.torch!r}, minigrad={self.minigrad!r}"
        )


def compare(torch_run: Run, minigrad_run: Run, values: bool = True) -> Divergence | None:
    """The first difference, statements first (in order), then the tensors' final states.

    ``values=False``: the tensors' values are not compared (check.py, once their differences
    are found to be rounding the statements passed on: rounding.py); every other field is.
    """
    for index, (expected, actual) in enumerate(zip(torch_run.outcomes, minigrad_run.outcomes)):
        if (expected.error is None) != (actual.error is None):
            return Divergence("raise", index, None, expected.error, actual.error)
        if expected.error != actual.error and not _same_error(expected.error, actual.error):
            return Divergence("error", index, None, expected.error, actual.error)
        if expected.warnings != actual.warnings:
            return Divergence("warning", index, None, expected.warnings, actual.warnings)
    if torch_run.tensors.keys() != minigrad_run.tensors.keys():
        names = sorted(torch_run.tensors.keys() ^ minigrad_run.tensors.keys())
        return Divergence(
            "tensors", None, names[0], sorted(torch_run.tensors), sorted(minigrad_run.tensors)
        )
    for name, expected_fields in torch_run.tensors.items():
        actual_fields = minigrad_run.tensors[name]
        for key, expected in expected_fields.items():
            actual = actual_fields[key]
            if not same(expected, actual) and (values or key != "value"):
                return Divergence(key, None, name, expected, actual)
    return None


# Write tracking (on in anomaly mode, see minigrad/autograd/write_tracking.py and the README)
# appends to PyTorch's exact stale-saved-tensor text where the tensor was saved and each write
# since: a documented extension beyond PyTorch, so those lines are not a divergence.
_STALE = "one of the variables needed for gradient computation has been modified by an inplace"
_WHERE_LINES = ("saved by ", "modified by ", "and ")


def _same_error(expected: tuple[str, str], actual: tuple[str, str]) -> bool:
    """True if ``actual`` is PyTorch's error plus write tracking's lines (and nothing else)."""
    (expected_type, expected_text), (actual_type, actual_text) = expected, actual
    if expected_type != actual_type or not expected_text.startswith(_STALE):
        return False
    first, *extra = actual_text.split("\n")
    return first == expected_text and bool(extra) and all(
        line.startswith(_WHERE_LINES) for line in extra
    )


def same(expected: Any, actual: Any) -> bool:
    """Whether two read fields agree: arrays within the tolerance, anything else equal."""
    if isinstance(expected, np.ndarray) or isinstance(actual, np.ndarray):
        if not (isinstance(expected, np.ndarray) and isinstance(actual, np.ndarray)):
            return False
        return expected.shape == actual.shape and bool(
            np.allclose(expected, actual, rtol=_RTOL, atol=_ATOL, equal_nan=True)
        )
    if isinstance(expected, tuple) and isinstance(actual, tuple):
        return len(expected) == len(actual) and all(map(same, expected, actual))
    return type(expected) is type(actual) and expected == actual
