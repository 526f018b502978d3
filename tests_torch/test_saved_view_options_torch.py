"""The int options view nodes (and others) show, as given, compared live with PyTorch.

PyTorch's nodes keep an index, a slice's bounds, a dim, a shift or a diagonal as the user gave
them, not normalised: ``x[-1]``'s ``SelectBackward0._saved_index`` is -1, which its bindings
read back as an unsigned int64 (18446744073709551615); ``x[1:]``'s ``_saved_end`` is int64's
largest value (Python indexing passes it for a bound left out), ``at::slice`` called with no
end (``torch.gradient``, ``slice_copy``) shows None, and a bound past the size stays as given
(``x[1:100]``: 100). Each program below is run in both libraries; every non-tensor
``_saved_*`` of every node of its graph must be the same (and of the same type), and so must
the gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

PROGRAMS = [
    # select: an index (and dim) as given
    "x[-1]",
    "x[1]",
    "x.select(0, -1)",
    "x.select(-1, -2)",
    "x[:, -1]",
    "x[..., -1]",
    "x[None, -1]",
    "z[1, -1]",
    "z[0][-1][-1]",
    "z.select(-1, -4)",
    "mg.select_copy(z, -1, -1)",
    "z.select_scatter(z[:, -1], 1, -1)",
    "x.select_scatter(x[0], -2, -1)",
    # slice: bounds as given, a left-out end as int64's largest value
    "x[-3:-1]",
    "x[1:]",
    "x[:2]",
    "x[-2:]",
    "x[:-1]",
    "x[1:100]",
    "x[-100:2]",
    "x[::2]",
    "x[1::2]",
    "x[-3::2]",
    "x[:, 1:3]",
    "x[:, -3:-1:2]",
    "x[5:]",
    "x[3:1]",
    "z[-2:, -1]",
    "z[:, -1:, -3]",
    "z[..., -5:-1:3]",
    "z[-1:-5]",
    "z[:, -100:100]",
    "mg.slice_copy(z, -1)",
    "mg.slice_copy(z, -1, -3, None, 2)",
    "mg.slice_copy(x, 0, -2, 100, 2)",
    "z.slice_scatter(z[..., -2:], -1, -2)",
    "x.slice_scatter(x[:, :2], -1, -4, -2)",
    "mg.slice_scatter(x, x)",
    # at::slice from inside an op: its bounds as the op passes them
    "mg.gradient(x, dim=1)[0]",
    "mg.gradient(x, dim=-1, edge_order=2)[0]",
    "x.diff(dim=-1)",
    "mg.gradient(x, spacing=2, dim=0)[0]",
    "mg.gradient(x, spacing=0.5, edge_order=2)[1]",
    "mg.trapezoid(x, dim=-1)",
    "mg.trapezoid(x, dx=2)",
    "mg.cumulative_trapezoid(x, dim=-1)",
    # narrow: its start normalised (PyTorch's narrow wraps it before slicing)
    "x.narrow(0, -2, 1)",
    "x.narrow(-1, 0, 2)",
    "z.narrow(-1, -4, 2)",
    "z.narrow(2, mg.tensor(-3), 2)",
    "z.narrow_copy(-1, -2, 1)",
    # the other views and ops with int options
    "x.unbind(-1)[0]",
    "z.unbind(-2)[1]",
    "x.split(2, -1)[0]",
    "z.split_with_sizes([1, 2], -2)[1]",
    "x.chunk(2, -1)[0]",
    "z.tensor_split([1, -1], -1)[2]",
    "z.unsafe_split(1, -2)[0]",
    "x.transpose(-1, 0)",
    "z.swapdims(0, -1)",
    "x.unsqueeze(-1)",
    "z.unsqueeze(-4)",
    "x[:1].squeeze(-2)",
    "z[:1, :, :1].squeeze((-1, 0))",
    "z.diagonal(-2, -1, -3)",
    "z.diagonal(-5, 2, 1)",
    "z.diagonal_scatter(z.diagonal(-1, -2, -1), -1, -2, -1)",
    "z.movedim(-1, -3)",
    "z.permute(-1, 0, -2)",
    "z.unfold(-2, 2, 1)",
    "z.clone().unsqueeze_(-1)",
    "z.clone().transpose_(-1, 0)",
    "z.clone()[:1].squeeze_(-3)",
    "z.roll(-1, -1)",
    "z.rot90(-1, (-1, -2))",
    "x.tril(-1)",
    "z.triu(-2)",
    "mg.nn.functional.pad(z, (-1, 2, 1, -1))",
    "mg.nn.functional.pad(z, (-1, 2), 'reflect')",
    "mg.nn.functional.pad(z[None], (1, -1, -1, 1), 'replicate')",
]


def _graph_options(lib: Any, program: str) -> tuple[list[Any], Any]:
    """Every node's non-tensor saved options (name, type and value), and x's gradient."""
    x = lib.arange(12.0).reshape(3, 4).requires_grad_()
    z = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
    y = eval(program, {"x": x, "z": z, "mg": lib})  # noqa: S307 - the programs above
    found, seen, stack = [], set(), [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        options = {}
        for name in sorted(dir(node)):
            if name.startswith("_saved_"):
                value = getattr(node, name)
                if not hasattr(value, "shape") or isinstance(value, tuple):
                    options[name] = (type(value).__name__, value)
        found.append((node.name(), options))
        stack.extend(child for child, _ in node.next_functions)
    y.backward(lib.ones_like(y))
    gradients = [None if t.grad is None else t.grad.numpy() for t in (x, z)]
    return found, gradients


@parametrize_in_one("program", PROGRAMS)
def test_int_options_shown_as_pytorch_shows_them(program: str) -> None:
    mine, my_gradients = _graph_options(minigrad, program)
    theirs, their_gradients = _graph_options(torch, program)
    assert str(mine).replace("minigrad", "torch") == str(theirs)
    for m_grad, t_grad in zip(my_gradients, their_gradients):
        assert (m_grad is None) == (t_grad is None)
        if t_grad is not None:
            np.testing.assert_allclose(m_grad, t_grad)
