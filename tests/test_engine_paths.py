"""The engine's shortcuts keep PyTorch's behaviour: stolen gradients, hooks added late, run order.

The engine runs a node without hooks on a short path, lets a leaf take a gradient nobody else
holds as its ``.grad`` without a copy (as PyTorch's AccumulateGrad does), and runs a node that
alone became ready without its queue. Every expectation here is what PyTorch 2.13 does for the
same program (the file also runs against PyTorch: MINIGRAD_TEST_REFERENCE=torch).
"""

import pytest
from _backend import mg


def test_a_gradient_handed_to_two_leaves_is_not_shared_between_their_grads():
    # Add's backward gives the same gradient to both inputs: only one may own it.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = mg.tensor([3.0, 4.0], requires_grad=True)
    (x + y).backward(mg.tensor([1.0, 1.0]))
    x.grad.add_(10.0)
    assert x.grad.tolist() == [11.0, 11.0]
    assert y.grad.tolist() == [1.0, 1.0]


def test_the_gradient_given_to_backward_does_not_become_a_leafs_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    seed = mg.tensor([5.0, 6.0])
    (x + 0).backward(seed)
    seed.add_(1.0)
    assert x.grad.tolist() == [5.0, 6.0]


def test_a_fresh_first_gradient_then_accumulates_in_place():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    (x * w).sum().backward()  # x's gradient is w's values, a fresh product
    first = x.grad
    version = first._version
    (x * w).sum().backward()
    assert x.grad is first  # accumulated into the same tensor, one counted write
    assert x.grad.tolist() == [6.0, 8.0]
    assert first._version == version + 1
    assert w.grad.tolist() == [2.0, 4.0]


def test_a_linear_layers_weight_gradient_is_laid_out_like_the_weight():
    weight = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    bias = mg.tensor([0.5, -0.5], requires_grad=True)
    inputs = mg.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [2.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
    mg.nn.functional.linear(inputs, weight, bias).sum().backward()
    assert weight.grad.tolist() == [[4.0, 3.0, 4.0], [4.0, 3.0, 4.0]]
    assert weight.grad.stride() == weight.stride()
    assert bias.grad.tolist() == [4.0, 4.0]


def test_hooks_registered_after_the_graph_was_recorded_still_run():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * 3
    seen = []
    y.register_hook(lambda grad: seen.append(("tensor", grad.tolist())))
    z.grad_fn.register_prehook(lambda grads: seen.append(("pre", grads[0].tolist())))
    z.grad_fn.register_hook(lambda inputs, outputs: seen.append(("post", inputs[0].tolist())))
    y.retain_grad()
    z.sum().backward()
    assert seen == [("pre", [1.0, 1.0]), ("post", [3.0, 3.0]), ("tensor", [3.0, 3.0])]
    assert y.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == [6.0, 6.0]


def test_a_leaf_hook_sees_the_gradient_and_its_result_is_what_accumulates():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    x.register_hook(lambda grad: grad * 10)
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 20.0]


@pytest.mark.parametrize("retain", [False, True])
def test_a_mul_that_saved_a_none_still_shows_it_after_backward(retain):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    c = mg.tensor([3.0, 4.0])
    y = x * c  # saves c for x's gradient; x itself is not needed (c needs none)
    assert y.grad_fn._saved_self is None
    y.sum().backward(retain_graph=retain)
    assert y.grad_fn._saved_self is None
    if retain:
        assert y.grad_fn._saved_other.tolist() == [3.0, 4.0]
    else:
        with pytest.raises(RuntimeError, match="after they have already been freed"):
            _ = y.grad_fn._saved_other


def test_nodes_run_in_pytorchs_order_when_several_become_ready_at_once():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    order = []
    a = x * 2
    b = x * 3
    c = a + b  # backward makes both a's and b's nodes ready at once: b (made later) first
    a.register_hook(lambda grad: order.append("a"))
    b.register_hook(lambda grad: order.append("b"))
    d = c.sigmoid()  # a chain: one node ready at a time
    d.register_hook(lambda grad: order.append("d"))
    c.register_hook(lambda grad: order.append("c"))
    d.sum().backward()
    assert order == ["d", "c", "b", "a"]


def test_a_chains_leaves_sum_one_gradient_per_step_in_place():
    # Each step adds one more gradient into each leaf's summed buffer in place (the engine
    # sums a leaf's gradients without re-checking their shapes: engine.py, add_into).
    w = mg.tensor([0.5, 0.5, 0.5, 0.5], requires_grad=True)
    b = mg.tensor([0.25, 0.25, 0.25, 0.25], requires_grad=True)
    y = mg.ones(4)
    for _ in range(3):
        y = y * w + b
    y.sum().backward()
    assert w.grad.tolist() == [1.25] * 4
    assert b.grad.tolist() == [1.75] * 4
    # (b's first gradient is add's, handed on unchanged: its first sum is out of place)
    assert (w.grad._version, b.grad._version) == (2, 1)
