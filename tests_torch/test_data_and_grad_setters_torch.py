"""``t.data = d`` and ``t.grad = g`` refuse what PyTorch refuses, with its errors.

``.data`` takes only a tensor (TypeError), and of a tensor that requires grad only a floating
point one; ``.grad`` of another size says both sizes. What is accepted is applied: a dtype or
shape change through ``.data`` of a tensor that does not require grad. Each program runs in
both libraries: the same outcome, or the same error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        return program(lib)
    except Exception as error:  # (compared across the libraries)
        return type(error).__name__, str(error).replace("torch", "minigrad")


def _data_set_to(value: Callable[[Any], Any], requires_grad: bool, history: bool = False) -> Any:
    def program(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=requires_grad)
        t = x * 2 if history else x
        t.data = value(lib)
        return t.tolist(), str(t.dtype).split(".")[-1], t.requires_grad, t._version

    return program


def _grad_set_to(value: Callable[[Any], Any], shape: tuple[int, ...]) -> Any:
    def program(lib: Any) -> Any:
        x = lib.zeros(shape, requires_grad=True)
        x.grad = value(lib)
        return x.grad.tolist()

    return program


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "data_list": _data_set_to(lambda lib: [1.0, 2.0, 3.0], True),
    "data_none": _data_set_to(lambda lib: None, False),
    "data_number": _data_set_to(lambda lib: 2.0, True),
    "data_int_requires_grad": _data_set_to(lambda lib: lib.tensor([1, 2]), True),
    "data_bool_requires_grad": _data_set_to(lambda lib: lib.tensor([True]), True),
    "data_int_of_a_result": _data_set_to(lambda lib: lib.tensor([1, 2]), True, history=True),
    "data_int_no_grad": _data_set_to(lambda lib: lib.tensor([1, 2]), False),
    "data_float64_requires_grad": _data_set_to(lambda lib: lib.ones(2, dtype=lib.float64), True),
    "grad_wrong_size": _grad_set_to(lambda lib: lib.ones(2), (3,)),
    "grad_wrong_size_2d": _grad_set_to(lambda lib: lib.ones(3, 2), (2, 3)),
    "grad_0d_for_1d": _grad_set_to(lambda lib: lib.ones(()), (1,)),
    "grad_1d_for_0d": _grad_set_to(lambda lib: lib.ones(1), ()),
    "grad_wrong_dtype_and_size": _grad_set_to(lambda lib: lib.ones(2, dtype=lib.float64), (3,)),
}


@parametrize_in_one("name", list(PROGRAMS))
def test_setters_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in (minigrad, torch))
    assert mine == theirs
