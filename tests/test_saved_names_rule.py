"""How an op's saved values get PyTorch's attribute names (minigrad's own mechanism).

The generic rule (an output is ``result``; inputs are ``self``, ``other``), a declared ``saves``,
and ``saved_options`` (field names, renames, small functions). Ops are minigrad's own API, so
these run against minigrad only; tests_torch/test_saved_torch.py checks every real op's names
and values against PyTorch.
"""
from typing import Any

import numpy as np
import pytest
from _backend import LIB

import minigrad
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import constant, part

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's op declarations")


def saved_names(node: Any) -> list[str]:
    return sorted(name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_")))


class Cube(Op):
    """y = x ** 3;  dx = 3 x ** 2 grad.  Saves its input (no declaration: the generic rule)."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return 3 * x**2 * grad


class Exp2(Op):
    """y = 2 ** x;  dx = ln 2 y grad.  Saves its result (the generic rule)."""

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        y = np.exp2(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (y,) = ctx.saved_tensors
        return np.log(2.0) * y * grad


class Scaled(Op):
    """y = x * w * scale;  saves w as PyTorch's ``weight`` and the scale as options."""

    num_inputs = 2
    fields = ("factors",)
    saves = (None, "weight")  # the first position is not shown
    saved_options = {"scale": part("factors", 0), "sparse": constant(False)}

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, w: np.ndarray, scale: float) -> np.ndarray:
        ctx.save_for_backward(None, w)
        ctx.factors = (scale,)
        return x * w * scale

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        _, w = ctx.saved_tensors
        return grad * w * ctx.factors[0], None, None


def test_the_generic_rule_names_an_input_self_and_an_output_result():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    cube = Cube.apply(x)
    assert saved_names(cube.grad_fn) == ["_raw_saved_self", "_saved_self"]
    assert cube.grad_fn._saved_self is x
    power = Exp2.apply(x)
    assert power.grad_fn._saved_result.tolist() == [2.0, 4.0]
    power.sum().backward()
    # once named, the op's later nodes list the names even after backward freed the values
    assert saved_names(Exp2.apply(x).grad_fn) == ["_raw_saved_result", "_saved_result"]


def test_an_op_without_declared_names_is_named_by_its_first_backward_too():
    class Square(Op):  # made here: no node of it has been inspected or run yet
        """y = x * x;  dx = 2 x grad.  Saves its input (the generic rule)."""

        @staticmethod
        def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    node_class = type(Square.apply(x).grad_fn)
    # Until named, a lookup hook on the node class can name them from the node asked.
    assert "__getattr__" in vars(node_class)
    Square.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    # Named from the node backward ran; the hook is gone (attribute reads take the fast path).
    assert "__getattr__" not in vars(node_class)
    node = Square.apply(x).grad_fn
    assert saved_names(node) == ["_raw_saved_self", "_saved_self"]
    assert node._saved_self is x
    message = "'SquareBackward0' object has no attribute '_saved_z'"
    with pytest.raises(AttributeError, match=message):
        node._saved_z  # noqa: B018


def test_declared_names_and_options():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0])
    node = Scaled.apply(x, w, 0.5).grad_fn
    assert saved_names(node) == ["_raw_saved_weight", "_saved_scale", "_saved_sparse",
                                 "_saved_weight"]
    assert node._saved_weight is w
    assert node._saved_scale == 0.5 and node._saved_sparse is False
