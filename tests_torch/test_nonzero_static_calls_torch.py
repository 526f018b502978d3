"""``nonzero_static`` called every way, against PyTorch: results, or the parser's texts.

PyTorch binds it with one signature, ``(Tensor input, *, int size, int fill_value=-1)``:
its parser counts the required keyword-only ``size`` among the positional arguments ("takes
from 2 to 1 positional arguments"), asks for a missing ``size`` as a positional one
('missing 1 required positional arguments: "size"'), and names every required parameter
from the first missing one on, even one given by keyword ('missing 2 required positional
argument: "input", "size"'). Each call runs in both libraries and its outcome (the result,
or the error's type and text) is compared.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minigrad

# (form, positional arguments after the tensor, keyword arguments); "function": the tensor
# as first argument of ``nonzero_static``; "method": ``x.nonzero_static``; "unbound":
# ``Tensor.nonzero_static(x, ...)``; "no_input": the function without the tensor
CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("function", (), {}),
    ("method", (), {}),
    ("unbound", (), {}),
    ("function", (), {"fill_value": 1}),
    ("method", (), {"fill_value": 1}),
    ("function", (2,), {}),
    ("function", (4, -1), {}),
    ("function", (4,), {"fill_value": 2}),
    ("function", (2, 3, 4), {}),
    ("method", (2,), {}),
    ("method", (2, 3, 4), {}),
    ("function", (), {"size": 2}),
    ("function", (), {"size": 4, "fill_value": 7}),
    ("method", (), {"size": 4, "fill_value": 7}),
    ("unbound", (), {"size": 2}),
    ("function", (), {"size": 2.0}),
    ("method", (), {"size": "a"}),
    ("method", (), {"size": None}),
    ("method", (), {"size": 2, "fill_value": None}),
    ("function", (), {"size": 2, "fill_value": 2.5}),
    ("function", (), {"size": -1}),
    ("function", (), {"size": True}),
    ("function", (), {"size": 2, "foo": 1}),
    ("no_input", (), {"size": 2}),
    ("no_input", ([1, 0],), {"size": 2}),
]


def _outcome(lib: Any, form: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    x = lib.tensor([1, 0, 2])
    try:
        if form == "function":
            result = lib.nonzero_static(x, *args, **kwargs)
        elif form == "method":
            result = x.nonzero_static(*args, **kwargs)
        elif form == "unbound":
            result = lib.Tensor.nonzero_static(x, *args, **kwargs)
        else:
            result = lib.nonzero_static(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the outcome compared is the error itself
        return ("error", type(error).__name__, str(error).replace("torch", "minigrad"))
    return ("value", result.tolist(), str(result.dtype).replace("torch", "minigrad"))


@pytest.mark.parametrize(("form", "args", "kwargs"), CALLS)
def test_nonzero_static_call_as_pytorch(form: str, args: tuple[Any, ...],
                                        kwargs: dict[str, Any]) -> None:
    assert _outcome(minigrad, form, args, kwargs) == _outcome(torch, form, args, kwargs)
