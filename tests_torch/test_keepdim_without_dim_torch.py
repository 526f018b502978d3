"""``keepdim`` without a ``dim`` in sum, mean, prod, max, min, median and nanmedian, against
PyTorch 2.13, live.

PyTorch's parser has ``keepdim`` only in the overloads that take a ``dim``: ``x.sum(keepdim=True)``
is a TypeError (the overloads listed, or "missing ... dim" when the number of arguments leaves
one overload), while ``x.sum(None, True)`` reduces every dim to size 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

REDUCTIONS = ("sum", "mean", "prod", "max", "min", "median", "nanmedian")
INT_DIM = ("prod", "max", "min", "median", "nanmedian")  # (their dim is an int)


def _calls(name: str) -> list[Callable[[Any, Any], Any]]:
    return [
        lambda lib, x: getattr(x, name)(keepdim=True),
        lambda lib, x: getattr(x, name)(keepdim=False),
        lambda lib, x: getattr(lib, name)(x, keepdim=True),
        lambda lib, x: getattr(x, name)(keepdims=True),  # (NumPy's name: the message keeps it)
        lambda lib, x: getattr(lib, name)(x, keepdims=False),
        lambda lib, x: getattr(lib, name)(input=x, keepdim=True),
        lambda lib, x: getattr(lib, name)(keepdim=True, input=x),
        lambda lib, x: getattr(x, name)(keepdim=None),
        lambda lib, x: getattr(x, name)(keepdim=True, dtype=lib.float64),
        lambda lib, x: getattr(lib, name)(x, keepdim=True, dtype=lib.float64),
    ]


def _none_dim_calls(name: str) -> list[Callable[[Any, Any], Any]]:
    # prod, max, min and the medians take an int dim: dim=None (by keyword) fits none of their
    # overloads.
    return [
        lambda lib, x: getattr(x, name)(dim=None),
        lambda lib, x: getattr(x, name)(dim=None, keepdim=True),
        lambda lib, x: getattr(lib, name)(x, dim=None),
        lambda lib, x: getattr(lib, name)(x, dim=None, keepdim=False),
    ]


def _not_int_dim_calls(name: str) -> list[Callable[[Any, Any], Any]]:
    # Any dim that is not an int, positional or not, alone or with keepdim: the parser lists
    # the overloads when the number of arguments leaves several, else names 'dim' (position).
    forms = []
    for dim in (None, (), [], (0, 1), 1.5, "a", True):
        forms += [
            lambda lib, x, d=dim: getattr(x, name)(d),
            lambda lib, x, d=dim: getattr(x, name)(d, True),
            lambda lib, x, d=dim: getattr(x, name)(dim=d),
            lambda lib, x, d=dim: getattr(lib, name)(x, d),
            lambda lib, x, d=dim: getattr(lib, name)(x, d, True),
            lambda lib, x, d=dim: getattr(lib, name)(x, d, keepdim=False),
            lambda lib, x, d=dim: getattr(x, name)(d, True, dtype=lib.float64),
        ]
    return forms


CALLS = [(name, i, call) for name in REDUCTIONS for i, call in enumerate(_calls(name))]
CALLS += [(name, 100 + i, call) for name in INT_DIM
          for i, call in enumerate(_not_int_dim_calls(name))]
CALLS += [(name, 10 + i, call) for name in INT_DIM
          for i, call in enumerate(_none_dim_calls(name))]


def _outcome(call: Callable[[Any, Any], Any], lib: Any) -> tuple[str, str]:
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    try:
        result = call(lib, x)
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    return "result", repr(result.detach()).replace("torch.", "minigrad.")


@parametrize_in_one(("name", "index", "call"), CALLS, ids=[f"{n}-{i}" for n, i, _ in CALLS])
def test_keepdim_without_dim_as_pytorch(name: str, index: int, call: Any) -> None:
    theirs = _outcome(call, torch)
    assert theirs[0] == "TypeError"  # (so the test cannot pass by two results)
    assert _outcome(call, minigrad) == theirs


@pytest.mark.parametrize("call", [
    lambda lib, x: x.sum(None, True),
    lambda lib, x: x.sum(dim=None, keepdim=True),
    lambda lib, x: lib.sum(x, None, True, dtype=lib.float64),
    lambda lib, x: x.mean(None, True),
    lambda lib, x: lib.mean(x, dim=None, keepdim=True),
    lambda lib, x: x.sum(dim=(), keepdim=True),
    lambda lib, x: x.mean(dim=[], keepdim=True),
])
def test_keepdim_with_dim_none_keeps_every_dim(call: Any) -> None:
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], requires_grad=True)
        out = call(lib, x)
        out.backward(lib.ones_like(out) * 2)
        results.append((tuple(out.shape), out.detach().tolist(), out.grad_fn.name(),
                        out.grad_fn._saved_keepdim, x.grad.tolist()))
    assert results[0] == results[1]


# Every way of asking for every dim: no dim at all is the overload without one (SumBackward0,
# MeanBackward0); dim=None, () or [] (positional or not) the overload with one (...Backward1).
_EVERY_DIM_FORMS = [
    lambda lib, x, f: getattr(x, f)(),
    lambda lib, x, f: getattr(x, f)(None),
    lambda lib, x, f: getattr(x, f)(dim=None),
    lambda lib, x, f: getattr(x, f)(None, False),
    lambda lib, x, f: getattr(x, f)(axis=None),
    lambda lib, x, f: getattr(x, f)(()),
    lambda lib, x, f: getattr(x, f)(dim=[]),
    lambda lib, x, f: getattr(x, f)((), True),
    lambda lib, x, f: getattr(lib, f)(x),
    lambda lib, x, f: getattr(lib, f)(x, None),
    lambda lib, x, f: getattr(lib, f)(x, dim=None),
    lambda lib, x, f: getattr(lib, f)(input=x, dim=None, keepdim=True),
]
_DTYPE_FORMS = [
    lambda lib, x, f: getattr(x, f)(dtype=lib.float64),
    lambda lib, x, f: getattr(x, f)(None, dtype=lib.float64),
    lambda lib, x, f: getattr(lib, f)(x, None, True, dtype=lib.float64),
]
EVERY_DIM_CALLS = [(f, i, call) for f in ("sum", "mean", "amax", "amin")
                   for i, call in enumerate(_EVERY_DIM_FORMS)]
EVERY_DIM_CALLS += [(f, 20 + i, call) for f in ("sum", "mean")
                    for i, call in enumerate(_DTYPE_FORMS)]


@parametrize_in_one(("name", "index", "call"), EVERY_DIM_CALLS,
                         ids=[f"{n}-{i}" for n, i, _ in EVERY_DIM_CALLS])
def test_every_dim_forms_record_pytorchs_node(name: str, index: int, call: Any) -> None:
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], requires_grad=True)
        out = call(lib, x, name)
        out.backward(lib.ones_like(out) * 2)
        results.append((tuple(out.shape), out.detach().tolist(), out.grad_fn.name(),
                        x.grad.tolist()))
    assert results[0] == results[1]


@parametrize_in_one("call", [
    lambda lib, x: x.logsumexp(),
    lambda lib, x: lib.logsumexp(x),
    lambda lib, x: x.logsumexp(keepdim=True),
    lambda lib, x: lib.logsumexp(x, keepdim=True),
    lambda lib, x: x.cumsum(),
    lambda lib, x: lib.cumsum(x),
    lambda lib, x: x.cumprod(),
    lambda lib, x: x.unsqueeze(),
    lambda lib, x: x.transpose(0),
    lambda lib, x: x.select(0),
])
def test_a_missing_dim_has_pytorchs_text(call: Any) -> None:
    # Python's own "Tensor.logsumexp() missing 1 required positional argument: 'dim'" becomes
    # the parser's 'logsumexp() missing 1 required positional arguments: "dim"'.
    theirs = _outcome(call, torch)
    assert theirs[0] == "TypeError" and "missing" in theirs[1]
    assert _outcome(call, minigrad) == theirs



def test_an_error_inside_the_function_is_not_rewritten() -> None:
    # Only the call's own complaint gets the parser's text: the same complaint about a call
    # made inside the function passes as Python wrote it.
    from minigrad._arguments import checking_arguments

    def inner(a: int) -> int:
        return a

    def outer(input: Any, dim: int) -> Any:
        return inner()  # type: ignore[call-arg]

    checked = checking_arguments(outer, "outer")
    parser_text = 'outer() missing 1 required positional arguments: "dim"'
    with pytest.raises(TypeError, match=f"^{re.escape(parser_text)}$"):
        checked(minigrad.ones(1))
    with pytest.raises(TypeError, match="inner\\(\\) missing 1 required positional argument: 'a'$"):
        checked(minigrad.ones(1), 0)
