"""``grad_fn._saved_*`` against PyTorch 2.13, for every op-table row.

For every differentiable row and sample, the same call runs in both libraries (float64); then
the two backward graphs are walked side by side from the output, as far as their nodes have the
same names, and at each node:

- the ``_saved_*`` and ``_raw_saved_*`` attribute names listed by ``dir(grad_fn)`` are
  PyTorch's (less the documented gaps below);
- each saved tensor has PyTorch's value, dtype and shape, and is the same object where
  PyTorch's is (an input comes back as the input itself); a saved output shares the output's
  memory; a value PyTorch did not save is None in both;
- each saved option (``_saved_dim``, ``_saved_alpha``, ``_saved_self_sym_sizes`` ...) has
  PyTorch's value;
- after backward, reading a saved tensor raises PyTorch's error in both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from opinfo import OpInfo, Sample, all_ops
from test_ops import build_args, call, iter_cases

import minigrad

torch = pytest.importorskip("torch")

ROWS = [row for row in all_ops() if row.differentiable]

# What PyTorch keeps that minigrad's backward formulas do not use, so minigrad cannot show it:
# PyTorch's LU-based determinant and solve keep the factorization, log_sigmoid a buffer, the
# pooling ops their indices or options. Keyed by node name: the attribute names minigrad lacks.
KNOWN_GAPS: dict[str, set[str]] = {}


def saved_names(node: Any) -> set[str]:
    """The saved-value attributes ``dir(node)`` lists."""
    return {name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_"))}


def expected_names(node: Any) -> set[str]:
    gaps = KNOWN_GAPS.get(node.name(), set())
    return saved_names(node) - {f"_saved_{gap}" for gap in gaps} - {
        f"_raw_saved_{gap}" for gap in gaps
    }


def signed(value: Any) -> Any:
    """PyTorch's bindings show a negative int64 option as its unsigned wrap-around
    (-1 -> 18446744073709551615); the signed value is what the user passed."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value >= 2**63:
        return value - 2**64
    if isinstance(value, tuple):
        return tuple(signed(item) for item in value)
    return value


def same_dims(mine: Any, theirs: Any) -> bool:
    """True if ``mine`` is ``theirs`` with negative dims counted from the end of one rank.

    PyTorch keeps a dim as passed (``-1``); minigrad keeps it normalized (``1`` for a 2-d
    input), which the backward formulas need anyway.
    """
    mine_items = mine if isinstance(mine, tuple) else (mine,)
    theirs_items = theirs if isinstance(theirs, tuple) else (theirs,)
    if len(mine_items) != len(theirs_items):
        return False
    ranks = set()
    for m, t in zip(mine_items, theirs_items):
        if type(m) is not int or type(t) is not int:
            return False
        if t < 0:
            ranks.add(m - t)
        elif m != t:
            return False
    return len(ranks) <= 1 and all(rank > 0 for rank in ranks)


def assert_same_option(mine: Any, theirs: Any, what: str) -> None:
    theirs = signed(theirs)
    if isinstance(theirs, float) and isinstance(mine, float):
        assert mine == pytest.approx(theirs, rel=1e-12), what
        return
    if mine == theirs and type(mine) is type(theirs):
        return
    assert same_dims(mine, theirs), f"{what}: minigrad {mine!r}, PyTorch {theirs!r}"


def assert_same_tensor(mine: Any, theirs: Any, context: dict[str, Any], what: str) -> None:
    assert isinstance(mine, minigrad.Tensor), f"{what}: {mine!r}"
    assert str(mine.dtype) == str(theirs.dtype).replace("torch.", "minigrad."), what
    assert tuple(mine.shape) == tuple(theirs.shape), what
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-7,
                               atol=1e-9, err_msg=what)
    for m_input, t_input in zip(context["m_inputs"], context["t_inputs"]):
        if theirs is t_input:
            assert mine is m_input, f"{what}: PyTorch gives back the input itself"


def compare_nodes(m_node: Any, t_node: Any, context: dict[str, Any], seen: set[int]) -> None:
    """Compare the two nodes, then their children with the same names."""
    if id(t_node) in seen or m_node.name() != t_node.name():
        return
    seen.add(id(t_node))
    name = t_node.name()
    assert saved_names(m_node) == expected_names(t_node), name
    for attribute in sorted(expected_names(t_node)):
        if attribute.startswith("_raw_saved_"):
            continue
        what = f"{name}.{attribute}"
        theirs = getattr(t_node, attribute)
        mine = getattr(m_node, attribute)
        if theirs is None:
            assert mine is None, what
        elif isinstance(theirs, torch.Tensor):
            assert_same_tensor(mine, theirs, context, what)
        else:
            assert_same_option(mine, theirs, what)
    for (m_child, _), (t_child, _) in zip(m_node.next_functions, t_node.next_functions):
        if m_child is not None and t_child is not None:
            compare_nodes(m_child, t_child, context, seen)


def first_saved_tensor(node: Any) -> str | None:
    return next((name for name in sorted(saved_names(node)) if name.startswith("_raw_saved_")),
                None)


@pytest.mark.parametrize(("row", "sample"), list(iter_cases(ROWS)))
def test_saved_values_match_pytorch(row: OpInfo, sample: Sample) -> None:
    m_args, m_kwargs, _ = build_args(minigrad, row, sample, "float64")
    t_args, t_kwargs, _ = build_args(torch, row, sample, "float64")
    try:
        theirs = call(torch, row, t_args, t_kwargs)
    except Exception as error:  # noqa: BLE001 - the forward tests compare the errors
        with pytest.raises(type(error)):
            call(minigrad, row, m_args, m_kwargs)
        return
    mine = call(minigrad, row, m_args, m_kwargs)
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if theirs.grad_fn is None:
        return
    context = {"m_inputs": [*m_args, *m_kwargs.values()],
               "t_inputs": [*t_args, *t_kwargs.values()]}
    compare_nodes(mine.grad_fn, theirs.grad_fn, context, set())

    # after backward, the saved tensors are freed: reading one raises PyTorch's error
    attribute = first_saved_tensor(theirs.grad_fn)
    if attribute is None or mine.grad_fn.name() != theirs.grad_fn.name():
        return
    attribute = attribute.replace("_raw_saved_", "_saved_")
    theirs.backward(torch.ones_like(theirs))
    mine.backward(minigrad.ones_like(mine))
    with pytest.raises(RuntimeError) as t_info:
        getattr(theirs.grad_fn, attribute)
    with pytest.raises(RuntimeError) as m_info:
        getattr(mine.grad_fn, attribute)
    assert str(m_info.value) == str(t_info.value)
