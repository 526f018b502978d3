"""The graph a ``grad(..., create_graph=True)`` records, node names against PyTorch's.

PyTorch differentiates a gradient through the first backward's own node where its formula is
an op (``_softmax_backward_data`` records SoftmaxBackwardDataBackward0, ``elu_backward``
EluBackwardBackward0 ...); minigrad does so where the first backward is an op of its own
(``run(Op, ...)``), and otherwise records the formula's steps (MulBackward0, WhereBackward0
...). For every op-table row with second derivatives, the first gradients' nodes are compared;
``DIFFERENT`` lists the rows whose first backward is not an op of its own yet: they must still
differ (a fix fails the test until its row leaves the list).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo import OpInfo, Sample, all_ops
from test_ops import build_args, call, is_edge, row_samples

import minigrad

torch = pytest.importorskip("torch")

# Rows whose first gradient's node is not PyTorch's (the first backward is a formula of
# operators in minigrad, one op in PyTorch): the normalizations' and convolution's
# *BackwardBackward0 (multi-output ops in PyTorch), bilinear's TrilinearBackward0, det/qr's
# solve nodes.
DIFFERENT = {
    "linalg_det", "linalg_qr_q", "linalg_qr_r", "linalg_qr_complete", "qr_legacy",
    "F.layer_norm", "F.batch_norm", "F.instance_norm", "F.conv2d", "F.conv2d_input_only",
    "F.conv2d_weight_only",
    "F.conv1d", "conv1d", "conv2d", "F.conv_transpose1d", "F.conv_transpose2d",
    "conv_transpose1d", "conv_transpose2d", "F.conv3d", "conv3d", "F.conv_transpose3d",
    "conv_transpose3d", "F.group_norm", "F.bilinear", "F.bilinear_no_bias",
    # (the top-level forms of the same ops: tests/opinfo/toplevel_forms.py)
    "batch_norm_top", "native_batch_norm", "instance_norm_top", "group_norm_top",
    "native_group_norm", "layer_norm_top", "native_layer_norm", "bilinear_top", "convolution",
    # (the triangular and LU solves: minigrad's gradient for B is triangular solves and products)
    "triangular_solve", "triangular_solve_coefficient", "linalg_lu_solve",
    "linalg_lu_solve_packed", "lu_solve", "lu_solve_method",
    # (Householder products: minigrad walks the reflections one by one, concatenating the
    # columns' gradients; PyTorch's backward writes them into slices)
    "linalg.householder_product", "orgqr", "ormqr", "ormqr_method",
    # (lstsq's residuals: minigrad adds their explicit term to the pseudo-inverse gradient)
    "linalg_lstsq_residuals",
}


def _first_gradient_nodes(lib: Any, row: OpInfo, sample: Sample) -> Any:
    args, kwargs, positions = build_args(lib, row, sample, "float64")
    inputs = [args[p] for p in positions]
    output = call(lib, row, args, kwargs)
    if output.grad_fn is None:
        return None
    seed = lib.from_numpy(np.linspace(0.5, 1.5, output.numel()).reshape(tuple(output.shape)))
    first = lib.autograd.grad(output, inputs, seed, create_graph=True, allow_unused=True)
    return [None if g is None or g.grad_fn is None else g.grad_fn.name() for g in first]


def _rows() -> list[Any]:
    return [pytest.param(row, id=row.name) for row in all_ops()
            if row.differentiable and row.gradgrad]


def _nodes_per_sample(lib: Any, row: OpInfo) -> list[Any]:
    """The first gradients' node names for each sample away from kinks (with float inputs)."""
    nodes = []
    for sample in row_samples(row):
        floats = any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args)
        if floats and not is_edge(sample):
            try:
                nodes.append(_first_gradient_nodes(lib, row, sample))
            except RuntimeError as error:  # (both libraries must raise alike)
                nodes.append(type(error).__name__)
    return nodes


@parametrize_in_one("row", _rows(), per_test=100)
def test_first_gradients_record_pytorchs_nodes(row):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _nodes_per_sample(torch, row)
        mine = _nodes_per_sample(minigrad, row)
    if row.name in DIFFERENT:
        assert mine != theirs, "fixed: remove the row from DIFFERENT"
    else:
        assert mine == theirs


def _graph(node: Any, seen: set[Any] | None = None, depth: int = 0) -> list[str]:
    """The node names of a graph, depth first, each node once (indented by depth)."""
    seen = set() if seen is None else seen
    if node is None or node in seen:
        return []
    seen.add(node)
    names = ["  " * depth + node.name()]
    for child, _ in node.next_functions:
        names += _graph(child, seen, depth + 1)
    return names


def _orders(lib: Any, op: str, weight_requires_grad: bool, dim: int) -> Any:
    rng = np.random.default_rng(3)
    x = lib.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    w = lib.tensor(rng.standard_normal((2, 3)), requires_grad=weight_requires_grad)
    (g,) = lib.autograd.grad((getattr(x, op)(dim) * w).sum(), x, create_graph=True)
    wrt = [x, w] if weight_requires_grad else [x]
    second = lib.autograd.grad((g * g).sum(), wrt, create_graph=True)
    node = g.grad_fn
    saved = (node._saved_dim, node._saved_grad_output.requires_grad,
             node._saved_output.grad_fn.name())
    return (_graph(node), [_graph(s.grad_fn) for s in second], saved,
            [t.detach().numpy() for t in (g, *second)])


@pytest.mark.parametrize("dim", [-1, 0])
@pytest.mark.parametrize("weight_requires_grad", [False, True])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_gradients_are_ops_of_their_own_as_in_pytorch(op, weight_requires_grad, dim):
    mine = _orders(minigrad, op, weight_requires_grad, dim)
    theirs = _orders(torch, op, weight_requires_grad, dim)
    assert mine[0] == theirs[0]  # (Log)SoftmaxBackwardDataBackward0 over the first node
    assert mine[1] == theirs[1]  # and the graph of the second derivatives
    assert mine[2] == theirs[2]  # its saved dim (as given), grad_output and output
    for m, t in zip(mine[3], theirs[3]):
        np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_the_mean_part_of_var_mean_records_pytorchs_nodes(name):
    # (PyTorch's mean_backward divides by a C++ scalar: DivBackward1 over the expand)
    def graph(lib: Any) -> list[str]:
        x = lib.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
        _, mean = getattr(lib, name)(x, dim=1)
        weight = lib.ones(2, requires_grad=True)
        (g,) = lib.autograd.grad(mean, x, grad_outputs=weight, create_graph=True)
        return _graph(g.grad_fn)

    assert graph(minigrad) == graph(torch)


@pytest.mark.parametrize("name", ["nll_loss", "cross_entropy", "avg_pool2d", "max_pool2d"])
def test_first_backwards_linear_in_the_gradient_have_a_zero_second_derivative(name):
    # PyTorch's nll_loss_backward, avg_pool2d_backward ... take the input as an input of their
    # node and give it zeros_like: the first gradient requires grad, the second is zeros
    def second(lib: Any) -> Any:
        rng = np.random.default_rng(5)
        x = lib.tensor(rng.standard_normal((2, 3, 4, 4)), requires_grad=True)
        target = lib.tensor(rng.integers(0, 3, (2, 4, 4)))
        f = getattr(lib.nn.functional, name)
        loss = f(x, target) if name in ("nll_loss", "cross_entropy") else f(x, 2).sum()
        (g,) = lib.autograd.grad(loss, x, create_graph=True)
        (h,) = lib.autograd.grad((g * g).sum(), x)
        return g.requires_grad, g.grad_fn.name(), h.detach().numpy()

    mine, theirs = second(minigrad), second(torch)
    assert mine[:2] == theirs[:2]
    np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-12, atol=1e-12)
