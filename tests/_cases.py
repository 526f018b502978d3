"""Many small checks in one test, every failure still reported under its own name.

Under pytest-xdist a test costs ~4 ms of CPU besides its body (hooks, the reports a worker sends,
the terminal; measured in benchmarks/README.md), more than many checks cost. ``check_all`` runs a
group of named checks, all of them even after a failure, and fails once listing every failing
one; ``parametrize_in_one`` turns a parametrised test into one such group, each case named
``test_x[id]`` as its own test was. (tests/row_cases.py does the same for the op table.)

``MINIGRAD_TESTS_APART=1`` in the environment makes ``parametrize_in_one`` pytest's own
``parametrize`` again: every case a test of its own, which ``-k`` selects and whose skip pytest
counts (slower under xdist: for a developer looking at a few cases, not for CI).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet
from _pytest.python import IdMaker

# Every case a test of its own (see the module's docstring)
APART = os.environ.get("MINIGRAD_TESTS_APART", "") not in ("", "0")

# parametrize's ids: a list, or a function of a value (None: pytest's own id)
Ids = Sequence[str] | Callable[[Any], object] | None

# What a check may raise when it fails: errors, and pytest's own failures (``pytest.raises`` and
# ``pytest.fail`` raise an exception outside ``Exception``).
FAILURES = (Exception, pytest.fail.Exception)


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its value, or the exception's type and text."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc)


def check_all(checks: Iterable[tuple[str, Callable[[], Any]]],
              expected: Mapping[str, str] | None = None) -> None:
    """``check()`` for every ``(name, check)``, even after a failure; then one failure listing
    every failing check as ``<name>: <error type>: <full message>``, the first one's traceback
    chained.

    ``name`` is the id the check had as a test of its own (``test_x[add-float64]``). A check
    that calls ``pytest.skip`` is skipped alone, the others still run; the group is skipped
    only if every check is (giving their reasons). A check must not call ``pytest.xfail`` (a
    failure here). ``expected`` maps the names of checks that must fail to the reason, as strict
    xfails did: one that passes fails the group; if only those fail, the group is an xfail
    giving their reasons.
    """
    expected = expected or {}
    failures: list[str] = []
    failed_expected: list[str] = []
    skipped: list[str] = []
    first: BaseException | None = None
    total = 0
    for name, check in checks:
        total += 1
        try:
            check()
        except pytest.skip.Exception as skip:
            skipped.append(f"{name}: {skip.msg}")
            continue
        except FAILURES as error:
            if name in expected:
                failed_expected.append(f"{name}: {expected[name]}")
                continue
            failures.append(f"{name}: {type(error).__name__}: {error}")
            first = first or error
            continue
        if name in expected:
            failures.append(f"{name} passes, but is expected to fail ({expected[name]}): "
                            "remove the xfail")
    fail_listing(failures, total, "checks", first)
    if failed_expected:
        pytest.xfail("expected failures: " + "; ".join(failed_expected))
    if skipped and len(skipped) == total:
        pytest.skip("every check skipped: " + "; ".join(skipped))


def fail_listing(failures: list[str], total: int, what: str,
                 first: BaseException | None) -> None:
    """Raise one AssertionError listing ``failures`` (of ``total`` ``what``), if any."""
    if failures:
        lines = "\n".join(f"- {line}" for line in failures)
        raise AssertionError(f"{len(failures)} of {total} {what} failed:\n{lines}") from first


def case_ids(names: Sequence[str], rows: Sequence[tuple[Any, ...]],
             ids: Ids = None,
             given: Sequence[str | None] | None = None) -> list[str]:
    """The ids pytest gives these parameter rows (``ids`` or ``ids(value)``, else a row's
    ``pytest.param`` id, else its values joined by ``-``; repeated ids numbered): made by
    pytest's own ``IdMaker``, so they are the ids the rows had as tests of their own."""
    given = given or [None] * len(rows)
    sets = [ParameterSet.param(*row, id=given_id) for row, given_id in zip(rows, given)]
    idfn = ids if callable(ids) else None  # (ids=function: pytest's idfn)
    maker = IdMaker(argnames=names, parametersets=sets, idfn=idfn,
                    ids=None if callable(ids) else ids, config=None, nodeid=None)
    return [str(made) for made in maker.make_unique_parameterset_ids()]


def _strict_xfail_reason(param: ParameterSet) -> str | None:
    """The reason of the case's strict xfail mark (None if unmarked); other marks refused."""
    for mark in param.marks:
        if mark.name != "xfail" or not mark.kwargs.get("strict"):
            raise TypeError(f"parametrize_in_one: case {param.id or param.values!r} has a mark "
                            "other than xfail(strict=True): it needs a test of its own")
        return str(mark.kwargs.get("reason", ""))
    return None


@dataclass(frozen=True)
class _Level:
    """One ``parametrize_in_one`` decorator's cases: each row's arguments, id and xfail reason."""

    names: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    labels: tuple[str, ...]
    reasons: tuple[str | None, ...]


def _level(argnames: str | Sequence[str], argvalues: Iterable[Any],
           ids: Ids) -> _Level:
    """The cases of one decorator, read as ``@pytest.mark.parametrize`` reads its arguments."""
    names = ([n.strip() for n in argnames.split(",")] if isinstance(argnames, str)
             else list(argnames))
    rows: list[tuple[Any, ...]] = []
    given: list[str | None] = []  # pytest.param(..., id=...)
    reasons: list[str | None] = []  # pytest.param(..., marks=pytest.mark.xfail(strict=True))
    for value in argvalues:
        given.append(None)
        reasons.append(None)
        if isinstance(value, ParameterSet):
            given[-1] = value.id
            reasons[-1] = _strict_xfail_reason(value)
            value = value.values if len(names) > 1 else value.values[0]
        rows.append(tuple(value) if len(names) > 1 else (value,))
    labels = case_ids(names, rows, ids, given)
    return _Level(tuple(names), tuple(rows), tuple(labels), tuple(reasons))


def _product(levels: Sequence[_Level]) -> list[tuple[str, dict[str, Any], str | None]]:
    """Every combination of the levels' cases as stacked ``parametrize`` decorators make them:
    (id, arguments, xfail reason); the decorator nearest the function varies slowest and comes
    first in the id (``test_x[<nearest>-<next>]``), as in pytest."""
    first, *rest = levels
    combos = [(label, dict(zip(first.names, row)), reason)
              for label, row, reason in zip(first.labels, first.rows, first.reasons)]
    for level in rest:
        combos = [(f"{label}-{extra}", {**kwargs, **dict(zip(level.names, row))},
                   "; ".join(filter(None, (reason, extra_reason))) or None)
                  for label, kwargs, reason in combos
                  for extra, row, extra_reason in zip(level.labels, level.rows, level.reasons)]
    return combos


def _label(name: str) -> str:
    """A case's id: ``test_x[<id>]`` -> ``<id>``."""
    return name[name.index("[") + 1:-1]


def parametrize_in_one(argnames: str | Sequence[str], argvalues: Iterable[Any],
                       ids: Ids = None,
                       per_test: int | None = None) -> Callable[[Callable[..., Any]], Any]:
    """``@pytest.mark.parametrize``'s arguments, but one test that runs every case through
    ``check_all``, each named ``<test>[<id>]`` as pytest would have named its own test.

    Stacked, the decorators make one test for every combination of their cases, named as
    stacked ``parametrize`` decorators name them. The test function takes only the parameters
    (no fixtures: the cases would share them). A case may be marked
    ``pytest.mark.xfail(strict=True)`` (``check_all``'s ``expected``), with no other mark.

    ``per_test=n`` (on the outermost decorator) makes a test of every ``n`` consecutive cases
    instead of one of them all, ``test_x[<first id>..<last id>]``: cases that take longer are
    spread over the xdist workers, and none holds one worker long at the end of the run.

    With ``MINIGRAD_TESTS_APART`` set it is ``pytest.mark.parametrize`` (ids and marks alike).
    """
    if APART:
        return pytest.mark.parametrize(argnames, argvalues, ids=ids)
    level = _level(argnames, argvalues, ids)

    def decorate(function: Callable[..., Any]) -> Callable[[], None]:
        # Under another parametrize_in_one: the function it wraps, and its cases first.
        inner: tuple[Callable[..., Any], tuple[_Level, ...]] = getattr(
            function, "_in_one", (function, ()))
        base, levels = inner[0], (*inner[1], level)
        cases = _product(levels)
        named = [f"{base.__name__}[{label}]" for label, _, _ in cases]
        expected = {name: reason for name, (_, _, reason) in zip(named, cases)
                    if reason is not None}

        calls = [(name, functools.partial(base, **kwargs))
                 for name, (_, kwargs, _) in zip(named, cases)]
        if per_test is None:
            def test() -> None:
                check_all(calls, expected)
        else:
            def test(calls: list[tuple[str, Callable[[], Any]]]) -> None:
                check_all(calls, expected)

            groups = [calls[start:start + per_test] for start in range(0, len(calls), per_test)]
            test = pytest.mark.parametrize("calls", [  # type: ignore[assignment]
                pytest.param(group, id=f"{_label(group[0][0])}..{_label(group[-1][0])}")
                for group in groups])(test)
        test.__name__ = test.__qualname__ = base.__name__
        test.__doc__ = base.__doc__
        test.__module__ = base.__module__
        test._in_one = (base, levels)  # type: ignore[attr-defined]
        return test

    return decorate
