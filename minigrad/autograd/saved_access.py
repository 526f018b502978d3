"""Read-only access to what a node saved, for the debugging aids (guard, explain, pictures).

``saved_entries`` is the ONE place outside the recording path that knows how a node stores its
saved values (flat in ``node._saved``, read through ``saved.saved_values``; a ``CopySlices``
node keeps them on the op it wraps). Everything that inspects saved values goes through it, so
a change of that layout is adapted here and nowhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from minigrad._dtype import backend_type_name
from minigrad.errors import format_size

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node
    from minigrad.autograd.tensor_base import TensorBase
    from minigrad.autograd.version import VersionCounter


class SavedEntry(NamedTuple):
    """One value a node saved for backward.

    ``role`` is ``"input"`` (one of the op's inputs), ``"output"`` (one of its results),
    ``"private value"`` (an intermediate nobody else can write to: never version-checked) or
    ``"exposed value"`` (such an intermediate once ``grad_fn._saved_<name>`` handed it out as
    a tensor: checked from then on, ``saved.unpack_exposed``). ``counter`` and
    ``saved_version`` are None for private values.
    """

    owner: Node  # the node whose backward unpacks it (the op inside a CopySlices)
    index: int  # position among the owner's saved values
    role: str
    value: Any  # the array (or number) kept
    counter: VersionCounter | None
    saved_version: int | None
    tensor: TensorBase | None  # the saved input tensor itself (inputs only)
    output_nr: int  # which output of ``owner`` (outputs only), or of the input's producer
    handle: Any  # the object that holds the value (identity used by the guard)

    @property
    def is_stale(self) -> bool:
        """True if an in-place write bumped the counter since: backward will raise."""
        return self.counter is not None and self.counter.version != self.saved_version

    def describe(self) -> str:
        """``[minigrad.FloatTensor [3]]`` for an array, the repr for anything else."""
        value = self.value
        shape = getattr(value, "shape", None)
        if shape is None:
            return repr(value)
        kind = backend_type_name(value.dtype)
        return f"[{kind} {format_size(shape)}]"


def wrapped_node(node: Node) -> Node | None:
    """The op a ``CopySlices`` node wraps (None for other nodes, or once it has run)."""
    return getattr(node, "_fn", None)


def is_released(node: Node) -> bool:
    """True once backward freed the node's saved values (without ``retain_graph``)."""
    if type(node).__name__ == "CopySlices":
        return node._fn is None  # type: ignore[attr-defined]
    return node._saved is None


def saved_entries(node: Node) -> list[SavedEntry]:
    """What ``node`` saved for backward, in order (empty once released, or if it saved nothing)."""
    # variable.py and saved.py lead back here (via guard.py): import at call time.
    from minigrad.autograd.saved import handle, saved_values
    from minigrad.autograd.tensor_base import TensorBase

    inner = wrapped_node(node)
    if inner is not None:
        return saved_entries(inner)
    entries = []
    for index, value, counter, version, origin in saved_values(node):
        if value is None and counter is None:
            continue  # a None passed to save_for_backward
        tensor = origin if isinstance(origin, TensorBase) else None
        role = ("private value" if counter is None else "input" if tensor is not None
                else "exposed value" if origin is None else "output")
        # An output's origin is its number (or, written through a view, a weak reference: 0).
        if tensor is not None:
            output_nr = tensor._output_nr
        else:
            output_nr = origin if type(origin) is int else 0
        entries.append(SavedEntry(node, index, role, value, counter,
                                  None if counter is None else version, tensor, output_nr,
                                  handle(node, index)))
    return entries


def graph_nodes(roots: list[Node]) -> list[Node]:
    """Every node reachable from ``roots`` through ``next_functions``, each once, roots first.

    Depth-first in edge order, so the order is the same on every run (pictures and explanations
    list nodes in it).
    """
    seen: set[int] = set()
    order: list[Node] = []
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)
    return order


def is_view_node(node: Node) -> bool:
    """True for the node of a view op (``ViewBackward0``, ``AsStridedBackward0``...)."""
    # views.py -> record.py -> saved.py -> guard.py -> this module: import at call time.
    from minigrad.autograd.views import AsStrided, ViewOp

    function = getattr(node, "_function", None)
    return isinstance(function, type) and issubclass(function, (ViewOp, AsStrided))


def grad_fn_of(tensor: TensorBase) -> Node | None:
    """``tensor.grad_fn``, or the node it had if bringing a view's history up to date fails.

    A view whose base was modified in place gets a new ``grad_fn`` when next read; for some views
    (outputs of ``split``, views made under ``no_grad``) that raises, as in PyTorch. The
    debugging aids must still show such a graph, so they fall back to the recorded node.
    """
    try:
        return tensor.grad_fn
    except RuntimeError:
        return tensor._grad_fn
