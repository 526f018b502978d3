"""Saved-tensor hooks are called in PyTorch's order: a node's values sorted by their names.

PyTorch's generated nodes save (and unpack) their inputs sorted by name -- ``other`` before
``self``, ``exponent`` before ``self``, ``max`` before ``min`` before ``self``, ``tensor1``
before ``tensor2`` -- and their results after them; a custom Function's in the order given to
``save_for_backward``. Each program runs in both libraries under hooks that record which value
each call gets; the records and the gradients are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _run(lib: Any, program: Callable[..., Any]) -> Any:
    leaves = {name: lib.tensor([value, value + 0.5], requires_grad=True)
              for name, value in (("a", 0.25), ("b", 1.5), ("c", 2.75))}
    labels = {id(tensor): name for name, tensor in leaves.items()}
    calls = []

    def pack(tensor: Any) -> Any:
        label = labels.get(id(tensor), "result")
        calls.append(("pack", label))
        return label, tensor

    def unpack(packed: Any) -> Any:
        calls.append(("unpack", packed[0]))
        return packed[1]

    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = program(lib, **leaves)
    out.sum().backward()
    grads = [[round(v, 4) for v in leaves[name].grad.tolist()] for name in "abc"
             if leaves[name].grad is not None]
    return calls, grads


def _custom(lib: Any, a: Any, b: Any, c: Any) -> Any:
    def forward(ctx: Any, x: Any, y: Any) -> Any:
        ctx.save_for_backward(y, x)
        return x * y

    def backward(ctx: Any, grad: Any) -> Any:
        y, x = ctx.saved_tensors
        return grad * y, grad * x

    function = type("F", (lib.autograd.Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward)})
    return function.apply(a, b) + c


def _in_place_product(lib: Any, a: Any, b: Any, c: Any) -> Any:
    y = a * 1
    y.mul_(b)
    return y


PROGRAMS: dict[str, Callable[..., Any]] = {
    "mul": lambda lib, a, b, c: a * b,
    "div": lambda lib, a, b, c: a / b,
    "atan2": lambda lib, a, b, c: lib.atan2(a, b),
    "pow": lambda lib, a, b, c: a**b,
    "hypot": lambda lib, a, b, c: lib.hypot(a, b),
    "maximum": lambda lib, a, b, c: lib.maximum(a, b),
    "xlogy": lambda lib, a, b, c: lib.xlogy(a, b),
    "addcmul": lambda lib, a, b, c: lib.addcmul(a, b, c),
    "addcdiv": lambda lib, a, b, c: lib.addcdiv(a, b, c),
    "clamp": lambda lib, a, b, c: lib.clamp(b, a, c),
    "lerp": lambda lib, a, b, c: lib.lerp(a, b, c),
    "custom": _custom,
    "in_place_product": _in_place_product,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_saved_hooks_called_in_pytorchs_order(name: str) -> None:
    mine, theirs = (_run(lib, PROGRAMS[name]) for lib in (minigrad, torch))
    assert mine == theirs
