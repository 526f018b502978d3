"""Differential tests: ``minigrad.testing`` against ``torch.testing``, call for call.

Each case builds the same inputs in both libraries and calls ``assert_close`` (or
``assert_allclose``, ``make_tensor``): a passing case passes in both; a failing one raises the same
exception type with the same message (``torch.`` read as ``minigrad.``), and the same kind of
chained cause. ``make_tensor``'s values come from each library's own random stream, so its cases
compare the properties PyTorch's rules fix (shape, dtype, range, contiguity, requires_grad) and
the errors, not the values.
"""

from __future__ import annotations

import collections
import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

Build = Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]]
NAN, INF = math.nan, math.inf


def _outcome(lib: Any, build: Build, function: str = "assert_close") -> Any:
    """None if the call passes, else (exception type, message, type of its cause)."""
    args, kwargs = build(lib)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # (assert_allclose is deprecated)
            getattr(lib.testing, function)(*args, **kwargs)
    except Exception as error:
        cause = type(error.__cause__).__name__ if error.__cause__ is not None else None
        return type(error).__name__, str(error).replace("torch.", "minigrad."), cause
    return None


def _same(build: Build, function: str = "assert_close") -> Any:
    expected = _outcome(torch, build, function)
    assert _outcome(minigrad, build, function) == expected
    return expected


def _t(lib: Any, data: Any, dtype: str | None = None, **kwargs: Any) -> Any:
    """``lib.tensor(data)`` of the dtype named ``dtype`` (a str, so cases are library-neutral)."""
    if dtype is not None:
        kwargs["dtype"] = getattr(lib, dtype)
    return lib.tensor(data, **kwargs)


# ----------------------------------------------------------------------------------------------
# Floating tensors: values x tolerances x dtypes.
FLOAT_VALUES = {
    "equal": ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
    "tiny difference": ([1.0, 2.000001, 3.0], [1.0, 2.0, 3.0]),
    "one mismatch": ([1.0, 2.5, 3.0], [1.0, 2.0, 3.0]),
    "all mismatch": ([2.0, 3.0, 5.0], [1.0, 2.0, 3.0]),
    "nan in actual": ([1.0, NAN, 3.0], [1.0, 2.0, 3.0]),
    "nan in both": ([1.0, NAN, 3.0], [1.0, NAN, 3.0]),
    "nan and mismatch": ([1.5, NAN, 3.0], [1.0, NAN, 3.0]),
    "inf equal": ([INF, -INF, 1.0], [INF, -INF, 1.0]),
    "inf vs -inf": ([INF, 1.0], [-INF, 1.0]),
    "inf vs finite": ([INF, 1.0], [1.0, 0.0]),
    "minus zero": ([-0.0, 0.0], [0.0, -0.0]),
    "expected zero": ([0.5, 1.0], [0.0, 1.0]),
    "ties": ([2.0, 3.0, 4.0], [1.0, 2.0, 3.0]),
    "large": ([1e30, 3.0e4], [1.0001e30, 3.0e4]),
    "2-d": ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.5, 4.25]]),
    "3-d": ([[[1.0], [2.0]], [[3.0], [9.0]]], [[[1.0], [2.0]], [[3.0], [4.0]]]),
    "relative beats absolute": ([100.0, 1.0], [100.01, 1.1]),
}
TOLERANCES = {
    "default": {},
    "exact": {"rtol": 0, "atol": 0},
    "exact floats": {"rtol": 0.0, "atol": 0.0},
    "loose": {"rtol": 1e-2, "atol": 1e-2},
    "absolute only": {"rtol": 0, "atol": 0.6},
    "relative only": {"rtol": 0.3, "atol": 0.0},
    "equal_nan": {"equal_nan": True},
}


@parametrize_in_one("dtype", ["float16", "float32", "float64"])
@parametrize_in_one("values", list(FLOAT_VALUES))
@parametrize_in_one("tolerance", list(TOLERANCES))
def test_floating_tensors(dtype: str, values: str, tolerance: str) -> None:
    actual, expected = FLOAT_VALUES[values]
    _same(lambda lib: ((_t(lib, actual, dtype), _t(lib, expected, dtype)), TOLERANCES[tolerance]))


# ----------------------------------------------------------------------------------------------
# Integer and bool tensors: exact by default ("not equal"), close with given tolerances.
INT_VALUES = {
    "equal": ([1, 2, 3], [1, 2, 3]),
    "one mismatch": ([1, 4, 3], [1, 2, 3]),
    "expected zero": ([1, 2, 3], [0, 2, 3]),
    "below": ([0, 1, 7], [1, 2, 3]),
    "2-d": ([[1, 2], [3, 4]], [[1, 2], [5, 4]]),
}
INT_TOLERANCES = {"default": {}, "atol 1": {"rtol": 0, "atol": 1}, "rtol": {"rtol": 0.5, "atol": 0}}


@parametrize_in_one("dtype", ["uint8", "int8", "int16", "int32", "int64"])
@parametrize_in_one("values", list(INT_VALUES))
@parametrize_in_one("tolerance", list(INT_TOLERANCES))
def test_integer_tensors(dtype: str, values: str, tolerance: str) -> None:
    actual, expected = INT_VALUES[values]
    kwargs = INT_TOLERANCES[tolerance]
    _same(lambda lib: ((_t(lib, actual, dtype), _t(lib, expected, dtype)), kwargs))


BOOL_VALUES = {
    "equal": ([True, False], [True, False]),
    "mismatch": ([True, False, True], [True, True, True]),
    "expected false": ([True, False], [False, False]),
    "0-d": (True, False),
    "0-d equal": (False, False),
}


@parametrize_in_one("values", list(BOOL_VALUES))
@parametrize_in_one("tolerance", list(INT_TOLERANCES))
def test_bool_tensors(values: str, tolerance: str) -> None:
    actual, expected = BOOL_VALUES[values]
    kwargs = INT_TOLERANCES[tolerance]
    _same(lambda lib: ((_t(lib, actual, "bool"), _t(lib, expected, "bool")), kwargs))


def test_integer_extremes() -> None:
    """The greatest differences of integers are taken in int64: no wrap-around."""
    _same(lambda lib: ((_t(lib, [-128, 127], "int8"), _t(lib, [127, -128], "int8")), {}))
    _same(lambda lib: ((_t(lib, [0, 255], "uint8"), _t(lib, [255, 0], "uint8")), {}))
    _same(lambda lib: ((_t(lib, [1, 2], "uint8"), _t(lib, [2, 2], "uint8")),
                       {"rtol": 0, "atol": 1}))  # fmt: skip
    big = 2**62
    _same(lambda lib: ((_t(lib, [big, 1], "int64"), _t(lib, [-big, 1], "int64")), {}))


# ----------------------------------------------------------------------------------------------
# 0-d and empty tensors, shapes, strides, dtypes, grads, subclasses.
SHAPE_CASES: dict[str, Build] = {
    "0-d equal": lambda lib: ((_t(lib, 1.5), _t(lib, 1.5)), {}),
    "0-d float": lambda lib: ((_t(lib, 1.0), _t(lib, 2.0)), {}),
    "0-d float32 decimals": lambda lib: ((_t(lib, 0.1), _t(lib, 0.2)), {}),
    "0-d float64": lambda lib: ((_t(lib, 0.1, "float64"), _t(lib, 0.2, "float64")), {}),
    "0-d float16": lambda lib: ((_t(lib, 0.1, "float16"), _t(lib, 0.2, "float16")), {}),
    "0-d expected zero": lambda lib: ((_t(lib, 1.0), _t(lib, 0.0)), {}),
    "0-d nan": lambda lib: ((_t(lib, NAN), _t(lib, NAN)), {}),
    "0-d nan equal_nan": lambda lib: ((_t(lib, NAN), _t(lib, NAN)), {"equal_nan": True}),
    "0-d int": lambda lib: ((_t(lib, 3), _t(lib, 5)), {}),
    "0-d vs 1-element": lambda lib: ((_t(lib, 1.0), _t(lib, [1.0])), {}),
    "empty": lambda lib: ((lib.zeros(0), lib.zeros(0)), {}),
    "empty 2-d": lambda lib: ((lib.zeros(2, 0), lib.zeros(2, 0)), {}),
    "empty shapes": lambda lib: ((lib.zeros(0), lib.zeros(0, 1)), {}),
    "shapes": lambda lib: ((lib.zeros(2), lib.zeros(3)), {}),
    "shapes 2-d": lambda lib: ((lib.zeros(2, 3), lib.zeros(3, 2)), {}),
    "no broadcasting": lambda lib: ((lib.zeros(2, 3), lib.zeros(3)), {}),
    "shape before dtype": lambda lib: ((lib.zeros(2), lib.zeros(3, dtype=lib.int64)), {}),
    "dtype": lambda lib: ((lib.zeros(2), lib.zeros(2, dtype=lib.float64)), {}),
    "dtype int": lambda lib: ((_t(lib, [1, 2]), _t(lib, [1.0, 2.0])), {}),
    "dtype unchecked": lambda lib: ((_t(lib, [1, 2]), _t(lib, [1.0, 2.0])),
                                    {"check_dtype": False}),
    "dtype unchecked mismatch": lambda lib: (
        (lib.zeros(2, dtype=lib.float16), lib.ones(2, dtype=lib.float64)),
        {"check_dtype": False},
    ),
    "dtype unchecked int and bool": lambda lib: ((_t(lib, [1, 0]), _t(lib, [True, True])),
                                                 {"check_dtype": False}),
    "dtype unchecked float16 tolerance": lambda lib: (
        (_t(lib, [1.0005], "float16"), _t(lib, [1.0], "float32")),
        {"check_dtype": False},
    ),
    "stride unchecked": lambda lib: ((lib.zeros(2, 3), lib.zeros(3, 2).t()), {}),
    "stride": lambda lib: ((lib.zeros(2, 3), lib.zeros(3, 2).t()), {"check_stride": True}),
    "stride same": lambda lib: ((lib.zeros(2, 3), lib.ones(2, 3) * 0), {"check_stride": True}),
    "stride before dtype": lambda lib: ((lib.zeros(2, 3), lib.zeros(3, 2, dtype=lib.int64).t()),
                                        {"check_stride": True}),
    "non-contiguous values": lambda lib: (
        (lib.arange(12.0).reshape(3, 4).t(), lib.arange(12.0).reshape(3, 4).t().contiguous()),
        {},
    ),
    "non-contiguous mismatch": lambda lib: (
        (lib.arange(12.0).reshape(3, 4)[:, ::2], lib.arange(12.0).reshape(3, 4)[:, 1::2]),
        {},
    ),
    "transposed mismatch index": lambda lib: (
        (lib.arange(6.0).reshape(2, 3).t(), lib.arange(6.0).reshape(3, 2)),
        {},
    ),
    "requires_grad": lambda lib: ((lib.ones(3, requires_grad=True), lib.ones(3)), {}),
    "requires_grad mismatch": lambda lib: ((lib.ones(3, requires_grad=True) * 2, lib.ones(3)), {}),
    "grad of a graph": lambda lib: ((lib.ones(2, requires_grad=True).exp(), _t(lib, [math.e] * 2)),
                                    {}),
    "parameter": lambda lib: ((lib.nn.Parameter(lib.ones(2)), lib.ones(2)), {}),
    "parameter strict": lambda lib: ((lib.nn.Parameter(lib.ones(2)), lib.ones(2)),
                                     {"allow_subclasses": False}),
    "tensor strict": lambda lib: ((lib.ones(2), lib.ones(2)), {"allow_subclasses": False}),
    "layout unchecked": lambda lib: ((lib.ones(2), lib.ones(2)), {"check_layout": False}),
    "device unchecked": lambda lib: ((lib.ones(2), lib.ones(2)), {"check_device": False}),
    "cpu device": lambda lib: ((lib.ones(2, device="cpu"), lib.ones(2)), {}),
    "a thousand": lambda lib: ((lib.arange(1000.0), lib.arange(1000.0) * 1.001), {}),
    "one in a thousand": lambda lib: ((lib.arange(1000.0), lib.arange(1000.0).index_fill(0,
                                       _t(lib, [999]), 0.0)), {}),  # fmt: skip
}


@parametrize_in_one("name", list(SHAPE_CASES))
def test_tensor_attributes(name: str) -> None:
    _same(SHAPE_CASES[name])


def test_nothing_is_recorded_or_written() -> None:
    """Comparing tensors that require grad leaves their values, versions and grads alone."""
    x = minigrad.ones(3, requires_grad=True)
    y = x * 2
    before = (y._version, x._version, x.grad, y.grad_fn)
    with pytest.raises(AssertionError):
        minigrad.testing.assert_close(y, minigrad.zeros(3))
    minigrad.testing.assert_close(y, minigrad.full((3,), 2.0))
    assert (y._version, x._version, x.grad, y.grad_fn) == before
    assert y.tolist() == [2.0, 2.0, 2.0]


def test_default_dtype_float64() -> None:
    """Integers' relative differences are in the default float dtype; literals follow it too."""
    for lib in (torch, minigrad):
        lib.set_default_dtype(lib.float64)
    try:
        _same(lambda lib: ((lib.tensor([1, 2]), lib.tensor([3, 2])), {}))
        _same(lambda lib: ((lib.tensor([1.0, 2.0]), lib.tensor([3.0, 2.1])), {}))
    finally:
        for lib in (torch, minigrad):
            lib.set_default_dtype(lib.float32)


def _random_case(rng: np.random.Generator) -> Build:
    """Two arrays of random dtypes, shapes and values (nan, inf, -0.0, ties...) and options."""
    dtypes = ["float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"]
    actual_dtype = rng.choice(dtypes)
    expected_dtype = actual_dtype if rng.random() < 0.6 else rng.choice(dtypes)
    shape = tuple(rng.integers(0 if rng.random() < 0.2 else 1, 4, rng.integers(0, 4)))
    special = [NAN, INF, -INF, 0.0, -0.0, 1e-30, 1e30, 65504.0, 1.0]
    base = rng.normal(0, 10, shape)
    if rng.random() < 0.3:
        base = np.where(rng.random(shape) < 0.3, rng.choice(special, shape), base)
    other, choice = base.copy(), rng.random()
    if choice < 0.4:
        other = base + rng.normal(0, 1e-3, shape) * rng.choice([0, 1, 1e-4, 1e3])
    elif choice < 0.7:
        other = np.where(rng.random(shape) < 0.2, base + rng.integers(-3, 4, shape), base)
        if rng.random() < 0.3:
            other = np.where(rng.random(shape) < 0.2, rng.choice(special, shape), other)

    def convert(values: np.ndarray, dtype: str) -> np.ndarray:
        with np.errstate(all="ignore"):
            if dtype == "bool":
                return np.asarray(values > 0)
            if dtype.startswith("float"):
                return np.asarray(values.astype(dtype))
            info = np.iinfo(dtype)
            values = np.nan_to_num(values, nan=0, posinf=100, neginf=-100)
            return np.asarray(np.clip(np.round(values), info.min, info.max).astype(dtype))

    actual, expected = convert(base, actual_dtype), convert(other, expected_dtype)
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.3:
        kwargs = {"rtol": float(rng.choice([0, 1e-3, 0.1, 1])),
                  "atol": float(rng.choice([0, 1e-5, 0.5, 2]))}  # fmt: skip
    if rng.random() < 0.2:
        kwargs["equal_nan"] = True
    if actual_dtype != expected_dtype and rng.random() < 0.7:
        kwargs["check_dtype"] = False
    layout = rng.random()

    def build(lib: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        a, e = lib.from_numpy(actual.copy()), lib.from_numpy(expected.copy())
        if layout < 0.2 and a.dim() >= 2:  # the same values, transposed strides
            a = a.transpose(0, 1).contiguous().transpose(0, 1)
        if layout > 0.9 and a.dtype.is_floating_point:
            a.requires_grad_()
        return (a, e), kwargs

    return build


@pytest.mark.parametrize("seed", range(8))
def test_random_pairs(seed: int) -> None:
    """50 random comparisons per seed: the same verdict and message in both libraries."""
    rng = np.random.default_rng(seed)
    for _ in range(50):
        _same(_random_case(rng))


# ----------------------------------------------------------------------------------------------
# Python numbers, numpy scalars and arrays, None, strings.
NUMBER_CASES: dict[str, tuple[Any, Any, dict[str, Any]]] = {
    "ints": (1, 1, {}),
    "ints differ": (1, 2, {}),
    "ints within atol": (1, 2, {"rtol": 0, "atol": 1}),
    "floats": (1.0, 1.0 + 1e-9, {}),
    "floats differ": (1.5, 2.0, {}),
    "floats exact": (1e-9, 1e-10, {"rtol": 0, "atol": 0}),
    "expected zero": (1.0, 0.0, {}),
    "int and float": (1, 1.0, {}),
    "float and int": (1.5, 2, {}),
    "float and int unchecked": (1.5, 2, {"check_dtype": False}),
    "float and int unchecked same": (1.0, 1, {"check_dtype": False}),
    "nan": (NAN, NAN, {}),
    "nan equal_nan": (NAN, NAN, {"equal_nan": True}),
    "nan and number": (NAN, 1.0, {"equal_nan": True}),
    "inf": (INF, INF, {}),
    "inf and -inf": (INF, -INF, {}),
    "inf and big": (INF, 1e308, {"rtol": 1.0, "atol": 1.0}),
    "complex": (complex(1, 2), complex(1, 2), {}),
    "complex differ": (complex(1, 2), complex(1, 3), {}),
    "bools": (True, True, {}),
    "bools differ": (True, False, {}),
    "bool and numpy bool": (True, np.bool_(True), {}),
    "numpy bools differ": (np.bool_(False), np.bool_(True), {}),
    "bool and int": (True, 1, {}),
    "int and bool": (1, False, {}),
    "bool and float": (True, 1.0, {"check_dtype": False}),
    "numpy float32": (np.float32(0.1), np.float32(0.1), {}),
    "numpy float32 and float": (np.float32(0.1), 0.1, {}),
    "numpy float64 and float": (np.float64(0.5), 0.25, {}),
    "numpy int and int": (np.int64(3), 4, {}),
    "numpy int and float": (np.int32(3), 3.0, {}),
    "negative rtol": (1.0, 2.0, {"rtol": -1.0, "atol": 0.0}),
    "rtol alone": (1.0, 2.0, {"rtol": 0.1}),
    "atol alone": (1.0, 2.0, {"atol": 0.1}),
    "none": (None, None, {}),
    "none and number": (None, 1, {}),
    "number and none": (0, None, {}),
    "strings": ("a", "a", {}),
    "string and number": ("a", 1, {}),
    "objects": (object, object, {}),
    "bytes": (b"ab", b"ab", {}),
    "bytes differ": (b"ab", b"ac", {}),
}


@parametrize_in_one("name", list(NUMBER_CASES))
def test_numbers_and_other_leaves(name: str) -> None:
    actual, expected, kwargs = NUMBER_CASES[name]
    _same(lambda lib: ((actual, expected), kwargs))


ARRAY_CASES: dict[str, Build] = {
    "arrays": lambda lib: ((np.array([1.0, 2.0]), np.array([1.0, 2.0])), {}),
    "arrays differ": lambda lib: ((np.array([1.0, 2.0]), np.array([1.0, 2.5])), {}),
    "float32 arrays differ": lambda lib: (
        (np.array([1.0, 2.0], np.float32), np.array([1.0, 2.5], np.float32)), {}),
    "int arrays": lambda lib: ((np.array([1, 2]), np.array([1, 3])), {}),
    "bool arrays": lambda lib: ((np.array([True]), np.array([False])), {}),
    "0-d arrays": lambda lib: ((np.array(3.0), np.array(4.0)), {}),
    "array dtypes": lambda lib: ((np.array([1.0]), np.array([1.0], np.float32)), {}),
    "array shapes": lambda lib: ((np.zeros((2, 2)), np.zeros(4)), {}),
    "array and tensor": lambda lib: ((np.array([1.0]), lib.tensor([1.0])), {}),
    "tensor and array": lambda lib: ((lib.tensor([1.0]), np.array([1.0])), {}),
    "tensor and number": lambda lib: ((lib.tensor(1.0), 1.0), {}),
    "number and tensor": lambda lib: ((1, lib.tensor(1)), {}),
    "tensor and list": lambda lib: ((lib.zeros(2), [0.0, 0.0]), {}),
    "array of strings": lambda lib: ((np.array(["a"]), np.array(["a"])), {}),
    "array of objects": lambda lib: ((np.array([None]), np.array([None])), {}),
    "non-contiguous array": lambda lib: ((np.arange(6.0).reshape(2, 3).T,
                                          np.arange(6.0).reshape(2, 3).T.copy()), {}),
    "array nan": lambda lib: ((np.array([np.nan]), np.array([np.nan])), {"equal_nan": True}),
}


@parametrize_in_one("name", list(ARRAY_CASES))
def test_numpy_arrays(name: str) -> None:
    _same(ARRAY_CASES[name])


# ----------------------------------------------------------------------------------------------
# Sequences and mappings.
CONTAINER_CASES: dict[str, Build] = {
    "lists": lambda lib: (([1, 2.0, lib.ones(2)], [1, 2.0, lib.ones(2)]), {}),
    "list and tuple": lambda lib: (([1, 2], (1, 2)), {}),
    "lengths": lambda lib: (([1, 2], [1, 2, 3]), {}),
    "empty lists": lambda lib: (([], []), {}),
    "empty and not": lambda lib: (([], [1]), {}),
    "nested lengths": lambda lib: (([[1], [1, 2]], [[1], [1]]), {}),
    "item": lambda lib: (([1.0, 2.0], [1.0, 3.0]), {}),
    "tensor item": lambda lib: (([lib.ones(2), lib.ones(2)], [lib.ones(2), lib.zeros(2)]), {}),
    "first failure reported": lambda lib: (([1, 2, 3], [0, 0, 0]), {}),
    "dicts": lambda lib: (({"a": lib.ones(1), "b": 2}, {"b": 2, "a": lib.ones(1)}), {}),
    "ordered dict": lambda lib: ((collections.OrderedDict(a=1, b=2), {"b": 2, "a": 1}), {}),
    "dict item": lambda lib: (({"a": lib.ones(1), "b": 2}, {"a": lib.zeros(1), "b": 2}), {}),
    "dict keys": lambda lib: (({"a": 1, "c": 2}, {"a": 1, "b": 2}), {}),
    "dict missing key": lambda lib: (({"a": 1}, {"a": 1, "b": 2, "c": 3}), {}),
    "int keys": lambda lib: (({1: 1.0, 0: 2.0}, {0: 2.0, 1: 1.5}), {}),
    "unsortable keys": lambda lib: (({1: 1.0, "a": 2.0}, {"a": 2.0, 1: 1.5}), {}),
    "nested item": lambda lib: (([{"a": lib.tensor([1.0])}], [{"a": lib.tensor([2.0])}]), {}),
    "deeply nested": lambda lib: (({"x": [(1, {"y": [lib.ones(2, 2)]})]},
                                   {"x": [(1, {"y": [lib.eye(2)]})]}), {}),
    "nested shapes": lambda lib: (({"w": [lib.ones(2)]}, {"w": [lib.ones(3)]}), {}),
    "nested dtype": lambda lib: (([lib.ones(2)], [lib.ones(2, dtype=lib.float64)]), {}),
    "nested type": lambda lib: (([lib.ones(1)], [1.0]), {}),
    "nested tolerance error": lambda lib: (([lib.ones(1)], [lib.ones(1)]), {"atol": 1e-3}),
    "list and dict": lambda lib: (([1], {0: 1}), {}),
    "tensor and dict": lambda lib: ((lib.ones(1), {"a": 1}), {}),
    "list of none": lambda lib: (([None, 1], [None, 2]), {}),
    "size and tuple": lambda lib: ((lib.Size([2, 3]), (2, 3)), {}),
    "sizes": lambda lib: ((lib.ones(2, 3).shape, lib.ones(3, 2).shape), {}),
    "string in list": lambda lib: ((["a", 1], ["a", 1]), {}),
    "range": lambda lib: ((range(3), [0, 1, 2]), {}),
    "state dicts": lambda lib: ((lib.nn.Linear(2, 2).state_dict(),
                                 {"weight": lib.zeros(2, 2), "bias": lib.zeros(2)}),
                                {"atol": 10.0, "rtol": 0.0}),
}


@parametrize_in_one("name", list(CONTAINER_CASES))
def test_containers(name: str) -> None:
    _same(CONTAINER_CASES[name])


# ----------------------------------------------------------------------------------------------
# msg: a str replaces the message, a callable rewrites it; structural errors ignore it.
MESSAGES: dict[str, Any] = {
    "str": "Argh, the tensors are not close!",
    "empty str": "",
    "callable": lambda text: f"Header\n\n{text}\n\nFooter",
}
MESSAGE_INPUTS: dict[str, Build] = {
    "tensors": lambda lib: ((lib.tensor([1.0, 4.0, 5.0]), lib.tensor([1.0, 2.0, 3.0])), {}),
    "scalars": lambda lib: ((1, 2), {}),
    "0-d": lambda lib: ((lib.tensor(1.0), lib.tensor(2.0)), {}),
    "nested": lambda lib: (([lib.ones(1), {"k": lib.ones(1)}], [lib.ones(1), {"k": lib.zeros(1)}]),
                           {}),
    "shape": lambda lib: (([lib.ones(1)], [lib.ones(2)]), {}),
    "lengths": lambda lib: (([1], [1, 2]), {}),
    "keys": lambda lib: (({"a": 1}, {"b": 1}), {}),
    "types": lambda lib: ((lib.ones(1), 1.0), {}),
    "tolerance": lambda lib: ((1.0, 1.0), {"rtol": 1.0}),
    "passing": lambda lib: ((lib.ones(1), lib.ones(1)), {}),
}


@parametrize_in_one("message", list(MESSAGES))
@parametrize_in_one("inputs", list(MESSAGE_INPUTS))
def test_msg(message: str, inputs: str) -> None:
    def build(lib: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args, kwargs = MESSAGE_INPUTS[inputs](lib)
        return args, {**kwargs, "msg": MESSAGES[message]}

    _same(build)


# ----------------------------------------------------------------------------------------------
# Errors inside a comparison: PyTorch reports the pair and chains isclose's error.
ODD_CASES: dict[str, Build] = {
    "negative rtol on tensors": lambda lib: ((lib.ones(2), lib.zeros(2)),
                                             {"rtol": -1.0, "atol": 0.0}),
    "negative atol on tensors": lambda lib: ((lib.ones(2), lib.zeros(2)),
                                             {"rtol": 0.0, "atol": -1.0}),
    "str rtol on tensors": lambda lib: ((lib.ones(2), lib.zeros(2)), {"rtol": "a", "atol": 0}),
    "negative tolerances, equal tensors": lambda lib: ((lib.ones(2), lib.ones(2)),
                                                       {"rtol": -1.0, "atol": -1.0}),
    "int tolerances": lambda lib: ((lib.ones(2), lib.zeros(2)), {"rtol": 1, "atol": 0}),
    "numpy tolerances": lambda lib: ((lib.ones(2), lib.zeros(2)),
                                     {"rtol": np.float64(0.5), "atol": np.float64(0.25)}),
    "str rtol on numbers": lambda lib: ((1.0, 2.0), {"rtol": "a", "atol": 0}),
    "str equal_nan on tensors": lambda lib: ((lib.ones(2), lib.zeros(2)),
                                             {"equal_nan": "relaxed"}),
    "str equal_nan on numbers": lambda lib: ((NAN, NAN), {"equal_nan": "relaxed"}),
    "int msg": lambda lib: ((lib.ones(2), lib.zeros(2)), {"msg": 123}),
    "nested odd tolerance": lambda lib: (({"a": [lib.ones(2)]}, {"a": [lib.zeros(2)]}),
                                         {"rtol": -1.0, "atol": 0.0}),
}


@parametrize_in_one("name", list(ODD_CASES))
def test_odd_arguments(name: str) -> None:
    _same(ODD_CASES[name])


# ----------------------------------------------------------------------------------------------
# PyTorch's own docstring examples, as written there.
def _docstring_examples(lib: Any) -> list[Any]:
    partial_equal = functools.partial(lib.testing.assert_close, rtol=0, atol=0)
    expected = lib.tensor([1e0, 1e-1, 1e-2])
    foo, bar, baz = lib.tensor(1.0), 2.0, np.array(3.0)
    same = lib.tensor([1.0, 2.0, 3.0])
    nan = lib.tensor(float("Nan"))
    return [
        lambda: partial_equal(1e-9, 1e-10),
        lambda: lib.testing.assert_close(lib.acos(lib.cos(expected)), expected),
        lambda: lib.testing.assert_close(2.0 / math.sqrt(2.0), math.sqrt(2.0)),
        lambda: lib.testing.assert_close(np.arccos(np.cos(np.array([1e0, 1e-1, 1e-2]))),
                                         np.array([1e0, 1e-1, 1e-2])),
        lambda: lib.testing.assert_close(tuple([lib.tensor([1.0]), 2.0, np.array(3.0)]),
                                         [lib.tensor([1.0]), 2.0, np.array(3.0)]),
        lambda: lib.testing.assert_close(
            {"baz": baz, "bar": bar, "foo": foo},
            collections.OrderedDict([("foo", foo), ("bar", bar), ("baz", baz)]),
        ),
        lambda: lib.testing.assert_close(lib.nn.Parameter(same.clone()), same),
        lambda: lib.testing.assert_close(lib.nn.Parameter(same.clone()), same,
                                         allow_subclasses=False),
        lambda: lib.testing.assert_close(same.clone().numpy(), same),
        lambda: lib.testing.assert_close(1.0, 1, check_dtype=False),
        lambda: lib.testing.assert_close(nan.clone(), nan),
        lambda: lib.testing.assert_close(nan.clone(), nan, equal_nan=True),
        lambda: lib.testing.assert_close(lib.tensor([1.0, 4.0, 5.0]), same,
                                         msg="Argh, the tensors are not close!"),
        lambda: lib.testing.assert_close(lib.tensor([1.0, 4.0, 5.0]), same,
                                         msg=lambda msg: f"Header\n\n{msg}\n\nFooter"),
    ]  # fmt: skip


@parametrize_in_one("index", range(14))
def test_pytorch_docstring_examples(index: int) -> None:
    def run(lib: Any) -> Any:
        try:
            _docstring_examples(lib)[index]()
        except Exception as error:
            return type(error).__name__, str(error).replace("torch.", "minigrad.")
        return None

    assert run(minigrad) == run(torch)


# ----------------------------------------------------------------------------------------------
# assert_allclose: deprecated, looser defaults, NaNs equal, dtypes free.
ALLCLOSE_CASES: dict[str, Build] = {
    "equal": lambda lib: ((lib.ones(2), lib.ones(2)), {}),
    "loose float32": lambda lib: ((lib.ones(2), lib.ones(2) + 5e-5), {}),
    "mismatch": lambda lib: ((lib.ones(2), lib.zeros(2)), {}),
    "nan": lambda lib: ((_t(lib, [NAN]), _t(lib, [NAN])), {}),
    "nan strict": lambda lib: ((_t(lib, [NAN]), _t(lib, [NAN])), {"equal_nan": False}),
    "list and tensor": lambda lib: (([1.0, 2.0], lib.tensor([1.0, 2.0])), {}),
    "number": lambda lib: ((lib.tensor([1.0, 2.0]), 1.0), {}),
    "dtypes": lambda lib: ((lib.ones(2, dtype=lib.float64), lib.ones(2)), {}),
    "float16": lambda lib: ((lib.ones(2, dtype=lib.float16), lib.ones(2, dtype=lib.float16) + 5e-4),
                            {}),
    "float64": lambda lib: ((lib.ones(2, dtype=lib.float64), lib.ones(2, dtype=lib.float64) + 1e-6),
                            {}),
    "msg": lambda lib: ((lib.ones(2), lib.zeros(2)), {"msg": "custom"}),
    "tolerances": lambda lib: ((lib.ones(2), lib.zeros(2)), {"rtol": 0, "atol": 1}),
    "rtol alone": lambda lib: ((lib.ones(2), lib.zeros(2)), {"rtol": 0.1}),
    "ints": lambda lib: ((_t(lib, [1, 2]), _t(lib, [1, 3])), {}),
}


@parametrize_in_one("name", list(ALLCLOSE_CASES))
def test_assert_allclose(name: str) -> None:
    _same(ALLCLOSE_CASES[name], "assert_allclose")


def test_assert_allclose_warns_as_pytorch() -> None:
    messages = []
    for lib in (torch, minigrad):
        with pytest.warns(FutureWarning) as record:
            lib.testing.assert_allclose(lib.ones(1), lib.ones(1))
        messages.append(str(record[0].message).replace("torch.", "minigrad."))
        assert record[0].filename == __file__
    assert messages[0] == messages[1]


# ----------------------------------------------------------------------------------------------
# make_tensor: PyTorch's ranges, layouts and errors (values differ: other random streams).
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
RANGES: dict[str, dict[str, Any]] = {
    "default": {},
    "low": {"low": 3},
    "high": {"high": 5},
    "both": {"low": -2, "high": 2},
    "fractional": {"low": -1.5, "high": 2.5},
    "beyond the dtype": {"low": -1e10, "high": 1e10},
    "high beyond": {"low": 0, "high": 1e300},
    "infinite": {"low": -INF, "high": INF},
    "widest float64": {"low": -1e308, "high": 1e308},
    "int64 extremes": {"low": -(2**63), "high": 2**63},
    "above int64": {"low": 2**63, "high": 2**64},
    "narrow": {"low": 0.5, "high": 0.7},
}


def _properties(t: Any, low: Any, high: Any) -> dict[str, Any]:
    return {
        "dtype": str(t.dtype).replace("torch.", "minigrad."),
        "shape": tuple(t.shape),
        "stride": t.stride(),
        "contiguous": t.is_contiguous(),
        "requires_grad": t.requires_grad,
        "is_leaf": t.is_leaf,
        "in range": low is None or bool(((t >= low) & (t < high)).all()),
    }


def _make(lib: Any, dtype: str, kwargs: dict[str, Any], shape: Any = (4, 5)) -> Any:
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = lib.testing.make_tensor(*shape, dtype=getattr(lib, dtype), device="cpu", **kwargs)
    except Exception as error:
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    warned = [(w.category.__name__, str(w.message).replace("torch.", "minigrad.")) for w in caught]
    return t, warned


def _bounds_for(t: Any, kwargs: dict[str, Any], lib: Any) -> tuple[Any, Any]:
    """The interval the values must lie in: PyTorch's documented rule, checked on both."""
    dtype = t.dtype
    if dtype == lib.bool:
        return None, None
    info = lib.finfo(dtype) if dtype.is_floating_point else lib.iinfo(dtype)
    default = (-9, 9) if dtype.is_floating_point else ((0, 10) if dtype == lib.uint8 else (-9, 10))
    low = kwargs.get("low", default[0])
    high = kwargs.get("high", default[1])
    low, high = max(low, info.min), min(high, info.max)
    if not dtype.is_floating_point:
        low, high = math.ceil(low), math.ceil(high)
        return low, high if high < info.max else None
    return float(low), float(high) if high - low < info.max else None


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("bounds", list(RANGES))
def test_make_tensor_ranges(dtype: str, bounds: str) -> None:
    kwargs = RANGES[bounds]
    results = [_make(lib, dtype, kwargs) for lib in (torch, minigrad)]
    if not isinstance(results[0][0], torch.Tensor):
        assert results[1] == results[0]  # the same error
        return
    properties = []
    for lib, (t, warned) in zip((torch, minigrad), results):
        low, high = _bounds_for(t, kwargs, lib)
        if high is None:  # (the upper end is the dtype's: any value is in range)
            low = None
        properties.append((_properties(t, low, high), warned))
    assert properties[1] == properties[0]
    assert properties[1][0]["in range"]


LAYOUTS: dict[str, tuple[Any, dict[str, Any]]] = {
    "0-d": ((), {}),
    "empty": ((0, 3), {}),
    "a shape tuple": (((2, 3),), {}),
    "a shape list": (([2, 3],), {}),
    "a Size": (("size",), {}),
    "noncontiguous": ((3, 4), {"noncontiguous": True}),
    "noncontiguous 1-d": ((5,), {"noncontiguous": True}),
    "noncontiguous one element": ((1, 1), {"noncontiguous": True}),
    "noncontiguous empty": ((0, 2), {"noncontiguous": True}),
    "channels_last": ((2, 3, 4, 5), {"memory_format": "channels_last"}),
    "both layouts": ((2, 3, 4, 5), {"memory_format": "channels_last", "noncontiguous": True}),
    "requires_grad": ((3,), {"requires_grad": True}),
    "requires_grad noncontiguous": ((3, 2), {"requires_grad": True, "noncontiguous": True}),
    "exclude_zero": ((50,), {"exclude_zero": True, "low": -1, "high": 1}),
    "low is high": ((3,), {"low": 2, "high": 2}),
    "low above high": ((3,), {"low": 3, "high": 2}),
    "nan low": ((3,), {"low": NAN}),
    "nan high": ((3,), {"high": NAN}),
    "interval outside": ((3,), {"low": 300, "high": 400}),
    "interval below": ((3,), {"low": -400, "high": -300}),
}


@parametrize_in_one("dtype", DTYPES)
@parametrize_in_one("layout", list(LAYOUTS))
def test_make_tensor_layouts_and_errors(dtype: str, layout: str) -> None:
    shape, kwargs = LAYOUTS[layout]
    results = []
    for lib in (torch, minigrad):
        lib_kwargs = dict(kwargs)
        if "memory_format" in lib_kwargs:
            lib_kwargs["memory_format"] = getattr(lib, lib_kwargs["memory_format"])
        lib_shape = (lib.Size([2, 3]),) if shape == ("size",) else shape
        result = _make(lib, dtype, lib_kwargs, lib_shape)
        if isinstance(result[0], (torch.Tensor, minigrad.Tensor)):
            t, warned = result
            zero_free = not kwargs.get("exclude_zero") or bool((t != 0).all())
            result = (_properties(t, None, None), warned, zero_free)
        results.append(result)
    assert results[1] == results[0]


def test_make_tensor_exclude_zero_value() -> None:
    """Zeros become the dtype's smallest normal number (floats) or 1 (integers)."""
    for dtype in ("float16", "float32", "float64", "int64", "uint8"):
        low = {"uint8": 0}.get(dtype, -1)
        t = minigrad.testing.make_tensor(2000, dtype=getattr(minigrad, dtype), device="cpu",
                                         low=low, high=1, exclude_zero=True)
        assert bool((t != 0).all())
        if not t.dtype.is_floating_point:
            assert set(t.tolist()) <= ({-1, 1} if low == -1 else {1})


def test_make_tensor_rejects_what_pytorch_rejects() -> None:
    for lib_dtype in ("not a dtype", None):
        results = []
        for lib in (torch, minigrad):
            try:
                lib.testing.make_tensor(2, dtype=lib_dtype, device="cpu")
            except Exception as error:
                results.append((type(error).__name__, str(error).replace("torch.", "minigrad.")))
        assert results[1] == results[0]


def test_public_names_match_pytorch() -> None:
    ours = set(minigrad.testing.__all__)
    theirs = {name for name in dir(torch.testing) if not name.startswith("_")}
    assert ours == theirs - {"FileCheck"}
    with pytest.raises(AttributeError, match="TorchScript"):
        minigrad.testing.FileCheck  # noqa: B018



@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_uniform_stays_below_its_upper_end(dtype: str) -> None:
    """make_tensor's floats come from uniform_: [low, high) in both (float16 once reached high)."""
    for lib in (torch, minigrad):
        t = lib.empty(200_000, dtype=getattr(lib, dtype)).uniform_(-2, 2)
        assert (bool((t < 2).all()), bool((t >= -2).all())) == (True, True), lib.__name__
        t = lib.testing.make_tensor(200_000, dtype=getattr(lib, dtype), device="cpu", low=-2,
                                    high=2)
        assert bool((t < 2).all()), lib.__name__
