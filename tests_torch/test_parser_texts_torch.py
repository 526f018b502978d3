"""Calls that fit none of a function's signatures get PyTorch's parser texts, against torch live.

Python's own binding errors name the function by its qualified name and count ``self``
(``Tensor.softmax() missing 1 required positional argument: 'dim'``); PyTorch's parser names it
as the user called it, without ``self``, and lists the overloads of a function that has several
(``squeeze``, ``narrow``, ``sum``). minigrad/_arguments.py rewrites the first and lists the
second from its declarations (LISTED, KEEPDIM_NEEDS_DIM).
"""

from __future__ import annotations

from typing import Any

import pytest

import minigrad
import minigrad.nn.functional as minigrad_functional

torch = pytest.importorskip("torch")
torch_functional = pytest.importorskip("torch.nn.functional")

CALLS = [
    # squeeze and narrow: several overloads, listed (with invalid_arguments.cpp's notes)
    "x.squeeze(keepdim=True)", "x.squeeze(0, keepdim=True)", "x.squeeze(foo=1)",
    "x.squeeze(None)", "x.squeeze(dim=None)", "x.squeeze(1.5)", "x.squeeze(dim=None, foo=1)",
    "lib.squeeze(x, keepdim=True)", "lib.squeeze(x, None)",
    # ... the method takes its dims one by one (the function does not): "failed to unpack"
    "x.squeeze(0, 1.5)", "x.squeeze(0, None)", "x.squeeze(0, 'a', 'b')", "x.squeeze(1.5, 0)",
    "x.squeeze(True, 0)", "x.squeeze((0,), 1)", "x.squeeze(0, dim=1)", "lib.squeeze(x, 0, 1)",
    "x.squeeze(None, 1)",
    "x.narrow(0)", "x.narrow()", "x.narrow(0, 0)", "x.narrow(0, 0, 1, 1)", "x.narrow(dim=0)",
    "x.narrow(0, 'a', 1)", "x.narrow(0, 0, 1.5)", "lib.narrow(x, 0)",
    # softmax and log_softmax: one signature (Tensor.softmax, minigrad.softmax; the functional
    # form calls the method, as PyTorch's does)
    "x.softmax()", "x.log_softmax()", "lib.softmax(x)", "lib.log_softmax(x)", "lib.softmax()",
    "x.softmax(dtype=lib.float64)", "x.softmax(0, None, 1)", "x.softmax(None)",
    "x.softmax('a')", "lib.softmax(x, None)", "x.softmax(0, 1)", "lib.softmax(x, 0, 1)",
    "x.softmax(dim=0, foo=1)", "x.log_softmax(1.5)", "F.softmax(x, 1.5)", "F.softmax(x, 'a')",
    "F.log_softmax(x, (0,))",
    # Python's other binding errors, in the parser's words
    "x.amin(foo=1)", "lib.amin(x, foo=1)", "x.amin(0, True, 1)", "lib.amin(x, 0, True, 1)",
    "x.amax(0, dim=0)", "x.logsumexp(0, True, 1)", "lib.logsumexp(x, 0, True, 1, 2)",
    "x.sum(foo=1)", "x.mean(0, foo=1)",
    # in-place comparisons: a Tensor and a Number overload
    "x.detach().eq_('a')", "x.detach().greater_()", "x.detach().lt_(1, 2)",
    "x.detach().ne_(other='a')", "x.detach().le_(None)", "lib.greater(x, 'a')",
    "x.not_equal(None)",
]


def _outcome(call: str, lib: Any, functional: Any) -> tuple[str, str]:
    x = lib.ones(2, 3, requires_grad=True)
    try:
        result = eval(call, {"lib": lib, "F": functional, "x": x})  # noqa: S307 - fixed texts
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    return "result", repr(result.detach()).replace("torch.", "minigrad.")


@pytest.mark.parametrize("call", CALLS)
def test_parser_text_as_pytorch(call: str) -> None:
    theirs = _outcome(call, torch, torch_functional)
    assert theirs[0] == "TypeError"  # (so the test cannot pass by two results)
    assert _outcome(call, minigrad, minigrad_functional) == theirs
