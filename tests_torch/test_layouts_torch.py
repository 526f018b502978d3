"""Differential tests: the memory layout of tensors made like another, in minigrad and PyTorch.

``clone()`` and the ``*_like`` factories lay their result out as PyTorch's ``preserve_format``
does (minigrad/_layout.py): the same strided input is built in both libraries (a random shape,
permutation, slicing steps, broadcast dimensions of stride 0, dimensions of size 1) and
the results' ``stride()``, ``is_contiguous()`` and values are compared, then whether viewing
the result flat works (a layout's observable consequence).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one
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
def strided_inputs(draw: Any, empty: bool = False) -> dict[str, Any]:
    """How to build one strided tensor: base shape, slicing steps, permutation, expansion.

    ``empty``: a tensor without elements (one dimension of size 0, the others of any size).
    """
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    steps = draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim))
    if empty:
        empty_dim = draw(st.integers(0, ndim - 1))
        # (a step along the empty dim itself is left out: numpy does not scale the stride of
        # an empty slice, PyTorch does, a gap left)
        shape[empty_dim], steps[empty_dim] = 0, 1
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


# One-input ops, by the rule PyTorch lays their result out with (minigrad/_layout.py):
# TensorIterator's (elementwise), a new contiguous tensor (reductions, scans, cat, ...) or
# empty_like's preserve_format (conversions, sort, flip).
ONE_INPUT = {
    # elementwise
    "exp": lambda lib, x: x.exp(),
    "neg": lambda lib, x: -x,
    "abs": lambda lib, x: x.abs(),
    "sigmoid": lambda lib, x: x.sigmoid(),
    "tanh": lambda lib, x: x.tanh(),
    "relu": lambda lib, x: lib.relu(x),
    "sqrt": lambda lib, x: x.sqrt(),
    "floor": lambda lib, x: x.floor(),
    "round decimals": lambda lib, x: x.round(decimals=1),
    "frac": lambda lib, x: x.frac(),
    "sign": lambda lib, x: x.sign(),
    "pow 2": lambda lib, x: x ** 2,
    "rsub": lambda lib, x: 1.0 - x,
    "clamp": lambda lib, x: x.clamp(1.0, 5.0),
    "clamp min": lambda lib, x: x.clamp(min=2.0),
    "where": lambda lib, x: lib.where(x > 3, x, 0.0),
    "lerp": lambda lib, x: lib.lerp(x, x * 0, 0.5),
    "addcmul": lambda lib, x: lib.addcmul(x, x, x),
    "gelu": lambda lib, x: lib.nn.functional.gelu(x),
    "leaky_relu": lambda lib, x: lib.nn.functional.leaky_relu(x),
    "logical_not": lambda lib, x: ~(x > 3),
    # (views, matrix products, indexing: laid out by their own rules, compared too)
    "matmul": lambda lib, x: x @ x.transpose(-1, -2) if x.dim() > 1 else x @ x,
    "index list": lambda lib, x: x[[0, 0]],
    "index_select": lambda lib, x: x.index_select(0, lib.tensor([0, 0])),
    # preserve_format
    "to float64": lambda lib, x: x.to(lib.float64),
    "to int64": lambda lib, x: x.to(lib.int64),
    "bool": lambda lib, x: x.bool(),
    "nan_to_num": lambda lib, x: x.nan_to_num(),
    "sort values": lambda lib, x: x.sort(0).values,
    "sort indices": lambda lib, x: x.sort(-1).indices,
    "flip": lambda lib, x: x.flip(0),
    # contiguous
    "sum dim": lambda lib, x: x.sum(0),
    "sum last keepdim": lambda lib, x: x.sum(-1, keepdim=True),
    "sum dims keepdim": lambda lib, x: x.sum((0, x.dim() - 1) if x.dim() > 1 else 0,
                                             keepdim=True),
    "mean keepdim": lambda lib, x: x.mean(0, keepdim=True),
    "prod dim": lambda lib, x: x.prod(-1),
    "amax keepdim": lambda lib, x: x.amax(-1, keepdim=True),
    "max dim values": lambda lib, x: x.max(0).values,
    "max dim indices": lambda lib, x: x.max(-1, keepdim=True).indices,
    "var dim": lambda lib, x: x.var(0, correction=0),
    "std keepdim": lambda lib, x: x.std(-1, keepdim=True, correction=0),
    "logsumexp": lambda lib, x: x.logsumexp(0),
    "norm dim": lambda lib, x: x.norm(dim=-1),
    "all dim": lambda lib, x: (x > 3).all(0),
    "any keepdim": lambda lib, x: (x > 3).any(-1, keepdim=True),
    "cumsum": lambda lib, x: x.cumsum(0),
    "masked_fill": lambda lib, x: x.masked_fill(x > 3, 0.0),
    "cat": lambda lib, x: lib.cat([x, x], -1),
    "cat dim 1": lambda lib, x: lib.cat([x, x.clone()], min(1, x.dim() - 1)),
    "stack": lambda lib, x: lib.stack([x, x], 0),
    "stack dim 1": lambda lib, x: lib.stack([x, x], 1),
    "stack last": lambda lib, x: lib.stack([x, x.clone()], -1),
    "roll": lambda lib, x: x.roll(1, 0),
    "repeat": lambda lib, x: x.repeat(*[2] + [1] * (x.dim() - 1)),
    "tril": lambda lib, x: x.tril() if x.dim() > 1 else x.exp(),
}


def observe_one_input(lib: Any, name: str, spec: dict[str, Any], how: str) -> tuple[Any, ...]:
    """What a one-input op's result shows of its layout, and its values.

    ``how``: the input as a view ("view"), as a tensor of its own with the same strides
    ("clone": the recording's fast branch), either requiring grad ("... grad").
    """
    x = build(lib, spec)
    if how.startswith("clone"):
        x = x.clone()  # (keeps the layout: compared above)
    if how.endswith("grad"):
        x = x.detach().requires_grad_(True) if how.startswith("clone") else x.requires_grad_(
            True)
    result = ONE_INPUT[name](lib, x)
    try:
        flat = tuple(result.view(-1).shape)
    except RuntimeError as error:
        flat = str(error).replace("torch", "minigrad")
    return tuple(result.stride()), result.is_contiguous(), result.tolist(), flat


@pytest.mark.parametrize("how", ["view", "view grad", "clone", "clone grad"])
@pytest.mark.parametrize("name", list(ONE_INPUT))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=strided_inputs())
def test_a_one_input_result_is_laid_out_as_pytorchs(name, how, spec):
    ours = observe_one_input(minigrad, name, spec, how)
    theirs = observe_one_input(torch, name, spec, how)
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and ours[3] == theirs[3]
    np.testing.assert_allclose(np.array(ours[2], dtype=float), np.array(theirs[2], dtype=float),
                               rtol=1e-5, atol=1e-6, equal_nan=True)


# Views of an empty tensor, and the one-input ops on it (an empty tensor's strides are seen
# through its views and kept by preserve_format: PyTorch counts it contiguous).
ON_EMPTY = {
    "transpose": lambda lib, x: x.transpose(0, -1),
    "t": lambda lib, x: x.t() if x.dim() <= 2 else x.mT,
    "permute": lambda lib, x: x.permute(*reversed(range(x.dim()))),
    "unsqueeze": lambda lib, x: x.unsqueeze(1).transpose(0, 1),
    "movedim": lambda lib, x: x.movedim(0, -1),
    "expand": lambda lib, x: x.unsqueeze(0).expand(2, *x.shape).transpose(0, -1),
    **{name: lambda lib, x, name=name: FACTORIES[name](lib, x.transpose(0, -1))
       for name in FACTORIES},
    **{name: lambda lib, x, name=name: ONE_INPUT[name](lib, x.transpose(0, -1))
       for name in ONE_INPUT},
}
# Left: TensorIterator lays out an empty result after a wrapped number or a condition in its
# own way (strides of 0); an index of an empty tensor is out of range in both, a reduction of
# an empty dim raises in both (their texts are compared elsewhere); an empty advanced index
# result's strides are PyTorch's own.
EMPTY_LEFT = {"rsub", "where", "index list", "index_select", "amax keepdim", "max dim values",
              "max dim indices"}


@pytest.mark.parametrize("name", [name for name in ON_EMPTY if name not in EMPTY_LEFT])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=strided_inputs(empty=True))
def test_an_empty_tensor_transposed_is_laid_out_as_pytorchs(name, spec):
    with warnings.catch_warnings():  # (var and std of no elements warn, in both)
        warnings.simplefilter("ignore", UserWarning)
        ours = ON_EMPTY[name](minigrad, build(minigrad, spec))
        theirs = ON_EMPTY[name](torch, build(torch, spec))
    assert (ours.stride(), ours.is_contiguous(), tuple(ours.shape)) == (
        theirs.stride(), theirs.is_contiguous(), tuple(theirs.shape))


EMPTY = {
    "zeros": lambda lib, shape: lib.zeros(shape),
    "empty": lambda lib, shape: lib.empty(shape),
    "reshape": lambda lib, shape: lib.zeros(shape[::-1]).reshape(shape),
    "exp": lambda lib, shape: lib.zeros(shape).exp(),
    "mul": lambda lib, shape: lib.zeros(shape) * lib.zeros(shape),
    "sum": lambda lib, shape: lib.zeros((*shape, 2)).sum(-1),
    "clone": lambda lib, shape: lib.zeros(shape).clone(),
    "to": lambda lib, shape: lib.zeros(shape).double(),
}


@parametrize_in_one("name", list(EMPTY))
@parametrize_in_one("shape", [(0,), (2, 0), (0, 3), (2, 0, 3), (0, 1, 0)])
def test_an_empty_tensor_has_the_strides_of_a_new_one(name, shape):
    # (numpy gives an empty array strides of 0; PyTorch a new tensor's, sizes 0 counted as 1)
    ours, theirs = EMPTY[name](minigrad, shape), EMPTY[name](torch, shape)
    assert ours.stride() == theirs.stride()
    assert ours.is_contiguous() == theirs.is_contiguous()
    assert ours.stride(-1) == theirs.stride(-1)


CONCATENATED = {
    "roll of a channels-last tensor": (
        lambda lib: lib.ones(2, 3, 4, 5).permute(0, 3, 1, 2).roll(1, 0)
    ),
    "roll with a size-1 dim": (
        lambda lib: lib.ones(2, 1, 2, 2).permute(0, 3, 1, 2).clone().roll(1, 0)
    ),
    "roll over two dims": lambda lib: lib.ones(2, 3, 4, 5).permute(0, 3, 1, 2).roll((1, 1), (0, 2)),
    "roll of a 5-d channels-last tensor": (
        lambda lib: lib.ones(2, 3, 4, 5, 6).permute(0, 4, 1, 2, 3).clone().roll(1, 1)
    ),
    "roll of a row-major tensor": lambda lib: lib.ones(2, 3, 4, 5).roll(1, 0),
    "cat of channels-last tensors": lambda lib: lib.cat(
        [lib.ones(2, 3, 4, 5).permute(0, 3, 1, 2), lib.ones(2, 3, 4, 5).permute(0, 3, 1, 2)], 1
    ),
    "cat of mixed layouts": lambda lib: lib.cat(
        [lib.ones(2, 3, 4, 5).permute(0, 3, 1, 2), lib.ones(2, 5, 3, 4)], 1
    ),
    "cat of an N111 tensor": lambda lib: lib.cat([lib.ones(2, 1, 1, 1), lib.ones(2, 1, 1, 1)], 0),
}


@pytest.mark.parametrize("name", list(CONCATENATED))
def test_cat_and_roll_keep_the_memory_format_their_inputs_suggest(name):
    # (PyTorch's cat allocates in the format all its inputs suggest: channels-last's stride
    # heuristic; roll along dims is a cat of two slices)
    ours, theirs = CONCATENATED[name](minigrad), CONCATENATED[name](torch)
    assert ours.stride() == theirs.stride()
    assert ours.tolist() == theirs.tolist()
