"""``dir(grad_fn)`` lists what PyTorch's does: the node's API and the ``_saved_*`` attributes.

Not the slots minigrad's engine keeps on a node nor the options an op declares under its own
names (PyTorch shows those as ``_saved_dim``...). Compared with PyTorch on the public names
and the saved attributes (PyTorch's C++ internals such as ``_input_metadata`` are left out),
and ``requires_grad``'s value.
"""

from __future__ import annotations

from typing import Any

import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _listed(node: Any) -> list[str]:
    return sorted(
        name
        for name in dir(node)
        if not name.startswith("_") or name.startswith(("_saved_", "_raw_saved_"))
    )


PROGRAMS = {
    "mul": lambda lib, a, b: a * b,
    "exp": lambda lib, a, b: a.exp(),
    "sum": lambda lib, a, b: a.sum(),
    "sum_dim": lambda lib, a, b: (a * b).sum(dim=0, keepdim=True),
    "add_alpha": lambda lib, a, b: a.add(b, alpha=2),
    "max": lambda lib, a, b: a.max(),
    "max_dim": lambda lib, a, b: a.max(0)[0],
    "linear": lambda lib, a, b: lib.nn.functional.linear(a[None], b[None]),
    "softmax": lambda lib, a, b: a.softmax(0),
    "accumulator": lambda lib, a, b: (a * 2).grad_fn.next_functions[0][0],
    "copy_slices": lambda lib, a, b: _copy_slices(a, b),
}


def _copy_slices(a: Any, b: Any) -> Any:
    x = a.clone()
    x[0] = b[0] * 2
    return x


@parametrize_in_one("name", list(PROGRAMS))
def test_node_listing_as_pytorch(name: str) -> None:
    listings = []
    for lib in (minigrad, torch):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        result = PROGRAMS[name](lib, a, b)
        node = result.grad_fn if hasattr(result, "grad_fn") else result
        listings.append((_listed(node), node.requires_grad))
    assert listings[0] == listings[1]


def test_a_custom_functions_node_lists_its_ctx_notes() -> None:
    listings = []
    for lib in (minigrad, torch):

        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.save_for_backward(x)
                ctx.factor = 2
                return x * 2

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return grad * ctx.factor

        node = Double.apply(lib.tensor([1.0], requires_grad=True)).grad_fn
        listings.append(set(dir(node)))
    mine, theirs = listings
    ctx_api = {
        "factor",
        "_raw_saved_tensors",
        "saved_tensors",
        "save_for_backward",
        "mark_dirty",
        "mark_non_differentiable",
        "needs_input_grad",
        "set_materialize_grads",
        "metadata",
        "name",
        "next_functions",
    }
    assert ctx_api <= mine and ctx_api <= theirs
    assert not {name for name in mine if name.startswith("_") and not name.startswith("__")} - {
        "_raw_saved_tensors",
        "_sequence_nr",
    }
