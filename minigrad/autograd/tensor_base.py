"""The autograd half of a tensor: buffer, version counter, and its place in the graph.

``minigrad.Tensor`` (in ``minigrad/tensor.py``) adds the user-facing methods on top. Keeping the
metadata here lets the autograd layer create and inspect tensors without importing the ops.
"""

from __future__ import annotations

import sys
import threading
import warnings
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import type_name
from minigrad._layout import (
    element_strides,
    empty_preserving_layout,
    is_non_overlapping_and_dense,
)
from minigrad.autograd import collector, grad_mode, grad_versions, guard
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import (
    COUNTER_IN_NODE,
    AccumulateGrad,
    Node,
    extend,
    follow_new_grad_fn,
)
from minigrad.autograd.version import VersionCounter

# What makes the counter of a new tensor. ``inference_mode`` (autograd/inference.py) swaps in
# its own factory while some thread is in inference mode: tensors made there track no version.
new_counter: Callable[[], VersionCounter] = VersionCounter


class AutogradMeta:
    """The rarely-needed per-tensor autograd state, kept apart to keep new tensors cheap."""

    __slots__ = ("grad", "accumulator", "hooks", "post_accumulate_hooks", "retains_grad", "lock")

    def __init__(self) -> None:
        self.grad: TensorBase | None = None
        self.accumulator: AccumulateGrad | None = None
        # register_hook's list (PyTorch's ``_backward_hooks``): None until the first hook
        # since the tensor's grad_fn last changed; a non-leaf's node runs it too.
        self.hooks: list[Callable[[Any], Any]] | None = None
        # register_post_accumulate_grad_hook: called with the leaf once .grad is updated
        self.post_accumulate_hooks: list[Callable[[Any], Any]] = []
        self.retains_grad = False
        # Backward may run in several threads at once; adding into ``.grad`` is a
        # read-modify-write, so each tensor serialises it with its own lock (as PyTorch's
        # AccumulateGrad holds a mutex), or concurrent updates would be lost.
        self.lock = threading.Lock()


# Guards the creation of a tensor's AutogradMeta, which two threads may race to make (and of
# version counters: ``_version_counter``, ``saved_output_counter``).
_meta_lock = threading.Lock()


def _node_counter(node: Node) -> VersionCounter:
    """The counter in ``node``'s slot ``_output_counter``, made now if none is (lock held)."""
    counter = node._output_counter
    if counter is None:
        counter = node._output_counter = VersionCounter()
    return counter


def saved_output_counter(node: Node) -> VersionCounter:
    """The counter of ``node``'s saved output 0, made now if nobody needed it yet.

    An op that saves its own result (``exp``, ``sigmoid``, ``tanh``...) makes no counter for
    it: the node's slot ``_output_counter`` holds None, which backward's checks read as
    version 0 (nothing can have written to a buffer whose counter nobody made), and the
    result's ``_counter`` says ``COUNTER_IN_NODE``: whichever side needs the object first
    makes it in the node's slot, for both (here the node's side, for the readers that want
    it: an alias of the saved result, the debugging aids; ``_version_counter`` the tensor's).
    A long chain of such ops then keeps no counter per op for the collector to traverse.
    """
    counter = node._output_counter
    if counter is None:
        with _meta_lock:  # the result's tensor may be making it in another thread
            counter = _node_counter(node)
    return counter


class TensorBase:
    """A numpy buffer plus autograd metadata (the data model; methods live on Tensor)."""

    __slots__ = (
        "_array",  # the numpy buffer (views share it with their base)
        # VersionCounter shared with views and aliases; None: not made yet; COUNTER_IN_NODE:
        # a result its node saved, whose counter is the node's (``saved_output_counter``)
        "_counter",
        "_requires_grad",  # the flag of a leaf; a non-leaf requires grad through its grad_fn
        "_grad_fn",  # Node that produced this tensor, or None for a leaf
        "_output_nr",  # which output of _grad_fn this tensor is
        "_meta",  # AutogradMeta or None
        "_base",  # the tensor this one is a view of (always a non-view), or None
        "_view",  # ViewInfo for a view: how to replay it on the base, when it was synced
        # The buffer's shape and numpy dtype, kept on the tensor as PyTorch's TensorImpl keeps
        # its sizes and dtype: the recording routines compare them on every op, and reading
        # them from the array costs a numpy attribute lookup each (~0.1-0.3 us in all on a
        # recorded ``a + b``). ``_array.shape`` and ``_array.dtype``, or None: not read yet (a
        # recorded result gets them from its inputs; one nobody records with never pays for
        # the read; ``shape_of``). The buffer is replaced only through ``set_array``, and never
        # handed out to be reshaped in place (``numpy()`` gives a view, ``from_numpy`` keeps one).
        "_shape",
        "_dtype",
        "__weakref__",
    )

    # The class op outputs are made of: minigrad.Tensor, set by minigrad/tensor.py.
    output_class: ClassVar[type[TensorBase]]

    @classmethod
    def _make(
        cls,
        array: np.ndarray,
        grad_fn: Node | None = None,
        output_nr: int = 0,
        counter: VersionCounter | None = None,
        requires_grad: bool = False,
    ) -> Any:
        """A tensor on ``array`` (not copied) with a fresh counter unless ``counter`` is given."""
        tensor = object.__new__(cls)
        tensor._array = array
        tensor._shape = tensor._dtype = None  # (read when first needed)
        if counter is None and new_counter is not VersionCounter:
            counter = new_counter()  # inference mode somewhere: the counter kind is decided now
        tensor._counter = counter
        tensor._requires_grad = requires_grad
        tensor._grad_fn = grad_fn
        tensor._output_nr = output_nr
        tensor._meta = None
        tensor._base = None
        tensor._view = None
        return tensor

    # --- the version counter --------------------------------------------------------------

    def _version_counter(self) -> VersionCounter:
        """The counter this tensor shares with its views and aliases, made on first use.

        Most op results are never viewed, saved or written: they never need one, so a new
        tensor starts with ``_counter = None`` (a private counter at version 0) and saves
        making an object. Everything that shares, saves or bumps the counter asks here.
        A result its own node saved (``exp``, ``sigmoid``...) has ``COUNTER_IN_NODE``
        instead: its counter is the node's, made there on first need (``saved_output_counter``).
        """
        counter = self._counter
        if counter is None or counter is COUNTER_IN_NODE:
            with _meta_lock:  # two threads must not make two counters for one tensor
                counter = self._counter
                if counter is None:
                    counter = self._counter = VersionCounter()
                elif counter is COUNTER_IN_NODE:  # a saved result: its node's (same lock)
                    counter = self._counter = _node_counter(self._grad_fn)
        return counter

    # --- views ----------------------------------------------------------------------------

    def _sync_view(self) -> None:
        """Bring a view's history up to date with its base's (after an in-place write).

        A view's gradient comes from its base. When the shared counter moved since the view's
        ``grad_fn`` was made, the base may have a new history (CopySlices, or an in-place op on
        the base itself): the view's ``grad_fn`` is regenerated from it, as PyTorch's
        ``AsStridedBackward0``.
        """
        view = self._view
        version = self._version_counter().version
        if view.synced_version == version:
            return
        base = self._base
        if self._grad_fn is None and not base.requires_grad:
            return  # no history to regenerate yet; PyTorch looks again at the next access
        # A view made under no_grad or by a multi-output op raises here, at every access.
        old_node, old_output_nr = self._grad_fn, self._output_nr
        self._grad_fn = view.regenerate(base, old_node, old_output_nr)
        self._output_nr = 0
        view.synced_version = version
        follow_new_grad_fn(self, old_node, old_output_nr)

    # --- the graph ------------------------------------------------------------------------

    @property
    def requires_grad(self) -> bool:
        """True if gradients flow to this tensor.

        That is a leaf that asked for them, any result of a recorded op, or a view of a tensor
        that requires grad (PyTorch reads the base's flag as it is now, without regenerating
        the view's history).
        """
        if self._grad_fn is not None:
            return True
        base = self._base
        if base is None:
            return self._requires_grad
        # A view without history of its own (made under no_grad, or before its base required
        # grad) still requires grad, yet has no gradient edge: see _gradient_edge.
        return self._requires_grad or base.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(bool(value))

    def _set_requires_grad(self, value: bool) -> None:
        # PyTorch asks is_leaf() of the node as it is, without regenerating a view's history.
        if self._grad_fn is not None:
            raise RuntimeError(
                errors.NON_LEAF_REQUIRES_GRAD if value else errors.NON_LEAF_REQUIRES_GRAD_FALSE
            )
        if value and self._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_OR_COMPLEX_REQUIRES_GRAD)
        self._requires_grad = value

    @property
    def is_leaf(self) -> bool:
        """True if no recorded op produced this tensor (PyTorch's definition)."""
        return self.grad_fn is None

    @property
    def grad_fn(self) -> Node | None:
        """The node that produced this tensor, or None for a leaf."""
        if self._base is not None:
            self._sync_view()
        return self._grad_fn

    @property
    def output_nr(self) -> int:
        """Which output of ``grad_fn`` this tensor is."""
        return self._output_nr

    @property
    def _version(self) -> int:
        """How many in-place writes the shared counter has seen."""
        counter = self._counter
        if counter is COUNTER_IN_NODE:  # a saved result: the node's (saved_output_counter)
            counter = self._grad_fn._output_counter
        return 0 if counter is None else counter.version  # none made yet: never written

    @property
    def grad(self) -> Any:
        """The gradient accumulated by backward into this tensor (leaves, or ``retain_grad``)."""
        if self._meta is None or self._meta.grad is None:
            # PyTorch reads the node as it is, without regenerating a view's history first.
            if self._grad_fn is not None and not (self._meta and self._meta.retains_grad):
                warnings.warn(errors.NON_LEAF_GRAD_ACCESS, UserWarning, stacklevel=2)
            return None
        return self._meta.grad

    @grad.setter
    def grad(self, value: Any) -> None:
        if value is not None and not isinstance(value, TensorBase):
            raise TypeError(
                "assigned grad expected to be a Tensor or None but got grad of type "
                f"{type(value).__name__}"
            )
        if value is not None:
            self._check_grad(value)
            show_history(value)
        self._autograd_meta().grad = value

    def _check_grad(self, value: TensorBase) -> None:
        """PyTorch's checks on an assigned ``.grad``, in PyTorch's order."""
        if value is self:
            raise RuntimeError("can't assign Variable as its own grad")
        if value._array.dtype != self._array.dtype:
            raise RuntimeError(errors.grad_dtype_mismatch(value._array.dtype, self._array.dtype))
        if value._array.shape != self._array.shape:
            raise RuntimeError(errors.grad_size_mismatch(value._array.shape, self._array.shape))

    def _autograd_meta(self) -> AutogradMeta:
        if self._meta is None:
            with _meta_lock:
                if self._meta is None:
                    self._meta = AutogradMeta()
        return self._meta

    def _retain_on_grad_fn(self) -> None:
        """Make backward store this non-leaf's gradient in ``.grad`` (``retain_grad``).

        The request lives on the current ``grad_fn``; an in-place write gives the tensor a new
        one, and ``graph.move_retained_grad`` moves the request with it (the old node's
        gradient is that of the old value).
        """
        node = self._grad_fn
        if node._retained is None:
            extend(node)  # (a built-in op's node has no ``__dict__``)
            node._retained = {}
            node._lean = False  # the engine's general path retains it
        node._retained[self._output_nr] = weakref.ref(self)

    def _gradient_edge(self) -> tuple[Node | None, int]:
        """Where a gradient for this tensor goes: its grad_fn, or its leaf accumulator."""
        if self._base is not None:
            self._sync_view()
        if self._grad_fn is not None:
            return self._grad_fn, self._output_nr
        if not self._requires_grad:
            # A view requiring grad only through its base has no edge of its own (PyTorch).
            return None, 0
        meta = self._meta
        if meta is None:
            meta = self._meta = AutogradMeta()
        if meta.accumulator is None:
            meta.accumulator = AccumulateGrad(self)
        return meta.accumulator, 0

    def _accumulate_grad(self, grad: Any, owned: bool = False) -> None:
        """Add ``grad`` (an array or, with create_graph, a tensor) into ``self.grad``.

        ``owned``: nothing but the caller holds the array ``grad`` (the engine checked its
        reference count), so a first gradient laid out like this tensor becomes ``.grad``
        without a copy, as PyTorch's AccumulateGrad steals a gradient nobody else refers to.
        """
        meta = self._meta or self._autograd_meta()
        with meta.lock:
            if owned and isinstance(grad, TensorBase):
                # A tensor hook's result that nobody else holds (never under create_graph):
                # PyTorch steals it if laid out like the leaf (.grad is its detach(), sharing
                # its memory and counter), else copies its values.
                if meta.grad is None and _obeys_layout(grad._array, self._array):
                    meta.grad = grad.detach()
                    return
                grad, owned = grad._array, False
            if meta.grad is None and grad_mode.is_grad_enabled():
                meta.grad = self._first_grad_recorded(grad)
                show_history(meta.grad)
            elif isinstance(grad, TensorBase):
                meta.grad = grad if meta.grad is None else meta.grad + grad
                show_history(meta.grad)
            elif meta.grad is None:
                if owned and isinstance(grad, np.generic):
                    # A 0-d formula's result numpy gave as a scalar: as fresh as an array
                    # (PyTorch steals its 0-d tensor: version 0, where a copy has 1).
                    grad = np.asarray(grad)
                if owned and _stealable(grad, self._array):
                    # (at the version of the in-place sums that made it, as PyTorch's buffer)
                    counter = grad_versions.counter_of(grad)
                    meta.grad = (new_result(grad) if counter is None
                                 else self.output_class._make(grad, counter=counter))
                else:
                    # Copy: the engine may hand the same array to several consumers.
                    copy, counter = _contract_copy(grad, self._array)
                    meta.grad = self.output_class._make(copy, counter=counter)
            else:
                target = meta.grad._array
                if has_internal_overlap(target):  # an expanded .grad: += would write twice
                    raise RuntimeError(errors.INTERNAL_OVERLAP)
                # debugging hook: a .grad saved for backward is read-only under the guard
                reopen = guard.before_counted_write(meta.grad) if switches.guard_used else None
                try:
                    np.add(target, grad, out=target, casting="unsafe")
                except ValueError:  # (a leaf whose buffer changed shape: PyTorch's += errors)
                    message = grad_fit_error(target.shape, grad.shape)
                    if message is None:
                        raise
                    raise RuntimeError(message) from None
                finally:
                    if reopen is not None:
                        reopen()
                meta.grad._version_counter().bump()

    def _first_grad_recorded(self, grad: Any) -> TensorBase:
        """A first ``.grad`` under create_graph: PyTorch's ``clone_obey_contract``, recorded.

        With grad mode on PyTorch never steals the gradient: it copies it into a new tensor
        laid out like this leaf (``new_empty_strided(...).copy_(grad)``: version 1, and
        CopyBackwards if ``grad`` requires grad), or, for a leaf that is not dense, clones it
        row-major (CloneBackward0, version 0).
        """
        if not isinstance(grad, TensorBase):  # (a constant gradient: nothing to record)
            grad = self.output_class._make(np.asarray(grad))
        if not is_non_overlapping_and_dense(self._array):
            from minigrad.ops.unary import contiguous_copy  # (the ops build on this module)

            return contiguous_copy(grad)
        # (In the gradient's dtype, as PyTorch's: another than the leaf's only for a leaf
        # whose buffer changed since the graph was recorded.)
        copy = self.output_class._make(empty_preserving_layout(self._array, grad._array.dtype))
        copy.copy_(grad)
        return copy

    def _type_name(self) -> str:
        """``minigrad.FloatTensor``: this tensor's legacy type name, as in PyTorch messages."""
        return type_name(self._array.dtype)



def show_history(tensor: TensorBase) -> None:
    """Let the collector see ``tensor``'s graph: an older object holds ``tensor`` from now on.

    A ``.grad``, or a tensor an in-place write gave its first history: the graph may lead back
    to that object (``leaf -> .grad -> its graph -> a node that saved the leaf``) through
    nodes hidden from the collector (autograd/collector.py). A view's node may be stale: its
    base's history is the one it will be regenerated from.
    """
    base = tensor._base
    node = tensor._grad_fn
    if base is not None and base._grad_fn is not None:
        collector.show_graph((node, base._grad_fn))
    elif node is not None:
        collector.show_graph((node,))


def _lone_local_count() -> int:
    """What ``sys.getrefcount`` says of an object only a local variable holds (2 on 3.11).

    Measured rather than assumed: an interpreter that loads locals without a new reference
    counts one less, and a fixed 2 would then take an array held once elsewhere as unshared.
    """
    value = object()
    return sys.getrefcount(value)


# The reference count of an array only one local variable holds (the engine's stealing test).
LONE_REFCOUNT = _lone_local_count()


def _stealable(grad: Any, like: np.ndarray) -> bool:
    """Whether ``grad``, an array only the caller holds, can become ``.grad`` of ``like``.

    It must look like the tensor (shape, dtype, strides: PyTorch's layout contract) and be
    writeable. Whose memory it is does not matter: PyTorch counts references to the gradient
    tensor, not to its storage, so a view its formula made (``x.view(3)``'s gradient, a slice
    of ``cat``'s) is stolen even if its base is the caller's gradient or a hook's tensor, and
    ``.grad`` then shares their memory. The array held only by the caller was checked there,
    but a view standing for a tensor held elsewhere (``grad_versions.held``) is not stolen.
    """
    return (
        type(grad) is np.ndarray
        and _obeys_layout(grad, like)
        and (grad.base is None or not grad_versions.is_held(grad))
    )


def _obeys_layout(grad: np.ndarray, like: np.ndarray) -> bool:
    """Whether ``grad`` may be ``.grad`` of ``like`` as it is (PyTorch's layout contract).

    Same dtype and shape, writeable, and laid out like ``like`` if that is non-overlapping and
    dense (the strides of dimensions of size 1 do not count, but 0 is a broadcast's), else
    row-major (``obeys_layout_contract``).
    """
    if grad.dtype is not like.dtype and grad.dtype != like.dtype or grad.shape != like.shape:
        return _obeys_layout_of_changed_leaf(grad, like)
    if not grad.flags.writeable:
        return False
    if grad.strides == like.strides:  # (the common case)
        return True
    if not is_non_overlapping_and_dense(like):
        return bool(grad.flags.c_contiguous)
    return all(
        stride != 0 if size == 1 else stride == wanted
        for size, stride, wanted in zip(grad.shape, grad.strides, like.strides)
    )


def _obeys_layout_of_changed_leaf(grad: np.ndarray, like: np.ndarray) -> bool:
    """``_obeys_layout`` for a gradient of another shape or dtype than the leaf ``like``.

    That happens to a leaf whose buffer changed (``x.data = ...``) after the graph was
    recorded: its gradients keep the recorded shape and dtype. PyTorch's layout contract
    (``obeys_layout_contract``) compares no shapes or dtypes, only each dimension's stride
    (in elements) with the leaf's stride at the same index, so such a gradient may become
    ``.grad`` as it is, of a shape and dtype the leaf no longer has.
    """
    if not grad.flags.writeable:
        return False
    if not is_non_overlapping_and_dense(like):
        return bool(grad.flags.c_contiguous)
    wanted = element_strides(like)
    for index, (size, stride) in enumerate(zip(grad.shape, element_strides(grad))):
        if size == 1:
            if stride == 0:
                return False
        elif index >= len(wanted) or stride != wanted[index]:
            return False
    return True


def grad_fit_error(target: tuple[int, ...], grad: tuple[int, ...]) -> str | None:
    """PyTorch's error for writing a gradient of shape ``grad`` into one of shape ``target``.

    None if it fits (``target`` is what the two broadcast to). Raised where a leaf whose
    buffer changed shape gets a gradient of the recorded shape: copied into a new ``.grad``
    of the leaf's shape, or added into the ``.grad`` it has.
    """
    try:
        shape = np.broadcast_shapes(target, grad)
    except ValueError:
        return errors.broadcast_mismatch(target, grad)
    return None if shape == target else errors.inplace_shape_mismatch(target, shape)


def _contract_copy(grad: Any, like: np.ndarray) -> tuple[np.ndarray, VersionCounter | None]:
    """A first ``.grad`` copied from ``grad``, as PyTorch's ``clone_obey_contract`` makes it.

    The gradient layout contract: laid out like the leaf ``like`` if that is non-overlapping
    and dense (PyTorch writes ``empty_strided(...).copy_(grad)``: the copy is at version 1),
    else row-major (``clone``: version 0). Returns the array and its counter (None: fresh).
    """
    if not is_non_overlapping_and_dense(like):
        return np.array(grad, dtype=like.dtype, order="C"), None
    # (In the gradient's dtype and broadcast to the leaf's shape: they differ only for a leaf
    # whose buffer changed since the graph was recorded. PyTorch copies with ``copy_``.)
    dtype = grad.dtype
    copy = empty_preserving_layout(like, None if dtype is like.dtype else dtype)
    try:
        np.copyto(copy, grad, casting="unsafe")
    except ValueError:  # (PyTorch's copy_ errors)
        message = grad_fit_error(like.shape, grad.shape)
        if message is None:
            raise
        raise RuntimeError(message) from None
    counter = VersionCounter()
    counter.bump()
    return copy, counter


def has_internal_overlap(array: np.ndarray) -> bool:
    """True if several elements of ``array`` share memory (an expanded dimension)."""
    if 0 not in array.strides:  # the common case, answered in C
        return False
    return bool(array.size) and any(
        stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)
    )


_new = object.__new__

# ``TensorBase.output_class`` as a module global, for ``new_result``: a class attribute read is
# a generic lookup on CPython 3.11 (~150 instructions of every untracked op result), a global
# a specialised one. Both set by ``set_output_class``.
_output_class: Any = None


def set_output_class(cls: type[TensorBase]) -> None:
    """Make ``cls`` the class of op results: ``TensorBase.output_class`` and ``new_result``'s."""
    global _output_class
    TensorBase.output_class = cls
    _output_class = cls


def set_array(tensor: TensorBase, array: np.ndarray, new_accumulator: bool = False) -> None:
    """Give ``tensor`` the buffer ``array`` in place of its own, with its shape and dtype.

    The one way an existing tensor's buffer changes (``.data = ...``, ``resize_``, an out=
    result resized, a materialized lazy parameter ...): ``_shape`` and ``_dtype`` follow it.
    A leaf whose accumulator exists and whose shape or dtype changes tells the accumulator:
    the gradients of nodes recorded before and after then differ in shape or dtype, so the
    engine sums them with its checks (``AccumulateGrad._buffer_changed``).
    ``new_accumulator``: the nodes recorded from now on reach a new accumulator, whatever
    changed (PyTorch's ``set_``; ``.data = ...`` makes one only for another dtype).
    """
    meta = tensor._meta
    if meta is not None and meta.accumulator is not None:
        old = tensor._array
        if array.shape != old.shape or array.dtype != old.dtype or new_accumulator:
            accumulator = meta.accumulator
            if not accumulator._buffer_changed:  # (the shape it was made for, kept once)
                accumulator._recorded_shape = old.shape
            accumulator._buffer_changed = True
            if array.dtype != old.dtype or new_accumulator:
                # PyTorch's ``set_data`` drops the accumulator of a leaf whose type changes:
                # the nodes recorded from now on reach a new one, made for the new buffer.
                meta.accumulator = None
    tensor._array = array
    tensor._shape = tensor._dtype = None  # (read when first needed)


def shape_of(tensor: TensorBase) -> tuple[int, ...]:
    """``tensor``'s shape (numpy's tuple), read from its buffer the first time only."""
    shape = tensor._shape
    if shape is None:
        shape = tensor._shape = tensor._array.shape
    return shape


def new_result(
    array: np.ndarray,
    grad_fn: Node | None = None,
    shape: tuple[int, ...] | None = None,
    dtype: np.dtype | None = None,
) -> Any:
    """An op's result: a ``minigrad.Tensor`` on ``array`` (not copied), first output of ``grad_fn``.

    ``TensorBase._make`` without its options, for the recording routine's hot path: every
    recorded or untracked op result is made here. ``shape``, ``dtype``: ``array.shape`` and
    ``array.dtype``, if the caller knows them already (None: read when first needed).
    """
    tensor = _new(_output_class)
    tensor._array = array
    tensor._shape = shape
    tensor._dtype = dtype
    # Made on first use (``_version_counter``), unless some thread is in inference mode, which
    # swaps the factory: then the kind of counter is decided by the thread making the tensor.
    tensor._counter = None if new_counter is VersionCounter else new_counter()
    tensor._requires_grad = False
    tensor._grad_fn = grad_fn
    tensor._output_nr = 0
    tensor._meta = None
    tensor._base = None
    tensor._view = None
    return tensor
