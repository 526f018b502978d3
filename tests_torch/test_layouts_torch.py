"""Differential tests: the memory layout of tensors made like another, in minigrad and PyTorch.

``clone()`` and the ``*_like`` factories lay their result out as PyTorch's ``preserve_format``
does (minigrad/_layout.py): the same strided input is built in both libraries (a random shape,
permutation, slicing steps, broadcast dimensions of stride 0, dimensions of size 1) and
the results' ``stride()``, ``is_contiguous()`` and values are compared, then whether viewing
the result flat works (a layout's observable consequence).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad

FACTORIES = {
    "clone": lambda lib, x: x.clone(),
    "zeros_like": lambda lib, x: lib.zeros_like(x),
    "ones_like": lambda lib, x: lib.ones_like(x),
    "full_like": lambda lib, x: lib.full_like(x, 2.5),
    "empty_like": lambda lib, x: lib.empty_like(x),
    "rand_like": lambda lib, x: lib.rand_like(x),
    "zeros_like float64": lambda lib, x: lib.zeros_like(x, dtype=lib.float64),
}
DETERMINISTIC = {"clone", "zeros_like", "ones_like", "full_like", "zeros_like float64"}


@st.composite
def strided_inputs(draw: Any) -> dict[str, Any]:
    """How to build one strided tensor: base shape, slicing steps, permutation, expansion."""
    ndim = draw(st.integers(1, 4))
    # (sizes from 1: numpy gives an empty array strides of 0, which stride() shows)
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    steps = draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim))
    permutation = draw(st.permutations(range(ndim)))
    # a dimension of size 1 may be broadcast to a larger size (stride 0)
    expand = [draw(st.sampled_from([-1, 3])) if size == 1 else -1 for size in shape]
    return {"shape": shape, "steps": steps, "permutation": permutation, "expand": expand}


def build(lib: Any, spec: dict[str, Any]) -> Any:
    """The strided tensor ``spec`` describes, in ``lib``."""
    steps = spec["steps"]
    base_shape = [size * step for size, step in zip(spec["shape"], steps)]
    count = int(np.prod(base_shape))
    x = lib.arange(float(count)).reshape(base_shape)
    x = x[tuple(slice(None, None, step) for step in steps)]
    x = x.expand(*spec["expand"])
    return x.permute(*spec["permutation"])


def observe(lib: Any, name: str, spec: dict[str, Any]) -> tuple[Any, ...]:
    """What a factory's result shows of its layout (and its values, where they are fixed)."""
    result = FACTORIES[name](lib, build(lib, spec))
    try:
        flat = tuple(result.view(-1).shape)
    except RuntimeError as error:
        flat = str(error).replace("torch", "minigrad")
    values = result.tolist() if name in DETERMINISTIC else None
    return tuple(result.stride()), result.is_contiguous(), values, flat


@pytest.mark.parametrize("name", list(FACTORIES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=strided_inputs())
def test_a_result_made_like_a_strided_tensor_is_laid_out_as_pytorchs(name, spec):
    assert observe(minigrad, name, spec) == observe(torch, name, spec)


@pytest.mark.parametrize(("build_input", "strides"), [
    (lambda lib: lib.arange(12.0).reshape(4, 3).t(), (1, 3)),  # transposed: kept
    (lambda lib: lib.arange(3.0).reshape(3, 1).expand(3, 4).t(), (3, 1)),  # broadcast
    (lambda lib: lib.arange(4.0).reshape(4, 1).t(), (1, 1)),  # a size-1 dim's stride, kept
    (lambda lib: lib.arange(48.0).reshape(2, 3, 8)[:, :, ::2].transpose(0, 2), (1, 4, 12)),
])
def test_clone_keeps_pytorchs_strides(build_input, strides):
    assert build_input(torch).clone().stride() == strides  # the expectation is PyTorch's
    assert build_input(minigrad).clone().stride() == strides


BINARY = ["mul", "add", "sub", "div", "maximum", "atan2", "pow", "lt", "eq"]


@st.composite
def broadcast_pairs(draw: Any) -> tuple[dict[str, Any], dict[str, Any] | float]:
    """Two strided inputs of broadcastable shapes (or one and a number)."""
    first = draw(strided_inputs())
    if draw(st.integers(0, 5)) == 0:
        return first, 2.0
    ndim = len(first["shape"])
    result_shape = [
        size * 1 if expand == -1 else expand
        for size, expand in zip(first["shape"], first["expand"])
    ]
    result_shape = [result_shape[d] for d in first["permutation"]]
    # the second: the result's shape with some dims 1, fewer leading dims, its own layout
    shape = [draw(st.sampled_from([size, 1])) for size in result_shape]
    shape = shape[draw(st.integers(0, ndim - 1)):]
    inverse = draw(st.permutations(range(len(shape))))
    second = {
        "shape": [shape[d] for d in np.argsort(inverse)],
        "steps": draw(st.lists(st.integers(1, 2), min_size=len(shape), max_size=len(shape))),
        "permutation": list(inverse),
        "expand": [-1] * len(shape),
    }
    return first, second


def observe_binary(lib: Any, name: str, pair: tuple[Any, Any]) -> tuple[Any, ...]:
    """What an elementwise op's result shows of its layout, and its values."""
    first, second = pair
    if isinstance(second, float):  # (a 0-d tensor where a number makes it a unary op)
        other = lib.tensor(second) if name in ("maximum", "atan2", "pow") else second
    else:
        other = build(lib, second)
    result = getattr(lib, name)(build(lib, first), other)
    try:
        flat = tuple(result.view(-1).shape)
    except RuntimeError as error:
        flat = str(error).replace("torch", "minigrad")
    return tuple(result.stride()), result.is_contiguous(), result.tolist(), flat


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=broadcast_pairs())
def test_an_elementwise_result_is_laid_out_as_pytorchs(name, pair):
    ours, theirs = observe_binary(minigrad, name, pair), observe_binary(torch, name, pair)
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and ours[3] == theirs[3]
    np.testing.assert_allclose(np.array(ours[2], dtype=float), np.array(theirs[2], dtype=float),
                               rtol=1e-6, equal_nan=True)
