"""A leaf whose buffer changed shape or dtype between two recordings (``x.data = ...``).

PyTorch's engine checks each gradient against the shape its leaf's accumulator recorded: a
gradient that shape broadcasts to is summed down to it, any other raises "returned an invalid
gradient". A change of dtype makes PyTorch's ``set_data`` drop the accumulator: the nodes
recorded afterwards reach a new one. Each program runs as it is (minigrad's uncounted path)
and with a node hook on its root that does nothing (counted from the start); the outcomes,
``.grad`` included after an error, are PyTorch's.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minigrad


def _outcome(
    lib: Any,
    changes: list[tuple[tuple[int, ...], str]],
    *,
    counted: bool,
    grad_first: bool = False,
    inputs: bool = False,
) -> tuple[Any, ...]:
    """``(x * ones).sum()`` recorded at ``x``'s first buffer, then at each of ``changes``."""
    x = lib.ones(changes[0][0], requires_grad=True)
    if grad_first:
        x.grad = lib.zeros(changes[0][0])
    root = (x * lib.ones(changes[0][0])).sum()
    for shape, dtype in changes[1:]:
        x.data = lib.ones(shape, dtype=getattr(lib, dtype))
        root = root + (x * lib.ones(shape, dtype=getattr(lib, dtype))).sum()
    if counted:  # a node hook: Python code in backward, so counted from the first node
        root.grad_fn.register_prehook(lambda grads: None)
    grad_state = None
    try:
        root.backward(inputs=[x] if inputs else None)
    except RuntimeError as error:
        grad_state = None if x.grad is None else x.grad.tolist()
        return "error", str(error), grad_state
    dtype = str(x.grad.dtype).split(".")[1]
    return tuple(x.grad.shape), dtype, x.grad.tolist(), x.grad._version


PROGRAMS = [
    [((2,), "float32"), ((3,), "float32")],  # shapes that do not broadcast
    [((3,), "float32"), ((1,), "float32")],  # the recorded shape does not broadcast to it
    [((2, 3), "float32"), ((3,), "float32")],
    [((3,), "float32"), ((2, 3), "float32")],  # summed down to the recorded shape
    [((1,), "float32"), ((3,), "float32"), ((2, 3), "float32")],  # the first shape counts
    [((2,), "float32"), ((3,), "float32"), ((2,), "float32")],  # back to it: still raises
    [((2,), "float32"), ((2,), "float64")],  # another dtype: a new accumulator
]


# PyTorch warns that the (3,) gradient and the (2, 3) leaf "do not obey the gradient layout
# contract" when it makes the first ``.grad``; minigrad does not warn (left as it is).
@pytest.mark.filterwarnings("ignore:grad and param do not obey")
@pytest.mark.parametrize("counted", [False, True])
@pytest.mark.parametrize("changes", PROGRAMS)
def test_gradients_are_checked_against_the_recorded_leaf(changes, counted):
    expected = _outcome(torch, changes, counted=counted, grad_first=True)
    assert _outcome(minigrad, changes, counted=counted, grad_first=True) == expected
    # Without a ``.grad`` set first, a gradient of the recorded shape (1,) becomes PyTorch's
    # ``.grad`` as it is (its layout contract compares strides only).
    expected = _outcome(torch, changes, counted=counted)
    assert _outcome(minigrad, changes, counted=counted) == expected


@pytest.mark.parametrize("changes", [PROGRAMS[0], PROGRAMS[3], PROGRAMS[6]])
def test_backward_inputs_reaches_the_current_accumulator(changes):
    # After a change of dtype only the new accumulator is ``x``'s: the old one's gradient
    # is left out. A change of shape keeps the accumulator, checked as without ``inputs=``.
    expected = _outcome(torch, changes, counted=False, inputs=True)
    assert _outcome(minigrad, changes, counted=False, inputs=True) == expected
