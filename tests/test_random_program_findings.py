"""Divergences the random-program tester found (issue 8), each pinned to PyTorch 2.13's behaviour.

Every expected value and text here is what PyTorch printed for the same program; with
``MINIGRAD_TEST_REFERENCE=torch`` these tests run on PyTorch itself. The live side-by-side run is
``tests_torch/test_random_programs.py``.
"""

import math
import warnings

import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

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


def test_backward_checks_an_empty_inputs_list_before_the_gradients_shape():
    y = mg.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError) as excinfo:
        y.backward(mg.ones(4), inputs=[])
    assert str(excinfo.value) == "`inputs` argument to `backward()` cannot be empty."


def test_backward_checks_the_outputs_history_before_its_inputs():
    with pytest.raises(RuntimeError) as excinfo:
        mg.zeros(3).sum().backward(inputs=[1])
    assert str(excinfo.value) == NO_GRAPH


@pytest.mark.parametrize("call", ["backward", "grad"])
def test_a_gradient_of_another_dtype_is_cast_after_the_outputs_history_is_checked(call):
    # Seed 190021584: casting the float32 gradient to the float64 output reads the gradient's
    # history, here an error (a no_grad view whose base changed in place); PyTorch's engine
    # casts after checking that the output has a history, which it has not.
    x = mg.tensor([[-1.5], [0.0], [-1.0]], requires_grad=True)
    total = x.sum()
    with mg.no_grad():
        gradient = total.view(-1)
        gradient.neg_()
    output = mg.zeros((1,), dtype=mg.float64) / 3
    with pytest.raises(RuntimeError) as excinfo:
        if call == "grad":
            mg.autograd.grad(output, output, gradient, allow_unused=True)
        else:
            output.backward(gradient)
    assert str(excinfo.value) == NO_GRAPH


def test_grad_checks_its_inputs_before_casting_the_gradient():
    x = mg.tensor([[-1.5], [0.0], [-1.0]], requires_grad=True)
    total = x.sum()
    with mg.no_grad():
        gradient = total.view(-1)
        gradient.neg_()
    output = mg.ones(1, dtype=mg.float64, requires_grad=True) * 2
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.grad(output, mg.zeros(1), gradient)
    assert str(excinfo.value) == "One of the differentiated Tensors does not require grad"


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


def test_a_leafs_accumulator_forgets_the_stack_of_its_own_anomaly_backward():
    # Seed 191055478: the accumulator made for the leaf's own backward in anomaly mode dies
    # with it in PyTorch; the one `x.sum()` makes outside anomaly mode has no stack.
    x = mg.tensor([[0.0, -1.5, 3.0]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with mg.autograd.detect_anomaly():
            x.backward(mg.ones_like(x))
    x.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5))
    total = x.sum()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mg.autograd.detect_anomaly(), pytest.raises(RuntimeError):
            total.backward()
    assert str(caught[1].message).startswith(
        "Error detected in torch::autograd::AccumulateGrad. No forward pass information "
        "available."
    )


def test_anomaly_mode_names_the_node_whose_backward_made_the_failing_one():
    # Random program seed 49006721: the failing DivBackward0 was made by the first backward's
    # DivBackward0 (create_graph): a second warning, after two newlines, shows that one's stack.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mg.autograd.detect_anomaly():
            x = mg.tensor([[1.0, 0.5], [0.0, -0.5]], requires_grad=True)
            w = mg.tensor([[-1.5, 3.0]], requires_grad=True)
            alias = w.detach()
            (g,) = mg.autograd.grad((w / x).sum(), x, create_graph=True)
            alias.relu_()
            with pytest.raises(RuntimeError, match="^one of the variables needed"):
                g.backward(mg.ones_like(g))
    messages = [str(w.message) for w in caught][1:]  # (the first: anomaly mode is on)
    assert len(messages) == 2
    assert messages[0].startswith(
        "Error detected in DivBackward0. Traceback of forward call that caused the error:\n"
    )
    assert messages[1].startswith(
        "\n\nPrevious calculation was induced by DivBackward0. Traceback of forward call that"
        " induced the previous calculation:\n"
    )
    assert "mg.autograd.grad((w / x).sum(), x, create_graph=True)" in messages[1]


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


# PyTorch's kernel set-up (TensorIterator) rules on the operands in this order: the written
# tensor's own overlap, an operand partially overlapping it, the operands' sizes, and only then
# the result's dtype. Integer tensors divided in place (a float result) reach all four.
SIZES = "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"


@parametrize_in_one(
    ("program", "message"),
    [
        ("t2 = mg.tensor(0); t4 = t2.view(-1); t4.div_(t2)", PARTIAL),  # seed 110011776
        ("t = mg.tensor(5); t.view(1, 1).div_(t)", PARTIAL),
        ("t = mg.tensor([[5, 6], [7, 8]]); t.div_(t.t())", PARTIAL),
        ("t = mg.tensor([5, 6, 7]); t[1:].div_(t[:2])", PARTIAL),
        ("t = mg.tensor([5, 6]); t.view(2, 1).div_(t)", PARTIAL),  # before the sizes
        ("t = mg.tensor([1, 2, 3]); t[1:].addcmul_(t[:2], mg.ones(2))", PARTIAL),
        ("t = mg.tensor([1, 2]); t.addcmul_(mg.ones(3), mg.ones(3))", SIZES),  # before the dtype
        ("t = mg.tensor([1, 2]); t.addcmul_(mg.ones(2), mg.ones(3))", SIZES),
        ("t = mg.tensor([1, 2]); t.addcmul_(mg.ones(2, 2), mg.ones(2))",
         "output with shape [2] doesn't match the broadcast shape [2, 2]"),
        ("t = mg.tensor([1, 2]); t.div_(mg.ones(2, 2))",
         "output with shape [2] doesn't match the broadcast shape [2, 2]"),
        # out=: the same set-up; add_'s float alpha for integers: checked after it
        ("t = mg.tensor(5); v = t.view(1); mg.div(v, t, out=v)", PARTIAL),
        ("t = mg.tensor([1, 2, 3]); t[1:].add_(t[:2], alpha=2.5)", PARTIAL),
        ("t = mg.tensor([1, 2, 3]); t[1:].sub_(t[:2], alpha=2.5)", PARTIAL),
        ("t = mg.tensor([1, 2]); t.add_(mg.ones(3, dtype=mg.int64), alpha=2.5)",
         "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
         "dimension 0"),
        ("t = mg.tensor([1, 2]); t.add_(mg.ones(2, dtype=mg.int64), alpha=2.5)",
         "For integral input tensors, argument alpha must not be a floating point number."),
    ],
)
def test_an_integer_tensors_cast_error_comes_after_overlap_and_sizes(program, message):
    namespace = {"mg": mg}
    setup, statement = program.rsplit("; ", 1)
    exec(setup, namespace)
    before = {name: (values(value), value._version) for name, value in namespace.items()
              if isinstance(value, mg.Tensor)}
    with pytest.raises(RuntimeError) as excinfo:
        exec(statement, namespace)
    assert str(excinfo.value) == message
    for name, (contents, version) in before.items():
        assert (values(namespace[name]), namespace[name]._version) == (contents, version)


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


# ---- class 4: views of a tensor that changed, or whose base was detached ---------------------

NO_GRAD_VIEW = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) "
    "or both outside (if you want the inplace to be tracked)."
)


def test_a_view_of_a_base_detached_in_place_is_regenerated_without_an_edge():
    t1 = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    t3 = t1 / 3
    t4 = t3[0:1]
    t3.detach_()
    t3.mul_(-0.5)
    assert t4.requires_grad and not t4.is_leaf
    assert type(t4.grad_fn).__name__ == "AsStridedBackward0"
    assert t4.grad_fn.next_functions == ((None, 0),)
    (t4 * 2).sum().backward()  # the gradient goes nowhere
    assert t1.grad is None


def test_a_view_requires_grad_once_its_base_does():
    t0 = mg.tensor(-1.0)
    t1 = t0[...]
    t0.requires_grad_()
    assert t1.requires_grad and t1.is_leaf and t1.grad_fn is None
    t9 = t1[...]
    assert type(t9.grad_fn).__name__ == "AliasBackward0"


def test_a_no_grad_view_follows_its_base_flag():
    t0 = mg.zeros((3, 1), requires_grad=True)
    with mg.no_grad():
        t3 = t0.reshape(-1)
    assert t3.requires_grad
    t3.requires_grad_(False)
    assert t3.requires_grad  # still: its base requires grad
    t3.sum().backward()  # recorded, but no gradient edge
    assert t0.grad is None
    t0.detach_()
    assert not t3.requires_grad


def test_a_no_grad_view_whose_base_changed_raises_at_every_use():
    t0 = mg.tensor([[-0.5], [-1.0], [0.5]], requires_grad=True)
    with mg.no_grad():
        t4 = t0.transpose(0, 1)
        t0.div_(t0)
    for _ in range(2):
        with pytest.raises(RuntimeError) as excinfo:
            _ = t4.grad_fn
        assert str(excinfo.value) == NO_GRAD_VIEW
    assert t4.requires_grad  # read without regenerating the history
    assert t4.grad is None  # a leaf (no node of its own): no warning, no regeneration
    with pytest.raises(RuntimeError) as excinfo:
        t4 * 2
    assert str(excinfo.value) == NO_GRAD_VIEW


def test_a_multi_output_view_reports_requires_grad_without_raising():
    t0 = mg.tensor([[0.5, -2.0, -1.5]], requires_grad=True)
    t2 = t0.unbind()[0]
    with mg.no_grad():
        t2.abs_()
    assert t2.requires_grad


def test_writing_a_no_grad_view_of_a_detached_base_is_not_checked():
    t0 = mg.tensor([[3.0, -1.0, 0.0], [0.5, -1.5, -1.5]], requires_grad=True)
    with mg.no_grad():
        t2 = t0[0]
    t0.detach_()
    t2.clamp_(min=0)
    assert values(t0) == [[3.0, 0.0, 0.0], [0.5, -1.5, -1.5]]


SAVED_DETACHED = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead"
)


def test_a_saved_input_detached_in_place_is_refused_in_backward():
    t0 = mg.tensor([[-1.0, 1.5], [-1.5, -1.5]], requires_grad=True)
    t2 = t0 - t0
    t3 = t2 / t0
    t2.detach_()
    with pytest.raises(RuntimeError) as excinfo:
        t3.backward(mg.ones_like(t3))
    assert str(excinfo.value) == SAVED_DETACHED


def test_a_saved_output_or_leaf_is_not_concerned():
    t0 = mg.tensor([1.0, 2.0], requires_grad=True)
    t2 = t0 * 1
    t3 = t2.exp()  # saves its result, not t2
    t2.detach_()
    t3.sum().backward()
    np.testing.assert_allclose(values(t0.grad), [2.7182817, 7.389056], rtol=1e-6)


# ---- retain_grad follows the tensor to its new node --------------------------------------------


def test_retain_grad_follows_an_in_place_op():
    t0 = mg.tensor(-2.0, requires_grad=True)
    t1 = mg.tensor([[1.0, 4.0, 1.5]])
    t1.div_(t0)
    t1.retain_grad()
    t6 = t0.exp() - t1
    t1.mul_(2)
    t7 = t1 * 3
    (t6.sum() + t7.sum()).backward()
    assert values(t1.grad) == [[3.0, 3.0, 3.0]]  # only the use after the write


def test_retain_grad_follows_a_regenerated_view():
    b = mg.tensor([1.0, 2.0], requires_grad=True) * 1
    v = b[0:1]
    v.retain_grad()
    b.mul_(3)
    (v * 4).sum().backward()
    assert values(v.grad) == [4.0]


# ---- class 5: values at special points, gradient nodes ------------------------------------------


def test_sign_and_the_gradient_of_abs_at_nan_are_zero():
    x = mg.tensor([float("nan"), 0.0, -0.0, 1.0, -2.0], requires_grad=True)
    assert values(mg.sign(x.detach())) == [0.0, 0.0, 0.0, 1.0, -1.0]
    (g,) = mg.autograd.grad(x.abs().sum(), x, create_graph=True)
    assert values(g) == [0.0, 0.0, 0.0, 1.0, -1.0]
    x.abs().sum().backward()
    assert values(x.grad) == [0.0, 0.0, 0.0, 1.0, -1.0]


def test_the_divisors_gradient_ends_with_a_multiplication():
    x = mg.tensor([1.0, 1.0], requires_grad=True)
    y = mg.tensor([2.0, 3.0], requires_grad=True)
    (g,) = mg.autograd.grad((x / y).sum(), y, create_graph=True)
    assert type(g.grad_fn).__name__ == "MulBackward0"
    np.testing.assert_allclose(values(g), [-0.25, -0.11111111], rtol=1e-6)


def test_a_recorded_gradient_can_be_written():
    t0 = mg.tensor([3.0, -2.0, -1.5], requires_grad=True)
    (g,) = mg.autograd.grad(t0.sum(), t0, create_graph=True)
    g[0] = -1.0  # numpy's read-only broadcast must not leak out (ValueError)
    # PyTorch's gradient here is an expanded view of one element, so its other elements change
    # too; minigrad's is a plain tensor (known.py: "gradient layout").
    assert values(g)[0] == -1.0


# ---- per-op findings: the bias's gradient keeps its graph under create_graph --------------------


def test_layer_norm_bias_gradient_is_differentiable():
    x = mg.tensor([[1.0, 2.0, 4.0], [0.0, -1.0, 3.0]], requires_grad=True)
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor([0.5, 0.0, -1.0], requires_grad=True)
    y = mg.nn.functional.layer_norm(x, (3,), w, b)
    (gb,) = mg.autograd.grad((y * x).sum(), b, create_graph=True)
    assert gb.requires_grad
    assert values(gb) == [1.0, 1.0, 7.0]
    (gx,) = mg.autograd.grad(gb.sum(), x)
    assert values(gx) == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


def test_conv2d_bias_gradient_is_differentiable():
    x = mg.arange(9.0).view(1, 1, 3, 3).requires_grad_()
    w = mg.ones(2, 1, 2, 2, requires_grad=True)
    b = mg.tensor([1.0, 2.0], requires_grad=True)
    y = mg.nn.functional.conv2d(x, w, b)
    (gb,) = mg.autograd.grad((y * y).sum(), b, create_graph=True)
    assert gb.requires_grad
    assert values(gb) == [136.0, 144.0]
    gx, gw = mg.autograd.grad(gb.sum(), [x, w])
    assert values(gx) == [[[[4.0, 8.0, 4.0], [8.0, 16.0, 8.0], [4.0, 8.0, 4.0]]]]
    assert values(gw) == [[[[16.0, 24.0], [40.0, 48.0]]]] * 2


def test_masked_gradients_keep_pytorchs_special_values():
    # relu, clamp: an infinite gradient where the input is masked stays 0, not nan; relu at a
    # nan input lets the gradient through (PyTorch's threshold_backward: 0 where y <= 0).
    t0 = mg.tensor([0.0, -1.0, 1.5], requires_grad=True)
    (t0.relu() ** mg.tensor(-1.5, requires_grad=True)).sum().backward()
    np.testing.assert_allclose(values(t0.grad), [0.0, 0.0, -0.5443311], rtol=1e-6)
    t0 = mg.tensor([[-0.5, 3.0, -1.0]], requires_grad=True)
    (t0.view(-1) ** t0.clamp(min=0)).backward(mg.ones(1, 3))
    np.testing.assert_allclose(values(t0.grad), [[0.0, 56.662533, 0.0]], rtol=1e-6)
    t0 = mg.tensor([[-1.0, 0.0]], requires_grad=True)
    (t0 + float("nan")).relu().sum().backward()
    assert values(t0.grad) == [[1.0, 1.0]]


# ---- the layout of what autograd.grad returns ------------------------------------------------

INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
NO_GRAD_VIEW_WRITTEN = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
)


@pytest.mark.parametrize("create_graph", [False, True])
def test_gradient_of_sum_is_an_expanded_view_of_the_seed(create_graph):
    # PyTorch returns SumBackward0's result as it is: the seed expanded, one element in memory.
    x = mg.tensor([[2.0, 3.0, -0.5], [0.0, -0.5, -0.5]], requires_grad=True)
    g = mg.autograd.grad(x.sum(), x, create_graph=create_graph)[0]
    assert g.stride() == (0, 0)
    assert (g.is_leaf, g.requires_grad, g._version) == (True, False, 0)
    with pytest.raises(RuntimeError) as excinfo:
        g.mul_(-0.5)
    assert str(excinfo.value) == INTERNAL_OVERLAP
    with pytest.raises(RuntimeError) as excinfo:
        g[0] = -1.0  # a row of the expanded view overlaps itself too
    assert str(excinfo.value) == INTERNAL_OVERLAP
    g[0, 0] = 2.0  # one element: all of them, since all are one
    assert values(g) == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    assert g._version == 1


def test_gradient_view_made_without_create_graph_is_a_no_grad_view():
    x = mg.tensor([0.5, -1.5, 0.0], requires_grad=True)
    g = mg.autograd.grad(x.sum(), x)[0]
    with pytest.raises(RuntimeError) as excinfo:
        g /= x
    assert str(excinfo.value).startswith(NO_GRAD_VIEW_WRITTEN)
    with pytest.raises(RuntimeError, match="^Can't detach views in-place"):
        g.detach_()
    # ``.data`` is no view, yet its memory is still one element: the internal check comes first.
    data = g.data
    with pytest.raises(RuntimeError) as excinfo:
        data += data.unsqueeze(1).squeeze()
    assert str(excinfo.value) == INTERNAL_OVERLAP


def test_gradient_through_views_stays_a_view_of_the_seed():
    x = mg.tensor([3.0, 0.0, -1.0], requires_grad=True)
    g = mg.autograd.grad(x.unsqueeze(0).t().sum(), x)[0]
    assert g.stride() == (0,)
    t = g.t()
    with pytest.raises(RuntimeError) as excinfo:
        t.add_(x.detach(), alpha=2)
    assert str(excinfo.value) == INTERNAL_OVERLAP


def test_gradient_computed_by_a_formula_is_a_fresh_dense_tensor():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    for g in (mg.autograd.grad((x * 2).sum(), x)[0], mg.autograd.grad(x.mean(), x)[0]):
        assert g.stride() == (1,)
        g.mul_(2)  # no overlap, no view: allowed
        g.detach_()


def test_gradient_of_a_broadcast_operand_is_a_no_grad_view_of_the_sum_that_undid_it():
    # Random program seed 14396: PyTorch's sum_to sums over the broadcast dims keeping them,
    # then views the leading one away; the engine ran it with grad mode off.
    x = mg.tensor([2.0, 1.5, 2.0], requires_grad=True)
    g = mg.autograd.grad(x.expand(2, 3).sum(), x)[0]
    assert (tuple(g._base.shape), g._version) == ((1, 3), 0)
    with pytest.raises(RuntimeError) as excinfo:
        g *= x
    assert str(excinfo.value).startswith(NO_GRAD_VIEW_WRITTEN)
    assert values(g) == [2.0, 2.0, 2.0]


def test_a_view_of_such_a_gradient_is_a_no_grad_view_too():
    # Random program seed 64011287: the operand of an in-place mul is summed to its shape.
    x = mg.zeros((3,), requires_grad=True)
    y = mg.ones((2, 3))
    y *= x
    s = mg.autograd.grad(y.sum(), x)[0].squeeze()
    with pytest.raises(RuntimeError) as excinfo:
        s.copy_(mg.tensor([-0.5], requires_grad=True))
    assert str(excinfo.value).startswith(NO_GRAD_VIEW_WRITTEN)
    with pytest.raises(RuntimeError, match="^Can't detach views in-place"):
        s.detach_()


def test_gradients_that_are_views_of_one_result_share_its_version_counter():
    # cat's backward hands each input a slice of one gradient; a transpose's, a transposed view.
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0], requires_grad=True)
    ga, gb = mg.autograd.grad((mg.cat([a, b]) * 2).sum(), [a, b])
    assert ga._base is gb._base is not None
    ga.mul_(3)
    assert (ga._version, gb._version, values(ga), values(gb)) == (1, 1, [6.0, 6.0], [2.0])
    x = mg.zeros((2, 3), requires_grad=True)
    g = mg.autograd.grad((x.t() * 2).sum(), x)[0]
    assert (g.stride(), tuple(g._base.shape)) == ((1, 2), (3, 2))


@pytest.mark.parametrize(
    ("view", "last_step"),
    [(lambda t: t.transpose(0, 1), "AddBackward0"), (lambda t: t.unsqueeze(0).expand(2, 2, 3),
                                                     "SumBackward1")],
)
def test_a_regenerated_views_gradient_under_create_graph_is_pytorchs_as_strided_backward(
    view, last_step
):
    # Random program seed 16968: a view of a leaf whose version changed is regenerated as
    # AsStrided; its recorded backward copies the gradient (its expanded dims summed) into a view
    # of a zero storage, then views the storage as the base: AsStrided <- CopySlices, version 1.
    t0 = mg.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -2.0]], requires_grad=True)
    v = view(t0)
    t0.detach().mul_(1)
    g = mg.autograd.grad((v * v * v).sum(), t0, create_graph=True)[0]
    copy_slices = g.grad_fn.next_functions[0][0]
    assert (g.grad_fn.name(), copy_slices.name()) == (
        "AsStridedBackward0", "torch::autograd::CopySlices"
    )
    assert copy_slices.next_functions[-1][0].name() == last_step
    assert (g._version, tuple(g._base.shape)) == (1, (6,))
    factor = 1 if last_step == "AddBackward0" else 2
    assert values(g) == [[0.75 * factor, 3.0 * factor, 12.0 * factor],
                         [6.75 * factor, 0.1875 * factor, 12.0 * factor]]
    (gg,) = mg.autograd.grad((g * g).sum(), t0)
    assert values(gg) == [[4.5 * factor**2, -36.0 * factor**2, 288.0 * factor**2],
                          [121.5 * factor**2, 0.5625 * factor**2, -288.0 * factor**2]]


def test_copyslices_gradient_under_create_graph_is_written_into_a_copy_of_the_gradient():
    # Random program seed 13028823: CopySlices copies the gradient into a tensor laid out like
    # the base, then copies F's gradient into its view's region: the result's node is
    # CopySlices, its version 2 (two copies), and F's double backward hangs off it.
    t1 = mg.tensor([1.5, -2.0], requires_grad=True)
    t2 = t1.clone()
    t2[1:].relu_()
    g = mg.autograd.grad(t2.sum(), t1, create_graph=True)[0]
    node = g.grad_fn
    assert node.name() == "torch::autograd::CopySlices"
    assert [m and m.name() for m, _ in node.next_functions] == [None, "ThresholdBackwardBackward0"]
    assert (g._version, g.requires_grad, values(g)) == (2, True, [1.0, 0.0])


def test_double_backward_through_a_result_saved_by_an_inplace_op_on_a_view():
    # exp_ on a view saves its result; under create_graph it comes back with the view's node
    # after the write (AsStrided over the base's CopySlices), not exp's own node, which runs
    # inside CopySlices: a second backward raised "backward through the graph a second time".
    x = mg.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
    y = x * 2
    v = y[1]
    v.exp_()
    (g,) = mg.autograd.grad((y * y).sum(), x, create_graph=True)
    (gg,) = mg.autograd.grad((g * g).sum(), x)
    assert values(g) == [[4.0, -8.0], [1613.7152099609375, 10.873126983642578]]
    assert values(gg) == [[64.0, -128.0], [20832614.0, 945.7991333007812]]


SIZE_MISMATCH = (
    "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
)


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (lambda: mg.tensor([1, 2]).add_(mg.tensor([0.5, 1.5, 2.5])),
         SIZE_MISMATCH),
        (lambda: mg.tensor([1, 2]).mul_(mg.tensor([[0.5], [1.5], [2.5]])),
         "output with shape [2] doesn't match the broadcast shape [3, 2]"),
        (lambda: mg.tensor([True, False]).add_(mg.tensor([1, 2, 3])),
         SIZE_MISMATCH),
        (lambda: mg.tensor([True, False]).clamp_(min=0),
         "result type Long can't be cast to the desired output type bool"),
        (lambda: mg.tensor([True, False]).clamp_min_(0),
         "result type Long can't be cast to the desired output type bool"),
        # the bounds are typed together: a float one names Float, whichever comes first
        (lambda: mg.tensor([True, False]).clamp_(0, 0.5),
         "result type Float can't be cast to the desired output type bool"),
        (lambda: mg.tensor([1, 2]).clamp_(True, 0.5),
         "result type Float can't be cast to the desired output type long int"),
    ],
)
def test_an_integer_or_bool_inplace_op_checks_shapes_before_types(write, message):
    # PyTorch's TensorIterator sizes the operands, then types them; a number bound of clamp_
    # names the tensor's C++ type (lower-case ``bool``).
    with pytest.raises(RuntimeError) as excinfo:
        write()
    assert str(excinfo.value) == message


@pytest.mark.parametrize("create_graph", [False, True])
def test_leaf_grad_of_sum_is_a_dense_copy(create_graph):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns about create_graph in backward
        x.sum().backward(create_graph=create_graph)
    assert (x.grad.stride(), x.grad._base) == ((1,), None)
    x.grad.mul_(3)
    assert values(x.grad) == [3.0, 3.0]


def test_gradient_through_copyslices_with_create_graph_checks_the_view_not_the_seed():
    # The seed is expanded; CopySlices copies it into the base's layout first (PyTorch), so
    # only the node's stale saved tensor (the AsStrided view written by mul_) is reported.
    x = mg.tensor([[3.0, -0.5, -1.0], [-2.0, 2.0, -1.5]], requires_grad=True)
    y = x * 2
    v = y.T
    v.mul_(v)
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.grad(y.sum(), x, create_graph=True)
    assert "which is output 0 of AsStrided, is at version 1" in str(excinfo.value)


def test_retain_grad_survives_detach_in_place():
    # PyTorch's retain_grad hook stays on the node; detach_() does not remove it.
    t0 = mg.tensor([[3.0, 1.0, 2.0]], requires_grad=True)
    t1 = t0 + t0
    t1.retain_grad()
    t2 = t1 - t0
    t1.detach_()
    assert (t1.requires_grad, t1.is_leaf, t1.retains_grad) == (False, True, True)
    t2.sum().backward()
    assert values(t1.grad) == [[1.0, 1.0, 1.0]]
    t1.requires_grad_()
    (t1 * 2).sum().backward()  # now a leaf of its own: accumulates
    assert values(t1.grad) == [[3.0, 3.0, 3.0]]


@pytest.mark.parametrize("write", ["add_", "mul_", "copy_"])
def test_gradient_of_a_wider_operand_of_an_inplace_op_has_its_dtype(write):
    # float32.add_(float64): the gradient reaching the float64 operand is float64 (PyTorch
    # casts each gradient to its input's dtype).
    t0 = mg.tensor([[-1.0], [2.0], [-2.0]])
    t1 = mg.tensor([[1.5], [1.5], [0.0]], dtype=mg.float64, requires_grad=True)
    getattr(t0, write)(t1)
    (g,) = mg.autograd.grad(t0.sum(), t1)
    assert g.dtype == mg.float64


def test_op_on_a_no_grad_view_saves_nothing_for_it():
    # The view requires grad (its base does) but has no gradient edge: PyTorch's MulBackward0
    # saves nothing for it, so backward can run twice; nothing reaches the base.
    t0 = mg.tensor([[-1.5, 2.0, 1.5], [-2.0, -0.5, 0.5]], requires_grad=True)
    with mg.no_grad():
        t1 = t0.expand(2, *t0.shape)
    t2 = t1 * t1
    assert t2.requires_grad and t2.grad_fn.next_functions == ((None, 0), (None, 0))
    t2.sum().backward()
    t2.sum().backward()
    assert t0.grad is None


def test_create_graph_through_an_indexed_fill_of_a_number():
    # ``t2[0] = -1.0`` records a fill whose value needs no gradient; with create_graph its
    # gradient must not be fitted to the written row's shape.
    t0 = mg.tensor([3.0, -1.0, 1.5], requires_grad=True)
    t1 = mg.tensor([[-2.0], [-1.5], [-0.5]])
    t2 = t0 / t1
    t2[0] = -1.0
    (g,) = mg.autograd.grad(t2.sum(), t0, create_graph=True)
    assert np.allclose(values(g), [-8.0 / 3.0] * 3)


# ---- class 3: inputs that overlap the written tensor where PyTorch does not check -----------


def test_inplace_add_of_a_diagonal_reads_elements_already_written():
    # x.diagonal() is not dense: PyTorch skips its overlap check, and its loop (row by row)
    # adds the new x[0, 0] to x[1, 0].
    t0 = mg.tensor([[-1.5, 0.0], [-0.5, 1.5]])
    t0.add_(t0.diagonal())
    assert values(t0) == [[-3.0, 1.5], [-3.5, 3.0]]


def test_inplace_mul_by_its_own_first_column_in_memory_order():
    t0 = mg.tensor([[0.5, -1.0], [0.5, 1.0]], requires_grad=True)
    t2 = t0 * t0
    t2.mul_(t2.chunk(2, 1)[0])
    assert values(t2) == [[0.0625, 0.0625], [0.0625, 0.0625]]
    y = mg.arange(9.0).reshape(3, 3)
    y.T[:, :2].mul_(y[:, :1])  # a transposed written tensor: its memory order, not its shape's
    assert values(y) == [[0.0, 3.0, 12.0], [0.0, 0.0, 30.0], [6.0, 7.0, 8.0]]
    z = mg.arange(9.0).reshape(3, 3)
    z.sub_(z[:, 1:2], alpha=2)
    assert values(z) == [[-2.0, -1.0, 4.0], [-5.0, -4.0, 13.0], [-8.0, -7.0, 22.0]]


def test_inplace_division_by_an_overlapping_column_of_zeros_is_silent():
    t1 = mg.tensor([[2.0, 1.5, -1.5], [-2.0, 3.0, -1.5]], requires_grad=True)
    with mg.no_grad():
        t1.sub_(t1)
    t2 = t1.chunk(2, 1)[0]
    t3 = t2.detach()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0 / 0 is nan, without numpy's warning
        t3 /= t2
    assert np.isnan(t3.detach().numpy()).all()


def test_gradient_summed_to_a_0d_input_under_create_graph_is_a_plain_sum():
    t0 = mg.tensor(1.5, requires_grad=True)
    t1 = mg.tensor([[1.0, -0.5, 0.0]], requires_grad=True)
    (g,) = mg.autograd.grad((t0**t1).sum(), t0, create_graph=True)
    assert type(g.grad_fn).__name__ == "SumBackward0"
    assert g.shape == () and abs(g.item() - (1.0 - 0.5 / 1.5**1.5)) < 1e-6


# ---- argument errors (found with ``t5 = t3.grad``, None when nothing accumulated) ------------


def test_copy_names_its_source_other_as_pytorch():
    t = mg.ones(2)
    with pytest.raises(TypeError) as excinfo:
        t.copy_(None)
    assert str(excinfo.value) == (
        "copy_(): argument 'other' (position 1) must be Tensor, not NoneType"
    )
    t.copy_(other=mg.zeros(2), non_blocking=False)
    assert values(t) == [0.0, 0.0]
    with pytest.raises(TypeError) as excinfo:
        t.copy_(mg.zeros(2), None)
    assert str(excinfo.value) == (
        "copy_(): argument 'non_blocking' (position 2) must be bool, not NoneType"
    )


# ---- op-level findings -----------------------------------------------------------------------

STALE = "one of the variables needed for gradient computation has been modified by an inplace"


@pytest.mark.parametrize(
    "op",
    ["mul", "div", "atan2", "maximum", "minimum", "pow"],
)
def test_with_both_operands_stale_the_error_names_other(op):
    # PyTorch's generated nodes unpack ``other`` (or ``exponent``) before ``self``.
    a = mg.ones(2, requires_grad=True).clone()  # self: [2]
    b = mg.full((3, 1), 2.0, requires_grad=True).clone()  # other: [3, 1]
    z = getattr(mg, op)(a, b)
    a.add_(1)
    b.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        z.sum().backward()
    assert str(excinfo.value).startswith(text(f"{STALE} operation: [minigrad.FloatTensor [3, 1]]"))


def test_pow_checks_both_inputs_before_its_result():
    a = mg.full((2,), 2.0, requires_grad=True).clone()
    b = mg.ones(3, 1, requires_grad=True).clone()
    z = a**b
    a.add_(1)
    z.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        z.sum().backward()
    assert text("[minigrad.FloatTensor [2]], which is output 0 of Add") in str(excinfo.value)


def test_stale_no_grad_view_as_exponent_is_reported_before_the_base():
    t1 = mg.tensor(0.0, requires_grad=True)
    t3 = (t1 - t1).view_as(t1)
    with mg.no_grad():
        t4 = t3.reshape(-1)
    t5 = t4.reshape(-1)
    t6 = t5**t4
    with mg.no_grad():
        t5.sigmoid_()
    with pytest.raises(RuntimeError) as excinfo:
        t6.sum().backward()
    assert str(excinfo.value).startswith(
        "A view was created in no_grad mode and its base or another view of its base has been "
        "modified inplace with grad mode enabled."
    )


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_maximum_and_minimum_of_equal_values_give_the_first(op):
    a = mg.tensor([0.0, -0.0])
    b = mg.tensor([-0.0, 0.0])
    assert values(1 / getattr(mg, op)(a, b)) == [float("inf"), float("-inf")]
    assert values(1 / getattr(mg, op)(b, a)) == [float("-inf"), float("inf")]


def test_overwritten_values_get_a_zero_gradient_even_from_infinity():
    # zero_, fill_ and copy_ give the old value a gradient of zeros, not grad * 0 (nan at inf).
    t1 = mg.zeros((3, 1), requires_grad=True)
    t2 = t1.abs()
    t2.zero_()
    t2.div_(t1.data)  # 1 / 0: an infinite gradient for t2
    t2.sum().backward()
    assert values(t1.grad) == [[0.0], [0.0], [0.0]]
    t0 = mg.tensor([[-1.0], [3.0], [1.5]], requires_grad=True)
    t1 = t0.data
    t1.sub_(t0)
    t1[0] = t0.sum()
    t1.sqrt_()
    (g,) = mg.autograd.grad(t1.sum(), t0)
    assert str(values(g)) == "[[inf], [nan], [nan]]"


@pytest.mark.parametrize(
    ("function", "node", "first", "second", "third"),
    [
        ("sigmoid", "SigmoidBackwardBackward0", [0.25, 0.10499358540350662, 0.19661193324148185],
         [0.0, -0.0167910993674344, 0.03572743483989027],
         [-0.0625, 0.020946354899893, 0.0026193992680529033]),
        ("tanh", "TanhBackwardBackward0", [1.0, 0.07065082485316443, 0.41997434161402614],
         [0.0, -0.01924792525428182, 0.5373151797579001],
         [-4.0, 0.07281149781209745, 1.3405667135931512]),
        ("relu", "ThresholdBackwardBackward0", [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
    ],
)
def test_create_graph_records_pytorchs_fused_backward_nodes(function, node, first, second, third):
    x = mg.tensor([0.0, 2.0, -1.0], dtype=mg.float64, requires_grad=True)
    (g,) = mg.autograd.grad(getattr(mg, function)(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == node
    (g2,) = mg.autograd.grad((g * g).sum(), x, create_graph=True)
    assert type(g2.grad_fn).__name__ == node
    (g3,) = mg.autograd.grad(g2.sum(), x)
    assert np.allclose(values(g), first) and np.allclose(values(g2), second)
    assert np.allclose(values(g3), third)


def test_create_graph_through_pow_exponent_multiplies_last():
    y = mg.tensor([[1.0, -0.5, 0.0]])
    b = mg.tensor([[2.0, 0.0, 0.5]], requires_grad=True)
    (g,) = mg.autograd.grad(((y.abs() + 1) ** b).sum(), b, create_graph=True)
    assert type(g.grad_fn).__name__ == "MulBackward0"
    assert np.allclose(values(g), [[2.7725887298583984, 0.40546509623527527, 0.0]])
    (g,) = mg.autograd.grad((b**y).sum(), b, create_graph=True)
    assert type(g.grad_fn).__name__ == "WhereBackward0"
    assert values(g) == [[1.0, float("-inf"), 0.0]]


@pytest.mark.parametrize("method", ["add_", "sub_", "mul_", "div_"])
def test_inplace_arithmetic_names_itself_and_the_position_of_a_bad_operand(method):
    t = mg.ones(2)
    with pytest.raises(TypeError) as excinfo:
        getattr(t, method)(None)
    assert str(excinfo.value) == (
        f"{method}(): argument 'other' (position 1) must be Tensor, not NoneType"
    )
    assert t._version == 0


def test_float32_exp_is_rounded_as_pytorchs():
    # exp(2) = 7.38905609893...: PyTorch gives the nearest float32, as the float64 value rounded.
    assert values(mg.exp(mg.tensor([1.0, 2.0]))) == [2.7182817459106445, 7.389056205749512]


def test_a_0d_tensor_and_its_squeezed_view_are_two_saved_inputs():
    # x.squeeze() of a 0-d x shares x's buffer; atan2 saves both, and checks ``other`` (x, a
    # leaf: no "which is output" clause) first.
    t0 = mg.tensor(-0.5, requires_grad=True)
    t2 = mg.atan2(t0.squeeze(), t0)
    with mg.no_grad():
        t0.relu_()
    with pytest.raises(RuntimeError) as excinfo:
        t2.backward()
    assert str(excinfo.value).startswith(
        text(f"{STALE} operation: [minigrad.FloatTensor []] is at version 1; expected version 0")
    )


# ---- one buffer, two tensors: a saved input is the input at its own position -----------------

HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient,"
    " with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
)


@pytest.mark.parametrize("op", ["mul", "div", "mm", "atan2"])
def test_a_saved_input_sharing_the_other_inputs_buffer_is_checked_as_itself(op):
    # ``t.data`` has t's buffer and a counter of its own. op(t, t.data) saves only the second
    # (t's gradient needs it); writing it must fail backward, not give a wrong gradient.
    t0 = mg.tensor([[-2.0, 3.0], [1.5, 0.5]], requires_grad=True)
    t1 = t0 * 1
    t4 = t1.data
    out = getattr(mg, op)(t1, t4)
    t4.add_(1)
    with pytest.raises(RuntimeError) as excinfo:
        out.sum().backward()
    assert str(excinfo.value) == text(
        f"{STALE} operation: [minigrad.FloatTensor [2, 2]] is at version 1; expected version 0"
        f" instead.{HINT}"
    )
    assert t0.grad is None


def test_the_written_data_alias_is_named_by_its_new_producer():
    # Random program seed 5012465: t4 = t1.data, saved by t1 / t4, then written with a value
    # that requires grad: it now has a history of its own, which the message names.
    t0 = mg.tensor([-2.0], requires_grad=True)
    t1 = mg.atan2(t0, t0)
    t4 = t1.data
    t5 = t1 / t4
    t4.add_(t5)
    with pytest.raises(RuntimeError) as excinfo:
        t5.sum().backward(retain_graph=True)
    assert str(excinfo.value) == text(
        f"{STALE} operation: [minigrad.FloatTensor [1]], which is output 0 of Add, is at"
        f" version 1; expected version 0 instead.{HINT}"
    )


# ---- what a built-in node computes: one gradient per edge, none where no edge needs it -----


def post_hook_log(node, log, name):
    node.register_hook(lambda grad_inputs, grad_outputs: log.append(
        (name, [None if g is None else values(g) for g in grad_inputs])))


def test_a_post_hook_sees_one_gradient_per_edge_and_none_without_an_edge():
    a = mg.tensor([1.0, 4.0], requires_grad=True)
    b = mg.tensor([3.0, 5.0], requires_grad=True)
    with mg.no_grad():
        view = a.view_as(a)  # requires grad through its base, but has no gradient edge
    log = []
    products = {"a*b": a * b, "a+b": a + b, "a*2": a * 2, "view*a": view * a,
                "view.sqrt()": view.sqrt()}
    for name, tensor in products.items():
        post_hook_log(tensor.grad_fn, log, name)
    sum(t.sum() for t in products.values()).backward()
    assert sorted(log) == sorted([
        ("a*b", [[3.0, 5.0], [1.0, 4.0]]),
        ("a+b", [[1.0, 1.0], [1.0, 1.0]]),
        ("a*2", [[2.0, 2.0], None]),
        ("view*a", [None, [1.0, 4.0]]),
        ("view.sqrt()", [None]),
    ])


def test_a_post_hook_sees_none_on_an_edge_autograd_grad_does_not_need():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    h = a * b
    y = (h * 2).sum()
    log = []
    post_hook_log(h.grad_fn, log, "mul")
    assert values(mg.autograd.grad(y, a, retain_graph=True)[0]) == [6.0, 8.0]
    y.backward(inputs=[b])
    assert log == [("mul", [[6.0, 8.0], None]), ("mul", [None, [2.0, 4.0]])]


def test_a_post_hook_replacing_a_binary_ops_gradients_returns_one_per_edge():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    y = a + a
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0], grad_inputs[0] * 0))
    y.sum().backward()
    assert values(a.grad) == [1.0, 1.0]
    z = a * 3
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0],) * 3)
    with pytest.raises(RuntimeError) as excinfo:
        z.sum().backward()
    assert str(excinfo.value) == (
        "hook '<lambda>' has returned an incorrect number of values (got 3, but expected 2)"
    )


def test_anomaly_mode_ignores_a_nan_on_an_edge_that_is_never_computed():
    # Random program seed 5016749: sqrt of a view made under no_grad. PyTorch's node has no
    # edge there, so it computes no gradient, and there is no nan to report.
    t0 = mg.tensor([[1.0], [1.0], [-0.5]], dtype=mg.float64, requires_grad=True)
    t3 = 1 / t0
    with mg.no_grad():
        t5 = t3.view_as(t3)
    t6 = t5.sqrt()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (anomaly mode's note that it is on)
        with mg.autograd.detect_anomaly():
            t6.sum().backward()
    assert t0.grad is None


def test_anomaly_mode_checks_for_nan_after_the_post_hooks_and_the_release():
    x = mg.tensor([1.0, -1.0], requires_grad=True)
    y = x.sqrt()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (mg.zeros(2),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with mg.autograd.detect_anomaly():
            y.sum().backward()  # the hook replaced the nan: nothing to report
        assert values(x.grad) == [0.0, 0.0]
        x = mg.tensor([1.0, -1.0], requires_grad=True)
        y = x.sqrt()
        with pytest.raises(RuntimeError) as excinfo, mg.autograd.detect_anomaly():
            y.sum().backward()
    assert str(excinfo.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.sum().backward()  # the saved values went before the check


def test_a_custom_function_needs_the_gradient_of_a_view_made_under_no_grad():
    class Twice(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            seen.append(ctx.needs_input_grad)
            return grad * float("nan")

    seen = []
    a = mg.tensor([1.0, 4.0], requires_grad=True)
    with mg.no_grad():
        view = a.view_as(a)
    y = Twice.apply(view)
    assert y.grad_fn.next_functions == ((None, 0),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as excinfo, mg.autograd.detect_anomaly():
            y.sum().backward()
    assert seen == [(True,)]
    assert str(excinfo.value) == "Function 'TwiceBackward' returned nan values in its 0th output."


# ---- a view whose base was written: what reads its grad_fn, and what does not ---------------

NO_GRAD_VIEW_BASE_WRITTEN = (
    "A view was created in no_grad mode and its base or another view of its base has been"
    " modified inplace with grad mode enabled."
)
SPLIT_VIEW_WRITTEN = (
    "Output 0 of Split is a view and its base or another view of its base has been modified"
    " inplace."
)


def no_grad_view_of_a_written_base():
    t0 = mg.ones((2, 3), requires_grad=True)
    t1 = t0.squeeze()
    with mg.no_grad():
        t3 = t1.view_as(t1)
    t1.detach().sub_(1)  # (random program seed 9001508)
    return t3


def split_output_of_a_written_base():
    t0 = mg.tensor([[-1.5], [-1.0], [0.5]], requires_grad=True)
    t1 = t0.split(1)[0]
    with mg.no_grad():
        t0.copy_(t0)  # (random program seed 9015394)
    return t1


@pytest.mark.parametrize(("make", "message"), [
    (no_grad_view_of_a_written_base, NO_GRAD_VIEW_BASE_WRITTEN),
    (split_output_of_a_written_base, SPLIT_VIEW_WRITTEN),
])
def test_a_first_hook_on_a_view_reads_its_grad_fn(make, message):
    view = make()
    with pytest.raises(RuntimeError) as excinfo:
        view.register_hook(lambda grad: grad * 2)
    assert str(excinfo.value).startswith(message)


def stale_no_grad_view():
    # A view made in no_grad whose base was written since: reading its history raises.
    t0 = mg.tensor([[-2.0, 1.0], [-1.5, 1.0]], requires_grad=True)
    with mg.no_grad():
        view = t0[:, 1:]
        view.mul_(2)
    return view


DOUBLE_MATRIX = mg.tensor([[1.0]], dtype=mg.float64, requires_grad=True)


@pytest.mark.parametrize("op", [
    lambda v: v @ DOUBLE_MATRIX,  # (a wrong dtype for each of these)
    lambda v: v.mm(DOUBLE_MATRIX),
    lambda v: mg.addmm(mg.tensor([-1.5], requires_grad=True), v, DOUBLE_MATRIX),
    lambda v: v.mm(mg.ones(3, 1)),  # (a wrong shape)
    lambda v: mg.cat([v, mg.ones(2, 3)]),
    lambda v: mg.cat([mg.ones(2, 3), v]),
    lambda v: mg.nn.functional.linear(v, DOUBLE_MATRIX, mg.tensor([-1.5], requires_grad=True)),
    lambda v: mg.nn.functional.linear(v, DOUBLE_MATRIX),
])
def test_an_ops_inputs_history_is_read_before_its_arguments_are_checked(op):
    # (Seed 150018544: the history read by a failed F.linear let a view's fill_ pass.)
    # Random program seeds 130037245, 140061044 (F.linear): PyTorch collects the op's edges,
    # reading each input's grad_fn, before its kernel checks dtypes and shapes.
    with pytest.raises(RuntimeError) as excinfo:
        op(stale_no_grad_view())
    assert str(excinfo.value).startswith(NO_GRAD_VIEW_BASE_WRITTEN)


def test_retain_grad_reads_the_grad_fn_of_a_view_that_has_one():
    # PyTorch's leaf test reads the node as it is: the no-grad view has none, and is let be.
    no_grad_view_of_a_written_base().retain_grad()
    view = split_output_of_a_written_base()
    with pytest.raises(RuntimeError) as excinfo:
        view.retain_grad()
    assert str(excinfo.value).startswith(SPLIT_VIEW_WRITTEN)
    assert not view.retains_grad


def test_backward_retains_a_views_gradient_on_the_node_it_was_asked_on():
    # The base of a retaining view is written; backward through
    # the graph recorded before retains on the old node (reading grad_fn there would regenerate
    # the view's node mid-backward), then fails on the written value.
    t0 = mg.tensor(1.0, requires_grad=True)
    t1 = t0.squeeze()
    t2 = t0.tanh()
    t5 = t2.reshape(1)
    t6 = t1 + t5
    t5.retain_grad()
    t2.relu_()
    with pytest.raises(RuntimeError) as excinfo:
        t6.backward()
    assert str(excinfo.value) == text(
        f"{STALE} operation: [minigrad.FloatTensor []], which is output 0 of Tanh, is at version"
        f" 1; expected version 0 instead.{HINT}"
    )
    assert values(t5.grad) == [1.0]


# ---- an elementwise result's layout: the first operand's ------------------------------------


def test_a_product_of_a_transposed_and_a_row_major_tensor_is_laid_out_as_the_first():
    # Random program seed 9004914: the product is column-major, so flattening it copies (no
    # view: under no_grad the copy has no history), as in PyTorch.
    t0 = mg.tensor([[-1.0, -0.5], [0.0, -1.5]])
    t1 = mg.tensor([[-1.5, 0.0], [0.0, -2.0]], requires_grad=True)
    t6 = t0.permute(1, 0) * t1
    assert t6.stride() == (1, 2) and not t6.is_contiguous()
    assert (t1 * t0.permute(1, 0)).stride() == (2, 1)
    with mg.no_grad():
        t7 = t6.flatten()
    assert not t7.requires_grad and t7._base is None


def test_reshaping_such_a_product_copies_so_writing_the_copy_leaves_it_alone():
    a = mg.arange(6.0).reshape(3, 2)
    product = a.t() * mg.ones(2, 3)
    flat = product.reshape(-1)
    flat.add_(100)
    assert values(product) == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]


def test_an_inplace_op_reads_its_view_inputs_history_before_checking_their_overlap():
    # Random program seed 13000000+: PyTorch collects the inputs' gradient edges before its
    # kernel checks their overlap, so the written split output's error comes first.
    t0 = mg.ones((3, 1), requires_grad=True)
    t1 = t0.tanh()
    t3 = t1.split(1)[0]
    t1.fill_(0.5)
    with pytest.raises(RuntimeError) as excinfo:
        t1 *= t3
    assert str(excinfo.value).startswith(SPLIT_VIEW_WRITTEN)
    assert t1._version == 1 and values(t1) == [[0.5], [0.5], [0.5]]


# ---- fuzz5: gradient graphs as PyTorch's formulas build them; saved results; view's checks ----


def chain(node):
    """The names of ``node`` and of its first producers, down to the leaf's accumulator."""
    names = []
    while node is not None:
        names.append(type(node).__name__)
        node = next((edge[0] for edge in node.next_functions if edge[0] is not None), None)
    return names[:-1]  # (the accumulator's name is an implementation detail)


@pytest.mark.parametrize(
    ("reduce", "expected", "count"),
    [
        (lambda x: x.mean(), ["DivBackward1", "ExpandBackward0"], 6),
        (lambda x: x.mean(0), ["DivBackward1", "ExpandBackward0", "UnsqueezeBackward0"], 2),
        (lambda x: x.mean(1, keepdim=True), ["DivBackward1", "ExpandBackward0"], 3),
    ],
)
def test_means_gradient_is_expanded_then_divided_by_the_count(reduce, expected, count):
    # Random programs in seeds 13000000+: PyTorch's mean_backward is sum's gradient (expand)
    # divided by the count in C++ (DivBackward1, the count saved as ``other``); the result is a
    # plain row-major tensor, not an expanded view.
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = reduce(x)
    w = mg.ones_like(y, requires_grad=True)
    (g,) = mg.autograd.grad(y, x, w, create_graph=True)
    assert chain(g.grad_fn) == expected
    assert g.grad_fn._saved_other == count
    assert g.stride() == (3, 1)
    np.testing.assert_allclose(values(g), np.full((2, 3), 1 / count), rtol=1e-6)
    (gw,) = mg.autograd.grad(g.sum(), w)
    assert values(gw) == values(mg.ones_like(y))  # each output's count of elements / count


def test_an_empty_means_gradient_divides_by_its_count_of_zero():
    x = mg.ones((0, 3), requires_grad=True)
    (g,) = mg.autograd.grad(x.mean(0), x, mg.ones(3, requires_grad=True), create_graph=True)
    assert g.shape == (0, 3) and g.grad_fn._saved_other == 0


@pytest.mark.parametrize(
    ("shape", "squeeze", "expected"),
    [
        ((2, 3), lambda x: x.squeeze(), []),
        ((), lambda x: x.squeeze(), []),
        ((1, 3, 1), lambda x: x.squeeze(), ["UnsqueezeBackward0", "UnsqueezeBackward0"]),
        ((1, 3, 1), lambda x: x.squeeze(-1), ["UnsqueezeBackward0"]),
        ((1, 3, 1), lambda x: x.squeeze(1), []),
        ((1, 3, 1), lambda x: x.squeeze((2, 1)), ["UnsqueezeBackward0"]),
    ],
)
def test_squeezes_gradient_unsqueezes_each_squeezed_dim(shape, squeeze, expected):
    # Random program seed 21001181: PyTorch's unsqueeze_to, one unsqueeze per size-1 dim (none:
    # the incoming gradient itself, with no node of its own), where minigrad showed a view.
    x = mg.ones(shape, requires_grad=True)
    y = squeeze(x)
    w = mg.ones_like(y, requires_grad=True)
    (g,) = mg.autograd.grad(y, x, w, create_graph=True)
    assert chain(g.grad_fn) == expected and g.shape == shape
    if expected:
        assert g.grad_fn._saved_dim == 2  # the last size-1 dim is unsqueezed last


def test_a_squeezes_double_backward_starts_at_the_ops_own_gradient_node():
    # The random program itself: the gradient of sigmoid(x.squeeze()) ends with sigmoid's node.
    t1 = mg.ones((2, 3), requires_grad=True)
    (t4,) = mg.autograd.grad(t1.squeeze().sigmoid().sum(), t1, create_graph=True)
    assert type(t4.grad_fn).__name__ == "SigmoidBackwardBackward0"


def test_a_pow_result_laid_out_by_its_operands_is_saved_as_the_output():
    # Random program seed 21008210: pow saves its result; laid out as PyTorch's (a transposed
    # base broadcast against a view) it is a copy of numpy's result, and that copy -- the
    # output's buffer -- must be what is saved, so writing the output makes backward raise.
    t0 = mg.tensor([[-2.0, 3.0], [2.0, -1.5]], requires_grad=True)
    t3 = t0.permute(1, 0) ** t0.unsqueeze(0)
    t3.relu_()
    with pytest.raises(RuntimeError) as excinfo:
        t3.backward(mg.ones_like(t3))
    assert str(excinfo.value) == text(
        f"{STALE} operation: [minigrad.FloatTensor [1, 2, 2]], which is output 0 of Pow1, is at"
        f" version 1; expected version 0 instead.{HINT}"
    )


def test_view_checks_its_sizes_after_its_input_caught_up_with_its_base():
    # Random program seed 17001253: PyTorch's view reads its (no_grad) view input's history
    # before its kernel checks the sizes, so the no_grad view's error comes first.
    t0 = mg.tensor([[1.5, 3.0, -0.5], [2.0, 2.0, 1.0]])
    with mg.no_grad():
        t3 = t0.expand(2, *t0.shape)
    t0.transpose(0, 1).add_(mg.ones(3, 2, requires_grad=True))
    for sizes in ((-1,), (5,)):
        with pytest.raises(RuntimeError) as excinfo:
            t3.view(*sizes)
        assert str(excinfo.value) == NO_GRAD_VIEW
    with pytest.raises(RuntimeError, match="^view size is not compatible"):
        t3.detach().view(-1)


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_max_and_mins_gradient_is_halved_on_ties_then_masked(op):
    # Random program seed 25007395: PyTorch's formula per operand is
    # where(self == other, grad / 2, grad).masked_fill_(self loses, 0).
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    z = getattr(mg, op)(x, y)
    w = mg.ones_like(z, requires_grad=True)
    gx, gy = mg.autograd.grad(z, (x, y), w, create_graph=True)
    for g in (gx, gy):
        assert chain(g.grad_fn) == ["MaskedFillBackward0", "WhereBackward0", "DivBackward1"]
    low, high = [0.0, 0.5, 1.0], [1.0, 0.5, 0.0]
    assert (values(gx), values(gy)) == ((low, high) if op == "maximum" else (high, low))
    assert values(gx.grad_fn._saved_mask) == [op == "maximum", False, op == "minimum"]
    (gw,) = mg.autograd.grad((gx * 2 + gy).sum(), w)
    assert values(gw) == ([1.0, 1.5, 2.0] if op == "maximum" else [2.0, 1.5, 1.0])


@pytest.mark.parametrize("shape", [(3, 1), (3, 0)])
def test_a_sums_gradient_is_a_view_of_the_seed_even_when_empty(shape):
    # Random program seed 29006151: the gradient of x.sum() is an expanded view of the seed,
    # empty or not, so detach_() refuses it (numpy says an empty array shares no memory).
    t2 = mg.ones(shape, requires_grad=True) * 2
    (g,) = mg.autograd.grad(t2.sum(), t2)
    assert g._base is not None and g.stride() == (0, 0)
    with pytest.raises(RuntimeError, match="^Can't detach views in-place"):
        g.detach_()


def test_a_view_leaf_whose_base_got_history_is_moved_into_the_graph_interior():
    # Random program seed 33017090: accumulating into a leaf, PyTorch reads its grad_fn, and a
    # view leaf's is regenerated from its base, which copy_ gave history.
    t0 = mg.tensor([-2.0, -2.0, 3.0])
    t1 = t0.view(-1)
    t1.requires_grad_()
    t0.copy_(t1)
    with pytest.raises(RuntimeError) as excinfo:
        t0.sum().backward()
    assert str(excinfo.value) == "leaf variable has been moved into the graph interior"


def test_a_multi_output_view_leaf_whose_base_was_written_raises_at_accumulation():
    # Random program seed 33006825: the same read of the leaf's grad_fn raises the view's error.
    t0 = mg.tensor([[-0.5], [-1.5], [1.5]])
    t1 = t0.unbind()[0]
    t1.requires_grad_()
    t0[0] = t1.sum()
    with pytest.raises(RuntimeError) as excinfo:
        t0.sum().backward()
    assert str(excinfo.value) == (
        f"{NO_GRAD_VIEW_BASE_WRITTEN} This view is the output of a function that returns"
        " multiple views. Such functions do not allow the output views to be modified inplace."
        " You should replace the inplace operation by an out-of-place one."
    )


def test_a_seed_of_another_dtype_is_cast_with_history_in_the_callers_grad_mode():
    # Random program seed 454 (the widened generator): PyTorch casts a given gradient with
    # ``to`` before the graph runs, in the caller's grad mode, so when the result is the seed
    # itself it is that cast, with its ToCopyBackward0 node (not under no_grad).
    t1 = mg.tensor([[-1.5], [-0.5], [-0.5]], requires_grad=True)
    t2 = t1.double()
    (t5,) = mg.autograd.grad(t2, t2, t1)
    assert type(t5.grad_fn).__name__ == "ToCopyBackward0" and t5.dtype == mg.float64
    (t5,) = mg.autograd.grad(t2.sum(0), t2, t1[0].detach())
    assert t5.grad_fn is None and t5._base is not None
    with mg.no_grad():
        (t5,) = mg.autograd.grad(t2, t2, t1)
    assert t5.grad_fn is None and values(t5) == [[-1.5], [-0.5], [-0.5]]


def test_a_bool_tensors_alpha_is_a_bool():
    # Seed 97 of a generator drawing bool leaves (not drawn yet): PyTorch's add kernel
    # converts alpha to the result's type, so a bool tensor's add with alpha=2 stays bool;
    # numpy's 2 * b made an int64 array, and writing it back failed with numpy's own error.
    t0 = mg.tensor([[-2.0, 1.0, 0.0]]) > 0
    assert values(t0.add(t0, alpha=2)) == [[False, True, False]]
    t0.add_(t0, alpha=2)
    assert values(t0) == [[False, True, False]] and t0.dtype == mg.bool


@pytest.mark.parametrize(
    ("method", "error", "message"),
    [
        ("neg_", RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported."),
        ("abs_", NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
        ("relu_", RuntimeError, "Boolean inputs not supported for relu"),
    ],
)
def test_an_inplace_op_refuses_a_bool_tensor_as_its_out_of_place_twin(method, error, message):
    # Seeds 210 and 739 of a generator drawing bool leaves (not drawn yet): the checks of -x,
    # abs(x) and relu(x) held only out of place (numpy's TypeError, or a bool result, in place).
    b = mg.tensor([[-1.0], [1.0]]) > 0
    with pytest.raises(error) as excinfo:
        getattr(b, method)()
    assert str(excinfo.value).startswith(message)
    assert values(b) == [[False], [True]] and b._version == 0


@pytest.mark.parametrize(
    ("op", "alpha", "expected"),
    [
        ("add", 2, ["MulBackward1"]),
        ("add", 0.5, ["MulBackward1"]),
        ("sub", 3, ["MulBackward1", "NegBackward0"]),
        ("sub", 1, ["NegBackward0"]),
    ],
)
def test_the_gradient_of_alphas_operand_is_multiplied_by_a_number(op, alpha, expected):
    # Random program seed 37010226: PyTorch's maybe_multiply(grad, alpha) (of -grad for sub) is
    # C++'s tensor * number, MulBackward1 (alpha saved as ``other``), not Python's MulBackward0.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.ones(2, requires_grad=True)
    seed = mg.ones(2, requires_grad=True)
    (g,) = mg.autograd.grad(getattr(mg, op)(w, x, alpha=alpha), x, seed, create_graph=True)
    assert chain(g.grad_fn) == expected
    assert values(g) == [alpha if op == "add" else -alpha] * 2
    if alpha != 1:
        assert g.grad_fn._saved_other == alpha


@pytest.mark.parametrize("expanded", ["expand", "gradient", "recorded"])
def test_a_repeated_index_write_into_an_expanded_tensor_writes_through(expanded):
    # Random program seeds 37001139, 37002866, 45006661: index_put_ on an expanded tensor
    # (PyTorch warns) writes the indexed elements' memory only; the whole copy written back
    # restored the aliases' old values.
    t0 = mg.tensor([[3.0, -0.5], [-1.0, 2.0]], requires_grad=expanded != "expand")
    if expanded == "gradient":
        (t1,) = mg.autograd.grad(t0.sum(), t0)  # an expanded view of the seed
    else:
        t1 = (t0 if expanded == "expand" else t0 * 1).expand(2, *t0.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Use of index_put_ on expanded tensors is deprecated"
        t1[[0, 0]] = -1.0
    assert values(t1) == values(mg.full(t1.shape, -1.0)) and t1._version == 1
    if expanded != "gradient":
        assert values(t1._base) == [[-1.0, -1.0], [-1.0, -1.0]]


def test_a_lone_roots_tensor_hooks_run_even_if_no_input_is_reached_through_it():
    # Random program seeds 37009806, 37019061: PyTorch's engine starts at a lone root's node
    # (no GraphRoot in front of it), runs its tensor hooks and retain_grad, then skips it; with
    # several roots a root that leads to no input is skipped with no hook at all.
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3.0, 4.0], requires_grad=True)
    r = w * 3
    seen = []
    r.register_hook(lambda g: seen.append(values(g)))
    r.retain_grad()
    assert mg.autograd.grad(r, x, mg.tensor([5.0, 6.0]), allow_unused=True) == (None,)
    assert seen == [[5.0, 6.0]] and values(r.grad) == [5.0, 6.0]
    mg.autograd.grad([r, w * 4], x, [mg.ones(2), mg.ones(2)], allow_unused=True)
    assert seen == [[5.0, 6.0]]
    r.backward(mg.ones(2), inputs=[x])
    assert values(r.grad) == [6.0, 7.0] and x.grad is None


def test_a_leafs_accumulator_made_in_anomaly_mode_keeps_its_forward_stack():
    # Random program seeds 41003896, 41012722: PyTorch's Node constructor keeps the stack in
    # anomaly mode for every node, a leaf's AccumulateGrad too, so its backward error shows it.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mg.autograd.detect_anomaly():  # (which warns that it is on)
            t0 = mg.tensor(-2.0, requires_grad=True)
            t1 = t0 + t0
            t0.detach_()
            t0.mul_(t1)
            with pytest.raises(RuntimeError, match="^leaf variable has been moved"):
                t1.sum().backward()
    assert str(caught[-1].message).split("\n", 1)[0] == (
        "Error detected in torch::autograd::AccumulateGrad. Traceback of forward call that "
        "caused the error:"
    )


def test_grad_of_an_empty_output_by_itself_is_the_seed_given():
    # Random program seed 13020280 (widened generator): the result is the seed tensor itself,
    # as for a non-empty one (numpy says an empty array shares no memory, even with itself).
    t0 = mg.tensor([[1.0], [2.0], [0.0]], requires_grad=True)
    t1 = t0[:, 1:]
    (t2,) = mg.autograd.grad(t1, t1, t1)
    assert t2 is t1 and type(t2.grad_fn).__name__ == "SliceBackward0"


def test_a_retained_gradient_under_create_graph_is_a_copy_of_the_seed():
    # Random program seed 49019693: PyTorch's retain_grad hook clones the gradient (recorded,
    # CloneBackward0, under create_graph); minigrad kept the seed tensor itself, so writing the
    # seed afterwards changed the retained .grad.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    g = mg.tensor([5.0, 6.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # backward's create_graph note about leaves' .grad
        y.backward(g, create_graph=True)
    assert y.grad is not g and type(y.grad.grad_fn).__name__ == "CloneBackward0"
    with mg.no_grad():
        g[0] = 100.0
    assert values(y.grad) == [5.0, 6.0]


def test_an_empty_views_gradient_into_its_written_base_is_plain_zeros_under_create_graph():
    # Random program seed 100014671: the view's node is AsStridedBackward0 (its base was written
    # in place); PyTorch's as_strided_backward returns zeros of the base's shape, with no
    # history, before anything else when the view is empty. minigrad recorded a scatter node.
    t0 = mg.tensor([[-1.0], [0.5], [-2.0]])
    t1 = mg.tensor(3.0, requires_grad=True)
    t5 = t0[:, 1:]
    t0.sub_(t1)
    (t7,) = mg.autograd.grad(t5.relu().sum(), t0, create_graph=True)
    assert t7.grad_fn is None and not t7.requires_grad
    assert values(t7) == [[0.0], [0.0], [0.0]]


def test_a_post_accumulate_hook_that_returns_a_tensor_raises_after_all_hooks_ran():
    # Random program seed 50 (widened generator): ``lambda p: p.grad.mul_(0.5)`` returns the
    # gradient. PyTorch runs every hook, the ones after it on the returned tensor, then raises;
    # minigrad ignored a returned tensor.
    t = mg.tensor([1.0, 2.0], requires_grad=True)
    given = []
    t.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5))
    t.register_post_accumulate_grad_hook(lambda p: given.append(p))
    with pytest.raises(RuntimeError) as excinfo:
        (t * 3).sum().backward()
    assert str(excinfo.value) == "Tensor post accumulate grad hooks should return None."
    assert values(t.grad) == [1.5, 1.5] and given[0] is t.grad
    u = mg.tensor([1.0, 2.0], requires_grad=True)
    u.register_post_accumulate_grad_hook(lambda p: p)  # (itself: as if it returned None)
    (u * 3).sum().backward()
    assert values(u.grad) == [3.0, 3.0]


@pytest.mark.parametrize("stop", ["detach_", "requires_grad_"])
def test_post_accumulate_hooks_run_for_a_leaf_that_stopped_requiring_grad(stop):
    # Random program seed 120027273: the leaf was detached after the graph was recorded.
    # PyTorch still calls its post-accumulate hooks (with .grad left as it is); minigrad
    # skipped them.
    t = mg.tensor([4.0], requires_grad=True)
    y = t * 2
    seen = []
    t.register_post_accumulate_grad_hook(lambda p: seen.append((p.grad, p.requires_grad)))
    t.detach_() if stop == "detach_" else t.requires_grad_(False)
    y.sum().backward()
    assert seen == [(None, False)] and t.grad is None


def test_a_post_accumulate_hook_on_a_view_reads_its_grad_fn():
    # Random program seed 120007146: registering reads the view's grad_fn, as register_hook
    # does, so a no-grad view of a base written since raises; minigrad registered the hook.
    t = mg.tensor([3.0], requires_grad=True)
    with mg.no_grad():
        view = t.unsqueeze(0)
        t.div_(t)
    with pytest.raises(RuntimeError) as excinfo:
        view.register_post_accumulate_grad_hook(lambda p: None)
    assert str(excinfo.value).startswith(NO_GRAD_VIEW_BASE_WRITTEN)


def test_a_post_accumulate_hooks_returned_tensor_is_checked_like_a_tensor_hooks():
    t = mg.tensor([1.0, 2.0], requires_grad=True)
    t.register_post_accumulate_grad_hook(lambda p: p.grad.view(2, 1))
    with pytest.raises(RuntimeError, match="^hook '<lambda>' has changed the size of value$"):
        (t * 3).sum().backward()


def test_a_vector_times_a_matrix_is_squeezed_in_place():
    # Random program seeds 66, 162 (widened generator): PyTorch's matmul of a 1-D and a 2-D
    # tensor squeezes its one-row product in place (version 1, with or without grad), and
    # F.linear then adds a bias in place (version 2). minigrad's results were at version 0.
    v = mg.tensor([1.0, 2.0], requires_grad=True)
    m = mg.ones(3, 2)
    assert mg.matmul(v, m.t())._version == 1 and (v.detach() @ m.t())._version == 1
    assert mg.nn.functional.linear(v, m)._version == 1
    assert mg.nn.functional.linear(v, m, mg.tensor(1.0))._version == 2
    assert mg.matmul(mg.ones(3, 2, 2), v)._version == 0  # (a batch: an unsafe view after it)


def test_cross_entropys_size_errors_of_0d_tensors_are_pytorchs():
    # Random program seeds 489, 1045 (widened generator). Class probabilities of a 0-d input:
    # PyTorch's input.size(1) raises first. A 0-d target of a batch: PyTorch prints its
    # "batch size" as 0 (minigrad said 1).
    F = mg.nn.functional
    with pytest.raises(IndexError) as excinfo:
        F.cross_entropy(mg.tensor(3.0, requires_grad=True), mg.tensor(3.0))
    assert str(excinfo.value) == "Dimension specified as 1 but tensor has no dimensions"
    for logits in (mg.ones(2, 3), mg.ones(1, 3, 1)):
        with pytest.raises(ValueError) as excinfo:
            F.cross_entropy(logits, mg.tensor(0))
        assert str(excinfo.value) == (
            f"Expected input batch_size ({logits.shape[0]}) to match target batch_size (0)."
        )


def test_linear_flattens_a_batch_for_a_bias_that_is_a_vector_once_squeezed():
    # Found probing the biases the widened generator draws for F.linear: PyTorch's linear takes one
    # addmm on the flattened input when the bias is a contiguous vector, size-1 dims aside
    # (is_bias_likely_fusable); a (2, 1) bias then does not fit 4 rows. Other biases are added
    # in place after matmul (version 1).
    F = mg.nn.functional
    x, w = mg.ones(2, 2, 3), mg.ones(1, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^The expanded size of the tensor \(4\) must match"):
        F.linear(x, w, mg.ones(2, 1))
    flat = F.linear(x, w, mg.ones(4, 1))
    assert type(flat.grad_fn).__name__ == "ViewBackward0" and flat._version == 0
    added = F.linear(x, w, mg.ones(1, 1))
    assert type(added.grad_fn).__name__ == "AddBackward0" and added._version == 1
    assert values(added) == [[[4.0], [4.0]], [[4.0], [4.0]]]


def test_an_operands_view_error_comes_before_the_written_tensors_overlap_error():
    # Random program seed 120008885: PyTorch collects the operands' gradient edges (reading the
    # no_grad view's node raises) before its kernel finds the expanded tensor it writes.
    t0 = mg.tensor([[2.0, -1.0, 1.5], [0.0, 0.0, 1.0]], requires_grad=True)
    with mg.no_grad():
        t4 = t0.flatten()[:3]
        t4.clamp_(min=0)
    t5 = mg.zeros(3).expand(2, 3)
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and its base"):
        t5.div_(t4)
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        t5.div_(t0.detach()[0])


def test_nll_loss_gradient_is_zero_off_the_counted_targets_even_for_a_nan_gradient():
    # Random program seed 90005971 (widened generator): every target ignored, so 'mean' is
    # 0 / 0 = nan and sqrt_ passes nan on; PyTorch's backward writes the counted targets'
    # entries only (none), minigrad multiplied nan by its zero pattern.
    t0 = mg.ones((3, 1), requires_grad=True)
    loss = mg.nn.functional.cross_entropy(t0, mg.tensor([0, 0, 0]), ignore_index=0)
    loss.sqrt_()
    loss.backward()
    assert values(t0.grad) == [[0.0], [0.0], [0.0]]
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    loss = mg.nn.functional.nll_loss(x, mg.tensor([1, 0]), ignore_index=0)
    (g,) = mg.autograd.grad(loss, x, mg.tensor(float("nan")))
    assert np.isnan(values(g)[0][1]) and [values(g)[0][0], *values(g)[1]] == [0.0, 0.0, 0.0]


# ---- the last stops' divergences (fidelity7) ---------------------------------------------------

EXPANDED_WRITE = "^unsupported operation: more than one element of the written-to tensor"


@parametrize_in_one("write", [
    lambda t, f: t.add_(f), lambda t, f: t.sub_(f, alpha=2), lambda t, f: t.mul_(f),
    lambda t, f: t.div_(f), lambda t, f: t.add_(1.5), lambda t, f: t.__iadd__(f),
    lambda t, f: t.pow_(f), lambda t, f: t.atan2_(f), lambda t, f: t.addcmul_(f, f),
    lambda t, f: t.exp_(), lambda t, f: t.sigmoid_(), lambda t, f: t.sqrt_(),
    lambda t, f: mg.maximum(mg.tensor([1, 2]), f, out=t),
])
def test_an_expanded_integer_tensor_is_an_overlap_error_before_the_cast_error(write):
    # PyTorch's kernel finds the expanded tensor it writes before it types the result.
    t = mg.tensor([1, 2]).expand(2, 2)
    with pytest.raises(RuntimeError, match=EXPANDED_WRITE):
        write(t, mg.tensor([[0.5, 1.5], [1.0, 2.0]]))
    assert values(t) == [[1, 2], [1, 2]] and t._version == 0


def test_the_cast_error_still_comes_first_where_pytorch_checks_it_first():
    t = mg.tensor([1, 2]).expand(2, 2)
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type long int$"):
        t.clamp_(min=0.5)  # (clamp's number bounds are checked before the kernel)
    s = mg.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="^result type Float can't be cast"):
        s[1:].add_(s[:2] * 0.5)  # (a new tensor: no overlap, so the dtype is what is wrong)


def test_an_operands_view_error_comes_before_an_integer_tensors_cast_error():
    t0 = mg.tensor([[2.0, -1.0, 1.5], [0.0, 0.0, 1.0]], requires_grad=True)
    with mg.no_grad():
        t4 = t0.flatten()[:3]
        t4.clamp_(min=0)
    target = mg.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and its base"):
        target.add_(t4)
    assert values(target) == [1, 2, 3]


INF = float("inf")


def test_inf_times_zero_in_a_matrix_product_is_nan_for_one_element_operands():
    # numpy's dot scales by a one-element operand (BLAS axpy), so 0 * inf became 0.
    assert str(values(mg.tensor([0.0]) @ mg.tensor([[INF, 1.0]]))) == "[nan, 0.0]"
    assert str(values(mg.mm(mg.tensor([[INF], [1.0]]), mg.tensor([[0.0]])))) == "[[nan], [0.0]]"
    a = mg.tensor([[INF, 1.0]], requires_grad=True)
    b = mg.tensor([[0.0], [1.0]], requires_grad=True)
    (a @ b).backward(mg.zeros(1, 1))
    assert str(values(a.grad)) == "[[0.0, 0.0]]" and str(values(b.grad)) == "[[nan], [0.0]]"


def test_addmm_with_alpha_zero_does_not_read_the_matrices():
    mats = mg.tensor([[INF, 1.0], [2.0, float("nan")]]), mg.ones(2, 2)
    assert values(mg.addmm(mg.ones(2, 2), *mats, alpha=0)) == [[1.0, 1.0], [1.0, 1.0]]
    assert values(mg.addmm(mg.ones(2), *mats, alpha=0.0, beta=2)) == [[2.0, 2.0], [2.0, 2.0]]
    batches = mats[0].unsqueeze(0), mats[1].unsqueeze(0)
    assert str(values(mg.baddbmm(mg.ones(1, 2, 2), *batches, alpha=0))) == \
        "[[[nan, nan], [nan, nan]]]"  # (baddbmm reads them: 0 * inf is nan)


# ---- casts of nan, inf and out-of-range values: C's conversion, silently ----------------------
# Random program seeds 140025418, 140065213: a nan gradient given for an integer output was cast
# with numpy's "invalid value encountered in cast" RuntimeWarning, which PyTorch does not make
# (nor for any cast). The values are PyTorch's (this project's pytest turns warnings into errors).

NOT_FINITE = [float("nan"), float("inf"), float("-inf"), 1e30, -1e30, 3e9, 70000.5, -300.7, -2.9]


@parametrize_in_one(("dtype", "expected"), [
    ("int64", [-2**63] * 5 + [3000000000, 70000, -300, -2]),
    ("int32", [-2**31] * 6 + [70000, -300, -2]),
    ("int16", [0] * 6 + [4464, -300, -2]),
    ("uint8", [0] * 6 + [112, 212, 254]),
    ("float16", [float("nan"), float("inf"), float("-inf"), float("inf"), float("-inf"),
                 float("inf"), float("inf"), -300.75, -2.900390625]),
])
@parametrize_in_one("source", ["float32", "float64"])
def test_casts_of_values_a_dtype_cannot_hold_make_no_warning(source, dtype, expected):
    x = mg.tensor(NOT_FINITE, dtype=getattr(mg, source))
    got = x.to(getattr(mg, dtype)).tolist()
    assert str(got) == str(expected)  # (str: nan == nan)
    assert str(x.to(getattr(mg, dtype), copy=True).tolist()) == str(expected)


def test_a_nan_gradient_for_an_integer_output_is_cast_silently():
    t1 = mg.tensor(0)
    with pytest.raises(RuntimeError) as excinfo:  # (the cast comes first: no warning before)
        mg.autograd.grad(t1, t1, mg.tensor(float("nan")), allow_unused=True)
    assert str(excinfo.value) == NO_GRAPH


def test_an_in_place_result_cast_into_float16_overflows_silently():
    t = mg.zeros(3, dtype=mg.float16)
    t.add_(mg.tensor([1e30, 1.0, 2.0]))
    assert values(t) == [float("inf"), 1.0, 2.0]
    u = mg.zeros(2, dtype=mg.int64)
    u.copy_(mg.tensor([float("nan"), 2.5]))
    assert values(u) == [-2**63, 2]


# ---- nll_loss's backward writes only the targets' entries ----------------------------------


def test_nll_loss_backward_leaves_the_other_entries_zero_under_an_infinite_gradient():
    # Random program seed 120000210: the incoming gradient is inf; PyTorch's kernel writes
    # -inf at each target and leaves 0 elsewhere, so log_softmax's backward gives inf and nan
    # where minigrad's inf * 0 had made every entry nan.
    t0 = mg.zeros((2, 3), requires_grad=True)
    t1 = mg.tensor([[1.5, 0.0, -2.0]], requires_grad=True)
    loss = mg.nn.functional.cross_entropy(t0, mg.tensor([1, 1]), reduction="sum", ignore_index=0)
    (loss / t1).sum().backward()
    assert str(values(t0.grad)) == str([[float("inf"), float("nan"), float("inf")]] * 2)


def test_anomaly_mode_names_log_softmax_as_the_first_nan():
    # Random program seed 130009935: nll_loss's gradient has no nan (log_softmax's does).
    t1 = mg.zeros((2, 2), requires_grad=True)
    t3 = mg.nn.functional.cross_entropy(t1, mg.tensor([0, 0]))
    with mg.autograd.set_detect_anomaly(True), pytest.raises(RuntimeError) as excinfo, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (anomaly mode's traceback warning)
        (t3 / t1).sum().backward()
    assert str(excinfo.value) == (
        "Function 'LogSoftmaxBackward0' returned nan values in its 0th output.")


@pytest.mark.parametrize("smoothing", [0.0, 0.25])
def test_an_unbatched_nll_loss_without_reduction_is_a_sum_from_zero(smoothing):
    # Random program seed 140022758: PyTorch's kernel sums an unbatched input's one loss from
    # 0, so -0.0 is 0.0 (a later division gave inf, minigrad's -inf); a batch's stays -0.0.
    x, target = mg.tensor([0.5]), mg.tensor(0)
    loss = mg.nn.functional.cross_entropy(x, target, reduction="none", label_smoothing=smoothing)
    assert math.copysign(1.0, loss.item()) == 1.0
    nll = mg.nn.functional.nll_loss(mg.nn.functional.log_softmax(x, 0), target, reduction="none")
    assert math.copysign(1.0, nll.item()) == 1.0
    batched = mg.nn.functional.cross_entropy(mg.tensor([[0.5]]), mg.tensor([0]), reduction="none")
    assert math.copysign(1.0, batched.tolist()[0]) == -1.0


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.25])
def test_cross_entropy_of_probabilities_over_no_classes(reduction, smoothing):
    # Random program seed 160003029: label_smoothing / (no classes) is inf in PyTorch's C++;
    # minigrad raised Python's ZeroDivisionError. The losses: nan (mean), -0.0 (sum, none).
    t0 = mg.tensor([[0.0], [1.5], [-1.5]], dtype=mg.float64, requires_grad=True)
    t1 = t0[:, 1:]
    loss = mg.nn.functional.cross_entropy(t1, t1, label_smoothing=smoothing, reduction=reduction)
    expected = {"mean": "nan", "sum": "-0.0", "none": "[-0.0, -0.0, -0.0]"}[reduction]
    assert str(loss.tolist()) == expected and loss.grad_fn.name() == "NegBackward0"


# ---- var and std: the overload PyTorch's parser picks shows in the node ----------------------


@pytest.mark.parametrize(("call", "correction"), [
    (lambda x: x.var(), None),
    (lambda x: x.var(None), 1),
    (lambda x: x.var(dim=None, keepdim=True), 1),
    (lambda x: x.var(0, correction=None), None),
    (lambda x: mg.std_mean(x, dim=None)[0], 1),
    (lambda x: mg.var_mean(x, 0, correction=None)[0], None),
    (lambda x: x.std(None, False), 0),
])
def test_var_and_std_show_the_correction_of_the_overload_they_bind(call, correction):
    x = mg.tensor([[1.0, 2.0, 4.0], [0.5, 0.25, 3.0]], requires_grad=True)
    assert call(x).grad_fn._saved_correction == correction


def test_std_reads_a_views_history_before_it_warns_of_no_degrees_of_freedom():
    # Seed 194012703: PyTorch's kernel warns; its autograd layer raised the view's error first.
    x = mg.tensor([-2.0, 2.0, -2.0], requires_grad=True)
    product = x * x
    detached = product.detach()
    detached += x
    first = detached.split(1)[0]
    product.relu_()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="^Output 0 of Split is a view"):
            first.std(0)
    assert caught == []


@pytest.mark.parametrize("call", [
    lambda x: x.std(0), lambda x: x.var(), lambda x: mg.var(x), lambda x: mg.std_mean(x, 0),
])
def test_the_degrees_of_freedom_warning_points_at_the_callers_line(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(mg.tensor([1.0]))
    assert "degrees of freedom is <= 0" in str(caught[0].message)
    assert caught[0].filename == __file__


@pytest.mark.parametrize("call", [
    lambda x: x.var(unbiased=True, keepdim=True),
    lambda x: x.var(True, unbiased=False),
    lambda x: x.std(unbiased=None),
    lambda x: mg.var(x, 0, None),
])
def test_var_and_std_arguments_no_overload_takes_are_the_parsers_error(call):
    x = mg.tensor([[1.0, 2.0, 4.0], [0.5, 0.25, 3.0]], requires_grad=True)
    with pytest.raises(TypeError, match=r"^(var|std)\(\) received an invalid combination of "
                                        r"arguments - got \(.*but expected one of:\n \* \("):
        call(x)


# ---- grad: a result that views a given gradient ----------------------------------------------


def test_grad_result_viewing_a_given_gradient_that_is_a_view_has_its_values():
    # Seed 192022754: the gradient given for a reshape of a diagonal is the diagonal itself;
    # the result views it, so it views the diagonal's base with the diagonal's strides (read
    # against the view's own buffer, its second element was memory after the tensor).
    x = mg.tensor([[-1.5, 0.5], [2.0, -1.5]], requires_grad=True)
    diagonal = x.diagonal()
    (result,) = mg.autograd.grad(diagonal.reshape(-1), diagonal, diagonal)
    assert values(result) == [-1.5, -1.5]
    assert result._base is x
    assert result.stride() == (3,)
    (result,) = mg.autograd.grad(diagonal.unsqueeze(0), diagonal, x.detach().t()[1:])
    assert values(result) == [0.5, -1.5]
    assert result.stride() == (2,)


# ---- a 0-d leaf's first gradient -------------------------------------------------------------


@pytest.mark.parametrize(("expression", "versions"), [
    ("x * y", (0, 0)), ("x - y", (1, 0)), ("(x * 2) + y", (0, 1)), ("(x + y) * 2", (1, 0)),
    ("x.exp() * y", (0, 0)), ("x + y", (1, 1)),
])
def test_a_0d_leafs_first_gradient_is_taken_or_copied_as_pytorch_does(expression, versions):
    # Seed 192062522: a fresh 0-d gradient becomes .grad (version 0), one that another leaf
    # also gets is copied into .grad (version 1); numpy's 0-d results are scalars, which
    # minigrad always copied.
    x, y = mg.ones((), requires_grad=True), mg.ones((), requires_grad=True)
    eval(expression).backward()
    assert (x.grad._version, y.grad._version) == versions


# ---- reductions: empty dims, trivial cumsum, no degrees of freedom ---------------------------


@pytest.mark.parametrize(("call", "text"), [
    (lambda x: x.amax(-1), "amax(): Expected reduction dim -1 to have non-zero size."),
    (lambda x: x.amin((0, -1)), "amin(): Expected reduction dim -1 to have non-zero size."),
    (lambda x: x.max(-1), "max(): Expected reduction dim 1 to have non-zero size."),
])
def test_an_empty_reduction_dim_is_named_as_pytorch_names_it(call, text):
    # Seed 195031293: amax and amin name the dim as given; max(dim) names it wrapped.
    with pytest.raises(IndexError) as excinfo:
        call(mg.zeros(3, 0))
    assert str(excinfo.value) == text


def test_cumsums_gradient_over_a_dim_of_one_is_the_given_gradient_itself():
    # Seed 195006573: PyTorch's cumsum_backward returns such a gradient as it is.
    x = mg.ones((3, 1), requires_grad=True)
    y = x.cumsum(-1)
    (result,) = mg.autograd.grad(y, x, y)
    assert result is y
    assert result.grad_fn.name() == "CumsumBackward0"


@pytest.mark.parametrize(("dtype", "node"), [("float32", "MulBackward0"),
                                             ("float64", "ToCopyBackward0")])
def test_std_of_one_element_records_pytorchs_double_backward_nodes(dtype, node):
    # Seed 195014607: PyTorch's var_backward multiplies the 0-d gradient by a float32 `where`.
    x = mg.tensor([2.0], dtype=getattr(mg, dtype), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (gradient,) = mg.autograd.grad(x.std(), x, create_graph=True)
    assert gradient.grad_fn.name() == node
    assert gradient.dtype == x.dtype
    assert math.isnan(values(gradient)[0])


@pytest.mark.parametrize(("shape", "dim"), [((3, 0), 0), ((0, 3), 1), ((3, 0), 1)])
def test_var_of_an_empty_tensor_warns_of_no_degrees_of_freedom(shape, dim):
    # Seed 195016825: PyTorch's reduction factor is the input's numel over the output's.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mg.zeros(shape).var(dim)
    assert len(caught) == 1
    assert "var(): degrees of freedom is <= 0" in str(caught[0].message)
