"""Misusing a custom Function's ctx, against PyTorch: its checks, texts and freed state.

- ``save_for_backward`` of a value that is neither a tensor nor None raises when the call
  records ("save_for_backward can only save variables, but argument 1 is of type int"),
  not under no_grad;
- ``mark_non_differentiable`` of a non-tensor, ``set_materialize_grads`` of a non-bool: its
  texts;
- once a backward freed the graph, ``ctx.saved_tensors`` raises "backward through the graph a
  second time" whatever was saved (nothing, Nones), while a second backward that does not
  read them runs;
- the ctx's read-only attributes name PyTorch's ``_FunctionBase`` when assigned.
Each program runs in both libraries; the outcome (value, or error type and text) is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minigrad


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        return ("value", program(lib))
    except Exception as error:  # noqa: BLE001 - the outcome compared is the error itself
        return ("error", type(error).__name__, str(error).replace("minigrad", "torch"))


def _function(lib: Any, in_forward: Callable[[Any, Any], Any],
              reads_saved: bool = True) -> Any:
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            in_forward(ctx, x)
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            if reads_saved:
                ctx.saved_tensors  # noqa: B018 - the read is what is tested
            return grad * 2

    return Twice


def _apply(in_forward: Callable[[Any, Any], Any], no_grad: bool = False) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        function = _function(lib, in_forward)
        if no_grad:
            with lib.no_grad():
                return function.apply(x).tolist()
        return function.apply(x).tolist()

    return program


def _after_backward(in_forward: Callable[[Any, Any], Any], reads_saved: bool,
                    again: bool) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = _function(lib, in_forward, reads_saved).apply(x)
        y.sum().backward()
        if again:
            y.sum().backward()
            return x.grad.tolist()
        return len(y.grad_fn.saved_tensors)

    return program


def _retained(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = _function(lib, lambda ctx, x: ctx.save_for_backward(x)).apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return x.grad.tolist()


def _assign(attribute: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        y = _function(lib, lambda ctx, x: None).apply(lib.tensor([1.0], requires_grad=True))
        setattr(y.grad_fn, attribute, ())
        return None

    return program


def _save(*values: Any) -> Callable[[Any, Any], Any]:
    return lambda ctx, x: ctx.save_for_backward(x, *values)


_NOTHING: Callable[[Any, Any], Any] = lambda ctx, x: None  # noqa: E731
_NONE: Callable[[Any, Any], Any] = lambda ctx, x: ctx.save_for_backward(None)  # noqa: E731
_TENSOR = _save()
_BOTH = _save(None)

_SAVINGS = (("nothing", _NOTHING), ("none", _NONE), ("tensor", _TENSOR), ("both", _BOTH))

PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "save_int": _apply(_save(3)),
    "save_float_str": _apply(_save(3.0, "a")),
    "save_list": _apply(lambda ctx, x: ctx.save_for_backward([x])),
    "save_array": _apply(lambda ctx, x: ctx.save_for_backward(x, x.detach().numpy())),
    "save_int_no_grad": _apply(_save(3), no_grad=True),
    "save_none": _apply(_NONE),
    "mark_non_differentiable_none": _apply(lambda ctx, x: ctx.mark_non_differentiable(None)),
    "mark_non_differentiable_list": _apply(lambda ctx, x: ctx.mark_non_differentiable(x, [1])),
    "materialize_int": _apply(lambda ctx, x: ctx.set_materialize_grads(1)),
    "materialize_none": _apply(lambda ctx, x: ctx.set_materialize_grads(None)),
    "materialize_keyword": _apply(lambda ctx, x: ctx.set_materialize_grads(value=False)),
    **{f"saved_after_backward_{name}": _after_backward(saving, True, False)
       for name, saving in _SAVINGS},
    **{f"again_reading_{name}": _after_backward(saving, True, True) for name, saving in _SAVINGS},
    **{f"again_not_reading_{name}": _after_backward(saving, False, True)
       for name, saving in _SAVINGS},
    "retained": _retained,
    **{f"assign_{name}": _assign(name) for name in (
        "saved_tensors", "next_functions", "metadata", "requires_grad", "_raw_saved_tensors")},
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_ctx_misuse_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    assert _outcome(program, minigrad) == _outcome(program, torch)
