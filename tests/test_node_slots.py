"""Which slots a node class has, and values saved where its class has none.

The garbage collector traverses every member slot of every class level of a node, set or not,
and freeing the node walks them again, so each node class declares, at one level, only the
slots its kind uses (autograd/graph.py ``node_slots``, function.py ``Op._node_slots``). An op
that saves what its declarations say it does not still works: the value stays in its entry of
``_saved`` (autograd/saved.py), and backward, the version checks and the freeing are the same.
The layout tests are minigrad's own; the behaviour tests' expected values and messages are
PyTorch 2.13's for the same programs (a product saving its inputs, ``exp`` saving its result,
``x * w`` with only ``w`` requiring grad).
"""

import math
import types
from typing import Any

import numpy as np
import pytest
from _backend import LIB, mg, text

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
minigrad_only = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's node layout")


def _stale(node: str) -> str:
    """PyTorch's version-mismatch text for a (2,) float32 output 0 of ``node``."""
    return text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [minigrad.FloatTensor [2]], which is output 0 of {node}, is at version 1; "
        f"expected version 0 instead. {HINT}"
    )


def _member_slots(cls: type) -> dict[str, set[str]]:
    """The member slots each class level of ``cls`` declares (levels without any left out)."""
    return {
        klass.__name__: names for klass in cls.__mro__
        if (names := {name for name, value in vars(klass).items()
                      if isinstance(value, types.MemberDescriptorType)})
    }


if LIB == "minigrad":
    from minigrad.autograd.function import Op

    class Product(Op):
        """z = x * y, declared as saving results, saving its inputs: no slot keeps them."""

        num_inputs = 2
        saves = ("result", "result1")

        @staticmethod
        def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            x, y = ctx.saved_tensors
            return grad * y, grad * x

    class Exp(Op):
        """y = exp(x), declared as saving its input, saving its result: no slot for its counter."""

        saves = ("self",)

        @staticmethod
        def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
            y = np.exp(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            (y,) = ctx.saved_tensors
            return grad * y

    class Negative(Op):
        """y = -x, declared as saving nothing (true: no slot for saved values)."""

        saves = ()

        @staticmethod
        def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
            return -x

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return -grad

    class LyingNegative(Negative):
        """Declared as saving nothing, saving its input: refused when recorded."""

        @staticmethod
        def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
            ctx.save_for_backward(x)
            return -x

    def product(x: Any, y: Any) -> Any:
        return Product.apply(x, y)

    def exp(x: Any) -> Any:
        return Exp.apply(x)

else:
    product = mg.mul
    exp = mg.exp


# (``needs_input_grad`` of a node with edges in slots is read from its edges: no slot)
# (nor ``_saved`` on the node of an op declaring ``saves = ()``: it reads its class's ``()``)
# (and output numbers only if one is not 0: ``_output_nrs``, read as ``_next_nrs``)
COMMON = {"_output_nrs", "_sequence_nr", "_input_meta", "_extra"}


@minigrad_only
@pytest.mark.parametrize("op, name, slots", [
    (lambda y, b: y + b, "AddBackward0", {"_next0", "_next1"}),
    (lambda y, b: y * b, "MulBackward0", {"_next0", "_next1", "_input0", "_input1", "_saved"}),
    (lambda y, b: y.sigmoid(), "SigmoidBackward0", {"_next0", "_output_counter", "_saved"}),
    (lambda y, b: y.sum(), "SumBackward0", {"_next0", "shape"}),
], ids=["add", "mul", "sigmoid", "sum"])
def test_a_builtin_nodes_slots_are_its_kinds_on_one_level(op, name, slots) -> None:
    y, b = mg.ones(2) * mg.ones(2, requires_grad=True), mg.ones(2, requires_grad=True)
    node = op(y, b)._grad_fn
    assert _member_slots(type(node)) == {name: COMMON | slots}


@minigrad_only
def test_nodes_without_a_slot_for_what_they_saved() -> None:
    x = mg.ones(2, requires_grad=True) * 1
    node = product(x, mg.ones(2, requires_grad=True))._grad_fn
    assert not hasattr(type(node), "_input0") and node._saved[3] is x  # (in its entry)
    node = exp(x)._grad_fn
    assert not hasattr(type(node), "_output_counter")


@minigrad_only
def test_an_op_declaring_it_saves_nothing_has_no_slot_for_saved_values() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Negative.apply(x * 1)
    assert _member_slots(type(y.grad_fn)) == {"NegativeBackward0": COMMON | {"_next0"}}
    assert y.grad_fn._saved == ()
    y.sum().backward()
    assert x.grad.tolist() == [-1.0, -1.0] and y.grad_fn._saved == ()


@minigrad_only
def test_a_declaration_of_saving_nothing_cannot_lie() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(TypeError) as excinfo:
        LyingNegative.apply(x)
    assert str(excinfo.value) == (
        "LyingNegative declares saves = () but its forward saved 1 value(s): declare what it "
        "saves")
    with mg.no_grad():  # (nothing recorded: the no-grad ctx keeps nothing)
        assert LyingNegative.apply(x).tolist() == [-1.0, -2.0]


def test_saved_inputs_without_a_slot_are_checked_and_freed() -> None:
    a, y = mg.tensor([1.0, 2.0], requires_grad=True), mg.tensor([3.0, 4.0], requires_grad=True)
    product(a, y).sum().backward()
    assert a.grad.tolist() == [3.0, 4.0] and y.grad.tolist() == [1.0, 2.0]
    x = a * 1
    z = product(x, y)
    x.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        z.sum().backward()
    assert str(excinfo.value) == _stale("Add")
    z = product(a, y)
    z.sum().backward()
    with pytest.raises(RuntimeError) as excinfo:
        z.sum().backward()
    assert str(excinfo.value) == BACKWARD_TWICE


def test_a_saved_result_without_a_slot_for_its_counter() -> None:
    a = mg.tensor([0.0, 1.0], requires_grad=True)
    e = exp(a)
    e.sum().backward(retain_graph=True)
    e.sum().backward()
    assert np.allclose(a.grad.tolist(), [2.0, 2 * np.e])
    e = exp(a * 1)
    e.mul_(2)
    with pytest.raises(RuntimeError) as excinfo:
        e.sum().backward()
    assert str(excinfo.value) == _stale("Exp")


@pytest.mark.parametrize("hooked", [False, True])
def test_a_saved_none_reads_as_none_after_backward(hooked: bool) -> None:
    # (the types of the freed values share the slot of an extended node's side object)
    x, w = mg.tensor([1.0, 2.0]), mg.tensor([3.0, 4.0], requires_grad=True)
    m = x * w  # saves x (w needs a gradient), and None for w (x needs none)
    m.sum().backward()
    if hooked:
        m.grad_fn.register_prehook(lambda grads: None)
    assert m.grad_fn._saved_other is None
    with pytest.raises(RuntimeError) as excinfo:
        m.grad_fn._saved_self  # noqa: B018 - read to raise
    assert str(excinfo.value) == BACKWARD_TWICE
    m.grad_fn.register_prehook(lambda grads: None)
    assert m.grad_fn._saved_other is None


def test_output_numbers_other_than_0_are_kept_and_read() -> None:
    # (a node with edges in slots keeps them only then: ``_output_nrs``; zeros otherwise)
    x = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    a, b = x.split(2)
    nodes = [b.sigmoid(), b * a, a + b, b.sum(0), b * 2.0, (a * 1) * b]
    assert [[(None if n is None else n.name(), nr) for n, nr in y.grad_fn.next_functions]
            for y in nodes] == [
        [("SplitBackward0", 1)],
        [("SplitBackward0", 1), ("SplitBackward0", 0)],
        [("SplitBackward0", 0), ("SplitBackward0", 1)],
        [("SplitBackward0", 1)],
        [("SplitBackward0", 1), (None, 0)],
        [("MulBackward0", 0), ("SplitBackward0", 1)],
    ]
    sum(y.sum() for y in nodes).backward()
    # a: b (from b * a) + 1 + b (from (a * 1) * b); b: sigmoid'(b) + a + 1 + 1 + 2 + a
    sigmoid_grad = [math.exp(-v) / (1 + math.exp(-v)) ** 2 for v in (3.0, 4.0)]
    assert x.grad.tolist() == pytest.approx(
        [7.0, 9.0, sigmoid_grad[0] + 6.0, sigmoid_grad[1] + 8.0], rel=1e-6)
