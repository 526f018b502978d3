"""Gradients as PyTorch hands them out: their version, their layout, a hook's tensor itself.

- Version: PyTorch's engine adds a second gradient for the same input in place when it may
  (``InputBuffer::accumulate``: a dense tensor nobody else holds), so after ``x * x`` the
  summed gradient is at version 1; a leaf's first ``.grad`` is that tensor (stolen) or a
  copy written by ``copy_`` (version 1) -- or a row-major clone for a leaf that is not dense.
- Layout: a copied ``.grad`` is laid out like its leaf (AccumulateGrad's layout contract).
- A tensor hook's result is used as it is: the next hook, ``autograd.grad`` and ``.grad``
  see that tensor (its identity, its base, its memory).
Each program runs in both libraries; what it reports must be the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _leaf(lib: Any, *shape: int) -> Any:
    values = torch.arange(1.0, 1.0 + torch.Size(shape).numel(), dtype=torch.float64) / 7
    return lib.tensor(values.reshape(shape).tolist(), dtype=lib.float64, requires_grad=True)


def _leaf_grad(make: Callable[[Any, Any], Any], *shape: int) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = _leaf(lib, *shape)
        make(lib, x).sum().backward()
        return x.grad._version, x.grad.stride()

    return program


def _grad_of(make: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """autograd.grad of the result with respect to an intermediate ``y = 2 * x``."""

    def program(lib: Any) -> Any:
        y = _leaf(lib, 3) * 2
        (grad,) = lib.autograd.grad(make(lib, y).sum(), y)
        return grad._version

    return program


def _hooked(lib: Any) -> Any:
    seen = []
    y = _leaf(lib, 3) * 2
    y.register_hook(lambda grad: seen.append(grad._version))
    (y * y).sum().backward()
    return seen


def _retained(lib: Any) -> Any:
    x = _leaf(lib, 3)
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward()
    return y.grad._version, x.grad._version


def _second_backward(lib: Any) -> Any:
    x = _leaf(lib, 3)
    (x * x).sum().backward()
    (x * x).sum().backward()
    return x.grad._version


def _non_dense_leaf(lib: Any) -> Any:
    x = _leaf(lib, 3, 4)[:, ::2].detach().requires_grad_()
    x.sum().backward()
    return x.grad._version, x.grad.stride()


def _transposed_leaf(lib: Any) -> Any:
    x = _leaf(lib, 3, 4).t().detach().requires_grad_()
    (x * 2).sum().backward()
    return x.grad._version, x.grad.stride()


def _given_seed(lib: Any) -> Any:
    x = _leaf(lib, 3)
    seed = lib.ones(3, dtype=lib.float64)
    x.backward(seed)
    return x.grad._version, x.grad is seed


def _linear_batch_of_one(lib: Any) -> Any:
    # the weight's gradient differs from the weight's strides only in a dimension of size 1
    lib.manual_seed(0)
    layer = lib.nn.Linear(2, 1)
    layer(lib.ones(1, 2)).sum().backward()
    return layer.weight.grad._version, layer.bias.grad._version


def _create_graph(make: Callable[[Any, Any], Any], times: int = 1,
                  *shape: int) -> Callable[[Any], Any]:
    """A leaf's ``.grad`` after ``backward(create_graph=True)``: never stolen (grad mode is on)."""

    def program(lib: Any) -> Any:
        x = _leaf(lib, *(shape or (3,)))
        for _ in range(times):
            make(lib, x).sum().backward(create_graph=True)
        node = x.grad.grad_fn
        edges = None if node is None else [n and n.name() for n, _ in node.next_functions]
        return (x.grad._version, x.grad.stride(), x.grad.requires_grad,
                node and node.name(), edges)

    return program


def _held_by_function(lib: Any, order: str) -> Any:
    """A custom backward returning a tensor it keeps: PyTorch sums onto it out of place."""

    class Holds(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.kept = lib.ones(3, dtype=lib.float64)
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return ctx.kept

    x = _leaf(lib, 3)
    if order == "held first":  # (the later node runs first: its gradient arrives first)
        y = x * 3 + Holds.apply(x)
    elif order == "held second":
        y = Holds.apply(x) + x * 3
    else:
        y = Holds.apply(x)
    y.sum().backward()
    return x.grad._version


def _root_twice(lib: Any) -> Any:
    """One root given twice: its node's buffer sums the two seeds (they are held: out of place)."""
    x = _leaf(lib, 3)
    y = (x * x).sum()
    lib.autograd.backward([y, y])
    return x.grad._version


def _sum_carried(make: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """A sum made in a node's buffer, handed on unchanged by add to the leaf (and a hook)."""

    def program(lib: Any) -> Any:
        x = _leaf(lib, 3)
        y = x + lib.ones(3, dtype=lib.float64)  # AddBackward0 passes its gradient on as it is
        seen: list[int] = []
        y.register_hook(lambda grad: seen.append(grad._version))
        make(lib, y).sum().backward()
        return seen, x.grad._version

    return program


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "root given twice": _root_twice,
    "sum carried y*y": _sum_carried(lambda lib, y: y * y),
    "sum carried y*y*y+y": _sum_carried(lambda lib, y: y * y * y + y),
    "sum of one output of two": _leaf_grad(lambda lib, x: (lambda a, b: a * a + a + b)(
        *(x * 2).unbind(0)), 2),
    "x*x": _leaf_grad(lambda lib, x: x * x, 3),
    "x*x*x": _leaf_grad(lambda lib, x: x * x * x, 3),
    "x*2": _leaf_grad(lambda lib, x: x * 2, 3),
    "sum only": _leaf_grad(lambda lib, x: x, 3),
    "x+x+x": _leaf_grad(lambda lib, x: x + x + x, 3),
    "(x+x)*2": _leaf_grad(lambda lib, x: (x + x) * 2, 3),
    "(x+x+x)*2": _leaf_grad(lambda lib, x: (x + x + x) * 2, 3),
    "four terms": _leaf_grad(lambda lib, x: x.sin() + x.cos() + x.exp() + x.tanh(), 3),
    "x[0]*x": _leaf_grad(lambda lib, x: x[0] * x, 3),
    "expand*x": _leaf_grad(lambda lib, x: x.expand(2, 3) * x, 3),
    "x@x.t()": _leaf_grad(lambda lib, x: x @ x.t(), 2, 3),
    "x.t()*2": _leaf_grad(lambda lib, x: x.t() * 2, 3, 4),
    "grad y*y": _grad_of(lambda lib, y: y * y),
    "grad y*y*y": _grad_of(lambda lib, y: y * y * y),
    "grad (y+y.sin())*3": _grad_of(lambda lib, y: (y + y.sin()) * 3),
    "hook": _hooked,
    "retain_grad": _retained,
    "second backward": _second_backward,
    "non-dense leaf": _non_dense_leaf,
    "transposed leaf": _transposed_leaf,
    "given seed": _given_seed,
    "linear batch of one": _linear_batch_of_one,
    "create_graph x*x": _create_graph(lambda lib, x: x * x),
    "create_graph x*2": _create_graph(lambda lib, x: x * 2),
    "create_graph sum only": _create_graph(lambda lib, x: x),
    "create_graph twice": _create_graph(lambda lib, x: x * x, 2),
    "create_graph transposed leaf": _create_graph(lambda lib, x: x.t() * x.t(), 1, 3, 4),
    "function holds its gradient, first": lambda lib: _held_by_function(lib, "held first"),
    "function holds its gradient, second": lambda lib: _held_by_function(lib, "held second"),
    "function holds its gradient, alone": lambda lib: _held_by_function(lib, "alone"),
}


@parametrize_in_one("name", PROGRAMS)
def test_gradient_version_and_layout_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    assert program(minigrad) == program(torch)


def _leaf_hook_view(lib: Any) -> Any:
    # the hook's view of another tensor, laid out like the leaf, becomes .grad without a copy
    big = lib.zeros(5, dtype=lib.float64)
    x = _leaf(lib, 3)
    x.register_hook(lambda grad: big[:3])
    (x * 2).sum().backward()
    before = x.grad.tolist()
    big.add_(1)
    return x.grad._version, x.grad.stride(), x.grad._base is None, x.grad.tolist() != before


def _leaf_hook_strided_view(lib: Any) -> Any:
    # not laid out like the leaf: copied
    big = lib.zeros(3, 2, dtype=lib.float64)
    x = _leaf(lib, 3)
    x.register_hook(lambda grad: big[:, 0])
    (x * 2).sum().backward()
    big.add_(1)
    return x.grad._version, x.grad.stride(), x.grad.tolist()


def _leaf_hook_held(lib: Any) -> Any:
    # a tensor the caller still holds: copied too
    result = lib.ones(3, dtype=lib.float64)
    x = _leaf(lib, 3)
    x.register_hook(lambda grad: result)
    x.sum().backward()
    return x.grad is result, x.grad._version


def _next_hook_sees_view(lib: Any) -> Any:
    kept = []
    y = _leaf(lib, 3) * 2

    def as_view(grad: Any) -> Any:
        kept.append(grad.view(3))
        return kept[-1]

    seen = []
    y.register_hook(as_view)
    y.register_hook(lambda grad: seen.append((grad is kept[0], grad._base is not None)))
    (y * y).sum().backward()
    return seen


def _grad_returns_hook_view(lib: Any) -> Any:
    big = lib.zeros(5, dtype=lib.float64)
    kept = []
    y = _leaf(lib, 3) * 2
    y.register_hook(lambda grad: kept.append(big[:3]) or kept[-1])
    (grad,) = lib.autograd.grad((y * 3).sum(), y)
    return grad is kept[0], grad._base is big


HOOK_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "leaf hook view": _leaf_hook_view,
    "leaf hook strided view": _leaf_hook_strided_view,
    "leaf hook held": _leaf_hook_held,
    "next hook sees the view": _next_hook_sees_view,
    "autograd.grad returns it": _grad_returns_hook_view,
}


@pytest.mark.parametrize("name", HOOK_PROGRAMS)
def test_hook_result_used_as_pytorch_uses_it(name: str) -> None:
    program = HOOK_PROGRAMS[name]
    assert program(minigrad) == program(torch)
