"""What a live graph leaves for the garbage collector to traverse (minigrad's own layout).

CPython's collector traverses every tracked object alive at each collection of the old
generation; a long forward pass keeps its whole graph alive, so the objects kept per op set
the collector's share of a deep chain (benchmarks/bench_core.py, section 3). A built-in op's
node is hidden from the collector once another op consumed its output (autograd/collector.py),
so what is left per op is a saved input tensor (PyTorch keeps its Python object too); the
node's edges, saved values and the saved tensors' version counters must not add any.
"""

import collections
import gc

import pytest
from _backend import LIB
from _backend import mg as minigrad

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's graph layout")

STEPS = 1000
FEW = 50  # slack: far fewer than one object per op


def _kept_by_type(build, collections_after: int = 1) -> collections.Counter:
    """Tracked objects by type name that ``STEPS`` more steps of ``build`` keep alive.

    ``build(2 * STEPS)``'s live objects minus ``build(STEPS)``'s: what is made once (imports,
    caches, the leaves, whatever the interpreter makes while it counts) cancels out.
    ``collections_after``: how many collections run once it is built (one may untrack only
    the innermost level of nested tuples, as the old generation's collections do over time).
    """
    build(STEPS)  # first: whatever the first call makes once is not counted
    kept = []
    for steps in (STEPS, 2 * STEPS):
        gc.collect()
        before = collections.Counter(type(o).__name__ for o in gc.get_objects())
        result = build(steps)
        for _ in range(collections_after):
            gc.collect()  # also untracks the tuples that hold only untracked objects
        after = collections.Counter(type(o).__name__ for o in gc.get_objects())
        after.subtract(before)
        kept.append(after)
        del result
    kept[1].subtract(kept[0])
    return kept[1]


def _mul_add_chain(steps: int):
    x = minigrad.ones(8)
    w, b = minigrad.ones(8, requires_grad=True), minigrad.ones(8, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y * w  # Mul saves both inputs
        y = y + b
    return y


def _sigmoid_chain(steps: int):
    x = minigrad.ones(8)
    w, b = minigrad.ones(8, requires_grad=True), minigrad.ones(8, requires_grad=True)
    y = x
    for _ in range(steps):
        y = (y * w + b).sigmoid()  # Sigmoid saves its result
    return y


def _add_chain(steps: int):
    x = minigrad.ones(8)
    b = minigrad.ones(8, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y + b  # Add saves nothing: bench_core.py's scaling chain
    return y


def _view_chain(steps: int):
    x = minigrad.ones(8, 8)
    w = minigrad.ones(8, 8, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y.view(64).view(8, 8) * w  # a view of a view, saved by Mul
    return y


def _nodes_of(result):
    """The nodes of ``result``'s graph, by type name (found along edges, hidden or not)."""
    found, stack, seen = collections.Counter(), [result.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is not None and id(node) not in seen:
            seen.add(id(node))
            found[type(node).__name__] += 1
            stack.extend(child for child, _ in node.next_functions)
    return found


def test_a_view_chain_keeps_no_tuple_for_its_view_steps():
    # Per step (three ops): Mul's saved input (the view of a view) and its base (the
    # previous step's result), the view's ViewInfo and the base's counter: 4 / 3 = 1.33
    # tracked objects per op (PyTorch: 0.67, the two tensors). The nodes are hidden once
    # consumed (autograd/collector.py). The view's steps ``((op, options, output), ...)``
    # name their ops by number, not by class (always tracked): collections untrack them.
    kept = _kept_by_type(_view_chain, collections_after=3)
    assert kept["ViewBackward0"] < FEW and kept["MulBackward0"] < FEW
    assert kept["tuple"] < FEW
    assert 2 * STEPS <= kept["Tensor"] < 2 * STEPS + FEW
    assert sum(kept.values()) < 4 * STEPS + FEW  # 1.33 per op
    # hidden, yet there (the first step's views have no node: x needs no gradient)
    nodes = _nodes_of(_view_chain(STEPS))
    assert nodes["ViewBackward0"] == 2 * (STEPS - 1) and nodes["MulBackward0"] == STEPS


def test_an_add_chain_keeps_no_tracked_object_per_op():
    # Add saves nothing, and each node is hidden once the next Add consumed its output
    kept = _kept_by_type(_add_chain)
    assert sum(kept.values()) < FEW  # no node, tensor, tuple or counter per op
    assert _nodes_of(_add_chain(STEPS))["AddBackward0"] == STEPS


def test_a_mul_add_chain_keeps_its_saved_tensors_only():
    kept = _kept_by_type(_mul_add_chain)
    assert kept["MulBackward0"] < FEW and kept["AddBackward0"] < FEW  # hidden
    # each Mul's saved input (the previous step's result), which PyTorch keeps too
    assert STEPS <= kept["Tensor"] < STEPS + FEW
    assert kept["tuple"] < FEW  # no edge tuple, no tracked saved values per node
    assert kept["VersionCounter"] < FEW  # saving a tensor makes no counter for it
    assert sum(kept.values()) < STEPS + FEW


def test_a_sigmoid_chain_keeps_no_tuple_per_node():
    kept = _kept_by_type(_sigmoid_chain)
    assert kept["SigmoidBackward0"] < FEW  # hidden
    assert kept["tuple"] < FEW
    # Sigmoid saves its result without making its counter (made on first need, shared by the
    # result and the node: tensor_base.saved_output_counter), and Mul's inputs make none
    assert kept["VersionCounter"] < FEW
    # per step: Mul's saved input (the last result)
    assert STEPS <= kept["Tensor"] < STEPS + FEW
    assert sum(kept.values()) < STEPS + FEW


def test_after_a_collection_the_tuples_of_nodes_and_saved_tensors_are_untracked():
    x = minigrad.ones(8)
    w, b = minigrad.ones(8, requires_grad=True), minigrad.ones(8, requires_grad=True)
    y = (x * w + b) * w  # Mul saves x * w + b (an op result) and w
    z = (y + b).sigmoid()  # Sigmoid saves its result
    gc.collect()
    mul, sigmoid = y.grad_fn, z.grad_fn
    saved_input = mul._saved_self
    assert gc.is_tracked(saved_input)  # a tensor: always
    assert not gc.is_tracked(mul) and gc.is_tracked(sigmoid)  # consumed: hidden; the last: not
    for node in (mul, mul._next0, sigmoid, sigmoid._next0):
        for name in ("_saved", "_next_nrs", "needs_input_grad", "_input_meta"):
            value = getattr(node, name)
            assert not gc.is_tracked(value), (type(node).__name__, name, value)
    for tensor in (saved_input, z):
        assert not gc.is_tracked(tensor._shape)
