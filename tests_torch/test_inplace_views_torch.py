"""In-place view ops (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``, ``swapdims_``,
``swapaxes_``), side by side with PyTorch: the tensor's geometry, version, node (name and saved
options), the errors, and the gradients that flow through it afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _node(tensor: Any) -> Any:
    """The tensor's node as comparable data: its name and PyTorch's saved options."""
    node = tensor.grad_fn
    if node is None:
        return None
    saved = {k: getattr(node, k) for k in dir(node) if k.startswith("_saved_")}
    return node.name().replace("torch::", "minigrad::"), saved


def _seen(tensor: Any) -> tuple[Any, ...]:
    """What a user sees of a tensor after the op."""
    return (tuple(tensor.shape), tuple(tensor.stride()), tensor._version, _node(tensor),
            tensor.requires_grad, tensor.detach().numpy().tolist())


OPS: list[tuple[str, tuple[int, ...], Callable[[Any], Any]]] = [
    ("unsqueeze_(0)", (2, 3), lambda t: t.unsqueeze_(0)),
    ("unsqueeze_(-1)", (2, 3), lambda t: t.unsqueeze_(-1)),
    ("unsqueeze_(1) of a column", (3, 1), lambda t: t.unsqueeze_(1)),
    ("squeeze_()", (2, 1, 3, 1), lambda t: t.squeeze_()),
    ("squeeze_(-2)", (2, 1, 3), lambda t: t.squeeze_(-2)),
    ("squeeze_(0) of size 2", (2, 3), lambda t: t.squeeze_(0)),
    ("squeeze_((1, -1))", (2, 1, 3, 1), lambda t: t.squeeze_((1, -1))),
    ("squeeze_(0, 2)", (1, 2, 1), lambda t: t.squeeze_(0, 2)),
    ("t_()", (2, 3), lambda t: t.t_()),
    ("t_() of a vector", (3,), lambda t: t.t_()),
    ("transpose_(0, -1)", (2, 3, 4), lambda t: t.transpose_(0, -1)),
    ("swapdims_(1, 2)", (2, 3, 4), lambda t: t.swapdims_(1, 2)),
    ("swapaxes_(0, 1)", (2, 3, 4), lambda t: t.swapaxes_(0, 1)),
]

# Where the tensor comes from: an op result, a view of one (a row, a transposed one), and a
# plain tensor that does not require grad.
SOURCES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("result", lambda lib, leaf: leaf * 2),
    ("view of a result", lambda lib, leaf: (leaf * 2).unsqueeze(0)[0]),
    ("transposed view", lambda lib, leaf: (leaf * 2).transpose(0, -1).transpose(0, -1)),
    ("no grad", lambda lib, leaf: leaf.detach() * 2),
]


def _run(lib: Any, shape: tuple[int, ...], source: Callable[[Any, Any], Any],
         op: Callable[[Any], Any]) -> tuple[Any, ...]:
    values = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float64).reshape(shape)
    leaf = lib.tensor(values, requires_grad=True)
    tensor = source(lib, leaf)
    same = op(tensor)
    seen = _seen(tensor)
    if tensor.requires_grad:
        weights = lib.arange(tensor.numel(), dtype=lib.float64).reshape(tensor.shape)
        (tensor * weights).sum().backward()
    grad = None if leaf.grad is None else leaf.grad.numpy().tolist()
    return same is tensor, seen, grad


@parametrize_in_one(("name", "shape", "op"), OPS, ids=[o[0] for o in OPS])
@parametrize_in_one(("source_name", "source"), SOURCES, ids=[s[0] for s in SOURCES])
def test_inplace_view_op_as_in_pytorch(name, shape, op, source_name, source):
    assert _run(minigrad, shape, source, op) == _run(torch, shape, source, op)


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        result = call()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error).__name__, str(error).replace("torch", "minigrad")
    return _seen(result) if hasattr(result, "grad_fn") else result


MISUSE: list[tuple[str, Callable[[Any], Any]]] = [
    ("a leaf that requires grad", lambda lib: lib.ones(2, 3, requires_grad=True).unsqueeze_(0)),
    ("a view of such a leaf", lambda lib: lib.ones(2, 3, requires_grad=True)[0].unsqueeze_(0)),
    ("an output of split", lambda lib: (lib.ones(2, 3, requires_grad=True) * 1)
     .split(1)[0].t_()),
    ("t_ of a 3-d tensor", lambda lib: lib.ones(2, 2, 2).t_()),
    ("unsqueeze_ out of range", lambda lib: lib.ones(2, 3).unsqueeze_(3)),
    ("squeeze_ out of range", lambda lib: lib.ones(2, 3).squeeze_(2)),
    ("squeeze_ of a repeated dim", lambda lib: lib.ones(1, 3).squeeze_((0, 0))),
    ("transpose_ out of range", lambda lib: lib.ones(2, 3).transpose_(0, 2)),
    ("a leaf under no_grad", lambda lib: _under_no_grad(lib)),
]


def _under_no_grad(lib: Any) -> Any:
    leaf = lib.ones(2, 3, requires_grad=True)
    with lib.no_grad():
        leaf.t_()
    return leaf


@pytest.mark.parametrize(("name", "call"), MISUSE, ids=[m[0] for m in MISUSE])
def test_refused_or_allowed_as_in_pytorch(name, call):
    assert _outcome(lambda: call(minigrad)) == _outcome(lambda: call(torch))


def _saved_then_changed(lib: Any) -> Any:
    leaf = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = leaf.sigmoid()  # saves its result
    out.t_()
    out.sum().backward()


def _result_under_no_grad(lib: Any) -> Any:
    """PyTorch keeps the node, whose shape no longer fits: backward raises its error."""
    leaf = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = leaf * 2
    with lib.no_grad():
        out.unsqueeze_(0)
    return type(out.grad_fn).__name__, out._version


@pytest.mark.parametrize("program", [_saved_then_changed, _result_under_no_grad])
def test_history_as_in_pytorch(program):
    assert _outcome(lambda: program(minigrad)) == _outcome(lambda: program(torch))


def test_a_view_written_after_its_geometry_changed():
    """The view replays its new steps on its base: the write lands where PyTorch's does."""

    def program(lib: Any) -> Any:
        leaf = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        base = leaf * 1
        row = base[1]
        row.unsqueeze_(0).t_()
        row.mul_(lib.tensor([[2.0], [3.0], [4.0]]))
        (base * lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
        return (base.tolist(), _node(row)[0], base.grad_fn.name(), leaf.grad.tolist(),
                row._version, base._version)

    assert program(minigrad) == program(torch)
