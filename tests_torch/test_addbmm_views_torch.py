"""``addbmm_`` on views, compared live with PyTorch 2.13.

PyTorch writes ``addbmm_`` through its ``out=`` kernel. A view of the product's shape (a row,
a transposed view, a slice) is written in place through the view. A view that only broadcasts
to it is resized first, inside its base's memory (row-major from where it starts), then gets
``beta`` times its old values broadcast (copied in the kernel's order: where that copy reads
memory it already wrote, the new values) plus the product; the base's history takes a
``CopySlices`` and the view's an ``AsStridedBackward0``; the op's gradient for the view goes
into the new region as it is. Compared: the outcome (PyTorch's exception and text), the view's
geometry and values, the base's values, versions and nodes, and the gradients through the base
and through the view. (A view whose resize needs more memory than its base has, which PyTorch
grows, is refused: docs/api.md.)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

# (base shape, view, batch1 shape, batch2 shape, beta, how the base is made)
CASES = {
    "row": ((3, 2, 2), "b[0]", (2, 2, 3), (2, 3, 2), 1.0, "grad"),
    "transposed": ((2, 2), "b.t()", (2, 2, 3), (2, 3, 2), 0.5, "grad"),
    "columns": ((2, 4), "b[:, :2]", (2, 2, 3), (2, 3, 2), 1.0, "grad"),
    "view_of_view": ((3, 2, 2), "b[1].t()", (2, 2, 3), (2, 3, 2), 2.0, "grad"),
    "resized_row": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 0.5, "grad"),
    "resized_row_no_grad_batches": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 0.5, "grad_base"),
    "resized_row_beta0": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 0.0, "grad"),
    "resized_1x2": ((3, 2), "b[:1]", (2, 2, 3), (2, 3, 2), 1.0, "grad"),
    "resized_2x1": ((2, 3), "b[:, :1]", (2, 2, 3), (2, 3, 2), 1.0, "grad"),
    "resized_offset": ((4,), "b[1:3]", (2, 1, 3), (2, 3, 2), 1.0, "grad"),
    "resized_same_numel": ((3,), "b[:1]", (2, 2, 3), (2, 3, 1), 1.0, "grad"),
    "resized_strided_reads_written": ((6,), "b[::2]", (2, 2, 3), (2, 3, 3), 1.0, "grad"),
    "resized_column": ((3, 2), "b[:, 0]", (2, 1, 3), (2, 3, 3), 1.0, "grad"),
    "resized_0d_beta0": ((3,), "b[0]", (2, 1, 3), (2, 3, 1), 0.0, "grad"),
    "resized_base_without_grad": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 1.0, "plain"),
    "resized_nothing_requires_grad": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 1.0, "none"),
    "resized_under_no_grad": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 1.0, "no_grad"),
    # errors
    "resized_0d_overlap": ((3,), "b[0]", (2, 1, 3), (2, 3, 1), 1.0, "grad"),
    "resized_strided_1_overlap": ((3, 2), "b[:1, 0]", (2, 1, 3), (2, 3, 1), 1.0, "grad"),
    "resized_view_of_leaf": ((3, 2), "b[0]", (2, 2, 3), (2, 3, 2), 1.0, "leaf"),
    "expanded": ((2,), "b.expand(2, 2)", (2, 2, 3), (2, 3, 2), 1.0, "grad"),
    "not_broadcastable": ((3, 2), "b[:, 0]", (2, 3, 3), (2, 3, 1), 1.0, "grad"),
}


def _run(lib: Any, case: str) -> dict[str, Any]:
    base_shape, view, b1_shape, b2_shape, beta, kind = CASES[case]
    count = math.prod(base_shape)
    leaf = lib.arange(1.0, count + 1).reshape(base_shape)
    leaf.requires_grad_(kind in ("grad", "grad_base", "leaf"))
    base = leaf if kind == "leaf" else leaf * 1
    v = eval(view, {"b": base})  # noqa: S307 - the views above
    batches_need = kind in ("grad", "plain", "leaf", "no_grad")
    b1 = (lib.arange(1.0, math.prod(b1_shape) + 1).reshape(b1_shape) / 10).requires_grad_(
        batches_need
    )
    b2 = (lib.arange(1.0, math.prod(b2_shape) + 1).reshape(b2_shape) / 7).requires_grad_(
        batches_need
    )
    versions = (v._version, base._version)
    try:
        if kind == "no_grad":
            with lib.no_grad():
                out = v.addbmm_(b1, b2, beta=beta, alpha=1.5)
        else:
            out = v.addbmm_(b1, b2, beta=beta, alpha=1.5)
    except Exception as error:  # noqa: BLE001 - the error is compared
        return {
            "error": (type(error).__name__, str(error).replace("torch", "minigrad")),
            "versions": (v._version, base._version, *versions),
            "base": base.detach().numpy().copy(),
            # (PyTorch may have resized the view before its copy's overlap check failed;
            # minigrad's failed op changes nothing: docs/api.md)
            "unchanged_view": lib is torch
            or tuple(v.shape) == tuple(eval(view, {"b": base}).shape),
        }
    found: dict[str, Any] = {
        "same": out is v,
        "view": (tuple(v.shape), v.stride(), v.storage_offset()),
        "values": (v.detach().numpy().copy(), base.detach().numpy().copy()),
        "versions": (v._version, base._version, *versions),
        "nodes": tuple(None if t.grad_fn is None else t.grad_fn.name() for t in (v, base)),
    }
    leaves = [t for t in (leaf, b1, b2) if t.requires_grad and t.is_leaf]
    for name, target in (("through_base", base), ("through_view", v)):
        if not target.requires_grad:
            continue
        weights = lib.arange(1.0, target.numel() + 1).reshape(target.shape)
        grads = lib.autograd.grad(
            (target * weights).sum(), leaves, retain_graph=True, allow_unused=True
        )
        found[name] = [None if g is None else g.numpy() for g in grads]
    return found


def _same(mine: Any, theirs: Any) -> bool:
    if isinstance(theirs, np.ndarray):
        return isinstance(mine, np.ndarray) and np.allclose(mine, theirs, rtol=1e-5)
    if isinstance(theirs, (list, tuple)):
        return len(mine) == len(theirs) and all(map(_same, mine, theirs))
    return mine == theirs


@parametrize_in_one("case", list(CASES))
def test_addbmm_on_a_view_as_pytorch(case: str) -> None:
    mine, theirs = _run(minigrad, case), _run(torch, case)
    assert mine.get("unchanged_view", True)
    assert mine.keys() == theirs.keys(), (mine, theirs)
    for key in theirs:
        assert _same(mine[key], theirs[key]), (key, mine[key], theirs[key])


def test_a_view_whose_resize_needs_more_memory_is_refused() -> None:
    """PyTorch grows the base's memory (and then fails in backward); minigrad refuses."""
    base = minigrad.ones(3, 2)
    view = base[2]
    with pytest.raises(RuntimeError, match="Bad in-place call"):
        view.addbmm_(minigrad.ones(2, 2, 3), minigrad.ones(2, 3, 2))
    assert (tuple(view.shape), view._version, base.tolist()) == ((2,), 0, [[1.0, 1.0]] * 3)
