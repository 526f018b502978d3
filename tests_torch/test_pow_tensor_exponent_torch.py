"""A power with a one-element exponent tensor is std::pow's, as PyTorch's kernel of two tensors.

``x ** torch.tensor(0.5)`` is not ``x ** 0.5`` in PyTorch: a number exponent 0.5 takes its
sqrt kernel, a tensor exponent its pow kernel, whose ``(-inf) ** 0.5`` is inf and
``(-0.0) ** 0.5`` is 0.0 (sqrt: nan and -0.0). numpy's power loop takes an exponent of one
element 0.5 as sqrt, which minigrad must not follow there (found by random programs, seed
45054187: ``t0.log() ** torch.tensor(0.5)`` with a zero in t0).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from _cases import parametrize_in_one

import minigrad
from tests_torch.random_programs.shrink import assert_agrees

BASES = [-math.inf, math.inf, -0.0, 0.0, math.nan, -1.0, -2.0, 2.0, 0.5, 3.0]
EXPONENTS = [0.5, -0.5, -1.0, 2.0, 3.0, 1.5, 1 / 3]

FORMS: dict[str, Callable[[Any, float, float, Any], Any]] = {
    "tensor_0d": lambda lib, x, e, d: lib.tensor([x], dtype=d) ** lib.tensor(e, dtype=d),
    "0d_0d": lambda lib, x, e, d: lib.tensor(x, dtype=d) ** lib.tensor(e, dtype=d),
    "number_0d": lambda lib, x, e, d: x ** lib.tensor(e, dtype=d),
    "pow_0d": lambda lib, x, e, d: lib.tensor([x], dtype=d).pow_(lib.tensor(e, dtype=d)),
    "pow_function": lambda lib, x, e, d: lib.pow(lib.tensor([x], dtype=d), lib.tensor(e)),
}


def _bits(tensor: Any) -> list[tuple[bool, bool, float]]:
    # (nan, sign, value): signed zeros and infinities told apart (a nan's sign is not)
    values = np.asarray(tensor.tolist(), dtype=np.float64)
    return [(True, False, 0.0) if np.isnan(v) else (False, bool(np.signbit(v)), float(v))
            for v in values]


@parametrize_in_one("dtype", ["float32", "float64"])
@parametrize_in_one("form", list(FORMS))
def test_powers_by_a_one_element_tensor_as_in_pytorch(form: str, dtype: str) -> None:
    # (one element at a time: over 8 float64 elements PyTorch's vectorized pow is an ulp off)
    for exponent in EXPONENTS:
        for base in BASES:
            mine, theirs = (
                _bits(FORMS[form](lib, base, exponent, getattr(lib, dtype)).reshape(-1))
                for lib in (minigrad, torch)
            )
            assert mine == theirs, (base, exponent)


def test_seed_45054187_agrees_with_pytorch() -> None:
    assert_agrees("""
t0 = torch.tensor([[-0.5, 2.0], [0.0, 1.0]])
t1 = torch.tensor(0.5)
t2 = t0.log()
t5 = t2 ** t1
""")
