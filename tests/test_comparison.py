"""isclose, allclose and equal: PyTorch's semantics, dtype rules and errors.

Every expected value and message here is what PyTorch 2.13 printed for the same call.
"""
import pytest
from _backend import mg
from _cases import parametrize_in_one

NAN, INF = float("nan"), float("inf")

ISCLOSE = [
    ("default", ([1.0, 2.0, NAN], [1.0, 2.0001, NAN]), {}, [True, False, False]),
    ("equal_nan", ([1.0, 2.0, NAN], [1.0, 2.0001, NAN]), {"equal_nan": True},
     [True, False, True]),
    ("exact", ([1.0, 2.0, NAN], [1.0, 2.0001, NAN]), {"rtol": 0, "atol": 0}, [True, False, False]),
    ("infinities", ([INF, -INF, INF], [INF, -INF, -INF]), {}, [True, True, False]),
    ("inf with infinite atol", ([INF], [INF]), {"atol": INF}, [True]),
    ("finite with infinite atol", ([1.0], [2.0]), {"atol": INF}, [True]),
    ("finite and inf, infinite atol", ([1.0], [INF]), {"atol": INF}, [False]),
    ("relative", ([1e10], [1.00001e10]), {}, [False]),
    ("rtol", ([1.0], [1.1]), {"rtol": 0.1, "atol": 0}, [True]),
    ("float32 rounding", ([1.0], [1.0 + 1e-7]), {"rtol": 0, "atol": 1e-8}, [False]),
    ("int", ([1, 2], [1, 3]), {}, [True, False]),
    ("int atol", ([1, 2], [2, 2]), {"atol": 1}, [True, True]),
    ("int rtol", ([1, 2], [2, 2]), {"rtol": 0.5, "atol": 0}, [True, True]),
    ("bool atol 1", ([True, False], [False, False]), {"atol": 1}, [True, True]),
    ("bool atol 0.5", ([True, False], [False, False]), {"atol": 0.5}, [False, True]),
    ("empty", ([], []), {}, []),
]


@parametrize_in_one(("name", "values", "kwargs", "expected"), ISCLOSE,
                         ids=[c[0] for c in ISCLOSE])
def test_isclose(name, values, kwargs, expected):
    a, b = (mg.tensor(v) for v in values)
    result = mg.isclose(a, b, **kwargs)
    assert result.dtype == mg.bool
    assert result.tolist() == expected
    assert a.isclose(b, **kwargs).tolist() == expected
    assert mg.allclose(a, b, **kwargs) is all(expected)
    assert a.allclose(b, **kwargs) is all(expected)


SMALL_INTEGERS = [
    # Integers are compared as float32: no overflow, but float32's rounding.
    (([100], [-100]), "int8", {"rtol": 1.5, "atol": 0}, [False]),
    (([1, 10], [2, 5]), "uint8", {"atol": 1, "rtol": 0}, [True, False]),
    (([1, 10], [-120, 5]), "int8", {"atol": 0, "rtol": 1}, [False, True]),
    (([2**62], [2**62 + 1]), "int64", {"rtol": 0, "atol": 0.5}, [True]),
    (([2**40], [2**40 + 1]), "int64", {"rtol": 0, "atol": 0.5}, [True]),
    (([16777217], [16777216]), "int64", {"rtol": 0, "atol": 0.5}, [True]),
    (([2**40], [2**40 + 1]), "int64", {"rtol": 0, "atol": 0}, [False]),  # equality: exact
]


@pytest.mark.parametrize(("values", "dtype", "kwargs", "expected"), SMALL_INTEGERS)
def test_isclose_on_integers(values, dtype, kwargs, expected):
    a, b = (mg.tensor(v, dtype=getattr(mg, dtype)) for v in values)
    assert mg.isclose(a, b, **kwargs).tolist() == expected


def test_isclose_in_half_and_double_precision():
    half = mg.float16
    assert mg.isclose(mg.tensor([1.0], dtype=half), mg.tensor([1.1], dtype=half), rtol=0.1,
                      atol=0).tolist() == [True]
    double = mg.float64
    assert mg.isclose(mg.tensor([1.0], dtype=double), mg.tensor([1.0 + 1e-9], dtype=double),
                      rtol=0, atol=1e-9).tolist() == [False]


def test_isclose_broadcasts_and_records_nothing():
    x = mg.ones(2, requires_grad=True)
    result = mg.isclose(x, x * 2)
    assert result.tolist() == [False, False]
    assert not result.requires_grad and result.grad_fn is None
    assert mg.isclose(mg.ones(2), mg.ones(3, 1)).shape == (3, 2)
    assert mg.isclose(mg.ones(2, 1), mg.ones(1, 3)).shape == (2, 3)
    assert mg.allclose(mg.ones(2, 1), mg.ones(1, 3)) is True
    assert mg.isclose(mg.ones(2), mg.tensor(1.0)).tolist() == [True, True]
    assert mg.allclose(x, x) is True


ERRORS = [
    (lambda: mg.isclose(mg.tensor([1, 2]), mg.tensor([1.0, 3.0])), RuntimeError,
     "Long did not match Float"),
    (lambda: mg.isclose(mg.tensor([1, 2]), mg.tensor([1, 2], dtype=mg.int32)), RuntimeError,
     "Long did not match Int"),
    (lambda: mg.allclose(mg.tensor([1, 2]), mg.tensor([1.0, 2.0])), RuntimeError,
     "Long did not match Float"),
    (lambda: mg.isclose(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0], dtype=mg.float64)),
     RuntimeError, "Float did not match Double"),
    (lambda: mg.isclose(mg.tensor([True]), mg.tensor([1])), RuntimeError,
     "Bool did not match Long"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda: mg.allclose(mg.ones(2), mg.ones(3, 3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol=-1), RuntimeError,
     "rtol must be greater than or equal to zero, but got -1"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol=-0.5), RuntimeError,
     "rtol must be greater than or equal to zero, but got -0.5"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol=-1e-7), RuntimeError,
     "rtol must be greater than or equal to zero, but got -1e-07"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol=NAN), RuntimeError,
     "rtol must be greater than or equal to zero, but got nan"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), atol=-INF), RuntimeError,
     "atol must be greater than or equal to zero, but got -inf"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol=-1, atol=-1), RuntimeError,
     "rtol must be greater than or equal to zero, but got -1"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(3), rtol=-1), RuntimeError,  # before broadcasting
     "rtol must be greater than or equal to zero, but got -1"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2, dtype=mg.int64), rtol=-1), RuntimeError,
     "Float did not match Long"),  # the dtypes first
    (lambda: mg.isclose(mg.ones(2), 1.0), TypeError,
     "isclose(): argument 'other' (position 2) must be Tensor, not float"),
    (lambda: mg.isclose(1.0, mg.ones(2)), TypeError,
     "isclose(): argument 'input' (position 1) must be Tensor, not float"),
    (lambda: mg.allclose(mg.ones(2), 1.0), TypeError,
     "allclose(): argument 'other' (position 2) must be Tensor, not float"),
    (lambda: mg.ones(2).isclose(1.0), TypeError,
     "isclose(): argument 'other' (position 1) must be Tensor, not float"),
    (lambda: mg.ones(2).allclose(1.0), TypeError,
     "allclose(): argument 'other' (position 1) must be Tensor, not float"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), rtol="a"), TypeError,
     "isclose(): argument 'rtol' must be float, not str"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), atol=None), TypeError,
     "isclose(): argument 'atol' must be float, not NoneType"),
    (lambda: mg.allclose(mg.ones(2), mg.ones(2), rtol=None), TypeError,
     "allclose(): argument 'rtol' must be float, not NoneType"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), equal_nan=1), TypeError,
     "isclose(): argument 'equal_nan' must be bool, not int"),
    (lambda: mg.isclose(mg.ones(2), mg.ones(2), equal_nan=None), TypeError,
     "isclose(): argument 'equal_nan' must be bool, not NoneType"),
    (lambda: mg.equal(mg.ones(2), 1.0), TypeError,
     "equal(): argument 'other' (position 2) must be Tensor, not float"),
    (lambda: mg.equal(mg.ones(2), [1.0, 1.0]), TypeError,
     "equal(): argument 'other' (position 2) must be Tensor, not list"),
    (lambda: mg.ones(2).equal(1.0), TypeError,
     "equal(): argument 'other' (position 1) must be Tensor, not float"),
]


@parametrize_in_one(("call", "error", "message"), ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_positional_tolerances():
    a = mg.ones(2)
    assert mg.isclose(a, a, 1e-5, 1e-8, True).tolist() == [True, True]
    assert mg.allclose(a, a, 1e-5, 1e-8, True) is True
    assert a.isclose(mg.ones(2), 1e-5).tolist() == [True, True]
    assert mg.isclose(a, a, rtol=True).tolist() == [True, True]  # a bool is a number
    assert mg.isclose(input=a, other=a).tolist() == [True, True]


EQUAL = [
    ("same", lambda: (mg.ones(2), mg.ones(2)), True),
    ("lengths differ", lambda: (mg.ones(2), mg.ones(3)), False),
    ("no broadcasting", lambda: (mg.ones(2), mg.ones(1, 2)), False),
    ("0-d and 1-d", lambda: (mg.tensor(1.0), mg.tensor([1.0])), False),
    ("dtypes may differ", lambda: (mg.ones(2), mg.ones(2, dtype=mg.int64)), True),
    ("promoted to float64", lambda: (mg.tensor([0.1], dtype=mg.float64), mg.tensor([0.1])),
     False),
    ("promoted to int16", lambda: (mg.tensor([255], dtype=mg.uint8),
                                   mg.tensor([-1], dtype=mg.int8)), False),
    ("uint8 and int8", lambda: (mg.tensor([1, 2], dtype=mg.uint8),
                                mg.tensor([1, 2], dtype=mg.int8)), True),
    ("bool and float", lambda: (mg.tensor([True]), mg.tensor([1.0])), True),
    ("int and bool", lambda: (mg.tensor([1]), mg.tensor([True])), True),
    ("nan", lambda: (mg.tensor([NAN]), mg.tensor([NAN])), False),
    ("signed zeros", lambda: (mg.tensor([0.0]), mg.tensor([-0.0])), True),
    ("empty", lambda: (mg.tensor([]), mg.tensor([])), True),
    ("empty of other shapes", lambda: (mg.zeros(0, 2), mg.zeros(2, 0)), False),
    ("layouts differ", lambda: (mg.ones(2, 2).t(), mg.ones(2, 2)), True),
    ("requires grad", lambda: (mg.ones(2, requires_grad=True), mg.ones(2)), True),
]


@parametrize_in_one(("name", "make", "expected"), EQUAL, ids=[c[0] for c in EQUAL])
def test_equal(name, make, expected):
    a, b = make()
    assert mg.equal(a, b) is expected
    assert a.equal(b) is expected
    assert mg.equal(input=a, other=b) is expected
