"""A gradient given to ``backward`` reaches hooks as the caller's tensor itself, as in PyTorch.

PyTorch hands the tensor given as ``gradient`` (of the output's dtype) to the hooks as it is:
the same object, whose in-place change the caller sees, at its version. A leaf's
accumulator then copies it, since the caller holds it: writing the caller's tensor afterwards
leaves ``.grad`` alone (minigrad's ``.grad`` used to share its memory once a hook had seen
it). Each program runs in both libraries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _leaf_then_write_the_seed(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seed = lib.ones(2)
    seen = []
    x.register_hook(lambda grad: seen.append(grad is seed))
    x.backward(seed)
    seed.add_(5)
    return x.grad.tolist(), seen


def _non_leaf_then_write_the_seed(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seed = lib.ones(2)
    y = x * 1
    seen = []
    y.register_hook(lambda grad: seen.append(grad is seed))
    y.backward(seed)
    seed.add_(5)
    return x.grad.tolist(), seen


def _hook_writes_the_seed(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seed = lib.ones(2)

    def hook(grad: Any) -> None:
        grad.mul_(2)

    x.register_hook(hook)
    x.backward(seed)
    return x.grad.tolist(), seed.tolist(), seed._version


def _node_pre_hook_sees_the_seed(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seed = lib.ones(2)
    y = x.exp()
    seen = []
    y.grad_fn.register_prehook(lambda grads: seen.append(grads[0] is seed))
    lib.autograd.backward([y], [seed])
    return seen


def _seed_of_another_dtype(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seed = lib.ones(2, dtype=lib.float64)
    seen = []
    x.register_hook(lambda grad: seen.append((grad is seed, str(grad.dtype).split(".")[-1])))
    x.backward(seed)
    return x.grad.tolist(), seen


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "leaf_then_write_the_seed": _leaf_then_write_the_seed,
    "non_leaf_then_write_the_seed": _non_leaf_then_write_the_seed,
    "hook_writes_the_seed": _hook_writes_the_seed,
    "node_pre_hook_sees_the_seed": _node_pre_hook_sees_the_seed,
    "seed_of_another_dtype": _seed_of_another_dtype,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_seed_gradient_reaches_hooks_as_pytorch(name: str) -> None:
    mine, theirs = (PROGRAMS[name](lib) for lib in (minigrad, torch))
    assert mine == theirs
