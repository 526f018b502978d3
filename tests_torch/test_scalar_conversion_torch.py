"""A Python number meets a tensor: what PyTorch converts it to, and what it refuses.

A Python int past int64 is a uint64 Scalar (a bool tensor refuses to promote with it);
comparisons and arithmetic wrap an int into an integer tensor's dtype; ``where``, ``threshold``,
``clamp_min``, ``pow``'s exponent and ``alpha`` convert their numbers with c10's overflow check
("value cannot be converted to type int without overflow"); sub negates ``alpha`` as a Scalar;
a tie of a one-sided clamp keeps x (0.0 against -0.0); bool tensors have no floor division
and no power with a bool tensor. Each call runs in both libraries, over tensors of every dtype
(1-d and 0-d) and numbers at and past the edges: the same result (dtype and values, signed
zeros told apart) or the same exception type and message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

NUMBERS = {
    "2**63": 2**63,
    "2**64-1": 2**64 - 1,
    "2**64": 2**64,
    "-2**63-1": -(2**63) - 1,
    "2**62": 2**62,
    "-2**63": -(2**63),
    "2**31": 2**31,
    "-1": -1,
    "256": 256,
    "2.5": 2.5,
    "1e300": 1e300,
    "-0.0": -0.0,
    "True": True,
}
DTYPES = ["int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64"]

Call = Callable[[Any, Any, Any], Any]
CALLS: dict[str, Call] = {
    "lt": lambda lib, x, v: x < v,
    "le": lambda lib, x, v: x <= v,
    "gt": lambda lib, x, v: x > v,
    "ge": lambda lib, x, v: x >= v,
    "eq": lambda lib, x, v: x == v,
    "ne": lambda lib, x, v: x != v,
    "reflected_lt": lambda lib, x, v: v < x,
    "eq_method": lambda lib, x, v: x.eq(v),
    "lt_function": lambda lib, x, v: lib.lt(x, v),
    "lt_in_place": lambda lib, x, v: x.clone().lt_(v),
    "add": lambda lib, x, v: x + v,
    "radd": lambda lib, x, v: v + x,
    "sub": lambda lib, x, v: x - v,
    "rsub": lambda lib, x, v: v - x,
    "mul": lambda lib, x, v: x * v,
    "div": lambda lib, x, v: x / v,
    "floordiv": lambda lib, x, v: x // v,
    "rfloordiv": lambda lib, x, v: v // x,
    "mod": lambda lib, x, v: x % v,
    "pow": lambda lib, x, v: x**v,
    "rpow": lambda lib, x, v: v**x,
    "pow_in_place": lambda lib, x, v: x.clone().pow_(v),
    "and": lambda lib, x, v: x & v,
    "xor": lambda lib, x, v: x ^ v,
    "lshift": lambda lib, x, v: x << v,
    "add_alpha": lambda lib, x, v: x.add(x, alpha=v),
    "sub_alpha": lambda lib, x, v: lib.sub(x, x, alpha=v),
    "sub_alpha_in_place": lambda lib, x, v: x.clone().sub_(x, alpha=v),
    "rsub_alpha": lambda lib, x, v: lib.rsub(x, 2, alpha=v),
    "where_other": lambda lib, x, v: lib.where(x > 0, x, v),
    "where_input": lambda lib, x, v: lib.where(x > 0, v, x),
    "clamp_min": lambda lib, x, v: x.clamp(min=v),
    "clamp_max": lambda lib, x, v: x.clamp(max=v),
    "clamp_min_function": lambda lib, x, v: lib.clamp_min(x, v),
    "clamp_max_method": lambda lib, x, v: x.clamp_max(v),
    "clamp_min_tensor": lambda lib, x, v: lib.clamp_min(x, lib.full_like(x, v)),
    "threshold": lambda lib, x, v: lib.threshold(x, v, 7),
    "threshold_value": lambda lib, x, v: lib.threshold(x, 1, v),
    "masked_fill": lambda lib, x, v: x.masked_fill(x > 0, v),
    "fill_": lambda lib, x, v: x.clone().fill_(v),
    "full_like": lambda lib, x, v: lib.full_like(x, v),
    "fmod": lambda lib, x, v: lib.fmod(x, v),
    "remainder": lambda lib, x, v: lib.remainder(x, v),
    "isin": lambda lib, x, v: lib.isin(x, v),
    "bucketize": lambda lib, x, v: lib.bucketize(v, x.reshape(-1)),
    "copysign": lambda lib, x, v: lib.copysign(x, v),
    "xlogy": lambda lib, x, v: lib.xlogy(x, v),
}


def _outcome(call: Call, lib: Any, dtype: str, number: Any, zero_dim: bool) -> Any:
    """What ``call`` gives: (dtype, values, zeros' signs) or (exception type, message)."""
    data = [True, False, True] if dtype == "bool" else [1, 0, 3]
    x = lib.tensor(data, dtype=getattr(lib, dtype))
    if zero_dim:
        x = x[1]
    try:
        result = call(lib, x, number)
    except Exception as error:  # noqa: BLE001 - the outcome compared may be any error
        return type(error).__name__, str(error).split("\n")[0]
    values = result.tolist()
    values = values if isinstance(values, list) else [values]
    signs = [math.copysign(1, v) if isinstance(v, float) and v == 0 else None for v in values]
    return str(result.dtype).split(".")[-1], values, signs


@parametrize_in_one("zero_dim", [False, True], ids=["1d", "0d"], per_test=47)
@parametrize_in_one("name", CALLS)
def test_a_number_with_a_tensor_as_pytorch(name: str, zero_dim: bool) -> None:
    differences = []
    for dtype in DTYPES:
        for label, number in NUMBERS.items():
            expected = _outcome(CALLS[name], torch, dtype, number, zero_dim)
            got = _outcome(CALLS[name], minigrad, dtype, number, zero_dim)
            if got != expected and not _both_nan(got, expected):
                differences.append(f"{dtype} with {label}: {got} != PyTorch's {expected}")
    assert not differences, "\n".join(differences)


def _both_nan(got: Any, expected: Any) -> bool:
    """The same outcome but for nans (which compare unequal)."""
    if len(got) != 3 or len(expected) != 3 or got[0] != expected[0]:
        return False
    pairs = list(zip(got[1], expected[1], strict=True))
    return all(a == b or (a != a and b != b) for a, b in pairs) and got[2] == expected[2]


def test_a_bool_tensor_to_a_bool_power_and_its_refusals() -> None:
    for program in (
        "b ** True",
        "b ** False",
        "b.pow(True)",
        "b.clone().pow_(True)",
        "b ** c",
        "True ** b",
        "b.clone().pow_(c)",
        "b // True",
        "True // b",
        "b.floor_divide(True)",
        "b.clone().floor_divide_(True)",
    ):
        outcomes = []
        for lib in (torch, minigrad):
            names = {"b": lib.tensor([True, False, True]), "c": lib.tensor([True, True, False])}
            try:
                outcomes.append(eval(program, {}, names).tolist())  # noqa: S307 - fixed programs
            except Exception as error:  # noqa: BLE001
                outcomes.append((type(error).__name__, str(error)))
        assert outcomes[1] == outcomes[0], program


def test_a_float16_fill_checks_its_number_except_into_one_element() -> None:
    for size in (0, 1, 2):
        for fill in ("fill_", "full"):
            outcomes = []
            for lib in (torch, minigrad):
                x = lib.zeros(size, dtype=lib.float16)
                try:
                    result = x.fill_(70000.0) if fill == "fill_" else lib.full(
                        (size,), 70000.0, dtype=lib.float16)
                    outcomes.append(result.tolist())
                except RuntimeError as error:
                    outcomes.append(str(error))
            assert outcomes[1] == outcomes[0], (fill, size)
