"""minigrad.viz: the DOT picture of a backward graph, compared structurally (tests/_dot.py).

The graph's shape itself (node names and edges) is compared with PyTorch's in
tests_torch/test_debugging_torch.py; here: saved values, versions, colours, names, rendering.
"""
import os
import stat
import sys

import pytest
from _backend import LIB, mg
from _dot import backward_structure, parse, saved_boxes

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own debugging aids")


def seed():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return a, a.sigmoid()


def test_the_seed_before_and_after_a_write_through_detach():
    a, out = seed()
    before = mg.viz.to_dot({"out": out}, {"a": a})
    assert backward_structure(before) == (["SigmoidBackward0", "AccumulateGrad"], [(1, 0)])
    nodes, edges = parse(before)
    assert nodes["n1"]["label"] == "a\n(3,)" and nodes["n1"]["class"] == "leaf"
    assert nodes["out0"]["label"] == "out\n(3,)\nversion 0"
    assert ("n0", "out0", {}) in edges
    (box,) = saved_boxes(before, "SigmoidBackward0")
    assert box["class"] == "saved fresh"
    assert box["label"] == "output out [minigrad.FloatTensor [3]]\nsaved v0, now v0"

    out.detach().zero_()
    after = mg.viz.to_dot({"out": out}, {"a": a})
    assert backward_structure(after) == backward_structure(before)
    (box,) = saved_boxes(after, "SigmoidBackward0")
    assert box["class"] == "saved stale" and box["color"] == "red"
    assert box["label"] == (
        "output out [minigrad.FloatTensor [3]]\nsaved v0, now v1\nSTALE: backward will raise"
    )
    assert parse(after)[0]["out0"]["label"] == "out\n(3,)\nversion 1"


def test_freed_saved_values_are_grey_and_retained_ones_stay():
    a, out = seed()
    out.sum().backward(retain_graph=True)
    (box,) = saved_boxes(mg.viz.to_dot(out), "SigmoidBackward0")
    assert box["class"] == "saved fresh"
    out.sum().backward()
    (box,) = saved_boxes(mg.viz.to_dot(out), "SigmoidBackward0")
    assert box["class"] == "saved freed" and box["color"] == "gray60"
    assert box["label"] == "saved values freed\n(backward ran)"


def test_inputs_private_values_and_parameter_names():
    layer = mg.nn.Linear(3, 2)
    x = mg.ones(4, 3)
    y = layer(x).tanh()
    dot = mg.viz.to_dot(y, layer.named_parameters())
    nodes, _ = parse(dot)
    leaves = sorted(v["label"] for v in nodes.values() if v["class"] == "leaf")
    assert leaves == ["bias\n(2,)", "weight\n(2, 3)"]
    boxes = [v for v in nodes.values() if v["class"].startswith("saved")]
    assert all(v["label"].endswith("saved v0, now v0") for v in boxes)
    assert len(boxes) >= 2

    b = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    labels = [box["label"] for box in saved_boxes(mg.viz.to_dot(b * b, {"b": b}), "MulBackward0")]
    assert labels == ["input b [minigrad.FloatTensor [3]]\nsaved v0, now v0"] * 2
    (box,) = saved_boxes(mg.viz.to_dot(b * 2.5), "MulBackward0")
    assert box == {"label": "private value\n2.5", "class": "saved private", "shape": "note",
                   "color": "gray30", "fontcolor": "gray30"}


def test_views_and_copyslices_are_visible():
    b = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = b * 2
    c[1:].mul_(b[1:])
    dot = mg.viz.to_dot({"c": c}, {"b": b})
    nodes, _ = parse(dot)
    by_class = {}
    for value in nodes.values():
        by_class.setdefault(value["class"], []).append(value)
    (copy_slices,) = by_class["copyslices"]
    assert copy_slices["label"] == "CopySlices\nwraps MulBackward0"
    assert [v["label"] for v in by_class["view"]] == ["SliceBackward0"]
    assert by_class["view"][0]["style"] == "dashed"
    # The op CopySlices wraps saved the old region of c and the slice of b.
    labels = [box["label"] for box in saved_boxes(dot, "CopySlices")]
    assert labels == ["input [minigrad.FloatTensor [2]]\nsaved v0, now v0"] * 2

    view = c[:2]
    nodes, _ = parse(mg.viz.to_dot({"view": view}))
    assert nodes["out0"]["label"] == "view\n(2,)\nversion 1\n(a view)"


def test_it_never_raises_on_a_graph_that_backward_rejects():
    # A split output whose base was modified: reading its grad_fn raises (as in PyTorch).
    base = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).clone()
    first, _ = base.split(2)
    base.mul_(2)
    with pytest.raises(RuntimeError):
        first.grad_fn  # noqa: B018 - the access is what raises
    names, _ = backward_structure(mg.viz.to_dot(first))
    assert names[0] == "SplitBackward0"

    a, out = seed()
    out.detach().zero_()
    with pytest.raises(RuntimeError):
        out.sum().backward()
    assert "saved stale" in mg.viz.to_dot(out)


def test_several_roots_share_nodes_once():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    hidden = a.exp()
    left, right = hidden.sin(), hidden.cos()
    dot = mg.viz.to_dot([left, right])
    names, edges = backward_structure(dot)
    assert names == ["SinBackward0", "ExpBackward0", "AccumulateGrad", "CosBackward0"]
    assert edges == [(1, 0), (1, 3), (2, 1)]
    nodes, _ = parse(dot)
    assert nodes["out0"]["label"] == "(2,)\nversion 0" and "out1" in nodes


def test_render_writes_dot_text_without_graphviz(tmp_path):
    a, out = seed()
    path = mg.viz.render(out, tmp_path / "graph.dot")
    assert (tmp_path / "graph.dot").read_text() == mg.viz.to_dot(out) and path.endswith(".dot")


def test_render_says_how_to_install_graphviz(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import graphviz fails
    monkeypatch.setenv("PATH", str(tmp_path))  # and there is no dot program
    a, out = seed()
    with pytest.raises(RuntimeError) as excinfo:
        mg.viz.render(out, tmp_path / "graph.svg")
    message = str(excinfo.value)
    assert message.startswith(
        f"minigrad.viz.render needs Graphviz to draw {str(tmp_path / 'graph.svg')!r}: install "
        "the Python package (pip install graphviz, or pip install 'minigrad[viz]') and the "
        "Graphviz programs"
    )
    assert not (tmp_path / "graph.svg").exists()


def test_render_runs_the_dot_program(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    fake = tmp_path / "dot"  # records its arguments and copies its input to the output file
    fake.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "args = sys.argv[1:]\n"
        "out = args[args.index('-o') + 1]\n"
        "open(out, 'w').write(' '.join(args[:1]) + '\\n' + sys.stdin.read())\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    a, out = seed()
    target = tmp_path / "graph.png"
    assert mg.viz.render(out, target) == str(target)
    assert target.read_text() == "-Tpng\n" + mg.viz.to_dot(out)
