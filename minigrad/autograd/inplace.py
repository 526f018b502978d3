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

import weakref
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd import grad_mode, guard
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.function import (
    NO_GRAD_CTX,
    BackwardNode,
    Op,
    _connect,
    _pack_saved,
)
from minigrad.autograd.graph import Edge, Node, move_retained_grad, new_sequence_nr
from minigrad.autograd.overlap import check_inputs_overlap
from minigrad.autograd.quiet import quiet_floats
from minigrad.autograd.variable import TensorBase, has_internal_overlap
from minigrad.autograd.views import (
    AsStrided,
    ScatterIntoBase,
    ViewStep,
    empty_like_layout,
    replay,
    view_rebase_error,
)


def apply_inplace(op: type[Op], tensor: TensorBase, *args: Any) -> TensorBase:
    """Compute ``op(tensor, *args)`` and write it into ``tensor``; return ``tensor``."""
    inputs = (tensor, *args)
    base = tensor._base
    # The written tensor's flag, read without regenerating a view's history: PyTorch checks how
    # the view was made before it would regenerate it. A view requires grad if its base does.
    self_needs = tensor.requires_grad
    needs = [self_needs, *(isinstance(a, TensorBase) and a.requires_grad for a in args)]
    recording = grad_mode._state.enabled and True in needs
    check_inplace(tensor, recording, op.checks_internal_overlap)
    check_inputs_overlap(op, tensor, args)
    if recording:
        if base is not None:
            tensor._sync_view()  # the op records the view's current history as its input
        for arg in args:  # and so for the other inputs (a stale view may raise here)
            if isinstance(arg, TensorBase) and arg._base is not None:
                arg._sync_view()
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
        saved_arrays, saved_inputs = _save_old_self(node, tensor, arrays, inputs)
        base_edge = None if base is None else base._gradient_edge()
    # debugging hook: refuse writes that bypass the counter (autograd/guard.py)
    reprotect = guard.before_counted_write(tensor) if switches.guard_used else None
    np.copyto(tensor._array, result, casting="unsafe")
    if reprotect is not None:
        reprotect()
    tensor._counter.bump()
    if node is not None:
        saves_result = [value is raw for value in node._to_save or ()]
        _pack_saved(node, saved_arrays, saved_inputs, (raw,), (tensor,))
        # The written tensor (or the base) takes the new history; a retain_grad follows it.
        rebased = tensor if base is None else base
        old_node, old_output_nr = rebased._grad_fn, rebased._output_nr
        if base is None:
            tensor._grad_fn, tensor._output_nr = node, 0
        else:
            # The view's own grad_fn is regenerated from the base's, right away, as PyTorch does.
            base._grad_fn = CopySlices(base_edge, tensor._view.steps, node, base._array)
            base._output_nr = 0
        if rebased._meta is not None and rebased._meta.retains_grad:
            move_retained_grad(rebased, old_node, old_output_nr)
        if base is not None:
            tensor._sync_view()
            if True in saves_result:
                node._saved = tuple(
                    _SavedResultOfViewWrite(saved, tensor) if is_result else saved
                    for saved, is_result in zip(node._saved, saves_result)
                )
    return tensor



def check_inplace(tensor: TensorBase, recording: bool, check_overlap: bool = True) -> None:
    """Raise PyTorch's error if ``tensor`` may not be written in place right now.

    ``recording``: grad mode is on and some input of the op requires grad. The autograd checks
    come in PyTorch's order (``check_inplace``); the memory-overlap check (an expanded tensor),
    which PyTorch's kernels make, comes last. All run before anything is written.
    """
    if recording:
        base = tensor._base
        requires_grad = tensor.requires_grad  # read without regenerating a view's history
        if base is not None:
            view = tensor._view
            if view.created_in_no_grad or view.multi_output_name is not None:
                grad_fn = tensor._grad_fn
                name = None if grad_fn is None else grad_fn.name()
                raise RuntimeError(view_rebase_error(view, name, tensor._output_nr, False))
            if requires_grad and base._grad_fn is None:
                raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
        # PyTorch reads a view's node as it stands, without regenerating it: a view made
        # before its base required grad counts as a leaf here.
        if requires_grad and tensor._grad_fn is None:
            raise RuntimeError(errors.LEAF_INPLACE)
    if check_overlap and has_internal_overlap(tensor._array):
        raise RuntimeError(errors.INTERNAL_OVERLAP)


class CopySlices(Node):
    """The base's node after an in-place op ``F`` wrote through one of its views.

    Backward, for the gradient ``g`` of the new base:
    1. ``r = copy of g`` (laid out like the base); ``gv = view of r`` (the same view, replayed);
    2. run ``F``'s backward on a copy of ``gv``: gradients for the old view and ``F``'s others;
    3. write the old view's gradient into ``gv`` (inside ``r``, the region now carries it);
    4. return ``r`` to the base's previous history and the rest to ``F``'s other inputs.
    After backward (without ``retain_graph``) it lets go of ``F``, as PyTorch does: a second
    backward through it raises even if ``F`` saved nothing.
    """

    def __init__(
        self, base_edge: Edge, steps: tuple[ViewStep, ...], fn: BackwardNode, base: np.ndarray
    ) -> None:
        self._sequence_nr = new_sequence_nr()
        self.next_functions = (base_edge, *fn.next_functions[1:])
        self._steps = steps
        self._fn: BackwardNode | None = fn
        self._base_layout = base.shape, base.strides
        self._forward_stack = fn._forward_stack

    def name(self) -> str:
        """``torch::autograd::CopySlices``, PyTorch's C++ name for it."""
        return "torch::autograd::CopySlices"

    def _backward(self, grads: list[Any], as_tensors: bool = False) -> tuple[Any, ...]:
        fn = self._fn
        if fn is None:
            raise RuntimeError(errors.BACKWARD_TWICE)
        if as_tensors:
            return self._backward_recorded(grads[0], fn)
        grad = np.asarray(grads[0])
        result = empty_like_layout(*self._base_layout, grad.dtype)
        result[...] = grad
        region = replay(self._steps, result)
        fn_grads = fn._backward([np.array(region, copy=True)], as_tensors)
        if self.next_functions[0][0] is None:
            return (None, *fn_grads[1:])  # the base's old history needs no gradient
        if fn_grads[0] is None:
            return (None, *fn_grads[1:])  # as PyTorch: no gradient for the base at all
        if has_internal_overlap(region):
            raise RuntimeError(errors.INTERNAL_OVERLAP)  # the view was expanded
        region[...] = fn_grads[0]
        return (result, *fn_grads[1:])

    def _backward_recorded(self, grad: Any, fn: BackwardNode) -> tuple[Any, ...]:
        # create_graph: the same four steps, written with differentiable ops instead of writes
        # into a copy: r = g - scatter(region of g) + scatter(F's gradient for the old view).
        if not isinstance(grad, TensorBase):
            grad = TensorBase.output_class._make(np.asarray(grad))
        region = AsStrided.apply(grad, self._steps)
        fn_grads = fn._backward([region], True)
        if self.next_functions[0][0] is None or fn_grads[0] is None:
            return (None, *fn_grads[1:])
        if has_internal_overlap(region._array):
            raise RuntimeError(errors.INTERNAL_OVERLAP)
        shape, strides = self._base_layout
        result = (
            grad
            - ScatterIntoBase.apply(region, shape, strides, self._steps)
            + ScatterIntoBase.apply(fn_grads[0], shape, strides, self._steps)
        )
        return (result, *fn_grads[1:])

    def _release_saved(self) -> None:
        if self._fn is not None:
            self._fn._release_saved()
            self._fn = None


class _SavedResultOfViewWrite:
    """The result of an in-place op through a view, as saved by that op (``exp_``, ``sigmoid_``).

    Checked like any saved output; only the stale-version message differs. PyTorch names in it
    the node the view got right after the write (its regenerated ``AsStridedBackward0``) while
    that node is alive, and the op itself once it is gone. A weak reference gives the same
    answer: the node lives as long as the view or a later node in the graph still holds it.
    """

    __slots__ = ("_saved", "_node")

    def __init__(self, saved: Any, view: TensorBase) -> None:
        self._saved = saved
        # Weak: the node leads, through the base's CopySlices, back to the op holding this.
        self._node = None if view._grad_fn is None else weakref.ref(view._grad_fn)

    def _producer(self, owner: Node) -> Node:
        node = None if self._node is None else self._node()
        return owner if node is None else node

    def unpack(self, owner: Node) -> Any:
        """The saved value, checked against in-place writes since the op."""
        return self._saved.unpack(self._producer(owner))

    def unpack_tensor(self, owner: Node) -> Any:
        """The saved value as a tensor, checked against in-place writes since the op."""
        self.unpack(owner)
        return self._saved.unpack_tensor(owner)


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


def _save_old_self(
    node: Any, tensor: TensorBase, arrays: list[Any], inputs: tuple[Any, ...]
) -> tuple[list[Any], tuple[Any, ...]]:
    """If the op saved the value about to be overwritten, save a copy of it instead.

    The copy is a new tensor carrying ``tensor``'s old history (PyTorch's ``original_self``),
    so backward with ``create_graph`` can still differentiate through it. Returns the arrays
    and inputs to match saved values against.
    """
    buffer = tensor._array
    to_save = node._to_save
    if to_save is None or not any(value is buffer for value in to_save):
        return arrays, inputs
    copy = buffer.copy()
    old_self = TensorBase.output_class._make(copy, tensor._grad_fn, tensor._output_nr)
    node._to_save = tuple(copy if value is buffer else value for value in to_save)
    return [copy, *arrays[1:]], (old_self, *inputs[1:])
