"""minigrad's debugging aids against live PyTorch: the same graphs, PyTorch's messages first.

- minigrad.viz's picture has PyTorch's backward graph: the same nodes, in the same walk order,
  with the same edges (PyTorch's graph is walked through ``next_functions``);
- with write tracking on, the version error's first line is PyTorch's message for the same
  program, word for word;
- without the guard, minigrad gives PyTorch's silently wrong gradient for the seed's ``.data``
  program; with it, the write fails.
"""
import numpy as np
import pytest
import torch
from _dot import backward_structure

import minigrad as mg


def torch_structure(*tensors) -> tuple[list[str], list[tuple[int, int]]]:
    """PyTorch's graph in minigrad.viz's order: depth-first from the roots, in edge order."""
    order, seen = [], set()
    stack = [t.grad_fn for t in reversed(tensors) if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)
    index = {node: i for i, node in enumerate(order)}
    edges = sorted(
        (index[child], index[node])
        for node in order for child, _ in node.next_functions if child is not None
    )
    return [type(node).__name__ for node in order], edges


def seed(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    return [out]


def mlp(lib):
    lib.manual_seed(0)
    x = lib.ones(4, 3)
    w1 = lib.tensor(np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3), requires_grad=True)
    b1 = lib.zeros(5, requires_grad=True)
    w2 = lib.tensor(np.linspace(1, -1, 5, dtype=np.float32).reshape(1, 5), requires_grad=True)
    hidden = (x @ w1.t() + b1).relu()
    return [((hidden @ w2.t()) ** 2).mean()]


def copy_slices(lib):
    b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = b * 2
    c[1:].mul_(b[1:])
    return [c.exp()]


def views_and_two_roots(lib):
    a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = a.exp()
    row = h[0]
    flat = h.view(4)
    return [row.sin(), (flat * flat).sum()]


def inplace_chain(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = a * 1
    x.add_(1)
    x.sigmoid_()
    x.mul_(a)
    return [x]


@pytest.mark.parametrize("program", [seed, mlp, copy_slices, views_and_two_roots, inplace_chain])
def test_the_picture_has_pytorchs_graph(program):
    expected = torch_structure(*program(torch))
    assert backward_structure(mg.viz.to_dot(program(mg))) == expected


def version_error(lib, program) -> str:
    out = program(lib)
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    return str(excinfo.value).replace("torch.", "minigrad.")


def stale_output(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    out += 1
    return out


def stale_input(lib):
    x = lib.tensor([1.0, 2.0, 3.0])
    w = lib.tensor([1.0, 1.0, 1.0], requires_grad=True)
    y = x * w
    x[0] = 5.0
    return y


def stale_weight_after_step(lib):
    w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    optimizer = lib.optim.SGD([w], lr=0.1)
    y = w**2
    y.sum().backward(retain_graph=True)
    optimizer.step()
    return y


@pytest.mark.parametrize("program", [stale_output, stale_input, stale_weight_after_step])
def test_with_tracking_the_first_line_is_pytorchs_message(program):
    expected = version_error(torch, program)
    with mg.autograd.set_track_writes(True):
        lines = version_error(mg, program).splitlines()
    assert lines[0] == expected
    assert lines[1].startswith("saved by ") and lines[2].startswith("modified by ")


def test_the_seed_data_program_is_silently_wrong_in_both_and_caught_by_the_guard():
    def data_program(lib):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        out = a.sigmoid()
        out.data.zero_()
        out.sum().backward()
        return a.grad.tolist()

    assert data_program(mg) == data_program(torch) == [0.0, 0.0, 0.0]
    with mg.autograd.guard_saved_tensors(), pytest.raises(RuntimeError, match="bypasses"):
        data_program(mg)
