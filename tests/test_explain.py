"""minigrad.autograd.explain and who_saved: what each node saved, and what a write would break.

Which nodes save what is PyTorch's (each op saves what PyTorch's saves: the mutation-matrix
tests check it); here, that explain and who_saved report it, and that their verdicts agree with
what backward then does.
"""
import inspect
import io
import os

import pytest
from _backend import LIB, mg

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own debugging aids")

HERE = os.path.relpath(__file__)


def explained(*args, names=None) -> list[str]:
    """explain's lines, naming tensors after the caller's variables (as explain itself does)."""
    caller = inspect.currentframe().f_back.f_locals
    known = {k: v for k, v in caller.items() if isinstance(v, mg.Tensor)}
    text = io.StringIO()
    mg.autograd.explain(*args, names={**(names or {}), **known}, file=text)
    return text.getvalue().splitlines()


def test_explain_names_tensors_after_the_callers_variables():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    text = io.StringIO()
    mg.autograd.explain(out, file=text)
    assert text.getvalue().splitlines()[0] == (
        "Backward graph of out: 2 nodes, from the output back to the leaves."
    )
    assert "    writing to `out` in place will break SigmoidBackward0: it saved out at version 0" \
        in text.getvalue().splitlines()


def test_the_seed_before_and_after_the_write():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    detach_c = out.detach()
    assert explained(out) == [
        "Backward graph of out: 2 nodes, from the output back to the leaves.",
        "SigmoidBackward0",
        "  saves its output 0 [minigrad.FloatTensor [3]] (its result: backward is written in "
        "terms of it)",
        "    saved at version 0, now at version 0",
        "    writing to `out` or `detach_c` in place will break SigmoidBackward0: it saved out "
        "at version 0",
        "AccumulateGrad for `a` (3,)",
        "  saved nothing",
    ]
    detach_c.zero_()
    assert explained(out)[3:5] == [
        "    saved at version 0, now at version 1",
        "    STALE: out was modified in place since: backward will raise at SigmoidBackward0",
    ]
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        out.sum().backward()


def test_with_tracking_a_stale_value_lists_its_writes():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with mg.autograd.set_track_writes(True):
        out = a.sigmoid()
        line = inspect.currentframe().f_lineno - 1
        out.detach().add_(1)
    assert explained(out)[0:6] == [
        "Backward graph of out: 2 nodes, from the output back to the leaves.",
        f"SigmoidBackward0  [recorded at {HERE}:{line}]",
        "  saves its output 0 [minigrad.FloatTensor [3]] (its result: backward is written in "
        "terms of it)",
        "    saved at version 0, now at version 1",
        "    STALE: out was modified in place since: backward will raise at SigmoidBackward0",
        f"    modified by add_() at {HERE}:{line + 2} (version 0 -> 1): out.detach().add_(1)",
    ]


def test_inputs_private_values_views_and_names():
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = mg.tensor([4.0, 5.0, 6.0])
    y = (x * w).sum() * 2.5
    lines = explained(y, names={"weight": w})
    assert lines == [
        "Backward graph of y: 4 nodes, from the output back to the leaves.",
        "MulBackward0",
        "  saves a private value 2.5 (an intermediate of its own: nobody else can write to it, "
        "never checked)",
        "SumBackward0",
        "  saved nothing: in-place writes to its inputs cannot break it",
        "MulBackward0",
        "  saves an input [minigrad.FloatTensor [3]] (an input: backward needs its value)",
        "    saved at version 0, now at version 0",
        "    writing to `x` in place will break MulBackward0: it saved x at version 0",
        "AccumulateGrad for `weight` (3,)",
        "  saved nothing",
    ]

    b = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = b * 2
    c[1:].mul_(b[1:])
    lines = explained(c)
    assert lines[1] == "CopySlices (an in-place write through a view: it wraps MulBackward0)"
    assert "SliceBackward0 (a view)" in lines
    assert "    writing to `b` in place will break MulBackward0: it saved [minigrad.FloatTensor " \
           "[2]] at version 0" in lines


def test_after_backward_the_saved_values_are_freed():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.exp()
    out.sum().backward()
    assert explained(out)[1:3] == [
        "ExpBackward0",
        "  saved values freed: backward already ran (retain_graph=True keeps them)",
    ]


def test_explain_never_raises_on_a_graph_backward_rejects():
    base = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).clone()
    first, _ = base.split(2)
    base.mul_(2)
    assert explained(first)[1] == "SplitBackward0 (a view)"


def test_who_saved_lists_the_nodes_a_write_would_break():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    square = out * out
    total = out.sum()  # saves nothing
    assert total is not None
    savers = mg.autograd.who_saved(out, roots=[square, out])
    assert [(s.name, s.role, s.saved_version, s.breaks) for s in savers] == [
        ("MulBackward0", "an input", 0, "raises"),
        ("SigmoidBackward0", "its output 0", 0, "raises"),
    ]
    assert str(savers[1]) == (
        "SigmoidBackward0 saved it (its output 0) at version 0: an in-place write to it now "
        "makes backward raise"
    )
    # Without roots, every live node is searched: the same answer.
    assert {s.node for s in mg.autograd.who_saved(out)} == {s.node for s in savers}
    # And the verdict holds: the write makes both backward passes raise.
    out.detach().add_(1)
    for root in (square, out):
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            root.sum().backward(retain_graph=True)
    stale = mg.autograd.who_saved(out, roots=[square])
    assert [(s.name, s.breaks, s.current_version) for s in stale] == [
        ("MulBackward0", "already stale", 1), ("SigmoidBackward0", "already stale", 1)
    ]
    assert str(stale[0]).endswith("it is at version 1 now: backward will raise")


def test_who_saved_warns_about_data_aliases():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    alias = out.data  # same memory, another counter
    (saver,) = mg.autograd.who_saved(alias, roots=[out])
    assert saver.breaks == "silently wrong"
    assert str(saver) == (
        "SigmoidBackward0 saved it (its output 0) at version 0 under another version counter: "
        "an in-place write to it now would go unnoticed and give wrong gradients"
    )
    assert mg.autograd.who_saved(out.clone(), roots=[out]) == []


def test_a_private_value_handed_out_by_saved_attributes_is_checked():
    # grad_fn._saved_<name> gives layer_norm's rstd a counter: explain and who_saved say so
    x = mg.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
    y = mg.nn.functional.layer_norm(x, (3,))
    rstd = y.grad_fn._saved_result2
    assert [(s.role, s.breaks) for s in mg.autograd.who_saved(rstd, roots=[y])] == [
        ("an exposed private value", "raises")]
    rstd.mul_(2)
    lines = explained(y, names={"rstd": rstd})
    assert lines[6:9] == [
        "  saves an exposed private value [minigrad.FloatTensor [1, 1]] (an intermediate of its "
        "own, handed out by grad_fn._saved_<name>: checked)",
        "    saved at version 0, now at version 1",
        "    STALE: rstd was modified in place since: backward will raise at "
        "NativeLayerNormBackward0",
    ]
