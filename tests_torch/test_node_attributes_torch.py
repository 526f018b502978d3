"""Which nodes take a new attribute: a built-in op's node and a leaf's accumulator none, a
custom Function's ctx any.

PyTorch's built-in nodes are C++ objects without ``__dict__``: ``y.grad_fn.foo = 1`` raises
AttributeError (``'MulBackward0' object has no attribute 'foo'``), while a custom Function's
node is a Python object, its ctx, on which forward and users store what they like. Each
program runs in both libraries and its outcome (the value read back, or the error's type and
text) is compared. Hooks, ``retain_grad`` and ``metadata`` still work on a built-in node, and
a hook registered on one leaves its type's name as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minigrad


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        return ("value", program(lib))
    except Exception as error:  # noqa: BLE001 - the outcome compared is the error itself
        return ("error", type(error).__name__, str(error))


def _leaves(lib: Any) -> tuple[Any, Any]:
    return (lib.tensor([1.0, 2.0], requires_grad=True),
            lib.tensor([3.0, 4.0], requires_grad=True))


def _set_on_mul(name: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        a, b = _leaves(lib)
        node = (a * b).grad_fn
        setattr(node, name, 1)
        return getattr(node, name)

    return program


def _set_on_sigmoid_after_hook(lib: Any) -> Any:
    a, _ = _leaves(lib)
    y = a.sigmoid()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    y.retain_grad()
    y.grad_fn.foo = 1
    return y.grad_fn.foo


def _hooks_and_metadata(lib: Any) -> Any:
    a, b = _leaves(lib)
    y = a * b
    node = y.grad_fn
    seen = []
    node.register_prehook(lambda grads: seen.append("pre") or None)
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append("post") or None)
    y.register_hook(lambda grad: grad * 2)
    y.retain_grad()
    node.metadata["note"] = 1
    y.sum().backward()
    return (seen, type(node).__name__, node.name(), dict(node.metadata), y.grad.tolist(),
            a.grad.tolist(), b.grad.tolist())


def _custom_ctx(lib: Any) -> Any:
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.factor = 2.0  # users keep their notes on ctx
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad * ctx.factor + ctx.extra

    a, _ = _leaves(lib)
    y = Twice.apply(a)
    y.grad_fn.extra = 1.0  # ... and on its node, which is the ctx
    y.sum().backward()
    return (y.grad_fn.factor, a.grad.tolist())


def _set_on_accumulator(name: str) -> Callable[[Any], Any]:
    """A program setting (then reading) ``name`` on a leaf's accumulator."""
    def program(lib: Any) -> Any:
        a, _ = _leaves(lib)
        accumulator = (a * 2).grad_fn.next_functions[0][0]
        setattr(accumulator, name, 1)
        return getattr(accumulator, name)

    return program


def _accumulator_hooks_and_metadata(lib: Any) -> Any:
    """The attributes an accumulator does take: hooks and ``metadata``."""
    a, b = _leaves(lib)
    y = a * b
    accumulator = y.grad_fn.next_functions[0][0]
    seen = []
    accumulator.register_prehook(lambda grads: seen.append("pre") or None)
    accumulator.register_hook(lambda grad_inputs, grad_outputs: seen.append("post") or None)
    accumulator.metadata["note"] = 1
    y.sum().backward()
    return (seen, type(accumulator).__name__, dict(accumulator.metadata), a.grad.tolist())


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "public_name": _set_on_mul("foo"),
    "private_name": _set_on_mul("_foo"),
    "accumulator_public_name": _set_on_accumulator("foo"),
    "accumulator_private_name": _set_on_accumulator("_foo"),
    "accumulator_method_name": _set_on_accumulator("name"),
    "accumulator_hooks_and_metadata": _accumulator_hooks_and_metadata,
    "after_hooks": _set_on_sigmoid_after_hook,
    "hooks_and_metadata": _hooks_and_metadata,
    "custom_ctx": _custom_ctx,
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_node_attributes_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    expected = _outcome(program, torch)
    actual = _outcome(program, minigrad)
    assert actual == expected
