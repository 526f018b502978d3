"""One test per op-table row (and dtype) that runs all of the row's samples in a loop.

The op-table tests used to be parametrised per sample: ~106,000 tests, whose per-test overhead
(hooks, reports sent from the xdist workers, the terminal) cost more CPU than their bodies. A
test made by ``row_cases`` holds every sample of one row; ``check_each`` runs them all, even
after a failure, and fails once with every failing sample's name, dtype and assertion text (the
first failure's traceback chained), so no sample goes unchecked or unreported.

A row's ``known_bugs`` work as the per-sample strict xfails did: a listed sample that fails is
expected; one that passes fails the test (remove the entry); if only listed samples fail, the
test is an xfail giving their reasons.

With ``row_cases(..., one_test_for_dtypes=True)`` a test holds every dtype of its row, each
failure still named ``<row>-<sample>-<dtype>`` (tests/_cases.py groups other tests alike).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _cases import FAILURES, fail_listing
from opinfo import OpInfo, Sample


def row_rng(name: str) -> np.random.Generator:
    """The seeded generator a row's samples come from (stable per row name)."""
    return np.random.default_rng(zlib.crc32(name.encode()))


# Each row's samples, drawn once per process: every op-table test function (13 in tests_torch)
# asks for every row's (~1,250 rows), at collection, in every xdist worker. A redraw gives equal
# samples (the generator is seeded by the row's name); sharing them is safe as no check writes to
# a sample: the arrays become tensors through copies (test_ops.build_args, misuse.to_lib).
_SAMPLES: dict[str, tuple[OpInfo, tuple[Sample, ...]]] = {}


def row_samples(row: OpInfo) -> list[Sample]:
    """The row's samples, drawn from its own seeded generator (once per process and row)."""
    cached = _SAMPLES.get(row.name)
    if cached is None or cached[0] is not row:
        cached = _SAMPLES[row.name] = (row, tuple(row.samples(row_rng(row.name))))
    return list(cached[1])


def sample_label(index: int, sample: Sample) -> str:
    """The sample's name in test ids and failure reports (its index if it has none)."""
    return sample.name or str(index)


def known_bug_reason(row: OpInfo, sample: Sample, test: str) -> str:
    """The reason ``row.known_bugs`` gives for ``test`` (or ``test:sample``), if the library
    under test is minigrad (PyTorch itself passes: the reference run validates the case);
    "" if the case is expected to pass."""
    reason = row.known_bugs.get(f"{test}:{sample.name}") or row.known_bugs.get(test)
    return reason if reason and LIB == "minigrad" else ""


@dataclass(frozen=True)
class Item:
    """One check of a row: a sample (or what the check takes, e.g. ``(sample, position)``)."""

    label: str
    value: Any
    known_bug: str = ""


@dataclass(frozen=True)
class RowCase:
    """The checks one test runs: a row's items, in one dtype ("" if the test has none)."""

    row: OpInfo
    items: tuple[Item, ...]
    dtype: str = ""


def row_cases(
    rows: Iterable[OpInfo], keep: Callable[[OpInfo, Sample], bool] | None = None,
    test: str = "", dtypes: Iterable[str] = ("",),
    expand: Callable[[OpInfo, Sample], Iterable[tuple[str, Any]]] | None = None,
    known: Callable[[OpInfo, str], str] | None = None, one_test_for_dtypes: bool = False,
) -> list[Any]:
    """``pytest.param(RowCase, id="exp-float32")`` for every row (and dtype) with a sample that
    ``keep`` accepts (rows with none make no test, rather than an empty one).

    ``expand(row, sample)`` turns a sample into several checks ``(suffix, value)`` (labelled
    ``<sample>-<suffix>``); by default the check takes the sample itself. A known bug comes from
    ``row.known_bugs`` for ``test``, or else from ``known(row, label)``.

    With ``one_test_for_dtypes``, one test per row (``id="exp"``) holds every dtype's checks,
    dtype by dtype: each check takes ``(value, dtype)`` and is labelled ``<sample>-<dtype>``, so
    a failure reads ``exp-0d-float32`` as with a test per dtype.
    """
    dtypes = tuple(dtypes)
    params = []
    for row in rows:
        items = []
        for index, sample in enumerate(row_samples(row)):
            if keep is not None and not keep(row, sample):
                continue
            label = sample_label(index, sample)
            reason = known_bug_reason(row, sample, test)
            pairs = [("", sample)] if expand is None else expand(row, sample)
            for suffix, value in pairs:
                full = f"{label}-{suffix}" if suffix else label
                why = reason or (known(row, full) if known is not None else "")
                items.append(Item(full, value, why))
        if not items:
            continue
        if one_test_for_dtypes:
            grouped = tuple(Item(f"{item.label}-{dtype}", (item.value, dtype), item.known_bug)
                            for dtype in dtypes for item in items)
            params.append(pytest.param(RowCase(row, grouped), id=row.name))
            continue
        for dtype in dtypes:
            case = RowCase(row, tuple(items), dtype)
            params.append(pytest.param(case, id=f"{row.name}-{dtype}" if dtype else row.name))
    return params


def check_each(case: RowCase, check: Callable[[Any], None]) -> None:
    """``check(item.value)`` for every item of ``case``; then one failure listing them all.

    Every item runs even after a failure. Failures are reported as ``<row>-<sample>-<dtype>:
    <error type>: <full message>`` with the first one's traceback chained; known bugs as
    described in the module docstring.
    """
    outcome = _Outcome()
    outcome.run(case, check)
    outcome.report()


@dataclass(frozen=True)
class RowTests:
    """One row's cases of several test functions, run by one test (``check_tests``)."""

    row: OpInfo
    parts: tuple[tuple[str, RowCase], ...]  # (the test function's name, its case)


def rows_in_one_test(tests: dict[str, list[Any]]) -> list[Any]:
    """``pytest.param(RowTests, id=row.name)`` for every row that a test of ``tests`` (a test
    function's name -> its ``row_cases(...)``) has a case for: one test per row, not per row and
    test function."""
    parts: dict[str, list[tuple[str, RowCase]]] = {}
    rows: dict[str, OpInfo] = {}
    for test, params in tests.items():
        for param in params:
            case = param.values[0]
            parts.setdefault(case.row.name, []).append((test, case))
            rows[case.row.name] = case.row
    return [pytest.param(RowTests(rows[name], tuple(cases)), id=name)
            for name, cases in parts.items()]


def check_tests(case: RowTests, checks: dict[str, Callable[[Any], None]]) -> None:
    """``check_each`` of every part of ``case`` with ``checks[test]``, then one failure (or
    xfail) for them all; each line names its test function: ``test_x: <row>-<sample>: ...``."""
    outcome = _Outcome()
    for test, part in case.parts:
        outcome.run(part, checks[test], f"{test}: ")
    outcome.report()


class _Outcome:
    """The failures, known bugs that fail and known bugs that pass of the checks run so far."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.passed_known: list[str] = []
        self.failed_known: list[str] = []
        self.first: BaseException | None = None
        self.total = 0

    def run(self, case: RowCase, check: Callable[[Any], None], prefix: str = "") -> None:
        """``check(item.value)`` for every item of ``case``, each outcome noted."""
        suffix = f"-{case.dtype}" if case.dtype else ""
        self.total += len(case.items)
        for item in case.items:
            where = f"{prefix}{case.row.name}-{item.label}{suffix}"
            try:
                check(item.value)
            except FAILURES as error:
                if item.known_bug:
                    self.failed_known.append(f"{where}: {item.known_bug}")
                    continue
                self.failures.append(f"{where}: {type(error).__name__}: {error}")
                self.first = self.first or error
                continue
            if item.known_bug:
                self.passed_known.append(f"{where} passes, but the row's known_bugs says it "
                                         f"fails ({item.known_bug}): remove the entry")

    def report(self) -> None:
        """Fail listing every failure (and known bug that passes); else xfail if a known bug
        failed."""
        fail_listing([*self.failures, *self.passed_known], self.total, "samples", self.first)
        if self.failed_known:
            pytest.xfail("known bugs: " + "; ".join(self.failed_known))
