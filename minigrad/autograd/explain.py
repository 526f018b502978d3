"""explain and who_saved: what each node saved, and which in-place writes would break backward.

``explain(tensor)`` prints, node by node, what the backward graph of ``tensor`` saved and why,
the saved and current versions, and which in-place writes would now make backward raise.
``who_saved(t)`` answers the question to ask before writing into ``t`` in place: which live
nodes saved it (they would raise), and which saved its memory under another version counter
(``.data``, ``from_numpy``: they would silently compute wrong gradients).

Neither unpacks a saved value, so both work on graphs that backward would reject.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import IO, Any, NamedTuple

import numpy as np

from minigrad.autograd import collector, saved_access, write_tracking
from minigrad.autograd.graph import AccumulateGrad, Node
from minigrad.autograd.saved_access import SavedEntry
from minigrad.autograd.tensor_base import TensorBase
from minigrad.errors import format_size

# Why a node keeps each kind of value.
_WHY = {
    "input": "an input: backward needs its value",
    "output": "its result: backward is written in terms of it",
    "private value": "an intermediate of its own: nobody else can write to it, never checked",
    "exposed value": "an intermediate of its own, handed out by grad_fn._saved_<name>: checked",
}


class SavedBy(NamedTuple):
    """A node that saved (the memory of) a tensor, as ``who_saved`` reports it.

    ``breaks`` is ``"raises"`` when the node saved the tensor's version counter (an in-place
    write now makes its backward raise), ``"silently wrong"`` when it saved the same memory
    under another counter (the write would go unnoticed: ``.data``, ``from_numpy``), and
    ``"already stale"`` when a write since the save already made backward raise.
    """

    node: Node
    name: str
    role: str
    saved_version: int
    current_version: int
    breaks: str

    def __str__(self) -> str:
        what = f"{self.name} saved it ({self.role}) at version {self.saved_version}"
        if self.breaks == "already stale":
            return f"{what}; it is at version {self.current_version} now: backward will raise"
        if self.breaks == "raises":
            return f"{what}: an in-place write to it now makes backward raise"
        return (
            f"{what} under another version counter: an in-place write to it now would go "
            "unnoticed and give wrong gradients"
        )


def who_saved(tensor: TensorBase, roots: Iterable[TensorBase] | None = None) -> list[SavedBy]:
    """The live nodes that an in-place write to ``tensor`` would break (later nodes first).

    Looks through the graphs of ``roots`` if given, else through every live node (so it finds
    nodes of graphs you no longer hold a tensor of, e.g. inside a model's forward).

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> out = a.sigmoid()
        >>> for saver in minigrad.autograd.who_saved(out):
        ...     print(saver)
        SigmoidBackward0 saved it (its output 0) at version 0: an in-place write to it now makes backward raise
    """  # noqa: E501 - the doctest's output is one line
    nodes = _live_nodes() if roots is None else _nodes_of(list(roots))
    counter, array = tensor._version_counter(), tensor._array
    found = []
    for node in nodes:
        for entry in saved_access.saved_entries(node):
            if entry.counter is None or not isinstance(entry.value, np.ndarray):
                continue
            if entry.counter is counter:
                breaks = "already stale" if entry.is_stale else "raises"
            elif _overlaps(entry.value, array):
                breaks = "silently wrong"
            else:
                continue
            found.append(
                SavedBy(node, entry.owner.name(), _role(entry), entry.saved_version,
                        entry.counter.version, breaks)
            )
            break  # one line per node
    return found


def explain(
    tensor_or_tensors: TensorBase | Iterable[TensorBase],
    names: Mapping[str, TensorBase] | Iterable[tuple[str, TensorBase]] | None = None,
    file: IO[str] | None = None,
) -> None:
    """Print, for each node of the backward graph, what it saved, why, and what would break it.

    Tensors are named after the caller's local variables (and ``names``, e.g. a model's
    ``named_parameters()``), so the advice reads "writing to `out` in place will break
    SigmoidBackward0".

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> out = a.sigmoid()
        >>> minigrad.autograd.explain(out)
        Backward graph of out: 2 nodes, from the output back to the leaves.
        SigmoidBackward0
          saves its output 0 [minigrad.FloatTensor [2]] (its result: backward is written in terms of it)
            saved at version 0, now at version 0
            writing to `out` in place will break SigmoidBackward0: it saved out at version 0
        AccumulateGrad for `a` (2,)
          saved nothing
    """  # noqa: E501 - the doctest's output has long lines
    roots = [tensor_or_tensors] if isinstance(tensor_or_tensors, TensorBase) else list(
        tensor_or_tensors
    )
    known = named_tensors(names) + _caller_names(sys._getframe(1))
    out = sys.stdout if file is None else file
    nodes = _nodes_of(roots)
    titles = ", ".join(_name_of(t, known) or _describe_tensor(t) for t in roots)
    print(f"Backward graph of {titles}: {len(nodes)} nodes, from the output back to the leaves.",
          file=out)
    for node in nodes:
        for line in _explain_node(node, known):
            print(line, file=out)


def _explain_node(node: Node, known: list[tuple[str, TensorBase]]) -> list[str]:
    if isinstance(node, AccumulateGrad):
        variable = node.variable
        if variable is None:
            return ["AccumulateGrad (its leaf was freed)"]
        name = _name_of(variable, known)
        label = f"`{name}`" if name else _describe_tensor(variable)
        return [f"AccumulateGrad for {label} {tuple(variable._array.shape)}", "  saved nothing"]
    title = node.name().rpartition("::")[2]
    wrapped = saved_access.wrapped_node(node)
    if wrapped is not None:
        title += f" (an in-place write through a view: it wraps {wrapped.name()})"
    elif saved_access.is_view_node(node):
        title += " (a view)"
    site = write_tracking.save_site(wrapped or node)
    if site is not None:
        title += f"  [recorded at {site}]"
    lines = [title]
    if saved_access.is_released(node):
        lines.append("  saved values freed: backward already ran (retain_graph=True keeps them)")
        return lines
    entries = saved_access.saved_entries(node)
    if not entries:
        lines.append("  saved nothing: in-place writes to its inputs cannot break it")
    for entry in entries:
        lines.extend(_explain_entry(entry, known))
    return lines


def _explain_entry(entry: SavedEntry, known: list[tuple[str, TensorBase]]) -> list[str]:
    lines = [f"  saves {_role(entry)} {entry.describe()} ({_WHY[entry.role]})"]
    if entry.counter is None:
        return lines
    now = entry.counter.version
    lines.append(f"    saved at version {entry.saved_version}, now at version {now}")
    owner = entry.owner.name()
    subject = _subject(entry, known)
    if entry.is_stale:
        lines.append(
            f"    STALE: {subject} was modified in place since: backward will raise at {owner}"
        )
        lines.extend(
            f"    {w.describe()}" for w in write_tracking.writes_of(entry.counter)
            if w.version_after > entry.saved_version
        )
        return lines
    aliases = list(
        dict.fromkeys(name for name, t in known if t._version_counter() is entry.counter)
    )
    if aliases:
        targets = " or ".join(f"`{name}`" for name in aliases)
    else:
        targets = f"{subject} (or any tensor sharing its version counter)"
    lines.append(
        f"    writing to {targets} in place will break {owner}: it saved {subject} at version "
        f"{entry.saved_version}"
    )
    return lines


def _subject(entry: SavedEntry, known: list[tuple[str, TensorBase]]) -> str:
    """The saved tensor's name if the caller has it, else its description."""
    if entry.tensor is not None:
        found = [name for name, tensor in known if tensor is entry.tensor]
    else:
        # The output itself (its node is the owner), else an alias on the same buffer.
        found = [
            name for name, tensor in known
            if entry.role == "output" and tensor._grad_fn is entry.owner
            and tensor._output_nr == entry.output_nr
        ] or [
            name for name, tensor in known
            if tensor._array is entry.value and tensor._version_counter() is entry.counter
        ]
    return found[0] if found else entry.describe()


def _role(entry: SavedEntry) -> str:
    if entry.role == "output":
        return f"its output {entry.output_nr}"
    if entry.role == "input":
        return "an input"
    if entry.role == "exposed value":
        return "an exposed private value"
    return "a private value"


def _nodes_of(roots: list[TensorBase]) -> list[Node]:
    start = [n for n in (saved_access.grad_fn_of(t) for t in roots) if n is not None]
    return saved_access.graph_nodes(start)


def _live_nodes() -> list[Node]:
    # Every node the process holds: the graphs are found without a root to start from.
    nodes = collector.live_nodes()
    nodes.sort(key=lambda node: -node._sequence_nr)  # later nodes first, as backward runs them
    return nodes


def _caller_names(frame: Any) -> list[tuple[str, TensorBase]]:
    names = []
    for name, value in frame.f_locals.items():
        if isinstance(value, TensorBase) and not name.startswith("_"):
            names.append((name, value))
    return names


def _name_of(tensor: TensorBase, known: list[tuple[str, TensorBase]]) -> str | None:
    return next((name for name, t in known if t is tensor), None)


def _describe_tensor(tensor: TensorBase) -> str:
    return f"[{tensor._type_name()} {format_size(tensor._array.shape)}]"


def named_tensors(names: Any) -> list[tuple[str, TensorBase]]:
    """``(name, tensor)`` pairs from names given in any of the usual ways.

    A mapping (``dict(model.named_parameters())``), an iterable of pairs
    (``model.named_parameters()``), or None (no names).
    """
    if names is None:
        return []
    if isinstance(names, Mapping):
        return list(names.items())
    return list(names)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except np.exceptions.TooHardError:
        return bool(np.may_share_memory(a, b))
