"""The ``*_copy`` functions and ``detach_copy`` against PyTorch 2.13, live.

PyTorch records a view's copy as ONE node, named after the view's node plus ``_copy``
(``TBackward0_copy``), whose edges are the input's and which shows the view's saved options;
its result owns fresh, row-major memory. ``detach_copy``'s result requires grad with a
``NotImplemented`` node whose backward raises. The op table rows (tests/opinfo/
toplevel_forms.py) cover values, gradcheck and gradgradcheck; this file compares the graph.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

# name: the call, given the library and an input of shape (3, 4, 5) that requires grad
CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "alias_copy": lambda lib, x: lib.alias_copy(x),
    "as_strided_copy": lambda lib, x: lib.as_strided_copy(x, (2, 2), (1, 2), 1),
    "diagonal_copy": lambda lib, x: lib.diagonal_copy(x, 1, 0, 2),
    "diagonal_copy_negative": lambda lib, x: lib.diagonal_copy(x, -1, -1, -3),
    "expand_copy": lambda lib, x: lib.expand_copy(x[:, :1], (2, 3, 2, 5)),
    "permute_copy": lambda lib, x: lib.permute_copy(x, (2, 0, -2)),
    "select_copy": lambda lib, x: lib.select_copy(x, -2, 2),
    "slice_copy": lambda lib, x: lib.slice_copy(x, 1, 1, 3, 1),
    "split_copy": lambda lib, x: lib.split_copy(x, 3, 1),
    "split_with_sizes_copy": lambda lib, x: lib.split_with_sizes_copy(x, [1, 3], -2),
    "squeeze_copy": lambda lib, x: lib.squeeze_copy(x[:, :1]),
    "squeeze_copy_dim": lambda lib, x: lib.squeeze_copy(x[:, :1], 1),
    "squeeze_copy_dims": lambda lib, x: lib.squeeze_copy(x[:, :1], (1, -1)),
    "t_copy": lambda lib, x: lib.t_copy(x[0]),
    "transpose_copy": lambda lib, x: lib.transpose_copy(x, 0, -1),
    "unbind_copy": lambda lib, x: lib.unbind_copy(x, 1),
    "unfold_copy": lambda lib, x: lib.unfold_copy(x, 2, 2, 1),
    "unsqueeze_copy": lambda lib, x: lib.unsqueeze_copy(x, -1),
    "view_copy": lambda lib, x: lib.view_copy(x, (12, 5)),
    "view_copy_of_a_transposed_view": lambda lib, x: lib.view_copy(x.transpose(0, 1)[0], (15,)),
}

VALUES = np.random.default_rng(0).standard_normal((3, 4, 5))


def _input(lib: Any) -> Any:
    return lib.tensor(VALUES, dtype=lib.float64, requires_grad=True)


def _outputs(result: Any) -> tuple[Any, ...]:
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def _saved(node: Any) -> dict[str, Any]:
    """The node's saved options, as PyTorch shows them (``_saved_<name>`` attributes)."""
    return {name: getattr(node, name) for name in dir(node) if name.startswith("_saved_")}


def _graph(result: Any) -> list[Any]:
    """What an output's node looks like: name, type name, edges, saved options, layout."""
    described = []
    for output in _outputs(result):
        node = output.grad_fn
        described.append(
            (
                node.name(),
                type(node).__name__,
                [
                    (None if child is None else child.name(), nr)
                    for child, nr in node.next_functions
                ],
                _saved(node),
                output.output_nr,
                output._base is None,
                output.is_contiguous(),
                output.stride(),
                tuple(output.shape),
            )
        )
    return described


@parametrize_in_one("name", list(CALLS))
def test_one_node_as_pytorch_records_it(name: str) -> None:
    mine, theirs = CALLS[name](minigrad, _input(minigrad)), CALLS[name](torch, _input(torch))
    assert _graph(mine) == _graph(theirs)
    # several outputs (split_copy, unbind_copy) share the one node, as PyTorch's
    assert len({id(output.grad_fn) for output in _outputs(mine)}) == 1


@parametrize_in_one("name", list(CALLS))
def test_gradient_and_its_graph_as_pytorch(name: str) -> None:
    gradients = []
    for lib in (minigrad, torch):
        x = _input(lib)
        outputs = _outputs(CALLS[name](lib, x))
        seeds = [lib.ones(tuple(o.shape), dtype=lib.float64, requires_grad=True) for o in outputs]
        (grad,) = lib.autograd.grad(outputs, x, seeds, create_graph=True)
        # under create_graph the copy's backward is the view's: it records the view's
        # gradient op (TBackward0 for t_copy), not a second copy node
        gradients.append(
            (grad.detach().numpy(), None if grad.grad_fn is None else grad.grad_fn.name())
        )
    np.testing.assert_array_equal(gradients[0][0], gradients[1][0])
    assert gradients[0][1] == gradients[1][1]


@pytest.mark.parametrize("name", ["permute_copy", "select_copy", "unbind_copy", "view_copy"])
def test_result_owns_its_memory_and_version(name: str) -> None:
    for lib in (minigrad, torch):
        x = _input(lib)
        y = _outputs(CALLS[name](lib, x))[0]
        before = x.detach().numpy().copy()
        with lib.no_grad():
            y.add_(1)
        assert (y._version, x._version) == (1, 0)
        np.testing.assert_array_equal(x.detach().numpy(), before)
        y.sum().backward()  # the input was not written: its gradient is still computable
        assert x.grad is not None


def test_copy_of_a_view_whose_base_changed_edges_to_the_regenerated_history() -> None:
    names = []
    for lib in (minigrad, torch):
        base = _input(lib).clone()
        view = base[0]
        base.mul_(2)
        y = lib.t_copy(view)
        names.append([y.grad_fn.name(), y.grad_fn.next_functions[0][0].name()])
    assert names[0] == names[1]


@pytest.mark.parametrize("requires_grad", [False, True])
def test_no_node_without_gradients(requires_grad: bool) -> None:
    for lib in (minigrad, torch):
        x = lib.tensor(VALUES, requires_grad=requires_grad)
        with lib.set_grad_enabled(not requires_grad):
            y = lib.t_copy(x[0])
        assert (y.requires_grad, y.grad_fn, y._base) == (False, None, None)


def test_view_copy_to_a_dtype_has_no_history() -> None:
    for lib in (minigrad, torch):
        y = lib.view_copy(_input(lib), lib.int64)
        assert (y.requires_grad, y.grad_fn, y._base, y.dtype) == (False, None, None, lib.int64)


# --- detach_copy ------------------------------------------------------------------------------


def test_detach_copy_requires_grad_with_a_not_implemented_node() -> None:
    described = []
    for lib in (minigrad, torch):
        x = _input(lib)
        y = lib.detach_copy(x.transpose(0, 2))
        node = y.grad_fn
        described.append(
            (
                y.requires_grad,
                y.is_leaf,
                y._base is None,
                y.is_contiguous(),
                y.stride(),
                node.name(),
                type(node).__name__,
                repr(node).split(" object")[0],
                [child.name() for child, _ in node.next_functions],
            )
        )
        np.testing.assert_array_equal(y.detach().numpy(), VALUES.transpose(2, 1, 0))
    assert described[0] == described[1]


@pytest.mark.parametrize("call", ["backward", "grad"])
def test_detach_copy_backward_raises_as_pytorch(call: str) -> None:
    messages = []
    for lib in (minigrad, torch):
        x = _input(lib)
        y = lib.detach_copy(x * 2).sum()
        with pytest.raises(RuntimeError) as caught:
            y.backward() if call == "backward" else lib.autograd.grad(y, x)
        messages.append(str(caught.value))
        assert x.grad is None
    assert messages[0] == messages[1] == "derivative for aten::detach_copy is not implemented"


@pytest.mark.parametrize("mode", ["no_grad", "no_requires_grad"])
def test_detach_copy_without_gradients_is_a_plain_tensor(mode: str) -> None:
    for lib in (minigrad, torch):
        x = lib.tensor(VALUES, requires_grad=mode == "no_grad")
        with lib.set_grad_enabled(mode != "no_grad"):
            y = lib.detach_copy(x)
        assert (y.requires_grad, y.grad_fn, y._base) == (False, None, None)
