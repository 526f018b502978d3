"""``F.linear``'s graph against PyTorch 2.13, node by node (the one-pass recording's contract).

``F.linear(x, w, b)`` of a matrix records ``AddmmBackward0`` whose edges go to the bias, the
input and a ``TBackward0`` on the weight; it saves ``x`` (if the weight needs a gradient) and
``w.t()``, a view sharing the weight's counter (if the input does). minigrad records both nodes
in one pass for its common case (ops/linear.py's ``_affine``): here the graph, the saved
values, the order of the nodes, the gradients and the errors of in-place writes after forward
are compared with PyTorch's, for each combination of what requires a gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")

SHAPES = [((2, 4), (3, 4)), ((4, 4), (4, 4)), ((3, 5), (3, 5)), ((5, 3), (3, 3)), ((1, 1), (1, 1))]
# what requires a gradient: the input is a leaf, an op result or neither; the bias is or not
INPUTS = ["plain", "leaf", "result"]


def _tree(node: Any) -> Any:
    """A node as data: its name and its children's, with output numbers, recursively."""
    if node is None:
        return None
    return (node.name(), tuple((_tree(child), nr) for child, nr in node.next_functions))


def _forward(lib: Any, functional: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray, kind: str,
             bias_grad: bool) -> tuple[Any, ...]:
    xt = lib.tensor(x, requires_grad=kind != "plain")
    wt = lib.tensor(w, requires_grad=True)
    bt = lib.tensor(b, requires_grad=bias_grad)
    source = xt * 2 if kind == "result" else xt
    return xt, wt, bt, source, functional.linear(source, wt, bt)


def _data(rng: np.random.Generator, x_shape: tuple[int, ...], w_shape: tuple[int, ...]) -> Any:
    x = rng.standard_normal(x_shape)
    w = rng.standard_normal(w_shape)
    return x, w, rng.standard_normal(w_shape[0])


@parametrize_in_one(("x_shape", "w_shape"), SHAPES)
@parametrize_in_one("kind", INPUTS)
@parametrize_in_one("bias_grad", [True, False])
def test_the_graph_is_pytorch_s(x_shape, w_shape, kind, bias_grad):
    x, w, b = _data(np.random.default_rng(0), x_shape, w_shape)
    m = _forward(minigrad, F, x, w, b, kind, bias_grad)
    t = _forward(torch, torch.nn.functional, x, w, b, kind, bias_grad)
    m_node, t_node = m[-1].grad_fn, t[-1].grad_fn
    assert _tree(m_node) == _tree(t_node)
    m_t, t_t = m_node.next_functions[2][0], t_node.next_functions[2][0]
    # TBackward0 is recorded first, Addmm after it (the engine runs later nodes first)
    assert m_t._sequence_nr < m_node._sequence_nr  # (a slot in minigrad, a method in PyTorch)
    assert t_t._sequence_nr() < t_node._sequence_nr()
    for name in ("_saved_mat1", "_saved_mat2"):
        mine, theirs = getattr(m_node, name), getattr(t_node, name)
        assert (mine is None) == (theirs is None), name
        if theirs is not None:
            np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
            assert tuple(mine.stride()) == tuple(theirs.stride()), name
            assert mine._version == theirs._version, name
    if t_node._saved_mat1 is not None:
        assert (m_node._saved_mat1 is m[3]) == (t_node._saved_mat1 is t[3])
    for name in ("_saved_alpha", "_saved_beta", "_saved_mat1_sym_sizes", "_saved_mat1_sym_strides",
                 "_saved_mat2_sym_sizes", "_saved_mat2_sym_strides"):
        assert getattr(m_node, name) == getattr(t_node, name), name
    m[-1].sum().backward()
    t[-1].sum().backward()
    for mine, theirs in zip(m[:3], t[:3]):
        assert (mine.grad is None) == (theirs.grad is None)
        if theirs.grad is not None:
            np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-12)
            assert tuple(mine.grad.stride()) == tuple(theirs.grad.stride())


def _outcome(lib: Any, functional: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray, kind: str,
             written: int) -> Any:
    """Backward after an in-place write to the input (0), weight (1) or bias (2): error text."""
    tensors = _forward(lib, functional, x, w, b, kind, True)
    with lib.no_grad():
        tensors[written].add_(1.0)
    try:
        tensors[-1].sum().backward()
    except RuntimeError as error:
        return str(error).replace(lib.__name__, "minigrad")
    return None


@parametrize_in_one(("x_shape", "w_shape"), SHAPES[:2])
@parametrize_in_one("kind", ["plain", "leaf"])
@parametrize_in_one("written", [0, 1, 2])
def test_in_place_writes_after_forward_raise_as_in_pytorch(x_shape, w_shape, kind, written):
    x, w, b = _data(np.random.default_rng(1), x_shape, w_shape)
    mine = _outcome(minigrad, F, x, w, b, kind, written)
    theirs = _outcome(torch, torch.nn.functional, x, w, b, kind, written)
    assert mine == theirs


@pytest.mark.parametrize(("x_shape", "w_shape"), [((2, 0), (3, 0)), ((0, 4), (3, 4)),
                                                  ((2, 4), (0, 4))])
def test_empty_operands_save_pytorchs_strides(x_shape, w_shape):
    # An empty weight's view ``w.t()`` takes the strides PyTorch gives it (ViewOp.apply's
    # empty-tensor rule), which the one-pass recording leaves to the general path.
    saved = {}
    for lib, functional in ((minigrad, F), (torch, torch.nn.functional)):
        x = lib.zeros(x_shape, requires_grad=True)
        w = lib.zeros(w_shape, requires_grad=True)
        b = lib.zeros(w_shape[0], requires_grad=True)
        node = functional.linear(x, w, b).grad_fn
        saved[lib] = (node.name(), tuple(node._saved_mat1.stride()),
                      tuple(node._saved_mat2.stride()))
    assert saved[minigrad] == saved[torch]


@pytest.mark.parametrize("input_shape", [(3,), (2, 3), (2, 2, 3), (1, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_backward_reaches_the_leaves_in_pytorchs_order(input_shape: tuple[int, ...],
                                                        bias: bool) -> None:
    # Random program seed 160036671: PyTorch reshapes a 1-D or N-D input before it takes
    # weight.t(), so their nodes' sequence numbers, and which leaf backward reaches first,
    # follow that order (a post-accumulate hook that raised showed the difference).
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal(input_shape), rng.standard_normal((2, 3)), rng.standard_normal(2)

    def order(lib: Any, functional: Any) -> list[str]:
        tensors = {name: lib.tensor(value, requires_grad=True)
                   for name, value in (("x", x), ("w", w), ("b", b))}
        reached: list[str] = []
        for name, tensor in tensors.items():
            tensor.register_post_accumulate_grad_hook(lambda p, name=name: reached.append(name))
        out = functional.linear(tensors["x"], tensors["w"], tensors["b"] if bias else None)
        out.sum().backward()
        return reached

    assert order(minigrad, F) == order(torch, torch.nn.functional)


@pytest.mark.parametrize("layout", ["rows", "columns"])
@pytest.mark.parametrize("op", ["mm", "addmm", "linear"])
def test_double_backward_of_products_records_pytorchs_nodes(op: str, layout: str) -> None:
    # Random program seed 170012137: under create_graph, mm's and addmm's gradients are
    # PyTorch's mm_mat1_backward / mm_mat2_backward, node for node: t() (TBackward0, not
    # .T's PermuteBackward0), and the transposed product for a column-major matrix.
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((2, 4))

    def nodes(lib: Any) -> list[Any]:
        if layout == "rows":
            x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        else:  # (views of transposed leaves: column-major matrices)
            x, y = lib.tensor(a.T, requires_grad=True).t(), lib.tensor(b.T, requires_grad=True).t()
        if op == "mm":
            out = x.mm(y)
        elif op == "addmm":
            out = lib.addmm(lib.zeros(4, dtype=lib.float64), x, y)
        else:
            out = lib.nn.functional.linear(x, y.t())
        grads = lib.autograd.grad(out.sum(), (x, y), create_graph=True)
        return [_tree(g.grad_fn) for g in grads]

    assert nodes(minigrad) == nodes(torch)
