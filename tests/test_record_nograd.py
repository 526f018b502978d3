"""The no-grad path of the recording functions makes the tensor ``new_result`` makes.

The recorders (``autograd/record.py``) write ``tensor_base.new_result`` out on their no-grad
path instead of calling it. These tests keep the copies equal to it: every slot of a result
made under ``no_grad`` (and in inference mode, where the counter factory decides the kind of
counter) is what ``new_result`` gives for the same array, for each recorder (one input, one
input with options or a number, two inputs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad
from minigrad.autograd.tensor_base import TensorBase, new_result

_SLOTS = [name for name in TensorBase.__slots__ if name != "__weakref__"]


def _operands() -> dict[str, Any]:
    rng = np.random.default_rng(0)
    a, b = (minigrad.tensor(rng.standard_normal(4).astype(np.float32), requires_grad=True)
            for _ in range(2))
    m, n = (minigrad.tensor(rng.standard_normal((3, 3)), requires_grad=True) for _ in range(2))
    return {"a": a, "b": b, "m": m, "n": n}


CALLS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "add": lambda t: t["a"] + t["b"],  # two inputs (a kernel)
    "matmul": lambda t: t["m"] @ t["n"],  # two inputs (a no-grad kernel)
    "exp": lambda t: t["a"].exp(),  # one input (a method's kernel)
    "sum": lambda t: t["a"].sum(),  # one input (a reduction: a numpy scalar made an array)
    "sigmoid": lambda t: minigrad.sigmoid(t["a"]),  # one input (the op's function)
    "sum_dim": lambda t: t["m"].sum(1),  # one input and options
    "mul_number": lambda t: t["a"] * 2.0,  # a tensor and a number
}


def _slots(tensor: Any) -> dict[str, Any]:
    """Each slot's value; the counter by its class (each tensor has its own, or None)."""
    values = {name: getattr(tensor, name) for name in _SLOTS}
    counter = values["_counter"]
    values["_counter"] = None if counter is None else type(counter)
    del values["_array"]
    return values


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
@pytest.mark.parametrize("case", sorted(CALLS))
def test_no_grad_result_is_new_results_tensor(case: str, mode: str) -> None:
    operands = _operands()
    context = minigrad.no_grad if mode == "no_grad" else minigrad.inference_mode
    with context():
        result = CALLS[case](operands)
        expected = new_result(result._array)
    assert type(result) is type(expected) is minigrad.Tensor
    assert _slots(result) == _slots(expected)
    assert not result.requires_grad and result.grad_fn is None and result.is_leaf
    assert result.is_inference() is (mode == "inference_mode")
    # the same value as the recorded op gives
    recorded = CALLS[case](operands)
    np.testing.assert_array_equal(result.numpy(), recorded.detach().numpy())


def test_no_grad_result_counts_its_writes_and_views_share_them() -> None:
    a = _operands()["a"]
    with minigrad.no_grad():
        y = a + a
    view = y[1:]
    assert y._version == view._version == 0
    y.add_(1.0)
    assert y._version == view._version == 1
