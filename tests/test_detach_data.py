"""`.data` vs `.detach()` vs `.detach_()`: the programs of the two seed documents, and more.

The seed documents (Chinese blog posts) were written for older PyTorch versions. Where their printed
output disagrees with PyTorch 2.13, the expected values here are PyTorch 2.13's; each such place
has a comment.
"""
import numpy as np
import pytest
from _backend import mg, text

SIGMOID_123 = [0.7310586, 0.8807971, 0.95257413]
SIGMOID_GRAD_123 = [0.19661193, 0.10499363, 0.045176655]
STALE_SIGMOID_OUTPUT = text(
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [minigrad.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
    "expected version 0 instead. Hint: enable anomaly detection to find the operation that failed "
    "to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)
NO_GRAPH = "element 0 of tensors does not require grad and does not have a grad_fn"


def close(t, expected):
    np.testing.assert_allclose(t.detach().numpy(), expected, rtol=1e-6)


# ---- seed 000 -------------------------------------------------------------------------------


def test_seed000_data_zero_gives_silently_wrong_gradient():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    data_c = out.data
    data_c.zero_()
    assert data_c.requires_grad is False
    assert data_c.tolist() == [0.0, 0.0, 0.0]
    assert out.requires_grad is True
    assert out.tolist() == [0.0, 0.0, 0.0]  # shared buffer
    out.sum().backward()  # no error: the write through .data bumped a counter out does not share
    assert a.grad.tolist() == [0.0, 0.0, 0.0]  # the right answer is SIGMOID_GRAD_123


def test_seed000_detach_zero_makes_backward_raise():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    detach_c = out.detach()
    detach_c.zero_()
    assert detach_c.requires_grad is False
    assert detach_c.tolist() == [0.0, 0.0, 0.0]
    assert out.requires_grad is True
    assert out.tolist() == [0.0, 0.0, 0.0]
    # The document prints an older text (no "which is output 0 of ...", no check_nan=False).
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == STALE_SIGMOID_OUTPUT
    assert a.grad is None


def test_seed000_out_of_place_add_on_detached_leaves_backward_correct():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    d = out.detach().add(mg.ones_like(out))
    close(d, [1.7310586, 1.8807971, 1.9525741])
    out.sum().backward()
    close(a.grad, SIGMOID_GRAD_123)


# ---- seed 004 -------------------------------------------------------------------------------


def test_seed004_sigmoid_gradient():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    assert a.grad is None
    out = a.sigmoid()
    out.sum().backward()
    close(a.grad, SIGMOID_GRAD_123)


def test_seed004_unmodified_detached_tensor_does_not_affect_backward():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    c = out.detach()
    close(out, SIGMOID_123)
    close(c, SIGMOID_123)
    assert out.grad_fn.name() == "SigmoidBackward0"  # the document shows the old "SigmoidBackward"
    assert c.grad_fn is None
    assert c.requires_grad is False
    out.sum().backward()
    close(a.grad, SIGMOID_GRAD_123)


def test_seed004_backward_from_detached_tensor_raises():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    c = a.sigmoid().detach()
    with pytest.raises(RuntimeError) as excinfo:
        c.sum().backward()
    assert str(excinfo.value) == NO_GRAPH
    assert a.grad is None


def test_seed004_requires_grad_on_detached_tensor_makes_a_new_leaf():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    c = out.detach()
    c.requires_grad = True
    # The document claims this backward raises "element 0 of tensors does not require grad";
    # in PyTorch 2.13 it works: c is a new leaf, and the gradient stops there.
    c.sum().backward()
    assert c.is_leaf and c.grad_fn is None
    assert c.grad.tolist() == [1.0, 1.0, 1.0]
    assert a.grad is None


def test_seed004_detach_zero_is_seen_by_out_and_breaks_backward():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    assert a.grad is None
    out = a.sigmoid()
    c = out.detach()
    c.zero_()
    assert c.tolist() == [0.0, 0.0, 0.0]
    assert out.tolist() == [0.0, 0.0, 0.0]
    assert out.grad_fn.name() == "SigmoidBackward0"
    # The document's text says "output 0 of SigmoidBackward0" and lacks check_nan=False.
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == STALE_SIGMOID_OUTPUT


def test_seed004_data_zero_is_not_tracked_and_gradient_is_wrong():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid()
    c = out.data
    close(c, SIGMOID_123)
    c.zero_()
    assert c.tolist() == [0.0, 0.0, 0.0]
    assert out.tolist() == [0.0, 0.0, 0.0]
    out.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]


def test_seed004_data_zero_of_a_sum_does_not_affect_the_gradient():
    a = mg.tensor([1, 2, 3.0], requires_grad=True)
    out = a.sigmoid().sum()
    close(out, 2.5644302)
    c = out.data
    c.zero_()
    assert c.item() == 0.0
    assert out.item() == 0.0
    assert out.grad_fn.name() == "SumBackward0"
    out.backward()  # the sigmoid's saved result was not touched, only the sum's output
    close(a.grad, SIGMOID_GRAD_123)


def test_seed004_detach_inplace_makes_a_leaf_without_history():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = x * 2
    assert m.detach_() is m
    assert m.is_leaf is True
    assert m.grad_fn is None
    assert m.requires_grad is False


def test_seed004_detach_inplace_cuts_the_graph_for_later_ops():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = x * 2
    m.detach_()
    y = m * 3
    assert y.requires_grad is False
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == NO_GRAPH
    (m * 3 + x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]  # only the direct path; nothing through m
    assert m.grad is None


def test_detach_inplace_does_not_cut_a_graph_recorded_before_it():
    # The seed document suggests detach_() changes the original graph; a graph already recorded
    # still reaches x, because its edges point to m's old node, not to m.
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = x * 2
    y = m * 3
    m.detach_()
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 6.0]


def test_detach_inplace_on_a_leaf_that_requires_grad():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.detach_()
    assert (x.requires_grad, x.is_leaf, x.grad_fn) == (False, True, None)


def test_detached_leaf_can_require_grad_again_as_its_own_leaf():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = x * 2
    m.detach_()
    m.requires_grad_()
    (m * m).sum().backward()
    assert m.grad.tolist() == [4.0, 8.0, 12.0]
    assert x.grad is None


# ---- .data and .detach() in general -----------------------------------------------------------


def test_detach_returns_a_new_leaf_sharing_values():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = x.detach()
    assert d is not x
    assert (d.requires_grad, d.is_leaf, d.grad_fn) == (False, True, None)
    d[0] = 10.0
    assert x.tolist() == [10.0, 2.0, 3.0]


def test_data_of_a_non_leaf_is_a_leaf_without_grad():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    data = y.data
    assert (data.requires_grad, data.is_leaf, data.grad_fn) == (False, True, None)
    assert data.tolist() == [2.0, 4.0, 6.0]


def test_data_zero_on_a_saved_weight_silently_zeroes_the_gradient():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    y = x * w
    w.data.zero_()
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]  # computed with the zeroed w, no error
    assert w.grad.tolist() == [1.0, 2.0, 3.0]


def test_detach_zero_on_a_saved_weight_raises():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    y = x * w
    w.detach().zero_()
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: "
        "enable anomaly detection to find the operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def test_data_scaling_of_a_saved_result_scales_the_gradient_silently():
    a = mg.tensor([0.0, 1.0, 2.0], requires_grad=True)
    out = a.exp()
    out.data.mul_(2)
    out.sum().backward()
    close(a.grad, [2.0, 5.4365635, 14.778112])  # 2 * exp(a): exp's backward uses its result


def test_requires_grad_on_detached_tensor_shares_the_counter_with_the_original():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    c = out.detach()
    c.requires_grad = True
    (c * 2).sum().backward()
    assert c.grad.tolist() == [2.0, 2.0, 2.0]
    assert a.grad is None
    with mg.no_grad():
        c.zero_()  # c is a leaf that requires grad: allowed only under no_grad
    assert out._version == 1
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == STALE_SIGMOID_OUTPUT
