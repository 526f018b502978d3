"""Calls that fit none of a function's signatures get PyTorch's parser texts, against torch live.

Python's own binding errors name the function by its qualified name and count ``self``
(``Tensor.softmax() missing 1 required positional argument: 'dim'``); PyTorch's parser names it
as the user called it, without ``self``, and lists the overloads of a function that has several
(``squeeze``, ``narrow``, ``sum``). minigrad/_arguments.py rewrites the first and lists the
second from its declarations (LISTED, KEEPDIM_NEEDS_DIM). A few of PyTorch's functions are
Python, whose own errors come first (``tensordot``'s ``a.dim()``).
"""

from __future__ import annotations

from typing import Any

import pytest
from _cases import parametrize_in_one

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
    # int lists: the parser checks the first item's type; the others must only convert (a bool
    # does), else "failed to unpack" (counted from 1). The method takes the sizes one by one too
    # (the first an int); the function wants a sequence.
    "x.reshape('a')", "x.reshape(None)", "x.reshape(0.5)", "x.reshape(True)", "x.reshape((0.5,))",
    "x.reshape([6, 0.5])", "x.reshape((True, 6))", "x.reshape(6, 'a')", "x.reshape(6, None)",
    "x.reshape(1.5, 4)", "x.reshape(None, 4)", "x.reshape(True, 6)", "x.reshape()",
    "lib.reshape(x, 'a')", "lib.reshape(x, None)", "lib.reshape(x, 6)", "lib.reshape(x, True)",
    "lib.reshape(x, (0.5,))", "lib.reshape(x, ['a', 6])", "lib.reshape(x, (6, 'a'))",
    "lib.reshape(x)", "lib.reshape(x, 2, 3)",
    "x.permute(0, 'a')", "x.permute((0, 'a'))", "x.permute('a', 0)", "x.permute(0.5)",
    "x.permute()", "x.permute(None)", "lib.permute(x, 1, 0)", "lib.permute(x, (1, 0.5))",
    "x.permute((True, 0))", "lib.permute(x, [True, 0])",
    "x.expand('a')", "x.expand(None)", "x.expand(1.5, 4)", "x.expand(2, 'a')", "x.expand(0.5)",
    "x.expand((0.5,))", "x.expand((2, 3, 'a'))",
    # view: two overloads (a dtype, sizes), listed; unless the sizes fit and a later one fails
    "x.view('a')", "x.view(None)", "x.view((0.5,))", "x.view(1.5, 2)", "x.view('a', 2)",
    "x.view(3, 'a')", "x.view(3, None)", "x.view(0.5)", "x.view([6, 'a'])", "x.view((6, 0.5))",
    "x.repeat((2, 'a'))", "x.repeat(('a', 2))", "x.repeat([2, None])",
    "lib.tile(x, (2, 0.5))", "lib.roll(x, (1, 0.5), (0, 1))", "lib.roll(x, 1, (0, 'a'))",
    "x.roll(1, 0.5)", "x.roll(1, 'a')", "x.roll((1, 0.5), (0, 1))", "x.roll(1, (0, 'a'))",
    # split is Python: what is not an int goes to split_with_sizes (function: position 2)
    "x.split(1.5)", "x.split('a')", "x.split(None)", "lib.split(x, 1.5)", "x.split((0.5,))",
    "x.split([2, 'a'])", "lib.split(x, [2, 'a'])", "x.split_with_sizes([2, 0.5])",
    "x.split_with_sizes((0.5,))", "x.split_with_sizes(2)",
    # smooth_l1_loss and huber_loss are Python: their float option reaches the kernel's parser
    "F.smooth_l1_loss(x, x, beta='a')", "F.smooth_l1_loss(x, x, beta=None)",
    "F.huber_loss(x, x, delta='a')", "F.huber_loss(x, x, delta=None)",
    # F.embedding calls torch.embedding(weight, input): the kernel's names and order
    "F.embedding('a', lib.ones(3, 2))", "F.embedding(lib.tensor([0]), 'a')",
    "F.embedding('a', 'b')", "F.embedding(None, lib.ones(3, 2))",
    # F.max_pool2d calls max_pool2d_with_indices when asked for the indices
    "F.max_pool2d(lib.ones(1, 1, 4, 4), 1.5)", "F.max_pool2d(lib.ones(1, 1, 4, 4), 'a', 1)",
    "F.max_pool2d(lib.ones(1, 1, 4, 4), 1.5, return_indices=True)",
    "F.max_pool2d(lib.ones(1, 1, 4, 4), (2, 0.5), return_indices=True)",
    # tensordot is Python: a.dim() fails first on a non-tensor (int dims), else the parser
    "lib.tensordot('a', x)", "lib.tensordot(x, None)", "lib.tensordot(x, x.t(), dims=-1)",
    "lib.tensordot('a', x, dims=([0], [0]))", "lib.tensordot(x, 'a', dims=([0], [0]))",
    # linalg.vector_norm: the parser names its tensor ``input`` (``x`` is taken too); ord a Number
    "lib.linalg.vector_norm('a')", "lib.linalg.vector_norm(None)",
    "lib.linalg.vector_norm(x, 'a')", "lib.linalg.vector_norm(x, None)",
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


@parametrize_in_one("call", CALLS)
def test_parser_text_as_pytorch(call: str) -> None:
    theirs = _outcome(call, torch, torch_functional)
    assert theirs[0] != "result"  # (so the test cannot pass by two results)
    assert _outcome(call, minigrad, minigrad_functional) == theirs
