"""A leaf whose buffer changed shape or dtype: op x change x engine path, against PyTorch.

``x.data = ...`` (or ``x.set_(...)`` under no_grad) gives a leaf another buffer after a graph
recorded it. PyTorch then:

- checks each gradient against the shape the leaf's accumulator recorded (a broadcastable one
  is summed, any other raises "returned an invalid gradient"); ``.data`` makes a new
  accumulator for another dtype, ``set_`` for any change: later nodes reach the new one;
- makes the first ``.grad`` by its layout contract, which compares strides, not shapes or
  dtypes: a gradient of the recorded shape and dtype is stolen as it is (``.grad`` of another
  shape than the leaf), else copied into the leaf's shape (``copy_``: broadcast, in the
  gradient's dtype, or PyTorch's broadcasting error);
- adds a later gradient into ``.grad`` in place (``+=``: its broadcasting errors).

Each program records ``op(x)`` before the change, after it, or both, and runs backward on one
of the engine's paths; the outcome (``.grad``'s shape, dtype, values and version, or the
error and ``.grad`` after it) must be PyTorch's. (Ops that save ``x`` itself are left out:
PyTorch's saved leaf reads the new buffer, minigrad's keeps the recorded one.)
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

import torch
from _cases import parametrize_in_one

import minigrad

OPS: dict[str, Callable[[Any, Any], Any]] = {
    "mul_by_ones": lambda lib, x: x * lib.ones(x.shape, dtype=x.dtype),
    "mul_by_number": lambda lib, x: x * 2,
    "added_to_itself": lambda lib, x: x + x,  # two edges into one accumulator
    "sum": lambda lib, x: x,  # sum's gradient: an expanded one, copied
    "exp": lambda lib, x: x.exp(),  # saves its result, not x
}

CHANGES: dict[str, list[tuple[tuple[int, ...], str]]] = {
    "2_to_3": [((2,), "float32"), ((3,), "float32")],
    "3_to_1": [((3,), "float32"), ((1,), "float32")],
    "1_to_3": [((1,), "float32"), ((3,), "float32")],  # a recorded shape of (1,)
    "3_to_2x3": [((3,), "float32"), ((2, 3), "float32")],
    "2x3_to_3": [((2, 3), "float32"), ((3,), "float32")],
    "dtype": [((2,), "float32"), ((2,), "float64")],
    "shape_and_dtype": [((2,), "float32"), ((3,), "float64")],
    "1_to_3_and_dtype": [((1,), "float32"), ((3,), "float64")],
    "dtype_and_back": [((2,), "float32"), ((2,), "float64"), ((2,), "float32")],
}

RECORDED = ("before", "after", "both")
PATHS = ("plain", "counted", "inputs", "anomaly", "retain_graph", "create_graph")
HOW = ("data", "set_")


def _outcome(lib: Any, op: str, change: str, recorded: str, path: str, how: str) -> Any:
    changes = CHANGES[change]
    x = lib.ones(changes[0][0], dtype=getattr(lib, changes[0][1]), requires_grad=True)
    roots = []
    if recorded in ("before", "both"):
        roots.append(OPS[op](lib, x).sum())
    for shape, dtype in changes[1:]:
        new = lib.ones(shape, dtype=getattr(lib, dtype))
        if how == "data":
            x.data = new
        else:
            try:
                with lib.no_grad():
                    x.set_(new)
            except RuntimeError as error:  # set_ refuses another dtype
                return "set_ refused", str(error)
        if recorded in ("after", "both"):
            roots.append(OPS[op](lib, x).sum())
    root = roots[0]
    for other in roots[1:]:
        root = root + other.to(root.dtype)
    try:
        if path == "counted":  # a node hook: Python code in backward, counted from the start
            root.grad_fn.register_prehook(lambda grads: None)
            root.backward()
        elif path == "inputs":
            root.backward(inputs=[x])
        elif path == "anomaly":
            with lib.autograd.detect_anomaly():
                root.backward()
        else:
            root.backward(retain_graph=path == "retain_graph", create_graph=path == "create_graph")
    except RuntimeError as error:
        grad = None if x.grad is None else (tuple(x.grad.shape), x.grad.tolist())
        return "error", str(error).replace("torch", "minigrad"), grad
    grad = x.grad
    if grad is None:  # (inputs=: only the accumulator made after set_ is x's)
        return None
    return tuple(grad.shape), str(grad.dtype).split(".")[-1], grad.tolist(), grad._version


@parametrize_in_one("change", sorted(CHANGES))
@parametrize_in_one("op", sorted(OPS))
def test_leaf_whose_buffer_changed_as_pytorch(op: str, change: str) -> None:
    for recorded, path, how in itertools.product(RECORDED, PATHS, HOW):
        with warnings.catch_warnings():
            # anomaly mode's, create_graph's, and PyTorch's layout-contract warnings
            warnings.simplefilter("ignore", UserWarning)
            expected = _outcome(torch, op, change, recorded, path, how)
            actual = _outcome(minigrad, op, change, recorded, path, how)
        assert actual == expected, (recorded, path, how)
