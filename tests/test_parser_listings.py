"""Functions PyTorch binds with several overloads: a call that fits none lists them all.

conv2d, scatter, var, std, eye and randint check their arguments as PyTorch's parser does:
the one complaint of the only overload the number of arguments leaves, or else the listing of
all of them (with a note under each that takes as many arguments as were given). The texts are
PyTorch 2.13's (these tests pass with MINIGRAD_TEST_REFERENCE=torch).
"""

import warnings

import pytest
from _backend import mg, text

F = mg.nn.functional

_CONV = (
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
    "tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)\n"
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
    'str padding = "valid", tuple of ints dilation = 1, int groups = 1)\n'
)
_SCATTER = (
    " * (Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)\n"
    " * (Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out = None)\n"
    " * (Tensor input, int dim, Tensor index, Number value, *, Tensor out = None)\n"
    " * (Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor out = None)\n"
)
_VAR = (
    " * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
    "Tensor out = None)\n"
    " * (Tensor input, tuple of ints dim = None, *, Number correction = None, "
    "bool keepdim = False, Tensor out = None)\n"
    " * (Tensor input, bool unbiased = True)\n"
)
_FACTORY = ("Tensor out = None, minigrad.dtype dtype = None, minigrad.layout layout = None, "
            "minigrad.device device = None, bool pin_memory = False, bool requires_grad = False")
_RANDINT = "".join(
    f" * ({low}int high, tuple of ints size, *, {generator}{_FACTORY})\n"
    for low in ("", "int low, ") for generator in ("minigrad.Generator generator, ", "")
)


def _x():
    return mg.ones(2, 3)


def _index():
    return mg.zeros(2, 3, dtype=mg.int64)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: F.conv2d("a", mg.ones(1, 1, 2, 2)),
     "conv2d() received an invalid combination of arguments - got (str, Tensor), but expected "
     "one of:\n" + _CONV),
    (lambda: F.conv2d(input=None, weight=mg.ones(1, 1, 2, 2)),
     "conv2d() received an invalid combination of arguments - got (weight=Tensor, "
     "input=NoneType, ), but expected one of:\n" + _CONV),
    (lambda: mg.scatter(_x(), 1.5, _index(), _x()),
     "scatter() received an invalid combination of arguments - got (Tensor, float, Tensor, "
     "Tensor), but expected one of:\n" + _SCATTER),
    (lambda: _x().scatter(1.5, _index(), _x()),
     "scatter() received an invalid combination of arguments - got (float, Tensor, Tensor), but "
     "expected one of:\n"
     " * (int dim, Tensor index, Tensor src)\n"
     "      didn't match because some of the arguments have invalid types: (!float!, Tensor, "
     "Tensor)\n"
     " * (int dim, Tensor index, Tensor src, *, str reduce)\n"
     " * (int dim, Tensor index, Number value)\n"
     "      didn't match because some of the arguments have invalid types: (!float!, Tensor, "
     "!Tensor!)\n"
     " * (int dim, Tensor index, Number value, *, str reduce)\n"),
    (lambda: mg.var("a"),
     "var() received an invalid combination of arguments - got (str), but expected one of:\n"
     + _VAR),
    (lambda: mg.std(None, 1, keepdim=True),
     "std() received an invalid combination of arguments - got (NoneType, int, keepdim=bool), "
     "but expected one of:\n" + _VAR.replace("var", "std")),
    (lambda: _x().var(keepdim="s"),
     "var() received an invalid combination of arguments - got (keepdim=str, ), but expected "
     "one of:\n"
     " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
     " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
     " * (bool unbiased = True)\n"
     "      didn't match because some of the keywords were incorrect: keepdim\n"),
    (lambda: mg.eye(2, 3.0),
     "eye() received an invalid combination of arguments - got (int, float), but expected one "
     f"of:\n * (int n, *, {_FACTORY})\n * (int n, int m, *, {_FACTORY})\n"),
    (lambda: mg.randint(0, 3, "a"),
     "randint() received an invalid combination of arguments - got (int, int, str), but "
     "expected one of:\n" + _RANDINT),
])
def test_a_call_that_fits_no_overload_gets_the_listing_of_them(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == text(message)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mg.eye(None), "eye(): argument 'n' (position 1) must be int, not NoneType"),
    (lambda: mg.randint(3, "a"),
     "randint(): argument 'size' (position 2) must be tuple of ints, not str"),
    (lambda: mg.randint(3, size="a"), "randint(): argument 'size' must be tuple of ints, not str"),
    (lambda: mg.randint(3, (1, 2.0)),
     "randint(): argument 'size' failed to unpack the object at pos 2 with error \"type must "
     "be tuple of ints,but got float\""),
])
def test_a_call_that_leaves_one_overload_gets_its_complaint(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


def test_a_refused_in_place_scatter_leaves_its_tensor_as_it_was():
    x = _x()
    with pytest.raises(TypeError, match="received an invalid combination of arguments"):
        x.scatter_(1.5, _index(), _x())
    assert x.tolist() == [[1.0] * 3] * 2
    assert x._version == 0


def test_a_warning_of_a_checked_function_points_at_its_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mg.var(mg.ones(1))  # (one element: no degrees of freedom)
    assert [w.filename for w in caught] == [__file__]


@pytest.mark.parametrize("call", [
    lambda: mg.pow(2, 3), lambda: mg.pow(2.5, True), lambda: mg.remainder(2.5, 2),
    lambda: mg.lerp(1.0, 2.0, 0.5), lambda: mg.xlogy(2, 3.0), lambda: mg.pow(input=2, exponent=3),
])
def test_numbers_alone_fit_no_overload_of_a_function_that_takes_a_tensor(call):
    # Each of pow's, remainder's, lerp's and xlogy's overloads takes a tensor, though any one
    # argument may be a number: PyTorch's parser refuses a call of numbers alone.
    with pytest.raises(TypeError) as excinfo:
        call()
    assert "received an invalid combination of arguments" in str(excinfo.value)
    assert "but expected one of:\n * (Tensor input" in str(excinfo.value)
