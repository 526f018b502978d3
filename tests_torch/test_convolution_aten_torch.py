"""ATen's ``convolution`` (``minigrad.convolution``) against PyTorch 2.13: errors and results.

It is not ``conv2d``: it has no check of the bias's dtype up front (a float input's goes to the
MKLDNN backend's check, with its message; other inputs take any bias), a bool input reaches
the kernel's dispatch error before any dtype check, and it takes batched inputs only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

# name: (input's shape and dtype, weight's, bias's (None: no bias), transposed)
Spec = tuple[tuple[tuple[int, ...], str], tuple[tuple[int, ...], str], Any, bool]
X, W, B = ((1, 2, 5, 4), "float32"), ((4, 1, 2, 3), "float32"), ((4,), "float32")
WT = ((2, 2, 2, 3), "float32")  # (a transposed convolution's weight)
CALLS: dict[str, Spec] = {
    "bool_input": (((1, 2, 5, 4), "bool"), W, B, False),
    "bool_input_no_bias": (((1, 2, 5, 4), "bool"), W, None, False),
    "bool_input_1d": (((1, 2, 5), "bool"), ((4, 1, 2), "float32"), B, False),
    "bool_input_3d": (((1, 2, 5, 5, 5), "bool"), ((4, 1, 2, 2, 2), "float32"), B, False),
    "bool_weight": (X, ((4, 1, 2, 3), "bool"), None, False),
    "bool_bias": (X, W, ((4,), "bool"), False),
    "double_bias": (X, W, ((4,), "float64"), False),
    "long_bias": (X, W, ((4,), "int64"), False),
    "long_input": (((1, 2, 5, 4), "int64"), W, B, False),
    "long_input_and_weight": (((1, 2, 5, 4), "int64"), ((4, 1, 2, 3), "int64"), B, False),
    "long_double_bias": (
        ((1, 2, 5, 4), "int64"),
        ((4, 1, 2, 3), "int64"),
        ((4,), "float64"),
        False,
    ),
    "double_input_float_bias": (((1, 2, 5, 4), "float64"), ((4, 1, 2, 3), "float64"), B, False),
    "double_input": (((1, 2, 5, 4), "float64"), W, B, False),
    "double_weight": (X, ((4, 1, 2, 3), "float64"), B, False),
    "unbatched": (((2, 5, 4), "float32"), W, B, False),
    "too_many_dims": (((1, 1, 2, 5, 4), "float32"), W, B, False),
    "two_dims": (((5, 4), "float32"), W, B, False),
    "transposed": (X, WT, B, True),
    "transposed_unbatched": (((2, 5, 4), "float32"), WT, B, True),
    "transposed_double_bias": (X, WT, ((4,), "float64"), True),
    "transposed_bool_input": (((1, 2, 5, 4), "bool"), WT, B, True),
}


def _outcome(lib: Any, name: str) -> tuple[Any, BaseException | None]:
    x, w, b, transposed = CALLS[name]
    made = [
        None if spec is None else lib.from_numpy(np.ones(spec[0], spec[1])) for spec in (x, w, b)
    ]
    dims = len(w[0]) - 2
    try:
        return lib.convolution(
            *made, [1] * dims, [1] * dims, [1] * dims, transposed, [0] * dims, 2
        ), None
    except Exception as error:  # (compared below)
        return None, error


@parametrize_in_one("name", list(CALLS))
def test_as_pytorch(name: str) -> None:
    theirs, their_error = _outcome(torch, name)
    mine, my_error = _outcome(minigrad, name)
    if their_error is None:
        assert my_error is None, f"PyTorch computes; minigrad raises {my_error!r}"
        assert str(mine.dtype).replace("minigrad", "torch") == str(theirs.dtype)
        np.testing.assert_allclose(mine.numpy(), theirs.numpy())
        return
    assert type(my_error) is type(their_error)
    assert str(my_error) == str(their_error).replace("torch.", "minigrad.")
