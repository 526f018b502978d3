"""``x.data = t`` after an op saved ``x``: backward computes with ``t``, silently, as PyTorch.

PyTorch saves an input as the tensor itself, so assigning ``.data`` (not a write: no version
bump, no error) changes what backward reads; a saved *output* is kept as its data and does not
see it. Each program runs in both libraries: the same gradients, versions, or error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _leaf(lib: Any, value: float = 1.0) -> Any:
    return lib.full((3,), value, requires_grad=True)


def _product(lib: Any) -> Any:
    x = _leaf(lib)
    y = (x * x).sum()
    x.data = lib.full((3,), 5.0)
    y.backward()
    return x.grad, x._version


def _other_operand(lib: Any) -> Any:
    x, w = _leaf(lib), _leaf(lib, 2.0)
    y = (x * w).sum()
    w.data = lib.full((3,), 7.0)
    y.backward()
    return x.grad, w.grad


def _non_leaf(lib: Any) -> Any:
    x = _leaf(lib)
    h = x * 2
    y = (h * h).sum()
    h.data = lib.full((3,), 5.0)
    y.backward()
    return (x.grad,)


def _saved_result(lib: Any) -> Any:  # exp saves its result: .data of the result is not seen
    x = _leaf(lib)
    y = x.exp()
    z = y.sum()
    y.data = lib.full((3,), 5.0)
    z.backward()
    return (x.grad,)


def _unary(lib: Any) -> Any:
    x = _leaf(lib)
    y = x.sin().sum()
    x.data = lib.zeros(3)
    y.backward()
    return (x.grad,)


def _power(lib: Any) -> Any:
    x = _leaf(lib)
    y = x.pow(3).sum()
    x.data = lib.full((3,), 2.0)
    y.backward()
    return (x.grad,)


def _other_shape(lib: Any) -> Any:
    x = _leaf(lib)
    y = (x * x).sum()
    x.data = lib.full((2,), 5.0)
    y.backward()
    return (x.grad,)


def _other_dtype(lib: Any) -> Any:
    x = _leaf(lib)
    y = (x * x).sum()
    x.data = lib.full((3,), 5.0, dtype=lib.float64)
    y.backward()
    return (x.grad,)


def _saved_self_shown(lib: Any) -> Any:
    x = _leaf(lib)
    y = x * x
    x.data = lib.full((3,), 5.0)
    return (y.grad_fn._saved_self,)


def _custom_function(lib: Any) -> Any:
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            (a,) = ctx.saved_tensors
            return 2 * a * grad

    x = _leaf(lib)
    y = Square.apply(x).sum()
    x.data = lib.full((3,), 5.0)
    y.backward()
    return (x.grad,)


def _create_graph(lib: Any) -> Any:
    x = _leaf(lib)
    y = (x * x * x).sum()
    x.data = lib.full((3,), 2.0)
    (g,) = lib.autograd.grad(y, x, create_graph=True)
    return (g,)


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    f.__name__.lstrip("_"): f
    for f in (_product, _other_operand, _non_leaf, _saved_result, _unary, _power, _other_shape,
              _other_dtype, _saved_self_shown, _custom_function, _create_graph)
}


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        values = program(lib)
    except RuntimeError as error:
        return "RuntimeError", str(error).split("\n")[0]
    return [
        (value.tolist(), str(value.dtype).split(".")[-1]) if hasattr(value, "tolist") else value
        for value in values
    ]


@parametrize_in_one("name", PROGRAMS)
def test_backward_reads_a_saved_input_s_data_as_pytorch(name: str) -> None:
    assert _outcome(PROGRAMS[name], minigrad) == _outcome(PROGRAMS[name], torch)
