"""maximum's and minimum's gradients are at version 1, as PyTorch's formula leaves them.

PyTorch computes each operand's gradient as ``where(self == other, grad / 2,
grad).masked_fill_(lost, 0)``: the in-place fill moves the new tensor's version to 1, which a
later stale-version message names ("is at version 2; expected version 1"). fmax and fmin's
formulas write nothing in place. Compared in both libraries (found by random programs, seed
45357491).
"""

from __future__ import annotations

from typing import Any

import torch
from _cases import parametrize_in_one

import minigrad
from tests_torch.random_programs.shrink import assert_agrees


def _versions(lib: Any, name: str, tie: bool, create_graph: bool) -> list[int]:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([1.0 if tie else 0.0, 3.0], requires_grad=True)
    out = getattr(lib, name)(a * 1, b)
    grads = lib.autograd.grad(out.sum(), (a, b), create_graph=create_graph)
    return [g._version for g in grads]


@parametrize_in_one("create_graph", [False, True])
@parametrize_in_one("tie", [False, True])
@parametrize_in_one("name", ["maximum", "minimum", "fmax", "fmin"])
def test_gradient_versions_as_in_pytorch(name: str, tie: bool, create_graph: bool) -> None:
    assert _versions(minigrad, name, tie, create_graph) == _versions(
        torch, name, tie, create_graph)


def test_seed_45357491_agrees_with_pytorch() -> None:
    assert_agrees("""
t0 = torch.zeros((2, 2), requires_grad=True)
t2 = torch.where(t0 > 0, t0, 0.5 * t0)
t4 = torch.minimum(t0, t2)
t5 = torch.autograd.grad(t4.sum(), t2, allow_unused=True)[0]
t7 = t5 / t4
t5 += t7
t12 = torch.autograd.grad(t7.sum(), t2, retain_graph=True, allow_unused=True)[0]
""")
