"""Ops whose backward takes its saved values as parameters (``saved_as_arguments``), vs PyTorch.

The node's runner hands the checked values to ``backward(ctx, grad, *saved)``; these tests
check every declaring op through each way in: the runner's checked layout, ``saved.unpack``
(create_graph, the guard's absence aside), the generic ``BackwardNode._backward``, and the
errors of a modified or freed saved value, each against PyTorch.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd.function import BackwardNode, Op
from minigrad.ops.arithmetic import Mul
from minigrad.ops.linalg import Addmm, Mm
from minigrad.ops.softmax import LogSoftmax, Softmax
from minigrad.ops.unary import Exp, Relu, Sigmoid, Tanh

# (op class, how to call it on (minigrad or torch) tensors, shapes of the inputs)
CASES: list[tuple[type[Op], Callable[..., Any], tuple[tuple[int, ...], ...]]] = [
    (Exp, lambda lib, x: lib.exp(x), ((3,),)),
    (Sigmoid, lambda lib, x: lib.sigmoid(x), ((3,),)),
    (Tanh, lambda lib, x: lib.tanh(x), ((3,),)),
    (Mul, lambda lib, x, y: x * y, ((2, 3), (2, 3))),
    (Mm, lambda lib, x, y: lib.mm(x, y), ((2, 3), (3, 2))),
    (Relu, lambda lib, x: lib.relu(x), ((3,),)),
    (Softmax, lambda lib, x: lib.softmax(x, 1), ((2, 3),)),
    (LogSoftmax, lambda lib, x: lib.log_softmax(x, 1), ((2, 3),)),
    (Addmm, lambda lib, b, x, y: lib.addmm(b, x, y), ((3,), (2, 4), (4, 3))),
]
IDS = [case[0].__name__ for case in CASES]
# A float32 gradient formed by cancellation (log_softmax's 1 - 3 * softmax) differs by a
# rounding of its product: PyTorch's kernel fuses the multiply-add, numpy rounds the product
# first (the same values on the general path). Half an ulp of 1.0 absolute covers that.
ATOL = 6e-8


def _inputs(shapes: tuple[tuple[int, ...], ...], needs: tuple[bool, ...]) -> tuple[list, list]:
    rng = np.random.default_rng(len(shapes) + sum(needs))
    arrays = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    ours = [minigrad.tensor(a, requires_grad=n) for a, n in zip(arrays, needs, strict=True)]
    theirs = [torch.tensor(a, requires_grad=n) for a, n in zip(arrays, needs, strict=True)]
    return ours, theirs


def _needs(shapes: tuple[tuple[int, ...], ...]) -> list[tuple[bool, ...]]:
    """Each input alone requiring grad, and all of them (bilinear ops save per need)."""
    count = len(shapes)
    alone = [tuple(i == j for j in range(count)) for i in range(count)]
    return alone if count == 1 else [*alone, (True,) * count]


def test_the_declaring_ops_are_these() -> None:
    declaring = set()
    stack = [Op]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__dict__.get("saved_as_arguments"):
            declaring.add(cls)
    assert declaring == {case[0] for case in CASES}


@pytest.mark.parametrize(("op", "call", "shapes"), CASES, ids=IDS)
def test_gradients_and_second_gradients_match_torch(op: type[Op], call: Callable[..., Any],
                                                    shapes: tuple[tuple[int, ...], ...]) -> None:
    for needs in _needs(shapes):
        ours, theirs = _inputs(shapes, needs)
        out, ref = call(minigrad, *ours), call(torch, *theirs)
        assert type(out.grad_fn).__name__ == type(ref.grad_fn).__name__ == op.__name__ + "Backward0"
        wanted = [t for t, n in zip(ours, needs, strict=True) if n]
        wanted_ref = [t for t, n in zip(theirs, needs, strict=True) if n]
        # create_graph: the saved values come through ``unpack`` as tensors
        grads = minigrad.autograd.grad(out.sum(), wanted, create_graph=True)
        grads_ref = torch.autograd.grad(ref.sum(), wanted_ref, create_graph=True)
        for g, r in zip(grads, grads_ref, strict=True):
            np.testing.assert_allclose(g.detach().numpy(), r.detach().numpy(), rtol=1e-6,
                                       atol=ATOL)
        second = [g.requires_grad for g in grads]
        assert second == [r.requires_grad for r in grads_ref]
        if all(second):
            total = sum((g * g).sum() for g in grads)
            total_ref = sum((r * r).sum() for r in grads_ref)
            for g, r in zip(minigrad.autograd.grad(total, wanted),
                            torch.autograd.grad(total_ref, wanted_ref), strict=True):
                np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
        # the runner's checked layout (arrays), then the generic node method, on fresh graphs
        for run in ("runner", "generic"):
            ours, theirs = _inputs(shapes, needs)
            out, ref = call(minigrad, *ours), call(torch, *theirs)
            seed = np.ones(out.shape, dtype=np.float32)
            wanted_ref = [t for t, n in zip(theirs, needs, strict=True) if n]
            node = out.grad_fn
            result = (node._backward([seed]) if run == "runner"
                      else BackwardNode._backward(node, [seed]))
            ref_grads = torch.autograd.grad(ref, wanted_ref, torch.ones_like(ref))
            got = [g for g, n in zip(result, needs, strict=False) if n]
            for g, r in zip(got, ref_grads, strict=True):
                np.testing.assert_allclose(g, r.numpy(), rtol=1e-6, atol=ATOL)


def _error(run: Callable[[], Any]) -> str:
    with pytest.raises(RuntimeError) as info:
        run()
    return str(info.value).replace("torch.", "").replace("minigrad.", "")


@pytest.mark.parametrize(("op", "call", "shapes"), CASES, ids=IDS)
def test_a_modified_saved_value_raises_torchs_error(op: type[Op], call: Callable[..., Any],
                                                    shapes: tuple[tuple[int, ...], ...]) -> None:
    outcomes = []
    for needs in _needs(shapes):
        ours, theirs = _inputs(shapes, needs)
        mine = _outcome(functools.partial(_write_then_backward, minigrad, call, ours, needs))
        wanted = _outcome(functools.partial(_write_then_backward, torch, call, theirs, needs))
        assert mine == wanted
        outcomes.append(wanted)
    assert outcomes != ["no error"] * len(outcomes)  # some write is caught


def _outcome(run: Callable[[], Any]) -> str:
    """The error text of ``run``, or "no error": addmm saves nothing when only its ``input``
    needs a gradient, so writing the matrices then is legal (in PyTorch too)."""
    try:
        run()
    except RuntimeError as error:
        return str(error).replace("torch.", "").replace("minigrad.", "")
    return "no error"


def _write_then_backward(
    lib: Any, call: Callable[..., Any], args: list, needs: tuple[bool, ...]
) -> None:
    """Record the op on non-leaf copies of ``args``, write each copy in place, run backward."""
    leaves = [lib.tensor(a.detach().numpy(), requires_grad=n)
              for a, n in zip(args, needs, strict=True)]
    inputs = [leaf * 1 for leaf in leaves]
    out = call(lib, *inputs)
    out.mul_(1)  # the output (saved by exp, sigmoid, tanh) and
    for value in inputs:
        value.mul_(1)  # each input (saved by mul and mm for the other's gradient)
    out.sum().backward()


@pytest.mark.parametrize(("op", "call", "shapes"), CASES, ids=IDS)
def test_freed_saved_values_raise_torchs_error(op: type[Op], call: Callable[..., Any],
                                               shapes: tuple[tuple[int, ...], ...]) -> None:
    texts = []
    for lib in (minigrad, torch):
        ours, theirs = _inputs(shapes, (True,) * len(shapes))
        out = call(lib, *(ours if lib is minigrad else theirs)).sum()
        out.backward()
        texts.append(_error(out.backward))
    assert texts[0] == texts[1]
