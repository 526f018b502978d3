"""The Tensor API the autograd tests stand on: factories, dtypes, promotion, metadata, errors.

Every expected value and text here is what PyTorch 2.13 printed for the same program.
"""
import math

import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

# ---- tensor() infers the dtype ---------------------------------------------------------------

INFERRED = [
    ("float list", [1.0, 2.0], "float32", (2,)),
    ("int list", [1, 2], "int64", (2,)),
    ("bool list", [True, False], "bool", (2,)),
    ("float scalar", 1.5, "float32", ()),
    ("int scalar", 3, "int64", ()),
    ("bool scalar", True, "bool", ()),
    ("int and float", [1, 2.5], "float32", (2,)),
    ("bool and int", [True, 2], "int64", (2,)),
    ("nested ints", [[1, 2], [3, 4]], "int64", (2, 2)),
    ("empty list", [], "float32", (0,)),
    ("float64 array", np.array([1.0, 2.0]), "float64", (2,)),
    ("int32 array", np.array([1, 2], dtype=np.int32), "int32", (2,)),
    ("float32 array", np.array([1.0], dtype=np.float32), "float32", (1,)),
    ("numpy float64 scalar", np.float64(1.0), "float64", ()),
]


@parametrize_in_one(("name", "data", "dtype", "shape"), INFERRED, ids=[r[0] for r in INFERRED])
def test_tensor_infers_dtype_and_shape(name, data, dtype, shape):
    t = mg.tensor(data)
    assert t.dtype == getattr(mg, dtype)
    assert t.shape == shape


def test_tensor_with_explicit_dtype_converts():
    assert mg.tensor([1, 2], dtype=mg.float64).dtype == mg.float64
    assert mg.tensor([1.5, 2.7], dtype=mg.int64).tolist() == [1, 2]  # truncates
    # Python's own types are accepted as dtypes.
    assert mg.tensor([1.0], dtype=float).dtype == mg.float64
    assert mg.tensor([1.0], dtype=int).dtype == mg.int64
    assert mg.tensor([1], dtype=bool).dtype == mg.bool


def test_dtype_aliases_and_names():
    assert (mg.float, mg.double, mg.long) == (mg.float32, mg.float64, mg.int64)
    assert str(mg.float32) == text("minigrad.float32")
    assert repr(mg.float64) == text("minigrad.float64")
    assert str(mg.bool) == text("minigrad.bool")


# ---- factories -------------------------------------------------------------------------------

FACTORIES = [
    ("zeros", lambda: mg.zeros(2, 3), "float32", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ("zeros(tuple)", lambda: mg.zeros((2, 3)), "float32", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ("zeros(())", lambda: mg.zeros(()), "float32", 0.0),
    ("zeros(0)", lambda: mg.zeros(0), "float32", []),
    ("zeros(int64)", lambda: mg.zeros(2, dtype=mg.int64), "int64", [0, 0]),
    ("ones", lambda: mg.ones(2), "float32", [1.0, 1.0]),
    ("full(float)", lambda: mg.full((2, 2), 1.5), "float32", [[1.5, 1.5], [1.5, 1.5]]),
    ("full(int)", lambda: mg.full((2,), 7), "int64", [7, 7]),  # dtype follows the fill value
    ("full(bool)", lambda: mg.full((2,), True), "bool", [True, True]),
    ("arange(int)", lambda: mg.arange(5), "int64", [0, 1, 2, 3, 4]),
    ("arange(start, end, step)", lambda: mg.arange(1, 10, 3), "int64", [1, 4, 7]),
    ("arange(float step)", lambda: mg.arange(0, 1, 0.25), "float32", [0.0, 0.25, 0.5, 0.75]),
    ("arange(float end)", lambda: mg.arange(3.0), "float32", [0.0, 1.0, 2.0]),
    ("linspace", lambda: mg.linspace(0, 1, 5), "float32", [0.0, 0.25, 0.5, 0.75, 1.0]),
    ("linspace(-1, 1, 3)", lambda: mg.linspace(-1, 1, 3), "float32", [-1.0, 0.0, 1.0]),
    ("zeros_like(int)", lambda: mg.zeros_like(mg.tensor([1, 2])), "int64", [0, 0]),
    ("ones_like(float64)", lambda: mg.ones_like(mg.tensor([[1.0, 2.0]], dtype=mg.float64)),
     "float64", [[1.0, 1.0]]),
    ("from_numpy(int)", lambda: mg.from_numpy(np.arange(3)), "int64", [0, 1, 2]),
    ("from_numpy(float32)", lambda: mg.from_numpy(np.ones(2, dtype=np.float32)), "float32",
     [1.0, 1.0]),
]


@parametrize_in_one(("name", "make", "dtype", "values"), FACTORIES,
                         ids=[r[0] for r in FACTORIES])
def test_factory_values_and_dtype(name, make, dtype, values):
    t = make()
    assert t.dtype == getattr(mg, dtype)
    assert t.tolist() == values
    assert (t.requires_grad, t.is_leaf, t._version) == (False, True, 0)


RANDOM_FACTORIES = [
    ("empty", lambda: mg.empty(2, 3), (2, 3)),
    ("rand", lambda: mg.rand(2, 2), (2, 2)),
    ("randn", lambda: mg.randn(3), (3,)),
    ("randn_like", lambda: mg.randn_like(mg.zeros(2, 2)), (2, 2)),
]


@pytest.mark.parametrize(("name", "make", "shape"), RANDOM_FACTORIES,
                         ids=[r[0] for r in RANDOM_FACTORIES])
def test_uninitialised_and_random_factories_shape_and_dtype(name, make, shape):
    t = make()
    assert (t.shape, t.dtype, t.requires_grad) == (shape, mg.float32, False)


def test_rand_is_in_unit_interval_and_manual_seed_makes_it_reproducible():
    # The generators differ between libraries, so only reproducibility is compared, not values.
    mg.manual_seed(0)
    first = mg.rand(1000)
    normal = mg.randn(3).tolist()
    mg.manual_seed(0)
    assert mg.rand(1000).tolist() == first.tolist()
    assert mg.randn(3).tolist() == normal
    assert first.numpy().min() >= 0.0
    assert first.numpy().max() < 1.0


def test_factory_requires_grad_makes_a_leaf():
    t = mg.zeros(2, requires_grad=True)
    assert (t.requires_grad, t.is_leaf, t.grad_fn) == (True, True, None)
    assert mg.full((2,), 1.0, requires_grad=True).requires_grad is True


def test_like_factories_do_not_copy_requires_grad():
    assert mg.zeros_like(mg.ones(2, requires_grad=True)).requires_grad is False


def test_from_numpy_shares_memory_with_the_array():
    arr = np.array([1.0, 2.0, 3.0])
    t = mg.from_numpy(arr)
    assert t.dtype == mg.float64
    t.add_(1)
    assert arr.tolist() == [2.0, 3.0, 4.0]


# ---- dtype promotion -------------------------------------------------------------------------

F32 = [1.0, 2.0]
I64 = [1, 2]
PROMOTION = [
    ("float32 * python float", lambda: mg.tensor(F32) * 2.5, "float32", [2.5, 5.0]),
    ("int64 * python float", lambda: mg.tensor(I64) * 2.5, "float32", [2.5, 5.0]),
    ("int64 * python int", lambda: mg.tensor(I64) * 2, "int64", [2, 4]),
    ("int64 / int64", lambda: mg.tensor(I64) / mg.tensor([2, 4]), "float32", [0.5, 0.5]),
    ("int64 / python int", lambda: mg.tensor(I64) / 2, "float32", [0.5, 1.0]),
    ("int64 // python int", lambda: mg.tensor(I64) // 2, "int64", [0, 1]),
    ("float32 + int64", lambda: mg.tensor(F32) + mg.tensor(I64), "float32", [2.0, 4.0]),
    ("0-d float64 * float32", lambda: mg.tensor(2.0, dtype=mg.float64) * mg.tensor(F32),
     "float32", [2.0, 4.0]),
    ("float64 * float32", lambda: mg.tensor(F32, dtype=mg.float64) * mg.tensor(F32),
     "float64", [1.0, 4.0]),
    ("0-d float32 * int64", lambda: mg.tensor(2.5) * mg.tensor(I64), "float32", [2.5, 5.0]),
    ("0-d float64 * int64", lambda: mg.tensor(2.5, dtype=mg.float64) * mg.tensor(I64),
     "float64", [2.5, 5.0]),
    ("0-d int64 * float32", lambda: mg.tensor(2) * mg.tensor(F32), "float32", [2.0, 4.0]),
    ("bool + bool", lambda: mg.tensor([True, False]) + mg.tensor([True, False]), "bool",
     [True, False]),
    ("bool + python int", lambda: mg.tensor([True, False]) + 1, "int64", [2, 1]),
    ("bool * python float", lambda: mg.tensor([True, False]) * 1.5, "float32", [1.5, 0.0]),
    ("int64 ** 2", lambda: mg.tensor(I64) ** 2, "int64", [1, 4]),
    ("2 ** int64", lambda: 2 ** mg.tensor(I64), "int64", [2, 4]),
    ("int64.sum()", lambda: mg.tensor(I64).sum(), "int64", 3),
    ("bool.sum()", lambda: mg.tensor([True, False]).sum(), "int64", 1),
    ("int64.exp()", lambda: mg.tensor(I64).exp(), "float32", [2.7182817, 7.3890562]),
    ("float32 + numpy float64", lambda: mg.tensor(F32) + np.float64(1.5), "float32", [2.5, 3.5]),
]


@parametrize_in_one(("name", "compute", "dtype", "values"), PROMOTION,
                         ids=[r[0] for r in PROMOTION])
def test_dtype_promotion(name, compute, dtype, values):
    t = compute()
    assert t.dtype == getattr(mg, dtype)
    np.testing.assert_allclose(np.asarray(t.tolist()), values, rtol=1e-6)


def test_python_float_overflowing_float32_gives_inf_not_float64():
    t = mg.tensor(F32) + 1e40
    assert t.dtype == mg.float32
    assert t.tolist() == [math.inf, math.inf]


def test_mean_of_an_integer_tensor_raises():
    with pytest.raises(RuntimeError) as excinfo:
        mg.tensor(I64).mean()
    assert str(excinfo.value) == (
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: Long"
    )


# ---- metadata --------------------------------------------------------------------------------


def test_shape_size_dim_numel():
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == (2, 3)
    assert isinstance(x.shape, tuple)
    assert x.size() == x.shape == mg.Size([2, 3])
    assert (x.size(0), x.size(1), x.size(-1)) == (2, 3, 3)
    assert (x.dim(), x.ndim, x.numel()) == (2, 2, 6)
    assert x.dtype == mg.float32
    assert repr(x.shape) == text("minigrad.Size([2, 3])")
    assert str(mg.tensor(1.5).shape) == text("minigrad.Size([])")


SIZE_RESULTS = [
    ("slice", lambda s: s[1:], "minigrad.Size([3, 4])"),
    ("reversed", lambda s: s[::-1], "minigrad.Size([4, 3, 2])"),
    ("plus tuple", lambda s: s + (5,), "minigrad.Size([2, 3, 4, 5])"),
    ("tuple plus", lambda s: (5,) + s, "minigrad.Size([5, 2, 3, 4])"),
    ("times", lambda s: s * 2, "minigrad.Size([2, 3, 4, 2, 3, 4])"),
    ("times on the left", lambda s: 2 * s, "minigrad.Size([2, 3, 4, 2, 3, 4])"),
    ("emptied", lambda s: s[1:] * 0, "minigrad.Size([])"),
    ("bools and numpy ints", lambda s: type(s)([True, np.int64(4)]), "minigrad.Size([1, 4])"),
    ("a 0-d int tensor", lambda s: type(s)((mg.tensor(3),)), "minigrad.Size([3])"),
]


@pytest.mark.parametrize(("name", "step", "expected"), SIZE_RESULTS,
                         ids=[r[0] for r in SIZE_RESULTS])
def test_size_operations_give_sizes(name, step, expected):
    assert repr(step(mg.zeros(2, 3, 4).shape)) == text(expected)


@pytest.mark.parametrize(("items", "message"), [
    ([1.5], "minigrad.Size() takes an iterable of 'int' (item 0 is 'float')"),
    ([2, "3"], "minigrad.Size() takes an iterable of 'int' (item 1 is 'str')"),
    ((mg.tensor(3.0),), "minigrad.Size() takes an iterable of 'int' (item 0 is 'Tensor')"),
])
def test_size_of_non_ints_is_a_type_error(items, message):
    with pytest.raises(TypeError) as info:
        mg.Size(items)
    assert str(info.value) == text(message)


def test_size_concatenates_tuples_only():
    with pytest.raises(TypeError, match=r"can only concatenate tuple \(not list\) to"):
        mg.zeros(2).shape + [1]


def test_older_names_and_byte_sizes():
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert (x.nelement(), x.ndimension()) == (6, 2)
    assert (x.element_size(), x.itemsize, x.nbytes) == (4, 4, 24)
    # nbytes counts the elements, whatever the strides: a slice, an expanded tensor
    assert mg.ones(4, 4)[:, :2].nbytes == 32
    assert mg.ones(1).expand(5).nbytes == 20
    assert mg.ones(3, dtype=mg.float64).itemsize == 8
    assert mg.tensor([1], dtype=mg.int16).element_size() == 2


@pytest.mark.parametrize(("dtype", "signed"), [
    ("float32", True), ("float16", True), ("int64", True), ("int8", True), ("uint8", False),
    ("bool", False),
])
def test_is_signed_and_is_complex(dtype, signed):
    x = mg.zeros(2, dtype=getattr(mg, dtype))
    assert x.is_signed() is signed
    assert mg.is_signed(x) is signed
    assert x.is_complex() is False
    assert mg.is_complex(x) is False


def test_is_nonzero_of_one_element_and_its_errors():
    assert mg.tensor([[0]]).is_nonzero() is False
    assert mg.is_nonzero(mg.tensor(2)) is True
    assert mg.tensor(float("nan")).is_nonzero() is True
    with pytest.raises(RuntimeError) as many:
        mg.tensor([1.0, 2.0]).is_nonzero()
    assert str(many.value) == "Boolean value of Tensor with more than one value is ambiguous"
    for empty in (lambda: mg.is_nonzero(mg.tensor([])), lambda: bool(mg.tensor([]))):
        with pytest.raises(RuntimeError) as none:
            empty()
        assert str(none.value) == "Boolean value of Tensor with no values is ambiguous"


def test_is_same_size():
    x = mg.ones(2, 3)
    assert x.is_same_size(mg.zeros(2, 3)) is True
    assert mg.is_same_size(x, x.t()) is False
    with pytest.raises(TypeError) as excinfo:
        x.is_same_size(2)
    assert str(excinfo.value) == (
        "is_same_size(): argument 'other' (position 1) must be Tensor, not int")


def test_positive_is_the_tensor_itself_and_refuses_bools():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    assert mg.positive(x) is x
    assert x.positive() is x
    assert +x is x
    for plus in (lambda b: +b, mg.positive, lambda b: b.positive()):
        with pytest.raises(RuntimeError) as excinfo:
            plus(mg.tensor([True]))
        assert str(excinfo.value) == "The `+` operator, on a bool tensor is not supported."


def test_size_with_a_dimension_out_of_range():
    x = mg.zeros(2, 3)
    with pytest.raises(IndexError) as excinfo:
        x.size(2)
    assert str(excinfo.value) == (
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    )


def test_item_returns_python_numbers():
    assert mg.tensor(0.1).item() == 0.10000000149011612  # the float32 value, widened
    assert type(mg.tensor(3).item()) is int
    assert type(mg.tensor(True).item()) is bool
    assert mg.tensor([[7.0]]).item() == 7.0  # any one-element tensor


@pytest.mark.parametrize(("shape", "count"), [((2, 3), 6), ((0,), 0)])
def test_item_of_a_tensor_with_other_than_one_element_raises(shape, count):
    with pytest.raises(RuntimeError) as excinfo:
        mg.zeros(shape).item()
    assert str(excinfo.value) == f"a Tensor with {count} elements cannot be converted to Scalar"


def test_tolist():
    assert mg.tensor([[1.0, 2.0], [3.0, 4.0]]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert mg.tensor(2.5).tolist() == 2.5
    assert type(mg.tensor([1, 2]).tolist()[0]) is int
    assert mg.tensor([[True, False]]).tolist() == [[True, False]]
    # tolist() and item() work on tensors that require grad.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert x.tolist() == [1.0, 2.0]
    assert x.sum().item() == 3.0


def test_numpy_of_a_tensor_that_requires_grad_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    for t in (x, x * 2):
        with pytest.raises(RuntimeError) as excinfo:
            t.numpy()
        assert str(excinfo.value) == (
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
        )
    arr = x.detach().numpy()
    assert (type(arr), arr.dtype) == (np.ndarray, np.float32)


def test_numpy_shares_memory():
    t = mg.tensor([1.0, 2.0])
    arr = t.numpy()
    arr[0] = 9.0
    assert t.tolist() == [9.0, 2.0]
    assert np.shares_memory(arr, t.numpy())


# ---- requires_grad rules ---------------------------------------------------------------------

NON_LEAF = "you can only change requires_grad flags of leaf variables."
# Three entry points, three slightly different texts for integer and bool tensors.
INT_SETTER = "only Tensors of floating point and complex dtype can require gradients"
INT_METHOD = "only Tensors of floating point dtype can require gradients"
INT_FACTORY = "Only Tensors of floating point and complex dtype can require gradients"


def test_requires_grad_on_a_leaf_can_be_switched_both_ways():
    t = mg.tensor([1.0, 2.0])
    t.requires_grad = True
    assert (t.requires_grad, t.is_leaf) == (True, True)
    t.requires_grad_(False)
    assert t.requires_grad is False
    assert t.requires_grad_() is t
    assert t.requires_grad is True


def test_setting_requires_grad_true_on_a_non_leaf_raises():
    y = mg.tensor([1.0, 2.0], requires_grad=True) * 2
    with pytest.raises(RuntimeError) as excinfo:
        y.requires_grad = True  # raises even though y already requires grad
    assert str(excinfo.value) == NON_LEAF


def test_setting_requires_grad_false_on_a_non_leaf_raises_with_a_hint():
    y = mg.tensor([1.0, 2.0], requires_grad=True) * 2
    expected = (
        NON_LEAF + " If you want to use a computed variable in a subgraph that doesn't require "
        "differentiation use var_no_grad = var.detach()."
    )
    with pytest.raises(RuntimeError) as excinfo:
        y.requires_grad = False
    assert str(excinfo.value) == expected
    with pytest.raises(RuntimeError) as excinfo:
        y.requires_grad_(False)
    assert str(excinfo.value) == expected


def test_requires_grad_method_true_on_a_non_leaf_is_a_no_op():
    y = mg.tensor([1.0, 2.0], requires_grad=True) * 2
    assert y.requires_grad_(True) is y
    assert (y.requires_grad, y.is_leaf) == (True, False)


def test_integer_tensors_cannot_require_grad_three_texts():
    i = mg.tensor([1, 2])
    with pytest.raises(RuntimeError) as excinfo:
        i.requires_grad = True
    assert str(excinfo.value) == INT_SETTER
    with pytest.raises(RuntimeError) as excinfo:
        i.requires_grad_()
    assert str(excinfo.value) == INT_METHOD
    with pytest.raises(RuntimeError) as excinfo:
        mg.tensor([1, 2], requires_grad=True)
    assert str(excinfo.value) == INT_FACTORY
    assert i.requires_grad is False


@pytest.mark.parametrize(
    "make",
    [lambda: mg.zeros(2, dtype=mg.int64, requires_grad=True),
     lambda: mg.arange(3, requires_grad=True)],
    ids=["zeros(int64)", "arange(int)"],
)
def test_integer_factories_cannot_require_grad(make):
    with pytest.raises(RuntimeError) as excinfo:
        make()
    assert str(excinfo.value) == INT_FACTORY


def test_bool_tensor_cannot_require_grad_and_false_is_always_fine():
    b = mg.tensor([True])
    with pytest.raises(RuntimeError) as excinfo:
        b.requires_grad = True
    assert str(excinfo.value) == INT_SETTER
    i = mg.tensor([1, 2])
    i.requires_grad = False
    assert i.requires_grad_(False) is i


def test_float64_tensor_can_require_grad():
    assert mg.tensor([1.0], dtype=mg.float64, requires_grad=True).requires_grad is True


def test_retain_grad_and_register_hook_need_requires_grad():
    t = mg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError) as excinfo:
        t.retain_grad()
    assert str(excinfo.value) == "can't retain_grad on Tensor that has requires_grad=False"
    with pytest.raises(RuntimeError) as excinfo:
        t.register_hook(lambda g: g)
    assert str(excinfo.value) == "cannot register a hook on a tensor that doesn't require gradient"


# ---- bad input -------------------------------------------------------------------------------

RAGGED = [
    ("[[1, 2], [3, 4, 5]]", [[1, 2], [3, 4, 5]], ValueError,
     "expected sequence of length 2 at dim 1 (got 3)"),
    ("[[1, 2], [3]]", [[1, 2], [3]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    ("[[[1, 2]], [[3]]]", [[[1, 2]], [[3]]], ValueError,
     "expected sequence of length 2 at dim 2 (got 1)"),
    ("[[1], 2]", [[1], 2], TypeError, "not a sequence"),
    ("[None]", [None], RuntimeError, "Could not infer dtype of NoneType"),
]


@pytest.mark.parametrize(("name", "data", "error", "message"), RAGGED, ids=[r[0] for r in RAGGED])
def test_ragged_or_invalid_nested_data_raises(name, data, error, message):
    with pytest.raises(error) as excinfo:
        mg.tensor(data)
    assert str(excinfo.value) == message


UNKNOWN_DTYPES = [
    ("tensor", lambda: mg.tensor([1.0], dtype="float32"), "str"),
    ("zeros", lambda: mg.zeros(2, dtype=np.float32), "type"),
    ("ones", lambda: mg.ones(2, dtype="float"), "str"),
]


@pytest.mark.parametrize(("factory", "make", "got"), UNKNOWN_DTYPES,
                         ids=[r[0] for r in UNKNOWN_DTYPES])
def test_unknown_dtype_raises(factory, make, got):
    with pytest.raises(TypeError) as excinfo:
        make()
    assert str(excinfo.value) == text(
        f"{factory}(): argument 'dtype' must be minigrad.dtype, not {got}"
    )


def test_half_and_short_convert_as_pytorch_does():
    # PyTorch 2.13: x.half() is float16 with grad_fn ToCopyBackward0, the gradient float32;
    # x.short() truncates toward zero into int16.
    x = mg.tensor([1.5, -2.25], requires_grad=True)
    half = x.half()
    assert half.dtype == mg.float16 and half.grad_fn.name() == "ToCopyBackward0"
    assert half.tolist() == [1.5, -2.25]
    half.sum().backward()
    assert x.grad.dtype == mg.float32 and x.grad.tolist() == [1.0, 1.0]
    short = x.short()
    assert short.dtype == mg.int16 and short.tolist() == [1, -2]


def test_char_and_byte_convert_as_pytorch_does():
    # int8 and uint8: toward zero, then wrapped (C's conversion), without a node.
    x = mg.tensor([1.5, -2.25, 300.7], requires_grad=True)
    char, byte = x.char(), x.byte()
    assert (char.dtype, char.tolist(), char.requires_grad) == (mg.int8, [1, -2, 44], False)
    assert (byte.dtype, byte.tolist(), byte.grad_fn) == (mg.uint8, [1, 254, 44], None)


def test_data_ptr_is_the_first_elements_address():
    # PyTorch 2.13: views share the address (offset by their start), copies do not, an
    # empty tensor's is 0, from_numpy keeps numpy's memory.
    x = mg.zeros(2, 3)
    assert x.t().data_ptr() == x.data_ptr() == x.detach().data_ptr() == x.data.data_ptr()
    assert x[:, 1].data_ptr() - x.data_ptr() == 4
    assert x[1].data_ptr() - x.data_ptr() == 12
    assert x.clone().data_ptr() != x.data_ptr()
    assert mg.zeros(0).data_ptr() == 0 and x[2:].data_ptr() == 0
    array = np.zeros(4, dtype=np.float32)
    assert mg.from_numpy(array[1:]).data_ptr() == array.ctypes.data + 4
    assert x.const_data_ptr() == x.data_ptr()


def test_layout_and_the_flags_of_other_kinds_of_tensor():
    x = mg.ones(2, 3)
    assert repr(x.layout) == text("minigrad.strided") and x.layout == mg.strided
    assert repr(mg.sparse_coo) == text("minigrad.sparse_coo") and mg.sparse_coo != mg.strided
    flags = ("is_sparse", "is_sparse_csr", "is_quantized", "is_meta", "is_nested", "is_mkldnn",
             "is_mps", "is_xpu", "is_xla", "is_ipu", "is_vulkan", "is_mtia", "is_maia")
    assert [getattr(x, flag) for flag in flags] == [False] * len(flags)
    assert x.is_pinned() is False
    with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is "
                                           "available."):
        x.pin_memory()


def test_is_set_to_compares_memory_start_shape_and_strides():
    x = mg.ones(2, 3)
    assert (x.is_set_to(x), x.is_set_to(x.detach()), x.is_set_to(x.view(3, 2)),
            x.is_set_to(x.t()), x.is_set_to(x[0]), x.is_set_to(x.clone())) == (
        True, True, False, False, False, False)


def test_storage_offset_of_views_and_of_tensors_with_their_own_memory():
    x = mg.arange(12.0).reshape(3, 4)
    views = (x[1], x[:, 2], x.t()[1], x[1:][1:], x.view(-1)[5:], x[1:].detach(), x.data[2],
             mg.ones(2, 3).split(1)[1], mg.ones(6).unfold(0, 2, 2)[1])
    assert [v.storage_offset() for v in views] == [4, 2, 1, 8, 5, 4, 8, 3, 2]
    assert [t.storage_offset() for t in (x, x * 2, x.flip(0), x.t().contiguous())] == [0] * 4
