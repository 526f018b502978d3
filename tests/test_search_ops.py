"""nonzero, where(condition), unique, bincount and histc: values, dtypes, nodes and errors.

Every expected value and message here is what PyTorch 2.13 printed for the same call.
"""
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

NAN, INF = float("nan"), float("inf")


# ---- nonzero, argwhere, where(condition) ---------------------------------------------------

def test_nonzero():
    x = mg.tensor([[0.0, 1.0], [2.0, 0.0]])
    expected = [[0, 1], [1, 0]]
    assert mg.nonzero(x).tolist() == expected
    assert x.nonzero().tolist() == expected
    assert mg.argwhere(x).tolist() == expected
    assert x.argwhere().tolist() == expected
    assert mg.nonzero(x).dtype == mg.int64
    rows, cols = mg.nonzero(x, as_tuple=True)
    assert (rows.tolist(), cols.tolist()) == ([0, 1], [1, 0])
    assert [t.tolist() for t in x.nonzero(as_tuple=True)] == [[0, 1], [1, 0]]
    assert [t.tolist() for t in mg.where(x)] == [[0, 1], [1, 0]]
    assert [t.tolist() for t in mg.where(x > 1)] == [[1], [0]]
    assert x[x.nonzero(as_tuple=True)].tolist() == [1.0, 2.0]


NONZERO_SHAPES = [
    ("0-d nonzero", lambda: mg.tensor(3.0), (1, 0)),
    ("0-d zero", lambda: mg.tensor(0.0), (0, 0)),
    ("no columns", lambda: mg.zeros(2, 0), (0, 2)),
    ("empty", lambda: mg.zeros(0), (0, 1)),
    ("nan is nonzero", lambda: mg.tensor([NAN, 0.0]), (1, 1)),
    ("bool", lambda: mg.tensor([True, False, True]), (2, 1)),
]


@pytest.mark.parametrize(("name", "make", "shape"), NONZERO_SHAPES,
                         ids=[c[0] for c in NONZERO_SHAPES])
def test_nonzero_shapes(name, make, shape):
    assert mg.nonzero(make()).shape == shape


def test_nonzero_as_tuple_of_0d_and_empty_tensors():
    assert [t.tolist() for t in mg.nonzero(mg.tensor(3.0), as_tuple=True)] == [[0]]
    assert [t.tolist() for t in mg.nonzero(mg.tensor(0.0), as_tuple=True)] == [[]]
    assert [t.tolist() for t in mg.where(mg.tensor(1))] == [[0]]
    pieces = mg.nonzero(mg.zeros(2, 0), as_tuple=True)
    assert len(pieces) == 2 and all(p.shape == (0,) and p.dtype == mg.int64 for p in pieces)


def test_nonzero_records_nothing():
    x = mg.tensor([1.0, 0.0], requires_grad=True)
    assert not mg.nonzero(x).requires_grad
    assert not mg.where(x)[0].requires_grad


def test_nonzero_errors():
    with pytest.raises(TypeError) as info:
        mg.nonzero([1, 0])
    assert str(info.value) == "nonzero(): argument 'input' (position 1) must be Tensor, not list"
    with pytest.raises(TypeError) as info:
        mg.nonzero(mg.tensor([1, 0]), True)
    assert str(info.value) == "nonzero() takes 1 positional argument but 2 were given"


def test_where_with_one_of_two_values_is_a_type_error():
    with pytest.raises(TypeError) as info:
        mg.where(mg.tensor([True]), 1.0)
    assert str(info.value).startswith(
        "where() received an invalid combination of arguments - got (Tensor, float), but "
        "expected one of:\n * (Tensor condition)\n")


# ---- unique ------------------------------------------------------------------------------

X = [3, 1, 2, 3, 1, 5]

UNIQUE = [
    ("values", {}, [1, 2, 3, 5]),
    ("unsorted is sorted too", {"sorted": False}, [1, 2, 3, 5]),
    ("inverse", {"return_inverse": True}, ([1, 2, 3, 5], [2, 0, 1, 2, 0, 3])),
    ("counts", {"return_counts": True}, ([1, 2, 3, 5], [2, 1, 2, 1])),
    ("both", {"return_inverse": True, "return_counts": True},
     ([1, 2, 3, 5], [2, 0, 1, 2, 0, 3], [2, 1, 2, 1])),
]


@pytest.mark.parametrize(("name", "kwargs", "expected"), UNIQUE, ids=[c[0] for c in UNIQUE])
def test_unique(name, kwargs, expected):
    for result in (mg.unique(mg.tensor(X), **kwargs), mg.tensor(X).unique(**kwargs)):
        if isinstance(expected, tuple):
            assert type(result) is tuple
            assert [r.tolist() for r in result] == list(expected)
            assert all(r.dtype == mg.int64 for r in result)
        else:
            assert result.tolist() == expected


def test_unique_positional_arguments():
    x = mg.tensor([1, 2])
    expected = [[1, 2], [0, 1], [1, 1]]
    assert [r.tolist() for r in mg.unique(x, True, True, True)] == expected
    assert [r.tolist() for r in mg.unique(x, True, True, True, 0)] == expected
    assert [r.tolist() for r in x.unique(True, True, True, 0)] == expected
    assert [r.tolist() for r in mg.unique(x, dim=None, return_counts=True)] == [[1, 2], [1, 1]]


def test_unique_of_a_matrix_flattens_and_keeps_the_inverse_shape():
    values, inverse = mg.unique(mg.tensor([[3, 1], [2, 3]]), return_inverse=True)
    assert values.tolist() == [1, 2, 3]
    assert inverse.tolist() == [[2, 0], [1, 2]]
    values, inverse = mg.unique(mg.tensor(5.0), return_inverse=True)
    assert values.tolist() == [5.0] and inverse.shape == () and inverse.item() == 0


M = [[1, 2], [3, 4], [1, 2], [0, 9]]


def test_unique_along_a_dimension():
    m = mg.tensor(M)
    assert mg.unique(m, dim=0).tolist() == [[0, 9], [1, 2], [3, 4]]
    values, inverse, counts = mg.unique(m, dim=0, return_inverse=True, return_counts=True)
    assert (values.tolist(), inverse.tolist(), counts.tolist()) == (
        [[0, 9], [1, 2], [3, 4]], [1, 2, 1, 0], [1, 2, 1])
    values, inverse, counts = mg.unique(m, dim=1, return_inverse=True, return_counts=True)
    assert (values.tolist(), inverse.tolist(), counts.tolist()) == (M, [0, 1], [1, 1])
    assert mg.unique(m, dim=-1).tolist() == M
    assert mg.unique(m, sorted=False, dim=0).tolist() == [[0, 9], [1, 2], [3, 4]]
    values, inverse = mg.unique(mg.tensor([[1, 2], [1, 2]]), dim=1, return_inverse=True)
    assert (values.tolist(), inverse.tolist()) == ([[1, 2], [1, 2]], [0, 1])
    assert mg.unique(mg.tensor([[1, 2], [1, 2]]).t(), dim=0).tolist() == [[1, 1], [2, 2]]


def test_unique_of_special_values():
    assert str(mg.unique(mg.tensor([1.0, NAN, NAN, 1.0]))) == "tensor([1., nan, nan])"
    values, counts = mg.unique(mg.tensor([1.0, NAN, NAN, 1.0]), return_counts=True)
    assert counts.tolist() == [2, 1, 1]  # every nan is its own value
    assert str(mg.unique(mg.tensor([[1.0, NAN], [1.0, NAN]]), dim=0)) == (
        "tensor([[1., nan],\n        [1., nan]])")
    assert mg.unique(mg.tensor([True, False, True])).tolist() == [False, True]
    assert mg.unique(mg.tensor([])).shape == (0,)
    values, inverse, counts = mg.unique(mg.tensor([]), return_inverse=True, return_counts=True)
    assert (values.dtype, inverse.dtype, counts.dtype) == (mg.float32, mg.int64, mg.int64)


def test_unique_of_empty_tensors_along_a_dimension():
    assert mg.unique(mg.zeros(0, 3), dim=0).shape == (0, 3)
    values, inverse, counts = mg.unique(mg.zeros(2, 0, 3), dim=1, return_inverse=True,
                                        return_counts=True)
    assert (values.shape, inverse.shape, counts.shape) == ((2, 0, 3), (0,), (0,))
    assert mg.unique(mg.zeros(2, 0), dim=1).shape == (2, 0)
    with pytest.raises(RuntimeError) as info:
        mg.unique(mg.zeros(2, 0), dim=0)
    assert str(info.value) == (
        "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")


def test_unique_of_a_tensor_that_requires_grad_records_a_node_without_derivative():
    x = mg.tensor([2.0, 1.0, 2.0], requires_grad=True)
    values, inverse, counts = mg.unique(x, return_inverse=True, return_counts=True)
    assert repr(values) == "tensor([1., 2.], grad_fn=<Unique2Backward0>)"
    assert values.grad_fn.name() == "Unique2Backward0"
    assert values.grad_fn.next_functions[0][0] is not None
    assert not inverse.requires_grad and not counts.requires_grad
    with pytest.raises(NotImplementedError) as info:
        values.sum().backward()
    assert str(info.value) == "the derivative for '_unique2' is not implemented."
    rows = mg.unique(x.view(3, 1), dim=0)
    assert rows.grad_fn.name() == "UniqueDimBackward0"
    with pytest.raises(NotImplementedError) as info:
        rows.sum().backward()
    assert str(info.value) == "the derivative for 'unique_dim' is not implemented."
    with mg.no_grad():
        assert mg.unique(x).grad_fn is None


UNIQUE_ERRORS = [
    (lambda: mg.unique(mg.tensor(M), dim=2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: mg.unique(mg.tensor(M), dim=-3), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    (lambda: mg.unique(mg.tensor(5.0), dim=0), IndexError,
     "Dimension specified as 0 but tensor has no dimensions"),
    (lambda: mg.unique(mg.tensor([1, 2]), dim=1.5), TypeError,
     "unique_dim(): argument 'dim' (position 2) must be int, not float"),
    (lambda: mg.unique(mg.tensor([1, 2]), sorted=1), TypeError,
     "_unique2(): argument 'sorted' must be bool, not int"),
    (lambda: mg.unique([1, 2]), TypeError,
     "_unique2(): argument 'input' (position 1) must be Tensor, not list"),
]


@pytest.mark.parametrize(("call", "error", "message"), UNIQUE_ERRORS)
def test_unique_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


# ---- bincount ----------------------------------------------------------------------------

IDX = [0, 1, 1, 3]
W = [0.5, 1.0, 1.0, 2.0]

BINCOUNT = [
    ("counts", lambda: mg.bincount(mg.tensor(IDX)), "int64", [1, 2, 0, 1]),
    ("method", lambda: mg.tensor([0, 2]).bincount(), "int64", [1, 0, 1]),
    ("minlength", lambda: mg.bincount(mg.tensor(IDX), minlength=6), "int64", [1, 2, 0, 1, 0, 0]),
    ("short minlength", lambda: mg.bincount(mg.tensor(IDX), minlength=2), "int64", [1, 2, 0, 1]),
    ("positional", lambda: mg.bincount(mg.tensor([0, 1]), None, 3), "int64", [1, 1, 0]),
    ("float weights", lambda: mg.bincount(mg.tensor(IDX), weights=mg.tensor(W)), "float32",
     [0.5, 2.0, 0.0, 2.0]),
    ("double weights", lambda: mg.bincount(mg.tensor(IDX), mg.tensor(W, dtype=mg.float64)),
     "float64", [0.5, 2.0, 0.0, 2.0]),
    ("half weights", lambda: mg.bincount(mg.tensor(IDX), mg.tensor(W, dtype=mg.float16)),
     "float64", [0.5, 2.0, 0.0, 2.0]),
    ("int weights", lambda: mg.bincount(mg.tensor(IDX), weights=mg.tensor([1, 2, 3, 4])),
     "float64", [1.0, 5.0, 0.0, 4.0]),
    ("bool weights", lambda: mg.bincount(mg.tensor(IDX), mg.tensor([True, True, False, True])),
     "float64", [1.0, 1.0, 0.0, 1.0]),
    ("int8", lambda: mg.bincount(mg.tensor([0, 1], dtype=mg.int8),
                                 weights=mg.tensor([1, 2], dtype=mg.int8)), "float64", [1.0, 2.0]),
    ("int32", lambda: mg.bincount(mg.tensor([1, 2], dtype=mg.int32)), "int64", [0, 1, 1]),
    ("uint8", lambda: mg.bincount(mg.tensor([1, 2], dtype=mg.uint8)), "int64", [0, 1, 1]),
    ("empty", lambda: mg.bincount(mg.tensor([], dtype=mg.int64)), "int64", []),
    ("empty minlength", lambda: mg.bincount(mg.tensor([], dtype=mg.int64), minlength=3),
     "int64", [0, 0, 0]),
    ("empty ignores weights", lambda: mg.bincount(mg.tensor([], dtype=mg.int64),
                                                   weights=mg.ones(3)), "int64", []),
]


@parametrize_in_one(("name", "call", "dtype", "expected"), BINCOUNT,
                         ids=[c[0] for c in BINCOUNT])
def test_bincount(name, call, dtype, expected):
    result = call()
    assert result.dtype == getattr(mg, dtype)
    assert result.tolist() == expected


def test_bincount_with_weights_that_require_grad():
    w = mg.tensor([0.5, 1.0], requires_grad=True)
    counts = mg.bincount(mg.tensor([0, 1]), weights=w)
    assert repr(counts) == "tensor([0.5000, 1.0000], grad_fn=<NotImplemented>)"
    assert counts.grad_fn.name() == "torch::autograd::NotImplemented"
    assert len(counts.grad_fn.next_functions) == 1
    with pytest.raises(RuntimeError) as info:
        counts.sum().backward()
    assert str(info.value) == "derivative for aten::bincount is not implemented"


BINCOUNT_ERRORS = [
    (lambda: mg.bincount(mg.tensor([0, -1])), RuntimeError,
     "bincount only supports 1-d non-negative integral inputs."),
    (lambda: mg.bincount(mg.tensor([[0, 1]])), RuntimeError,
     "bincount only supports 1-d non-negative integral inputs."),
    (lambda: mg.bincount(mg.tensor(1)), RuntimeError,
     "bincount only supports 1-d non-negative integral inputs."),
    (lambda: mg.bincount(mg.tensor([0.0, 1.0])), NotImplementedError,
     "\"bincount_cpu\" not implemented for 'Float'"),
    (lambda: mg.bincount(mg.tensor([[0.5, 1.0]])), NotImplementedError,
     "\"bincount_cpu\" not implemented for 'Float'"),
    (lambda: mg.bincount(mg.tensor([True, False])), NotImplementedError,
     "\"bincount_cpu\" not implemented for 'Bool'"),
    (lambda: mg.bincount(mg.tensor(IDX), weights=mg.tensor([0.5, 1.0, 1.0])), RuntimeError,
     "weights should be 1-d and have the same length as input"),
    (lambda: mg.bincount(mg.tensor([0, 1]), weights=mg.ones(2, 1)), RuntimeError,
     "weights should be 1-d and have the same length as input"),
    (lambda: mg.bincount(mg.tensor([0, -1]), weights=mg.ones(3)), RuntimeError,
     "bincount only supports 1-d non-negative integral inputs."),
    (lambda: mg.bincount(mg.tensor([1]), minlength=-1), RuntimeError,
     "minlength should be >= 0"),
    (lambda: mg.bincount(mg.tensor([0, 1]), minlength=-1, weights=mg.ones(3)), RuntimeError,
     "minlength should be >= 0"),
    (lambda: mg.bincount(mg.tensor([0, 1]), weights=[1.0, 2.0]), TypeError,
     "bincount(): argument 'weights' must be Tensor, not list"),
    (lambda: mg.bincount(mg.tensor([0, 1]), minlength=1.5), TypeError,
     "bincount(): argument 'minlength' must be int, not float"),
]


@parametrize_in_one(("call", "error", "message"), BINCOUNT_ERRORS)
def test_bincount_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


# ---- histc -------------------------------------------------------------------------------

T = [1.0, 2.0, 1.0, 4.0, 2.5]

HISTC = [
    ("range", lambda: mg.histc(mg.tensor(T), bins=4, min=0, max=3), [0.0, 2.0, 1.0, 1.0]),
    ("data range", lambda: mg.histc(mg.tensor(T), bins=3), [2.0, 2.0, 1.0]),
    ("method", lambda: mg.tensor(T).histc(bins=3), [2.0, 2.0, 1.0]),
    ("positional", lambda: mg.histc(mg.tensor([1.0]), 3, 0, 2), [0.0, 1.0, 0.0]),
    ("constant data", lambda: mg.histc(mg.tensor([1.0, 1.0]), bins=3), [0.0, 2.0, 0.0]),
    ("empty", lambda: mg.histc(mg.tensor([]), bins=3), [0.0, 0.0, 0.0]),
    ("empty with min == max", lambda: mg.histc(mg.tensor([]), bins=3, min=2, max=2),
     [0.0, 0.0, 0.0]),
    ("min == max uses the data", lambda: mg.histc(mg.tensor(T), bins=3, min=1, max=1),
     [2.0, 2.0, 1.0]),
    ("edges", lambda: mg.histc(mg.tensor([0.0, 1.0, 2.0, 3.0]), bins=3, min=0, max=3),
     [1.0, 1.0, 2.0]),
    ("float32 rounding", lambda: mg.histc(mg.tensor([0.1, 0.2, 0.3, 0.7]), bins=10, min=0, max=1),
     [0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
    ("nan ignored", lambda: mg.histc(mg.tensor([NAN, 1.0]), bins=2, min=0, max=2), [0.0, 1.0]),
    ("inf ignored", lambda: mg.histc(mg.tensor([1.0, INF]), bins=3, min=0, max=2),
     [0.0, 1.0, 0.0]),
    ("matrix", lambda: mg.histc(mg.tensor([[1.0, 2.0], [0.5, 3.0]]), bins=3), [2.0, 1.0, 1.0]),
    ("0-d", lambda: mg.histc(mg.tensor(2.5), bins=3), [0.0, 1.0, 0.0]),
    ("bool bounds", lambda: mg.histc(mg.tensor([0.5, 1.5]), bins=2, min=True, max=2), [0.0, 1.0]),
    ("far range", lambda: mg.histc(mg.tensor([1.0, 2.0], dtype=mg.float64), bins=2, min=1e300,
                                   max=1e301), [0.0, 0.0]),
]


@parametrize_in_one(("name", "call", "expected"), HISTC, ids=[c[0] for c in HISTC])
def test_histc(name, call, expected):
    assert call().tolist() == expected


def test_histc_dtype_default_bins_and_grad():
    h = mg.histc(mg.tensor(T))
    assert (h.shape, h.dtype) == ((100,), mg.float32)
    assert h.nonzero().flatten().tolist() == [0, 33, 50, 99]
    assert mg.histc(mg.tensor([1.0, 2.0], dtype=mg.float64), bins=3).dtype == mg.float64
    assert mg.histc(mg.tensor([1.0, 2.0], dtype=mg.float16), bins=3).tolist() == [1.0, 0.0, 1.0]
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert not mg.histc(x, bins=2).requires_grad


HISTC_ERRORS = [
    (lambda: mg.histc(mg.tensor(T), bins=0), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda: mg.histc(mg.tensor(T), bins=-1), RuntimeError,
     "torch.histogram(): bins must be > 0, but got -1 for dimension 0"),
    (lambda: mg.histc(mg.tensor([1.0, 2.0]), bins=0, min=3, max=1), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda: mg.histc(mg.tensor(T), bins=3, min=3, max=1), RuntimeError,
     "torch.histc: max must be larger than min"),
    (lambda: mg.histc(mg.tensor([1.0, NAN]), bins=3), RuntimeError,
     "torch.histc: range of [-nan, -nan] is not finite"),
    (lambda: mg.histc(mg.tensor([1.0, INF]), bins=3), RuntimeError,
     "torch.histc: range of [1, inf] is not finite"),
    (lambda: mg.histc(mg.tensor([-INF, 1.0]), bins=2), RuntimeError,
     "torch.histc: range of [-inf, 1] is not finite"),
    (lambda: mg.histc(mg.tensor(T), bins=3, min=NAN), RuntimeError,
     "torch.histc: range of [nan, 0] is not finite"),
    (lambda: mg.histc(mg.tensor(T), bins=3, min=0, max=INF), RuntimeError,
     "torch.histc: range of [0, inf] is not finite"),
    (lambda: mg.histc(mg.tensor([1, 2]), bins=3, min=0, max=INF), RuntimeError,
     "torch.histc: range of [0, inf] is not finite"),
    (lambda: mg.histc(mg.tensor([1, 2]), bins=3), NotImplementedError,
     "\"histogram_cpu\" not implemented for 'Long'"),
    (lambda: mg.histc(mg.tensor([1, 2], dtype=mg.int8), bins=3, min=0, max=3),
     NotImplementedError, "\"histogram_cpu\" not implemented for 'Char'"),
    (lambda: mg.histc(mg.tensor([True]), bins=3), NotImplementedError,
     "\"linspace_cpu\" not implemented for 'Bool'"),
    (lambda: mg.histc(mg.tensor(T), bins=3.0), TypeError,
     "histc(): argument 'bins' must be int, not float"),
    (lambda: mg.histc(mg.tensor(T), bins=True), TypeError,
     "histc(): argument 'bins' must be int, not bool"),
    (lambda: mg.histc(mg.tensor(T), bins=None), TypeError,
     "histc(): argument 'bins' must be int, not NoneType"),
    (lambda: mg.histc(mg.tensor(T), bins=3, min="a"), TypeError,
     "histc(): argument 'min' must be Number, not str"),
]


@parametrize_in_one(("call", "error", "message"), HISTC_ERRORS)
def test_histc_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)
