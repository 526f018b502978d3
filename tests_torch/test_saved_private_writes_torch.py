"""Writes through a private saved value that ``grad_fn._saved_<name>`` hands out.

Some nodes keep intermediates that are no tensor of the user's: layer_norm's and batch_norm's
mean and rstd, the LU factors and pivots of det / slogdet / solve, the copy of ``self`` that
``mul_`` keeps. PyTorch's saved variables all carry a version counter: a write through the
tensor ``_saved_<name>`` returns (or through a view of it) makes the next backward raise its
version error, with no "which is output" clause. minigrad once handed out a tensor sharing the
buffer with a fresh counter, and backward then computed silently with the written value (a
wrong gradient). Each program runs in both libraries; the outcome (the gradients, or the
error's type and text) must be the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minigrad


def _outcome(program: Callable[[Any], Any], lib: Any) -> Any:
    try:
        value = program(lib)
    except Exception as error:  # noqa: BLE001 - the outcome compared is the error itself
        return ("error", type(error).__name__, str(error).replace("minigrad", "torch"))
    # (rounded: the libraries' float32 kernels differ in the last bits)
    return ("value", [None if v is None else v.detach().double().numpy().round(4).tolist()
                      for v in value])


def _layer_norm(stat: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = lib.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
        y = lib.nn.functional.layer_norm(x, (3,))
        getattr(y.grad_fn, f"_saved_{stat}").mul_(0)
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return (x.grad,)

    return program


def _batch_norm(stat: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        x = lib.tensor([[1.0, 2.0, 0.5], [3.0, 1.0, 2.0]], requires_grad=True)
        y = lib.nn.functional.batch_norm(x, None, None, training=True)
        getattr(y.grad_fn, f"_saved_{stat}")[0].mul_(0)  # (through a view of it)
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return (x.grad,)

    return program


def _matrix() -> tuple[list[list[float]], list[list[float]]]:
    return [[2.0, 1.0], [1.0, 3.0]], [[1.0], [2.0]]


def _det(lib: Any) -> Any:
    x = lib.tensor(_matrix()[0], requires_grad=True)
    y = lib.linalg.det(x)
    y.grad_fn._saved_LU.mul_(2)
    y.backward()
    return (x.grad,)


def _slogdet(lib: Any) -> Any:
    x = lib.tensor(_matrix()[0], requires_grad=True)
    y = lib.linalg.slogdet(x)[1]
    y.grad_fn._saved_LU[0, 0] = 7.0
    y.backward()
    return (x.grad,)


def _solve(name: str) -> Callable[[Any], Any]:
    def program(lib: Any) -> Any:
        a, b = (lib.tensor(m, requires_grad=True) for m in _matrix())
        y = lib.linalg.solve(a, b)
        getattr(y.grad_fn, f"_saved_{name}").mul_(2)
        y.sum().backward()
        return (a.grad, b.grad)

    return program


def _mul_inplace_self(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    z = lib.tensor([3.0, 4.0], requires_grad=True)
    y = x * 1
    y.mul_(z)
    y.grad_fn._saved_self.mul_(0)
    y.sum().backward()
    return (x.grad, z.grad)


def _read_back(lib: Any) -> Any:
    """Two reads share buffer and counter; reading after a write raises, as unpacking does."""
    x = lib.tensor(_matrix()[0], requires_grad=True)
    node = lib.linalg.det(x).grad_fn
    first = node._saved_LU
    versions = (first._version, node._saved_LU._version)
    first.add_(1)
    return (lib.tensor(versions), node._saved_LU)


def _unwritten(lib: Any) -> Any:
    """Reading alone changes nothing: backward runs, twice with retain_graph."""
    x = lib.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
    y = lib.nn.functional.layer_norm(x, (3,))
    rstd = y.grad_fn._saved_result2
    (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward(retain_graph=True)
    (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    return (x.grad, rstd)


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "layer_norm_mean": _layer_norm("result1"),
    "layer_norm_rstd": _layer_norm("result2"),
    "batch_norm_mean": _batch_norm("result1"),
    "batch_norm_invstd": _batch_norm("result2"),
    "det_lu": _det,
    "slogdet_lu": _slogdet,
    "solve_lu": _solve("LU"),
    "solve_pivots": _solve("pivots"),
    "mul_inplace_self": _mul_inplace_self,
    "read_back": _read_back,
    "unwritten": _unwritten,
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_private_saved_writes_as_pytorch(name: str) -> None:
    program = PROGRAMS[name]
    assert _outcome(program, minigrad) == _outcome(program, torch)
