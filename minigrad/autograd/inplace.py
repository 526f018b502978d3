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

In-place view ops (``x.unsqueeze_(0)``, ``x.t_()``) write no element: ``apply_inplace_view``
gives ``x`` the view's geometry, with the same checks, counter bump and history rules.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad._half import copy_into
from minigrad.autograd import debug_hooks, grad_mode, guard, saved
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.function import BackwardNode, Op
from minigrad.autograd.graph import (
    HIDDEN_DICT,
    RARE_ATTRIBUTES,
    ClosedNode,
    Edge,
    Node,
    follow_new_grad_fn,
    new_sequence_nr,
    own_dict,
)
from minigrad.autograd.overlap import (
    check_inputs_overlap,
    kernel_order_result,
    refuse_partial_overlap,
)
from minigrad.autograd.quiet import restore, silence
from minigrad.autograd.record import WritingContext, record
from minigrad.autograd.tensor_base import TensorBase, has_internal_overlap, set_array
from minigrad.autograd.views import (
    AsStrided,
    ScatterIntoBase,
    ViewOp,
    ViewStep,
    empty_like_layout,
    replay,
    view_of_memory,
    view_rebase_error,
)


def apply_inplace(op: type[Op], tensor: TensorBase, *args: Any) -> TensorBase:
    """Compute ``op(tensor, *args)`` and write it into ``tensor``; return ``tensor``."""
    # The written tensor's flag, read without regenerating a view's history: PyTorch checks how
    # the view was made before it would regenerate it. A view requires grad if its base does.
    recording = grad_mode._state.enabled and (tensor.requires_grad or _any_requires_grad(args))
    check_inplace(tensor, recording, op.checks_internal_overlap, args)
    # Debugging hook (autograd/guard.py): a forward may compute straight into the buffer
    # (record.py's WritingContext; index_put_ on an expanded tensor must, to write only the
    # indexed elements), so the guard rules on the write, and opens a saved buffer, first.
    reprotect = guard.before_counted_write(tensor) if switches.guard_used else None
    try:
        if not check_inputs_overlap(op, tensor, args):
            return record(op, tensor, *args, target=tensor)
        # An input shares memory with the tensor in a way PyTorch does not check: its kernel's
        # result (it reads elements it already wrote) replaces the out-of-place one, uncounted.
        try:
            written = kernel_order_result(op, tensor, args)
        except (ValueError, RuntimeError, TypeError):
            written = None  # a bad argument: recording raises PyTorch's error for it
        record(op, tensor, *args, target=tensor)
        if written is not None:
            np.copyto(tensor._array, written)
        return tensor
    finally:
        if reprotect is not None:
            reprotect()


def apply_inplace_view(op: type[ViewOp], tensor: TensorBase, *options: Any) -> TensorBase:
    """Give ``tensor`` the geometry of ``op(tensor, *options)``, a view op; return ``tensor``.

    PyTorch's in-place view ops: the tensor keeps its buffer and counter, takes the view's
    shape and strides, and the counter moves (a saved ``tensor`` is then stale). Recording, its
    history continues through the op's node (``UnsqueezeBackward1``: the in-place variant's
    name); under no_grad its ``grad_fn`` stays as it was. A view stays a view of its base,
    the op one more step of its replay.
    """
    recording = grad_mode._state.enabled and tensor.requires_grad
    check_inplace(tensor, recording, check_overlap=False)
    result = op.apply(tensor, *options)
    set_array(tensor, result._array)
    counter = tensor._version_counter()
    counter.bump()
    if tensor._base is not None:
        tensor._view.steps = result._view.steps  # (the same creation meta: only the steps grow)
    if result._grad_fn is not None:
        old_node, old_output_nr = tensor._grad_fn, tensor._output_nr
        tensor._grad_fn, tensor._output_nr = result._grad_fn, 0
        if tensor._base is not None:
            tensor._view.synced_version = counter.version  # its node is the op's, up to date
        follow_new_grad_fn(tensor, old_node, old_output_nr)
    return tensor


def apply_resizing(op: type[Op], tensor: TensorBase, *args: Any) -> TensorBase:
    """Compute ``op(tensor, *args)``, whose result has another shape, and make it ``tensor``'s.

    PyTorch's ``addbmm_`` writes through its ``out=`` kernel, which resizes ``self`` when the
    result (``self`` broadcast to the product) is larger: ``tensor`` takes the result's new
    memory, its counter moves once and its history continues through the op's node, whose
    gradient for the old ``tensor`` is summed back to its old shape. The same checks as any
    in-place write come first. Only for a tensor that is not a view (minigrad cannot grow a
    view inside its base's memory: the caller refuses one).
    """
    recording = grad_mode._state.enabled and (tensor.requires_grad or _any_requires_grad(args))
    check_inplace(tensor, recording, op.checks_internal_overlap, args)
    result = op.apply(tensor, *args)  # (recorded as out of place: first input, the old tensor)
    set_array(tensor, result._array)
    tensor._version_counter().bump()
    if result._grad_fn is not None:
        old_node, old_output_nr = tensor._grad_fn, tensor._output_nr
        tensor._grad_fn, tensor._output_nr = result._grad_fn, 0
        follow_new_grad_fn(tensor, old_node, old_output_nr)
    return tensor


def apply_resizing_view(
    op: type[Op], view: TensorBase, resized: np.ndarray, steps: Any,
    copied: Callable[[], np.ndarray | None], *args: Any,
) -> TensorBase:
    """``apply_resizing`` for a view: resized inside its base's memory, then written in place.

    PyTorch's ``addbmm_`` (its ``out=`` kernel) resizes a view of another shape where it is,
    row-major from where it starts (``resized``, which ``steps`` replays on the base), copies
    the old view broadcast into it (``copied()`` gives those values, or None where the op does
    not read them) and then computes in place. So here: an in-place write's checks first, and
    ``copied()``'s (nothing has changed if one fails); then the view takes its new geometry
    and those values, uncounted (the op counts one write), its history regenerated from its
    base for the new geometry (PyTorch's ``AsStridedBackward0``); and the op is an ordinary
    in-place write of the view: the base takes a ``CopySlices``, into whose region the op's
    gradient for the view goes as it is.
    """
    recording = grad_mode._state.enabled and (view.requires_grad or _any_requires_grad(args))
    check_inplace(view, recording, op.checks_internal_overlap, args)
    values = copied()
    rebind_resized(view, resized, steps, bump=False)
    if values is not None:
        write_uncounted(view, values)
    view._view.synced_version = None  # (its node is regenerated for the new geometry)
    return apply_inplace(op, view, *args)


def rebind_resized(tensor: TensorBase, array: np.ndarray, steps: Any, bump: bool) -> None:
    """Give ``tensor`` the array ``resize_`` made (its memory, or grown memory); no node.

    PyTorch counts a resize as a write only if the shape changes (a restride in place of the
    same shape, ``memory_format=``, counts none). A view keeps its base and replays as the
    steps say (``steps``: an ``as_strided`` step in the base's memory); a view given grown
    memory of its own (``steps`` None) is one no longer.
    """
    set_array(tensor, array)
    if tensor._base is not None:
        if steps is None:
            tensor._base = None
            tensor._view = None
        else:
            tensor._view.steps = steps
    if bump:
        tensor._version_counter().bump()


def write_uncounted(tensor: TensorBase, values: np.ndarray) -> None:
    """Write ``values`` into ``tensor``'s buffer without counting the write.

    PyTorch's Python-callable loops (``apply_``, ``map_``, ``map2_``) write their elements
    through the data pointer, as a write through ``numpy()`` does: no version moves.
    """
    if switches.guard_used:  # (debugging hook: as for a write through ``numpy()``)
        guard.heal(tensor._array)
    tensor._array[...] = values


def is_plain_update(tensor: TensorBase, other: Any) -> bool:
    """True if writing a binary op of ``tensor`` and ``other`` into ``tensor`` checks nothing.

    That is so with grad mode off and no guard (nothing is recorded or protected), ``other`` a
    tensor of ``tensor``'s shape and floating dtype (no promotion, no broadcasting), the
    target without internal overlap, and the two in disjoint memory (no overlap to rule on):
    ``apply_inplace``'s checks and ``record``'s steps all pass then. The optimizers' updates
    (``p.add_(g, alpha=-lr)`` under no_grad) are such writes; ``write_plain`` makes them.
    """
    if grad_mode._state.enabled or switches.guard_used or not isinstance(other, TensorBase):
        return False
    array, operand = tensor._array, other._array
    return (
        type(array) is np.ndarray
        and type(operand) is np.ndarray
        and array.dtype.kind == "f"
        and operand.dtype == array.dtype
        and operand.shape == array.shape
        and 0 not in array.strides  # (has_internal_overlap's C test: no expanded dimension)
        # Two arrays that own their buffers are disjoint; else numpy's C bounds check.
        and (
            (array.base is None and operand.base is None and array is not operand)
            or not np.may_share_memory(array, operand)
        )
    )


def write_plain(op: type[Op], tensor: TensorBase, other: TensorBase, *options: Any) -> TensorBase:
    """``apply_inplace(op, tensor, other, *options)`` for a write ``is_plain_update`` allows.

    ``record``'s no-grad step for an in-place op, without its general argument handling: the
    op's forward (into the buffer, through the writing ctx), in numpy's quiet state, and the
    write counted once. tests/test_plain_update.py compares it with the general path.
    """
    array = tensor._array
    token = silence()
    try:
        raw = op.forward(WritingContext(array), array, other._array, *options)
    finally:
        restore(token)
    write(tensor, raw)
    return tensor


def _any_requires_grad(args: tuple[Any, ...]) -> bool:
    # A loop, not any() over a generator: one or two arguments, on every in-place op.
    for arg in args:  # noqa: SIM110
        if isinstance(arg, TensorBase) and arg.requires_grad:
            return True
    return False


def write(tensor: TensorBase, raw: Any) -> None:
    """Write an op's result into ``tensor``'s buffer and count the write (nothing recorded)."""
    if raw is tensor._array:  # forward computed straight into it (record.py, _WritingContext)
        tensor._version_counter().bump()
        return
    result = np.asarray(raw)
    _check_fits(tensor._array, result)
    _copy_into(tensor, result)


def _copy_into(tensor: TensorBase, result: np.ndarray) -> None:
    """The write itself, counted once on the shared version counter."""
    # debugging hook: refuse writes that bypass the counter (autograd/guard.py)
    reprotect = guard.before_counted_write(tensor) if switches.guard_used else None
    array = tensor._array
    if result.dtype == array.dtype:
        array[...] = result  # (np.copyto, with its dispatch layer, takes 4x as long)
    else:
        # A cast (into float16, or an integer tensor): PyTorch's overflows to inf and its
        # nan to an integer make no warning, numpy's do; float64 goes to float16 as PyTorch's.
        copy_into(array, result)
    if reprotect is not None:
        reprotect()
    tensor._version_counter().bump()


def write_recorded(
    node: BackwardNode, tensor: TensorBase, args: tuple[Any, ...], arrays: list[Any], raw: Any
) -> TensorBase:
    """Steps 4 and 5 of recording (``record.py``) for an in-place op: write, then rebase.

    The node's edges already point at the inputs' old history. Its saved inputs keep the
    versions they had *before* the write, as PyTorch's do: an input sharing ``tensor``'s counter
    (``x.mul_(x)``, ``x.detach().div_(x)``) is stale once the write bumps it, and backward raises.
    A saved result is ``tensor`` at its version *after* the write.
    """
    result = np.asarray(raw)
    _check_fits(tensor._array, result)
    base = tensor._base
    base_edge = None if base is None else base._gradient_edge()
    rebased = tensor if base is None else base  # takes the new history
    old_node, old_output_nr = rebased._grad_fn, rebased._output_nr
    if node._saved:
        seen, inputs = _save_old_self(node, tensor, arrays, args)
        saved.pack(node, node._saved, seen, inputs, (raw,), (tensor,), pending_writes=1)
    _copy_into(tensor, result)
    if switches.saves and node._saved:  # debugging hook (autograd/debug_hooks.py), see pack
        debug_hooks.on_save(node)
    if base is None:
        tensor._grad_fn, tensor._output_nr = node, 0
        follow_new_grad_fn(tensor, old_node, old_output_nr)
        saved.pack_written_outputs(node, (tensor,))
        return tensor
    # The base takes the new history; the view's own grad_fn is regenerated from it right
    # away, as PyTorch does.
    base._grad_fn = CopySlices(base_edge, tensor._view.steps, node, base._array)
    base._output_nr = 0
    if base_edge[0] is not None:  # (PyTorch's test: a base without grad has no hooks to end)
        follow_new_grad_fn(base, old_node, old_output_nr)
    tensor._sync_view()
    saved.pack_written_outputs(node, (tensor,))
    if tensor._grad_fn is not None and node._saved:
        # A saved result's stale-version message names the view's new node while it lives
        # (PyTorch's AsStridedBackward0), the op itself once it is gone: a weak reference.
        flat = list(node._saved)
        for start in range(3, len(flat), saved.FIELDS):
            if type(flat[start]) is int and flat[start] == 0:
                flat[start] = weakref.ref(tensor._grad_fn)
        node._saved = tuple(flat)
    return tensor


def rebase_dirty_view(node: BackwardNode, view: TensorBase) -> None:
    """Rebase history after a custom Function (``node``) wrote the view ``view`` in place.

    As after a built-in in-place op on a view (``write_recorded``): the base takes a
    ``CopySlices`` node wrapping ``node`` (whose first input is the view, as PyTorch's
    ``rebase_history`` assumes), and the view's own ``grad_fn`` is regenerated from it.
    """
    base = view._base
    base_edge = base._gradient_edge()
    old_node, old_output_nr = base._grad_fn, base._output_nr
    base._grad_fn = CopySlices(base_edge, view._view.steps, node, base._array)
    base._output_nr = 0
    if base_edge[0] is not None:  # (as write_recorded)
        follow_new_grad_fn(base, old_node, old_output_nr)
    view._sync_view()




def check_inplace(
    tensor: TensorBase, recording: bool, check_overlap: bool = True, args: tuple[Any, ...] = ()
) -> None:
    """Raise PyTorch's error if ``tensor`` may not be written in place right now.

    ``recording``: grad mode is on and some input of the op requires grad. The autograd checks
    come in PyTorch's order (``check_inplace``); then, if recording, the op's other inputs
    ``args`` that are views catch up with their bases' writes, as PyTorch collects their
    gradient edges (or raise the error of one that may not: made in no_grad, a split output);
    the memory-overlap check (an expanded tensor), which PyTorch's kernels make, comes last.
    All run before anything is written.
    """
    if recording:
        base = tensor._base
        requires_grad = tensor.requires_grad  # read without regenerating a view's history
        if base is not None:
            view = tensor._view
            if view.forbids_rebase:
                grad_fn = tensor._grad_fn
                name = None if grad_fn is None else grad_fn.name()
                raise RuntimeError(view_rebase_error(view, name, tensor._output_nr, False))
            if requires_grad and base._grad_fn is None:
                raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
        # PyTorch reads a view's node as it stands, without regenerating it: a view made
        # before its base required grad counts as a leaf here.
        if requires_grad and tensor._grad_fn is None:
            raise RuntimeError(errors.LEAF_INPLACE)
        for arg in args:
            if isinstance(arg, TensorBase) and arg._base is not None:
                arg._sync_view()
    if check_overlap and has_internal_overlap(tensor._array):
        raise RuntimeError(errors.INTERNAL_OVERLAP)


def cast_refused(target: TensorBase, others: tuple[Any, ...], result: str) -> RuntimeError:
    """PyTorch's error for an in-place result (of dtype ``result``) ``target`` cannot hold.

    (Not clamp_'s number bounds: PyTorch checks those before anything else.)
    """
    message = errors.inplace_dtype_mismatch(result, display_name(target._array.dtype))
    return refused_by_kernel(target, others, RuntimeError(message))


def refused_by_kernel(
    target: TensorBase, others: tuple[Any, ...], error: RuntimeError
) -> RuntimeError:
    """``error``, found by PyTorch's in-place kernel after its set-up, once the checks pass.

    The checks before it raise their own error first, in PyTorch's order: the autograd ones
    and the operands ``others`` catching up with their bases (``check_inplace``), then the
    kernel's set-up (TensorIterator): the written tensor's overlap, an operand partially
    overlapping it, the operands' sizes. So a float added into an expanded integer tensor is
    an overlap error, not a dtype error.
    """
    recording = grad_mode.is_grad_enabled() and any(
        isinstance(t, TensorBase) and t.requires_grad for t in (target, *others))
    check_inplace(target, recording, True, others)
    refuse_partial_overlap(target, others)
    _check_sizes(target._array.shape, others)
    return error


def _check_sizes(shape: tuple[int, ...], others: tuple[Any, ...]) -> None:
    """PyTorch's errors if the tensors of ``others`` do not broadcast to ``shape``.

    As its TensorIterator: the written tensor's shape first, then each operand's in turn.
    """
    broadcast = shape
    for other in others:
        if isinstance(other, TensorBase):
            try:
                broadcast = np.broadcast_shapes(broadcast, other._array.shape)
            except ValueError:
                raise RuntimeError(
                    errors.broadcast_mismatch(broadcast, other._array.shape)) from None
    if broadcast != shape:
        raise RuntimeError(errors.inplace_shape_mismatch(shape, broadcast))


class CopySlices(ClosedNode):
    """The base's node after an in-place op ``F`` wrote through one of its views.

    Backward, for the gradient ``g`` of the new base:
    1. ``r = copy of g`` (laid out like the base); ``gv = view of r`` (the same view, replayed);
    2. run ``F``'s backward on a copy of ``gv``: gradients for the old view and ``F``'s others;
    3. write the old view's gradient into ``gv`` (inside ``r``, the region now carries it);
    4. return ``r`` to the base's previous history and the rest to ``F``'s other inputs.
    After backward (without ``retain_graph``) it lets go of ``F``, as PyTorch does: a second
    backward through it raises even if ``F`` saved nothing.
    """

    __slots__ = ()
    __dict__ = HIDDEN_DICT  # (as PyTorch's C++ node: no ``__dict__``, no new attribute)
    _lean = False  # its own _backward and _release_saved: the engine's general path runs it
    _fn: BackwardNode | None
    # What it keeps in its dict (``ClosedNode``): a node's slots, its own, the rare ones.
    _kept_names = frozenset((
        "_sequence_nr", "_next_nodes", "_next_nrs", "_saved", "_input_meta", "_extra", "_steps",
        "_fn", "_base_layout", *RARE_ATTRIBUTES,
    ))

    def __init__(
        self, base_edge: Edge, steps: tuple[ViewStep, ...], fn: BackwardNode, base: np.ndarray
    ) -> None:
        own_dict(self).update(  # (straight into its dict: ``ClosedNode.__setattr__`` checks)
            _sequence_nr=new_sequence_nr(),
            _next_nodes=(base_edge[0], *fn._next_nodes[1:]),
            _next_nrs=(base_edge[1], *fn._next_nrs[1:]),
            _saved=(),
            _input_meta=None,
            _steps=steps,
            _fn=fn,
            _base_layout=(base.shape, base.strides),
            _forward_stack=fn._forward_stack,
            _anomaly_parent=fn._anomaly_parent,
        )

    def name(self) -> str:
        """``torch::autograd::CopySlices``, PyTorch's C++ name for it."""
        return "torch::autograd::CopySlices"

    @property
    def _held_nodes(self) -> tuple[Node | None, ...]:
        """Its edges' nodes and ``F``, whose first edge (the old view's history) is not one."""
        return (*self._next_nodes, self._fn)

    def _backward(
        self, grads: list[Any], as_tensors: bool = False, release: bool = False
    ) -> tuple[Any, ...]:
        # (``release`` is never asked of it: not lean, the general path calls _release_saved)
        fn = self._fn
        if fn is None:
            raise RuntimeError(errors.BACKWARD_TWICE)
        shape, strides = self._base_layout
        if any(size > 1 and stride == 0 for size, stride in zip(shape, strides)):
            # PyTorch copies the gradient into memory laid out like the base: an expanded
            # base's has elements that share memory, which its copy refuses.
            raise RuntimeError(errors.INTERNAL_OVERLAP)
        if as_tensors:
            return self._backward_recorded(grads[0], fn)
        grad = np.asarray(grads[0])
        result = empty_like_layout(*self._base_layout, grad.dtype)
        result[...] = grad
        region = replay(self._steps, result)
        fn_grads = fn._backward([np.array(region, copy=True)], as_tensors)
        if self._next_nodes[0] is None:
            return (None, *fn_grads[1:])  # the base's old history needs no gradient
        if fn_grads[0] is None:
            return (None, *fn_grads[1:])  # as PyTorch: no gradient for the base at all
        if has_internal_overlap(region):
            raise RuntimeError(errors.INTERNAL_OVERLAP)  # the view was expanded
        region[...] = fn_grads[0]
        return (result, *fn_grads[1:])

    def _backward_recorded(self, grad: Any, fn: BackwardNode) -> tuple[Any, ...]:
        # create_graph: PyTorch's four steps on tensors, recorded. The copy of the gradient
        # laid out like the base (CopyBackwards), its view's region cloned row-major for F
        # (AsStrided, CloneBackward0), F's gradient for the old view copied into the region:
        # the result's node is CopySlices.
        if not isinstance(grad, TensorBase):
            grad = TensorBase.output_class._make(np.asarray(grad))
        shape, strides = self._base_layout
        result = TensorBase.output_class._make(empty_like_layout(shape, strides, grad._array.dtype))
        result.copy_(grad)
        region = replay(self._steps, result._array)
        if region.size == 0:  # (no memory to view: the old formula, its graph of other names)
            return self._backward_scattered(grad, fn)
        view = view_of_memory(result, region)
        from minigrad.ops.unary import contiguous_copy  # (the ops build on this module)

        fn_grads = fn._backward([contiguous_copy(view)], True)
        if self._next_nodes[0] is None or fn_grads[0] is None:
            return (None, *fn_grads[1:])
        if has_internal_overlap(region):
            raise RuntimeError(errors.INTERNAL_OVERLAP)  # the view was expanded
        old_grad = fn_grads[0]
        if not isinstance(old_grad, TensorBase):  # a constant (ge_'s zeros): no history
            old_grad = TensorBase.output_class._make(np.asarray(old_grad))
        view.copy_(old_grad)
        return (result, *fn_grads[1:])

    def _backward_scattered(self, grad: Any, fn: BackwardNode) -> tuple[Any, ...]:
        # r = g - scatter(region of g) + scatter(F's gradient for the old view).
        region = AsStrided.apply(grad, self._steps)
        fn_grads = fn._backward([region], True)
        if self._next_nodes[0] is None or fn_grads[0] is None:
            return (None, *fn_grads[1:])
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


def _check_fits(target: np.ndarray, result: np.ndarray) -> None:
    if result.shape != target.shape:
        try:
            broadcast = np.broadcast_shapes(result.shape, target.shape)
        except ValueError:
            broadcast = result.shape
        if broadcast != target.shape:
            raise RuntimeError(errors.inplace_shape_mismatch(target.shape, broadcast))
    if result.dtype != target.dtype and not np.can_cast(
        result.dtype, target.dtype, casting="same_kind"
    ):
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
    old = arrays[0]  # the distinct array object forward saw as the old value (record.py)
    to_save = node._saved
    for value in to_save:  # a loop, not any() over a generator: one or two values
        if value is old:
            break
    else:
        return arrays, inputs
    copy = old.copy()
    old_self = TensorBase.output_class._make(copy, tensor._grad_fn, tensor._output_nr)
    node._saved = tuple(copy if value is old else value for value in to_save)
    return [copy, *arrays[1:]], (old_self, *inputs[1:])
