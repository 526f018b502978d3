"""A leaf's first ``.grad`` as PyTorch makes it, on every path of the engine.

PyTorch's AccumulateGrad steals the first gradient (``.grad`` is that tensor: no copy, its
version kept) when nothing but the engine holds the gradient *tensor* and it is laid out like
the leaf; otherwise it copies it (``copy_``: version 1). Whether the gradient's memory is also
someone else's does not count: a view its formula made (``x.view(3)``'s gradient, a slice of
``cat``'s) is stolen and ``.grad`` shares the memory of the gradient the user gave, or of the
one a hook kept. Each program runs in both libraries and reports, for each tensor it looks at,
its version, its values, and whether it is (or shares memory with) a tensor the user holds.
The programs go through the engine's paths: plain, ``inputs=``, anomaly mode,
``retain_graph``, ``create_graph``, tensor hooks, node hooks on the accumulator,
post-accumulate hooks, retained non-leaves, custom Functions and ``autograd.grad``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _observe(tensor: Any, *held: Any) -> tuple[Any, ...]:
    """What a program reports of ``tensor``: its version, values, and what it shares."""
    storage = tensor.untyped_storage().data_ptr()
    sharing = tuple(
        (tensor is other, storage == other.untyped_storage().data_ptr()) for other in held
    )
    return tensor._version, tensor.tolist(), sharing


def _leaf(lib: Any, *shape: int) -> Any:
    if not shape:
        return lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    return lib.ones(*shape, dtype=lib.float64, requires_grad=True)


def _given(lib: Any, *shape: int) -> Any:
    count = 1
    for size in shape:
        count *= size
    return lib.arange(1.0, 1.0 + count, dtype=lib.float64).reshape(shape)


def _in_anomaly_mode(lib: Any, run: Callable[[], None]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Anomaly Detection has been enabled."
        with lib.autograd.detect_anomaly():
            run()


def _backward(how: str) -> Callable[..., None]:
    """``out.backward(gradient)`` on one of the engine's paths; ``inputs``: the leaves asked for."""

    def run(lib: Any, out: Any, gradient: Any, *inputs: Any) -> None:
        if how == "plain":
            out.backward(gradient)
        elif how == "inputs":
            out.backward(gradient, inputs=list(inputs))
        elif how == "anomaly":
            _in_anomaly_mode(lib, lambda: out.backward(gradient))
        elif how == "retain_graph":
            out.backward(gradient, retain_graph=True)
        else:  # create_graph: never stolen (PyTorch copies into a recorded .grad)
            out.backward(gradient, create_graph=True)

    return run


PATHS = ("plain", "inputs", "anomaly", "retain_graph", "create_graph")


def _op(make: Callable[[Any, Any], Any], shape: tuple[int, ...] = (), given: bool = False):
    """A program: ``make(lib, x)``'s backward along each path, x's first ``.grad`` reported."""

    def program(lib: Any, how: str) -> Any:
        x = _leaf(lib, *shape)
        out = make(lib, x)
        gradient = _given(lib, *out.shape) if given else None
        if gradient is None:
            out = out.sum()
        _backward(how)(lib, out, gradient, x)
        return _observe(x.grad, *(() if gradient is None else (gradient,)))

    return program


OPS: dict[str, Callable[[Any, str], Any]] = {
    "mul": _op(lambda lib, x: x * 2),
    "exp": _op(lambda lib, x: x.exp()),
    "mul_twice": _op(lambda lib, x: x * 2 + x * 3),  # summed in place: version 1
    "sum_of_leaf": _op(lambda lib, x: x),  # sum's expanded gradient: copied
    "matmul": _op(lambda lib, x: lib.ones(4, 3, dtype=lib.float64) @ x, (3, 2)),
    "given_mul": _op(lambda lib, x: x * 2, given=True),
    "given_leaf_itself": _op(lambda lib, x: x, given=True),  # the user's tensor: copied
    "given_add_zero": _op(lambda lib, x: x + 0, given=True),
    "given_clone": _op(lambda lib, x: x.clone(), given=True),
    "given_view": _op(lambda lib, x: x.view(3), given=True),  # a view of it: stolen
    "given_unsqueeze": _op(lambda lib, x: x.unsqueeze(0), given=True),
    "given_reshape": _op(lambda lib, x: x.reshape(6), (2, 3), given=True),
    "given_flatten": _op(lambda lib, x: x.flatten(), (2, 3), given=True),
    "given_squeeze": _op(lambda lib, x: x.squeeze(), (1, 3), given=True),
    "given_t": _op(lambda lib, x: x.t(), (2, 3), given=True),  # not laid out like x: copied
    "given_select": _op(lambda lib, x: x[0], (2, 3), given=True),
}


@parametrize_in_one("how", PATHS)
@parametrize_in_one("name", sorted(OPS))
def test_first_grad_as_pytorch_makes_it(name: str, how: str) -> None:
    program = OPS[name]
    assert program(minigrad, how) == program(torch, how)


def _two_inputs(lib: Any, how: str) -> Any:
    # cat's gradient is two slices of the given one: each stolen, sharing its memory.
    a, b = _leaf(lib), _leaf(lib, 2)
    gradient = _given(lib, 5)
    out = lib.cat([a, b])
    _backward(how)(lib, out, gradient, a, b)
    return _observe(a.grad, gradient), _observe(b.grad, gradient)


def _stack(lib: Any, how: str) -> Any:
    a, b = _leaf(lib), _leaf(lib)
    gradient = _given(lib, 2, 3)
    out = lib.stack([a, b])
    _backward(how)(lib, out, gradient, a, b)
    return _observe(a.grad, gradient), _observe(b.grad, gradient)


def _add_of_a_view(lib: Any, how: str) -> Any:
    # add hands one gradient to both edges: a's accumulator runs while the view's node still
    # holds it (copied); the view's gradient is a view of it (stolen).
    a, b = _leaf(lib), _leaf(lib)
    gradient = _given(lib, 3)
    out = a + b.view(3)
    _backward(how)(lib, out, gradient, a, b)
    return _observe(a.grad, gradient), _observe(b.grad, gradient)


def _two_leaves(lib: Any, how: str) -> Any:
    x, w = _leaf(lib), _leaf(lib)
    out = (x * w).sum()
    _backward(how)(lib, out, None, x, w)
    return _observe(x.grad), _observe(w.grad)


def _second_backward(lib: Any, how: str) -> Any:
    x = _leaf(lib)
    _backward(how)(lib, (x * 2).sum(), None, x)
    first = x.grad
    _backward(how)(lib, (x * 2).sum(), None, x)
    return _observe(x.grad, first)


def _retained_non_leaf(lib: Any, how: str) -> Any:
    x = _leaf(lib)
    y = x * 2
    y.retain_grad()
    out = (y * 3).sum()
    _backward(how)(lib, out, None, x, y)
    return _observe(y.grad), _observe(x.grad)


def _retained_given(lib: Any, how: str) -> Any:
    x = _leaf(lib)
    y = x * 2
    y.retain_grad()
    gradient = _given(lib, 3)
    _backward(how)(lib, y, gradient, x, y)
    return _observe(y.grad, gradient), _observe(x.grad, gradient)


def _hooked(hook: str) -> Callable[[Any, str], Any]:
    """A tensor hook on the leaf: returning nothing, keeping its argument, returning another."""

    def program(lib: Any, how: str) -> Any:
        x = _leaf(lib)
        kept: list[Any] = []

        def keep(grad: Any) -> None:
            kept.append(grad)

        def times_three(grad: Any) -> Any:
            return grad * 3

        def times_three_kept(grad: Any) -> Any:
            kept.append(grad * 3)
            return kept[-1]

        chosen = {
            "none": lambda grad: None,
            "keep": keep,
            "same": lambda grad: grad,
            "new": times_three,
            "new_kept": times_three_kept,
        }[hook]
        x.register_hook(chosen)
        _backward(how)(lib, (x * 2).sum(), None, x)
        return _observe(x.grad, *kept)

    return program


def _hooked_view_of_leaf(lib: Any, how: str) -> Any:
    # The hook keeps the view's gradient; the leaf's is a view of it: stolen, sharing memory.
    x = _leaf(lib)
    kept: list[Any] = []
    y = x.view(1, 3)
    y.register_hook(kept.append)
    _backward(how)(lib, (y * 2).sum(), None, x)
    return _observe(x.grad, *kept)


def _post_accumulate(lib: Any, how: str) -> Any:
    x = _leaf(lib)
    seen: list[Any] = []
    x.register_post_accumulate_grad_hook(lambda leaf: seen.append(leaf.grad._version))
    _backward(how)(lib, (x * 2).sum(), None, x)
    return _observe(x.grad), seen


def _accumulator_hook(kind: str) -> Callable[[Any, str], Any]:
    """A hook on the leaf's accumulator node: a pre-hook, keeping or not, or a post hook."""

    def program(lib: Any, how: str) -> Any:
        x = _leaf(lib)
        y = x * 2
        accumulator = y.grad_fn.next_functions[0][0]
        kept: list[Any] = []
        if kind == "pre_keep":
            accumulator.register_prehook(lambda grads: kept.append(grads[0]))
        elif kind == "pre":
            accumulator.register_prehook(lambda grads: None)
        else:  # PyTorch's post hook sees the gradient that became .grad
            accumulator.register_hook(lambda inputs, outputs: kept.append(outputs[0]))
        _backward(how)(lib, y.sum(), None, x)
        return _observe(x.grad, *kept)

    return program


def _custom(passes_through: bool) -> Callable[[Any, str], Any]:
    def program(lib: Any, how: str) -> Any:
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, a: Any) -> Any:
                return a * 2

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return grad if passes_through else grad * 2

        x = _leaf(lib)
        gradient = _given(lib, 3)
        _backward(how)(lib, Double.apply(x), gradient, x)
        return _observe(x.grad, gradient)

    return program


PROGRAMS: dict[str, Callable[[Any, str], Any]] = {
    "cat": _two_inputs,
    "stack": _stack,
    "add_of_a_view": _add_of_a_view,
    "two_leaves": _two_leaves,
    "second_backward": _second_backward,
    "retained_non_leaf": _retained_non_leaf,
    "retained_given": _retained_given,
    "hook_none": _hooked("none"),
    "hook_keeps": _hooked("keep"),
    "hook_returns_its_argument": _hooked("same"),
    "hook_returns_new": _hooked("new"),
    "hook_returns_new_kept": _hooked("new_kept"),
    "hooked_view_of_leaf": _hooked_view_of_leaf,
    "post_accumulate_hook": _post_accumulate,
    "accumulator_prehook": _accumulator_hook("pre"),
    "accumulator_prehook_keeps": _accumulator_hook("pre_keep"),
    "accumulator_post_hook": _accumulator_hook("post"),
    "custom_function": _custom(False),
    "custom_function_passes_gradient_through": _custom(True),
}


@parametrize_in_one("how", PATHS)
@parametrize_in_one("name", sorted(PROGRAMS))
def test_first_grad_around_hooks_and_nodes_as_pytorch(name: str, how: str) -> None:
    program = PROGRAMS[name]
    assert program(minigrad, how) == program(torch, how)


def _grad_of(hook: str) -> Callable[[Any], Any]:
    """``autograd.grad`` of a leaf: what it returns, and what a hook on the leaf kept."""

    def program(lib: Any) -> Any:
        x = _leaf(lib)
        kept: list[Any] = []
        if hook == "keep":
            x.register_hook(kept.append)
        elif hook == "new_kept":
            x.register_hook(lambda grad: kept.append(grad * 3) or kept[-1])
        (grad,) = lib.autograd.grad((x * 2 + x * 3).sum(), x)
        return _observe(grad, *kept)

    return program


def _grad_given(make: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = _leaf(lib)
        gradient = _given(lib, 3)
        (grad,) = lib.autograd.grad(make(lib, x), x, gradient)
        return _observe(grad, gradient)

    return program


GRAD_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "no_hook": _grad_of(""),
    "hook_keeps": _grad_of("keep"),  # the very tensor the hook was given
    "hook_returns_new_kept": _grad_of("new_kept"),
    "given_mul": _grad_given(lambda lib, x: x * 2),
    "given_view": _grad_given(lambda lib, x: x.view(3)),
    "given_leaf_itself": _grad_given(lambda lib, x: x),
}


@pytest.mark.parametrize("name", sorted(GRAD_PROGRAMS))
def test_autograd_grad_returns_what_pytorch_captures(name: str) -> None:
    program = GRAD_PROGRAMS[name]
    assert program(minigrad) == program(torch)
