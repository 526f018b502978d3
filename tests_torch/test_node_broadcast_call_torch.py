"""A node called directly on a broadcast input returns its formula's gradient unsummed.

PyTorch's engine fits each gradient to its input (sums a broadcast one down to the input's
shape: ``validate_outputs``) in a backward pass only; ``y.grad_fn(grad)`` runs the formula
alone, so ``(x + z).grad_fn(g)`` with ``x`` of shape (3,) and ``z`` of shape (2, 3) gives x a
(2, 3) gradient. A backward pass still sums. Each program runs in both libraries; the
gradients are compared per input (by the leaf each ``next_functions`` entry leads to: where's
node has an edge for its condition here, none in PyTorch), with their shapes and dtypes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

SHAPES = {
    "vector_first": ((3,), (2, 3)),
    "vector_second": ((2, 3), (3,)),
    "column": ((2, 1), (2, 3)),
    "scalar_first": ((), (2, 3)),
    "both": ((2, 1), (1, 3)),
    "same": ((2, 3), (2, 3)),
}

OPS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "add": lambda lib, a, b: a + b,
    "add_alpha": lambda lib, a, b: lib.add(a, b, alpha=2),
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "where": lambda lib, a, b: lib.where(b > 0.5, a, b),
    "pow": lambda lib, a, b: a**b,
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "lerp": lambda lib, a, b: lib.lerp(a, b, 0.25),
    "addcmul": lambda lib, a, b: lib.addcmul(a, b, b),
    "clamp_min_tensor": lambda lib, a, b: lib.clamp(a, b),
}


def _leaf(lib: Any, shape: tuple[int, ...], start: float) -> Any:
    count = int(np.prod(shape))
    values = (np.arange(count, dtype=np.float64).reshape(shape) + start) / 4
    return lib.tensor(values.tolist(), dtype=lib.float64, requires_grad=True)


def _values(tensor: Any) -> Any:
    """The values, to 10 decimals (sums may add in another order)."""
    return np.round(tensor.detach().numpy(), 10).tolist()


def _per_input(lib: Any, node: Any, results: Any, leaves: list[Any]) -> list[Any]:
    """The result for each leaf, found through the node's edges; its shape, dtype, values."""
    if not isinstance(results, tuple):
        results = (results,)
    found: list[Any] = [None] * len(leaves)
    for (edge, _), result in zip(node.next_functions, results):
        if edge is None or result is None:
            continue
        for index, leaf in enumerate(leaves):
            if getattr(edge, "variable", None) is leaf:
                found[index] = (tuple(result.shape), str(result.dtype)[-7:], _values(result))
    return found


def _direct_call(op: str, shapes: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        first, second = SHAPES[shapes]
        a, b = _leaf(lib, first, 1.0), _leaf(lib, second, 2.0)
        out = OPS[op](lib, a, b)
        gradient = lib.arange(1.0, 1.0 + out.numel(), dtype=lib.float64).reshape(out.shape)
        called = _per_input(lib, out.grad_fn, out.grad_fn(gradient), [a, b])
        out.backward(gradient)  # a backward pass sums to each input's shape
        passed = [
            None if t.grad is None else (tuple(t.grad.shape), _values(t.grad)) for t in (a, b)
        ]
        return called, passed

    return program


@parametrize_in_one("shapes", sorted(SHAPES))
@parametrize_in_one("op", sorted(OPS))
def test_direct_call_leaves_broadcast_gradients_unsummed(op: str, shapes: str) -> None:
    program = _direct_call(op, shapes)
    assert program(minigrad) == program(torch)


def _expanded(lib: Any) -> Any:
    # expand's own formula sums (sum_to in PyTorch's derivatives.yaml): a direct call does too
    x = _leaf(lib, (3,), 1.0)
    y = x.expand(2, 3)
    z = y * 1
    gradient = lib.ones(2, 3, dtype=lib.float64)
    return _per_input(lib, y.grad_fn, y.grad_fn(gradient), [x]), [
        tuple(t.shape) if t is not None else None for t in z.grad_fn(gradient)
    ]


def _linear_bias(lib: Any) -> Any:
    x = _leaf(lib, (4, 3), 1.0)
    weight, bias = _leaf(lib, (2, 3), 0.5), _leaf(lib, (2,), 0.0)
    out = lib.nn.functional.linear(x, weight, bias)
    results = out.grad_fn(lib.ones(4, 2, dtype=lib.float64))
    return _per_input(lib, out.grad_fn, results, [bias, x])


def _custom_function(lib: Any) -> Any:
    # A custom backward returning a broadcast gradient: the backward pass sums it; its node
    # is no callable (PyTorch's Python nodes are not).
    class Add(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            return a + b

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad, grad

    a, b = _leaf(lib, (3,), 1.0), _leaf(lib, (2, 3), 2.0)
    out = Add.apply(a, b)
    try:
        out.grad_fn(lib.ones(2, 3, dtype=lib.float64))
        called = None
    except TypeError as error:
        called = str(error).replace("torch", "minigrad")
    out.backward(lib.ones(2, 3, dtype=lib.float64))
    return called, _values(a.grad), _values(b.grad)


@pytest.mark.parametrize("program", [_expanded, _linear_bias, _custom_function])
def test_direct_call_around_broadcasting(program: Callable[[Any], Any]) -> None:
    assert program(minigrad) == program(torch)
