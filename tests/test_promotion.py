"""result_type, promote_types and can_cast: PyTorch 2.13's answers (read off torch; the
sweep over every dtype pair against torch is tests_torch/test_promotion_torch.py)."""

from __future__ import annotations

import pytest
from _cases import parametrize_in_one

import minigrad


@parametrize_in_one(("tensor", "other", "expected"), [
    (minigrad.ones(3), minigrad.tensor([1, 2]), minigrad.float32),
    (minigrad.tensor([1, 2]), 1.5, minigrad.float32),
    (1, minigrad.tensor([1], dtype=minigrad.int8), minigrad.int8),
    (minigrad.tensor([1], dtype=minigrad.int8), 1000, minigrad.int8),  # (the value is not read)
    (minigrad.tensor([True]), True, minigrad.bool),
    (1, 2, minigrad.int64),
    (1.0, 2, minigrad.float32),
    (True, 2, minigrad.int64),
    # a 0-d tensor decides only where it raises the category
    (minigrad.tensor(1.0, dtype=minigrad.float64), minigrad.ones(2), minigrad.float32),
    (minigrad.tensor(1.0, dtype=minigrad.float64), minigrad.ones(2, dtype=minigrad.int64),
     minigrad.float64),
])
def test_result_type_is_what_a_binary_op_gives(tensor, other, expected):
    assert minigrad.result_type(tensor, other) is expected
    assert minigrad.result_type(tensor=tensor, other=other) is expected


def test_result_type_refuses_what_is_neither_tensor_nor_number():
    with pytest.raises(TypeError, match=r"result_type\(\) received an invalid combination of "
                       r"arguments - got \(Tensor, str\)"):
        minigrad.result_type(minigrad.ones(2), "a")


def test_promote_types_and_can_cast():
    assert minigrad.promote_types(minigrad.int8, minigrad.uint8) is minigrad.int16
    assert minigrad.promote_types(minigrad.float16, minigrad.int64) is minigrad.float16
    assert minigrad.promote_types(minigrad.bool, minigrad.float32) is minigrad.float32
    assert minigrad.promote_types(float, minigrad.int32) is minigrad.float64
    assert minigrad.promote_types(type1=minigrad.int8, type2=minigrad.int16) is minigrad.int16
    assert not minigrad.can_cast(minigrad.float32, minigrad.int32)
    assert minigrad.can_cast(minigrad.int32, minigrad.float32)
    assert not minigrad.can_cast(minigrad.int32, minigrad.bool)
    assert minigrad.can_cast(minigrad.bool, minigrad.int8)
    assert minigrad.can_cast(minigrad.float64, minigrad.float16)
    assert minigrad.can_cast(from_=minigrad.int64, to=minigrad.uint8)
    assert not minigrad.can_cast(float, minigrad.uint8)
    with pytest.raises(TypeError) as caught:
        minigrad.promote_types("a", minigrad.int32)
    assert str(caught.value) == (
        "promote_types(): argument 'type1' (position 1) must be minigrad.dtype, not str")
    with pytest.raises(TypeError) as caught:
        minigrad.can_cast(1, minigrad.uint8)
    assert str(caught.value) == (
        "can_cast(): argument 'from_' (position 1) must be minigrad.dtype, not int")
