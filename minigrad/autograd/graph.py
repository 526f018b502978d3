"""Nodes of the backward graph (PyTorch's ``grad_fn`` objects) and the leaf accumulator.

Edges point to nodes, never to tensors: ``next_functions`` is a tuple of ``(node, output_nr)``
pairs, one per input of the forward op (``(None, 0)`` for an input that needs no gradient). So an
in-place write can rebind a tensor's ``grad_fn`` without touching history already recorded.

Also PyTorch's ``torch.autograd.graph`` module: ``Node`` and the saved-tensor hooks
(``saved_tensors_hooks``, ``save_on_cpu``, ``disable_saved_tensors_hooks``, defined in
``autograd/saved_hooks.py``).
"""

from __future__ import annotations

import itertools
import operator
import threading
import weakref
from collections.abc import Callable
from types import NoneType
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad import errors
from minigrad._dtype import type_name
from minigrad.autograd import anomaly, collector
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.read_only import ReadOnly
from minigrad.autograd.saved_hooks import (
    disable_saved_tensors_hooks,
    save_on_cpu,
    saved_tensors_hooks,
)

# Entries per saved value in a node's flat ``_saved`` tuple (the layout is autograd/saved.py's:
# value, counter, version, origin, had history, argument position).
SAVED_FIELDS = 6
# The length of the compact form of two saved inputs, ``(x_array, y_array)`` (autograd/saved.py).
SAVED_PAIR = 2
# The counter field of a saved output 0: its counter is in the node's slot of this name, or,
# while nobody has needed it, None there (autograd/saved.py, tensor_base.py).
SAVED_OUTPUT_COUNTER = "_output_counter"
# The ``_counter`` of that output's tensor meanwhile: "my counter is my node's, in its slot
# ``_output_counter``" (a string, so that it costs the collector nothing: tensor_base.py).
COUNTER_IN_NODE = "the counter in the node's slot _output_counter"

if TYPE_CHECKING:
    from minigrad.autograd.tensor_base import TensorBase

__all__ = [
    "Node",
    "RemovableHandle",
    "disable_saved_tensors_hooks",
    "save_on_cpu",
    "saved_tensors_hooks",
]

Edge = tuple["Node | None", int]

# Nodes made later run earlier in backward (PyTorch orders its ready queue the same way).
sequence_numbers = itertools.count()


# The slots a node class may have; ``node_slots`` picks a class's. The garbage collector's
# traversal of a node (twice per collection) and the node's freeing walk every member slot of
# every class level, set or not: ``Node`` declares none, and each concrete node class declares,
# at one level, only those its kind uses (benchmarks/README.md, branch ``nodediet``).
COMMON_SLOTS = (
    "_sequence_nr",  # later nodes run first in backward (PyTorch's order)
    "_input_meta",  # None, or per edge the (shape, dtype) a gradient must be brought to
)
# Flat saved values (autograd/saved.py): () nothing, None freed. Only the classes of ops that
# may save anything have the slot: a node of an op that declares ``saves = ()`` reads its
# class's ``()`` (``Node._keeps_saved`` False), and cannot save (function.py).
SAVED_SLOT = "_saved"
# Per input of the forward op, the node its gradient goes to (None: no gradient): a tuple in
# ``_next_nodes``, or, for the built-in ops of one or two inputs, one slot per edge
# (``EDGES_IN_SLOTS`` then makes the tuple when read).
EDGE_TUPLE_SLOT = "_next_nodes"
EDGE_SLOTS = {1: ("_next0",), 2: ("_next0", "_next1")}
# Per input of the forward op, which output of its edge's node it was: a tuple in
# ``_next_nrs``; for the classes with edges in slots, in ``_output_nrs`` only if one is not 0
# (unset otherwise, which the collector skips: ``EDGE_NRS`` reads it).
NRS_TUPLE_SLOT = "_next_nrs"
NONZERO_NRS_SLOT = "_output_nrs"
# The saved input tensors of arguments 0 and 1 (set only if saved): kept in the node rather
# than in ``_saved``, which then holds only atoms, so the garbage collector untracks it instead
# of traversing it at every collection (autograd/saved.py); and for the same reason the counter
# of output 0 if saved (``SAVED_OUTPUT_COUNTER``: None until something needs it,
# tensor_base.py). Only the classes of ops that may save them have these slots: a node of any
# other keeps such a value in its entry, as it keeps arguments from 2 on (``_kept_inputs``).
INPUT_SLOTS = ("_input0", "_input1")
# An extended node's side object (``extend``); on any other, once backward freed saved values
# among which a None, their types (``_freed_kinds``). Unset: neither.
EXTRA_SLOT = "_extra"


def node_slots(
    edges: int | None, inputs: int, output_counter: bool, saves: bool = True
) -> tuple[str, ...]:
    """The slots of a node class without ``__dict__``, in the order they are laid out.

    ``edges``: the number of edges kept in slots (a key of ``EDGE_SLOTS``), or None for a tuple;
    ``inputs``: how many of the input slots (0 to 2); ``output_counter``: whether the slot of
    output 0's counter; ``saves``: whether the slot of saved values (``SAVED_SLOT``). Every
    such class has ``COMMON_SLOTS`` and ``EXTRA_SLOT``.
    """
    edge_slots = ((EDGE_TUPLE_SLOT, NRS_TUPLE_SLOT) if edges is None
                  else (*EDGE_SLOTS[edges], NONZERO_NRS_SLOT))
    return (edge_slots + COMMON_SLOTS + ((SAVED_SLOT,) if saves else ()) + INPUT_SLOTS[:inputs]
            + ((SAVED_OUTPUT_COUNTER,) if output_counter else ()) + (EXTRA_SLOT,))


# What ``dir()`` lists of a node besides its saved values (PyTorch's), and of a custom
# Function's node besides (its ctx's API)
_NODE_API = frozenset((
    "metadata", "name", "next_functions", "register_hook", "register_prehook", "requires_grad",
    "variable", "_sequence_nr",
))
_CTX_API = frozenset((
    "mark_dirty", "mark_non_differentiable", "needs_input_grad", "save_for_backward",
    "saved_tensors", "set_materialize_grads",
))


class Node:
    """One recorded operation: where its gradients go, and what it saved to compute them.

    Edges are kept as two parallel tuples, ``_next_nodes`` and ``_next_nrs`` (no tuple per
    edge); ``next_functions`` pairs them up for readers. The nodes of built-in ops of one or
    two inputs keep their edges' nodes in the slots ``_next0`` and ``_next1`` instead, and
    ``_next_nodes`` makes the tuple when read (``EDGES_IN_SLOTS``). What a node uses lives in
    slots, which each concrete class declares for its kind (``node_slots``: ``Node`` has none,
    so a node's class has one level of them); the rarely-set attributes (hooks, anomaly's
    forward stack ...: ``RARE_ATTRIBUTES``)
    are the class-level defaults below until a node sets one. A built-in op's node has no
    ``__dict__`` (as PyTorch's C++ nodes, it takes no new attribute): setting one of those
    first makes it an instance of its class's twin, which keeps them in a side object
    (``extend``). A custom Function's node, its ctx, keeps a ``__dict__`` for the user's notes.
    """

    # (no member slot here: each concrete node class declares the slots it uses, at one level,
    # ``node_slots``; only the weak reference every node takes)
    __slots__ = ("__weakref__",)

    # output_nr -> the hook lists of the tensors that had that output (one, in practice)
    _pre_hooks: dict[int, list[list[Callable[[Any], Any]]]] | None = None
    _node_pre_hooks: list[Callable[..., Any]] | None = None  # register_prehook
    _post_hooks: list[Callable[..., Any]] | None = None
    _retained: dict[int, Any] | None = None  # output_nr -> weakref to a tensor that retains grad
    _forward_stack: list[str] | None = None  # filled in anomaly mode
    _anomaly_parent: Node | None = None  # ... with the node whose backward made this one
    _metadata: dict[str, Any] | None = None  # ``metadata``, made on first read
    # Whether saved values that are all None stay (never "freed"): unpacking them after
    # backward still works, as PyTorch's undefined saved variables do (a Function's node).
    _keeps_nones = False
    # Whether the gradients a hook or anomaly mode sees are the ones PyTorch's generated nodes
    # compute: one per edge, None on an edge that is not valid or leads nowhere this backward
    # needs (its ``task_should_compute_output``). A custom Function's node returns what its
    # backward returned instead, as PyTorch's Python node does.
    _computes_needed_edges_only = True
    _num_outputs = 1
    # Whether the engine's common path may run this node: no hook of any kind and no retained
    # gradient was ever registered on it (cleared at each registration; never set back, an
    # emptied hook list just runs the general path), and its kind needs nothing more.
    _lean = True
    # Whether its backward is minigrad's own code (a built-in op's formula, an accumulator):
    # no user code runs in it, so it cannot tell when leaves' accumulators run (engine.py).
    _builtin = False
    # Whether recording may take it out of the garbage collector's view once an op consumed
    # its output (autograd/collector.py): a built-in op's node, not extended (``extend``).
    _hideable = False
    _output_meta: tuple[tuple[tuple[int, ...], np.dtype], ...] | None = None
    # Which of ``INPUT_SLOTS`` the class has (a prefix), and whether the slot of output 0's
    # counter: what ``saved.pack`` may keep in the node (a node with a ``__dict__`` takes all).
    _kept_inputs: tuple[str, ...] = INPUT_SLOTS
    _keeps_output_counter = True
    # Whether the class has the slot ``_saved`` (``SAVED_SLOT``); without it, a node reads
    # this ``()``: it saved nothing, and backward frees nothing (no "backward twice" error).
    _keeps_saved = True
    _saved: tuple[Any, ...] | None = ()
    # Whether the class-level defaults above can be set on a node as they are: its class
    # keeps a ``__dict__`` (a custom Function's ctx, the accumulator), or is an extended twin
    # (``extend``). A built-in op's node has no ``__dict__``: as PyTorch's, it takes no new
    # attribute, and it costs no dict at its making and freeing.
    _open = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Mark a node class that keeps a ``__dict__`` as open (``_open``): it needs no twin."""
        super().__init_subclass__(**kwargs)
        slots = cls.__dict__.get("__slots__")
        if slots is None or "__dict__" in slots:  # (a class without ``__slots__`` has one)
            cls._open = True

    @property
    def _freed_none(self) -> frozenset[int]:
        """The saved positions that held None, once backward freed the values (else empty)."""
        return frozenset(i for i, kind in enumerate(self._freed_kinds) if kind is NoneType)

    @property
    def _freed_kinds(self) -> tuple[type, ...]:
        """The types of the saved values, once backward freed them with a None among them.

        Rare, and written on the engine's path: kept in the slot ``_extra`` (unset until then,
        read as ``()``), which an extended node's twin uses for its side object instead, where
        they then are (``extend``).
        """
        return getattr(self, EXTRA_SLOT, ())

    @_freed_kinds.setter
    def _freed_kinds(self, kinds: tuple[type, ...]) -> None:
        """Keep the freed values' types in the slot ``_extra`` (see the getter)."""
        self._extra = kinds

    @ReadOnly
    def next_functions(self) -> tuple[Edge, ...]:
        """One ``(node, output_nr)`` per input of the forward op (``(None, 0)``: no gradient)."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    def name(self) -> str:
        """The node's type name, e.g. ``SigmoidBackward0`` (as in PyTorch)."""
        return type(self).__name__

    @property
    def _held_nodes(self) -> tuple[Node | None, ...]:
        """The nodes this one keeps alive: its edges' (``collector.show_graph`` walks them)."""
        return self._next_nodes

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refuse pickling, ``copy.copy`` and ``copy.deepcopy``, with PyTorch's text.

        A node holds its graph's history and saved buffers: PyTorch's nodes cannot be
        pickled nor copied (``cannot pickle 'SigmoidBackward0' object``).
        """
        raise TypeError(f"cannot pickle '{type(self).__name__}' object")

    def __reduce__(self) -> Any:
        """Refuse, as ``__reduce_ex__``."""
        raise TypeError(f"cannot pickle '{type(self).__name__}' object")

    def __dir__(self) -> list[str]:
        """PyTorch's listing: the node's API and what the op saved (``_saved_*``).

        Not the slots the engine keeps on a node (``_next_nodes``, ``_saved`` ...) nor the
        options an op declares (``dim``, ``alpha``: PyTorch shows them as ``_saved_dim``...).
        A custom Function's node, which is also its ctx, lists the ctx API and what forward
        set on it too, as PyTorch's. (Only a listing: nothing is hidden from reading.)
        """
        builtin = self._builtin
        notes = () if builtin else getattr(self, "__dict__", ())
        return [
            name for name in object.__dir__(self)
            if name.startswith(("__", "_saved_", "_raw_saved_")) or name in _NODE_API
            or not builtin and (name in _CTX_API or name in notes and name[0] != "_")
        ]

    @ReadOnly
    def requires_grad(self) -> bool:
        """True, as PyTorch's: a node is recorded only where an output requires grad."""
        return True

    @ReadOnly
    def metadata(self) -> dict[str, Any]:
        """A dict for the user's own annotations (PyTorch's ``grad_fn.metadata``)."""
        if self._metadata is None:
            extend(self)
            self._metadata = {}
        return self._metadata

    def register_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(grad_inputs, grad_outputs)`` after this node's backward has run.

        ``grad_inputs`` are the gradients the node computed for its inputs; the hook may return
        a tuple to replace them.

        Example:
            >>> import minigrad
            >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * 3
            >>> handle = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
            >>> handle.remove()
        """
        if self._post_hooks is None:
            extend(self)
            self._post_hooks = []
            self._lean = False
        self._post_hooks.append(hook)
        return RemovableHandle(self._post_hooks, hook)

    def register_prehook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Call ``hook(grad_outputs)`` before this node's backward runs.

        ``grad_outputs`` are the gradients arriving at the node (after its tensors' own
        hooks); the hook may return a tuple of the same length to replace them.

        Example:
            >>> import minigrad
            >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * 3
            >>> handle = y.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
            >>> y.sum().backward()
            >>> x.grad
            tensor([30., 30.])
        """
        if self._node_pre_hooks is None:
            extend(self)
            self._node_pre_hooks = []
            self._lean = False
        self._node_pre_hooks.append(hook)
        return RemovableHandle(self._node_pre_hooks, hook)

    def _register_tensor_hooks(self, output_nr: int, hooks: list[Callable[[Any], Any]]) -> None:
        # A tensor's list of hooks (its ``_backward_hooks`` in PyTorch, which the tensor may
        # still grow) runs on the gradient of its output before this node consumes it.
        if self._pre_hooks is None:
            extend(self)
            self._pre_hooks = {}
            self._lean = False
        self._pre_hooks.setdefault(output_nr, []).append(hooks)

    def __call__(self, *grads: Any, **kwargs: Any) -> Any:
        """Run this node's backward on ``grads``, one per output: its inputs' gradients.

        As PyTorch's ``grad_fn(grad)``: no hook runs (a leaf's post-accumulate hooks do, they
        are part of accumulating), the saved values are kept, and with grad mode on the
        computation is recorded. One gradient per ``next_functions`` entry (None where an input
        needs none): alone for a node of one edge, else a tuple.

        Example:
            >>> import minigrad
            >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * 3
            >>> y.grad_fn(minigrad.ones(2))
            (tensor([3., 3.]), None)
        """
        # engine.py builds on this module: imported at call time
        from minigrad.autograd.engine import call_node

        return call_node(self, grads, kwargs)

    def _release_saved(self) -> None:
        """Free the saved values once backward has used them (unless the graph is retained).

        (``BackwardNode._backward`` frees the common case itself, without Nones or the guard:
        what it clears must stay what this clears.)
        """
        saved = self._saved
        if saved:
            # What was saved as None still reads as None (``grad_fn._saved_other``). A None
            # has no counter (autograd/saved.py's layout: SAVED_FIELDS entries per value, the
            # counter second); counters compare by identity, so this first test is cheap, and
            # only the values' types are kept (``_freed_none`` reads them when asked).
            kinds = None
            # (the compact pair, two tensors' arrays, holds no None: autograd/saved.py)
            if len(saved) != SAVED_PAIR and None in saved[1::SAVED_FIELDS]:
                kinds = tuple(map(type, saved[::SAVED_FIELDS]))
                if kinds.count(NoneType) == len(kinds) and self._keeps_nones:
                    return  # only Nones (PyTorch's undefined saved variables): nothing to free
            if switches.guarded:  # debugging hook: lift the guard's protection (autograd/guard.py)
                # guard.py -> saved_access.py -> variable.py -> this module: import at call time.
                from minigrad.autograd import guard

                guard.release(self)
            if kinds is not None:
                self._freed_kinds = kinds
            self._saved = None  # using them again is "backward through the graph a second time"
            for name in self._kept_inputs:  # (the saved inputs' tensors, if any)
                setattr(self, name, None)

    def _backward(
        self, grads: list[Any], as_tensors: bool = False, release: bool = False, run: Any = None
    ) -> tuple[Any, ...] | None:
        """Gradients for ``next_functions`` from the gradients of this node's outputs.

        ``as_tensors`` (create_graph): the gradients are tensors and the computation is recorded.
        ``release``: free the saved values once the gradients are computed (the engine's
        common path without ``retain_graph``; ``_release_saved`` does it otherwise).
        ``run``: the engine's run (``engine.Run``) on its common path. A node may deliver its
        gradients to it along its edges itself and return None (the built-in ops' runners
        do); otherwise it returns them, and the engine delivers them.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"


def _set_one_edge(node: Node, nodes: tuple[Node | None, ...]) -> None:
    (node._next0,) = nodes


def _set_two_edges(node: Node, nodes: tuple[Node | None, ...]) -> None:
    node._next0, node._next1 = nodes


def _one_edge(node: Node) -> tuple[Node | None]:
    return (node._next0,)


# ``_next_nodes`` for the node classes whose one or two edges live in ``_next0`` and ``_next1``.
# A tuple of nodes is an object the garbage collector tracks, and a graph kept alive (a long
# forward pass) keeps one per node: each collection of the old generation traverses them all.
# Slots cost no object; the tuple is made when the engine reads the edges, and freed at once.
# (Two edges: ``attrgetter`` makes the tuple in C.)
EDGES_IN_SLOTS = {
    1: property(_one_edge, _set_one_edge, doc="The node's edge, as a 1-tuple."),
    2: property(operator.attrgetter("_next0", "_next1"), _set_two_edges,
                doc="The node's two edges, as a tuple."),
}


_ZERO_NRS = {1: (0,), 2: (0, 0)}


def _edge_nrs(node: Node) -> tuple[int, ...]:
    # (rarely read: the engine reads it for a node of several outputs or dependencies)
    nrs = getattr(node, NONZERO_NRS_SLOT, None)
    return _ZERO_NRS[node._num_args] if nrs is None else nrs


def _set_edge_nrs(node: Node, nrs: tuple[int, ...]) -> None:
    if any(nrs):
        node._output_nrs = tuple(nrs)
    elif getattr(node, NONZERO_NRS_SLOT, None) is not None:
        del node._output_nrs


# ``_next_nrs`` of the node classes whose edges live in slots: ``_output_nrs`` if set, else
# zeros (every input a leaf or a first output: the common case, which stores nothing).
EDGE_NRS = property(_edge_nrs, _set_edge_nrs, doc="Per edge, the output of its node it was.")


# An edge not connected yet, of an input that needs a gradient: recording sets it from the
# node's ``needs_input_grad`` before forward runs, and connects the edge once forward returned.
PENDING_EDGE = "an edge to connect once forward returned: its input needs a gradient"
_NEEDS_ONE = ((False,), (True,))  # by ``edge is valid``
_NEEDS_TWO = ((False, False), (True, False), (False, True), (True, True))  # by bits


def _one_need(node: Node) -> tuple[bool]:
    return _NEEDS_ONE[node._next0 is not None]


def _two_needs(node: Node) -> tuple[bool, bool]:
    # (tests, not ``a + 2 * b``: CPython 3.11 specialises no arithmetic on bools)
    if node._next0 is None:
        return _NEEDS_TWO[2] if node._next1 is not None else _NEEDS_TWO[0]
    return _NEEDS_TWO[3] if node._next1 is not None else _NEEDS_TWO[1]


def _set_one_need(node: Node, needs: tuple[bool, ...]) -> None:
    node._next0 = PENDING_EDGE if needs[0] else None


def _set_two_needs(node: Node, needs: tuple[bool, ...]) -> None:
    node._next0 = PENDING_EDGE if needs[0] else None
    node._next1 = PENDING_EDGE if needs[1] else None


# ``needs_input_grad`` of the node classes whose edges live in slots (``EDGES_IN_SLOTS``):
# input i needs a gradient exactly when edge i is valid (PyTorch's generated nodes answer
# ``task_should_compute_output`` from their edges), so it is read from the edges rather than
# kept per node, a slot fewer for the collector to visit. Set before forward (the recording
# routines do, with the inputs' needs; an option's entry is always False and is dropped),
# it makes the edges ``PENDING_EDGE`` or None until recording connects them.
NEEDS_FROM_EDGES = {
    1: property(_one_need, _set_one_need, doc="Whether the input needs a gradient: (bool,)."),
    2: property(_two_needs, _set_two_needs, doc="Per input, whether it needs a gradient."),
}


# PyTorch's node of an op it has no derivative for (printed ``<NotImplemented>``): its backward
# raises, and its C++ constructor collects edges only to the inputs that require grad.
NOT_IMPLEMENTED = "torch::autograd::NotImplemented"


def _edges_to_gradients(node: Node) -> tuple[Edge, ...]:
    """``next_functions`` of a NotImplemented node: no ``(None, 0)`` entries, as PyTorch's.

    (The engine still reads every edge: the node's backward raises before any is used.)
    """
    return tuple(edge for edge in zip(node._next_nodes, node._next_nrs) if edge[0] is not None)


NOT_IMPLEMENTED_EDGES = ReadOnly(_edges_to_gradients, _edges_to_gradients.__doc__, "next_functions")


class RemovableHandle:
    """Returned by the ``register_*hook`` methods: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        for index, registered in enumerate(self._hooks):
            if registered is self._hook:
                del self._hooks[index]
                return

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


# The class-level defaults of ``Node`` (and ``BackwardNode``'s ctx API) that a node may set
# for itself: hooks, retained gradients, anomaly mode's notes, the outputs of a node of several,
# ``metadata``, what ``mark_dirty`` and kin declare.
RARE_ATTRIBUTES = (
    "_pre_hooks", "_node_pre_hooks", "_post_hooks", "_retained", "_forward_stack",
    "_anomaly_parent", "_lean", "_num_outputs", "_output_meta", "_metadata", "_dirty",
    "_non_differentiable", "_materialize_grads",
)
_twins: dict[type, type] = {}  # a node class without ``__dict__`` -> its extended twin


def extend(node: Node) -> None:
    """Let ``node`` set the rarely set attributes (``RARE_ATTRIBUTES``) for itself.

    A node of a class with ``__dict__`` keeps them there already. Any other (a built-in op's)
    becomes an instance of its class's twin: a subclass of the same name and layout whose
    properties keep them in one side object in the slot ``_extra``, starting from the class's
    values. The engine reads them as before: the class's defaults on every other node.
    """
    cls = type(node)
    if cls._open:
        return
    twin = _twins.get(cls)
    if twin is None:
        twin = _twins[cls] = _make_twin(cls)
    kinds = node._freed_kinds  # (the slot's value until now: see ``Node._freed_kinds``)
    extra = node._extra = twin._Extra()  # (its class's values as class-level defaults: no copy)
    if kinds:
        extra._freed_kinds = kinds
    node.__class__ = twin
    collector.show(node)  # it may now hold what a user supplied: a cycle the collector frees


def _make_twin(cls: type) -> type:
    """``cls``'s twin: same name and layout, the rarely set attributes in ``_extra``."""
    defaults = {name: getattr(cls, name, None) for name in RARE_ATTRIBUTES}
    defaults["_freed_kinds"] = ()  # (the slot ``_extra`` holds the side object instead)
    namespace: dict[str, Any] = {
        "__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__, "_open": True, "_hideable": False,
        "_Extra": type(f"{cls.__name__}Extra", (), {"__module__": cls.__module__, **defaults}),
    }
    for name in defaults:
        namespace[name] = property(operator.attrgetter(f"_extra.{name}"), _setter(name))
    return type(cls.__name__, (cls,), namespace)


def _setter(name: str) -> Callable[[Any, Any], None]:
    """The twin's setter of the rarely set attribute ``name``: into the side object."""

    def set_rare(node: Any, value: Any) -> None:
        """``node.<name> = value``, kept in ``node._extra``."""
        setattr(node._extra, name, value)

    return set_rare


class ClosedNode(Node):
    """A node that keeps a ``__dict__`` for minigrad's own notes, shown as PyTorch's C++ node.

    PyTorch's ``AccumulateGrad`` and ``CopySlices`` take no new attribute and have no
    ``__dict__``. Their minigrad classes keep one (rather than a twin, ``extend``: the engine
    tells them by their exact type), for the names in the class's ``_kept_names`` only; each
    concrete subclass hides it with ``__dict__ = HIDDEN_DICT`` (a data descriptor below the
    class that declares the dict: Python's own attribute storage still uses the dict).
    Assigning or deleting anything else raises Python's texts for an object without
    ``__dict__``, which PyTorch's are.
    """

    __slots__ = ("__dict__",)
    _open = True
    _kept_names: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        """Set one of ``_kept_names``; refuse anything else (``acc.foo = 1``)."""
        if name not in self._kept_names:
            attribute = _class_attribute(type(self), name)
            if attribute is _MISSING:
                raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
            if not hasattr(type(attribute), "__set__"):  # (a data descriptor raises its own)
                raise AttributeError(
                    f"'{type(self).__name__}' object attribute '{name}' is read-only")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        """Refuse as PyTorch's node: its own notes are no attributes of a C++ node."""
        attribute = _class_attribute(type(self), name)
        if attribute is _MISSING or name in self._kept_names:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        if not hasattr(type(attribute), "__delete__"):  # (a data descriptor raises its own)
            raise AttributeError(f"'{type(self).__name__}' object attribute '{name}' is read-only")
        object.__delattr__(self, name)


def _class_attribute(cls: type, name: str) -> Any:
    """What ``name`` is in ``cls`` or a base, as Python looks it up (``_MISSING``: nothing)."""
    return next((klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__),
                _MISSING)


def _no_dict(node: Node, *value: Any) -> dict[str, Any]:
    """Python's text for an object without ``__dict__`` (PyTorch's C++ nodes have none).

    The getter, setter (``value``) and deleter of ``HIDDEN_DICT`` alike.
    """
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '__dict__'")


# ``ClosedNode``'s subclasses' ``__dict__``: read, assigned or deleted, it is not there.
HIDDEN_DICT = property(_no_dict, _no_dict, _no_dict)
_MISSING = object()
# The dict a ``ClosedNode`` really keeps, for its own code (``vars`` would read ``__dict__``)
own_dict = ClosedNode.__dict__["__dict__"].__get__


class AccumulateGrad(ClosedNode):  # repr and type name "AccumulateGrad", name() PyTorch's C++ one
    """The node at a leaf that requires grad: adds the incoming gradient to ``leaf.grad``.

    The leaf keeps its accumulator (so it is made once, not once per op) and the accumulator
    refers to the leaf weakly: no reference cycle keeps a dropped leaf's buffer alive.
    """

    __slots__ = ("_variable",)
    __dict__ = HIDDEN_DICT  # (its ``__dict__`` takes only ``_kept_names``: ClosedNode)
    _builtin = True
    # What every node has, the same on every accumulator: no edge, nothing saved, and
    # PyTorch runs accumulation as soon as it is ready
    _next_nodes: tuple[Node | None, ...] = ()
    _next_nrs: tuple[int, ...] = ()
    _saved: tuple[Any, ...] | None = ()
    _input_meta = None
    _sequence_nr = float("inf")
    # Whether the leaf's buffer changed shape or dtype since the accumulator was made
    # (``tensor_base.set_array``): the gradients of nodes recorded before and after may then
    # differ, and the engine sums them checked (engine.py ``_unseen_accumulator``). Set in
    # the node's ``__dict__``, only then; never cleared.
    _buffer_changed = False
    # The leaf's shape when the accumulator was made (PyTorch's input metadata), set with
    # ``_buffer_changed``: each gradient is checked against it (``fit_recorded``).
    _recorded_shape: tuple[int, ...] | None = None

    def __init__(self, variable: TensorBase) -> None:
        self._variable = weakref.ref(variable)
        if anomaly._state.enabled:  # (made in anomaly mode: PyTorch's Node constructor keeps
            anomaly.remember_creation(self)  # the stack and parent, as any node's)

    @ReadOnly
    def variable(self) -> TensorBase | None:
        """The leaf tensor (None once it has been dropped)."""
        return self._variable()

    def name(self) -> str:
        """``torch::autograd::AccumulateGrad``, PyTorch's C++ name for it."""
        return "torch::autograd::AccumulateGrad"

    def fit_recorded(self, grad: Any, node: Node, index: int) -> Any:
        """``grad``, from edge ``index`` of ``node``, fitted to the leaf as first recorded.

        Only for an accumulator whose leaf's buffer changed shape since (``_buffer_changed``):
        PyTorch's engine validates every gradient against the accumulator's input metadata,
        summing a gradient the recorded shape broadcasts to, and otherwise raising.
        """
        shape = self._recorded_shape
        if shape is None or tuple(grad.shape) == shape:
            return grad
        try:
            expandable = np.broadcast_shapes(shape, tuple(grad.shape)) == tuple(grad.shape)
        except ValueError:
            expandable = False
        if not expandable:
            raise RuntimeError(errors.invalid_grad_shape(node.name(), index, grad.shape, shape))
        return sum_to_shape(grad, shape)

    def _backward(
        self, grads: list[Any], as_tensors: bool = False, release: bool = False, run: Any = None
    ) -> tuple[Any, ...]:
        self._accumulate(grads[0])  # (nothing saved: nothing to release)
        return ()

    def _accumulate(self, grad: Any, owned: bool = False) -> None:
        """Add ``grad`` into the leaf's ``.grad``, then run its post-accumulate hooks.

        ``owned``: the engine proved that nothing else holds ``grad`` (a fresh array), so a
        first gradient may become ``.grad`` itself instead of a copy, as PyTorch steals it.
        """
        variable = self._variable()
        if variable is None:
            return
        # The leaf may have changed since the graph was recorded (PyTorch checks the same):
        # an in-place op gave it history, or detach_() / requires_grad_(False) turned it off.
        # PyTorch reads its grad_fn: a view leaf catches up with its base first, and has
        # history if the base got some (``t0.copy_(t0.view(-1).requires_grad_())``).
        if variable._base is not None:
            variable._sync_view()
        if variable._grad_fn is not None:
            raise RuntimeError("leaf variable has been moved into the graph interior")
        # (A leaf's own flag first: ``requires_grad`` reads it after the tests made above.)
        if variable._requires_grad or variable.requires_grad:
            variable._accumulate_grad(grad, owned)
        # The hooks run even for a leaf that stopped requiring grad after the graph was
        # recorded (``detach_()``, ``requires_grad_(False)``): PyTorch calls them, .grad unchanged.
        if variable._meta.post_accumulate_hooks:
            _run_post_accumulate_hooks(variable)


# What an accumulator keeps (``ClosedNode``): its own notes and the rarely set attributes of
# every node.
AccumulateGrad._kept_names = frozenset(
    ("_variable", "_buffer_changed", "_recorded_shape", *RARE_ATTRIBUTES))


def _run_post_accumulate_hooks(variable: Any) -> None:
    """Call the leaf's post-accumulate hooks, which must return None (PyTorch's ``_call_hooks``).

    A hook that returns another tensor is checked as a tensor hook's result and handed to the
    hooks after it in the leaf's place; once all ran, returning one at all raises.
    """
    given, returned = variable, False
    for hook in list(variable._meta.post_accumulate_hooks):  # a hook may remove itself
        result = hook(given)
        if result is None or result is given:
            continue
        check_hook_result(hook, result, given)
        given, returned = result, True
    if returned:
        raise RuntimeError(errors.POST_ACCUMULATE_HOOK_RETURNED)


def check_hook_result(hook: Callable[[Any], Any], result: Any, grad: Any) -> None:
    """PyTorch's checks on what a tensor hook returned: a tensor of the same type and size.

    ``grad``: what the hook was given (a gradient; a post-accumulate hook's tensor).
    """
    if not hasattr(result, "_array"):  # not a tensor (TensorBase: imported only for types)
        raise TypeError(
            f"expected Variable, but hook returned '{errors.python_type_name(result)}'"
        )
    name = getattr(hook, "__name__", repr(hook))
    dtype = getattr(grad, "_array", grad).dtype  # a tensor, or an array
    if result._array.dtype != dtype:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was {type_name(dtype)} got "
            f"{result._type_name()})"
        )
    if tuple(result.shape) != tuple(grad.shape):
        raise RuntimeError(errors.hook_changed_size(name))


def follow_new_grad_fn(tensor: TensorBase, old_node: Node | None, old_output_nr: int) -> None:
    """``tensor``'s ``grad_fn`` changed (an in-place op, a regenerated view): its hooks' list ends.

    PyTorch's ``update_tensor_hooks_on_new_gradfn``: the hooks registered so far stay with the
    old node (its ``_pre_hooks`` holds their list), the next ``register_hook`` starts a new
    list for the new node; a ``retain_grad`` request moves to the new node.
    ``detach_()`` is not such a change: the list stays, and runs on the leaf's gradient.
    """
    meta = tensor._meta
    if meta is None:
        return
    meta.hooks = None
    if meta.retains_grad:
        move_retained_grad(tensor, old_node, old_output_nr)


def move_retained_grad(tensor: TensorBase, old_node: Node | None, old_output_nr: int) -> None:
    """After ``tensor``'s ``grad_fn`` changed, let its ``retain_grad`` follow it (PyTorch's rule).

    An in-place op gives a tensor a new node, and a view's node is regenerated after its base
    changed: the gradient to retain is then the one arriving at the new node.
    """
    retained = None if old_node is None else old_node._retained
    if not retained:
        return
    reference = retained.get(old_output_nr)
    if reference is None or reference() is not tensor:
        return
    del retained[old_output_nr]
    new_node = tensor._grad_fn
    if new_node is not None:
        if new_node._retained is None:
            extend(new_node)
            new_node._retained = {}
            new_node._lean = False
        new_node._retained[tensor._output_nr] = reference


class _DirectCall(threading.local):
    """Whether this thread is running a node called directly (``grad_fn(grad)``)."""

    active = False


# A node called directly returns its formula's gradients as they are: PyTorch's engine fits
# them to the inputs (sums a broadcast gradient, casts its dtype: ``validate_outputs``) only
# in a backward pass. ``direct_calls`` has an entry per thread running one, so that fitting
# (``BackwardNode._fit_grads``) reads one global when none runs, the thread's flag otherwise.
direct_call = _DirectCall()
direct_calls: dict[int, bool] = {}


def new_sequence_nr() -> int:
    """A number that grows with every node made: later nodes run first in backward."""
    return next(sequence_numbers)


def sum_to_shape(grad: Any, shape: tuple[int, ...]) -> Any:
    """Undo broadcasting: sum ``grad`` down to ``shape`` (the one place this is done).

    Written with numpy functions, so it also runs on tensors (create_graph).
    """
    grad_shape = tuple(grad.shape)
    if not shape and grad_shape:
        # PyTorch's sum_to: a plain sum (recorded as SumBackward0); numpy's is a scalar
        total = np.sum(grad)
        return np.asarray(total) if isinstance(total, np.generic) else total
    extra = len(grad_shape) - len(shape)
    if extra and grad_shape[extra:] == shape and type(grad) is np.ndarray:
        # Broadcast along new leading dimensions only (a bias's gradient): the steps below
        # without looking for size-1 dimensions. (Summed keeping them, then viewed to the
        # shape, as PyTorch's sum_to: ``autograd.grad`` hands out that view as a view.)
        return _add_reduce(grad, tuple(range(extra)), None, None, True).reshape(shape)
    axes = tuple(range(extra)) + tuple(
        extra + i for i, size in enumerate(shape) if size == 1 and grad_shape[extra + i] != 1
    )
    if axes:
        grad = sum_keeping_dims(grad, axes)
    if not extra:
        return grad
    return grad.reshape(shape) if type(grad) is np.ndarray else np.reshape(grad, shape)


def sum_keeping_dims(x: Any, axis: int | tuple[int, ...] | None) -> Any:
    """``np.sum(x, axis=axis, keepdims=True)``; on an array, without np.sum's Python layers.

    np.sum of an array is ``np.add.reduce`` (the same values) behind ~1 µs of argument
    handling, which the small reductions of a training step (a bias's gradient, softmax's
    normaliser) pay on every call. Other operands (tensors, under create_graph) go through
    np.sum and its dispatch.
    """
    if type(x) is np.ndarray:
        return _add_reduce(x, axis, None, None, True)
    return np.sum(x, axis=axis, keepdims=True)


_add_reduce = np.add.reduce  # (bound once: the attribute lookup costs on every call)
