"""Looking at what autograd saved, and hooking into it (the "Autograd mechanics" notes' examples).

``grad_fn._saved_<name>`` under PyTorch's names, ``_raw_saved_<name>.register_hooks``,
``autograd.graph.saved_tensors_hooks`` / ``save_on_cpu``, ``Node.register_prehook`` /
``register_hook``, ``Tensor.register_post_accumulate_grad_hook``. Every expected value and message
was recorded from PyTorch 2.13 (run with MINIGRAD_TEST_REFERENCE=torch to check them there).
PyTorch's ``SavedTensor`` does not keep its node alive (using one after the node is gone crashes
PyTorch), so the tests keep the node's output alive while they use one.
"""

import numpy as np
import pytest
from _backend import mg, text

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def saved_names(node):
    return sorted(name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_")))


def leaf(*values):
    return mg.tensor(list(values), requires_grad=True)


# --- grad_fn._saved_<name> -------------------------------------------------------------------


def test_mul_saves_self_and_other_as_the_inputs_themselves():
    x, y = leaf(1.0, 2.0), leaf(3.0, 4.0)
    node = (x * y).grad_fn
    assert saved_names(node) == ["_raw_saved_other", "_raw_saved_self", "_saved_other",
                                 "_saved_self"]
    assert node._saved_self is x and node._saved_other is y


def test_a_value_saving_skipped_reads_as_none_before_and_after_backward():
    x = leaf(1.0, 2.0)
    z = x * mg.tensor([3.0, 4.0])  # only x needs a gradient: PyTorch keeps y only
    assert z.grad_fn._saved_self is None
    assert z.grad_fn._saved_other.tolist() == [3.0, 4.0]
    z.sum().backward()
    assert z.grad_fn._saved_self is None
    with pytest.raises(RuntimeError) as info:
        _ = z.grad_fn._saved_other
    assert str(info.value) == SECOND_BACKWARD


def test_a_saved_output_comes_back_as_a_new_tensor_with_the_outputs_place_in_the_graph():
    x = leaf(0.0, 1.0)
    y = x.exp()
    result = y.grad_fn._saved_result
    assert result is not y
    assert result.grad_fn is y.grad_fn
    assert result._version == y._version == 0
    assert result.tolist() == pytest.approx([1.0, 2.718281828])
    y.detach().add_(1)  # shares the buffer and the counter
    assert result.tolist() == pytest.approx([2.0, 3.718281828])


def test_pow_keeps_its_exponent_as_a_number():
    x = leaf(1.0, 2.0)
    node = x.pow(2).grad_fn
    assert saved_names(node) == ["_raw_saved_self", "_saved_exponent", "_saved_self"]
    assert node._saved_exponent == 2 and type(node._saved_exponent) is int
    assert node._saved_self is x


def test_a_wrapped_python_number_is_a_float64_tensor():
    x = leaf(1.0, 2.0)
    other = (x * 2.0).grad_fn._saved_other
    assert str(other.dtype) == text("minigrad.float64")
    assert other.dim() == 0 and other.item() == 2.0


def test_sum_over_a_dim_keeps_dim_keepdim_and_the_input_sizes():
    x = mg.ones(2, 3, requires_grad=True)
    node = x.sum(1, keepdim=True).grad_fn
    assert saved_names(node) == ["_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes"]
    assert node._saved_dim == (1,)
    assert node._saved_keepdim is True
    assert node._saved_self_sym_sizes == (2, 3)


def test_add_keeps_alpha_and_nothing_else():
    x, y = leaf(1.0), leaf(2.0)
    node = x.add(y, alpha=2).grad_fn
    assert saved_names(node) == ["_saved_alpha"]
    assert node._saved_alpha == 2


def test_mm_keeps_mat2_and_the_layouts_strides_only_for_what_needs_a_gradient():
    a = mg.ones(2, 3, requires_grad=True)
    b = mg.ones(4, 3).t()  # a transposed view: strides (1, 3)
    node = (a @ b).grad_fn
    assert saved_names(node) == [
        "_raw_saved_mat2", "_raw_saved_self", "_saved_mat2", "_saved_mat2_sym_sizes",
        "_saved_mat2_sym_strides", "_saved_self", "_saved_self_sym_sizes",
        "_saved_self_sym_strides",
    ]
    assert node._saved_self is None and node._saved_mat2 is b
    assert node._saved_self_sym_sizes == (2, 3) and node._saved_self_sym_strides == (3, 1)
    assert node._saved_mat2_sym_sizes == (3, 4) and node._saved_mat2_sym_strides == ()


def test_index_put_keeps_a_list_of_indices_with_none_for_whole_dims():
    x = mg.zeros(3, 4, requires_grad=True)
    index = mg.tensor([0, 2])
    y = x.clone()
    y[:, index] = 2.0
    node = y.grad_fn
    assert node.name() == "IndexPutBackward0"
    assert saved_names(node) == ["_raw_saved_indices", "_saved_accumulate", "_saved_indices"]
    first, second = node._saved_indices
    assert first is None and second is index
    assert node._saved_accumulate is False
    raw = node._raw_saved_indices
    assert len(raw) == 2
    with pytest.raises(RuntimeError) as info:
        raw[0].register_hooks(lambda t: t, lambda t: t)
    assert str(info.value) == (
        "Calling register_hooks on a saved tensor with value None is forbidden"
    )
    raw[1].register_hooks(lambda t: t.tolist(), lambda values: mg.tensor(values) + 1)
    assert node._saved_indices[1].tolist() == [1, 3]
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 1.0, 0.0]] * 3  # the unpacked indices [1, 3]
    with pytest.raises(RuntimeError) as info:
        _ = node._saved_indices
    assert str(info.value) == text(SECOND_BACKWARD)


def test_options_stay_readable_after_backward_but_tensors_are_freed():
    x = mg.ones(2, 3, requires_grad=True)
    y = x.sum(0)
    z = y.exp()
    z.sum().backward()
    assert y.grad_fn._saved_dim == (0,)
    with pytest.raises(RuntimeError) as info:
        _ = z.grad_fn._saved_result
    assert str(info.value) == SECOND_BACKWARD
    assert z.grad_fn._raw_saved_result is not None  # the SavedTensor is still there


def test_retain_graph_keeps_them_readable():
    x = leaf(1.0, 2.0)
    y = x.sin()
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved_self is x


def test_reading_a_saved_tensor_checks_its_version_like_backward():
    x = leaf(0.0, 1.0)
    y = x.exp()
    y.detach().add_(1)
    with pytest.raises(RuntimeError) as info:
        _ = y.grad_fn._saved_result
    assert str(info.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.FloatTensor [2]], which is output 0 of Exp, is at version "
        "1; expected version 0 instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, "
        "check_nan=False)."
    )


def test_an_unknown_saved_name_is_an_attribute_error():
    node = leaf(1.0).exp().grad_fn
    with pytest.raises(AttributeError) as info:
        _ = node._saved_self
    assert str(info.value) == "'ExpBackward0' object has no attribute '_saved_self'"
    assert not hasattr(node, "_saved_other")


# --- _raw_saved_<name>: a SavedTensor and its own hooks ---------------------------------------


def test_register_hooks_packs_now_and_unpacks_on_each_read():
    x = leaf(1.0, 2.0)
    y = x.pow(2)
    calls = []

    def pack(tensor):
        calls.append("pack")
        return tensor.tolist()

    def unpack(values):
        calls.append("unpack")
        return mg.tensor(values)

    y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
    assert calls == ["pack"]
    assert y.grad_fn._saved_self.tolist() == [1.0, 2.0]
    assert calls == ["pack", "unpack"]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    assert calls == ["pack", "unpack", "unpack"]


def test_a_value_kept_by_hooks_is_no_longer_version_checked():
    x = leaf(0.0, 1.0)
    y = x.exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t.detach(), lambda t: t)
    y.detach().mul_(2)
    y.sum().backward()  # PyTorch cannot see what the hooks did with the tensor: no error
    assert x.grad.tolist() == pytest.approx([2.0, 5.436563657])


def test_register_hooks_misuse_raises_pytorchs_errors():
    x = leaf(1.0, 2.0)
    y = x.exp()  # PyTorch's SavedTensor does not keep the node alive: keep its output
    raw = y.grad_fn._raw_saved_result
    raw.register_hooks(lambda t: t.detach(), lambda t: t)
    with pytest.raises(RuntimeError) as info:
        raw.register_hooks(lambda t: t, lambda t: t)
    assert str(info.value) == (
        "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
        "one pair of hooks is allowed at a time."
    )
    z = x * mg.ones(2)
    with pytest.raises(RuntimeError) as info:
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    assert str(info.value) == (
        "Calling register_hooks on a saved tensor with value None is forbidden"
    )
    y = x.exp()
    raw = y.grad_fn._raw_saved_result
    y.sum().backward()
    with pytest.raises(RuntimeError) as info:
        raw.register_hooks(lambda t: t, lambda t: t)
    assert str(info.value) == (
        "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
        "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
        "retain_graph=True if you need to backward through the graph a second time or if you "
        "need to access saved variables after calling backward."
    )
    y = x.exp()
    raw = y.grad_fn._raw_saved_result
    for arguments in ((1, lambda t: t), (lambda t: t,)):
        with pytest.raises(TypeError) as info:
            raw.register_hooks(*arguments)
        assert str(info.value).startswith(
            "register_hooks(): incompatible function arguments. The following argument types are "
            "supported:\n    1. (self: minigrad._C._autograd.SavedTensor, arg0: "
            "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked with: "
            .replace("minigrad", mg.__name__)
        )


# --- autograd.graph.saved_tensors_hooks and save_on_cpu ----------------------------------------


def test_pack_gets_the_saved_tensors_themselves():
    x = leaf(1.0, 2.0)
    seen = []

    def pack(tensor):
        seen.append(id(tensor))
        return tensor.detach()

    with mg.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x.exp()  # saves its result
        x.sin()  # saves its input
        x * 2.0  # a wrapped number is not packed
    assert seen == [id(y), id(x)]


def test_the_innermost_hooks_apply_and_stay_with_the_node():
    x = leaf(1.0, 2.0)
    log = []

    def hooks(name):
        return (lambda t: (log.append("pack " + name), t.detach())[1],
                lambda t: (log.append("unpack " + name), t)[1])

    with mg.autograd.graph.saved_tensors_hooks(*hooks("outer")):
        with mg.autograd.graph.saved_tensors_hooks(*hooks("inner")):
            y = x.exp()
        z = x.sin()
    with mg.autograd.graph.saved_tensors_hooks(*hooks("later")):
        (y + z).sum().backward()
    assert log == ["pack inner", "pack outer", "unpack outer", "unpack inner"]


def test_hooks_apply_to_custom_functions_and_not_under_no_grad():
    class Double(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * 2

    x = leaf(1.0, 2.0)
    log = []
    with mg.autograd.graph.saved_tensors_hooks(lambda t: (log.append("pack"), t.detach())[1],
                                               lambda t: (log.append("unpack"), t)[1]):
        with mg.no_grad():
            x.exp()
        out = Double.apply(x)
    out.sum().backward()
    assert log == ["pack", "unpack"]
    assert x.grad.tolist() == [2.0, 2.0]


def test_an_unpack_hook_must_return_a_tensor():
    x = leaf(1.0)
    with mg.autograd.graph.saved_tensors_hooks(lambda t: 5, lambda t: t):
        y = x.exp()
    with pytest.raises(TypeError) as info:
        y.sum().backward()
    assert str(info.value) == (
        "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int"
    )


def test_a_pack_hook_may_not_modify_its_input():
    x = leaf(1.0, 2.0).clone()

    def pack(tensor):
        tensor.add_(1)
        return tensor

    with mg.autograd.graph.saved_tensors_hooks(pack, lambda t: t), pytest.raises(
        RuntimeError
    ) as info:
        x.sin()
    assert str(info.value) == (
        "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
        "pack hook cannot be modified by in-place operations as this can lead to unexpected "
        "side-effects. Please open an issue if you need to perform in-place operations on the "
        "input to a pack hook."
    )


def test_save_on_cpu_keeps_a_cpu_tensor_as_it_is():
    x = leaf(0.0, 1.0)
    with mg.autograd.graph.save_on_cpu():
        y = x.exp()
    assert y.grad_fn._saved_result is not y
    y.detach().zero_()  # kept as it is and not version-checked: backward sees the zeros
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    with mg.autograd.graph.save_on_cpu(pin_memory=True):
        z = x.exp()
    z.detach().zero_()  # pinned: a copy was kept
    x.grad = None
    z.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0, 2.718281828])


# --- hooks on nodes and on leaves ---------------------------------------------------------------


def test_node_prehook_sees_and_may_replace_the_incoming_gradients():
    x = leaf(1.0, 2.0)
    y = x * 3
    seen = []
    handle = y.grad_fn.register_prehook(lambda grads: seen.append(grads[0].tolist()))
    y.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    y.sum().backward(retain_graph=True)
    assert seen == [[1.0, 1.0]]
    assert x.grad.tolist() == [30.0, 30.0]
    handle.remove()
    y.sum().backward()
    assert seen == [[1.0, 1.0]]
    assert x.grad.tolist() == [60.0, 60.0]


def test_node_post_hook_sees_both_sides_and_may_replace_the_gradients_it_computed():
    x = leaf(0.0, 1.0)
    y = x.exp()
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        (grad_inputs[0].tolist(), grad_outputs[0].tolist())))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 0,))
    y.sum().backward()
    assert seen == [([1.0, pytest.approx(2.718281828)], [1.0, 1.0])]
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(("hook", "error", "message"), [
    (lambda grads: 5, TypeError, "expected tuple, but hook returned 'int'"),
    (lambda grads: (grads[0], grads[0]), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
    (lambda grads: (5,), TypeError, "expected Variable, but hook returned 'int'"),
])
def test_what_a_node_prehook_returns_is_checked(hook, error, message):
    y = leaf(1.0, 2.0).exp()
    y.grad_fn.register_prehook(hook)
    with pytest.raises(error) as info:
        y.sum().backward()
    assert str(info.value) == message


def test_a_node_prehook_may_not_change_the_dtype():
    y = leaf(1.0, 2.0).exp()

    def to_double(grads):
        return (grads[0].double(),)

    y.grad_fn.register_prehook(to_double)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == text(
        "hook 'to_double' has changed the type of value (was minigrad.FloatTensor got "
        "minigrad.DoubleTensor)"
    )


def test_the_accumulator_of_a_leaf_takes_hooks_too():
    x = leaf(1.0, 2.0)
    y = x * 1
    accumulator = y.grad_fn.next_functions[0][0]
    accumulator.register_prehook(lambda grads: (grads[0] * 100,))
    seen = []
    accumulator.register_hook(lambda grad_inputs, grad_outputs: seen.append(len(grad_inputs)))
    y.sum().backward()
    assert x.grad.tolist() == [100.0, 100.0]
    assert seen == [0]


def test_metadata_is_a_dict_of_the_users_own():
    node = leaf(1.0).exp().grad_fn
    assert node.metadata == {}
    node.metadata["layer"] = "fc1"
    assert node.metadata == {"layer": "fc1"}


def test_post_accumulate_grad_hook_runs_after_the_grad_is_updated():
    w = leaf(1.0, 2.0)
    order = []
    w.register_hook(lambda grad: order.append("tensor hook"))
    handle = w.register_post_accumulate_grad_hook(
        lambda tensor: order.append(("post accumulate", tensor is w, tensor.grad.tolist())))
    y = w * 2
    y.grad_fn.next_functions[0][0].register_hook(lambda *grads: order.append("node hook"))
    y.sum().backward(retain_graph=True)
    assert order == ["tensor hook", ("post accumulate", True, [2.0, 2.0]), "node hook"]
    handle.remove()
    order.clear()
    y.sum().backward()
    assert order == ["tensor hook", "node hook"]


def test_post_accumulate_grad_hook_runs_only_when_grad_is_accumulated():
    w = leaf(1.0)
    calls = []
    w.register_post_accumulate_grad_hook(calls.append)
    mg.autograd.grad((w * 2).sum(), w)
    assert calls == []


def test_post_accumulate_grad_hook_misuse():
    with pytest.raises(RuntimeError) as info:
        mg.ones(2).register_post_accumulate_grad_hook(lambda t: None)
    assert str(info.value) == "cannot register a hook on a tensor that doesn't require gradient"
    with pytest.raises(RuntimeError) as info:
        (leaf(1.0) * 2).register_post_accumulate_grad_hook(lambda t: None)
    assert str(info.value) == "post accumulate grad hooks cannot be registered on non-leaf tensors"
    w = leaf(1.0)
    w.register_post_accumulate_grad_hook(lambda t: 5)
    with pytest.raises(TypeError) as info:
        (w * 2).sum().backward()
    assert str(info.value) == "expected Variable, but hook returned 'int'"
    assert np.allclose(w.grad.detach().numpy(), [2.0])


def test_a_custom_functions_node_shows_raw_saved_tensors():
    class Double(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, None)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, None

    x = leaf(1.0, 2.0)
    out = Double.apply(x, 3)
    raw = out.grad_fn._raw_saved_tensors
    assert type(raw) is tuple and len(raw) == 2
    values = out.grad_fn.saved_tensors
    assert values[0] is x and values[1] is None
    out.sum().backward()
    with pytest.raises(RuntimeError) as info:
        _ = out.grad_fn._raw_saved_tensors
    assert str(info.value) == SECOND_BACKWARD
