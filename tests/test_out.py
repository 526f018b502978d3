"""``out=``: results written into a given tensor, with PyTorch's values, versions and errors.

Every expected value, message and warning here was recorded from PyTorch 2.13 (the file runs
against torch too: ``MINIGRAD_TEST_REFERENCE=torch``). Which functions take ``out=`` at all is
checked for every public function by tests_torch/test_out_torch.py.
"""

import re

import pytest
from _backend import mg, text

NOT_DIFFERENTIABLE = ("{}(): functions with out=... arguments don't support automatic "
                      "differentiation, but one of the arguments requires grad.")
RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
           "not match the required output shape {}. This behavior is deprecated, and in a future "
           "PyTorch release outputs will not be resized unless they have zero elements. You can "
           "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
           "t.resize_(0).")


def x():
    return mg.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]])


def exactly(message):
    return "^" + re.escape(text(message)) + "$"


def warned(message):
    """The warning's text (PyTorch adds where its C++ code raised it)."""
    return "^" + re.escape(message) + r"( \(Triggered internally at .*\))?$"


# --- the write --------------------------------------------------------------------------------


def test_the_result_is_written_into_out_which_is_returned():
    out = mg.zeros(2, 3)
    returned = mg.add(x(), 1, out=out)
    assert returned is out
    assert out.tolist() == [[1.5, -0.25, 3.0], [2.5, 1.25, 0.25]]
    assert out._version == 1


def test_views_of_out_see_the_write_and_its_version():
    out = mg.zeros(2, 3)
    row = out[1]
    mg.mul(x(), 2, out=out)
    assert row.tolist() == [3.0, 0.5, -1.5]
    assert row._version == 1


def test_out_can_be_a_view_whose_base_sees_the_write():
    base = mg.zeros(3, 3)
    mg.exp(mg.zeros(3), out=base[1])
    assert base.tolist() == [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    assert base._version == 1


def test_a_transposed_out_is_written_through_its_strides():
    base = mg.zeros(2, 3)
    mg.add(mg.ones(3, 2), mg.arange(6.0).reshape(3, 2), out=base.t())
    assert base.tolist() == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]


def test_out_may_be_an_input():
    a = mg.tensor([1.0, 2.0, 3.0])
    mg.mul(a, a, out=a)
    assert a.tolist() == [1.0, 4.0, 9.0]
    assert a._version == 1


def test_an_out_overlapping_an_input_in_part_is_refused():
    a = mg.arange(4.0)
    with pytest.raises(RuntimeError, match=exactly(
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")):
        mg.add(a[:3], 1, out=a[1:])
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_an_expanded_out_is_refused():
    with pytest.raises(RuntimeError, match=exactly(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the "
            "operation.")):
        mg.add(mg.ones(3), 1, out=mg.zeros(1).expand(3))


def test_an_inference_tensor_cannot_be_out_outside_inference_mode():
    with mg.inference_mode():
        out = mg.zeros(3)
    with pytest.raises(RuntimeError, match=re.escape(
            "Inplace update to inference tensor outside InferenceMode is not allowed.")):
        mg.add(mg.ones(3), 1, out=out)


# --- shapes -----------------------------------------------------------------------------------


def test_an_empty_out_takes_the_result_shape_silently():
    out = mg.tensor([])
    mg.sub(x(), 1, out=out)
    assert out.shape == (2, 3)
    assert out.tolist() == [[-0.5, -2.25, 1.0], [0.5, -0.75, -1.75]]
    assert out._version == 1


def test_an_out_with_elements_is_resized_with_a_deprecation_warning():
    out = mg.zeros(2)
    with pytest.warns(UserWarning, match=warned(RESIZED.format("[2]", "[3]"))):
        mg.add(mg.ones(3), 1, out=out)
    assert out.tolist() == [2.0, 2.0, 2.0]
    assert out._version == 1


def test_shrinking_out_keeps_its_memory_so_earlier_views_see_the_result():
    base = mg.zeros(5)
    head = base[:2]
    with pytest.warns(UserWarning, match=warned(RESIZED.format("[5]", "[3]"))):
        mg.add(mg.ones(3), 1, out=base)
    assert base.tolist() == [2.0, 2.0, 2.0]
    assert head.tolist() == [2.0, 2.0]


def test_a_reduction_to_0d_resizes_a_one_element_out():
    out = mg.zeros(1)
    with pytest.warns(UserWarning, match=warned(RESIZED.format("[1]", "[]"))):
        mg.sum(mg.ones(3), 0, out=out)
    assert out.shape == ()
    assert out.item() == 3.0


# --- dtypes -----------------------------------------------------------------------------------


def test_a_float_result_goes_into_a_wider_float_out():
    out = mg.zeros(0, dtype=mg.float64)
    mg.mul(mg.tensor([0.1, 0.2]), 3, out=out)
    assert out.dtype == mg.float64
    assert out.tolist() == pytest.approx([0.30000001192092896, 0.6000000238418579])


def test_a_result_that_cannot_be_cast_is_refused_and_out_is_untouched():
    out = mg.zeros(2, dtype=mg.int64)
    with pytest.raises(RuntimeError, match=exactly(
            "result type Float can't be cast to the desired output type Long")):
        mg.add(mg.ones(3), 1, out=out)
    assert out.tolist() == [0, 0]
    assert out._version == 0


def test_integer_results_cast_into_float_and_comparisons_into_anything():
    out = mg.zeros(0)
    mg.add(mg.tensor([1, 2]), 2, out=out)
    assert (out.dtype, out.tolist()) == (mg.float32, [3.0, 4.0])
    mg.eq(mg.tensor([1, 2]), 2, out=out)
    assert out.tolist() == [0.0, 1.0]


@pytest.mark.parametrize(("call", "message"), [
    (lambda o: mg.argmax(x(), out=o),
     "Expected out tensor to have dtype long int, but got float instead"),
    (lambda o: mg.all(x(), out=o), "all only supports bool tensor for result, got: Float"),
    (lambda o: mg.nonzero(x(), out=o),
     "nonzero: Expected out tensor to have scalar type Long but got scalar typeFloat"),
    (lambda o: mg.abs(x(), out=o.double()), "Found dtype Double but expected Float"),
    (lambda o: mg.mm(x(), x().t(), out=o.double()),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda o: mg.sum(x(), 1, dtype=mg.float64, out=o),
     "Expected out tensor to have dtype double, but got float instead"),
    (lambda o: mg.zeros(2, dtype=mg.float64, out=o),
     "dtype Double does not match dtype of out parameter (Float)"),
    (lambda o: mg.logsumexp(x(), 1, out=o.long()),
     "logsumexp(): Expected floating point type for result tensor, but got: Long"),
])
def test_functions_that_demand_a_dtype_say_so(call, message):
    with pytest.raises(RuntimeError, match=exactly(message)):
        call(mg.zeros(0))


def test_reductions_compute_in_the_dtype_of_out():
    ints = mg.zeros(0, dtype=mg.int32)
    mg.prod(x(), 1, out=ints)  # the input becomes [0, -1, 2]: the product is 0
    assert (ints.dtype, ints.tolist()) == (mg.int32, [0, 0])
    ints = mg.zeros(0, dtype=mg.int32)
    mg.cumsum(x(), 1, out=ints)
    assert ints.tolist() == [[0, -1, 1], [1, 1, 1]]
    flags = mg.zeros(0, dtype=mg.uint8)
    mg.all(x(), out=flags)  # 0.5 becomes 0
    assert flags.item() == 0


def test_factories_make_values_of_the_dtype_of_out():
    out = mg.zeros(0, dtype=mg.int64)
    mg.ones(2, 2, out=out)
    assert (out.dtype, out.tolist()) == (mg.int64, [[1, 1], [1, 1]])
    out = mg.zeros(0, dtype=mg.int64)
    mg.arange(0.5, 3.5, out=out)  # the bounds become integers too
    assert out.tolist() == [0, 1, 2]


def test_arange_warns_only_when_the_element_count_differs():
    out = mg.zeros(2, 2)
    mg.arange(4, out=out)  # as many elements: out keeps its shape
    assert out.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    with pytest.warns(UserWarning, match=warned(
            "The number of elements in the out tensor of shape [2, 2] is 4 which does not match "
            "the computed number of elements 5. Note that this may occur as a result of "
            "rounding error. The out tensor will be resized to a tensor of shape (5,).")):
        mg.arange(5, out=out)
    assert out.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


# --- autograd -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "call"), [
    ("add", lambda a: mg.add(a, 1, out=mg.zeros(3))),
    ("cat", lambda a: mg.cat([mg.ones(3), a], out=mg.zeros(6))),
    ("sort", lambda a: mg.sort(a, out=(mg.zeros(3), mg.zeros(3, dtype=mg.int64)))),
    ("linalg_inv_ex", lambda a: mg.linalg.inv(mg.diag(a), out=mg.zeros(3, 3))),
    ("_linalg_det", lambda a: mg.linalg.det(mg.diag(a), out=mg.zeros(()))),
])
def test_inputs_that_require_grad_are_refused_in_grad_mode(name, call):
    a = mg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=exactly(NOT_DIFFERENTIABLE.format(name))):
        call(a)
    with mg.no_grad():
        call(a)


def test_an_out_that_requires_grad_is_refused_in_grad_mode_and_written_under_no_grad():
    out = mg.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=exactly(NOT_DIFFERENTIABLE.format("add"))):
        mg.add(mg.ones(3), 1, out=out)
    with mg.no_grad():
        mg.add(mg.ones(3), 1, out=out)
    assert out.tolist() == [2.0, 2.0, 2.0]
    assert (out._version, out.requires_grad, out.grad_fn, out.is_leaf) == (1, True, None, True)


def test_results_without_gradient_never_refuse():
    out = mg.zeros(3, requires_grad=True)
    mg.eq(mg.tensor([1.0, 2.0, 3.0], requires_grad=True), 2, out=out)
    assert out.tolist() == [0.0, 1.0, 0.0]
    assert (out._version, out.requires_grad, out.grad_fn) == (1, True, None)


def test_a_factory_sets_requires_grad_of_out_as_asked():
    out = mg.zeros(3, requires_grad=True)
    with mg.no_grad():
        mg.ones(2, out=out)
    assert (out.tolist(), out.requires_grad) == ([1.0, 1.0], False)
    mg.zeros(2, out=out, requires_grad=True)
    assert (out.tolist(), out.requires_grad) == ([0.0, 0.0], True)


# --- several results and the out argument itself ------------------------------------------------


def test_several_results_go_into_a_tuple_and_come_back_named():
    values, indices = mg.zeros(0), mg.zeros(0, dtype=mg.int64)
    returned = mg.max(x(), 1, out=(values, indices))
    assert returned.values is values and returned.indices is indices
    assert repr(returned) == text(
        "minigrad.return_types.max_out(\nvalues=tensor([2.0000, 1.5000]),\n"
        "indices=tensor([2, 0]))")
    returned = mg.linalg.slogdet(mg.tensor([[2.0, 1.0], [1.0, 3.0]]),
                                 out=[mg.zeros(0), mg.zeros(0)])
    assert type(returned).__name__ == "linalg_slogdet_out"
    assert (returned.sign.item(), returned.logabsdet.item()) == pytest.approx((1.0, 1.6094379))


def test_a_malformed_out_argument_is_a_type_error():
    with pytest.raises(TypeError, match=exactly("add(): argument 'out' must be Tensor, not tuple")):
        mg.add(x(), 1, out=(mg.zeros(0),))
    with pytest.raises(TypeError, match=exactly("expected tuple of 2 elements but got 1")):
        mg.sort(x(), out=(mg.zeros(0),))


def test_overloads_without_out_refuse_it_with_the_list_of_overloads():
    with pytest.raises(TypeError, match=exactly(
            "sum() received an invalid combination of arguments - got (Tensor, out=Tensor), but "
            "expected one of:\n"
            " * (Tensor input, *, minigrad.dtype dtype = None)\n"
            " * (Tensor input, tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype "
            "= None, Tensor out = None)\n")):
        mg.sum(x(), out=mg.zeros(0))
    out = mg.zeros(0, dtype=mg.int64)
    mg.argsort(x(), stable=True, dim=1, out=out)
    assert out.tolist() == [[1, 0, 2], [2, 1, 0]]


def test_functions_pytorch_gives_no_out_refuse_it():
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        mg.zeros_like(x(), out=mg.zeros(0))
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        mg.relu(x(), out=mg.zeros(0))
