"""A Tensor method called on another object raises PyTorch's TypeError.

PyTorch's methods are C descriptors of ``torch._C.TensorBase``: ``torch.Tensor.mul(2, t)``
raises "descriptor 'mul' for 'torch._C.TensorBase' objects doesn't apply to a 'int' object"
where a Python function would run with ``self = 2``. minigrad's argument-check wrappers
(minigrad/_arguments.py, ``check_bound``) check ``self`` off the methods' common path: on
their checks' path, and once a method failed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

SELVES = {"int": 2, "float": 2.5, "none": None, "list": [1.0], "array": np.ones(1)}
CALLS = {
    "mul": lambda T, s, t: T.mul(s, t),
    "add": lambda T, s, t: T.add(s, t),
    "add_alpha": lambda T, s, t: T.add(s, t, alpha=2),
    "sub": lambda T, s, t: T.sub(s, t),
    "div": lambda T, s, t: T.div(s, t),
    "add_": lambda T, s, t: T.add_(s, t),
    "mul_": lambda T, s, t: T.mul_(s, t),
    "clone": lambda T, s, t: T.clone(s),
    "pow": lambda T, s, t: T.pow(s, 2),
}


def _outcome(lib: Any, call: str, self: str) -> tuple[str, str]:
    try:
        result = CALLS[call](lib.Tensor, SELVES[self], lib.ones(1))
    except (TypeError, AttributeError, RuntimeError) as error:
        return type(error).__name__, str(error).replace("torch", "minigrad")
    return "ok", repr(result)


@pytest.mark.parametrize("self", SELVES)
@pytest.mark.parametrize("call", CALLS)
def test_a_method_refuses_another_self(call, self):
    if (call, self) == ("clone", "array"):
        pytest.skip("a method without arguments checks ``self`` only once it failed; clone of "
                    "a numpy array does not fail (known difference)")
    assert _outcome(minigrad, call, self) == _outcome(torch, call, self)


def test_methods_called_on_tensors_twice_still_work():
    a, b = minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0])
    for _ in range(2):  # (the second call takes the checks' shortcut)
        assert minigrad.Tensor.mul(a, b).tolist() == [3.0, 8.0]
        assert a.add(b, alpha=2).tolist() == [7.0, 10.0]
    with pytest.raises(TypeError, match="descriptor 'mul'"):  # (not let through by it)
        minigrad.Tensor.mul(2, b)
