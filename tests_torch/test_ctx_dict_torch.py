"""A custom Function's ctx (its node) shows only the user's notes in ``__dict__``, as PyTorch.

PyTorch's ctx is a Python object whose ``__dict__`` holds what forward (or the user) set on
it, nothing of autograd's own: ``vars(ctx)`` is ``{}`` for a ctx without notes, also after
``save_for_backward``, ``mark_dirty``, hooks, ``retain_grad``, anomaly mode or backward, and
replacing ``ctx.__dict__`` loses nothing backward needs. minigrad once kept its own slots
there (``_slots``, ``_num_args``, ``_output_meta``, ``_post_hooks`` ...), so they showed, and
``y.grad_fn.__dict__ = {}`` broke backward. Each program runs in both libraries; the outcome
(the value, or the error's type and text) is compared.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minigrad


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (anomaly mode's warning)
            return ("value", program(lib))
    except Exception as error:  # noqa: BLE001 - the outcome compared is the error itself
        return ("error", type(error).__name__, str(error).replace("minigrad", "torch"))


def _function(lib: Any, notes: bool = False, dirty: bool = False,
              non_differentiable: bool = False, materialize: bool = False) -> Any:
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            if notes:
                ctx.factor = 2.0
            if materialize:
                ctx.set_materialize_grads(False)
            if dirty:
                ctx.mark_dirty(x)
                return x.mul_(2)
            result = x * 2
            if non_differentiable:
                ctx.mark_non_differentiable(result)
            return result

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad * 2

    return Twice


def _leaf(lib: Any) -> Any:
    return lib.tensor([1.0, 2.0], requires_grad=True)


def _vars_after(step: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = _leaf(lib)
        if step == "dirty":
            y = _function(lib, dirty=True).apply(x.clone())
        elif step == "non_differentiable":
            y = _function(lib, non_differentiable=True).apply(x)
            return (y.grad_fn, )
        elif step == "anomaly":
            with lib.autograd.detect_anomaly():
                y = _function(lib).apply(x)
        else:
            y = _function(lib, notes=step == "notes",
                          materialize=step == "materialize").apply(x)
        node = y.grad_fn
        if step == "hooks":
            node.register_hook(lambda grad_inputs, grad_outputs: None)
            node.register_prehook(lambda grads: None)
            y.register_hook(lambda grad: grad)
            y.retain_grad()
            node.metadata["note"] = 1
        if step == "backward":
            y.sum().backward()
        return (vars(node), node.__dict__)

    return program


def _dict_replaced(lib: Any) -> Any:
    x = _leaf(lib)
    y = _function(lib, notes=True).apply(x)
    y.grad_fn.__dict__ = {"other": 1}
    y.sum().backward()
    return (x.grad.tolist(), vars(y.grad_fn))


def _dict_deleted(lib: Any) -> Any:
    x = _leaf(lib)
    y = _function(lib).apply(x)
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    del y.grad_fn.__dict__
    y.sum().backward()
    return (x.grad.tolist(), vars(y.grad_fn))


def _notes_through_dict(lib: Any) -> Any:
    x = _leaf(lib)
    y = _function(lib).apply(x)
    y.grad_fn.__dict__["extra"] = 3
    return (y.grad_fn.extra, "extra" in dir(y.grad_fn), vars(y.grad_fn))


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    **{f"vars_{step}": _vars_after(step) for step in (
        "forward", "notes", "hooks", "backward", "dirty", "anomaly", "materialize")},
    "dict_replaced": _dict_replaced,
    "dict_deleted": _dict_deleted,
    "notes_through_dict": _notes_through_dict,
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_ctx_dict_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    assert _outcome(program, minigrad) == _outcome(program, torch)
