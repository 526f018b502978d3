"""Divergences the random-program tester found (issue 8), each pinned to PyTorch 2.13's behaviour.

Every expected value and text here is what PyTorch printed for the same program; with
``MINIGRAD_TEST_REFERENCE=torch`` these tests run on PyTorch itself. The live side-by-side run is
``tests_torch/test_random_programs.py``.
"""

import warnings

import numpy as np
import pytest
from _backend import mg, text

NO_GRAPH = "element 0 of tensors does not require grad and does not have a grad_fn"


def values(t):
    return t.detach().numpy().tolist()


# ---- class 5: which check comes first --------------------------------------------------------


def test_backward_of_a_non_scalar_without_history_names_the_missing_graph_first():
    with pytest.raises(RuntimeError) as excinfo:
        mg.tensor([1.0, 2.0]).backward()
    assert str(excinfo.value) == NO_GRAPH


def test_backward_of_a_non_scalar_with_history_needs_a_gradient():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        (x * 2).backward()


def test_grad_checks_the_outputs_history_before_the_inputs():
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.grad(mg.tensor([1.0, 2.0]).sum(), mg.tensor(1.0))
    assert str(excinfo.value) == NO_GRAPH
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.grad(mg.tensor([1.0, 2.0]), mg.tensor(1.0, requires_grad=True))
    assert str(excinfo.value) == NO_GRAPH


def test_grad_checks_the_implicit_gradient_before_the_inputs():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        mg.autograd.grad(x * 2, mg.tensor(1.0))
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.grad((x * 2).sum(), mg.tensor(1.0))
    assert str(excinfo.value) == "One of the differentiated Tensors does not require grad"


def test_second_output_without_history_is_named_by_its_index():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.backward([(x * 2).sum(), mg.tensor([1.0, 2.0])])
    assert str(excinfo.value) == NO_GRAPH.replace("element 0", "element 1")


# ---- class 5: warnings -----------------------------------------------------------------------


def test_anomaly_mode_without_a_recorded_forward_says_so():
    # The graph was recorded before anomaly mode was switched on: no forward stack to show.
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    y = x / x
    y.sum().backward(retain_graph=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mg.autograd.detect_anomaly(), pytest.raises(RuntimeError):
            y.sum().backward()
    messages = [str(w.message) for w in caught]
    assert messages[1].startswith(
        "Error detected in DivBackward0. No forward pass information available. Enable detect "
        "anomaly during forward pass for more information."
    )


def test_reading_grad_of_a_non_leaf_warns_with_pytorchs_text():
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        assert (x * 2).grad is None
    # PyTorch's C++ warnings go on with where they were raised; minigrad's stop here.
    assert "See github.com/pytorch/pytorch/pull/30531 for more information." in str(
        caught[0].message
    )
    assert "informations" not in str(caught[0].message)


# ---- atan2 -----------------------------------------------------------------------------------


def test_atan2_values_and_gradients():
    a = mg.tensor([1.0, 0.0, -1.0, 0.0], requires_grad=True)
    b = mg.tensor([2.0, 0.0, -3.0, -1.0], requires_grad=True)
    z = mg.atan2(a, b)
    assert type(z.grad_fn).__name__ == "Atan2Backward0"
    np.testing.assert_allclose(values(z), [0.4636476, 0.0, -2.8198421, 3.1415927], rtol=1e-6)
    z.sum().backward()
    # At the origin PyTorch's gradient is 0, not nan.
    assert values(a.grad) == pytest.approx([0.4, 0.0, -0.3, -1.0])
    assert values(b.grad) == pytest.approx([-0.2, 0.0, 0.1, 0.0])


def test_atan2_integers_give_float32_and_a_number_is_refused():
    assert mg.atan2(mg.tensor([1, 2]), mg.tensor([3, 4])).dtype == mg.float32
    with pytest.raises(TypeError) as excinfo:
        mg.atan2(mg.tensor([1.0]), 2.0)
    assert str(excinfo.value) == "atan2(): argument 'other' (position 2) must be Tensor, not float"


def test_atan2_in_place_and_double_backward():
    x = mg.tensor([1.0, 2.0])
    assert x.atan2_(mg.tensor([1.0, 1.0])) is x
    assert x._version == 1
    np.testing.assert_allclose(values(x), [0.7853982, 1.1071488], rtol=1e-6)
    a = mg.tensor([0.0, 1.0], dtype=mg.float64, requires_grad=True)
    b = mg.tensor([0.0, 2.0], dtype=mg.float64, requires_grad=True)
    ga, gb = mg.autograd.grad(mg.arctan2(a, b).sum(), [a, b], create_graph=True)
    assert type(ga.grad_fn).__name__ == "MulBackward0"
    gga, ggb = mg.autograd.grad(ga.sum(), [a, b])
    assert np.isnan(values(gga)[0]) and np.isnan(values(ggb)[0])
    assert values(gga)[1] == pytest.approx(-0.16)
    assert values(ggb)[1] == pytest.approx(-0.12)
    assert text("minigrad") in repr(gga.dtype)


# ---- class 2: detach_() (or requires_grad_(False)) on a leaf after it was used ---------------


@pytest.mark.parametrize(
    "make",
    [lambda t: t.sigmoid(), lambda t: -t, lambda t: t.permute(1, 0) * 2],
    ids=["sigmoid", "neg", "permute"],
)
def test_a_leaf_detached_in_place_after_use_gets_no_gradient(make):
    t0 = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    other = mg.tensor(2.0, requires_grad=True)
    t4 = make(t0) * other
    t0.detach_()
    t4.sum().backward()
    assert t0.grad is None
    assert other.grad is not None  # the rest of the graph still runs


def test_hooks_of_a_leaf_detached_after_use_still_run():
    seen = []
    t0 = mg.tensor([1.0, 2.0], requires_grad=True)
    y = t0 * 2
    t0.register_hook(lambda g: seen.append(values(g)))
    t0.detach_()
    y.sum().backward()
    assert seen == [[2.0, 2.0]]
    assert t0.grad is None


def test_a_leaf_that_requires_grad_again_accumulates_again():
    t0 = mg.tensor([1.0, 2.0], requires_grad=True)
    y = t0 * 2
    t0.detach_()
    t0.requires_grad_()
    y.sum().backward()
    assert values(t0.grad) == [2.0, 2.0]


def test_a_leaf_given_history_after_use_is_refused_in_backward():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    x.requires_grad_(False)
    x.mul_(mg.tensor([1.0, 1.0], requires_grad=True))
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == "leaf variable has been moved into the graph interior"


# ---- class 3: memory overlap between an in-place op's input and the written tensor ----------

PARTIAL = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


@pytest.mark.parametrize(
    "program",
    [
        "t2 = mg.tensor(1.0); t6 = t2.reshape(1); t6.sub_(t2)",  # same bytes, other strides
        "t4 = mg.ones(2, 2); t6 = t4.T; t6.add_(t4)",
        "x = mg.ones(4); x[0:2].add_(x[1:3])",
        "x = mg.ones(1, 3); x.add_(x.view(3))",
        "x = mg.ones(4); x[0:2].copy_(x[1:3])",
    ],
)
def test_partial_overlap_is_refused_before_anything_changes(program):
    namespace = {"mg": mg}
    with pytest.raises(RuntimeError) as excinfo:
        exec(program, namespace)
    assert str(excinfo.value) == PARTIAL
    for value in namespace.values():
        if isinstance(value, mg.Tensor):
            assert value._version == 0
            assert set(values(value.reshape(-1))) == {1.0}


@pytest.mark.parametrize(
    "program",
    [
        "x = mg.ones(2, 2); x.mul_(x)",  # the same tensor
        "x = mg.ones(2, 2); x.mul_(x.detach())",  # the same elements, the same layout
        "x = mg.ones(2, 3); x[:, :1].mul_(x[:, 1:2])",  # not dense: PyTorch does not check
        "x = mg.ones(3); x.fill_(x[0])",  # fill_ reads its value first
        "x = mg.ones(4); x[0:2].add_(x[2:4])",  # disjoint
    ],
)
def test_full_or_undecidable_overlap_is_allowed(program):
    exec(program, {"mg": mg})


def test_the_overlap_check_comes_before_the_shape_check():
    x = mg.ones(3)
    with pytest.raises(RuntimeError) as excinfo:
        x[0:1].add_(x.expand(2, 3))  # expand is not dense: no overlap check, the shape fails
    assert str(excinfo.value) == "output with shape [1] doesn't match the broadcast shape [2, 3]"
    t = mg.ones(2, 3)
    with pytest.raises(RuntimeError) as excinfo:
        t[0].add_(t)
    assert str(excinfo.value) == PARTIAL


@pytest.mark.parametrize(
    ("shape", "src", "message"),
    [
        ((3, 1), (3, 3), "output with shape [3, 1] doesn't match the broadcast shape [3, 3]"),
        ((), (1, 3), "output with shape [] doesn't match the broadcast shape [1, 3]"),
        ((3,), (2,), "The size of tensor a (3) must match the size of tensor b (2) at "
         "non-singleton dimension 0"),
    ],
)
def test_copy_into_a_smaller_tensor_gives_pytorchs_shape_error(shape, src, message):
    target = mg.ones(shape)
    with pytest.raises(RuntimeError) as excinfo:
        target.copy_(mg.zeros(src))
    assert str(excinfo.value) == message
    assert target._version == 0
