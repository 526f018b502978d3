"""result_type, promote_types and can_cast against PyTorch 2.13, over every pair of dtypes and
each kind of Python number, with tensors of dimensions and 0-d ones."""

from __future__ import annotations

import itertools

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

NAMES = ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool")
PAIRS = list(itertools.product(NAMES, NAMES))
NUMBERS = (True, 3, -2.5)


def _name(dtype) -> str:
    return str(dtype).split(".")[-1]


@parametrize_in_one(("first", "second"), PAIRS)
def test_promote_types_and_can_cast(first, second):
    mine = (getattr(minigrad, first), getattr(minigrad, second))
    theirs = (getattr(torch, first), getattr(torch, second))
    assert _name(minigrad.promote_types(*mine)) == _name(torch.promote_types(*theirs))
    assert minigrad.can_cast(*mine) == torch.can_cast(*theirs)


def _tensor(lib, name: str, zero_dim: bool):
    return lib.ones(() if zero_dim else (2,), dtype=getattr(lib, name))


@parametrize_in_one(("first", "second"), PAIRS)
@parametrize_in_one("zero_dims", [(False, False), (True, False), (False, True)])
def test_result_type_of_tensors(first, second, zero_dims):
    mine = minigrad.result_type(_tensor(minigrad, first, zero_dims[0]),
                                _tensor(minigrad, second, zero_dims[1]))
    theirs = torch.result_type(_tensor(torch, first, zero_dims[0]),
                               _tensor(torch, second, zero_dims[1]))
    assert _name(mine) == _name(theirs)


@parametrize_in_one("name", NAMES)
@parametrize_in_one("number", NUMBERS)
def test_result_type_with_a_number(name, number):
    for mine, theirs in (((_tensor(minigrad, name, False), number),
                          (_tensor(torch, name, False), number)),
                         ((number, _tensor(minigrad, name, True)),
                          (number, _tensor(torch, name, True)))):
        assert _name(minigrad.result_type(*mine)) == _name(torch.result_type(*theirs))


@pytest.mark.parametrize(("first", "second"), list(itertools.product(NUMBERS, NUMBERS)))
def test_result_type_of_numbers(first, second):
    assert _name(minigrad.result_type(first, second)) == _name(torch.result_type(first, second))
