"""The edges of PyTorch's ``NotImplemented`` node: one per input that requires grad, no others.

(``set_``'s lists every input: tests_torch/test_storage_torch.py.)

A node of an op PyTorch has no derivative for (``floor_divide``, ``heaviside``, the legacy
``scatter(..., reduce=)``, the histogram's weights, ``ldl_factor``, a ``*_backward`` kernel
under ``create_graph``) lists no ``(None, 0)`` edge for an operand that needs no gradient,
where a differentiable op's node does (``MulBackward0``). Each program's node is compared
with PyTorch's: its name, and per edge the next node's name (or None) and input number.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

F64 = "float64"


def _pair(lib: Any, first_grad: bool, second_grad: bool) -> tuple[Any, Any]:
    a = lib.tensor([1.5, -2.5, 3.0], dtype=getattr(lib, F64), requires_grad=first_grad)
    b = lib.tensor([2.0, 0.0, -1.0], dtype=getattr(lib, F64), requires_grad=second_grad)
    return a, b


def _first_gradient(lib: Any, loss: Any, x: Any, grad_output_requires_grad: bool) -> Any:
    """d loss / d x under create_graph, for a grad_output of ones (requiring grad or not)."""
    grad_output = lib.ones_like(loss, requires_grad=grad_output_requires_grad)
    (gradient,) = lib.autograd.grad(loss, x, grad_output, create_graph=True)
    return gradient


def _margin(lib: Any, grad_output_requires_grad: bool) -> Any:
    x = lib.tensor([[0.3, 0.9, 0.1]], dtype=getattr(lib, F64), requires_grad=True)
    loss = lib.nn.functional.multi_margin_loss(x, lib.tensor([1]))
    return _first_gradient(lib, loss, x, grad_output_requires_grad)


def _hardsigmoid(lib: Any, grad_output_requires_grad: bool) -> Any:
    x = lib.tensor([0.3, -4.0, 0.1], dtype=getattr(lib, F64), requires_grad=True)
    return _first_gradient(lib, lib.nn.functional.hardsigmoid(x), x, grad_output_requires_grad)


def _embedding_bag(lib: Any, grad_output_requires_grad: bool) -> Any:
    weight = lib.tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
    per_sample = lib.tensor([0.5, 2.0, -1.0], dtype=getattr(lib, F64), requires_grad=True)
    bags = lib.nn.functional.embedding_bag(
        lib.tensor([0, 2, 1]), weight, lib.tensor([0, 2]), mode="sum",
        per_sample_weights=per_sample)
    return _first_gradient(lib, bags, per_sample, grad_output_requires_grad)


def _scatter(lib: Any, input_grad: bool, src_grad: bool) -> Any:
    x, src = _pair(lib, input_grad, src_grad)
    return lib.scatter(x * 1, 0, lib.tensor([0, 1, 2]), src, reduce="add")


def _ldl_solve(lib: Any, factor_grad: bool, rhs_grad: bool) -> Any:
    a = lib.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=getattr(lib, F64))
    factors, pivots = lib.linalg.ldl_factor(a)
    rhs = lib.tensor([[1.0], [2.0]], dtype=getattr(lib, F64), requires_grad=rhs_grad)
    return lib.linalg.ldl_solve(factors.requires_grad_(factor_grad), pivots, rhs)


def _histogram(lib: Any, input_grad: bool, weight_grad: bool) -> Any:
    x, weight = _pair(lib, input_grad, weight_grad)
    return lib.histogram(x, bins=3, weight=weight).hist


def _floor_divide_(lib: Any, other_grad: bool) -> Any:
    a, b = _pair(lib, True, other_grad)
    c = a * 1
    c.floor_divide_(b + 4)  # (a divisor without zeros)
    return c


PROGRAMS = {
    **{f"floor_divide_{x}_{y}": (lambda lib, x=x, y=y: lib.floor_divide(*_pair(lib, x, y)))
       for x, y in [(True, False), (False, True), (True, True)]},
    **{f"floor_divide_operator_{x}_{y}": (lambda lib, x=x, y=y: _pair(lib, x, y)[0] // (
        _pair(lib, x, y)[1] + 4)) for x, y in [(True, False), (False, True), (True, True)]},
    "floor_divide_0d_divisor": lambda lib: _pair(lib, False, False)[0] // lib.tensor(
        2.0, dtype=getattr(lib, F64), requires_grad=True),
    "floor_divide_half_number": lambda lib: _pair(lib, True, False)[0].half() // 0.1,
    "floor_divide_number": lambda lib: _pair(lib, True, False)[0] // 2,
    "floor_divide_number_first": lambda lib: 3 // _pair(lib, True, False)[0],
    "floor_divide_in_place": lambda lib: _floor_divide_(lib, False),
    "floor_divide_in_place_other": lambda lib: _floor_divide_(lib, True),
    **{f"heaviside_{x}_{y}": (lambda lib, x=x, y=y: lib.heaviside(*_pair(lib, x, y)))
       for x, y in [(True, False), (False, True), (True, True)]},
    "remainder_number_first": lambda lib: lib.remainder(2.0, _pair(lib, True, False)[0]),
    **{f"scatter_reduce_legacy_{x}_{y}": (lambda lib, x=x, y=y: _scatter(lib, x, y))
       for x, y in [(True, False), (False, True), (True, True)]},
    "scatter_reduce_legacy_number": lambda lib: lib.scatter(
        _pair(lib, True, False)[0] * 1, 0, lib.tensor([0, 1]), 2.0, reduce="add"),
    **{f"histogram_{x}_{y}": (lambda lib, x=x, y=y: _histogram(lib, x, y))
       for x, y in [(False, True), (True, True)]},
    "ldl_factor": lambda lib: lib.linalg.ldl_factor(lib.tensor(
        [[4.0, 1.0], [1.0, 3.0]], requires_grad=True))[0],
    **{f"ldl_solve_{x}_{y}": (lambda lib, x=x, y=y: _ldl_solve(lib, x, y))
       for x, y in [(True, False), (False, True), (True, True)]},
    **{f"{name}_grad_output_{g}": (lambda lib, f=f, g=g: f(lib, g))
       for name, f in [("multi_margin_loss", _margin), ("hardsigmoid", _hardsigmoid),
                       ("embedding_bag", _embedding_bag)]
       for g in (False, True)},
}


def _edges(node: Any) -> list[tuple[str | None, int]]:
    """``next_functions`` by name: ``(next node's name or None, input number)`` per edge."""
    return [(None if n is None else n.name(), nr) for n, nr in node.next_functions]


def _listing(lib: Any, name: str) -> tuple[str, list[tuple[str | None, int]]]:
    """The node of program ``name``'s result in ``lib``: its name and its edges."""
    node = PROGRAMS[name](lib).grad_fn
    return node.name(), _edges(node)


@pytest.mark.filterwarnings("ignore:The reduce argument of")  # (the legacy scatter's)
@parametrize_in_one("name", PROGRAMS)
def test_not_implemented_nodes_list_only_the_edges_that_need_a_gradient(name):
    assert _listing(minigrad, name) == _listing(torch, name)


def _outcome(lib: Any, program: Any) -> tuple[str, ...]:
    try:
        result = program(lib)
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).replace("torch", "minigrad")
    return "ok", str(result.requires_grad)


def _divide_backward(lib: Any, x: bool, y: bool) -> Any:
    a, b = _pair(lib, x, y)
    (a // (b + 4)).sum().backward()


FLOOR_DIVIDE_ERRORS = {
    **{f"broadcast_{x}_{y}": (lambda lib, x=x, y=y: _pair(lib, x, y)[0] // lib.tensor(
        [2.0, 3.0], dtype=getattr(lib, F64), requires_grad=y)) for x in (False, True)
       for y in (False, True)},
    **{f"backward_{x}_{y}": (lambda lib, x=x, y=y: _divide_backward(lib, x, y))
       for x, y in [(True, False), (False, True), (True, True)]},
    "backward_number": lambda lib: (_pair(lib, True, False)[0] // 2).sum().backward(),
    "backward_number_first": lambda lib: (2 // _pair(lib, True, False)[0]).sum().backward(),
    "integer_by_zero": lambda lib: lib.tensor([5, 6]) // lib.tensor([2, 0]),
    "integer_by_number_zero": lambda lib: lib.tensor([5, 6]) // 0,
    "bools": lambda lib: lib.tensor([True]) // lib.tensor([True]),
    "string": lambda lib: _pair(lib, True, False)[0] // "a",
}


@parametrize_in_one("name", FLOOR_DIVIDE_ERRORS)
def test_floor_divide_errors_for_every_operand_that_requires_grad(name):
    """One node for every operand kind: the errors (forward, backward) are PyTorch's."""
    program = FLOOR_DIVIDE_ERRORS[name]
    assert _outcome(minigrad, program) == _outcome(torch, program)
