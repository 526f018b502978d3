"""Pictures of the backward graph, with what each node saved and whether it is still valid.

``to_dot`` returns Graphviz DOT text (pure Python, no dependency); ``render`` draws it to a file
with Graphviz when it is installed. The picture shows:

- the backward nodes, with PyTorch's names (``SigmoidBackward0``, ``CopySlices``...), view
  nodes dashed, a ``CopySlices`` with the op it wraps;
- the leaves (their ``AccumulateGrad``), named from a ``named_parameters()`` mapping;
- the tensors drawn from (green), with their version;
- each value a node saved: its saved version and its counter's current version, **red** when an
  in-place write made it stale (backward will raise), **grey** once backward freed it.

It reads versions without unpacking anything, so it never raises on a graph that backward would
reject: that is when the picture is needed. Edges point the way values flow in forward, from
the inputs' nodes to the nodes that used them (as torchviz draws them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from typing import Any

from minigrad.autograd import saved_access
from minigrad.autograd.explain import named_tensors
from minigrad.autograd.graph import AccumulateGrad, Node
from minigrad.autograd.tensor_base import TensorBase

__all__ = ["render", "to_dot"]

# Colours of torchviz's pictures where it has them (outputs green, leaves blue).
_OUTPUT_STYLE = 'style=filled, fillcolor="darkolivegreen1"'
_LEAF_STYLE = 'style=filled, fillcolor="lightblue"'
_FRESH_STYLE = 'shape=note, color="gray30", fontcolor="gray10"'
_STALE_STYLE = 'shape=note, color="red", fontcolor="red", penwidth=2'
_FREED_STYLE = 'shape=note, color="gray60", fontcolor="gray60", style=dashed'
_PRIVATE_STYLE = 'shape=note, color="gray30", fontcolor="gray30"'

_INSTALL_HINT = (
    "minigrad.viz.render needs Graphviz to draw {path!r}: install the Python package "
    "(pip install graphviz, or pip install 'minigrad[viz]') and the Graphviz programs "
    "(apt install graphviz, brew install graphviz, or https://graphviz.org/download/). "
    "Without them, save the text of minigrad.viz.to_dot(...) to a .dot file and open it in any "
    "Graphviz viewer."
)


def to_dot(
    tensor_or_tensors: TensorBase | Iterable[TensorBase] | Mapping[str, TensorBase],
    params: Mapping[str, TensorBase] | Iterable[tuple[str, TensorBase]] | None = None,
) -> str:
    """The backward graph of the given tensors as Graphviz DOT text.

    Args:
        tensor_or_tensors: a tensor, several, or a mapping ``{name: tensor}`` to label them.
        params: names for leaf tensors, e.g. ``dict(model.named_parameters())`` or
            ``model.named_parameters()``.

    Example:
        >>> import minigrad
        >>> a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> dot = minigrad.viz.to_dot({"out": a.sigmoid()}, {"a": a})
        >>> [line.split(" [")[0].strip() for line in dot.splitlines() if "->" in line]
        ['n1 -> n0', 's0_0 -> n0', 'n0 -> out0']
    """
    roots = _named_roots(tensor_or_tensors)
    names = {id(tensor): name for name, tensor in named_tensors(params)}
    writer = _DotWriter(names)
    start = [node for node in (saved_access.grad_fn_of(t) for _, t in roots) if node is not None]
    for name, tensor in roots:
        grad_fn = saved_access.grad_fn_of(tensor)
        if name is not None and grad_fn is not None:
            writer.output_names[(id(grad_fn), tensor._output_nr)] = name
    nodes = saved_access.graph_nodes(start)
    writer.number(nodes)
    for node in nodes:
        writer.add_node(node)
    for index, (name, tensor) in enumerate(roots):
        writer.add_root(index, name, tensor)
    return writer.text()


def render(
    tensor_or_tensors: TensorBase | Iterable[TensorBase] | Mapping[str, TensorBase],
    path: str | os.PathLike[str] = "graph.svg",
    params: Mapping[str, TensorBase] | Iterable[tuple[str, TensorBase]] | None = None,
) -> str:
    """Draw the backward graph to ``path`` (its suffix picks the format: .svg, .png, .pdf...).

    A ``.dot`` or ``.gv`` path gets the DOT text itself, which needs nothing installed. Other
    formats use the ``graphviz`` Python package if installed, else the ``dot`` program; without
    either, a RuntimeError says how to install them. Returns the path written.
    """
    path = os.fspath(path)
    dot = to_dot(tensor_or_tensors, params)
    fmt = os.path.splitext(path)[1].lstrip(".").lower() or "svg"
    if fmt in ("dot", "gv"):
        with open(path, "w", encoding="utf-8") as file:
            file.write(dot)
        return path
    try:
        import graphviz  # type: ignore[import-not-found]  # optional: only to render
    except ImportError:
        graphviz = None
    if graphviz is not None:
        graphviz.Source(dot).render(outfile=path, format=fmt, cleanup=True)
        return path
    program = shutil.which("dot")
    if program is None:
        raise RuntimeError(_INSTALL_HINT.format(path=path))
    subprocess.run(
        [program, f"-T{fmt}", "-o", path], input=dot.encode(), check=True, capture_output=True
    )
    return path


class _DotWriter:
    """Collects the DOT statements of one picture; node ids are given in walk order."""

    def __init__(self, leaf_names: dict[int, str]) -> None:
        self._leaf_names = leaf_names
        self.output_names: dict[tuple[int, int], str] = {}  # (node id, output_nr) -> root name
        self._ids: dict[int, str] = {}
        self._lines: list[str] = []

    def number(self, nodes: list[Node]) -> None:
        """Give the nodes their ids in walk order (``n0`` is the first root's ``grad_fn``)."""
        for node in nodes:
            self._id(node)

    def _id(self, node: Node) -> str:
        key = id(node)
        if key not in self._ids:
            self._ids[key] = f"n{len(self._ids)}"
        return self._ids[key]

    def add_node(self, node: Node) -> None:
        """A node's box, its edges to the nodes it sends gradients to, and its saved values."""
        node_id = self._id(node)
        self._lines.append(f"{node_id} [{self._node_attributes(node)}]")
        for child, _ in node.next_functions:
            if child is not None:
                self._lines.append(f"{self._id(child)} -> {node_id}")
        self._add_saved(node, node_id)

    def _node_attributes(self, node: Node) -> str:
        name = node.name().rpartition("::")[2]
        if isinstance(node, AccumulateGrad):
            variable = node.variable
            if variable is None:
                return _attributes(f"{name}\\n(leaf freed)", "leaf", _LEAF_STYLE)
            label = f"{_shape(variable)}"
            leaf_name = self._leaf_names.get(id(variable))
            if leaf_name is not None:
                label = f"{_escape(leaf_name)}\\n{label}"
            return _attributes(label, "leaf", _LEAF_STYLE)
        wrapped = saved_access.wrapped_node(node)
        if name == "CopySlices":
            inner = "" if wrapped is None else f"\\nwraps {wrapped.name()}"
            return _attributes(f"{name}{inner}", "copyslices", "penwidth=2")
        if saved_access.is_view_node(node):
            return _attributes(name, "view", "style=dashed")
        return _attributes(name, "node", "")

    def _add_saved(self, node: Node, node_id: str) -> None:
        if saved_access.is_released(node):
            saved_id = f"s{node_id[1:]}_freed"
            label = "saved values freed\\n(backward ran)"
            self._lines.append(f"{saved_id} [{_attributes(label, 'saved freed', _FREED_STYLE)}]")
            self._lines.append(f"{saved_id} -> {node_id} [style=dotted, arrowhead=none]")
            return
        for entry in saved_access.saved_entries(node):
            saved_id = f"s{node_id[1:]}_{entry.index}"
            what = entry.describe()
            if entry.counter is None:
                label, kind, style = f"private value\\n{what}", "saved private", _PRIVATE_STYLE
            else:
                role = entry.role
                if entry.tensor is not None and id(entry.tensor) in self._leaf_names:
                    role = f"input {_escape(self._leaf_names[id(entry.tensor)])}"
                output_name = self.output_names.get((id(entry.owner), entry.output_nr))
                if entry.role == "output" and output_name is not None:
                    role = f"output {_escape(output_name)}"
                versions = f"saved v{entry.saved_version}, now v{entry.counter.version}"
                label = f"{role} {what}\\n{versions}"
                if entry.is_stale:
                    label += "\\nSTALE: backward will raise"
                    kind, style = "saved stale", _STALE_STYLE
                else:
                    kind, style = "saved fresh", _FRESH_STYLE
            self._lines.append(f"{saved_id} [{_attributes(label, kind, style)}]")
            self._lines.append(f"{saved_id} -> {node_id} [style=dotted, arrowhead=none]")

    def add_root(self, index: int, name: str | None, tensor: TensorBase) -> None:
        """An output tensor's box (shape, version, view-ness), linked to its grad_fn."""
        root_id = f"out{index}"
        label = f"{_shape(tensor)}\\nversion {tensor._version}"
        if tensor._base is not None:
            label += "\\n(a view)"
        if name is not None:
            label = f"{_escape(name)}\\n{label}"
        self._lines.append(f"{root_id} [{_attributes(label, 'output', _OUTPUT_STYLE)}]")
        grad_fn = saved_access.grad_fn_of(tensor)
        if grad_fn is not None:
            self._lines.append(f"{self._id(grad_fn)} -> {root_id}")

    def text(self) -> str:
        """The graph in Graphviz's dot language."""
        body = "\n".join(f"    {line}" for line in self._lines)
        return (
            "digraph minigrad {\n"
            '    graph [fontname="monospace"]\n'
            '    node [shape=box, fontname="monospace", fontsize=10]\n'
            f"{body}\n"
            "}\n"
        )


def _attributes(label: str, kind: str, style: str) -> str:
    extra = f", {style}" if style else ""
    return f'label="{label}", class="{kind}"{extra}'


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _shape(tensor: TensorBase) -> str:
    return str(tuple(tensor._array.shape))


def _named_roots(value: Any) -> list[tuple[str | None, TensorBase]]:
    if isinstance(value, TensorBase):
        return [(None, value)]
    if isinstance(value, Mapping):
        return list(value.items())
    return [(None, tensor) for tensor in value]
