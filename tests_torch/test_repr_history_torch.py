"""A tensor's repr shows its history as PyTorch's does: ``grad_fn`` and ``requires_grad`` as read.

PyTorch's repr reads the ``grad_fn`` property, which regenerates a view's history after a write
to its base (``AsStridedBackward0`` ...), prints ``grad_fn=<Invalid>`` for a view whose history
cannot be regenerated (made and written under no_grad, its base requiring grad), and reads
``requires_grad``, which a view of a leaf made under no_grad inherits. Each program runs in
both libraries and returns the reprs it printed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _view_of_leaf_under_no_grad(lib: Any) -> list[str]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        v = x[:2]
    return [repr(v), repr(x.detach()[1:])]


def _view_of_leaf_written_under_no_grad(lib: Any) -> list[str]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x[:2]
    before = repr(v)
    with lib.no_grad():
        v.mul_(2)
    return [before, repr(v), repr(x)]


def _view_after_a_write_to_its_base(lib: Any) -> list[str]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[1:].unsqueeze(0)
    b.mul_(2)
    return [repr(v), repr(b)]


def _view_made_and_written_under_no_grad(lib: Any) -> list[str]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    with lib.no_grad():
        v = b[:2]
        v.mul_(2)
    return [repr(v), repr(b)]


def _view_of_a_leaf_made_and_written_under_no_grad(lib: Any) -> list[str]:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        v = x[:2]
        v.add_(1)
    return [repr(v), repr(x)]


PROGRAMS: dict[str, Callable[[Any], list[str]]] = {
    "view_of_leaf_under_no_grad": _view_of_leaf_under_no_grad,
    "view_of_leaf_written_under_no_grad": _view_of_leaf_written_under_no_grad,
    "view_after_a_write_to_its_base": _view_after_a_write_to_its_base,
    "view_made_and_written_under_no_grad": _view_made_and_written_under_no_grad,
    "view_of_a_leaf_made_and_written_under_no_grad": (
        _view_of_a_leaf_made_and_written_under_no_grad
    ),
}


@parametrize_in_one("name", list(PROGRAMS))
def test_repr_shows_history_as_pytorch(name: str) -> None:
    mine = PROGRAMS[name](minigrad)
    theirs = [text.replace("torch", "minigrad") for text in PROGRAMS[name](torch)]
    assert mine == theirs
