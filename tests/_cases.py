"""Many small checks in one test, every failure still reported under its own name.

Under pytest-xdist a test costs ~4 ms of CPU besides its body (hooks, the reports a worker sends,
the terminal; measured in benchmarks/README.md), more than many checks cost. ``check_all`` runs a
group of named checks, all of them even after a failure, and fails once listing every failing
one; ``parametrize_in_one`` turns a parametrised test into one such group, each case named
``test_x[id]`` as its own test was. (tests/row_cases.py does the same for the op table.)
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet

# What a check may raise when it fails: errors, and pytest's own failures (``pytest.raises`` and
# ``pytest.fail`` raise an exception outside ``Exception``).
FAILURES = (Exception, pytest.fail.Exception)


def check_all(checks: Iterable[tuple[str, Callable[[], Any]]],
              expected: Mapping[str, str] | None = None) -> None:
    """``check()`` for every ``(name, check)``, even after a failure; then one failure listing
    every failing check as ``<name>: <error type>: <full message>``, the first one's traceback
    chained.

    ``name`` is the id the check had as a test of its own (``test_x[add-float64]``). A check
    must not skip or xfail (that would end the group). ``expected`` maps the names of checks
    that must fail to the reason, as strict xfails did: one that passes fails the group; if only
    those fail, the group is an xfail giving their reasons.
    """
    expected = expected or {}
    failures: list[str] = []
    failed_expected: list[str] = []
    first: BaseException | None = None
    total = 0
    for name, check in checks:
        total += 1
        try:
            check()
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


def fail_listing(failures: list[str], total: int, what: str,
                 first: BaseException | None) -> None:
    """Raise one AssertionError listing ``failures`` (of ``total`` ``what``), if any."""
    if failures:
        lines = "\n".join(f"- {line}" for line in failures)
        raise AssertionError(f"{len(failures)} of {total} {what} failed:\n{lines}") from first


def _id_part(name: str, value: Any, index: int) -> str:
    # As pytest's _idval_from_value: text for numbers, strings, None, enums, patterns and named
    # things (functions, classes); the argument's name and index for others.
    if isinstance(value, (str, int, float, bool, complex, type(None), enum.Enum)):
        return str(value)
    if isinstance(value, re.Pattern):
        return value.pattern
    if isinstance(getattr(value, "__name__", None), str):
        return value.__name__
    return f"{name}{index}"


def case_ids(names: Sequence[str], rows: Sequence[tuple[Any, ...]],
             ids: Sequence[str] | None = None,
             given: Sequence[str | None] | None = None) -> list[str]:
    """The ids pytest gives these parameter rows (``ids``, else a row's ``pytest.param`` id,
    else its values joined by ``-``; repeated ids numbered as pytest numbers them)."""
    given = given or [None] * len(rows)
    made = list(ids) if ids is not None else [
        given[i] if given[i] is not None
        else "-".join(_id_part(n, v, i) for n, v in zip(names, row)) for i, row in enumerate(rows)]
    counts: dict[str, int] = {}
    for made_id in made:
        counts[made_id] = counts.get(made_id, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for made_id in made:
        if counts[made_id] > 1:
            number = seen.get(made_id, 0)
            seen[made_id] = number + 1
            made_id = f"{made_id}{number}"
        out.append(made_id)
    return out


def _strict_xfail_reason(param: ParameterSet) -> str | None:
    """The reason of the case's strict xfail mark (None if unmarked); other marks refused."""
    for mark in param.marks:
        if mark.name != "xfail" or not mark.kwargs.get("strict"):
            raise TypeError(f"parametrize_in_one: case {param.id or param.values!r} has a mark "
                            "other than xfail(strict=True): it needs a test of its own")
        return str(mark.kwargs.get("reason", ""))
    return None


def parametrize_in_one(argnames: str | Sequence[str], argvalues: Iterable[Any],
                       ids: Sequence[str] | None = None) -> Callable[[Callable[..., Any]], Any]:
    """``@pytest.mark.parametrize``'s arguments, but one test that runs every case through
    ``check_all``, each named ``<test>[<id>]`` as pytest would have named its own test.

    The test function takes only the parameters (no fixtures: the cases would share them). A
    case may be marked ``pytest.mark.xfail(strict=True)`` (``check_all``'s ``expected``), with
    no other mark.
    """
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

    def decorate(function: Callable[..., Any]) -> Callable[[], None]:
        named = [f"{function.__name__}[{label}]" for label in labels]
        expected = {name: reason for name, reason in zip(named, reasons) if reason is not None}

        def test() -> None:
            check_all(((name, functools.partial(function, **dict(zip(names, row))))
                       for name, row in zip(named, rows)), expected)

        test.__name__ = test.__qualname__ = function.__name__
        test.__doc__ = function.__doc__
        test.__module__ = function.__module__
        return test

    return decorate
