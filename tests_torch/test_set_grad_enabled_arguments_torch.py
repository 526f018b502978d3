"""``set_grad_enabled`` takes a bool only, as PyTorch's argument parser does.

An int, None, a float, a string, a numpy bool or a tensor is a TypeError naming its type, and
the grad mode stays as it was; True and False work as a call, a context manager and a
decorator. Each program runs in both libraries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

VALUES: dict[str, Callable[[Any], Any]] = {
    "true": lambda lib: True,
    "false": lambda lib: False,
    "one": lambda lib: 1,
    "zero": lambda lib: 0,
    "none": lambda lib: None,
    "float": lambda lib: 1.0,
    "string": lambda lib: "yes",
    "numpy_bool": lambda lib: np.bool_(True),
    "tensor": lambda lib: lib.tensor(True),
}


def _outcome(lib: Any, value: Any) -> Any:
    x = lib.ones(2, requires_grad=True)
    try:
        with lib.set_grad_enabled(value):
            inside = (x * 2).requires_grad
        result: Any = inside
    except TypeError as error:
        result = str(error)
    return result, lib.is_grad_enabled(), (x * 2).requires_grad


@parametrize_in_one("name", list(VALUES))
def test_set_grad_enabled_takes_a_bool(name: str) -> None:
    mine, theirs = (_outcome(lib, VALUES[name](lib)) for lib in (minigrad, torch))
    assert mine == theirs
