"""``x @ y``, ``mm`` and ``x.sum()`` after the operands' shape or dtype changed under them.

The fast tests of ``Tensor.__matmul__``, ``linalg.mm`` and ``x.sum()`` read the shape and
dtype kept on the tensor (``TensorBase._shape``/``_dtype``, filled from the buffer the first
time) instead of the buffer's. Each program here has them read once, then gives the tensor
another buffer (``.data =``, ``set_``, ``resize_``, an ``out=`` result resized) and multiplies
or sums again, with grad mode on or off: the result (values, shape, dtype, grad_fn's name), the
gradients, or the error must be PyTorch's.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(3)
_SHAPES = ((2, 3), (3, 4), (4, 3), (3,), (2, 2, 3))
_VALUES = {shape: _RNG.standard_normal(shape) for shape in _SHAPES}


def _t(lib: Any, shape: tuple[int, ...], dtype: str = "float32", grad: bool = True) -> Any:
    return lib.tensor(_VALUES[shape], dtype=getattr(lib, dtype), requires_grad=grad)


def _data_other_shape(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w  # (the shapes read and kept)
    x.data = _t(lib, (4, 3), grad=False)
    return x @ w


def _data_vector(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w
    x.data = _t(lib, (3,), grad=False)
    return x @ w  # now a vector times a matrix: matmul's own path


def _data_batch(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w
    x.data = _t(lib, (2, 2, 3), grad=False)
    return x @ w


def _data_mismatch(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w
    w.data = _t(lib, (4, 3), grad=False)
    return x @ w  # PyTorch's shape error


def _data_other_dtype(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w
    w.data = _t(lib, (3, 4), "float64", grad=False)
    return x @ w  # PyTorch's dtype error


def _data_both_float64(lib: Any) -> Any:
    x, w = _t(lib, (2, 3)), _t(lib, (3, 4))
    x @ w
    x.data = _t(lib, (2, 3), "float64", grad=False)
    w.data = _t(lib, (3, 4), "float64", grad=False)
    return x @ w


def _mm_after_set(lib: Any) -> Any:
    x, w = _t(lib, (2, 3), grad=False), _t(lib, (3, 4), grad=False)
    lib.mm(x, w)
    x.set_(_t(lib, (4, 3), grad=False))
    return lib.mm(x, w)


def _mm_after_resize(lib: Any) -> Any:
    x, w = _t(lib, (2, 3), grad=False), _t(lib, (3, 4), grad=False)
    x.mm(w)
    x.resize_(3, 2)
    return x.mm(w)  # PyTorch's shape error


def _matmul_out_resized(lib: Any) -> Any:
    x, w = _t(lib, (2, 3), grad=False), _t(lib, (3, 4), grad=False)
    out = lib.zeros(4, 3)
    out @ x.t()  # (its shape read and kept)
    lib.matmul(x, w, out=lib.empty(0))
    lib.mm(x, w, out=out)  # (resized to 2x4: PyTorch warns, a non-empty out= resized)
    return out @ _t(lib, (4, 3), grad=False)


def _sum_after_data(lib: Any) -> Any:
    x = _t(lib, (2, 3))
    x.sum()
    x.data = _t(lib, (3,), "float64", grad=False)
    y = x.sum()
    y.backward()
    return y, x.grad


def _result_operands(lib: Any) -> Any:
    x, w, v = _t(lib, (2, 3)), _t(lib, (3, 4)), _t(lib, (4, 3))
    return (x @ w) @ (v @ x.t())  # operands whose shape nobody read yet


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    f.__name__.lstrip("_"): f
    for f in (_data_other_shape, _data_vector, _data_batch, _data_mismatch, _data_other_dtype,
              _data_both_float64, _mm_after_set, _mm_after_resize, _matmul_out_resized,
              _sum_after_data,
              _result_operands)
}


def _outcome(program: Callable[[Any], Any], lib: Any, grad: bool) -> Any:
    try:
        with lib.set_grad_enabled(grad), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (out= resized: both warn)
            values = program(lib)
    except RuntimeError as error:
        return "RuntimeError", str(error).replace("torch.", "minigrad.").split("\n")[0]
    values = values if isinstance(values, tuple) else (values,)
    return [
        (value.tolist(), tuple(value.shape), str(value.dtype).split(".")[-1],
         type(value.grad_fn).__name__ if value.grad_fn is not None else None)
        for value in values
    ]


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float):
        return bool(np.isclose(a, b, rtol=1e-5, atol=1e-6))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return bool(a == b)


@parametrize_in_one("grad", [True, False], ids=["recorded", "no_grad"])
@parametrize_in_one("name", sorted(PROGRAMS))
def test_like_pytorch(name: str, grad: bool) -> None:
    program = PROGRAMS[name]
    expected, got = _outcome(program, torch, grad), _outcome(program, minigrad, grad)
    assert _close(got, expected), (got, expected)
