"""A custom Function's outputs, its backward's arguments and its views, as PyTorch's.

Outputs that are not tensors (numbers, strings, None) count as outputs: backward gets None for
each, and the tensors after them keep their positions (``output_nr``); a tensor output that
received no gradient comes as PyTorch's ``at::zeros`` (version 1). A gradient for an
argument that was not a tensor is refused. ``ctx.needs_input_grad`` follows ``requires_grad``
in any grad mode. An output that is a view (made in forward, or an input returned as is) may
not be written in place, nor used after a write to its base (PyTorch's creation meta
``IN_CUSTOM_FUNCTION``, inherited by views of it; with several differentiable outputs,
``MULTIPLE_OUTPUTS``); a dirty input that is a split output is refused with the split's
error. Each program runs in both libraries.
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
        return type(error).__name__, str(error).replace("torch", "minigrad")


def _attempt(action: Callable[..., Any], *args: Any) -> Any:
    try:
        action(*args)
        return "ok"
    except RuntimeError as error:
        return str(error).replace("torch", "minigrad")


def _function(lib: Any, forward: Callable[..., Any], backward: Callable[..., Any]) -> Any:
    return type("F", (lib.autograd.Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward)})


def _non_tensor_outputs(lib: Any) -> Any:
    seen = []

    def backward(ctx: Any, *grads: Any) -> Any:
        seen.append([None if g is None else g.tolist() for g in grads])
        return grads[1] * 2

    f = _function(lib, lambda ctx, x: (5, x * 2, "s", None, x * 3), backward)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    out = f.apply(x)
    out[1].sum().backward()
    return out[0], out[2:4], out[1].output_nr, out[4].output_nr, seen, x.grad.tolist()


def _gradient_for_a_number(lib: Any) -> Any:
    f = _function(lib, lambda ctx, x, n: x * n, lambda ctx, g: (g * 2, g))
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    f.apply(x, 3).sum().backward()


def _gradient_for_a_tensor_without_grad(lib: Any) -> Any:
    f = _function(lib, lambda ctx, x, n: x * n, lambda ctx, g: (g * 2, g))
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    f.apply(x, lib.ones(2)).sum().backward()
    return x.grad.tolist()


def _needs_input_grad_in_no_grad(lib: Any) -> Any:
    seen = []

    def forward(ctx: Any, x: Any, w: Any, k: Any) -> Any:
        seen.append(ctx.needs_input_grad)
        return x * w * k

    f = _function(lib, forward, lambda ctx, g: (g, g, None))
    x = lib.tensor([1.0, 3.0], requires_grad=True)
    with lib.no_grad():
        f.apply(x, lib.ones(2), 2)
    f.apply(x, lib.ones(2), 2)
    with lib.no_grad():
        f.apply(x.detach(), x, 2)
    return seen


def _slice(lib: Any) -> Any:
    return _function(lib, lambda ctx, x: x[:1], lambda ctx, g: lib.cat([g, g]))


def _same(lib: Any) -> Any:
    return _function(lib, lambda ctx, x: x, lambda ctx, g: g)


def _view_output_written(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    b = x * 1
    y = _slice(lib).apply(b)
    z = _slice(lib).apply(b)[:1]
    return _attempt(lambda: y.mul_(2)), _attempt(lambda: z.mul_(2)), repr(y)


def _input_returned_written(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = _same(lib).apply(x * 1)
    return _attempt(lambda: y.add_(1))


def _view_output_after_its_base_changed(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    b = x * 1
    y = _slice(lib).apply(b)
    b.mul_(2)
    return _attempt(lambda: y.grad_fn), _attempt(lambda: y + 1), repr(y)


def _view_output_without_grad(lib: Any) -> Any:
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.no_grad():
        made_in_no_grad = _slice(lib).apply(x)
    plain = _slice(lib).apply(lib.ones(2))
    same = _same(lib).apply(lib.ones(2))
    return (_attempt(lambda: made_in_no_grad.mul_(2)), _attempt(lambda: plain.mul_(2)),
            _attempt(lambda: plain.mul_(w[:1])), _attempt(lambda: same.mul_(w)))


def _view_output_backward(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = _slice(lib).apply(x * 1)
    (y * 2).sum().backward()
    return x.grad.tolist()


def _dirty(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    return _function(lib, forward, lambda ctx, g: g * 2)


def _dirty_split_output(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = x * 1
    first, _ = b.split(2)
    return _attempt(lambda: _dirty(lib).apply(first)), _attempt(
        lambda: _dirty(lib).apply(b.unbind()[1]))


def _dirty_plain_view(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = x * 1
    y = _dirty(lib).apply(b[2:])
    b.sum().backward()
    return repr(y), repr(b), x.grad.tolist()


def _view_of_a_dirty_input(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        v = x[:1]
        v.mul_(2)
        ctx.mark_dirty(x)
        return x, v

    f = _function(lib, forward, lambda ctx, g, gv: g)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    whole, part = f.apply(x * 1)
    return repr(whole), repr(part), _attempt(lambda: part.add_(1))


def _several_view_outputs(lib: Any) -> Any:
    def forward(ctx: Any, x: Any) -> Any:
        return x[:1], x[1:]

    def forward_one_differentiable(ctx: Any, x: Any) -> Any:
        rest = x[1:]
        ctx.mark_non_differentiable(rest)
        return x[:1], rest

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    found = []
    for chosen in (forward, forward_one_differentiable):
        f = _function(lib, chosen, lambda ctx, a, b: lib.cat([a, b]))
        first, second = f.apply(x * 1)
        unrecorded, _ = f.apply(lib.ones(2))
        found += [_attempt(first.mul_, 2), _attempt(second.mul_, 2),
                  _attempt(unrecorded.mul_, x[:1])]
    return found


def _input_returned_non_differentiable_beside_a_view(lib: Any) -> Any:
    # (the input, marked non-differentiable, comes out as a detached alias: the view beside
    # it is the one differentiable output, so its write meets the custom-Function text)
    def forward(ctx: Any, x: Any) -> Any:
        ctx.mark_non_differentiable(x)
        return x, x[:2]

    f = _function(lib, forward, lambda ctx, a, b: lib.cat([b, lib.zeros(1)]))
    x = lib.ones(3, requires_grad=True)
    same, view = f.apply(x)
    return same.requires_grad, same.grad_fn, _attempt(view.mul_, 2)


def _materialized_zeros(lib: Any) -> Any:
    seen = []

    def forward(ctx: Any, x: Any) -> Any:
        rest = x * 3
        ctx.mark_non_differentiable(rest)
        return x * 2, None, rest

    def backward(ctx: Any, *grads: Any) -> Any:
        seen.append([None if g is None else (g.tolist(), g._version) for g in grads])
        return grads[0] * 2

    f = _function(lib, forward, backward)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    first, _, _ = f.apply(x)
    first.sum().backward()
    return seen


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "non_tensor_outputs": _non_tensor_outputs,
    "gradient_for_a_number": _gradient_for_a_number,
    "gradient_for_a_tensor_without_grad": _gradient_for_a_tensor_without_grad,
    "needs_input_grad_in_no_grad": _needs_input_grad_in_no_grad,
    "view_output_written": _view_output_written,
    "input_returned_written": _input_returned_written,
    "view_output_after_its_base_changed": _view_output_after_its_base_changed,
    "view_output_without_grad": _view_output_without_grad,
    "view_output_backward": _view_output_backward,
    "dirty_split_output": _dirty_split_output,
    "dirty_plain_view": _dirty_plain_view,
    "view_of_a_dirty_input": _view_of_a_dirty_input,
    "several_view_outputs": _several_view_outputs,
    "input_returned_non_differentiable_beside_a_view":
        _input_returned_non_differentiable_beside_a_view,
    "materialized_zeros": _materialized_zeros,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_custom_function_outputs_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in (minigrad, torch))
    assert mine == theirs
