"""Python numbers where PyTorch's parser takes them for a Tensor argument, against PyTorch.

PyTorch's argument parser lets a few functions take a number for any of their Tensor
parameters (``should_allow_numbers_as_tensors`` in python_arg_parser.cpp): add, sub, mul, div,
their aliases subtract, multiply, divide, true_divide and floor_divide (and copy_, to). The
number becomes a 0-d "wrapped number" tensor, which promotes as a Python scalar:
``torch.mul(2.0, t)``, ``torch.mul(2, 3)`` (``tensor(6)``), ``torch.div(2, 3)``. Each test
loops over one family's calls (``check_each``): the number first, second, both, by keyword,
with ``alpha``/``rounding_mode`` and ``out=``, for bool, int and float numbers and tensors of
float16, float32, float64, int64 and bool; it compares values, dtypes, requires_grad, the
grad_fn's name and the input's gradient, or the error's type and text.
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from row_cases import Item, RowCase, check_each

import minigrad

torch = pytest.importorskip("torch")

DTYPES = ("float16", "float32", "float64", "int64", "bool")
NUMBERS = (True, False, 3, -2, 2.5, 0.1, 2**70)
# (complex numbers left out: minigrad has no complex dtype)


@dataclass(frozen=True)
class Family:
    """A function family's name, as check_each reports it (RowCase's ``row``)."""

    name: str


def _tensor(lib: Any, dtype: str, requires_grad: bool) -> Any:
    values = [1.5, -2.0, 3.0] if dtype.startswith("float") else [1, -2, 3]
    if dtype == "bool":
        values = [True, False, True]
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=requires_grad)


def _value(value: Any) -> Any:
    """A description of a result to compare: its values, dtype and autograd state."""
    if isinstance(value, (tuple, list)):
        return [_value(item) for item in value]
    if not hasattr(value, "dtype"):
        return ("not a tensor", value)
    array = value.detach().numpy()
    grad_fn = None if value.grad_fn is None else value.grad_fn.name()
    return (str(value.dtype).split(".")[-1], tuple(value.shape), array.tolist(),
            value.requires_grad, grad_fn)


def _outcome(lib: Any, call: Any) -> Any:
    """What ``call(lib, inputs)`` gives: a result and the inputs' gradients, or its error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            inputs: list[Any] = []
            result = call(lib, inputs)
            described = _value(result)
            grads = []
            if getattr(result, "requires_grad", False):
                result.sum().backward()
                grads = [None if x.grad is None else x.grad.numpy().tolist() for x in inputs]
        except Exception as error:  # (each library's error is compared, type and text)
            return ("raises", type(error).__name__, str(error).replace("torch", "minigrad"))
    # (each warning once: PyTorch warns twice of a resized out of another dtype than the
    # result's, with a tensor out too, which is not this file's subject)
    messages = sorted({str(w.message).split(" (Triggered internally")[0].replace(
        "torch", "minigrad") for w in caught})
    return described, grads, messages


def _same(mine: Any, theirs: Any) -> bool:
    """Equal, with nan equal to nan."""
    if isinstance(mine, float) and isinstance(theirs, float):
        return mine == theirs or (math.isnan(mine) and math.isnan(theirs))
    if isinstance(mine, (list, tuple)) and isinstance(theirs, (list, tuple)):
        return len(mine) == len(theirs) and all(map(_same, mine, theirs))
    return type(mine) is type(theirs) and mine == theirs


def _check(call: Any) -> None:
    mine, theirs = _outcome(minigrad, call), _outcome(torch, call)
    assert _same(mine, theirs), f"minigrad: {mine}\n  torch: {theirs}"


def _operand(spec: Any, lib: Any, inputs: list[Any]) -> Any:
    """A number as it is; a dtype name as a tensor (a float one requiring grad)."""
    if not isinstance(spec, str):
        return spec
    tensor = _tensor(lib, spec.removesuffix("-grad"), spec.endswith("-grad"))
    inputs.append(tensor)
    return tensor


def _operands() -> list[tuple[str, Any, Any]]:
    """(label, first, second): a number with a tensor either way round, and two numbers."""
    tensors = [*DTYPES, *(f"{d}-grad" for d in DTYPES if d.startswith("float"))]
    pairs = [(n, t) for n in NUMBERS for t in tensors] + [(t, n) for n in NUMBERS for t in tensors]
    pairs += list(itertools.product(NUMBERS, NUMBERS))
    return [(f"{a!r}-{b!r}", a, b) for a, b in pairs]


# Divergences that are not about numbers (a tensor's call differs alike): (name, options, label).
KNOWN: dict[tuple[str, str, str], str] = {}


def _calls(name: str, options: dict[str, Any] | None = None, keywords: bool = False) -> list[Item]:
    """``lib.<name>(first, second, **options)`` for every pair of operands."""
    options = options or {}
    items = []
    for label, first, second in _operands():
        def call(lib, inputs, first=first, second=second):
            a, b = _operand(first, lib, inputs), _operand(second, lib, inputs)
            if keywords:
                return getattr(lib, name)(input=a, other=b, **options)
            return getattr(lib, name)(a, b, **options)
        items.append(Item(label, call, KNOWN.get((name, str(options), label), "")))
    return items


FUNCTIONS = ("add", "sub", "mul", "div", "true_divide", "floor_divide", "multiply", "subtract",
             "divide")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_number_operands(name):
    check_each(RowCase(Family(name), tuple(_calls(name))), _check)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_number_operands_by_keyword(name):
    check_each(RowCase(Family(name), tuple(_calls(name, keywords=True))),  # type: ignore[arg-type]
               _check)


@pytest.mark.parametrize(("name", "options"), [
    ("add", {"alpha": 2}), ("add", {"alpha": 0.5}), ("sub", {"alpha": 3}),
    ("subtract", {"alpha": True}), ("div", {"rounding_mode": "floor"}),
    ("div", {"rounding_mode": "trunc"}), ("divide", {"rounding_mode": None}),
], ids=lambda v: str(v))
def test_number_operands_with_options(name, options):
    check_each(RowCase(Family(name), tuple(_calls(name, options))),  # type: ignore[arg-type]
               _check)


def _misuse_items() -> list[Item]:
    """Not numbers (nor tensors): the parser's errors, in either position, for each function."""
    items = []
    for name, bad, first in itertools.product(FUNCTIONS, ("a", None, [1, 2], np.float32(2.5),
                                                          np.int64(3), np.bool_(True)),
                                              (True, False)):
        def call(lib, inputs, name=name, bad=bad, first=first):
            t = _operand("float32", lib, inputs)
            return getattr(lib, name)(bad, t) if first else getattr(lib, name)(t, bad)
        items.append(Item(f"{name}-{bad!r}-{'first' if first else 'second'}", call))
    return items


def test_other_objects_for_a_tensor():
    check_each(RowCase(Family("misuse"), tuple(_misuse_items())), _check)  # type: ignore[arg-type]


def _out_items() -> list[Item]:
    """``out=``: a tensor with numbers for both operands, and a number for ``out`` itself."""
    items = []
    for name, out, (first, second) in itertools.product(
            ("add", "mul", "div", "sub", "floor_divide", "true_divide"),
            ("float32", "int64", 3, 2.5, True),
            ((2, 3), (2.5, "float32"), ("float32", 2), ("int64", 3))):
        def call(lib, inputs, name=name, out=out, first=first, second=second):
            target = lib.zeros(0, dtype=getattr(lib, out)) if isinstance(out, str) else out
            a, b = _operand(first, lib, inputs), _operand(second, lib, inputs)
            return getattr(lib, name)(a, b, out=target)
        items.append(Item(f"{name}-{first!r}-{second!r}-out={out!r}", call))
    return items


def test_out_with_numbers():
    check_each(RowCase(Family("out"), tuple(_out_items())), _check)  # type: ignore[arg-type]


def _method_items() -> list[Item]:
    """The methods and in-place forms, whose ``other`` a number may be (and copy_'s)."""
    items = []
    names = ("add", "sub", "mul", "div", "true_divide", "floor_divide", "multiply", "subtract",
             "divide", "add_", "sub_", "mul_", "div_", "true_divide_", "floor_divide_",
             "multiply_", "subtract_", "divide_", "copy_")
    for name, dtype, number in itertools.product(names, DTYPES, NUMBERS):
        def call(lib, inputs, name=name, dtype=dtype, number=number):
            t = _operand(dtype, lib, inputs)
            return getattr(t, name)(number)
        items.append(Item(f"{name}-{dtype}-{number!r}", call))
    return items


def test_method_forms():
    check_each(RowCase(Family("methods"), tuple(_method_items())), _check)  # type: ignore[arg-type]
