"""The general rule, as a sweep: misuse of any op gets PyTorch's exception and changes nothing.

For every row of the op table (every public function and method it covers), the first sample is
a valid call; ``misuse.variants`` changes one argument at a time to a value of the wrong type
(str, None, an object), a tensor of the wrong dtype (bool, int64) or shape, or a Python value
out of range or of the wrong kind. Each bad call runs in minigrad and in PyTorch 2.13:

- PyTorch raises: minigrad raises the same exception type, and every tensor argument keeps its
  values, version, ``requires_grad`` and ``.grad``; where PyTorch's message lists the overloads
  of a function minigrad lists them for, minigrad's message is PyTorch's;
- PyTorch accepts the call: minigrad accepts it too, with the same result.

The differences still left are listed, each with what differs, in
``misuse_known_differences.txt``: a listed one that reappears in another form, or a new one,
fails; so does a listed one that is gone (the list only shrinks).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from misuse import Snapshot, outcome, same_results, tensors_in, to_lib, variants
from opinfo import OpInfo, Sample, all_ops
from test_ops import row_samples

import minigrad
from minigrad import _arguments

torch = pytest.importorskip("torch")


def row(name: str, call: Any, *args: Any, **kwargs: Any) -> OpInfo:
    """A row for an API the op table does not cover: one valid call."""
    return OpInfo(name, call, lambda rng: [Sample(args, kwargs)])


VECTOR = np.array([0.5, -1.5, 2.0])
MATRIX = np.arange(6.0).reshape(2, 3) - 2.5
# Creation, autograd and tensor-state API: one valid call each (arrays become tensors).
API_ROWS = [
    row("zeros", lambda lib, size: lib.zeros(size), (2, 3)),
    row("ones", lambda lib, size: lib.ones(size), (2, 3)),
    row("ones_varargs", lambda lib, a, b: lib.ones(a, b), 2, 3),
    row("full", lambda lib, size, value: lib.full(size, value), (2, 3), 1.5),
    row("arange", lambda lib, start, end, step: lib.arange(start, end, step), 0, 6, 2),
    row("linspace", lambda lib, start, end, steps: lib.linspace(start, end, steps), 0.0, 1.0, 5),
    row("logspace", lambda lib, start, end, steps: lib.logspace(start, end, steps), 0.0, 1.0, 5),
    row("eye", lambda lib, n, m: lib.eye(n, m), 3, 4),
    row("zeros_like", lambda lib, x: lib.zeros_like(x), MATRIX),
    row("ones_like", lambda lib, x: lib.ones_like(x), MATRIX),
    row("full_like", lambda lib, x, value: lib.full_like(x, value), MATRIX, 2.5),
    row("tensor", lambda lib, data, requires_grad: lib.tensor(data, requires_grad=requires_grad),
        [1.0, 2.0], True),
    row("from_numpy", lambda lib, array: lib.from_numpy(np.asarray(array)), VECTOR),
    row("rand", lambda lib, size: lib.rand(size).shape, (2, 3)),
    row("randn", lambda lib, size: lib.randn(size).shape, (2, 3)),
    row("randint", lambda lib, low, high, size: lib.randint(low, high, size).shape, 0, 5, (3,)),
    row("randperm", lambda lib, n: lib.randperm(n).sort().values, 5),
    row("new_zeros", lambda lib, x, size: x.new_zeros(size), VECTOR, (2, 2)),
    row("new_full", lambda lib, x, size, value: x.new_full(size, value), VECTOR, (2,), 3.0),
    row("new_tensor", lambda lib, x, data: x.new_tensor(data), VECTOR, [1.0, 2.0]),
    row("requires_grad_", lambda lib, x, flag: x.detach().requires_grad_(flag), VECTOR, True),
    row("backward", lambda lib, x, grad: (x * 2).backward(grad), VECTOR, VECTOR),
    row("backward_retain", lambda lib, x, retain: (x * 2).sum().backward(retain_graph=retain),
        VECTOR, True),
    row("autograd_grad", lambda lib, x, g: lib.autograd.grad(x * 3, x, g), VECTOR, VECTOR),
    row("autograd_backward", lambda lib, x, g: lib.autograd.backward(x * 3, g), VECTOR, VECTOR),
    row("fill_", lambda lib, x, value: x.detach().fill_(value), VECTOR, 2.0),
    row("copy_", lambda lib, x, src: x.detach().copy_(src), VECTOR, VECTOR),
    row("masked_fill", lambda lib, x, mask, value: x.masked_fill(mask, value), VECTOR,
        np.array([True, False, True]), 0.0),
    row("size", lambda lib, x, dim: x.size(dim), MATRIX, 1),
    row("view", lambda lib, x, a, b: x.view(a, b), MATRIX, 3, 2),
    row("expand", lambda lib, x, a, b: x.expand(a, b), VECTOR, 2, 3),
    row("split", lambda lib, x, size, dim: x.split(size, dim), MATRIX, 1, 1),
    row("chunk", lambda lib, x, chunks, dim: x.chunk(chunks, dim), MATRIX, 2, 1),
    row("transpose", lambda lib, x, a, b: x.transpose(a, b), MATRIX, 0, 1),
    row("unsqueeze", lambda lib, x, dim: x.unsqueeze(dim), VECTOR, 0),
    row("squeeze", lambda lib, x, dim: x.unsqueeze(0).squeeze(dim), VECTOR, 0),
    row("narrow", lambda lib, x, dim, start, length: x.narrow(dim, start, length), MATRIX, 1, 0,
        2),
    row("to_dtype", lambda lib, x, name: x.to(getattr(lib, name)), VECTOR, "float64"),
    row("index_select_method", lambda lib, x, dim, index: x.index_select(dim, index), MATRIX, 1,
        np.array([0, 2])),
]
# Rows the sweep leaves out, each with why: their misuse crashes PyTorch itself.
NOT_SWEPT = {
    # (an h_0 and a c_0 of mismatched shapes reach its native kernel unchecked: a segfault;
    # tests_torch/test_toplevel_rnn_torch.py checks its errors on chosen misuse instead)
    "lstm": "PyTorch's lstm crashes on states of mismatched shapes",
}
ROWS = [row for row in all_ops() if row.name not in NOT_SWEPT] + API_ROWS


def describe(row: OpInfo, where: str, what: str) -> str:
    return f"{row.name}: {where} <- {what}"


def check_variant(row: OpInfo, variant: Any) -> str | None:
    """None if minigrad behaves as PyTorch on this bad call, else what differs."""

    def build(lib: Any) -> tuple[list[Any], dict[str, Any]]:
        args = [to_lib(lib, v, "float32", True) for v in variant.args]
        kwargs = {k: to_lib(lib, v, "float32", False) for k, v in variant.kwargs.items()}
        return args, kwargs

    t_args, t_kwargs = build(torch)
    theirs, t_error = outcome(lambda: row.call(torch, *t_args, **t_kwargs))
    m_args, m_kwargs = build(minigrad)
    inputs = tensors_in(m_args) + tensors_in(m_kwargs.values())
    before = [Snapshot.of(t) for t in inputs]
    mine, m_error = outcome(lambda: row.call(minigrad, *m_args, **m_kwargs))
    label = describe(row, variant.where, variant.what)
    if t_error is not None:
        if m_error is None:
            return f"{label}: PyTorch raises {type(t_error).__name__}, minigrad does not"
        if type(m_error).__name__ != type(t_error).__name__:
            return (f"{label}: {type(m_error).__name__}({str(m_error)[:80]!r}) instead of "
                    f"{type(t_error).__name__}({str(t_error)[:80]!r})")
        after = [Snapshot.of(t) for t in inputs]
        if not all(b.same_as(a) for b, a in zip(before, after)):
            return f"{label}: the failed call changed an input"
        expected = str(t_error).replace("torch.", "minigrad.")
        if _listed_by_minigrad(expected) and str(m_error) != expected:
            return f"{label}: not PyTorch's listing of the overloads:\n{m_error}\n{expected}"
        return None
    if m_error is not None:
        return f"{label}: PyTorch accepts; minigrad raises {type(m_error).__name__}: {m_error}"
    if not same_results(mine, theirs):
        return f"{label}: another result than PyTorch's"
    return None


_LISTING = re.compile(r"(\w+)\(\) received an invalid combination of arguments")


def _listed_by_minigrad(message: str) -> bool:
    """Whether ``message`` is the parser's listing for a function minigrad lists it for.

    minigrad/_arguments.py gives PyTorch's listing of the overloads (its message) to a call
    that fits none, for the functions and methods it declares or reads overloads of
    (_arguments.LISTING_NAMES): those messages must be PyTorch's, word for word (the group
    tests_torch/misuse_messages.py found largest and this fixed).
    """
    match = _LISTING.match(message)
    return match is not None and match.group(1) in _arguments.LISTING_NAMES


def known_differences() -> dict[str, str]:
    """The differences left (``misuse_known_differences.txt``): label -> what differs."""
    known = {}
    for line in KNOWN_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, _, what = line.partition("  # ")
            known[label] = what
    return known


KNOWN_FILE = Path(__file__).with_name("misuse_known_differences.txt")
KNOWN = known_differences()


@parametrize_in_one("row", ROWS, ids=[row.name for row in ROWS],
                    per_test=60)
def test_misuse_of_op(row: OpInfo) -> None:
    sample = row_samples(row)[0]
    problems = {}
    for variant in variants(sample.args, sample.kwargs):
        problem = check_variant(row, variant)
        if problem is not None:
            problems[describe(row, variant.where, variant.what)] = problem
    new = [problem for label, problem in problems.items() if label not in KNOWN]
    assert not new, "\n".join(new)
    # A listed difference that is gone must leave the list, so that it cannot come back.
    prefix = f"{row.name}: "
    fixed = [label for label in KNOWN if label.startswith(prefix) and label not in problems]
    assert not fixed, "now as in PyTorch (remove from the list): " + ", ".join(fixed)
