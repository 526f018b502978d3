"""``autograd.grad``'s arguments as PyTorch's Python front end takes them.

``materialize_grads`` implies ``allow_unused`` and refuses ``allow_unused=False``; its zeros
require grad under ``create_graph``. ``inputs`` may be a dict (the result is one) but no other
mapping, and not empty. ``only_inputs=False`` warns that it is ignored. Gradients past the
last output are ignored (PyTorch zips them). ``is_grads_batched`` takes the first dimension of
each gradient as a batch and stacks one result per row, with PyTorch's checks. Each program
runs in both libraries; values, types, flags, warnings and errors are compared.
"""

from __future__ import annotations

import collections
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _described(value: Any) -> Any:
    """Values, dtype, requires_grad and history of tensors in (nested) results."""
    if isinstance(value, dict):
        return {key: _described(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, *(_described(item) for item in value)]
    if hasattr(value, "grad_fn"):
        node = value.grad_fn
        return (value.tolist(), str(value.dtype).split(".")[-1], value.requires_grad,
                None if node is None else type(node).__name__)
    return value


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = _described(program(lib))
        except Exception as error:  # (compared across the libraries)
            result = (type(error).__name__, str(error).replace("torch", "minigrad"))
    notes = [(w.category.__name__, str(w.message).replace("torch", "minigrad")) for w in caught]
    return result, notes


def _leaves(lib: Any) -> tuple[Any, Any]:
    return (lib.tensor([1.0, 2.0], requires_grad=True),
            lib.tensor([3.0, 4.0], requires_grad=True))


def _materialize_refuses_allow_unused_false(lib: Any) -> Any:
    x, z = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), [x, z], allow_unused=False, materialize_grads=True)


def _materialize_under_create_graph(lib: Any) -> Any:
    x, z = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), [x, z], materialize_grads=True, create_graph=True)


def _materialize_plain(lib: Any) -> Any:
    x, z = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), [z, x], materialize_grads=True)


def _only_inputs_false(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), x, only_inputs=False)


def _inputs_dict(lib: Any) -> Any:
    x, z = _leaves(lib)
    return lib.autograd.grad((x * z).sum(), {"z": z, "x": x})


def _inputs_other_mapping(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), collections.OrderedDict(x=x))


def _inputs_empty(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad((x * x).sum(), [])


def _extra_grad_outputs(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x * x, x, [lib.ones(2), "ignored"])


def _extra_grad_tensors_in_backward(lib: Any) -> Any:
    x, _ = _leaves(lib)
    lib.autograd.backward([x * x], [lib.ones(2), lib.ones(3)])
    return x.grad


def _too_few_grad_outputs(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad([x * x, x * 3], x, [lib.ones(2)])


def _batched(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x.exp(), x, lib.eye(2), is_grads_batched=True)


def _batched_several_outputs(lib: Any) -> Any:
    x, z = _leaves(lib)
    rows = lib.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 3.0]])
    return lib.autograd.grad([x * z, (x * x).sum()], [x, z],
                             [rows, lib.tensor([1.0, 2.0, 3.0])], is_grads_batched=True)


def _batched_unused(lib: Any) -> Any:
    x, z = _leaves(lib)
    allowed = lib.autograd.grad(x * x, [x, z], lib.eye(2), retain_graph=True,
                                is_grads_batched=True, allow_unused=True)
    materialized = lib.autograd.grad(x * x, [x, z], lib.eye(2), is_grads_batched=True,
                                     materialize_grads=True)
    return allowed, materialized


def _batched_create_graph(lib: Any) -> Any:
    x, _ = _leaves(lib)
    (first,) = lib.autograd.grad(x.sin(), x, lib.eye(2), create_graph=True,
                                 is_grads_batched=True)
    (second,) = lib.autograd.grad(first.sum(), x)
    # (Its node differs: PyTorch's vmap leaves a MulBackward0, minigrad stacks the rows.)
    return (first.requires_grad, first.round(decimals=5).tolist(),
            second.round(decimals=5).tolist())


def _batched_frees_the_graph(lib: Any) -> Any:
    x, _ = _leaves(lib)
    y = x.exp()
    lib.autograd.grad(y, x, lib.eye(2), is_grads_batched=True)
    return lib.autograd.grad(y, x, lib.ones(2))


def _batched_float64_rows(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x * x, x, lib.eye(2, dtype=lib.float64), is_grads_batched=True)


def _batched_wrong_row_shape(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x * x, x, lib.ones(3, 3), is_grads_batched=True)


def _batched_unbatched_gradient(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x * x, x, lib.ones(2), is_grads_batched=True)


def _batched_sizes_differ(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad([x * x, x * 2], x, [lib.ones(2, 2), lib.ones(3, 2)],
                             is_grads_batched=True)


def _batched_empty_batch(lib: Any) -> Any:
    x, _ = _leaves(lib)
    return lib.autograd.grad(x * x, x, lib.ones(0, 2), is_grads_batched=True)


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "materialize_refuses_allow_unused_false": _materialize_refuses_allow_unused_false,
    "materialize_under_create_graph": _materialize_under_create_graph,
    "materialize_plain": _materialize_plain,
    "only_inputs_false": _only_inputs_false,
    "inputs_dict": _inputs_dict,
    "inputs_other_mapping": _inputs_other_mapping,
    "inputs_empty": _inputs_empty,
    "extra_grad_outputs": _extra_grad_outputs,
    "extra_grad_tensors_in_backward": _extra_grad_tensors_in_backward,
    "too_few_grad_outputs": _too_few_grad_outputs,
    "batched": _batched,
    "batched_several_outputs": _batched_several_outputs,
    "batched_unused": _batched_unused,
    "batched_create_graph": _batched_create_graph,
    "batched_frees_the_graph": _batched_frees_the_graph,
    "batched_float64_rows": _batched_float64_rows,
    "batched_wrong_row_shape": _batched_wrong_row_shape,
    "batched_unbatched_gradient": _batched_unbatched_gradient,
    "batched_sizes_differ": _batched_sizes_differ,
    "batched_empty_batch": _batched_empty_batch,
}


@parametrize_in_one("name", list(PROGRAMS))
def test_grad_arguments_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in (minigrad, torch))
    assert mine == theirs
