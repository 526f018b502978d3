"""A gradient that PyTorch's formula made as a view stays a view through tensor hooks.

``x.sum()``'s backward expands its incoming gradient (a view of the seed, stride 0); PyTorch
hands that tensor to the tensors' hooks, to a custom Function's backward, and back from
``autograd.grad``: with a hook that returns None, the result is still the view, so
``detach_()`` on it raises. ``mean``'s (expand, then divide) is not a view, nor is a sum of
two gradients. Each case runs in both libraries and compares what the hook, the custom
backward and the caller see (found by random programs, seed 44306146).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from _cases import parametrize_in_one

import minigrad
from tests_torch.random_programs.shrink import assert_agrees


def _looks(tensor: Any, seed: Any = None) -> tuple[Any, ...]:
    base = tensor._base
    return (
        tensor._is_view(),
        None if base is None else tuple(base.shape),
        None if seed is None else base is seed,
        tuple(tensor.stride()),
        tensor._version,
    )


def _grad_of(output: Callable[[Any], Any], hook: Any, given: bool, nonleaf: bool) -> Callable:
    def case(lib: Any) -> list[Any]:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2 if nonleaf else x
        seen: list[Any] = []
        if hook is not None:
            y.register_hook(lambda g: seen.append(g) or hook(g))
        seed = lib.tensor(3.0) if given else None
        result = lib.autograd.grad(output(y), y, seed)[0]
        looks = [_looks(result, seed)]
        if seen:
            looks += [_looks(seen[0], seed), seen[0] is result]
        return looks

    return case


def _custom_backward(lib: Any) -> list[Any]:
    seen: list[Any] = []

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            seen.append(_looks(grad))
            return grad * 2

    Double.apply(lib.tensor([1.0, 2.0], requires_grad=True)).sum().backward()
    return seen


def _backward_hook(lib: Any) -> list[Any]:
    seen: list[Any] = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: seen.append(_looks(g)))
    x.register_hook(lambda g: seen.append(_looks(g)))
    y.sum().backward(retain_graph=True)
    (y.sum() + y.sum()).backward()
    return seen


OUTPUTS = {"sum": lambda y: y.sum(), "sum_dim": lambda y: y.sum(0), "mean": lambda y: y.mean(),
           "expand": lambda y: y[None].expand(3, 2).sum(), "sum_twice": lambda y: y.sum() * 1}
HOOKS = {"none": None, "returns_none": lambda g: None, "returns_it": lambda g: g,
         "returns_a_copy": lambda g: g.clone()}
CASES: dict[str, Callable[[Any], Any]] = {
    f"{output}-{hook}-{'given' if given else 'ones'}-{'nonleaf' if nonleaf else 'leaf'}":
        _grad_of(OUTPUTS[output], HOOKS[hook], given, nonleaf)
    for output in OUTPUTS for hook in HOOKS for given in (False, True) for nonleaf in (False, True)
}
CASES["custom_backward"] = _custom_backward
CASES["backward_hooks"] = _backward_hook


@parametrize_in_one("name", list(CASES))
def test_gradients_are_views_as_in_pytorch(name: str) -> None:
    assert CASES[name](minigrad) == CASES[name](torch)


PROGRAMS = {
    # seed 44306146, shrunk
    "detach_of_a_hooked_sum_gradient": """
t0 = torch.tensor([1.0], requires_grad=True)
t0.register_hook(lambda g: None)
t3 = torch.autograd.grad(t0.sum(), t0, allow_unused=True)[0]
t3.detach_()
""",
    # seed 45031886, shrunk: the view (made under no_grad) may not take a recorded write
    "recorded_write_into_a_hooked_sum_gradient": """
t0 = torch.tensor([[-2.0], [-1.5], [1.0]], requires_grad=True)
t0.register_hook(lambda g: None)
t1 = t0 + t0
t3 = t1.clamp(-1, 1)
t6 = torch.autograd.grad(t0.sum(), t0, allow_unused=True)[0]
t6 += t3
""",
    "broadcast_operand": """
t0 = torch.tensor([[1.0, 2.0]], requires_grad=True)
t1 = torch.tensor([1.0, 2.0], requires_grad=True)
t1.register_hook(lambda g: None)
t2 = t0 + t1
t3 = torch.autograd.grad(t2.sum(), [t0, t1])
t4 = t3[1]
t4.detach_()
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])
