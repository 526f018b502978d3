"""Op-table rows of the bitwise ops (ops/bitwise.py) and their operators.

Integer and bool operands only: these ops exist for no floating dtype (their errors for floats
are ``bad_inputs``, run in float32), and nothing requires grad, so the rows are not
differentiable.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample
from opinfo.elementwise import full_first
from opinfo.elementwise_extra import integer_samples

_FLOATS = (BadInput((np.ones((2, 3)), np.ones((2, 3))), name="floats"),
           BadInput((np.ones((2, 3)), np.ones((4,))), name="floats_shape_mismatch"),
           BadInput((np.ones((2, 3), dtype=np.int64), np.ones((4,), dtype=np.int64)),
                    name="shape_mismatch"))


def logical_samples(rng: np.random.Generator) -> list[Sample]:
    """Integer samples, bool ones, a bool with an integer, and Python numbers on either side."""

    def bools(shape: tuple[int, ...]) -> np.ndarray:
        return np.asarray(rng.random(shape) < 0.5)

    ints = np.array([3, -4, 5, 0, -1, 7])
    return [
        *integer_samples(rng),
        Sample((bools((3, 4)), bools((3, 4))), name="bool"),
        Sample((bools((2, 1)), bools((3,))), name="bool_broadcast"),
        Sample((bools((4,)), ints[:4]), name="bool_int"),
        Sample((ints.astype(np.int8), ints), name="int8_int64"),
        Sample((ints, 6), name="number"),
        Sample((bools((3,)), True), name="bool_number"),
    ]


def shift_samples(rng: np.random.Generator) -> list[Sample]:
    """Integers shifted by amounts in range and out of it (negative, past the bit width)."""
    values = np.array([3, -4, 5, -1, 1, -128, 127, 0])
    amounts = np.array([2, 1, 70, 63, 64, -1, 7, 3])
    return [
        Sample((values, amounts), name="amounts"),
        Sample((values.astype(np.int8), amounts.astype(np.int8)), name="int8"),
        Sample((np.abs(values).astype(np.uint8), np.abs(amounts).astype(np.uint8)), name="uint8"),
        Sample((values.astype(np.int32), amounts), name="int32_int64"),
        Sample((values.reshape(2, 4), np.array([1, 2, 3, 65])), name="broadcast"),
        Sample((values, 3), name="number"),
        Sample((values, 64), name="number_past_width"),
    ]


def _writable(samples):
    """The samples an in-place op can write (an int result does not fit a bool tensor)."""
    return lambda rng: [s for s in full_first(samples)(rng) if s.name != "bool_int"]


def _function(name: str) -> OpInfo:
    samples = shift_samples if "shift" in name else logical_samples
    return OpInfo(name, lambda lib, x, y: getattr(lib, name)(x, y), samples,
                  differentiable=False, bad_inputs=_FLOATS)


def _in_place(name: str) -> OpInfo:
    samples = shift_samples if "shift" in name else logical_samples
    return OpInfo(name, lambda lib, x, y: getattr(x.clone(), name)(y), _writable(samples),
                  differentiable=False, inplace=True)


def _number_first(rng: np.random.Generator) -> list[Sample]:
    return [Sample((np.array([3, -4, 5, 0]),), name="ints"),
            Sample((np.array([1, 2, 9, 0, 63]),), name="amounts")]


def _not_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((np.array([0, 5, -1, 127], dtype=dtype),), name=np.dtype(dtype).name)
            for dtype in (np.int64, np.int8, np.int16)] + [
        Sample((np.array([[True, False], [False, False]]),), name="bool"),
        Sample((np.array([[1, 2], [3, 4]], dtype=np.uint8),), name="transposed",
               transposed=True)]


_OPERATORS = {
    "and": lambda lib, x, y: x & y, "or": lambda lib, x, y: x | y,
    "xor": lambda lib, x, y: x ^ y, "left_shift": lambda lib, x, y: x << y,
    "right_shift": lambda lib, x, y: x >> y,
}


def _augmented(kind: str) -> OpInfo:
    def call(lib, x, y):
        x = x.clone()
        if kind == "and":
            x &= y
        elif kind == "or":
            x |= y
        elif kind == "xor":
            x ^= y
        elif kind == "left_shift":
            x <<= y
        else:
            x >>= y
        return x

    samples = shift_samples if "shift" in kind else logical_samples
    return OpInfo(f"bitwise_{kind}_augmented", call, _writable(samples), differentiable=False,
                  inplace=True, op=f"bitwise_{kind}_")


OPS: list[OpInfo] = [
    *[_function(f"bitwise_{kind}") for kind in _OPERATORS],
    *[_in_place(f"bitwise_{kind}_") for kind in _OPERATORS],
    *[OpInfo(f"bitwise_{kind}_operator", call,
             shift_samples if "shift" in kind else logical_samples, differentiable=False,
             op=f"bitwise_{kind}")
      for kind, call in _OPERATORS.items()],
    *[_augmented(kind) for kind in _OPERATORS],
    OpInfo("bitwise_and_number_first", lambda lib, y: lib.bitwise_and(6, y), _number_first,
           differentiable=False, op="bitwise_and"),
    OpInfo("bitwise_or_reflected", lambda lib, y: True | y, _number_first,
           differentiable=False, op="bitwise_or"),
    OpInfo("bitwise_xor_reflected", lambda lib, y: 5 ^ y, _number_first,
           differentiable=False, op="bitwise_xor"),
    OpInfo("bitwise_left_shift_reflected", lambda lib, y: 1 << y, _number_first,
           differentiable=False, op="bitwise_left_shift"),
    OpInfo("bitwise_right_shift_reflected", lambda lib, y: -1000 >> y, _number_first,
           differentiable=False, op="bitwise_right_shift"),
    OpInfo("bitwise_not", lambda lib, x: lib.bitwise_not(x), _not_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones((2, 3)),), name="float"),)),
    OpInfo("bitwise_not_operator", lambda lib, x: ~x, _not_samples, differentiable=False,
           bad_inputs=(BadInput((np.ones((2, 3)),), name="float"),), op="bitwise_not"),
    OpInfo("bitwise_not_", lambda lib, x: x.clone().bitwise_not_(), _not_samples,
           differentiable=False, inplace=True),
]
