"""Which nodes recording hides from the garbage collector, and when it shows them again.

``autograd/collector.py``: a built-in op's node is untracked once another op consumed its
output; a node that takes what a user supplies, and every node a gradient with a graph can
reach, is tracked again and stays so. (That cycles through them are then collected is
``test_graph_cycles.py``'s; what a deep chain then costs is ``benchmarks/bench_core.py``'s.)
"""

import gc
import math
import sys
import weakref

import pytest
from _backend import LIB
from _backend import mg as minigrad

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's own graph layout")


class _Double(minigrad.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def test_a_node_is_hidden_once_an_op_consumed_its_output():
    x = minigrad.ones(3, requires_grad=True)
    y = x * 2
    assert gc.is_tracked(y.grad_fn)  # nothing consumed it yet
    z = y.sigmoid()
    assert not gc.is_tracked(y.grad_fn) and gc.is_tracked(z.grad_fn)
    z.sum().backward()  # a hidden node runs as any other
    s = 1 / (1 + math.exp(-2))
    assert x.grad.tolist() == pytest.approx([2 * s * (1 - s)] * 3)


@pytest.mark.parametrize("consume", [
    lambda y: y + y,  # two inputs, one node twice
    lambda y: y.sum(0),  # options
    lambda y: y.view(3),  # a view
    lambda y: y[0],  # an index: the general path
    lambda y: minigrad.cat([y, y]),  # several inputs
    lambda y: y.max(0),  # several outputs, one with no history
])
def test_every_way_of_recording_hides_the_producer(consume):
    y = minigrad.ones(3, requires_grad=True) * 2
    consume(y)
    assert not gc.is_tracked(y.grad_fn)


def test_an_accumulator_and_a_custom_functions_node_are_never_hidden():
    x = minigrad.ones(3, requires_grad=True)
    y = _Double.apply(x)
    y.exp()
    assert gc.is_tracked(y.grad_fn)  # its ctx takes any attribute
    assert gc.is_tracked(y.grad_fn.next_functions[0][0])  # the leaf's accumulator


@pytest.mark.parametrize("attach", [
    lambda y: y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None),
    lambda y: y.grad_fn.register_prehook(lambda grad_outputs: None),
    lambda y: y.register_hook(lambda grad: None),
    lambda y: y.retain_grad(),
    lambda y: y.grad_fn.metadata,
])
def test_a_node_that_takes_user_objects_is_shown_and_stays_so(attach):
    y = minigrad.ones(3, requires_grad=True) * 2
    y.exp()
    attach(y)
    assert gc.is_tracked(y.grad_fn)
    y.sin()  # consumed again
    assert gc.is_tracked(y.grad_fn)


def test_a_create_graph_backward_shows_its_graph_for_good():
    x = minigrad.ones(3, requires_grad=True)
    y = x * x
    z = y * y
    assert not gc.is_tracked(y.grad_fn)
    z.sum().backward(create_graph=True)
    assert gc.is_tracked(y.grad_fn) and gc.is_tracked(z.grad_fn)
    assert gc.is_tracked(x.grad.grad_fn)
    y.exp(), x.grad.exp()  # consumed again: made before the backward pass, they stay shown
    assert gc.is_tracked(y.grad_fn) and gc.is_tracked(x.grad.grad_fn)
    later = z * 2
    later.exp()
    assert not gc.is_tracked(later.grad_fn)  # made after it: hidden as usual


def test_a_deep_hidden_chain_is_freed_by_reference_counting():
    gc.disable()
    try:
        y = minigrad.ones(3, requires_grad=True) * 1
        first = weakref.ref(y.grad_fn)
        for _ in range(100_000):
            y = y * 1 + 1
        assert first() is not None and not gc.is_tracked(first())
        del y
        assert first() is None
    finally:
        gc.enable()


def test_without_cpythons_c_api_nothing_is_hidden(monkeypatch):
    collector = minigrad.autograd.collector
    # what the module sets up on an interpreter without ``ctypes.pythonapi``
    monkeypatch.setattr(collector, "_untrack", None)
    monkeypatch.setattr(collector, "_track", None)
    monkeypatch.setattr(collector._state, "watermark", sys.maxsize)
    x = minigrad.ones(3, requires_grad=True)
    y = x * x
    z = (y * y).sum()
    z.backward(create_graph=True)
    (x.grad * 2).sum().backward()
    assert gc.is_tracked(y.grad_fn)
    assert x.grad.tolist() == [28.0] * 3  # 4 x^3, then + d(2 * 4 x^3)/dx = 24 x^2, at x = 1


def test_a_graph_is_walked_once_however_many_gradients_hold_it(monkeypatch):
    # meta-learning code assigns each parameter a gradient with a graph; the graphs share
    # most nodes: each is walked (and shown) once, not once per parameter
    collector = minigrad.autograd.collector
    params = [minigrad.ones(3, requires_grad=True) for _ in range(4)]
    h = minigrad.ones(3)
    for step in range(200):
        h = (h * params[step % 4]).tanh()
    grads = minigrad.autograd.grad(h.sum(), params, create_graph=True)
    walked = []
    monkeypatch.setattr(collector, "show", walked.append)
    params[0].grad = grads[0]
    first = len(walked)
    assert first > 400  # the gradient's graph (backward's nodes) down to the forward's
    for param, grad in zip(params[1:], grads[1:]):
        param.grad = grad
    # the three later walks meet only what the first had not reached (each a few nodes per
    # step of its own gradient's branch), where each would meet about as many as the first
    assert len(walked) - first < first
