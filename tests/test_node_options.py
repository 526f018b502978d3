"""An op's options with a forward default (add's ``alpha``) read the same however they are kept.

A built-in op's node keeps an option at forward's default on its class and any other value in
the slot of a subclass of the same name (``Function._OptionsNode``, ``record.new_node``).
What PyTorch shows — the node's type name, ``_saved_alpha`` with its type, the gradients —
must not tell the two apart, whichever path recorded the node (the recording functions, the
general path, an in-place write). The expected values were recorded from PyTorch 2.13 (run
with MINIGRAD_TEST_REFERENCE=torch to check them there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _backend import LIB, mg
from _cases import parametrize_in_one


def _leaves() -> tuple[Any, Any]:
    return mg.tensor([1.0, 2.0], requires_grad=True), mg.tensor([3.0, 4.0], requires_grad=True)


# name: (the op on leaves x and y, node type name, repr of _saved_alpha, x.grad, y.grad)
CASES: dict[str, tuple[Callable[[Any, Any], Any], str, str, list[float], list[float] | None]] = {
    "x + y": (lambda x, y: x + y, "AddBackward0", "1", [1, 1], [1, 1]),
    "x + 1.0": (lambda x, y: x + 1.0, "AddBackward0", "1", [1, 1], None),
    "add, alpha=2": (lambda x, y: mg.add(x, y, alpha=2), "AddBackward0", "2", [1, 1], [2, 2]),
    "add, alpha=1.0": (
        lambda x, y: mg.add(x, y, alpha=1.0), "AddBackward0", "1.0", [1, 1], [1, 1]),
    "x - y": (lambda x, y: x - y, "SubBackward0", "1", [1, 1], [-1, -1]),
    "sub, alpha=3": (lambda x, y: mg.sub(x, y, alpha=3), "SubBackward0", "3", [1, 1], [-3, -3]),
    "add_": (lambda x, y: (x * 1).add_(y), "AddBackward0", "1", [1, 1], [1, 1]),
    "add_, alpha=0.5": (
        lambda x, y: (x * 1).add_(y, alpha=0.5), "AddBackward0", "0.5", [1, 1], [0.5, 0.5]),
    "add_, alpha=1.0": (
        lambda x, y: (x * 1).add_(y, alpha=1.0), "AddBackward0", "1.0", [1, 1], [1, 1]),
    "sub_, alpha=2": (
        lambda x, y: (x * 1).sub_(y, alpha=2), "SubBackward0", "2", [1, 1], [-2, -2]),
    "index_add": (
        lambda x, y: (x * 1).index_add(0, mg.tensor([1]), y[:1]),
        "IndexAddBackward0", "1", [1, 1], [1, 0]),
    "index_add, alpha=2": (
        lambda x, y: (x * 1).index_add(0, mg.tensor([1]), y[:1], alpha=2),
        "IndexAddBackward0", "2", [1, 1], [2, 0]),
}


@parametrize_in_one("name", list(CASES))
def test_the_node_shows_the_option_as_given(name: str) -> None:
    op, type_name, alpha, x_grad, y_grad = CASES[name]
    x, y = _leaves()
    out = op(x, y)
    node = out.grad_fn
    assert type(node).__name__ == node.name() == type_name
    assert repr(node).startswith(f"<{type_name} object at 0x")
    assert repr(node._saved_alpha) == alpha
    out.sum().backward()
    assert x.grad.tolist() == x_grad
    assert (None if y.grad is None else y.grad.tolist()) == y_grad


minigrad_only = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's node classes")


def _ops_with_options() -> list[Any]:
    from minigrad.autograd.function import Op

    def family(cls: type) -> list[Any]:
        return [cls] + [op for sub in cls.__subclasses__() for op in family(sub)]

    return [op for op in family(Op) if op._option_defaults]


@minigrad_only
def test_each_op_s_options_node_is_its_node_class_with_the_options_in_slots() -> None:
    from minigrad.ops import arithmetic, index_ops

    ops = _ops_with_options()
    assert {arithmetic.Add, arithmetic.Sub, index_ops.IndexAdd} <= set(ops)
    for op in ops:
        names = tuple(name for _, name, _ in op._option_defaults)
        assert op._OptionsNode.__name__ == op._Node.__name__
        assert op._OptionsNode.__bases__ == (op._Node,)
        assert op._OptionsNode.__slots__ == names
        assert not set(names) & set(op._Node.__slots__)
        for _, name, default in op._option_defaults:
            assert op._Node.__dict__[name] is default


@minigrad_only
@pytest.mark.parametrize("fast", [True, False], ids=["fast branch", "general path"])
def test_a_node_at_the_defaults_is_of_the_node_class_and_writes_no_option(
    fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minigrad.autograd import record
    from minigrad.ops import arithmetic, index_ops

    monkeypatch.setattr(record, "FAST_BRANCH", fast)
    x, y = _leaves()
    for out, op in (
        (x + y, arithmetic.Add), (mg.add(x, y), arithmetic.Add), (x + 1.0, arithmetic.Add),
        (x - y, arithmetic.Sub), ((x * 1).add_(y), arithmetic.Add),
        ((x * 1).index_add(0, mg.tensor([1]), y[:1]), index_ops.IndexAdd),
    ):
        node = out.grad_fn
        assert type(node) is op._Node
        assert not hasattr(node, "__dict__")  # no per-node option: it is the class's
        assert node.alpha == 1


@minigrad_only
def test_a_node_with_another_value_keeps_it_in_its_slot() -> None:
    from minigrad.ops import arithmetic, index_ops

    x, y = _leaves()
    for out, op, alpha in (
        (mg.add(x, y, alpha=2), arithmetic.Add, 2),
        (mg.add(x, y, alpha=1.0), arithmetic.Add, 1.0),  # equal, but not the default itself
        ((x * 1).sub_(y, alpha=0.5), arithmetic.Sub, 0.5),
        ((x * 1).index_add(0, mg.tensor([1]), y[:1], alpha=3), index_ops.IndexAdd, 3),
    ):
        node = out.grad_fn
        assert type(node) is op._OptionsNode and isinstance(node, op._Node)
        assert not hasattr(node, "__dict__")
        assert node.alpha is alpha and node._saved_alpha is alpha
