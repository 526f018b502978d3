"""When leaves' accumulators run, as Python code in backward sees it: PyTorch's moments.

The engine counts dependencies only once something could tell (engine.py's docstring): until
then a leaf's accumulator collects its gradients and runs at the end. Each program here has an
accumulator (``v``'s) whose last edge delivers before a later node runs, and something that
looks at the leaves' ``.grad`` then -- a node's hook, a custom Function's backward, a saved
tensor's unpack hook, the leaves' own hooks, an error ending the backward -- and logs what it
saw. The logs are PyTorch's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minigrad


def _state(lib: Any, leaves: dict[str, Any]) -> tuple[Any, ...]:
    """What the leaves' ``.grad`` show now (None, or the values rounded)."""
    return tuple(
        (name, None if t.grad is None else [round(float(g), 5) for g in t.grad.reshape(-1)])
        for name, t in leaves.items()
    )


def _program(lib: Any, log: list[Any], middle: Callable[[Any], Any] | None = None) -> Any:
    """``u`` reaches the output only through ``p`` (made first, run last); ``v`` twice, its
    accumulator complete once ``q`` ran, before ``p`` runs."""
    u = lib.tensor([1.0, 2.0], requires_grad=True)
    v = lib.tensor([0.5, -1.0], requires_grad=True)
    p = u * 3 if middle is None else middle(u)
    q = p * v
    s = q.exp() + v
    return s.sum(), {"u": u, "v": v}, p


def _node_hook(lib: Any, log: list[Any]) -> None:
    root, leaves, p = _program(lib, log)
    p.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append(
        ("p's post hook", _state(lib, leaves))))
    root.backward()
    log.append(("end", _state(lib, leaves)))


def _custom_function(lib: Any, log: list[Any]) -> None:
    leaves: dict[str, Any] = {}

    class Triple(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 3

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            log.append(("Triple.backward", _state(lib, leaves)))
            return grad * 3

    root, found, _ = _program(lib, log, Triple.apply)
    leaves.update(found)
    root.backward()
    log.append(("end", _state(lib, leaves)))


def _unpack_hook(lib: Any, log: list[Any]) -> None:
    leaves: dict[str, Any] = {}

    def unpack(tensor: Any) -> Any:
        log.append(("unpack", _state(lib, leaves)))
        return tensor

    with lib.autograd.graph.saved_tensors_hooks(lambda tensor: tensor, unpack):
        root, found, _ = _program(lib, log, lambda u: u * u)
    leaves.update(found)
    root.backward()
    log.append(("end", _state(lib, leaves)))


def _leaf_hooks(lib: Any, log: list[Any]) -> None:
    # ``u`` is reached first (by the last node) and complete last: its hooks run after ``v``'s
    u = lib.tensor([1.0, 2.0], requires_grad=True)
    v = lib.tensor([0.5, -1.0], requires_grad=True)
    leaves = {"u": u, "v": v}
    root = ((u * 3 * v).exp() + u).sum()
    for name, leaf in leaves.items():
        leaf.register_hook(lambda grad, name=name: log.append(("hook", name, _state(lib, leaves))))
        leaf.register_post_accumulate_grad_hook(
            lambda leaf, name=name: log.append(("post", name, _state(lib, leaves))))
    root.backward(retain_graph=True)
    root.backward()
    log.append(("end", _state(lib, leaves)))


def _one_node_completes_two(lib: Any, log: list[Any]) -> None:
    # ``u`` is reached first (by exp), ``h`` then; ``h * u`` completes both, ``h`` first
    h = lib.tensor([1.0, 2.0], requires_grad=True)
    u = lib.tensor([0.5, -1.0], requires_grad=True)
    leaves = {"h": h, "u": u}
    h.register_hook(lambda grad: log.append(("h's hook", _state(lib, leaves))))
    (h * u + u.exp()).sum().backward()
    log.append(("end", _state(lib, leaves)))


def _error(lib: Any, log: list[Any]) -> None:
    w = lib.tensor([2.0, 2.0], requires_grad=True)
    root, leaves, _ = _program(lib, log, lambda u: u * w)  # p saves w
    with lib.no_grad():
        w.add_(1)  # p's backward fails; v's accumulator ran before it, in PyTorch
    try:
        root.backward()
    except RuntimeError as error:
        log.append(("error", str(error).split(":")[0]))
    log.append(("after", _state(lib, {**leaves, "w": w})))


def _two_roots(lib: Any, log: list[Any]) -> None:
    # the second root is on the first one's path; a hook on the node made first looks
    root, leaves, p = _program(lib, log)
    p.grad_fn.register_prehook(lambda grads: log.append(("p's pre hook", _state(lib, leaves))))
    lib.autograd.backward([root, p.sum()])
    log.append(("end", _state(lib, leaves)))


PROGRAMS = {
    "node_hook": _node_hook,
    "custom_function": _custom_function,
    "unpack_hook": _unpack_hook,
    "leaf_hooks": _leaf_hooks,
    "one_node_completes_two": _one_node_completes_two,
    "error": _error,
    "two_roots": _two_roots,
}


@pytest.mark.parametrize("program", PROGRAMS)
def test_accumulators_run_when_pytorchs_do(
    program: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Saved-tensor hooks used once in this process make every later backward count from the
    # start (engine.py): as if none had been.
    monkeypatch.setattr(minigrad.autograd.saved.Hooked, "ever_made", False)
    logs = []
    for lib in (torch, minigrad):
        log: list[Any] = []
        PROGRAMS[program](lib, log)
        logs.append(log)
    assert logs[1] == logs[0]
