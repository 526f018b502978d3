"""The bad calls the misuse sweep found last (issue 10), with PyTorch 2.13's exact outcome.

tests_torch/test_misuse_sweep_torch.py compares only the exception types with PyTorch; here
are the messages and values, as PyTorch 2.13 gives them.
"""

import pytest
from _backend import mg, text
from _cases import parametrize_in_one


def raises(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)


_FLOAT_INTO_LONG = "result type Float can't be cast to the desired output type Long"


# (addcdiv_ with integer factors refuses the integer division first: tested in the op table.)
@pytest.mark.parametrize(("method", "self_dtype", "others", "message"), [
    ("addcmul_", "bool", "float32",
     "result type Float can't be cast to the desired output type Bool"),
    ("addcmul_", "bool", "int64", "result type Long can't be cast to the desired output type Bool"),
    ("addcmul_", "int64", "float32", _FLOAT_INTO_LONG),
    ("addcdiv_", "bool", "float32",
     "result type Float can't be cast to the desired output type Bool"),
    ("addcdiv_", "int64", "float32", _FLOAT_INTO_LONG),
])
def test_an_in_place_ternary_op_checks_the_result_type_before_the_kernel(
    method, self_dtype, others, message
):
    x = mg.ones(3, dtype=getattr(mg, self_dtype))
    t = mg.ones(3, dtype=getattr(mg, others))
    raises(lambda: getattr(x, method)(t, t), RuntimeError, message)
    assert x.tolist() == mg.ones(3, dtype=getattr(mg, self_dtype)).tolist()
    assert x._version == 0


def test_a_bool_tensor_with_bool_factors_has_no_addcmul_kernel():
    b = mg.tensor([True, False])
    raises(lambda: b.addcmul_(b, b), NotImplementedError,
           "\"addcmul_cpu_out\" not implemented for 'Bool'")


@pytest.mark.parametrize(("call", "dtype"), [
    (lambda x, v: x.index_fill(0, mg.tensor([1]), v), "Long"),
    (lambda x, v: x.masked_fill(mg.tensor([True, False, True]), v), "Long"),
    (lambda x, v: mg.masked_fill(x, mg.tensor([True, False, True]), v), "Long"),
    (lambda x, v: x.bool().index_fill(0, mg.tensor([1]), v), "Bool"),
])
def test_an_integer_result_of_a_value_that_requires_grad_is_refused(call, dtype):
    value = mg.tensor(2.0, requires_grad=True)
    x = mg.zeros(3, dtype=mg.int64)
    raises(lambda: call(x, value), RuntimeError, f"Autograd not support dtype: {dtype}")
    with mg.no_grad():  # no history to record: allowed
        assert call(x, value).tolist() in ([0, 2, 0], [2, 0, 2], [False, True, False])
    assert call(x, value.detach()).requires_grad is False


def test_take_along_dim_wraps_indices_into_the_dimension():
    x = mg.arange(3.0).reshape(3, 1).requires_grad_()
    taken = mg.take_along_dim(x, mg.tensor([[3], [-1], [100], [-4]]), 0)
    assert taken.flatten().tolist() == [0.0, 2.0, 1.0, 2.0]
    assert taken.grad_fn._saved_index.flatten().tolist() == [0, 2, 1, 2]
    taken.sum().backward()
    assert x.grad.flatten().tolist() == [1.0, 1.0, 2.0]
    raises(lambda: mg.take_along_dim(mg.zeros(2, 0), mg.ones(2, 1, dtype=mg.int64), 1),
           RuntimeError, "ZeroDivisionError")
    raises(lambda: mg.take_along_dim(mg.tensor(5.0), mg.tensor(3), 0), IndexError,
           "Dimension specified as 0 but tensor has no dimensions")
    # Without dim both are flattened, and an index out of range is an error.
    raises(lambda: mg.take_along_dim(mg.zeros(3, 4), mg.tensor([13])), RuntimeError,
           "index 13 is out of bounds for dimension 0 with size 12")


@pytest.mark.parametrize(("shape", "dim", "index", "error", "message"), [
    ((2, 3), 1, [1, -4], RuntimeError, "INDICES element is out of DATA bounds, id=-4 axis_dim=3"),
    ((1, 2, 1, 3), 1, [0, 2], RuntimeError,
     "INDICES element is out of DATA bounds, id=2 axis_dim=2"),
    ((2, 3), -1, [5, 3], RuntimeError, "INDICES element is out of DATA bounds, id=5 axis_dim=3"),
    ((2, 3), 0, [2], IndexError, "index out of range in self"),
    ((2, 3, 4), 2, [4], IndexError, "index out of range in self"),
    ((3,), 0, [-1], IndexError, "index out of range in self"),
])
def test_index_select_out_of_range_says_it_as_pytorchs_kernel_for_that_dim(
    shape, dim, index, error, message
):
    x = mg.zeros(shape)
    raises(lambda: x.index_select(dim, mg.tensor(index)), error, message)
    raises(lambda: mg.index_select(x, dim, mg.tensor(index)), error, message)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x: x.unflatten(1, None), RuntimeError, "unflatten: sizes must be non-empty"),
    (lambda x: mg.unflatten(x, 1, None), TypeError,
     "unflatten(): argument 'sizes' (position 3) must be tuple of ints, not NoneType"),
    (lambda x: x.unflatten(1, 4), TypeError,
     "unflatten(): argument 'sizes' (position 2) must be tuple of ints, not int"),
    (lambda x: mg.unflatten(x, 1, "ab"), TypeError,
     "unflatten(): argument 'sizes' (position 3) must be tuple of ints, not str"),
    (lambda x: mg.unflatten(x, 1, [2.0, 2]), TypeError,
     "unflatten(): argument 'sizes' (position 3) must be tuple of ints, but found element of "
     "type float at pos 0"),
    (lambda x: x.unflatten(1, [None]), TypeError,
     "unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found element of "
     "type NoneType at pos 0"),
])
def test_unflatten_sizes_of_the_wrong_kind(call, error, message):
    raises(lambda: call(mg.zeros(3, 4)), error, message)


def _method_overloads(name, got, parameter="other", marked=None):
    why = ("      didn't match because some of the arguments have invalid types: "
           f"({marked or '!' + got + '!'})\n")
    return (f"{name}() received an invalid combination of arguments - got ({got}), but expected "
            f"one of:\n * (Tensor {parameter})\n{why} * (Number {parameter})\n{why}")


@parametrize_in_one(("call", "message"), [
    (lambda x: x.pow_(None), _method_overloads("pow_", "NoneType", "exponent")),
    (lambda x: x.floor_divide_(None), _method_overloads("floor_divide_", "NoneType")),
    (lambda x: x.remainder_("a"), _method_overloads("remainder_", "str")),
    (lambda x: x.true_divide_(None), _method_overloads("true_divide_", "NoneType")),
    (lambda x: x.eq(other=None),
     "eq() received an invalid combination of arguments - got (other=NoneType, ), but expected "
     "one of:\n * (Tensor other)\n      didn't match because some of the arguments have invalid "
     "types: (!other=NoneType!, )\n * (Number other)\n      didn't match because some of the "
     "arguments have invalid types: (!other=NoneType!, )\n"),
    (lambda x: x.add(None), "add(): argument 'other' (position 1) must be Tensor, not NoneType"),
    (lambda x: mg.add(x, None),
     "add(): argument 'other' (position 2) must be Tensor, not NoneType"),
    (lambda x: x.mul("a"), "mul(): argument 'other' (position 1) must be Tensor, not str"),
    (lambda x: x.atan2_(None),
     "atan2_(): argument 'other' (position 1) must be Tensor, not NoneType"),
    (lambda x: mg.logical_and(x, 2),
     "logical_and(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda x: mg.pow(x, None),
     "pow() received an invalid combination of arguments - got (Tensor, NoneType), but expected "
     "one of:\n * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
     " * (Number self, Tensor exponent, *, Tensor out = None)\n"
     " * (Tensor input, Number exponent, *, Tensor out = None)\n"),
    (lambda x: mg.remainder(x, None),
     "remainder() received an invalid combination of arguments - got (Tensor, NoneType), but "
     "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Number self, Tensor other)\n      didn't match because some of the arguments have "
     "invalid types: (!Tensor!, !NoneType!)\n"
     " * (Tensor input, Number other, *, Tensor out = None)\n"),
])
def test_a_binary_op_given_no_operand_names_pytorchs_overloads(call, message):
    x = mg.ones(3)
    raises(lambda: call(x), TypeError, message)
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 0


@parametrize_in_one(("call", "message"), [
    (lambda x: x.pow_([1]), _method_overloads("pow_", "list", "exponent", "!list of [int]!")),
    (lambda x: x.pow_([1, 2.0, None]),
     _method_overloads("pow_", "list", "exponent", "!list of [int, float, NoneType]!")),
    (lambda x: x.remainder_(()), _method_overloads("remainder_", "tuple", marked="!tuple of ()!")),
    (lambda x: x.floor_divide_([[1], x]),
     _method_overloads("floor_divide_", "list", marked="!list of [list, Tensor]!")),
    (lambda x: x.true_divide_((x, mg.float32)), _method_overloads(
        "true_divide_", "tuple", marked="!tuple of (Tensor, minigrad.dtype)!")),
    (lambda x: x.pow_(mg.Size([1])),
     _method_overloads("pow_", "minigrad.Size", "exponent", "!minigrad.Size of (int,)!")),
    (lambda x: x.pow_(exponent=[1, 2]), _method_overloads(
        "pow_", "exponent=list, ", "exponent", "!exponent=list of [int, int]!, ")),
    (lambda x: mg.remainder(x, (1, 2)),
     "remainder() received an invalid combination of arguments - got (Tensor, tuple), but "
     "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Number self, Tensor other)\n      didn't match because some of the arguments have "
     "invalid types: (!Tensor!, !tuple of (int, int)!)\n"
     " * (Tensor input, Number other, *, Tensor out = None)\n"),
    (lambda x: mg.remainder(x, other=[1]),
     "remainder() received an invalid combination of arguments - got (Tensor, other=list), but "
     "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Number self, Tensor other)\n      didn't match because some of the arguments have "
     "invalid types: (!Tensor!, !other=list of [int]!)\n"
     " * (Tensor input, Number other, *, Tensor out = None)\n"),
    (lambda x: mg.true_divide(x, [1.5]),
     "true_divide() received an invalid combination of arguments - got (Tensor, list), but "
     "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Tensor input, Number other)\n      didn't match because some of the arguments have "
     "invalid types: (Tensor, !list of [float]!)\n"),
])
def test_a_list_or_tuple_fitting_no_overload_is_described_with_its_elements(call, message):
    x = mg.ones(3)
    raises(lambda: call(x), TypeError, message)
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 0


@parametrize_in_one(("call", "message"), [
    (lambda x: mg.isclose(x, other="a"), "isclose(): argument 'other' must be Tensor, not str"),
    (lambda x: mg.isclose(x, "a"),
     "isclose(): argument 'other' (position 2) must be Tensor, not str"),
    (lambda x: mg.isclose(input="a", other=x),
     "isclose(): argument 'input' must be Tensor, not str"),
    (lambda x: mg.isclose(x, x, rtol="a"), "isclose(): argument 'rtol' must be float, not str"),
    (lambda x: mg.isclose(x, x, "a"),
     "isclose(): argument 'rtol' (position 3) must be float, not str"),
    (lambda x: mg.allclose(x, other=None),
     "allclose(): argument 'other' must be Tensor, not NoneType"),
    (lambda x: mg.equal(x, other=1), "equal(): argument 'other' must be Tensor, not int"),
    (lambda x: mg.equal(x, 1), "equal(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda x: x.isclose(other="a"), "isclose(): argument 'other' must be Tensor, not str"),
    (lambda x: x.isclose("a"), "isclose(): argument 'other' (position 1) must be Tensor, not str"),
    (lambda x: x.allclose(other=[1.0]),
     "allclose(): argument 'other' must be Tensor, not list"),
    (lambda x: x.equal(other=None), "equal(): argument 'other' must be Tensor, not NoneType"),
    (lambda x: x.equal(None),
     "equal(): argument 'other' (position 1) must be Tensor, not NoneType"),
    (lambda x: x.dot(tensor="a"), "dot(): argument 'tensor' must be Tensor, not str"),
    (lambda x: mg.dot(x, tensor=None), "dot(): argument 'tensor' must be Tensor, not NoneType"),
])
def test_an_argument_given_by_keyword_is_named_without_a_position(call, message):
    x = mg.ones(3)
    raises(lambda: call(x), TypeError, message)


def test_copy_into_an_integer_tensor_records_nothing():
    # PyTorch's copy_ records only into a dtype that can have a gradient; fill_ records anyway.
    source = mg.ones(3, requires_grad=True)
    target = mg.zeros(3, dtype=mg.int64)
    copied = target.copy_(source)
    assert (copied.tolist(), copied.requires_grad, copied.grad_fn, target._version) == (
        [1, 1, 1], False, None, 1)
    filled = mg.zeros(3, dtype=mg.int64).fill_(mg.tensor(2.0, requires_grad=True))
    assert type(filled.grad_fn).__name__ == "FillBackward3"


@pytest.mark.parametrize(("method", "dtype", "given", "message"), [
    ("cumsum_", "int64", "float32",
     "Bad in-place call: input tensor dtype long int and output tensor dtype float should match"),
    ("cumprod_", "float32", "float64",
     "Bad in-place call: input tensor dtype float and output tensor dtype double should match"),
    ("cumsum_", "bool", "float32",
     "Bad in-place call: input tensor dtype bool and output tensor dtype float should match"),
    ("cumprod_", "int32", "int64",
     "Bad in-place call: input tensor dtype int and output tensor dtype long int should match"),
])
def test_an_in_place_cumulative_op_computes_only_in_its_tensors_dtype(
    method, dtype, given, message
):
    x = mg.tensor([1, 2, 3]).to(getattr(mg, dtype))
    raises(lambda: getattr(x, method)(0, dtype=getattr(mg, given)), RuntimeError, message)
    assert x._version == 0
    # An integer tensor keeps its width (out of place, cumsum widens to int64).
    y = mg.tensor([100, 100, 100], dtype=mg.int8)
    assert y.cumsum_(0, dtype=mg.int8).tolist() == [100, -56, 44]
    assert y.dtype == mg.int8 and y._version == 1


_UNPACK = "argument 'size' failed to unpack the object at pos {} with error \"type must be " \
          "tuple of ints,but got {}\""


@parametrize_in_one(("call", "message"), [
    (lambda: mg.zeros("a"), "zeros(): argument 'size' (position 1) must be tuple of ints, not str"),
    (lambda: mg.ones(2.0), "ones(): argument 'size' (position 1) must be tuple of ints, not float"),
    (lambda: mg.ones(True), "ones(): argument 'size' (position 1) must be tuple of ints, not bool"),
    (lambda: mg.empty(None),
     "empty(): argument 'size' (position 1) must be tuple of ints, not NoneType"),
    (lambda: mg.zeros([2.0]), "zeros(): argument 'size' (position 1) must be tuple of ints, but "
                              "found element of type float at pos 0"),
    (lambda: mg.zeros((True, 2)), "zeros(): argument 'size' (position 1) must be tuple of ints, "
                                  "but found element of type bool at pos 0"),
    (lambda: mg.zeros((2, "a")), "zeros(): " + _UNPACK.format(2, "str")),
    (lambda: mg.ones(2, 3, 4.0), "ones(): " + _UNPACK.format(3, "float")),
    (lambda: mg.rand(2, None), "rand(): " + _UNPACK.format(2, "NoneType")),
    (lambda: mg.zeros(2.0, 3), "zeros() takes 1 positional argument but 2 were given"),
    (lambda: mg.full("a", 1.0),
     "full(): argument 'size' (position 1) must be tuple of ints, not str"),
    (lambda: mg.full([2.5], 1.0), "full(): argument 'size' (position 1) must be tuple of ints, "
                                  "but found element of type float at pos 0"),
    (lambda: mg.ones(1).new_zeros("a"),
     "new_zeros(): argument 'size' (position 1) must be tuple of ints, not str"),
    (lambda: mg.ones(1).new_ones(2, 2.0), "new_ones(): " + _UNPACK.format(2, "float")),
    (lambda: mg.ones(1).new_empty([None]), "new_empty(): argument 'size' (position 1) must be "
                                           "tuple of ints, but found element of type NoneType at "
                                           "pos 0"),
    (lambda: mg.ones(1).new_full(None, 1.0),
     "new_full(): argument 'size' (position 1) must be tuple of ints, not NoneType"),
])
def test_a_factory_given_a_bad_size_says_so_in_its_own_name(call, message):
    raises(call, TypeError, message)


def test_a_factory_size_after_the_first_may_be_a_bool():
    assert tuple(mg.zeros(2, True, 3).shape) == (2, 1, 3)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mg.linalg.cholesky("a"),
     "linalg_cholesky(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: mg.linalg.cholesky_ex(None),
     "linalg_cholesky_ex(): argument 'input' (position 1) must be Tensor, not NoneType"),
    (lambda: mg.linalg.eigh("a"),
     "linalg_eigh(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: mg.linalg.eigvalsh("a"),
     "linalg_eigvalsh(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: mg.qr("a"), "qr(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: mg.nn.functional.logsigmoid("a"),
     "log_sigmoid(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: mg.nn.functional.kl_div(mg.ones(2), mg.ones(2), None, None, "sum", "a"),
     "kl_div(): argument 'log_target' must be bool, not str"),
])
def test_a_wrong_argument_is_named_as_pytorchs_parser_names_it(call, message):
    raises(call, TypeError, message)


@pytest.mark.parametrize(("call", "message"), [
    (lambda t: t.cumsum(0, dtype=5), "cumsum(): argument 'dtype' must be minigrad.dtype, not int"),
    (lambda t: mg.ones(2, dtype=str), "ones(): argument 'dtype' must be minigrad.dtype, not type"),
    (lambda t: mg.zeros(2, dtype="float32"),
     "zeros(): argument 'dtype' must be minigrad.dtype, not str"),
])
def test_a_dtype_argument_that_is_no_dtype_is_a_type_error(call, message):
    raises(lambda: call(mg.ones(3)), TypeError, message)


def test_sum_and_mean_refuse_a_number_as_dtype():
    t = mg.ones(3)
    for call in (lambda: t.sum(dtype=5), lambda: mg.sum(t, dtype=5), lambda: t.prod(dtype=1.0)):
        with pytest.raises(TypeError):  # PyTorch lists sum's overloads: only the type is compared
            call()


def test_python_number_types_are_dtypes():
    t = mg.ones(3)
    assert mg.sum(t, dtype=float).dtype == mg.float64
    assert t.prod(dtype=float).dtype == mg.float64
    assert t.cumsum(0, dtype=int).tolist() == [1, 2, 3]
    assert mg.tensor([1.0], dtype=int).dtype == mg.int64


def _ones(shape, dtype="float32"):
    return mg.ones(*shape, dtype=getattr(mg, dtype))


# addmm's meta function compares the dtypes (input's, then mat1's, with mat2's) before any
# shape; F.linear with a bias is addmm(bias, input, weight.t()). baddbmm's expands its input
# to the product's shape (read off the batches' sizes) and compares input's dtype with
# batch1's; its kernel reads batch2 as batch1's dtype.
@parametrize_in_one(("call", "error", "message"), [
    (lambda: mg.addmm(_ones((2,)), _ones((3, 5), "bool"), _ones((4, 2))), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Bool and Float"),
    (lambda: mg.addmm(_ones((7,), "bool"), _ones((3, 4)), _ones((4, 2))), RuntimeError,
     "self and mat2 must have the same dtype, but got Bool and Float"),
    (lambda: mg.addmm(_ones((2,)), _ones((3, 4, 1), "int64"), _ones((4, 2))), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Long and Float"),
    (lambda: mg.nn.functional.linear(_ones((3, 4)), _ones((2, 5), "bool"), _ones((2,))),
     RuntimeError, "self and mat2 must have the same dtype, but got Float and Bool"),
    (lambda: mg.nn.functional.linear(_ones((4,)), _ones((2, 4), "int64"), _ones((2,))),
     RuntimeError, "self and mat2 must have the same dtype, but got Float and Long"),
    (lambda: mg.baddbmm(_ones((2, 3, 5)), _ones((1, 2, 1, 3)), _ones((2, 4, 5))), RuntimeError,
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
     "dimension 1.  Target sizes: [1, 2, 5].  Tensor sizes: [2, 3, 5]"),
    (lambda: mg.baddbmm(_ones((2, 3, 5)), _ones((7,)), _ones((2, 4, 5))), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: mg.baddbmm(_ones((2, 3, 5)), mg.tensor(1.0), _ones((2, 4, 5))), IndexError,
     "Dimension specified as 0 but tensor has no dimensions"),
    (lambda: mg.baddbmm(_ones((5,), "bool"), _ones((1, 2, 1, 3)), _ones((2, 4, 5))),
     RuntimeError, "Input dtypes must be the same, got: input bool, batch1: float, batch2: float"),
    (lambda: mg.baddbmm(_ones((2, 3, 5)), _ones((2, 3, 4)), _ones((2, 4, 5), "bool")),
     RuntimeError, "expected scalar type Float but found Bool"),
    (lambda: mg.baddbmm(_ones((2, 3, 5), "bool"), _ones((2, 3, 4), "bool"), _ones((2, 4, 5))),
     NotImplementedError, "\"baddbmm\" not implemented for 'Bool'"),
    # (F.linear with a bias: addmm, on a matrix or on the rows of a flattened batch)
    (lambda: mg.nn.functional.linear(_ones((2, 3), "bool"), _ones((4, 3), "bool"),
                                     _ones((4,), "bool")),
     NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    (lambda: mg.nn.functional.linear(_ones((5, 2, 3), "bool"), _ones((4, 3), "bool"),
                                     _ones((4,), "bool")),
     NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
])
def test_the_matrix_products_check_their_arguments_in_pytorchs_order(call, error, message):
    raises(call, error, message)


_F = mg.nn.functional


# Functions PyTorch writes in Python: what their Python does first decides the error
# (``input.sigmoid()``, dropout's ``p < 0.0``), and they pass every argument by position to
# the kernel's parser (whose name the messages say: max_pool2d_with_indices when asked for
# the indices).
@parametrize_in_one(("call", "error", "message"), [
    (lambda: _F.sigmoid("a"), AttributeError, "'str' object has no attribute 'sigmoid'"),
    (lambda: _F.tanh(None), AttributeError, "'NoneType' object has no attribute 'tanh'"),
    (lambda: _F.dropout(mg.ones(3), "a"), TypeError,
     "'<' not supported between instances of 'str' and 'float'"),
    (lambda: _F.dropout("a", 0.5), TypeError,
     "dropout(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: _F.dropout(mg.ones(3), 0.5, training=None), TypeError,
     "dropout(): argument 'train' (position 3) must be bool, not NoneType"),
    (lambda: _F.dropout(mg.ones(3), 0.5, training="a", inplace=True), TypeError,
     "dropout_(): argument 'train' (position 3) must be bool, not str"),
    (lambda: _F.pad(mg.ones(2, 3), (1, 1), value="a"), TypeError,
     "pad(): argument 'value' (position 4) must be float, not str"),
    (lambda: _F.pad(mg.ones(2, 3), (1, 1), mode=1), TypeError,
     "pad(): argument 'mode' (position 3) must be str, not int"),
    (lambda: _F.max_pool2d("a", 2, return_indices=True), TypeError,
     "max_pool2d_with_indices(): argument 'input' (position 1) must be Tensor, not str"),
    (lambda: _F.max_pool2d(mg.ones(1, 1, 4, 4), kernel_size=2.0), TypeError,
     "max_pool2d(): argument 'kernel_size' (position 2) must be tuple of ints, not float"),
    (lambda: _F.max_pool2d(mg.ones(1, 1, 4, 4), 2, stride="a"), TypeError,
     "max_pool2d(): argument 'stride' (position 3) must be tuple of ints, not str"),
    (lambda: _F.max_pool2d(mg.ones(1, 1, 4, 4), 2, ceil_mode=None, return_indices=True),
     TypeError,
     "max_pool2d_with_indices(): argument 'ceil_mode' (position 6) must be bool, not NoneType"),
])
def test_a_python_level_function_fails_where_pytorchs_python_does(call, error, message):
    raises(call, error, message)


def test_dropout_takes_a_zero_dim_tensor_as_its_probability():
    x = mg.ones(3)
    assert _F.dropout(x, mg.tensor(0.0)) is x
    assert _F.pad(mg.ones(1), (1, 0), value=mg.tensor(2.0)).tolist() == [2.0, 1.0]


def test_a_keyword_argument_is_named_without_a_position_by_the_parser():
    raises(lambda: _F.avg_pool2d(mg.ones(1, 1, 4, 4), kernel_size=2.0), TypeError,
           "avg_pool2d(): argument 'kernel_size' must be tuple of ints, not float")
    raises(lambda: _F.avg_pool2d(mg.ones(1, 1, 4, 4), 2.0), TypeError,
           "avg_pool2d(): argument 'kernel_size' (position 2) must be tuple of ints, not float")


@pytest.mark.parametrize(("value", "expected"), [
    (lambda: mg.tensor(2), "abab"), (lambda: mg.tensor([2]), "abab"),
    (lambda: mg.tensor(True), "ab"),
])
def test_a_one_element_integer_tensor_is_an_index(value, expected):
    assert "ab" * value() == expected
    assert [1, 2, 3][value():] == [1, 2, 3][int(value()):]


@pytest.mark.parametrize("value", [lambda: mg.tensor(2.0), lambda: mg.tensor([1, 2])])
def test_any_other_tensor_is_no_index(value):
    raises(lambda: "ab" * value(), TypeError,
           "only integer tensors of a single element can be converted to an index")


# masked_fill and masked_scatter expand mask and input together first (a mask that does not
# broadcast fails there), then check the mask's dtype; their in-place forms check it first.
@pytest.mark.parametrize(("call", "message"), [
    (lambda x: x.masked_fill(mg.ones(7), 0.0),
     "The size of tensor a (7) must match the size of tensor b (4) at non-singleton dimension 1"),
    (lambda x: mg.masked_fill(x, mg.ones(1, 2, 1, 3), 0.0),
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 3"),
    (lambda x: x.masked_fill(mg.ones(4), 0.0),
     "masked_fill_ only supports boolean masks, but got mask with dtype float"),
    (lambda x: x.masked_fill_(mg.ones(7), 0.0),
     "masked_fill_ only supports boolean masks, but got mask with dtype float"),
    (lambda x: x.masked_scatter(mg.ones(7), x),
     "The size of tensor a (7) must match the size of tensor b (4) at non-singleton dimension 1"),
    (lambda x: x.masked_scatter(mg.ones(4), x),
     "masked_scatter_ only supports boolean masks, but got mask with dtype Float"),
])
def test_a_masked_op_checks_the_broadcast_before_the_mask(call, message):
    x = mg.ones(3, 4)
    raises(lambda: call(x), RuntimeError, message)
    assert x._version == 0


# PyTorch's C++ messages name a bool tensor's type by its backend name, CPUBoolType.
@pytest.mark.parametrize(("call", "message"), [
    (lambda: mg.nn.functional.conv2d(_ones((2, 4, 5, 6)), _ones((4, 4, 3, 3), "bool")),
     "Input type (minigrad.FloatTensor) and weight type (CPUBoolType) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: mg.nn.functional.embedding(mg.tensor([True]), _ones((3, 2))),
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
     "Long, Int; but got CPUBoolType instead (while checking arguments for embedding)"),
])
def test_a_bool_tensor_is_named_by_its_backend_type(call, message):
    raises(call, RuntimeError, message)


# An int list (``int[]``) is checked as PyTorch's parser checks it, at the position of the
# call (a method's is one less than the function's; a keyword argument has none).
@pytest.mark.parametrize(("call", "message"), [
    (lambda x: x.flip("a"), "flip(): argument 'dims' (position 1) must be tuple of ints, not str"),
    (lambda x: mg.flip(x, None),
     "flip(): argument 'dims' (position 2) must be tuple of ints, not NoneType"),
    (lambda x: mg.flip(x, 1),
     "flip(): argument 'dims' (position 2) must be tuple of ints, not int"),
    (lambda x: mg.flip(x, (1.0,)), "flip(): argument 'dims' (position 2) must be tuple of ints, "
                                   "but found element of type float at pos 0"),
    (lambda x: x.flip(0, 1.5), "flip(): argument 'dims' failed to unpack the object at pos 2 with "
                               "error \"type must be tuple of ints,but got float\""),
    (lambda x: mg.flip(x, dims="a"), "flip(): argument 'dims' must be tuple of ints, not str"),
    (lambda x: x.logsumexp(1.5),
     "logsumexp(): argument 'dim' (position 1) must be tuple of ints, not float"),
    (lambda x: mg.logsumexp(x, None),
     "logsumexp(): argument 'dim' (position 2) must be tuple of ints, not NoneType"),
    (lambda x: x.logsumexp(dim="a"), "logsumexp(): argument 'dim' must be tuple of ints, not str"),
])
def test_an_int_list_argument_is_checked_at_the_calls_position(call, message):
    raises(lambda: call(mg.ones(2, 3)), TypeError, message)


@pytest.mark.parametrize("call", [lambda x: x.split(2, 1.5), lambda x: mg.split(x, 2, 1.5)])
def test_split_by_a_size_lists_its_kernels_overloads(call):
    raises(lambda: call(mg.ones(4, 3)), TypeError,
           "split() received an invalid combination of arguments - got (Tensor, int, float), but "
           "expected one of:\n"
           " * (Tensor input, int split_size, int dim = 0)\n"
           "      didn't match because some of the arguments have invalid types: (Tensor, int, "
           "!float!)\n"
           " * (Tensor input, tuple of ints split_size, int dim = 0)\n"
           "      didn't match because some of the arguments have invalid types: (Tensor, !int!, "
           "!float!)\n")
    raises(lambda: mg.split(mg.ones(4, 3), [2, 2], 1.5), TypeError,
           "split_with_sizes(): argument 'dim' (position 3) must be int, not float")


# The operands of an op broadcast one after the other (PyTorch's TensorIterator): the first
# that does not fit the shape so far is named, the third operand too.
@pytest.mark.parametrize(("call", "message"), [
    (lambda x: x.addcmul_(x, mg.ones(7)),
     "The size of tensor a (4) must match the size of tensor b (7) at non-singleton dimension 1"),
    (lambda x: x.clamp_(x, mg.ones(1, 2, 1, 3)),
     "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 3"),
])
def test_a_third_operand_that_does_not_broadcast_is_named(call, message):
    x = mg.ones(3, 4)
    raises(lambda: call(x), RuntimeError, message)
    assert x.tolist() == [[1.0] * 4] * 3
    assert x._version == 0


# The first parameter given decides whether a norm mixes dtypes (mixed_dtype.h: every
# parameter must then be float, and the input of reduced precision); if not, the kernel reads
# the other parameters as the input's dtype.
@pytest.mark.parametrize(("call", "message"), [
    (lambda x, w: mg.nn.functional.layer_norm(x, (3,), w, w.bool()),
     "expected scalar type Float but found Bool"),
    (lambda x, w: mg.nn.functional.layer_norm(x, (3,), w.long()),
     "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    (lambda x, w: mg.nn.functional.layer_norm(x.double(), (3,), w.bool()),
     "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    (lambda x, w: mg.nn.functional.layer_norm(x.double(), (3,), w),
     "mixed dtype (CPU): all inputs must share same datatype."),
    (lambda x, w: mg.nn.functional.batch_norm(x, w, w.bool()),
     "expected scalar type Float but found Bool"),
    (lambda x, w: mg.nn.functional.batch_norm(x, w, w, w, w.double()),
     "expected scalar type Float but found Double"),
])
def test_a_norm_checks_its_parameters_dtypes_as_pytorch_does(call, message):
    raises(lambda: call(mg.ones(2, 3), mg.ones(3)), RuntimeError, message)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mg.tensor(1.0).size(0), "Dimension specified as 0 but tensor has no dimensions"),
    (lambda: mg.tensor(1.0).size(-1), "Dimension specified as -1 but tensor has no dimensions"),
    (lambda: mg.ones(3).size(1),
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: mg.nn.functional.bilinear(_ones((3, 2)), _ones((3, 4)), _ones((7,)), _ones((5,))),
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: mg.nn.functional.bilinear(_ones((3, 2)), _ones((3, 4)), _ones((5, 2, 4)),
                                       mg.tensor(1.0)),
     "Dimension specified as 0 but tensor has no dimensions"),
])
def test_a_size_a_tensor_lacks_is_an_index_error(call, message):
    raises(call, IndexError, message)


def test_bce_with_logits_refuses_a_bool_target_as_its_kernel_does():
    # (PyTorch's kernel computes ``(1 - target)``: no subtraction for bool tensors)
    x = mg.ones(3, requires_grad=True)
    raises(lambda: mg.nn.functional.binary_cross_entropy_with_logits(x, x.detach().bool()),
           RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not supported. "
           "Use the `^` or `logical_xor()` operator instead.")
    raises(lambda: mg.nn.functional.binary_cross_entropy_with_logits(x, x.detach().long()),
           RuntimeError, "result type Float can't be cast to the desired output type Long")
