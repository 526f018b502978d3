"""The bitwise ops and their operators: PyTorch 2.13's dtypes, shift rules and error texts
(values and messages read off torch; the op table compares the rest with torch)."""

from __future__ import annotations

import pytest

import minigrad


def _raises(error: type[Exception], text: str, call) -> None:
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == text


def test_floats_have_no_bitwise_kernel():
    x = minigrad.tensor([1.5, -2.0], requires_grad=True)
    i = minigrad.tensor([3, -4])
    _raises(NotImplementedError, "\"bitwise_and_cpu\" not implemented for 'Float'", lambda: x & x)
    _raises(NotImplementedError, "\"bitwise_or_cpu\" not implemented for 'Float'", lambda: i | 1.5)
    _raises(NotImplementedError, "\"lshift_cpu\" not implemented for 'Float'", lambda: 1.5 << i)
    _raises(NotImplementedError, "\"bitwise_not_cpu\" not implemented for 'Double'",
            lambda: minigrad.bitwise_not(x.double()))
    _raises(TypeError, "~ (operator.invert) is only implemented on integer and Boolean-type "
            "tensors", lambda: ~x)
    # (the shapes are checked first, as PyTorch finds the result's shape before its kernel)
    _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 1",
            lambda: minigrad.bitwise_and(minigrad.ones(2, 3), minigrad.ones(4)))


def test_bools_and_numbers_promote_as_in_any_binary_op():
    b = minigrad.tensor([True, False, True])
    assert (b & True).dtype == minigrad.bool
    ones = b & 1
    assert ones.dtype == minigrad.int64 and ones.tolist() == [1, 0, 1]
    assert (~b).tolist() == [False, True, False]
    assert (True ^ b).tolist() == [False, True, False]
    _raises(NotImplementedError, "\"lshift_cpu\" not implemented for 'Bool'", lambda: b << b)
    before = b._version
    _raises(RuntimeError, "result type Long can't be cast to the desired output type Bool",
            lambda: b.bitwise_and_(minigrad.tensor([1, 1, 1])))
    assert b.tolist() == [True, False, True] and b._version == before


def test_shifts_past_the_width_or_negative_shift_everything_out():
    i = minigrad.tensor([3, -4, 5])
    assert (i << 70).tolist() == [0, 0, 0] and (i >> 70).tolist() == [0, -1, 0]
    assert (i << -1).tolist() == [0, 0, 0] and (i >> -1).tolist() == [0, -1, 0]
    assert (minigrad.tensor([3], dtype=minigrad.int8) << 7).tolist() == [-128]
    assert (minigrad.tensor([255], dtype=minigrad.uint8) >> 9).tolist() == [0]
    assert (2 << minigrad.tensor([3, 4, 5])).tolist() == [16, 32, 64]


def test_in_place_operators_write_once_and_keep_the_tensor():
    i = minigrad.tensor([3, -4, 5])
    alias = i
    i &= minigrad.tensor([2, 6, -3])
    i <<= 1
    assert i is alias and i.tolist() == [4, 8, 10] and i._version == 2
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            lambda: i.__iand__(1.5))


def test_numbers_alone_fit_no_overload():
    with pytest.raises(TypeError, match=r"bitwise_and\(\) received an invalid combination"):
        minigrad.bitwise_and(2, 3)
    out = minigrad.empty(3)
    minigrad.bitwise_left_shift(minigrad.tensor([3, -4, 5]), minigrad.tensor([2, 6, 3]), out=out)
    assert out.tolist() == [12.0, -256.0, 40.0]
    _raises(RuntimeError, "Found dtype Float but expected Long",
            lambda: minigrad.bitwise_not(minigrad.tensor([1]), out=minigrad.empty(1)))
