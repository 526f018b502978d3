"""In-place scaled products (addmm_, addbmm_, baddbmm_, addr_, addmv_) whose ``self`` has
another shape than the product, against PyTorch 2.13, live.

PyTorch's ``addbmm_`` writes through its out= kernel and resizes a ``self`` that broadcasts to
the product (a 3-vector becomes 2 x 3, with its history continuing); the others refuse, each
with its own message and in its own order of checks. (The op table's ``addbmm_resizing`` row
gradchecks the resized form.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _ones(lib: Any, *shape: int) -> Any:
    return lib.ones(shape, dtype=lib.float64)


# name: an in-place call on ``self`` of the given shape
CALLS: dict[str, Callable[[Any], Any]] = {
    "addmm_vector": lambda lib: _ones(lib, 3).addmm_(_ones(lib, 2, 4), _ones(lib, 4, 3)),
    "addmm_0d": lambda lib: _ones(lib).addmm_(_ones(lib, 2, 4), _ones(lib, 4, 3)),
    "addmm_not_broadcastable": lambda lib: _ones(lib, 3, 3).addmm_(
        _ones(lib, 2, 4), _ones(lib, 4, 3)
    ),
    "addmm_more_dims": lambda lib: _ones(lib, 4, 2, 3).addmm_(_ones(lib, 2, 4), _ones(lib, 4, 3)),
    "addmm_bool_before_bool_check": lambda lib: lib.ones((3, 3), dtype=lib.bool).addmm_(
        lib.ones((2, 4), dtype=lib.bool), lib.ones((4, 3), dtype=lib.bool)
    ),
    "addbmm_vector": lambda lib: _ones(lib, 3).addbmm_(_ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3)),
    "addbmm_row": lambda lib: _ones(lib, 1, 3).addbmm_(
        _ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3), beta=2
    ),
    "addbmm_0d": lambda lib: _ones(lib).addbmm_(_ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3)),
    "addbmm_not_broadcastable": lambda lib: _ones(lib, 3, 1).addbmm_(
        _ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3)
    ),
    "baddbmm_broadcastable": lambda lib: _ones(lib, 2, 3).baddbmm_(
        _ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3)
    ),
    "baddbmm_not_broadcastable": lambda lib: _ones(lib, 4, 2, 3).baddbmm_(
        _ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3)
    ),
    "addr_0d": lambda lib: _ones(lib).addr_(_ones(lib, 2), _ones(lib, 3)),
    "addr_vector": lambda lib: _ones(lib, 3).addr_(_ones(lib, 2), _ones(lib, 3)),
    "addr_3d": lambda lib: _ones(lib, 1, 2, 3).addr_(_ones(lib, 2), _ones(lib, 3)),
    "addr_column": lambda lib: _ones(lib, 2, 1).addr_(_ones(lib, 2), _ones(lib, 3)),
    "addmv_0d": lambda lib: _ones(lib).addmv_(_ones(lib, 2, 4), _ones(lib, 4)),
}


def _outcome(call: Callable[[Any], Any], lib: Any) -> tuple[Any, ...]:
    try:
        result = call(lib)
    except RuntimeError as error:
        return ("RuntimeError", str(error))
    return ("ok", tuple(result.shape), result.stride(), result._version, result.tolist())


@parametrize_in_one("name", list(CALLS))
def test_outcome_as_pytorch(name: str) -> None:
    assert _outcome(CALLS[name], minigrad) == _outcome(CALLS[name], torch)


def test_resized_addbmm_keeps_the_tensor_and_its_history() -> None:
    described = []
    for lib in (minigrad, torch):
        leaf = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        batch1 = _ones(lib, 5, 2, 4).requires_grad_()
        target = leaf.clone()
        target.retain_grad()
        result = target.addbmm_(batch1, _ones(lib, 5, 4, 3), beta=2)
        (result * lib.arange(6.0, dtype=lib.float64).view(2, 3)).sum().backward()
        described.append(
            (
                result is target,
                tuple(target.shape),
                target.grad_fn.name(),
                [node.name() for node, _ in target.grad_fn.next_functions if node is not None],
                leaf.grad.tolist(),
                target.grad.tolist(),
                batch1.grad.sum().item(),
            )
        )
    assert described[0] == described[1]


def test_resizing_a_leaf_that_requires_grad_is_refused_and_changes_nothing() -> None:
    messages = []
    for lib in (minigrad, torch):
        leaf = _ones(lib, 3).requires_grad_()
        with pytest.raises(RuntimeError) as caught:
            leaf.addbmm_(_ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3))
        messages.append(str(caught.value))
        assert (tuple(leaf.shape), leaf._version) == ((3,), 0)
    assert messages[0] == messages[1]


def test_resizing_under_no_grad() -> None:
    outcomes = []
    for lib in (minigrad, torch):
        target = _ones(lib, 3).requires_grad_().clone()
        with lib.no_grad():
            target.addbmm_(_ones(lib, 5, 2, 4), _ones(lib, 5, 4, 3))
        outcomes.append((tuple(target.shape), target.grad_fn.name(), target._version))
        np.testing.assert_array_equal(target.detach().numpy(), np.full((2, 3), 21.0))
    assert outcomes[0] == outcomes[1]
