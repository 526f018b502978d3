"""The per-row runner of the op-table tests (tests/row_cases.py): no sample goes unchecked or
unreported, and ``known_bugs`` work as strict xfails per sample."""

from __future__ import annotations

from typing import Any

import _cases
import numpy as np
import pytest
import row_cases
from _cases import check_all, parametrize_in_one
from opinfo import OpInfo, Sample
from row_cases import check_each

# The known-bug entries count on minigrad only: pretend it is the library under test, also in
# the reference run.
pytestmark = pytest.mark.usefixtures("on_minigrad")


@pytest.fixture
def on_minigrad(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_cases, "LIB", "minigrad")


def _row(known_bugs: dict[str, str] | None = None) -> OpInfo:
    def samples(rng: np.random.Generator) -> list[Sample]:
        return [Sample((np.float64(value),), name=name)
                for name, value in [("a", 1.0), ("b", 2.0), ("", 3.0), ("d", 4.0)]]

    return OpInfo("fake", lambda lib, x: x, samples, known_bugs=known_bugs or {})


def _case(row: OpInfo, test: str = "test_x", dtype: str = "float32", keep: Any = None) -> Any:
    (param,) = row_cases.row_cases([row], keep, test, (dtype,))
    return param


def _failing_on(*values: float) -> tuple[list[float], Any]:
    seen: list[float] = []

    def check(sample: Sample) -> None:
        seen.append(float(sample.args[0]))
        assert float(sample.args[0]) not in values, f"bad value {sample.args[0]}"

    return seen, check


def test_one_test_per_row_and_dtype_with_a_readable_id() -> None:
    params = row_cases.row_cases([_row()], test="test_x", dtypes=("float32", "float64"))
    assert [p.id for p in params] == ["fake-float32", "fake-float64"]
    assert [i.label for i in params[0].values[0].items] == ["a", "b", "2", "d"]
    assert [p.id for p in row_cases.row_cases([_row()])] == ["fake"]
    assert row_cases.row_cases([_row()], keep=lambda row, sample: False) == []


def test_every_sample_runs_and_every_failure_is_reported() -> None:
    seen, check = _failing_on(1.0, 3.0)
    with pytest.raises(AssertionError) as info:
        check_each(_case(_row()).values[0], check)
    assert seen == [1.0, 2.0, 3.0, 4.0]
    text = str(info.value)
    assert text.startswith("2 of 4 samples failed:\n")
    assert "- fake-a-float32: AssertionError: bad value 1.0" in text
    assert "- fake-2-float32: AssertionError: bad value 3.0" in text
    assert "fake-b" not in text and "fake-d" not in text
    # the first failure's traceback is chained
    assert "bad value 1.0" in str(info.value.__cause__)


def test_pytest_failures_inside_a_check_are_collected_too() -> None:
    def check(sample: Sample) -> None:
        if sample.name == "a":
            with pytest.raises(ValueError):
                pass
        if sample.name == "b":
            raise RuntimeError("boom")

    with pytest.raises(AssertionError, match="2 of 4") as info:
        check_each(_case(_row()).values[0], check)
    assert "fake-b-float32: RuntimeError: boom" in str(info.value)


def test_a_known_bug_that_fails_is_an_xfail_with_its_reason() -> None:
    row = _row({"test_x:b": "b is wrong", "test_y": "all wrong"})
    seen, check = _failing_on(2.0)
    with pytest.raises(pytest.xfail.Exception, match="fake-b-float32: b is wrong"):
        check_each(_case(row).values[0], check)
    assert seen == [1.0, 2.0, 3.0, 4.0]
    _, check = _failing_on(1.0, 2.0, 3.0, 4.0)
    with pytest.raises(pytest.xfail.Exception, match="fake-d-float32: all wrong"):
        check_each(_case(row, "test_y").values[0], check)


def test_a_known_bug_that_passes_fails_the_test() -> None:
    row = _row({"test_x:b": "b is wrong"})
    _, check = _failing_on()
    with pytest.raises(AssertionError, match="fake-b-float32 passes, .*remove the entry"):
        check_each(_case(row).values[0], check)


def test_an_unknown_failure_fails_even_beside_known_ones() -> None:
    row = _row({"test_x:b": "b is wrong"})
    _, check = _failing_on(2.0, 4.0)
    with pytest.raises(AssertionError, match="1 of 4 samples failed") as info:
        check_each(_case(row).values[0], check)
    assert "fake-d-float32" in str(info.value) and "fake-b" not in str(info.value)


def test_known_bugs_are_not_expected_of_pytorch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_cases, "LIB", "torch")
    row = _row({"test_x": "wrong"})
    _, check = _failing_on()
    check_each(_case(row).values[0], check)  # passes: nothing listed as known on PyTorch


def test_expanded_checks_and_their_own_known_bugs() -> None:
    params = row_cases.row_cases(
        [_row()], expand=lambda row, sample: [("arg0", (sample, 0)), ("arg1", (sample, 1))],
        known=lambda row, label: "listed" if label == "b-arg1" else "",
    )
    items = params[0].values[0].items
    assert [i.label for i in items][:4] == ["a-arg0", "a-arg1", "b-arg0", "b-arg1"]
    assert [i.known_bug for i in items][:4] == ["", "", "", "listed"]


def test_one_test_for_all_dtypes_names_each_failure_with_its_dtype() -> None:
    params = row_cases.row_cases([_row({"test_x:b": "b is wrong"})], test="test_x",
                                 dtypes=("float32", "float64"), one_test_for_dtypes=True)
    assert [p.id for p in params] == ["fake"]
    case = params[0].values[0]
    assert [i.label for i in case.items] == ["a-float32", "b-float32", "2-float32", "d-float32",
                                             "a-float64", "b-float64", "2-float64", "d-float64"]
    assert [i.known_bug for i in case.items] == ["", "b is wrong", "", ""] * 2
    seen: list[tuple[float, str]] = []

    def check(value: tuple[Sample, str]) -> None:
        sample, dtype = value
        seen.append((float(sample.args[0]), dtype))
        assert (sample.name, dtype) not in {("b", "float32"), ("d", "float64")}, "broken"

    with pytest.raises(AssertionError) as info:
        check_each(case, check)
    assert len(seen) == 8
    text = str(info.value)
    assert text.startswith("2 of 8 samples failed:\n")
    assert "- fake-d-float64: AssertionError: broken" in text
    assert "- fake-b-float64 passes, but the row's known_bugs says it fails" in text


def test_check_all_runs_every_check_and_names_every_failure() -> None:
    seen: list[str] = []

    def check(name: str, fails: bool) -> tuple[str, Any]:
        def run() -> None:
            seen.append(name)
            if name == "test_b[x]":
                pytest.fail("failed on purpose")
            assert not fails, f"{name} is broken"

        return name, run

    with pytest.raises(AssertionError) as info:
        check_all([check("test_a[x]", True), check("test_b[x]", False),
                             check("test_c[x-float64]", False), check("test_d[x]", True)])
    assert seen == ["test_a[x]", "test_b[x]", "test_c[x-float64]", "test_d[x]"]
    text = str(info.value)
    assert text.startswith("3 of 4 checks failed:\n")
    assert "- test_a[x]: AssertionError: test_a[x] is broken" in text
    assert "- test_b[x]: Failed: failed on purpose" in text
    assert "- test_d[x]: AssertionError: test_d[x] is broken" in text
    assert "test_c" not in text
    assert "test_a[x] is broken" in str(info.value.__cause__)
    check_all([check("test_c[x]", False)])  # nothing fails: nothing raised


def test_stacked_parametrize_in_one_runs_every_combination_named_as_pytest_names_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cases, "APART", False)  # (grouped, even in a MINIGRAD_TESTS_APART run)
    seen: list[tuple[Any, ...]] = []

    # pytest names these test_f[y-0-1_0] ... test_f[Z-x1_1]: the nearest decorator's id first,
    # repeated ids numbered (with "_" after a digit), pytest.param's id kept.
    @parametrize_in_one("a", [1, 1, "x1", "x1"])
    @parametrize_in_one("b,c", [("y", 0), pytest.param("z", 2, id="Z")])
    def test_f(a: Any, b: str, c: int) -> None:
        seen.append((b, c, a))
        assert not (a == 1 and c == 2), "broken"

    assert test_f.__name__ == "test_f"
    with pytest.raises(AssertionError) as info:
        test_f()
    assert seen == [(b, c, a) for b, c in [("y", 0), ("z", 2)] for a in [1, 1, "x1", "x1"]]
    text = str(info.value)
    assert text.startswith("2 of 8 checks failed:\n")
    assert "- test_f[Z-1_0]: AssertionError: broken" in text
    assert "- test_f[Z-1_1]: AssertionError: broken" in text


def test_parametrize_in_one_per_test_splits_the_cases_into_tests_of_n(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cases, "APART", False)
    seen: list[int] = []

    @parametrize_in_one("a", [0, 1, 2, 3, 4], ids=lambda a: f"v{a}", per_test=2)
    def test_g(a: int) -> None:
        seen.append(a)
        assert a != 3, "broken"

    (mark,) = test_g.pytestmark
    assert [param.id for param in mark.args[1]] == ["v0..v1", "v2..v3", "v4..v4"]
    for param in mark.args[1]:
        if param.id == "v2..v3":
            with pytest.raises(AssertionError, match=r"1 of 2 checks failed:\n- test_g\[v3\]"):
                test_g(*param.values)
        else:
            test_g(*param.values)
    assert seen == [0, 1, 2, 3, 4]


def test_parametrize_in_one_apart_is_pytests_own_parametrize(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cases, "APART", True)  # MINIGRAD_TESTS_APART=1
    values = [0, pytest.param(1, id="one")]

    @parametrize_in_one("a", values, ids=lambda a: f"v{a}", per_test=2)
    def test_h(a: int) -> None:
        assert a in (0, 1)

    (mark,) = test_h.pytestmark  # one parametrize of every case, not of groups of two
    assert (mark.name, mark.args) == ("parametrize", ("a", values))
    assert mark.kwargs["ids"](0) == "v0"


def test_a_check_that_skips_is_skipped_alone() -> None:
    seen: list[str] = []

    def check(name: str, outcome: str) -> tuple[str, Any]:
        def run() -> None:
            seen.append(name)
            if outcome == "skip":
                pytest.skip(f"{name} does not apply")
            assert outcome == "pass", f"{name} is broken"

        return name, run

    with pytest.raises(AssertionError, match=r"1 of 3 checks failed:\n- t\[c\]: "):
        check_all([check("t[a]", "skip"), check("t[b]", "pass"), check("t[c]", "fail")])
    check_all([check("t[a]", "skip"), check("t[b]", "pass")])  # passes
    with pytest.raises(pytest.skip.Exception, match=r"every check skipped: t\[a\]: t\[a\] does "):
        check_all([check("t[a]", "skip"), check("t[d]", "skip")])
    assert seen == ["t[a]", "t[b]", "t[c]", "t[a]", "t[b]", "t[a]", "t[d]"]
