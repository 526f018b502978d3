"""Python's operators on tensors that PyTorch's Tensor defines beyond the common ones.

``3 % x`` (``__rmod__``: remainder with a number first, which has no derivative), ``x // y``
(a node with edges only to the operands that require grad), ``x //= y``
and ``x **= y`` in place (not rebinding ``x`` to a new tensor), ``reversed(x)`` (a flip of
dimension 0) and Python 2's ``__rdiv__`` and ``__idiv__``. Each program runs in both libraries.
"""

from __future__ import annotations

from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def _outcome(program: Any, lib: Any) -> Any:
    """What ``program(lib)`` returns, or its exception's type and message (``torch`` renamed)."""
    try:
        return program(lib)
    except Exception as error:  # (compared across the libraries)
        return type(error).__name__, str(error).replace("torch", "minigrad")


def _rmod(lib: Any) -> Any:
    x = lib.tensor([1.5, 2.0, -4.0], requires_grad=True)
    z = 7 % x
    node = z.grad_fn
    edges = [(type(f).__name__, i) for f, i in node.next_functions]
    return z.tolist(), node.name().replace("torch", "minigrad"), edges


def _rmod_backward(lib: Any) -> Any:
    x = lib.tensor([1.5, 2.0], requires_grad=True)
    (3.0 % x).sum().backward()


def _rmod_values(lib: Any) -> Any:
    ints = lib.tensor([2, 3, -5])
    return (
        (7 % ints).tolist(),
        (7 % ints).dtype is lib.int64,
        (-7.5 % ints).tolist(),
        (True % lib.tensor([2, 3])).tolist(),
        lib.remainder(7, lib.tensor([2.0, 4.0])).tolist(),
    )


def _rmod_by_zero(lib: Any) -> Any:
    return 3 % lib.tensor([0, 1])


def _rmod_of_bools(lib: Any) -> Any:
    return True % lib.tensor([True])


def _rmod_of_a_list(lib: Any) -> Any:
    return [1] % lib.tensor([1.0])


def _floordiv_edges(lib: Any) -> Any:
    x = lib.tensor([1.5, 2.0, -4.0], requires_grad=True)
    c = lib.tensor([2.0, 3.0, 5.0])
    results = (x // 2, 7 // x, x // c, c // x, x // x)
    return [([type(f).__name__ for f, _ in z.grad_fn.next_functions], z.tolist()) for z in results]


def _floordiv_broadcast_error(lib: Any) -> Any:
    return lib.tensor([1.0, 2.0, 3.0]) // lib.tensor([1.0, 2.0], requires_grad=True)


def _floordiv_in_place(lib: Any) -> Any:
    x = lib.tensor([5.0, 7.0])
    same = x
    x //= 2
    return x is same, x._version, x.tolist()


def _pow_in_place(lib: Any) -> Any:
    x = lib.tensor([5.0, 7.0])
    same = x
    x **= 2
    x **= lib.tensor([0.5, 1.0])
    return x is same, x._version, x.tolist()


def _pow_in_place_on_a_leaf(lib: Any) -> Any:
    x = lib.tensor([5.0], requires_grad=True)
    x **= 2


def _floordiv_in_place_of_a_str(lib: Any) -> Any:
    x = lib.tensor([5.0])
    x //= "a"


def _pow_in_place_recorded(lib: Any) -> Any:
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    x = a * 1
    x **= 3
    x.sum().backward()
    return type(x.grad_fn).__name__, a.grad.tolist()


def _reversed(lib: Any) -> Any:
    m = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    r = reversed(m)
    s = lib.tensor(3.0)
    return r.tolist(), type(r.grad_fn).__name__, reversed(s) is s


def _python2_names(lib: Any) -> Any:
    x = lib.tensor([2.0, 4.0])
    quotient = x.__rdiv__(1)
    same = x
    x.__idiv__(2)
    return quotient.tolist(), x.tolist(), x is same, x._version, x.__rdiv__("a")


PROGRAMS = {
    program.__name__.lstrip("_"): program
    for program in (
        _rmod,
        _rmod_backward,
        _rmod_values,
        _rmod_by_zero,
        _rmod_of_bools,
        _rmod_of_a_list,
        _floordiv_edges,
        _floordiv_broadcast_error,
        _floordiv_in_place,
        _pow_in_place,
        _pow_in_place_on_a_leaf,
        _floordiv_in_place_of_a_str,
        _pow_in_place_recorded,
        _reversed,
        _python2_names,
    )
}


@parametrize_in_one("name", list(PROGRAMS))
def test_operator_as_pytorch(name: str) -> None:
    mine, theirs = (_outcome(PROGRAMS[name], lib) for lib in LIBS)
    assert mine == theirs
