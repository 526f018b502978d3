"""``autograd.graph.disable_saved_tensors_hooks`` forbids saved-tensor hooks, as PyTorch's.

Entering a pair of hooks (or ``save_on_cpu``) while it is active raises its message; so does
disabling while a pair is active; nested, the inner message applies until the inner context
ends, then the outer one again; as a decorator it does the same around the call; recording
and backward run as usual meanwhile. Each program runs in both libraries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        return program(lib)
    except Exception as error:  # (compared across the libraries)
        return type(error).__name__, str(error)


def _hooks(lib: Any) -> Any:
    return lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)


def _enter_hooks(lib: Any) -> Any:
    with lib.autograd.graph.disable_saved_tensors_hooks("no hooks here"), _hooks(lib):
        pass


def _enter_save_on_cpu(lib: Any) -> Any:
    graph = lib.autograd.graph
    with graph.disable_saved_tensors_hooks("no hooks here"), graph.save_on_cpu():
        pass


def _disable_inside_hooks(lib: Any) -> Any:
    with _hooks(lib), lib.autograd.graph.disable_saved_tensors_hooks("inside"):
        pass


def _nested(lib: Any) -> Any:
    messages = []
    with lib.autograd.graph.disable_saved_tensors_hooks("outer"):
        with lib.autograd.graph.disable_saved_tensors_hooks("inner"):
            try:
                _hooks(lib).__enter__()
            except RuntimeError as error:
                messages.append(str(error))
        try:
            _hooks(lib).__enter__()
        except RuntimeError as error:
            messages.append(str(error))
    with _hooks(lib):  # allowed again
        messages.append("entered")
    return messages


def _decorator(lib: Any) -> Any:
    @lib.autograd.graph.disable_saved_tensors_hooks("decorated")
    def function() -> None:
        with _hooks(lib):
            pass

    return function()


def _recording_meanwhile(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.disable_saved_tensors_hooks("off"):
        (x.sin() * x).sum().backward()
    return [round(value, 4) for value in x.grad.tolist()]


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "enter_hooks": _enter_hooks,
    "enter_save_on_cpu": _enter_save_on_cpu,
    "disable_inside_hooks": _disable_inside_hooks,
    "nested": _nested,
    "decorator": _decorator,
    "recording_meanwhile": _recording_meanwhile,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_disable_saved_tensors_hooks_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in (minigrad, torch))
    assert mine == theirs
