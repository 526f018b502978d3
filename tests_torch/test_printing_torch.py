"""Differential tests: ``tensor_repr`` against ``repr`` of real PyTorch tensors."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigrad._printing import get_printoptions, set_printoptions, tensor_repr

FLOAT_DTYPES = ["float32", "float64", "float16"]
INT_DTYPES = ["int64", "int32", "int16", "int8", "uint8"]
ALL_DTYPES = [*FLOAT_DTYPES, *INT_DTYPES, "bool"]

# Largest size per dimension for each rank: products reach past the 1000-element
# summarization threshold (1500, 45**2, 12**3, 7**4 = 2401).
MAX_DIM_SIZE = {0: 0, 1: 1500, 2: 45, 3: 12, 4: 7}

# When a hypothesis test fails, its pytest plugin imports libcst to suggest a patch,
# and libcst's DeprecationWarning would turn the failure report into an INTERNALERROR.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def float_arrays(draw: st.DrawFn, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Floats whose magnitudes span a drawn sub-range of [1e-8, 1e8], plus specials."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    low = draw(st.integers(-8, 8))
    high = draw(st.integers(low, 8))
    values = 10.0 ** rng.uniform(low, high, size=shape)
    if draw(st.booleans()):
        values *= rng.choice([-1.0, 1.0], size=shape)
    if draw(st.booleans()):
        values = np.round(values)  # integer-valued floats print as "3."
    special_fraction = draw(st.sampled_from([0.0, 0.0, 0.05, 0.5, 1.0]))
    if special_fraction:
        specials = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], size=shape)
        values = np.where(rng.random(shape) < special_fraction, specials, values)
    with np.errstate(over="ignore"):  # float16 overflows to inf above 65504
        return np.asarray(values.astype(dtype))


@st.composite
def int_arrays(draw: st.DrawFn, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Integers drawn from a random sub-range of the dtype's range."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    info = np.iinfo(dtype)
    digits = draw(st.integers(0, len(str(info.max))))
    low = max(int(info.min), -(10**digits))
    high = min(int(info.max), 10**digits)
    return np.asarray(rng.integers(low, high, size=shape, endpoint=True).astype(dtype))


@st.composite
def arrays(draw: st.DrawFn) -> tuple[np.ndarray, str]:
    """A random array (0-d arrays included, never numpy scalars) and its dtype name."""
    dtype = draw(st.sampled_from(ALL_DTYPES))
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.integers(0, MAX_DIM_SIZE[ndim])) for _ in range(ndim))
    if dtype in FLOAT_DTYPES:
        return draw(float_arrays(shape, dtype)), dtype
    if dtype == "bool":
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        return np.asarray(rng.random(shape) < draw(st.sampled_from([0.0, 0.5, 1.0]))), dtype
    return draw(int_arrays(shape, dtype)), dtype


# Ways to attach autograd state to a float tensor: none, a leaf, or a non-leaf.
GRAD_MODES = st.sampled_from(["none", "leaf", "clone", "mul"])

PRINT_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 1, 5, 50, 1000, math.inf]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 150),
        "profile": st.sampled_from(["default", "short", "full"]),
        "sci_mode": st.sampled_from([None, True, False]),
    },
)


@contextmanager
def both_printoptions(options: dict[str, Any]) -> Iterator[None]:
    """Apply ``options`` to PyTorch and minigrad, restoring the defaults afterwards."""
    torch.set_printoptions(**options)
    set_printoptions(**options)
    try:
        yield
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")


def assert_same_repr(array: np.ndarray, dtype: str, grad_mode: str = "none") -> None:
    """Check ``tensor_repr`` against PyTorch's repr of the same data and autograd state."""
    # np.array copies (torch must not share the buffer) and, unlike
    # np.ascontiguousarray, keeps 0-d arrays 0-d.
    tensor = torch.from_numpy(np.array(array))
    assert str(tensor.dtype) == f"torch.{dtype}"
    grad_fn_name = None
    if dtype in FLOAT_DTYPES and grad_mode != "none":
        tensor.requires_grad_()
        if grad_mode == "clone":
            tensor = tensor.clone()
        elif grad_mode == "mul":
            tensor = tensor * 1
        if tensor.grad_fn is not None:
            grad_fn_name = type(tensor.grad_fn).__name__
    expected = repr(tensor).replace("torch.", "minigrad.")
    actual = tensor_repr(
        array,
        dtype_name=dtype,
        requires_grad=tensor.requires_grad and grad_fn_name is None,
        grad_fn_name=grad_fn_name,
    )
    assert actual == expected


@pytest.fixture(autouse=True)
def _default_printoptions() -> Iterator[None]:
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")


@SETTINGS
@given(data=arrays(), grad_mode=GRAD_MODES)
def test_repr_matches_pytorch(data: tuple[np.ndarray, str], grad_mode: str) -> None:
    array, dtype = data
    assert_same_repr(array, dtype, grad_mode)


@SETTINGS
@given(data=arrays(), grad_mode=GRAD_MODES, options=PRINT_OPTIONS)
def test_repr_matches_pytorch_with_printoptions(
    data: tuple[np.ndarray, str], grad_mode: str, options: dict[str, Any]
) -> None:
    array, dtype = data
    with both_printoptions(options):
        assert_same_repr(array, dtype, grad_mode)


@SETTINGS
@given(options=PRINT_OPTIONS)
def test_printoptions_match_pytorch(options: dict[str, Any]) -> None:
    with both_printoptions(options):
        assert get_printoptions() == torch._tensor_str.get_printoptions()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 4), (3, 0)])
def test_empty_matches_pytorch(dtype: str, shape: tuple[int, ...]) -> None:
    assert_same_repr(np.zeros(shape, dtype=dtype), dtype)
    if dtype in FLOAT_DTYPES:
        assert_same_repr(np.zeros(shape, dtype=dtype), dtype, "leaf")
