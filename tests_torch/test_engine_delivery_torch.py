"""The engine's two ways of delivering gradients along edges give PyTorch's gradients and order.

On the engine's common path a built-in op's runner delivers its gradients along its node's
edges itself (``engine.Run.deliver``, called from ``function.backward_runner``); on the general
path (a node with a hook, ``inputs=``, anomaly mode) the node returns them and the engine
delivers them. Each program here runs both ways on the same inputs -- plain, with
``retain_graph`` twice, with ``create_graph``, with a no-op pre-hook on every node (the general
path for all of them), through ``autograd.grad`` -- and every result is PyTorch's, as is the
order in which the leaves receive theirs.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad


def _chain(lib: Any, x: Any, w: Any, b: Any) -> Any:
    y = x
    for _ in range(4):
        y = (y * w + b).sigmoid()
    return y.sum()


def _diamond(lib: Any, x: Any, w: Any, b: Any) -> Any:
    return ((x * w) * (x + b)).sigmoid().sum() + (w * b).exp().sum()


def _broadcast(lib: Any, x: Any, w: Any, b: Any) -> Any:
    # gradients summed down to the inputs' shapes (the node's ``_input_meta``)
    return (x.reshape(4, 1) * w.reshape(1, 4) + b[0]).tanh().sum()


def _three_inputs(lib: Any, x: Any, w: Any, b: Any) -> Any:
    # a node of three edges (kept in a tuple, not in slots)
    return lib.addcmul(x, w, b, value=0.5).sigmoid().sum()


def _several_outputs(lib: Any, x: Any, w: Any, b: Any) -> Any:
    first, second = (x * w).split(2)
    return (first * b[:2]).sum() + second.exp().sum()


def _promotion(lib: Any, x: Any, w: Any, b: Any) -> Any:
    # a float64 tensor meets float32 leaves: their gradients are cast back to float32
    return (x * w.double()).sigmoid().sum() + (b * 2.0).sum()


PROGRAMS: dict[str, Callable[..., Any]] = {
    "chain": _chain,
    "diamond": _diamond,
    "broadcast": _broadcast,
    "three_inputs": _three_inputs,
    "several_outputs": _several_outputs,
    "promotion": _promotion,
}


def _leaves(lib: Any) -> list[Any]:
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(4).astype(np.float32) for _ in range(3)]
    return [lib.tensor(array, requires_grad=True) for array in arrays]


def _nodes(root: Any) -> list[Any]:
    """Every node of ``root``'s graph but the leaves' accumulators."""
    found, stack = [], [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or any(node is seen for seen in found):
            continue
        if node.next_functions or type(node).__name__ != "AccumulateGrad":
            found.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return found


def _run(lib: Any, program: str, mode: str) -> tuple[list[list[float]], list[int]]:
    """The leaves' gradients after running ``program`` in ``mode``, and their arrival order."""
    leaves = _leaves(lib)
    order: list[int] = []
    for index, leaf in enumerate(leaves):
        leaf.register_post_accumulate_grad_hook(lambda _, index=index: order.append(index))
    root = PROGRAMS[program](lib, *leaves)
    if mode == "hooked":
        for node in _nodes(root):
            node.register_prehook(lambda grads: None)
    if mode == "grad":
        grads = lib.autograd.grad(root, leaves)
        return [g.detach().double().tolist() for g in grads], order
    if mode == "retain":
        root.backward(retain_graph=True)
        root.backward()
    elif mode == "create_graph":
        with warnings.catch_warnings():  # PyTorch's note on the cycle a leaf's .grad makes
            warnings.filterwarnings("ignore", "Using backward.. with create_graph=True")
            root.backward(create_graph=True)
    else:
        root.backward()
    return [leaf.grad.detach().double().tolist() for leaf in leaves], order


MODES = ["plain", "retain", "create_graph", "hooked", "grad"]


@parametrize_in_one("mode", MODES)
@parametrize_in_one("program", list(PROGRAMS))
def test_gradients_and_order_are_pytorchs(program: str, mode: str) -> None:
    ours, our_order = _run(minigrad, program, mode)
    theirs, their_order = _run(torch, program, mode)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
    assert our_order == their_order


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_the_runners_delivery_and_the_engines_agree_bit_for_bit(program: str) -> None:
    # The same program through the common path and, with a pre-hook on every node, through
    # the general one (PyTorch's figures are checked above; here the two paths against each
    # other, exactly).
    lean, lean_order = _run(minigrad, program, "plain")
    general, general_order = _run(minigrad, program, "hooked")
    assert lean == general
    assert lean_order == general_order
