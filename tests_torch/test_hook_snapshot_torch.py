"""A gradient's tensor hooks are those registered when it arrives, as in PyTorch.

PyTorch runs the hooks a tensor had when its gradient reached it: a hook that an earlier one
removes meanwhile still runs in this backward, and one added meanwhile waits for the next.
Each program runs in both libraries and returns the order of the calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _remove_during_backward(lib: Any, leaf: bool, removed: int) -> list[str]:
    # (the first hook removes hook ``removed``: the second one, or itself)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x if leaf else x * 2
    calls: list[str] = []
    handles: list[Any] = []

    def first(grad: Any) -> None:
        calls.append("first")
        handles[removed].remove()

    handles.append(y.register_hook(first))
    handles.append(y.register_hook(lambda grad: calls.append("second")))
    for _ in range(2):
        (y * 3).sum().backward(retain_graph=True)
    return calls


def _remove_other(lib: Any, leaf: bool) -> list[str]:
    return _remove_during_backward(lib, leaf, 1)


def _remove_self(lib: Any, leaf: bool) -> list[str]:
    return _remove_during_backward(lib, leaf, 0)


def _add_another(lib: Any, leaf: bool) -> list[Any]:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x if leaf else x * 2
    calls: list[str] = []

    def first(grad: Any) -> Any:
        calls.append("first")
        if len(calls) == 1:
            y.register_hook(lambda grad: calls.append("added") or grad * 10)
        return grad + 1

    y.register_hook(first)
    for _ in range(2):
        (y * 3).sum().backward(retain_graph=True)
    return [calls, x.grad.tolist()]


PROGRAMS: dict[str, Callable[[Any, bool], Any]] = {
    "remove_other": _remove_other,
    "remove_self": _remove_self,
    "add_another": _add_another,
}


@parametrize_in_one("leaf", [True, False], ids=["leaf", "non_leaf"])
@parametrize_in_one("name", list(PROGRAMS))
def test_hooks_run_as_registered_when_the_gradient_arrives(name: str, leaf: bool) -> None:
    mine, theirs = (PROGRAMS[name](lib, leaf) for lib in (minigrad, torch))
    assert mine == theirs
