"""``div(..., rounding_mode=...)``: PyTorch 2.13's values, dtypes, gradients and errors.

The float gradients and the saved tensors are compared with PyTorch by the op table
(tests/opinfo rows ``div_trunc``, ``div_floor``...); here are the integer and bool dtypes and
the bad calls. Every expected value was measured with PyTorch 2.13.
"""

import pytest
from _backend import mg, text
from _cases import parametrize_in_one


@pytest.mark.parametrize(("mode", "tensor", "scalar", "float_scalar"), [
    ("trunc", [-3, 3, -1, 3], [-3, 3, 2, -4], [-2.0, 2.0, 2.0, -3.0]),
    ("floor", [-4, 3, -2, 3], [-4, 3, 2, -5], [-3.0, 2.0, 2.0, -4.0]),
])
def test_integers_stay_integers_with_a_rounding_mode(mode, tensor, scalar, float_scalar):
    i, j = mg.tensor([-7, 7, 5, -9]), mg.tensor([2, 2, -3, -3])
    assert mg.div(i, j, rounding_mode=mode).tolist() == tensor
    assert mg.div(i, j, rounding_mode=mode).dtype == mg.int64
    assert i.div(2, rounding_mode=mode).tolist() == scalar
    assert mg.div(i, 2.5, rounding_mode=mode).tolist() == float_scalar
    small = mg.div(i.to(mg.int8), 2, rounding_mode=mode)
    assert (small.dtype, small.tolist()) == (mg.int8, scalar)


def test_the_result_type_is_the_promoted_one():
    uint8, int8 = mg.tensor([5], dtype=mg.uint8), mg.tensor([-2], dtype=mg.int8)
    floor = mg.div(uint8, int8, rounding_mode="floor")
    assert (floor.dtype, floor.tolist()) == (mg.int16, [-3])
    assert mg.div(uint8, int8, rounding_mode="trunc").tolist() == [-2]
    assert mg.div(mg.tensor([True, False]), 2, rounding_mode="floor").tolist() == [0, 0]
    assert mg.div(mg.tensor([True, False]), mg.tensor([True, True]),
                  rounding_mode=None).tolist() == [1.0, 0.0]


def test_float_rounding_keeps_signed_zeros_and_infinities():
    assert str(mg.tensor([-0.5]).div(1.0, rounding_mode="trunc")) == "tensor([-0.])"
    infinity = mg.tensor([float("inf")])
    assert mg.tensor([-5.0]).div(infinity, rounding_mode="floor").tolist() == [-1.0]
    by_zero = mg.div(mg.tensor([1.0, -1.0, 0.0]), 0.0, rounding_mode="floor")
    assert str(by_zero) == "tensor([inf, -inf, nan])"


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_a_rounded_quotient_has_zero_gradients_and_records_div_backward2(mode):
    x = mg.tensor([-3.5, 2.5, 7.0], requires_grad=True)
    y = mg.tensor([2.0, -2.0, 3.0], requires_grad=True)
    z = mg.div(x, y, rounding_mode=mode)
    assert type(z.grad_fn).__name__ == "DivBackward2"
    assert z.grad_fn._saved_rounding_mode == mode
    z.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0] and y.grad.tolist() == [0.0, 0.0, 0.0]


def test_a_number_divisor_is_saved_as_pytorch_wraps_it():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    saved = mg.div(x, 2.0, rounding_mode=None).grad_fn._saved_other
    assert (saved.dtype, saved.item(), saved.dim()) == (mg.float64, 2.0, 0)
    assert mg.div(x, 2.0, rounding_mode=None).grad_fn._saved_self is None


@parametrize_in_one(("call", "error", "message"), [
    (lambda: mg.div(mg.tensor([True]), mg.tensor([True]), rounding_mode="trunc"),
     NotImplementedError, "\"div_trunc_cpu\" not implemented for 'Bool'"),
    (lambda: mg.div(mg.tensor([True]), True, rounding_mode="floor"),
     NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'"),
    (lambda: mg.div(mg.tensor([3, 1]), mg.tensor([0, 1]), rounding_mode="trunc"),
     RuntimeError, "ZeroDivisionError"),
    (lambda: mg.div(mg.tensor([3, 1]), 0, rounding_mode="floor"),
     RuntimeError, "ZeroDivisionError"),
    (lambda: mg.div(mg.tensor([3, 1]), 2, rounding_mode="round"), RuntimeError,
     "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'"),
    (lambda: mg.tensor([3, 1]).div_(2.5, rounding_mode="floor"), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    (lambda: mg.tensor([3, 1]).div_(2), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    (lambda: mg.div(mg.tensor([3, 1]), 2, rounding_mode=3), TypeError,
     "div() received an invalid combination of arguments - got (Tensor, int, rounding_mode=int), "
     "but expected one of:\n"
     " * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)\n"
     " * (Tensor input, Number other, *, str rounding_mode)\n"),
    (lambda: mg.tensor([3, 1]).div_(2, rounding_mode=3), TypeError,
     "div_() received an invalid combination of arguments - got (int, rounding_mode=int), "
     "but expected one of:\n"
     " * (Tensor other)\n"
     " * (Tensor other, *, str rounding_mode)\n"
     " * (Number other, *, str rounding_mode)\n"),
    (lambda: mg.div(mg.tensor([3.0]), None, rounding_mode="floor"), TypeError,
     "div() received an invalid combination of arguments - got (Tensor, NoneType, "
     "rounding_mode=str), but expected one of:\n"
     " * (Tensor input, Tensor other, *, Tensor out = None)\n"
     " * (Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)\n"
     " * (Tensor input, Number other, *, str rounding_mode)\n"),
])
def test_bad_calls_raise_pytorchs_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)


def test_in_place_integer_rounding_bumps_the_version_once():
    i = mg.tensor([-7, 7, 5, -9])
    i.div_(mg.tensor([2, 2, -3, -3]), rounding_mode="floor")
    assert (i.tolist(), i._version) == ([-4, 3, -2, 3], 1)
