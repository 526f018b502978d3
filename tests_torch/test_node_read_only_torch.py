"""Assigning or deleting a node's read-only attributes, and its ``__dict__``, as PyTorch.

PyTorch's nodes are C++ objects: ``next_functions``, ``metadata``, ``requires_grad``,
``variable`` and the ``_saved_*`` / ``_raw_saved_*`` attributes are getset descriptors
without a setter ("attribute 'next_functions' of 'SigmoidBackward0' objects is not
writable", also for ``del``), methods are read-only ("object attribute 'name' is
read-only"), and ``AccumulateGrad`` and ``CopySlices`` have no ``__dict__`` at all. Each
program runs in both libraries; the outcome (the value read back, or the error's type and
text) must be the same.
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
        return ("error", type(error).__name__, str(error))


def _sigmoid(lib: Any) -> Any:
    return lib.tensor([1.0, 2.0], requires_grad=True).sigmoid().grad_fn


def _hooked_sigmoid(lib: Any) -> Any:
    node = _sigmoid(lib)
    node.register_hook(lambda grad_inputs, grad_outputs: None)  # (an extended node)
    return node


def _sum_dim(lib: Any) -> Any:
    return lib.tensor([1.0, 2.0], requires_grad=True).sum(0).grad_fn


def _accumulator(lib: Any) -> Any:
    return (lib.tensor([1.0, 2.0], requires_grad=True) * 2).grad_fn.next_functions[0][0]


def _copy_slices(lib: Any) -> Any:
    y = lib.tensor([1.0, 2.0], requires_grad=True).clone()
    y[0] = 5.0
    return y.grad_fn


def _det(lib: Any) -> Any:
    return lib.linalg.det(lib.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)).grad_fn


NODES: dict[str, Callable[[Any], Any]] = {
    "sigmoid": _sigmoid, "hooked_sigmoid": _hooked_sigmoid, "sum_dim": _sum_dim,
    "accumulator": _accumulator, "copy_slices": _copy_slices, "det": _det,
}
# Per node, the attributes tried (assigned, then deleted)
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "sigmoid": ("next_functions", "metadata", "requires_grad", "name", "_saved_result",
                "_raw_saved_result", "__dict__"),
    "hooked_sigmoid": ("next_functions", "metadata", "_saved_result", "__dict__"),
    "sum_dim": ("_saved_dim", "_saved_self_sym_sizes", "_saved_keepdim"),
    "accumulator": ("next_functions", "metadata", "requires_grad", "variable", "name",
                    "__dict__", "foo"),
    "copy_slices": ("next_functions", "metadata", "name", "__dict__", "foo"),
    "det": ("_saved_LU", "_raw_saved_LU", "_saved_pivots", "_saved_result"),
}


def _assign(node_name: str, attribute: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        setattr(NODES[node_name](lib), attribute, {})
        return None

    return program


def _delete(node_name: str, attribute: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        delattr(NODES[node_name](lib), attribute)
        return None

    return program


def _read_dict(node_name: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        return dict(NODES[node_name](lib).__dict__)

    return program


def _vars(lib: Any) -> Any:
    return vars(_accumulator(lib))


def _accumulator_still_works(lib: Any) -> Any:
    """The accumulator's own notes still go in: a leaf whose buffer changed, hooks."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    accumulator = y.grad_fn.next_functions[0][0]
    seen = []
    accumulator.register_hook(lambda grad_inputs, grad_outputs: seen.append(1))
    y.sum().backward()
    return (seen, x.grad.tolist())


def _copy_slices_still_works(lib: Any) -> Any:
    """CopySlices's notes go in as before (anomaly mode, hooks, a second backward)."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.clone()
    y[1:] *= x[:2]
    node = y.grad_fn
    node.register_prehook(lambda grads: None)
    node.metadata["note"] = 1
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return (x.grad.tolist(), dict(node.metadata))


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    **{f"set_{node}_{attribute}": _assign(node, attribute)
       for node, attributes in ATTRIBUTES.items() for attribute in attributes},
    **{f"del_{node}_{attribute}": _delete(node, attribute)
       for node, attributes in ATTRIBUTES.items() for attribute in attributes},
    **{f"read_dict_{node}": _read_dict(node) for node in NODES},
    "vars_accumulator": _vars,
    "accumulator_still_works": _accumulator_still_works,
    "copy_slices_still_works": _copy_slices_still_works,
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_node_read_only_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    assert _outcome(program, minigrad) == _outcome(program, torch)


def _pickle(node_name: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        import pickle

        return pickle.dumps(NODES[node_name](lib))

    return program


def _copy(node_name: str, deep: bool) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        import copy

        node = NODES[node_name](lib)
        return type(copy.deepcopy(node) if deep else copy.copy(node)).__name__

    return program


def _custom(lib: Any) -> Any:
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad * 2

    return Twice.apply(lib.tensor([1.0, 2.0], requires_grad=True)).grad_fn


NODES["custom"] = _custom
COPIES: dict[str, Callable[[Any], Any]] = {
    f"{how}_{node}": program for node in NODES for how, program in (
        ("pickle", _pickle(node)), ("copy", _copy(node, False)),
        ("deepcopy", _copy(node, True)))
}


@pytest.mark.parametrize("name", COPIES)
def test_node_copies_refused_as_pytorch(name: str) -> None:
    """Nodes cannot be pickled nor copied: PyTorch's "cannot pickle 'MulBackward0' object"."""
    program = COPIES[name]
    assert _outcome(program, minigrad) == _outcome(program, torch)
