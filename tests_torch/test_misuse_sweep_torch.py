"""The general rule, as a sweep: misuse of any op gets PyTorch's exception and changes nothing.

For every row of the op table (every public function and method it covers), the first sample is
a valid call; ``misuse.variants`` changes one argument at a time to a value of the wrong type
(str, None, an object), a tensor of the wrong dtype (bool, int64) or shape, or a Python value
out of range or of the wrong kind. Each bad call runs in minigrad and in PyTorch 2.13:

- PyTorch raises: minigrad raises the same exception type, and every tensor argument keeps its
  values, version, ``requires_grad`` and ``.grad``;
- PyTorch accepts the call: minigrad accepts it too, with the same result.
"""

from __future__ import annotations

from typing import Any

import pytest
from misuse import Snapshot, outcome, same_results, tensors_in, to_lib, variants
from opinfo import OpInfo, all_ops
from test_ops import row_samples

import minigrad

torch = pytest.importorskip("torch")

ROWS = all_ops()


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
        return None
    if m_error is not None:
        return f"{label}: PyTorch accepts; minigrad raises {type(m_error).__name__}: {m_error}"
    if not same_results(mine, theirs):
        return f"{label}: another result than PyTorch's"
    return None


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_misuse_of_op(row: OpInfo) -> None:
    sample = row_samples(row)[0]
    problems = [
        problem
        for variant in variants(sample.args, sample.kwargs)
        if (problem := check_variant(row, variant)) is not None
    ]
    assert not problems, "\n".join(problems)
