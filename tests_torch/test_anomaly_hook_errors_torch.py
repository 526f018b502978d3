"""In anomaly mode an error in a hook is its node's error, as in PyTorch.

PyTorch's engine reports any error raised while it evaluates a node -- a tensor hook, a
node pre-hook, a hook's result of the wrong shape, a leaf's hook at its accumulator -- with
the warning "Error detected in <node>" and the forward traceback, then lets the error through.
Each program runs in both libraries; the error and the warnings are compared (their first
line, and the last frame of the forward traceback; PyTorch appends where in its C++ sources
the warning was issued, which is dropped).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _raise(*args: Any) -> Any:
    raise ValueError("boom")


def _tensor_hook(lib: Any, x: Any) -> Any:
    y = x.exp()
    y.register_hook(_raise)
    return y


def _leaf_hook(lib: Any, x: Any) -> Any:
    y = x.exp()
    x.register_hook(_raise)
    return y


def _node_pre_hook(lib: Any, x: Any) -> Any:
    y = x.exp()
    y.grad_fn.register_prehook(_raise)
    return y


def _hook_of_the_wrong_shape(lib: Any, x: Any) -> Any:
    y = x.exp()
    y.register_hook(lambda grad: lib.ones(3))
    return y


def _node_post_hook(lib: Any, x: Any) -> Any:
    y = x.exp()
    y.grad_fn.register_hook(_raise)
    return y


def _outcome(program: Callable[[Any, Any], Any], lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly(check_nan=False):
            y = program(lib, x)
            try:
                y.sum().backward()
                error: Any = None
            except Exception as raised:  # (compared across the libraries)
                error = type(raised).__name__, str(raised).replace("torch", "minigrad")
    notes = []
    for warning in caught:
        text = str(warning.message).split(" (Triggered internally at")[0].rstrip("\n")
        lines = text.replace("torch::", "minigrad::").splitlines()
        if lines[0].startswith("Error detected in"):
            notes.append((lines[0], lines[-2:]))
    return error, notes


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "tensor_hook": _tensor_hook,
    "leaf_hook": _leaf_hook,
    "node_pre_hook": _node_pre_hook,
    "hook_of_the_wrong_shape": _hook_of_the_wrong_shape,
    "node_post_hook": _node_post_hook,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_hook_errors_in_anomaly_mode_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in (minigrad, torch))
    assert mine == theirs
