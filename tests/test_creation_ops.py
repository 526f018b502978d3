"""eye, randint, randperm, tril_indices and triu_indices: values, dtypes and errors.

Expected values and messages are PyTorch 2.13's. Random factories are checked by their
properties (minigrad's generator is not PyTorch's, so the numbers differ).
"""
import numpy as np
import pytest
from _backend import LIB, mg
from _cases import parametrize_in_one

# ---- eye -------------------------------------------------------------------------------------

EYES = [
    ("eye(2)", lambda: mg.eye(2), "float32", [[1.0, 0.0], [0.0, 1.0]]),
    ("eye(2, 3)", lambda: mg.eye(2, 3), "float32", [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
    ("eye(3, 2)", lambda: mg.eye(3, 2, dtype=mg.float64), "float64",
     [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),
    ("eye(n=2, m=1)", lambda: mg.eye(n=2, m=1), "float32", [[1.0], [0.0]]),
    ("eye(0)", lambda: mg.eye(0), "float32", []),
    ("eye(2, int64)", lambda: mg.eye(2, dtype=mg.int64), "int64", [[1, 0], [0, 1]]),
    ("eye(2, bool)", lambda: mg.eye(2, dtype=mg.bool), "bool", [[True, False], [False, True]]),
]


@pytest.mark.parametrize(("name", "make", "dtype", "values"), EYES, ids=[e[0] for e in EYES])
def test_eye(name, make, dtype, values):
    x = make()
    assert x.dtype == getattr(mg, dtype)
    assert x.tolist() == values


def test_eye_shapes_and_grad():
    assert mg.eye(0).shape == (0, 0)
    x = mg.eye(2, requires_grad=True)
    assert x.requires_grad and x.is_leaf
    assert repr(x) == "tensor([[1., 0.],\n        [0., 1.]], requires_grad=True)"


EYE_ERRORS = [
    (lambda: mg.eye(-1), RuntimeError, "n must be greater or equal to 0, got -1"),
    (lambda: mg.eye(2, -1), RuntimeError, "m must be greater or equal to 0, got -1"),
    (lambda: mg.eye(-2, -3), RuntimeError, "n must be greater or equal to 0, got -2"),
    (lambda: mg.eye(2.0), TypeError, "eye(): argument 'n' (position 1) must be int, not float"),
    (lambda: mg.eye(True), TypeError, "eye(): argument 'n' (position 1) must be int, not bool"),
    (lambda: mg.eye((2, 3)), TypeError, "eye(): argument 'n' (position 1) must be int, not tuple"),
    (lambda: mg.eye(2, dtype=mg.int64, requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
]


@pytest.mark.parametrize(("call", "error", "message"), EYE_ERRORS)
def test_eye_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_eye_with_a_float_m_is_a_type_error():
    with pytest.raises(TypeError) as info:
        mg.eye(2, 3.0)
    assert str(info.value).startswith(
        "eye() received an invalid combination of arguments - got (int, float), but expected "
        "one of:\n * (int n, *, ")


# ---- randint ---------------------------------------------------------------------------------

def test_randint_forms_shapes_and_dtypes():
    mg.manual_seed(0)
    x = mg.randint(5, (200,))
    assert (x.shape, x.dtype) == ((200,), mg.int64)
    assert sorted(set(x.tolist())) == [0, 1, 2, 3, 4]  # every value is drawn, none outside
    y = mg.randint(-3, -1, (50,))
    assert sorted(set(y.tolist())) == [-3, -2]
    assert mg.randint(2, 5, (3,)).shape == (3,)
    assert mg.randint(5, size=(2, 2)).shape == (2, 2)
    assert mg.randint(low=1, high=5, size=(2,)).shape == (2,)
    assert mg.randint(size=(2,), high=3).shape == (2,)
    assert mg.randint(3, [2, 1]).shape == (2, 1)
    assert mg.randint(3, mg.Size([2])).shape == (2,)
    assert mg.randint(5, ()).shape == ()
    assert mg.randint(5, (3,), dtype=mg.float32).dtype == mg.float32
    assert set(mg.randint(2, (40,), dtype=mg.bool).tolist()) == {False, True}
    z = mg.randint(5, (3,), dtype=mg.float32, requires_grad=True)
    assert z.requires_grad and z.is_leaf


def test_randint_repeats_after_manual_seed():
    mg.manual_seed(7)
    a = mg.randint(100, (10,))
    mg.manual_seed(7)
    assert mg.randint(100, (10,)).tolist() == a.tolist()


RANDINT_ERRORS = [
    (lambda: mg.randint(5, 5, (3,)), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"),
    (lambda: mg.randint(5, 2, (3,)), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=5 >= to=2"),
    (lambda: mg.randint(0, (3,)), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=0 >= to=0"),
    (lambda: mg.randint(5, 3), TypeError,
     "randint(): argument 'size' (position 2) must be tuple of ints, not int"),
    (lambda: mg.randint(3, (2.0,)), TypeError,
     "randint(): argument 'size' (position 2) must be tuple of ints, but found element of type "
     "float at pos 0"),
    (lambda: mg.randint(5.5, (3,)), TypeError,
     "randint(): argument 'high' (position 1) must be int, not float"),
    (lambda: mg.randint(True, (2,)), TypeError,
     "randint(): argument 'high' (position 1) must be int, not bool"),
    (lambda: mg.randint(3, (-1,)), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: mg.randint(3, (-1,), dtype=mg.bool), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: mg.randint(3, (3,), dtype=mg.bool), RuntimeError, "to - 1 is out of bounds for bool"),
    (lambda: mg.randint(-1, 2, (3,), dtype=mg.bool), RuntimeError,
     "from is out of bounds for bool"),
    (lambda: mg.randint(300, (3,), dtype=mg.uint8), RuntimeError,
     "to - 1 is out of bounds for unsigned char"),
    (lambda: mg.randint(-1, 3, (3,), dtype=mg.uint8), RuntimeError,
     "from is out of bounds for unsigned char"),
    (lambda: mg.randint(-200, 0, (2,), dtype=mg.int8), RuntimeError,
     "from is out of bounds for signed char"),
    (lambda: mg.randint(0, 40000, (2,), dtype=mg.int16), RuntimeError,
     "to - 1 is out of bounds for short int"),
    (lambda: mg.randint(0, 2**31 + 5, (2,), dtype=mg.int32), RuntimeError,
     "to - 1 is out of bounds for int"),
    (lambda: mg.randint(0, 70000, (2,), dtype=mg.float16), RuntimeError,
     "to - 1 is out of bounds for c10::Half"),
    (lambda: mg.randint(5, (3,), requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
]


@parametrize_in_one(("call", "error", "message"), RANDINT_ERRORS)
def test_randint_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("call", [lambda: mg.randint(5), lambda: mg.randint((2,)),
                                  lambda: mg.randint(3, size=(2,), low=1),
                                  lambda: mg.randint(3, 5, 6, (2,))])
def test_randint_with_arguments_that_fit_no_form(call):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith("randint() received an invalid combination of arguments")


def test_randint_warns_beyond_a_floats_exact_integers():
    with pytest.warns(UserWarning, match=r"^to - 1 is out of bounds \[-\(2\^24\), 2\^24\]\. Due "
                      r"to precision limitations float can support"):
        mg.randint(0, 2**24 + 2, (1,), dtype=mg.float32)
    with pytest.warns(UserWarning, match=r"^from is out of bounds \[-\(2\^53\), 2\^53\]\. Due "
                      r"to precision limitations double can support"):
        mg.randint(-(2**53) - 1, 0, (1,), dtype=mg.float64)


# ---- randperm --------------------------------------------------------------------------------

def test_randperm():
    mg.manual_seed(0)
    p = mg.randperm(10)
    assert p.dtype == mg.int64
    assert sorted(p.tolist()) == list(range(10))
    assert mg.randperm(0).tolist() == []
    assert mg.randperm(1).tolist() == [0]
    assert sorted(mg.randperm(256, dtype=mg.uint8).tolist()) == list(range(256))
    assert mg.randperm(2049, dtype=mg.float16).max().item() == 2048.0
    q = mg.randperm(3, dtype=mg.float32, requires_grad=True)
    assert q.dtype == mg.float32 and q.requires_grad
    mg.manual_seed(3)
    a = mg.randperm(20)
    mg.manual_seed(3)
    assert mg.randperm(20).tolist() == a.tolist()


RANDPERM_ERRORS = [
    (lambda: mg.randperm(-1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: mg.randperm(-1, dtype=mg.bool), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: mg.randperm(2.0), TypeError,
     "randperm(): argument 'n' (position 1) must be int, not float"),
    (lambda: mg.randperm(True), TypeError,
     "randperm(): argument 'n' (position 1) must be int, not bool"),
    (lambda: mg.randperm(3, dtype=mg.bool), NotImplementedError,
     "\"randperm\" not implemented for 'Bool'"),
    (lambda: mg.randperm(257, dtype=mg.uint8), RuntimeError,
     "value cannot be converted to type uint8_t without overflow"),
    (lambda: mg.randperm(129, dtype=mg.int8), RuntimeError,
     "value cannot be converted to type int8_t without overflow"),
    (lambda: mg.randperm(40000, dtype=mg.int16), RuntimeError,
     "value cannot be converted to type int16_t without overflow"),
    (lambda: mg.randperm(2050, dtype=mg.float16), RuntimeError,
     "n cannot be greater than 2049 for Half type."),
    (lambda: mg.randperm(2**24 + 2, dtype=mg.float32), RuntimeError,
     "n cannot be greater than 2^24+1 for Float type."),
    (lambda: mg.randperm(3, requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
]


@parametrize_in_one(("call", "error", "message"), RANDPERM_ERRORS)
def test_randperm_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


# ---- tril_indices and triu_indices -----------------------------------------------------------

TRIANGLES = [
    (lambda: mg.tril_indices(3, 3), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]),
    (lambda: mg.tril_indices(3, 4, 1), [[0, 0, 1, 1, 1, 2, 2, 2, 2], [0, 1, 0, 1, 2, 0, 1, 2, 3]]),
    (lambda: mg.tril_indices(4, 3, -1), [[1, 2, 2, 3, 3, 3], [0, 0, 1, 0, 1, 2]]),
    (lambda: mg.tril_indices(3, 3, offset=1), [[0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 0, 1, 2, 0, 1, 2]]),
    (lambda: mg.triu_indices(3, 3), [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]),
    (lambda: mg.triu_indices(3, 4, -1),
     [[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2], [0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3]]),
    (lambda: mg.triu_indices(3, 3, 5), [[], []]),
    (lambda: mg.tril_indices(3, 3, -5), [[], []]),
    (lambda: mg.tril_indices(0, 3), [[], []]),
]


@pytest.mark.parametrize(("call", "values"), TRIANGLES)
def test_triangle_indices(call, values):
    x = call()
    assert x.dtype == mg.int64
    assert x.shape == (2, len(values[0]))
    assert x.tolist() == values


def test_triangle_indices_index_a_matrix_like_tril():
    a = mg.arange(12.0).reshape(3, 4)
    rows, cols = mg.tril_indices(3, 4, 1)
    assert a[rows, cols].tolist() == [0.0, 1.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0, 11.0]
    assert mg.tril_indices(3, 3, dtype=mg.int32).dtype == mg.int32


TRIANGLE_ERRORS = [
    (lambda: mg.tril_indices(-1, 3), RuntimeError, "row must be non-negative, got-1"),
    (lambda: mg.tril_indices(3, -1), RuntimeError, "col must be non-negative, got-1"),
    (lambda: mg.tril_indices(-1, 3, dtype=mg.float32), RuntimeError,
     "row must be non-negative, got-1"),
    (lambda: mg.tril_indices(3, 3, dtype=mg.float32), NotImplementedError,
     "\"tril_indices\" not implemented for 'Float'"),
    (lambda: mg.tril_indices(3, 3, dtype=mg.int16), NotImplementedError,
     "\"tril_indices\" not implemented for 'Short'"),
    (lambda: mg.triu_indices(3, 3, dtype=mg.float64), NotImplementedError,
     "\"triu_indices\" not implemented for 'Double'"),
    (lambda: mg.tril_indices(3, 3, dtype=mg.bool), NotImplementedError,
     "\"tril_indices\" not implemented for 'Bool'"),
    (lambda: mg.tril_indices(3.0, 3), TypeError,
     "tril_indices(): argument 'row' (position 1) must be int, not float"),
    (lambda: mg.tril_indices(3, 3, 1.0), TypeError,
     "tril_indices(): argument 'offset' (position 3) must be int, not float"),
]


@pytest.mark.parametrize(("call", "error", "message"), TRIANGLE_ERRORS)
def test_triangle_indices_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_tril_indices_needs_col():
    with pytest.raises(TypeError):
        mg.tril_indices(3)


def test_nothing_here_needs_numpy_randomness():
    # The factories draw from minigrad's generator only: numpy's global one is untouched.
    state = np.random.get_state()[1].copy()
    mg.randint(5, (3,))
    mg.randperm(5)
    assert (np.random.get_state()[1] == state).all()


@pytest.mark.parametrize(("call", "kernel"), [
    (lambda: mg.arange(3, dtype=mg.bool), "arange_cpu"),
    (lambda: mg.arange(3, out=mg.empty(3, dtype=mg.bool)), "arange_cpu"),
    (lambda: mg.linspace(0, 1, 3, dtype=mg.bool), "linspace_cpu"),
    (lambda: mg.logspace(0, 1, 3, dtype=mg.bool), "logspace_cpu"),
    (lambda: mg.cumsum(mg.ones(2, 3), 1, dtype=mg.bool), "cumsum_out_cpu"),
    (lambda: mg.cumsum(mg.tensor([True]), 0, out=mg.empty(1, dtype=mg.bool)), "cumsum_out_cpu"),
    (lambda: mg.ones(3).cumprod(0, dtype=mg.bool), "cumprod_out_cpu"),
])
def test_pytorch_has_no_bool_kernel_for_ranges_and_cumulative_ops(call, kernel):
    with pytest.raises(NotImplementedError, match=f'^"{kernel}" not implemented for \'Bool\'$'):
        call()
    # A bool input still sums and multiplies, to int64.
    assert mg.cumsum(mg.tensor([True, False, True]), 0).tolist() == [1, 1, 2]


# ---- complex Numbers in a range (PyTorch reads the Scalar as a double) --------------------------


@pytest.mark.parametrize(("args", "kwargs", "expected", "dtype"), [
    ((1, 3 + 0j), {}, [1.0, 2.0], "float32"),
    ((3 + 0j,), {}, [0.0, 1.0, 2.0], "float32"),
    ((1, 3 + 0j, 0.5), {}, [1.0, 1.5, 2.0, 2.5], "float32"),
    ((3 + 0j,), {"dtype": "int64"}, [0, 1, 2], "int64"),
    ((0, 1 + 0j, 0.25 + 0j), {"dtype": "float64"}, [0.0, 0.25, 0.5, 0.75], "float64"),
])
def test_arange_takes_a_complex_number_with_no_imaginary_part_as_its_real_part(
        args, kwargs, expected, dtype):
    kwargs = {name: getattr(mg, value) for name, value in kwargs.items()}
    result = mg.arange(*args, **kwargs)
    assert (result.tolist(), result.dtype) == (expected, getattr(mg, dtype))


@pytest.mark.parametrize("args", [(1 + 1j,), (0, 3, 1j), (1.5j, 3)])
def test_arange_refuses_an_imaginary_part_as_pytorch(args):
    with pytest.raises(RuntimeError, match="^value cannot be converted to type double without "
                                           "overflow$"):
        mg.arange(*args)


# ---- as_tensor ---------------------------------------------------------------------------------


def test_as_tensor_shares_a_numpy_arrays_memory_and_dtype():
    array = np.array([1.0, 2.0])
    t = mg.as_tensor(array)
    array[0] = 5.0
    assert t.dtype == mg.float64 and t.tolist() == [5.0, 2.0]
    assert mg.as_tensor(np.array([1, 2])).dtype == mg.int64


def test_as_tensor_copies_a_numpy_array_into_another_dtype():
    array = np.array([1.5, 2.0])
    t = mg.as_tensor(array, dtype=mg.float32)
    array[0] = 5.0
    assert t.dtype == mg.float32 and t.tolist() == [1.5, 2.0]


def test_as_tensor_returns_a_tensor_itself_or_converts_it_with_its_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert mg.as_tensor(x) is x and mg.as_tensor(x, dtype=mg.float32) is x
    y = mg.as_tensor(x, dtype=mg.float64)
    assert y.dtype == mg.float64 and y.grad_fn.name() == "ToCopyBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(("data", "dtype", "expected"), [
    ([1, 2], None, "int64"),
    ([1, 2.5], None, "float32"),
    (3.5, None, "float32"),
    ([True, False], None, "bool"),
    ([1, 2], "float64", "float64"),
])
def test_as_tensor_of_python_data_is_a_new_tensor(data, dtype, expected):
    t = mg.as_tensor(data, dtype=None if dtype is None else getattr(mg, dtype))
    assert str(t.dtype).endswith(expected) and not t.requires_grad
    assert t.tolist() == (data if dtype is None else [float(v) for v in data])


def test_as_tensor_refuses_an_unknown_dtype():
    with pytest.raises(TypeError, match="^as_tensor\\(\\): argument 'dtype' must be "):
        mg.as_tensor([1.0], dtype="float32")


@pytest.mark.skipif(LIB != "minigrad", reason="PyTorch makes a sparse tensor; minigrad cannot")
@pytest.mark.parametrize("call", [
    lambda layout: mg.zeros(2, layout=layout),
    lambda layout: mg.arange(3, layout=layout),
    lambda layout: mg.empty_like(mg.ones(2), layout=layout),
])
def test_a_sparse_layout_is_out_of_scope(call):
    # PyTorch would make a sparse tensor; minigrad's tensors are all strided (a deliberate gap).
    for layout in (mg.sparse_coo, mg.sparse_csr):
        with pytest.raises(NotImplementedError, match="minigrad has dense tensors only"):
            call(layout)
    assert call(mg.strided).layout is mg.strided
