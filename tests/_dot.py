"""Read the DOT text minigrad.viz writes into nodes and edges, to compare pictures structurally."""
import re

_NODE = re.compile(r"^(\w+) \[(.*)\]$")
_EDGE = re.compile(r"^(\w+) -> (\w+)(?: \[(.*)\])?$")
_ATTRIBUTE = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,\s]+)')


def attributes(text: str) -> dict[str, str]:
    found = {}
    for key, value in _ATTRIBUTE.findall(text or ""):
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\n", "\n")
        found[key] = value
    return found


def parse(dot: str) -> tuple[dict[str, dict[str, str]], list[tuple[str, str, dict[str, str]]]]:
    """The statements of one ``digraph``: {id: attributes} and [(from, to, attributes)]."""
    lines = [line.strip() for line in dot.strip().splitlines()]
    assert lines[0] == "digraph minigrad {" and lines[-1] == "}", dot
    nodes, edges = {}, []
    for line in lines[1:-1]:
        if line.startswith(("graph [", "node [")):
            continue
        edge = _EDGE.match(line)
        if edge:
            edges.append((edge[1], edge[2], attributes(edge[3])))
            continue
        node = _NODE.match(line)
        assert node, f"not a DOT statement: {line!r}"
        assert node[1] not in nodes, f"node {node[1]} declared twice"
        nodes[node[1]] = attributes(node[2])
    for source, target, _ in edges:
        assert source in nodes and target in nodes, f"edge to an undeclared node: {source, target}"
    return nodes, edges


def backward_structure(dot: str) -> tuple[list[str], list[tuple[int, int]]]:
    """The graph's nodes in order (leaves as AccumulateGrad) and its edges as index pairs."""
    nodes, edges = parse(dot)
    order = [key for key in nodes if re.fullmatch(r"n\d+", key)]
    order.sort(key=lambda key: int(key[1:]))
    names = [
        "AccumulateGrad" if nodes[key]["class"] == "leaf" else nodes[key]["label"].split("\n")[0]
        for key in order
    ]
    index = {key: i for i, key in enumerate(order)}
    pairs = sorted((index[a], index[b]) for a, b, _ in edges if a in index and b in index)
    return names, pairs


def saved_boxes(dot: str, node_label: str) -> list[dict[str, str]]:
    """The saved-value boxes attached to the (first) node with this label."""
    nodes, edges = parse(dot)
    owner = next(k for k, v in nodes.items() if v["label"].split("\n")[0] == node_label)
    return [nodes[a] for a, b, _ in edges if b == owner and a.startswith("s")]
