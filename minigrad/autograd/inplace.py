"""The only code that writes into a tensor's buffer on behalf of an op.

``x.mul_(y)``, ``x += y``, ``x.zero_()``, ``x[i] = v`` all come here. In order:
1. check PyTorch's rules *before* anything changes (a refused write changes nothing);
2. compute the op out of place, recording it as if it were (node ``F``, first input: old ``x``);
3. check the result fits ``x`` (shape, dtype), then write it into ``x``'s buffer;
4. bump the shared version counter once;
5. rebase history: ``x.grad_fn`` becomes ``F`` — or, if ``x`` is a view, its base gets a
   ``CopySlices`` node wrapping ``F``, and ``x``'s own ``grad_fn`` is regenerated from that.
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
from minigrad.autograd.function import (
    NO_GRAD_CTX,
    BackwardNode,
    Op,
    _connect,
    _pack_saved,
)
from minigrad.autograd.graph import Edge, Node, new_sequence_nr
from minigrad.autograd.quiet import quiet_floats
from minigrad.autograd.variable import TensorBase
from minigrad.autograd.views import ViewStep, replay


def apply_inplace(op: type[Op], tensor: TensorBase, *args: Any) -> TensorBase:
    """Compute ``op(tensor, *args)`` and write it into ``tensor``; return ``tensor``."""
    inputs = (tensor, *args)
    needs = [isinstance(a, TensorBase) and a.requires_grad for a in inputs]
    base = tensor._base
    recording = grad_mode._state.enabled and (
        True in needs or (base is not None and base.requires_grad)
    )
    check_inplace(tensor, recording)
    node = op._Node() if recording else None
    if node is not None:
        node.needs_input_grad = tuple(needs)
    arrays = [a._array if isinstance(a, TensorBase) else a for a in inputs]
    try:
        with quiet_floats():
            raw = op.forward(NO_GRAD_CTX if node is None else node, *arrays)
    except ValueError as error:
        other = np.shape(arrays[1]) if len(arrays) > 1 else ()
        message = errors.from_numpy_value_error(error, tensor._array.shape, other)
        raise RuntimeError(message) from None
    result = np.asarray(raw)
    _check_fits(tensor._array, result)
    if node is not None:
        _connect(node, inputs, needs, node._slots)  # edges from the old history
        _copy_saved_self(node, tensor._array)
        base_edge = None if base is None else base._gradient_edge()
    np.copyto(tensor._array, result, casting="unsafe")
    tensor._counter.bump()
    if node is not None:
        _pack_saved(node, arrays, inputs, (raw,), (tensor,))
        if base is None:
            tensor._grad_fn, tensor._output_nr = node, 0
        else:
            # The base takes the new history; the view regenerates its own from it when next
            # used (its synced version is now behind the counter).
            base._grad_fn = CopySlices(base_edge, tensor._view.steps, node)
            base._output_nr = 0
    return tensor


def check_inplace(tensor: TensorBase, recording: bool) -> None:
    """Raise PyTorch's error if ``tensor`` may not be written in place right now."""
    array = tensor._array
    if any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    if not grad_mode._state.enabled:
        return
    base = tensor._base
    if base is None:
        if tensor._grad_fn is None and tensor._requires_grad:
            raise RuntimeError(errors.LEAF_INPLACE)
        return
    if base._grad_fn is None and base._requires_grad:
        raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
    view = tensor._view
    if recording and view.multi_output_name is not None:
        output_nr = view.steps[-1][2] or 0
        raise RuntimeError(errors.multi_output_view_inplace(output_nr, view.multi_output_name))
    if recording and view.created_in_no_grad:
        raise RuntimeError(errors.NO_GRAD_VIEW_INPLACE)


class CopySlices(Node):
    """The base's node after an in-place op ``F`` wrote through one of its views.

    Backward, for the gradient ``g`` of the new base:
    1. ``r = copy of g``; ``gv = view of r`` (the same view, replayed on the gradient);
    2. run ``F``'s backward on a copy of ``gv``: gradients for the old view and ``F``'s others;
    3. write the old view's gradient into ``gv`` (inside ``r``, the region now carries it);
    4. return ``r`` to the base's previous history and the rest to ``F``'s other inputs.
    """

    def __init__(self, base_edge: Edge, steps: tuple[ViewStep, ...], fn: BackwardNode) -> None:
        self._sequence_nr = new_sequence_nr()
        self.next_functions = (base_edge, *fn.next_functions[1:])
        self._steps = steps
        self._fn = fn
        self._forward_stack = fn._forward_stack

    def name(self) -> str:
        """``torch::autograd::CopySlices``, PyTorch's C++ name for it."""
        return "torch::autograd::CopySlices"

    def _backward(self, grads: list[Any], as_tensors: bool = False) -> tuple[Any, ...]:
        result = np.array(grads[0], copy=True)
        region = replay(self._steps, result)
        fn_grads = self._fn._backward([np.array(region, copy=True)], as_tensors)
        region[...] = 0 if fn_grads[0] is None else fn_grads[0]
        return (result, *fn_grads[1:])

    def _release_saved(self) -> None:
        self._fn._release_saved()


def _check_fits(target: np.ndarray, result: np.ndarray) -> None:
    if result.shape != target.shape:
        try:
            broadcast = np.broadcast_shapes(result.shape, target.shape)
        except ValueError:
            broadcast = result.shape
        if broadcast != target.shape:
            raise RuntimeError(errors.inplace_shape_mismatch(target.shape, broadcast))
    if not np.can_cast(result.dtype, target.dtype, casting="same_kind"):
        raise RuntimeError(
            errors.inplace_dtype_mismatch(display_name(result.dtype), display_name(target.dtype))
        )


def _copy_saved_self(node: Any, buffer: np.ndarray) -> None:
    # The op saved the value about to be overwritten: keep a private copy of it instead.
    to_save = node._to_save
    if to_save is not None and any(value is buffer for value in to_save):
        node._to_save = tuple(buffer.copy() if value is buffer else value for value in to_save)
