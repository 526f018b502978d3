"""backward(): seeds, shapes, accumulation, graph structure, retain_grad, hooks, deep graphs.

Every expected value and text here is what PyTorch 2.13 printed for the same program.
"""
import re
import subprocess
import sys

import numpy as np
import pytest
from _backend import LIB, mg, text
from _cases import parametrize_in_one

NO_GRAPH = "element 0 of tensors does not require grad and does not have a grad_fn"
# PyTorch's node names keep its C++ namespace; minigrad keeps them verbatim (see test_inplace.py).
ACCUMULATE_GRAD = "torch::autograd::AccumulateGrad"


def close(t, expected):
    np.testing.assert_allclose(t.detach().numpy(), expected, rtol=1e-6)


# ---- the seed gradient -----------------------------------------------------------------------


def test_implicit_gradient_only_for_scalar_outputs():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as excinfo:
        (x * 2).backward()
    assert str(excinfo.value) == "grad can be implicitly created only for scalar outputs"
    assert x.grad is None


def test_implicit_gradient_for_a_one_element_tensor_that_is_not_0d():
    # The rule is "one element", not "0-d": a tensor of shape [1] is accepted.
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x.sum() * 2).reshape(1).backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize(
    ("grad_shape", "grad_shape_text"),
    [((2,), "[2]"), ((1, 3), "[1, 3]"), ((3, 1), "[3, 1]"), ((), "[]")],
)
def test_explicit_gradient_must_have_the_output_shape(grad_shape, grad_shape_text):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError) as excinfo:
        y.backward(mg.ones(grad_shape))
    # No broadcasting of the seed gradient, not even from [1, 3] or a 0-d tensor.
    assert str(excinfo.value) == text(
        f"Mismatch in shape: grad_output[0] has a shape of minigrad.Size({grad_shape_text}) and "
        "output[0] has a shape of minigrad.Size([3])."
    )
    assert x.grad is None


def test_explicit_gradient_for_a_scalar_output_must_be_0d():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = (x * 2).sum()
    with pytest.raises(RuntimeError) as excinfo:
        s.backward(mg.ones(1))
    assert str(excinfo.value) == text(
        "Mismatch in shape: grad_output[0] has a shape of minigrad.Size([1]) and output[0] has a "
        "shape of minigrad.Size([])."
    )
    s.backward(mg.tensor(3.0))
    assert x.grad.tolist() == [6.0, 6.0, 6.0]


def test_explicit_gradient_weights_the_outputs():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward(mg.tensor([1.0, 10.0, 100.0]))
    assert x.grad.tolist() == [2.0, 20.0, 200.0]


def test_explicit_gradient_is_cast_to_the_output_dtype():
    # PyTorch's engine casts a root's gradient (validate_outputs): a bool or int64 seed acts
    # as float32 all the way down, also with create_graph.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (grad,) = mg.autograd.grad(x * 3, x, mg.tensor([True, False]))
    assert grad.dtype == mg.float32 and grad.tolist() == [3.0, 0.0]
    (grad,) = mg.autograd.grad(x * x, x, mg.tensor([1, 2]), create_graph=True)
    assert grad.dtype == mg.float32 and grad.tolist() == [2.0, 8.0]
    (x * 3).backward(mg.tensor([1, 2]))
    assert x.grad.dtype == mg.float32 and x.grad.tolist() == [3.0, 6.0]


def test_backward_of_a_tensor_without_graph_raises():
    t = mg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError) as excinfo:
        t.sum().backward()
    assert str(excinfo.value) == NO_GRAPH


def test_backward_of_a_leaf_that_requires_grad_seeds_its_own_grad():
    x = mg.tensor(3.0, requires_grad=True)
    x.backward()
    assert x.grad.item() == 1.0


# ---- accumulation and graph shapes ---------------------------------------------------------


def test_gradients_accumulate_across_backward_calls():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 3).sum().backward()
    (x * x).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]


def test_leaf_grad_is_a_plain_tensor():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert (x.grad.requires_grad, x.grad.grad_fn, x.grad.is_leaf) == (False, None, True)
    assert x.grad.dtype == mg.float32


def test_same_tensor_used_twice_in_one_op():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_diamond_sums_both_paths():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    ((x * 2) * (x * 3)).sum().backward()
    assert x.grad.tolist() == [12.0, 24.0, 36.0]


def test_shared_subexpression_gets_the_sum_of_its_uses():
    x = mg.tensor([0.0, 1.0, 2.0], requires_grad=True)
    h = x.exp()
    (h * h + h).sum().backward()
    close(x.grad, [3.0, 17.496393, 116.58536])


def test_broadcast_gradient_is_reduced_to_the_input_shape():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    (x * y).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]
    assert y.grad.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]


def test_broadcast_over_size_one_dimensions_keeps_them():
    a = mg.tensor([[1.0], [2.0]], requires_grad=True)
    b = mg.tensor([[10.0, 20.0, 30.0]], requires_grad=True)
    (a + b * a).sum().backward()
    assert a.grad.tolist() == [[63.0], [63.0]]
    assert b.grad.tolist() == [[3.0, 3.0, 3.0]]


def test_broadcast_from_a_0d_tensor():
    s = mg.tensor(2.0, requires_grad=True)
    (s * mg.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert s.grad.shape == ()
    assert s.grad.item() == 6.0


# ---- graph structure -------------------------------------------------------------------------


GRAD_FN_NAMES = [
    ("x + y", lambda x, y: x + y, "AddBackward0"),
    ("x + 2", lambda x, y: x + 2, "AddBackward0"),
    ("x - y", lambda x, y: x - y, "SubBackward0"),
    ("2 - x", lambda x, y: 2 - x, "RsubBackward1"),
    ("x * y", lambda x, y: x * y, "MulBackward0"),
    ("2 * x", lambda x, y: 2 * x, "MulBackward0"),
    ("x / y", lambda x, y: x / y, "DivBackward0"),
    ("2 / x", lambda x, y: 2 / x, "MulBackward0"),  # 2 / x is recorded as 2 * reciprocal(x)
    ("x ** 2", lambda x, y: x**2, "PowBackward0"),
    ("x ** y", lambda x, y: x**y, "PowBackward1"),
    ("2 ** x", lambda x, y: 2**x, "PowBackward2"),
    ("-x", lambda x, y: -x, "NegBackward0"),
    ("abs", lambda x, y: x.abs(), "AbsBackward0"),
    ("exp", lambda x, y: x.exp(), "ExpBackward0"),
    ("log", lambda x, y: x.log(), "LogBackward0"),
    ("sqrt", lambda x, y: x.sqrt(), "SqrtBackward0"),
    ("sigmoid", lambda x, y: x.sigmoid(), "SigmoidBackward0"),
    ("tanh", lambda x, y: x.tanh(), "TanhBackward0"),
    ("relu", lambda x, y: x.relu(), "ReluBackward0"),
    ("sum", lambda x, y: x.sum(), "SumBackward0"),
    ("sum(0)", lambda x, y: x.sum(0), "SumBackward1"),
    ("mean", lambda x, y: x.mean(), "MeanBackward0"),
    ("mean(0)", lambda x, y: x.mean(0), "MeanBackward1"),
    # An explicit dim=None picks the overload with a dim, which reduces every dim.
    ("sum(None)", lambda x, y: x.sum(None), "SumBackward1"),
    ("sum(dim=None)", lambda x, y: mg.sum(x, dim=None), "SumBackward1"),
    ("sum(dtype)", lambda x, y: x.sum(dtype=mg.float64), "SumBackward0"),
    ("mean(None)", lambda x, y: x.mean(None), "MeanBackward1"),
    ("mean(dim=None)", lambda x, y: mg.mean(x, dim=None), "MeanBackward1"),
    ("x @ y", lambda x, y: x @ y, "DotBackward0"),
    ("clamp", lambda x, y: x.clamp(1, 2), "ClampBackward1"),
    ("clamp(min)", lambda x, y: x.clamp(min=1), "ClampBackward1"),
    ("pow(x, 2)", lambda x, y: mg.pow(x, 2), "PowBackward0"),
]


@parametrize_in_one(("name", "op", "node"), GRAD_FN_NAMES, ids=[r[0] for r in GRAD_FN_NAMES])
def test_grad_fn_name(name, op, node):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    assert op(x, y).grad_fn.name() == node


def test_matrix_grad_fn_names():
    a = mg.ones(2, 2, requires_grad=True)
    assert (a @ a).grad_fn.name() == "MmBackward0"
    assert (a @ mg.ones(2)).grad_fn.name() == "MvBackward0"


def test_leaf_has_no_grad_fn():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert x.grad_fn is None
    assert x.is_leaf


def test_next_functions_point_to_accumulate_grad_for_leaves_and_none_otherwise():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = mg.tensor([4.0, 5.0, 6.0])
    y = x * c
    next_functions = y.grad_fn.next_functions
    assert isinstance(next_functions, tuple)
    (acc, acc_nr), (none, none_nr) = next_functions
    assert type(acc).__name__ == "AccumulateGrad"
    assert acc.name() == ACCUMULATE_GRAD
    assert acc.variable is x
    assert (acc_nr, none, none_nr) == (0, None, 0)
    assert [fn is None for fn, _ in (c * x).grad_fn.next_functions] == [True, False]


def test_python_scalar_operand_appears_as_a_none_edge():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for y in (x * 2, 2 * x, x + 2):
        (first, _), (second, nr) = y.grad_fn.next_functions
        assert type(first).__name__ == "AccumulateGrad"
        assert (second, nr) == (None, 0)


def test_next_functions_follow_the_graph():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = mg.tensor([4.0, 5.0, 6.0])
    z = (x * c + x).sum()
    assert z.grad_fn.name() == "SumBackward0"
    ((add, add_nr),) = z.grad_fn.next_functions
    assert (add.name(), add_nr) == ("AddBackward0", 0)
    (mul, _), (acc, _) = add.next_functions
    assert mul.name() == "MulBackward0"
    assert acc.variable is x
    assert mul.next_functions[0][0] is acc  # one AccumulateGrad per leaf while the graph lives


def test_autograd_backward_with_several_tensors_and_gradients():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    mg.autograd.backward([a * 2, b * b], [mg.tensor([1.0, 1.0]), mg.tensor([1.0, 10.0])])
    assert a.grad.tolist() == [2.0, 2.0]
    assert b.grad.tolist() == [6.0, 80.0]
    mg.autograd.backward((a * b).sum())
    assert a.grad.tolist() == [5.0, 6.0]
    assert b.grad.tolist() == [7.0, 82.0]
    mg.autograd.backward([a.sum(), b.sum()])  # scalars: grad_tensors may be omitted
    assert a.grad.tolist() == [6.0, 7.0]
    assert b.grad.tolist() == [8.0, 83.0]


def test_autograd_backward_errors():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^got 2 tensors and 1 gradients$"):
        mg.autograd.backward([a * 2, b * b], [mg.ones(2)])
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.backward([a * 2], [mg.ones(3)])
    assert str(excinfo.value) == text(
        "Mismatch in shape: grad_output[0] has a shape of minigrad.Size([3]) and output[0] has a "
        "shape of minigrad.Size([2])."
    )
    t = mg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError) as excinfo:
        mg.autograd.backward([a.sum(), t.sum()])
    assert str(excinfo.value) == (
        "element 1 of tensors does not require grad and does not have a grad_fn"
    )
    assert a.grad is None


# ---- retain_grad ------------------------------------------------------------------------------


def test_non_leaf_grad_is_none_and_accessing_it_warns():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    (y * y).sum().backward()
    with pytest.warns(UserWarning, match=re.escape(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
        "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
        "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor."
    )):
        assert y.grad is None


def test_retain_grad_populates_a_non_leaf_grad():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    assert (y.retains_grad, x.retains_grad) == (True, False)
    (y * y).sum().backward()
    assert y.grad.tolist() == [4.0, 8.0, 12.0]
    assert x.grad.tolist() == [8.0, 16.0, 24.0]


def test_retain_grad_on_a_leaf_is_a_no_op():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.retain_grad()
    assert x.retains_grad is False  # leaves keep .grad anyway


# ---- hooks -----------------------------------------------------------------------------------


def test_leaf_hook_sees_the_gradient_and_can_be_removed():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()))
    (x * 3 + x * 2).sum().backward()
    assert seen == [[5.0, 5.0, 5.0]]  # called once, with the summed gradient
    handle.remove()
    (x * 3).sum().backward()
    assert seen == [[5.0, 5.0, 5.0]]
    assert x.grad.tolist() == [8.0, 8.0, 8.0]


def test_leaf_hook_can_replace_the_gradient_before_accumulation():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [30.0, 30.0, 30.0]
    (x * 1).sum().backward()
    assert x.grad.tolist() == [40.0, 40.0, 40.0]


def test_non_leaf_hook_sees_the_summed_gradient():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    (y * 3 + y * y).sum().backward()
    assert seen == [[5.0, 7.0, 9.0]]
    assert x.grad.tolist() == [5.0, 7.0, 9.0]


def test_non_leaf_hook_can_replace_the_gradient_flowing_on():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 100)
    (y * y).sum().backward()
    assert x.grad.tolist() == [800.0, 1600.0, 2400.0]


def test_hook_returning_none_keeps_the_gradient():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: None)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_hooks_run_in_registration_order_each_on_the_previous_result():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [40.0, 40.0, 40.0]  # ((1 + 1) * 10) * 2


@pytest.mark.parametrize("retain_first", [True, False])
def test_retained_grad_is_the_hooked_gradient_whatever_the_order(retain_first):
    # retain_grad's own hook always runs after the user's hooks.
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    if retain_first:
        y.retain_grad()
    y.register_hook(lambda g: g * 100)
    if not retain_first:
        y.retain_grad()
    (y * y).sum().backward()
    assert y.grad.tolist() == [400.0, 800.0, 1200.0]
    assert x.grad.tolist() == [800.0, 1600.0, 2400.0]


def test_hook_that_changes_the_shape_raises():
    def wrong_size(grad):
        return mg.ones(2)

    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(wrong_size)
    with pytest.raises(RuntimeError) as excinfo:
        y.sum().backward()
    assert str(excinfo.value) == "hook 'wrong_size' has changed the size of value"


# ---- deep graphs -----------------------------------------------------------------------------


# y = x * 1.0000001 * 1.0000001 * ... from x = 1.0 (float32), by chain depth: y and x.grad as
# PyTorch 2.13 computes them. float32 rounding at every step: the exact (1 + 2**-23) ** 1e6
# would be 1.1266.
CHAIN_RESULTS = {1_000_000: 1.1192092895507812, 100_000: 1.0119209289550781}
# The million ops test minigrad's engine (no recursion in backward, nor in dropping the graph).
# PyTorch's engine is C++ and iterative, and its 10^6 ops cost ~40 s of CPU here: the reference
# run checks the same arithmetic at 10^5 ops (test_chain_results_are_float32_products ties the
# results of both depths to one step-by-step float32 product).
CHAIN_DEPTH = 1_000_000 if LIB == "minigrad" else 100_000


def test_a_million_op_chain_backpropagates_without_recursion_and_can_be_dropped():
    x = mg.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(CHAIN_DEPTH):
        y = y * 1.0000001
    y.sum().backward()
    expected = CHAIN_RESULTS[CHAIN_DEPTH]
    close(x.grad, [expected])
    close(y, [expected])
    del y  # dropping a million-node graph must not overflow the stack either
    assert x.grad.tolist() == pytest.approx([expected], rel=1e-6)


def test_chain_results_are_float32_products():
    # Each step of the chain (forward and backward) multiplies by float32(1.0000001) and rounds
    # to float32: the values for both depths are that product, exactly.
    factor = np.float32(1.0000001)
    y = np.float32(1.0)
    for depth in range(1, max(CHAIN_RESULTS) + 1):
        y = y * factor
        if depth in CHAIN_RESULTS:
            assert float(y) == CHAIN_RESULTS[depth], depth


def test_stacked_scalars_get_0d_gradients():
    # Stack's backward indexes the last axis with an integer (ops._helpers.along): each 0-d
    # input still gets a 0-d gradient of its dtype, also on a second backward (accumulation).
    x0 = mg.tensor(1.0, requires_grad=True)
    x1 = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    for _ in range(2):
        mg.stack([x0, x1.float() * 3]).backward(mg.tensor([10.0, 20.0]))
    assert x0.grad.shape == () and x0.grad.dtype == mg.float32 and x0.grad.item() == 20.0
    assert x1.grad.shape == () and x1.grad.dtype == mg.float64 and x1.grad.item() == 120.0


def test_backward_with_create_graph_warns_once_about_the_cycle_autograd_grad_never():
    # PyTorch's TORCH_WARN_ONCE: checked in a fresh process. autograd.grad and a backward that
    # fails its checks first do not warn; the first backward(create_graph=True) does, once.
    script = (
        f"import warnings\nimport {LIB} as mg\n"
        "x = mg.ones(3, requires_grad=True)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    mg.autograd.grad((x * x).sum(), x, create_graph=True)\n"
        "    try:\n"
        "        (x * x).sum().backward(create_graph=True, inputs=[mg.ones(3)])\n"
        "    except RuntimeError:\n"
        "        pass\n"
        "    print(len(caught))\n"
        "    (x * x).sum().backward(create_graph=True)\n"
        "    mg.autograd.backward([(x * x).sum()], create_graph=True)\n"
        "for warning in caught:\n"
        "    print(warning.category.__name__, str(warning.message).split(' (Triggered')[0])\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.splitlines() == ["0", "UserWarning " + text(
        "Using backward() with create_graph=True will create a reference cycle between the "
        "parameter and its gradient which can cause a memory leak. We recommend using "
        "autograd.grad when creating the graph to avoid this. If you have to use this function, "
        "make sure to reset the .grad fields of your parameters to None after use to break the "
        "cycle and avoid the leak.")]


def test_backward_inputs_retain_their_gradient_for_good():
    # PyTorch calls retain_grad() on backward's inputs: a non-leaf keeps retaining afterwards.
    x = mg.ones(3, requires_grad=True)
    y = x * 2
    (y * y).sum().backward(inputs=[y], retain_graph=True)
    assert y.retains_grad
    assert y.grad.tolist() == [4.0, 4.0, 4.0] and x.grad is None
    (y * y).sum().backward()
    assert y.grad.tolist() == [8.0, 8.0, 8.0] and x.grad.tolist() == [8.0, 8.0, 8.0]


@pytest.mark.parametrize("create_graph", [False, True])
def test_backward_input_that_does_not_require_grad_raises_retain_grads_error(create_graph):
    x = mg.ones(3, requires_grad=True)
    y = x * 3
    with pytest.raises(RuntimeError, match="^can't retain_grad on Tensor that has "
                                           "requires_grad=False$"):
        (x * y).sum().backward(create_graph=create_graph, inputs=[y, mg.ones(3)])
    assert y.retains_grad  # (the inputs before it were already made to retain, as in PyTorch)
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad"):
        mg.ones(2).sum().backward(inputs=[x * 1])  # the roots are checked first


@pytest.mark.parametrize(("gradient", "message"), [
    ("abc", "gradients can be either Tensors or None, but got str"),  # (its characters)
    (object(), "'object' object is not iterable"),
    (5, "'int' object is not iterable"),
])
@pytest.mark.parametrize("form", ["method", "function"])
def test_backward_gradient_of_another_type_gets_pytorchs_python_level_error(
    gradient, message, form
):
    x = mg.ones(3, requires_grad=True)
    y = (x * x).sum()
    run = y.backward if form == "method" else lambda g: mg.autograd.backward(y, g)
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        run(gradient)
    assert x.grad is None


@parametrize_in_one(("options", "error", "message"), [
    ({"retain_graph": "s"}, TypeError, "'str' object cannot be interpreted as an integer"),
    ({"create_graph": None}, TypeError, "'NoneType' object cannot be interpreted as an integer"),
    ({"retain_graph": 1.5}, TypeError, "'float' object cannot be interpreted as an integer"),
    ({"retain_graph": 300}, OverflowError, "unsigned byte integer is greater than maximum"),
    ({"retain_graph": -1}, OverflowError, "unsigned byte integer is less than minimum"),
])
@parametrize_in_one("form", ["backward", "grad"])
def test_engine_flags_are_parsed_as_pytorchs_engine_parses_them(options, error, message, form):
    x = mg.ones(3, requires_grad=True)
    y = (x * x).sum()
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        if form == "backward":
            y.backward(**options)
        else:
            mg.autograd.grad(y, x, **options)
    assert x.grad is None
    y.backward(retain_graph=2)  # a small int is a flag: the graph is kept
    y.backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]
