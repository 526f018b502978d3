"""Closures made at import share the cells of their read-only values, and only those."""

import gc
import types

import minigrad
from minigrad._shared_cells import share_cells


def _closures(qualname):
    return [f for f in gc.get_objects()
            if isinstance(f, types.FunctionType) and f.__code__.co_qualname == qualname]


def _cells(functions, name):
    return {id(f.__closure__[f.__code__.co_freevars.index(name)]) for f in functions}


def test_a_rebuilt_closure_keeps_what_it_had():
    def maker(flag, state):
        def read(x, *rest, scale=2, **more):
            """Doc."""
            return flag, state, x * scale

        read.marker = "kept"
        return share_cells(read, ("flag",))

    first, second = maker(True, []), maker(True, [])
    assert first.__closure__[0] is second.__closure__[0]  # flag: one cell
    assert first.__closure__[1] is not second.__closure__[1]  # state: each its own
    assert first(3) == (True, [], 6) and first(3, scale=3)[2] == 9
    assert (first.__doc__, first.marker, first.__kwdefaults__) == ("Doc.", "kept", {"scale": 2})
    assert first.__qualname__.endswith("maker.<locals>.read")


def test_the_runners_share_constants_but_not_what_they_write():
    runners = _closures("backward_runner.<locals>._backward")
    assert len(runners) > 400
    assert len(_cells(runners, "fields")) == 1
    assert len(_cells(runners, "result_layout")) <= 2  # (True and False)
    # ``unnamed`` is written by each runner (nonlocal): never shared
    assert len(_cells(runners, "unnamed")) == len(runners)


def test_the_argument_checks_keep_their_own_out_layer():
    checked = _closures("checking_arguments.<locals>.checked")
    assert len(checked) > 900
    assert len(_cells(checked, "out_layer")) == len(checked)
    assert len(_cells(checked, "passed")) == len(checked)
    assert len(_cells(checked, "int_dim")) <= 2
    # the out= layer still reaches only its own function
    a = minigrad.ones(2)
    out = minigrad.empty(2)
    assert minigrad.exp(a, out=out) is out and minigrad.sum(a).item() == 2.0


def test_recorders_share_cells_and_record_as_before():
    recorders = _closures("_unary_recorder.<locals>.record_unary")
    assert len(_cells(recorders, "saves_result")) <= 2
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    y = x.sigmoid().exp().sum()
    y.backward()
    assert x.grad is not None and y.grad_fn.name() == "SumBackward0"
