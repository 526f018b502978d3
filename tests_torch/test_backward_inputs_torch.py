"""``backward(inputs=...)`` runs each input's node, as PyTorch's engine does.

PyTorch marks the node of every ``inputs`` entry needed: a non-leaf input's ``grad_fn`` runs
too, though its gradients go nowhere unless another input needs them. So a custom backward is
called, a node without a derivative (``set_``'s, ``floor_divide``'s) raises, saved values are
checked and then freed. ``autograd.grad`` only captures the gradient: the node does not run.
Each program runs in both libraries.
"""

from __future__ import annotations

from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def _outcome(program: Any, lib: Any) -> Any:
    """What ``program(lib)`` returns, or its exception's type and message (``torch`` renamed)."""
    try:
        return program(lib)
    except Exception as error:  # (compared across the libraries)
        return type(error).__name__, str(error).replace("torch", "minigrad")


def _values(*tensors: Any) -> list[Any]:
    return [None if t is None else t.tolist() for t in tensors]


def _through_set(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    x = a * 2
    x.set_(lib.tensor([5.0, 6.0]))
    (x * b).sum().backward(inputs=[x])


def _through_set_by_grad(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    x = a * 2
    x.set_(lib.tensor([5.0, 6.0]))
    return _values(*lib.autograd.grad((x * b).sum(), [x]))


def _through_floor_divide(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = a // 1
    (x * 3).sum().backward(inputs=[x])


def _custom_backward_runs(lib: Any) -> Any:
    calls = []

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            calls.append(grad.tolist())
            return grad

    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = Double.apply(a)
    (x * 3).sum().backward(inputs=[x])
    return calls, _values(a.grad, x.grad), x.retains_grad


def _saved_value_checked(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    x = a * b
    with lib.no_grad():
        b.mul_(2)
    (x * 3).sum().backward(inputs=[x])


def _saved_values_freed(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = a.exp()
    (x * 3).sum().backward(inputs=[x])
    x.sum().backward()


def _retained_graph_runs_again(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = a.exp()
    (x * 3).sum().backward(inputs=[x], retain_graph=True)
    x.sum().backward()
    return _values(a.grad, x.grad)


def _node_hooks_run(lib: Any) -> Any:
    seen = []
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = a * 2
    x.grad_fn.register_prehook(lambda grads: seen.append(("pre", grads[0].tolist())))
    x.grad_fn.register_hook(lambda grads, _: seen.append(("post", _values(*grads))))
    (x * 3).sum().backward(inputs=[x])
    return seen, _values(a.grad, x.grad)


def _with_a_leaf_beyond(lib: Any) -> Any:
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    x = a * 2
    (x * 3).sum().backward(inputs=[x, a])
    return _values(a.grad, x.grad)


PROGRAMS = {
    program.__name__.lstrip("_"): program
    for program in (
        _through_set,
        _through_set_by_grad,
        _through_floor_divide,
        _custom_backward_runs,
        _saved_value_checked,
        _saved_values_freed,
        _retained_graph_runs_again,
        _node_hooks_run,
        _with_a_leaf_beyond,
    )
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_backward_inputs_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in LIBS)
    assert mine == theirs
