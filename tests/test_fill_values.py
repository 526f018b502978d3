"""A number written into a tensor: PyTorch's overflow check (c10's checked_convert), conversion.

fill_, full, full_like, new_full, masked_fill_ and index_fill_ (and clamp's number bounds)
refuse a number their tensor's dtype cannot hold ("value cannot be converted to type int without
overflow") and convert one it can as C does. minigrad wrote numpy's cast of it (int32's lowest
for 3e9, with a RuntimeWarning for nan). Every expected value and text here is PyTorch 2.13's;
this project's pytest turns warnings into errors, so a numpy warning fails the test too.
"""
import math

import pytest
from _backend import mg
from _cases import parametrize_in_one

NAN, INF = float("nan"), float("inf")
FILLS = {
    "fill_": lambda dtype, value: mg.zeros(1, dtype=dtype).fill_(value),
    "full": lambda dtype, value: mg.full((1,), value, dtype=dtype),
    "full_like": lambda dtype, value: mg.full_like(mg.zeros(1, dtype=dtype), value),
    "new_full": lambda dtype, value: mg.zeros(1, dtype=dtype).new_full((1,), value),
    "masked_fill_": lambda dtype, value: mg.zeros(1, dtype=dtype).masked_fill_(
        mg.tensor([True]), value),
    "index_fill_": lambda dtype, value: mg.zeros(1, dtype=dtype).index_fill_(
        0, mg.tensor([0]), value),
}
# (dtype, value, what is written, or the C++ type the error names)
CASES = [
    ("int64", 3e9, 3000000000),
    ("int64", 2.0**63, -2**63),  # (2**63 passes the check as a double; C's conversion wraps)
    ("int64", NAN, "int64_t"),
    ("int64", INF, "int64_t"),
    ("int64", 1e300, "int64_t"),
    ("int32", 3e9, "int"),
    ("int32", 70000.0, 70000),
    ("int32", -2.9, -2),
    ("int32", 2**40, "int"),
    ("int16", 255.9, 255),
    ("int16", 70000, "int16_t"),
    ("int8", 300, "int8_t"),
    ("int8", -1, -1),
    ("uint8", -1, 255),  # a negative int wraps into an unsigned dtype
    ("uint8", -1.0, "uint8_t"),  # a negative float does not
    ("uint8", 255.9, "uint8_t"),
    ("uint8", 300, "uint8_t"),
    ("float32", 1e300, "float"),
    ("float32", INF, INF),
    ("float32", NAN, NAN),
    ("float32", 2**63 - 1, 9.223372036854776e18),
    ("float64", 1e300, 1e300),
    ("bool", 1e300, True),
]


@parametrize_in_one("fill", FILLS)
@parametrize_in_one(("dtype", "value", "expected"), CASES)
def test_a_fill_checks_and_converts_its_number_as_pytorch(fill, dtype, value, expected):
    make = FILLS[fill]
    if isinstance(expected, str):
        with pytest.raises(RuntimeError) as excinfo:
            make(getattr(mg, dtype), value)
        assert str(excinfo.value) == (
            f"value cannot be converted to type {expected} without overflow")
        return
    (got,) = make(getattr(mg, dtype), value).tolist()
    assert got == expected or (math.isnan(got) and math.isnan(expected))
    assert type(got) is type(expected)


FILLS_OF_SIZE = {
    "fill_": lambda size, value: mg.zeros(size, dtype=mg.float16).fill_(value),
    "full": lambda size, value: mg.full((size,), value, dtype=mg.float16),
    "full_like": lambda size, value: mg.full_like(mg.zeros(size, dtype=mg.float16), value),
    "new_full": lambda size, value: mg.zeros(1, dtype=mg.float16).new_full((size,), value),
    "masked_fill_": lambda size, value: mg.zeros(size, dtype=mg.float16).masked_fill_(
        mg.tensor(True), value),
    "index_fill_": lambda size, value: mg.zeros(size, dtype=mg.float16).index_fill_(
        0, mg.tensor([0]), value),
}


@parametrize_in_one("value", [70000.0, 1e30, 2**40])
@parametrize_in_one(("fill", "size"), [
    (fill, size) for fill in FILLS_OF_SIZE for size in (0, 1, 2, 5)
    if (fill, size) != ("index_fill_", 0)  # (index 0 is out of range there)
])
def test_float16_overflows_to_inf_only_in_a_one_element_fill_or_full(fill, value, size):
    # (PyTorch 2.13 fills a single element unchecked, rounded; 0 or 2+ elements are checked)
    if size == 1 and fill not in ("masked_fill_", "index_fill_"):
        assert FILLS_OF_SIZE[fill](size, value).tolist() == [INF]
        return
    with pytest.raises(RuntimeError) as excinfo:
        FILLS_OF_SIZE[fill](size, value)
    assert str(excinfo.value) == "value cannot be converted to type c10::Half without overflow"


@parametrize_in_one(("dtype", "bounds", "expected"), [
    ("int8", {"min": 1000}, "int8_t"),
    ("int8", {"max": -1000}, "int8_t"),
    ("float16", {"min": 1e6}, "c10::Half"),
    ("float32", {"min": 1e300}, "float"),
    ("uint8", {"min": -1}, [255, 255]),  # (wrapped, as a fill's)
    ("int8", {"min": 200.0}, [200.0, 200.0]),  # (a float bound: the result is float32)
    ("int64", {"min": 2**62}, [2**62, 2**62]),
])
@parametrize_in_one("in_place", [False, True])
def test_clamps_number_bounds_take_the_same_check(dtype, bounds, expected, in_place):
    x = mg.tensor([1, 2], dtype=getattr(mg, dtype))
    if in_place and isinstance(expected, list) and isinstance(expected[0], float):
        return  # (an integer tensor cannot take a float result in place)
    clamp = x.clamp_ if in_place else x.clamp
    if isinstance(expected, str):
        with pytest.raises(RuntimeError) as excinfo:
            clamp(**bounds)
        assert str(excinfo.value) == (
            f"value cannot be converted to type {expected} without overflow")
    else:
        assert clamp(**bounds).tolist() == expected


@pytest.mark.parametrize("bounds", [{"min": NAN}, {"max": NAN}, {"min": 0.0, "max": NAN},
                                    {"min": NAN, "max": 1.0}])
def test_a_nan_bound_makes_every_element_nan(bounds):
    x = mg.tensor([1.0, -2.0, NAN, -0.0] + [0.5] * 12)  # (long enough for vector kernels)
    assert all(math.isnan(v) for v in x.clamp(**bounds).tolist())
    assert all(math.isnan(v) for v in mg.tensor([1, 2]).clamp(**bounds).tolist())
