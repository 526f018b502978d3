"""SGD reads every momentum buffer before its first update, as PyTorch's single-tensor SGD.

PyTorch's ``SGD.step`` gathers the parameters' buffers first (``_init_group``), updates, then
stores them back: a parameter listed twice (PyTorch warns, and allows it) starts from no
buffer both times on the first step. Each program runs in both libraries, and a few optimizers
with a parameter listed twice are stepped in both (found by random programs, seed 45290007:
``autograd.grad`` of a leaf with itself as ``grad_outputs`` returns that very tensor).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad
from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 45290007, shrunk
    "gradient_that_is_the_parameter": """
t0 = torch.zeros((3, 1), requires_grad=True)
t1 = torch.autograd.grad(t0, t0, t0, retain_graph=True, allow_unused=True)[0]
t0.sum().backward()
o0 = torch.optim.SGD([t0, t1], lr=0.1, momentum=0.9)
o0.step()
""",
    "nesterov_twice": """
t0 = torch.zeros((3, 1), requires_grad=True)
t0.sum().backward()
o0 = torch.optim.SGD([t0, t0], lr=0.1, momentum=0.9, nesterov=True)
o0.step()
o0.step()
t2 = o0.state[t0]["momentum_buffer"]
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])


SETTINGS: dict[str, dict[str, Any]] = {
    "SGD": {"lr": 0.1, "momentum": 0.9, "dampening": 0.25},
    "Adam": {}, "RMSprop": {"lr": 0.01, "momentum": 0.5, "centered": True}, "Rprop": {},
}


def _steps(lib: Any, name: str) -> list[float]:
    x = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the duplicate's warning: compared by the programs)
        optimizer = getattr(lib.optim, name)([x, x], **SETTINGS[name])
    for _ in range(3):
        optimizer.zero_grad()
        (x * x).sum().backward()
        optimizer.step()
    return x.tolist()


@parametrize_in_one("name", list(SETTINGS))
def test_a_parameter_listed_twice_steps_as_in_pytorch(name: str) -> None:
    assert _steps(minigrad, name) == pytest.approx(_steps(torch, name), rel=1e-6)
