"""The gradient a regenerated view's ``AsStridedBackward0`` gives is at version 1, as PyTorch's.

PyTorch's ``as_strided_backward`` copies the gradient into a zero-filled storage (one write)
and returns a view of it: a hook, ``autograd.grad`` and a leaf's ``.grad`` see version 1, and
what is added to it afterwards counts on (tests_torch/test_grad_versions_torch.py covers the
sums). A view's history is regenerated so after a write to its base under no_grad. Each
program runs in both libraries and reports versions, values and whether the result is a view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _regenerated_view(lib: Any, leaf: bool) -> tuple[Any, Any, Any]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = x if leaf else x * 1
    view = base[1:]
    with lib.no_grad():
        base.mul_(2)
    return x, base, view


def _leaf_grad(lib: Any) -> Any:
    x, _, view = _regenerated_view(lib, leaf=True)
    (view * view).sum().backward()
    return x.grad.tolist(), x.grad._version, x.grad._base is None


def _grad_of_a_leaf(lib: Any) -> Any:
    x, _, view = _regenerated_view(lib, leaf=True)
    (grad,) = lib.autograd.grad((view * 3).sum(), x)
    return grad.tolist(), grad._version, grad._base is None


def _grad_of_a_base(lib: Any) -> Any:
    _, base, view = _regenerated_view(lib, leaf=False)
    (grad,) = lib.autograd.grad((view * 3).sum(), base)
    return grad.tolist(), grad._version, grad._base is None


def _hook_on_the_base(lib: Any) -> Any:
    x, base, view = _regenerated_view(lib, leaf=False)
    seen = []
    base.register_hook(lambda grad: seen.append((grad.tolist(), grad._version)))
    (view * view).sum().backward()
    return seen, x.grad._version


def _two_uses(lib: Any) -> Any:
    x, _, view = _regenerated_view(lib, leaf=False)
    (view.sum() + (view * 2).sum()).backward()
    return x.grad.tolist(), x.grad._version


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "leaf_grad": _leaf_grad,
    "grad_of_a_leaf": _grad_of_a_leaf,
    "grad_of_a_base": _grad_of_a_base,
    "hook_on_the_base": _hook_on_the_base,
    "two_uses": _two_uses,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_as_strided_gradient_version_as_pytorch(name: str) -> None:
    mine, theirs = (PROGRAMS[name](lib) for lib in (minigrad, torch))
    assert mine == theirs
