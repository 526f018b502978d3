"""Calling a node, ``y.grad_fn(grad)``, gives PyTorch's gradients, errors and side effects.

A node called directly runs its backward on the gradients given (one per output) and returns
one gradient per ``next_functions`` entry: alone for a node of one edge, else a tuple. With grad
mode on the result has history where the saved values or the gradients require grad; no hook
runs (a leaf's post-accumulate hooks do); the saved values stay. Each case runs the same program
in both libraries and compares what comes back: values, dtypes, shapes, history, and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _leaves(lib: Any) -> tuple[Any, Any]:
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = lib.tensor([4.0, 5.0, -6.0], requires_grad=True)
    return x, w


def _mul(lib: Any) -> Any:
    x, w = _leaves(lib)
    return (x * w).grad_fn(lib.ones(3))


def _mul_by_constant(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return (x * 2).grad_fn(lib.ones(3))


def _mul_other_needs_none(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return (lib.tensor([4.0, 5.0, 6.0]) * x).grad_fn(lib.ones(3))


def _mul_float64_gradient(lib: Any) -> Any:
    x, w = _leaves(lib)
    return (x * w).grad_fn(lib.ones(3, dtype=lib.float64))


def _mul_no_grad(lib: Any) -> Any:
    x, w = _leaves(lib)
    y = x * w
    with lib.no_grad():
        return y.grad_fn(lib.ones(3))


def _exp(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return x.exp().grad_fn(lib.full((3,), 0.5))


def _sum_of_gradient_that_requires_grad(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return x.sum().grad_fn(lib.tensor(2.0, requires_grad=True))


def _add_gradient_passes(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return (x + 1).grad_fn(lib.ones(3, requires_grad=True))


def _all_none(lib: Any) -> Any:
    x, w = _leaves(lib)
    return (x * w).grad_fn(None)


def _split_one_output(lib: Any) -> Any:
    x, _ = _leaves(lib)
    first = x.split(1)[0]
    return first.grad_fn(lib.ones(1), None, None)


def _split_no_output(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return x.split(1)[0].grad_fn(None, None, None)


def _view(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return x.view(3, 1).grad_fn(lib.ones(3, 1))


def _copy_slices(lib: Any) -> Any:
    x, w = _leaves(lib)
    base = x.clone()
    base[0:2].mul_(w[:2])
    return base.grad_fn(lib.ones(3))


def _called_twice(lib: Any) -> Any:
    x, w = _leaves(lib)
    node = (x * w).grad_fn
    node(lib.ones(3))
    return node(lib.full((3,), 2.0))


def _after_retained_backward(lib: Any) -> Any:
    x, w = _leaves(lib)
    y = x * w
    y.sum().backward(retain_graph=True)
    return y.grad_fn(lib.ones(3)), x.grad


def _accumulator(lib: Any) -> Any:
    x, w = _leaves(lib)
    accumulate = (x * w).grad_fn.next_functions[0][0]
    first = accumulate(lib.ones(3))
    second = accumulate(lib.full((3,), 2.0))
    return first, second, x.grad


CASES: dict[str, Callable[[Any], Any]] = {
    "mul": _mul,
    "mul_by_constant": _mul_by_constant,
    "mul_other_needs_none": _mul_other_needs_none,
    "mul_float64_gradient": _mul_float64_gradient,
    "mul_no_grad": _mul_no_grad,
    "exp": _exp,
    "sum_of_gradient_that_requires_grad": _sum_of_gradient_that_requires_grad,
    "add_gradient_passes": _add_gradient_passes,
    "all_none": _all_none,
    "split_one_output": _split_one_output,
    "split_no_output": _split_no_output,
    "view": _view,
    "copy_slices": _copy_slices,
    "called_twice": _called_twice,
    "after_retained_backward": _after_retained_backward,
    "accumulator": _accumulator,
}


def _describe(value: Any) -> Any:
    """What a result is, comparable across the libraries: structure, values, dtype, history."""
    if isinstance(value, tuple):
        return ("tuple", [_describe(item) for item in value])
    if value is None:
        return None
    grad_fn = value.grad_fn
    return (
        value.detach().numpy().tolist(),
        str(value.dtype).split(".")[1],
        tuple(value.shape),
        value.requires_grad,
        None if grad_fn is None else type(grad_fn).__name__,
    )


@parametrize_in_one("name", list(CASES))
def test_node_call_matches_pytorch(name: str) -> None:
    expected = _describe(CASES[name](torch))
    assert _describe(CASES[name](minigrad)) == expected


def _errors() -> dict[str, Callable[[Any], Any]]:
    def no_gradient(lib: Any) -> Any:
        x, w = _leaves(lib)
        return (x * w).grad_fn()

    def two_gradients(lib: Any) -> Any:
        x, w = _leaves(lib)
        return (x * w).grad_fn(lib.ones(3), lib.ones(3))

    def keyword(lib: Any) -> Any:
        x, w = _leaves(lib)
        return (x * w).grad_fn(grad=lib.ones(3))

    def not_a_tensor(lib: Any) -> Any:
        x, w = _leaves(lib)
        return (x * w).grad_fn(3)

    def second_not_a_tensor(lib: Any) -> Any:
        x, _ = _leaves(lib)
        return x.split(1)[0].grad_fn(lib.ones(1), 1.0, None)

    def wrong_shape(lib: Any) -> Any:
        x, _ = _leaves(lib)
        return x.exp().grad_fn(lib.ones(4))

    def accumulator_without_gradient(lib: Any) -> Any:
        x, w = _leaves(lib)
        return (x * w).grad_fn.next_functions[0][0]()

    def after_backward(lib: Any) -> Any:
        x, w = _leaves(lib)
        y = x * w
        y.sum().backward()
        return y.grad_fn(lib.ones(3))

    def custom_function(lib: Any) -> Any:
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                return a * 2

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return grad * 2

        x, _ = _leaves(lib)
        return Double.apply(x).grad_fn(lib.ones(3))

    return dict(locals())


ERRORS = _errors()


def _error_of(call: Callable[[Any], Any], lib: Any) -> tuple[type, str]:
    with pytest.raises((TypeError, RuntimeError)) as info:
        call(lib)
    return info.type, str(info.value)


@pytest.mark.parametrize("name", list(ERRORS))
def test_node_call_errors_match_pytorch(name: str) -> None:
    expected = _error_of(ERRORS[name], torch)
    assert _error_of(ERRORS[name], minigrad) == expected


def test_node_call_runs_no_hook_but_post_accumulate() -> None:
    """PyTorch runs none of the node's or the tensors' hooks, only a leaf's post-accumulate."""
    seen: dict[str, list[str]] = {}
    for lib in (torch, minigrad):
        calls: list[str] = seen.setdefault(lib.__name__, [])
        x, w = _leaves(lib)
        x.register_hook(lambda grad, calls=calls: calls.append("leaf hook"))
        x.register_post_accumulate_grad_hook(lambda leaf, calls=calls: calls.append("post acc"))
        y = x * w
        y.register_hook(lambda grad, calls=calls: calls.append("tensor hook"))
        y.retain_grad()
        node = y.grad_fn
        node.register_prehook(lambda grads, calls=calls: calls.append("prehook"))
        node.register_hook(lambda inputs, outputs, calls=calls: calls.append("hook"))
        accumulate = node.next_functions[0][0]
        accumulate.register_prehook(lambda grads, calls=calls: calls.append("acc prehook"))
        node(lib.ones(3))
        accumulate(lib.ones(3))
        calls.append(f"y.grad {y.grad}")
        np.testing.assert_array_equal(x.grad.numpy(), np.ones(3))
    assert seen["minigrad"] == seen["torch"] == ["post acc", "y.grad None"]
