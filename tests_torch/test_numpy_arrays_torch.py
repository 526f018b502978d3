"""Differential tests: numpy arrays handed out and taken in share memory, not the array object.

``t.numpy()``, ``np.asarray(t)`` and ``from_numpy``/``as_tensor``/``asarray`` of an array share
memory with the tensor in both libraries, and in both the tensor keeps its own shape: giving the
numpy array another shape in place (``a.shape = ...``) reshapes the array only. (minigrad once
handed out, and kept, the array object itself, so such a reshape changed the tensor's shape.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minigrad


def _from_tensor(lib: Any, hand_out: Callable[[Any], np.ndarray]) -> tuple[Any, ...]:
    """Reshape the array a tensor hands out; write through it; report the tensor's view."""
    with lib.no_grad():
        t = lib.arange(6.0).reshape(2, 3)
        array = hand_out(t)
        array.shape = (3, 2)
        array[0, 1] = 50.0  # the tensor's element [0, 1] as well: the same memory
        return tuple(t.shape), t.tolist(), hand_out(t) is hand_out(t)


HAND_OUTS = {
    "numpy": lambda t: t.numpy(),
    "numpy force": lambda t: t.numpy(force=True),
    "asarray": np.asarray,
    "asarray of a requires-grad detach": lambda t: np.asarray(t.requires_grad_().detach()),
}


@pytest.mark.parametrize("name", list(HAND_OUTS))
def test_an_array_handed_out_reshaped_leaves_the_tensor(name: str) -> None:
    hand_out = HAND_OUTS[name]
    assert _from_tensor(minigrad, hand_out) == _from_tensor(torch, hand_out)


TAKE_INS = {
    "from_numpy": lambda lib, a: lib.from_numpy(a),
    "as_tensor": lambda lib, a: lib.as_tensor(a),
    "asarray": lambda lib, a: lib.asarray(a),
}


@pytest.mark.parametrize("name", list(TAKE_INS))
def test_an_array_taken_in_reshaped_leaves_the_tensor(name: str) -> None:
    def run(lib: Any) -> tuple[Any, ...]:
        array = np.arange(6.0, dtype=np.float32).reshape(2, 3)
        t = TAKE_INS[name](lib, array)
        array.shape = (3, 2)
        array[2, 1] = 50.0  # the tensor's last element: the same memory
        return tuple(t.shape), t.tolist(), (t + 1).shape, t.sum(0).tolist()

    assert run(minigrad) == run(torch)


def test_shape_and_dtype_follow_a_new_buffer() -> None:
    """``.data = other`` and ``resize_`` give a tensor another buffer: its shape, dtype, and
    what ops compute with it, follow (the tensor keeps them beside the buffer)."""

    def run(lib: Any) -> tuple[Any, ...]:
        t = lib.zeros(2, 3)
        t.data = lib.ones(4, dtype=lib.float64)
        after_data = (tuple(t.shape), str(t.dtype).split(".")[1], (t + t).tolist(), t.dim())
        u = lib.zeros(2, 3)
        u.resize_(4, 2)
        after_resize = (tuple(u.shape), tuple((u * u).shape), u.size(1), u.ndim)
        return after_data, after_resize

    assert run(minigrad) == run(torch)
