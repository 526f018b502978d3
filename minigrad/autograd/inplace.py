"""The only code that writes into a tensor's buffer on behalf of an op.

``x.mul_(y)``, ``x += y``, ``x.zero_()`` all come here. In order:
1. check PyTorch's rules *before* anything changes (a refused write changes nothing);
2. compute the op out of place, recording it as if it were (node ``F``, first input: old ``x``);
3. check the result fits ``x`` (shape, dtype), then write it into ``x``'s buffer;
4. bump the shared version counter once;
5. rebase ``x``'s history onto ``F``: from now on ``x.grad_fn`` is ``F``.
If ``F`` saved the old ``x``, it keeps a private copy of it (the buffer is about to change); if it
saved its result, that result *is* ``x``, at its new version — so a second in-place op on ``x``
makes backward raise, exactly as in PyTorch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd import grad_mode
from minigrad.autograd.function import NO_GRAD_CTX, Op, _connect, _pack_saved
from minigrad.autograd.variable import TensorBase


def check_inplace(tensor: TensorBase) -> None:
    """Raise PyTorch's error if ``tensor`` may not be written in place right now."""
    if grad_mode._state.enabled and tensor._grad_fn is None and tensor._requires_grad:
        raise RuntimeError(errors.LEAF_INPLACE)


def apply_inplace(op: type[Op], tensor: TensorBase, *args: Any) -> TensorBase:
    """Compute ``op(tensor, *args)`` and write it into ``tensor``; return ``tensor``."""
    check_inplace(tensor)
    inputs = (tensor, *args)
    arrays = [a._array if isinstance(a, TensorBase) else a for a in inputs]
    needs = [isinstance(a, TensorBase) and a.requires_grad for a in inputs]
    recording = grad_mode._state.enabled and any(needs)
    node = op._Node() if recording else None
    if node is not None:
        node.needs_input_grad = tuple(needs)
    raw = op.forward(NO_GRAD_CTX if node is None else node, *arrays)
    result = np.asarray(raw)
    _check_fits(tensor._array, result)
    if node is not None:
        _connect(node, inputs, needs, node._slots)  # edges from the old history, before rebasing
        _copy_saved_self(node, tensor._array)
    np.copyto(tensor._array, result, casting="unsafe")
    tensor._counter.bump()
    if node is not None:
        tensor._grad_fn = node
        tensor._output_nr = 0
        _pack_saved(node, arrays, inputs, (raw,), (tensor,))
    return tensor


def _check_fits(target: np.ndarray, result: np.ndarray) -> None:
    if result.shape != target.shape:
        try:
            fits = np.broadcast_shapes(result.shape, target.shape) == target.shape
        except ValueError:
            fits = False
        if not fits:
            broadcast = _broadcast_or(result.shape, target.shape)
            raise RuntimeError(errors.inplace_shape_mismatch(target.shape, broadcast))
    if not np.can_cast(result.dtype, target.dtype, casting="same_kind"):
        raise RuntimeError(
            errors.inplace_dtype_mismatch(display_name(result.dtype), display_name(target.dtype))
        )


def _broadcast_or(shape: tuple[int, ...], fallback: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(shape, fallback)
    except ValueError:
        return shape


def _copy_saved_self(node: Any, buffer: np.ndarray) -> None:
    # The op saved the value about to be overwritten: keep a private copy of it instead.
    to_save = node._to_save
    if to_save is not None and any(value is buffer for value in to_save):
        node._to_save = tuple(buffer.copy() if value is buffer else value for value in to_save)
