"""Differential tests: memory formats (``channels_last`` ...) in minigrad and PyTorch.

The same strided tensor is built in both libraries (row-major, channels-last, permuted,
sliced, 5-d, 2-d, with dims of size 1) and each API that takes ``memory_format=`` is asked of
it: ``is_contiguous``, ``contiguous``, ``clone``, ``to``, ``cpu``, ``empty`` and the ``*_like``
factories. Compared: ``stride()``, whether the tensor itself comes back, ``grad_fn``'s name,
values, gradients (and their strides), and the errors (type and text). Then the ops whose
result follows a channels-last input (convolution, pooling, interpolation, elementwise,
batch norm), ``nn.Module.to(memory_format=)``, and the factories' ``layout=`` and
``pin_memory=``.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

FORMATS = ("contiguous_format", "channels_last", "channels_last_3d", "preserve_format")

# How to build each input from a row-major tensor of the given shape: (shape, steps in lib).
INPUTS: dict[str, tuple[tuple[int, ...], Callable[[Any, Any], Any]]] = {
    "row-major 4-d": ((2, 3, 4, 5), lambda lib, t: t),
    "channels-last 4-d": (
        (2, 3, 4, 5),
        lambda lib, t: t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
    ),
    "sliced channels-last": (
        (2, 4, 4, 5),
        lambda lib, t: t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)[:, ::2],
    ),
    "permuted 4-d": ((2, 3, 4, 5), lambda lib, t: t.permute(3, 1, 0, 2)),
    "channels one": (
        (2, 1, 3, 4),
        lambda lib, t: t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
    ),
    "N111": ((3, 2, 1, 1), lambda lib, t: t),
    "channels-last 5-d": (
        (2, 3, 2, 3, 4),
        lambda lib, t: t.permute(0, 2, 3, 4, 1).contiguous().permute(0, 4, 1, 2, 3),
    ),
    "transposed 2-d": ((3, 4), lambda lib, t: t.t()),
    "row-major 1-d": ((5,), lambda lib, t: t),
}


def build(lib: Any, name: str, requires_grad: bool = False) -> Any:
    """The input ``name`` in ``lib`` (float64, reproducible values)."""
    shape, steps = INPUTS[name]
    values = np.random.default_rng(len(name)).standard_normal(shape)
    leaf = lib.tensor(values, requires_grad=requires_grad)
    return leaf, steps(lib, leaf)


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its value, or the error's type and text."""
    try:
        return call()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).replace("torch", "minigrad")


def described(result: Any, source: Any) -> Any:
    """A result as comparable data: a tensor's stride, identity, node name and values."""
    if not hasattr(result, "stride"):
        return result
    node = result.grad_fn.name() if result.grad_fn is not None else None
    return (
        tuple(result.stride()),
        result is source,
        node,
        result.dtype.itemsize,
        result.detach().numpy().tolist(),
    )


def fmt(lib: Any, name: str) -> Any:
    return getattr(lib, name)


def both(call: Callable[[Any, Any], Any], name: str) -> tuple[Any, Any]:
    """``call(lib, x)`` on the input ``name`` in each library, described."""
    results = []
    for lib in (torch, minigrad):
        _, x = build(lib, name)
        results.append(outcome(lambda lib=lib, x=x: described(call(lib, x), x)))
    return results[0], results[1]


def test_the_formats_print_pickle_and_are_the_only_ones():
    for name in FORMATS:
        value = getattr(minigrad, name)
        assert repr(value) == repr(getattr(torch, name)).replace("torch", "minigrad")
        assert pickle.loads(pickle.dumps(value)) is value
        assert isinstance(value, minigrad.memory_format)
    with pytest.raises(TypeError) as expected:
        torch.memory_format()
    with pytest.raises(TypeError) as got:
        minigrad.memory_format()
    assert str(got.value) == str(expected.value).replace("torch", "minigrad")


@parametrize_in_one("name", INPUTS)
@parametrize_in_one("memory_format", FORMATS)
def test_is_contiguous_and_contiguous(name, memory_format):
    expected, got = both(
        lambda lib, x: x.is_contiguous(memory_format=fmt(lib, memory_format)), name
    )
    assert got == expected
    expected, got = both(lambda lib, x: x.contiguous(memory_format=fmt(lib, memory_format)), name)
    assert got == expected


@parametrize_in_one("name", INPUTS)
@parametrize_in_one("memory_format", FORMATS)
def test_clone_to_cpu_and_the_like_factories(name, memory_format):
    calls = {
        "clone": lambda lib, x: x.clone(memory_format=fmt(lib, memory_format)),
        "minigrad.clone": lambda lib, x: lib.clone(x, memory_format=fmt(lib, memory_format)),
        "to": lambda lib, x: x.to(memory_format=fmt(lib, memory_format)),
        "to float32": lambda lib, x: x.to(lib.float32, memory_format=fmt(lib, memory_format)),
        "to copy": lambda lib, x: x.to(copy=True, memory_format=fmt(lib, memory_format)),
        "cpu": lambda lib, x: x.cpu(memory_format=fmt(lib, memory_format)),
        "zeros_like": lambda lib, x: lib.zeros_like(x, memory_format=fmt(lib, memory_format)),
        "ones_like": lambda lib, x: lib.ones_like(x, memory_format=fmt(lib, memory_format)),
        "full_like": lambda lib, x: lib.full_like(x, 2.0, memory_format=fmt(lib, memory_format)),
    }
    for call in calls.values():
        expected, got = both(call, name)
        assert got == expected
    random = {  # (values differ: strides and shapes only)
        "empty_like": lambda lib, x: lib.empty_like(x, memory_format=fmt(lib, memory_format)),
        "rand_like": lambda lib, x: lib.rand_like(x, memory_format=fmt(lib, memory_format)),
        "randn_like": lambda lib, x: lib.randn_like(x, memory_format=fmt(lib, memory_format)),
    }
    for call in random.values():
        expected, got = both(lambda lib, x, call=call: call(lib, x).stride(), name)
        assert got == expected


@parametrize_in_one(
    "shape", [(2, 3, 4, 5), (2, 3, 0, 5), (0, 3, 4, 5), (2, 3, 4, 5, 6), (3, 4), ()]
)
@parametrize_in_one("memory_format", FORMATS)
def test_empty(shape, memory_format):
    expected = outcome(lambda: torch.empty(shape, memory_format=fmt(torch, memory_format)).stride())
    got = outcome(
        lambda: minigrad.empty(shape, memory_format=fmt(minigrad, memory_format)).stride()
    )
    assert got == expected


@parametrize_in_one(
    "name", ["row-major 4-d", "channels-last 4-d", "sliced channels-last", "channels-last 5-d"]
)
@parametrize_in_one(
    "call",
    [
        lambda lib, x: x.contiguous(memory_format=lib.channels_last),
        lambda lib, x: x.contiguous(),
        lambda lib, x: x.clone(memory_format=lib.channels_last_3d),
        lambda lib, x: x.clone(memory_format=lib.contiguous_format),
        lambda lib, x: x.to(lib.float32, memory_format=lib.channels_last),
        lambda lib, x: x.to(memory_format=lib.channels_last_3d),
    ],
)
def test_gradients_flow_through_the_copies(name, call):
    grads = []
    for lib in (torch, minigrad):
        leaf, x = build(lib, name, requires_grad=True)
        result = outcome(lambda lib=lib, x=x: call(lib, x))
        if isinstance(result, tuple):
            grads.append(result)
            continue
        weights = lib.arange(float(result.numel()), dtype=result.dtype).reshape(result.shape)
        (result * weights).sum().backward()
        grads.append((tuple(leaf.grad.stride()), leaf.grad.numpy().tolist()))
    assert grads[1] == grads[0]


@parametrize_in_one(
    "call",
    [
        lambda lib, x: x.contiguous(memory_format=1),
        lambda lib, x: x.contiguous(memory_format=None),
        lambda lib, x: x.contiguous(lib.channels_last),
        lambda lib, x: x.is_contiguous(memory_format="channels_last"),
        lambda lib, x: x.is_contiguous(None),
        lambda lib, x: x.clone(lib.channels_last),
        lambda lib, x: x.clone(memory_format=2),
        lambda lib, x: lib.clone(x, memory_format=2),
        lambda lib, x: x.cpu(lib.channels_last),
        lambda lib, x: x.to(memory_format=1),
        lambda lib, x: x.to(lib.float64, memory_format="channels_last"),
        lambda lib, x: lib.empty(2, memory_format=1),
        lambda lib, x: lib.zeros_like(x, memory_format=1),
        lambda lib, x: lib.empty_like(x, memory_format=lib.layout),
    ],
)
def test_wrong_types_get_the_parsers_errors(call):
    expected, got = both(call, "row-major 4-d")
    assert isinstance(expected, tuple) and expected[0] == "TypeError"
    assert got == expected


def test_none_is_preserve_format_where_pytorch_takes_it():
    for call in (
        lambda lib, x: x.clone(memory_format=None),
        lambda lib, x: lib.zeros_like(x, memory_format=None),
        lambda lib, x: x.cpu(memory_format=None),
        lambda lib, x: lib.empty(2, 3, memory_format=None),
    ):
        expected, got = both(call, "channels-last 4-d")
        assert got[0] == expected[0]


# --- ops on channels-last inputs --------------------------------------------------------------

OPS = {
    "conv2d": lambda F, x, w: F.conv2d(x, w, padding=1),
    "conv2d weight channels-last": lambda F, x, w: F.conv2d(
        x.contiguous(),
        w.contiguous(
            memory_format=torch.channels_last
            if isinstance(w, torch.Tensor)
            else minigrad.channels_last
        ),
    ),
    "conv2d bias": lambda F, x, w: F.conv2d(x, w, w[:, 0, 0, 0], stride=2),
    "conv_transpose2d": lambda F, x, w: F.conv_transpose2d(x, w.transpose(0, 1)),
    "relu": lambda F, x, w: F.relu(x),
    "add": lambda F, x, w: x + x * 2,
    "batch_norm": lambda F, x, w: F.batch_norm(x, None, None, training=True),
    "max_pool2d": lambda F, x, w: F.max_pool2d(x, 2),
    "max_pool2d indices": lambda F, x, w: F.max_pool2d(x, 3, 2, 1, return_indices=True)[1],
    "avg_pool2d": lambda F, x, w: F.avg_pool2d(x, 2, ceil_mode=True),
    "adaptive_avg_pool2d": lambda F, x, w: F.adaptive_avg_pool2d(x, (3, 2)),
    "adaptive_max_pool2d": lambda F, x, w: F.adaptive_max_pool2d(x, 3),
    "interpolate nearest": lambda F, x, w: F.interpolate(x, scale_factor=2),
    "interpolate bilinear": lambda F, x, w: F.interpolate(x, size=(5, 3), mode="bilinear"),
    "interpolate bicubic": lambda F, x, w: F.interpolate(x, scale_factor=1.5, mode="bicubic"),
    "pad constant": lambda F, x, w: F.pad(x, (1, 2, 0, 1), value=0.5),
    "pad last dim": lambda F, x, w: F.pad(x, (1, 1)),
    "pad reflect": lambda F, x, w: F.pad(x, (1, 1, 1, 0), mode="reflect"),
    "pad replicate": lambda F, x, w: F.pad(x, (2, 1, 1, 1), mode="replicate"),
    "pad circular": lambda F, x, w: F.pad(x, (1, 1, 1, 1), mode="circular"),
    "group_norm": lambda F, x, w: F.group_norm(x, 3, w[0, :, 0, 0], w[1, :, 0, 0]),
    "layer_norm": lambda F, x, w: F.layer_norm(x, x.shape[-1:]),
    "layer_norm transposed": lambda F, x, w: F.layer_norm(x.transpose(2, 3), x.shape[-2:-1]),
}


@parametrize_in_one("op", OPS)
@parametrize_in_one("layout", ["channels-last", "row-major", "N111"])
def test_ops_lay_out_channels_last_results_as_pytorch(op, layout):
    shape = (2, 3, 1, 1) if layout == "N111" else (2, 3, 6, 7)
    rng = np.random.default_rng(7)
    x_values, w_values = rng.standard_normal(shape), rng.standard_normal((4, 3, 3, 3))
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(x_values)
        if layout != "row-major":
            x = x.contiguous(memory_format=lib.channels_last)
        x.requires_grad_()
        w = lib.tensor(w_values, requires_grad=True)
        if op.startswith("conv") and layout == "N111":
            w = lib.tensor(w_values[..., :1, :1], requires_grad=True)
        y = outcome(lambda lib=lib, x=x, w=w: OPS[op](lib.nn.functional, x, w))
        if isinstance(y, tuple):  # (a window larger than a 1x1 input: the same error)
            results.append(y)
            continue
        stride = tuple(y.stride())
        if y.requires_grad:
            weights = lib.tensor(rng.standard_normal(y.shape) if lib is torch else results[0][3])
            (y * weights).sum().backward()
            grads = (tuple(x.grad.stride()), x.grad.numpy(), w.grad)
        else:
            grads = (None, None, None)
            weights = None
        results.append(
            (stride, y.detach().numpy(), grads, None if weights is None else weights.numpy())
        )
    if isinstance(results[0][0], str):
        assert results[1] == results[0]
        return
    (stride_t, y_t, grads_t, _), (stride_m, y_m, grads_m, _) = results
    assert stride_m == stride_t
    np.testing.assert_allclose(y_m, y_t, rtol=1e-10, atol=1e-12)
    assert grads_m[0] == grads_t[0]
    if grads_t[1] is not None:
        np.testing.assert_allclose(grads_m[1], grads_t[1], rtol=1e-10, atol=1e-12)
    if grads_t[2] is not None:
        np.testing.assert_allclose(grads_m[2].numpy(), grads_t[2].numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "op",
    [
        "max_pool3d",
        "avg_pool3d",
        "adaptive_avg_pool3d",
        "adaptive_max_pool3d",
        "conv3d",
        "interpolate",
        "pad",
        "pad replicate",
        "group_norm",
    ],
)
def test_5d_ops_on_channels_last_3d_inputs(op):
    values = np.random.default_rng(3).standard_normal((2, 3, 4, 4, 5))
    weight = np.random.default_rng(4).standard_normal((2, 3, 2, 2, 2))
    calls = {
        "max_pool3d": lambda F, x, w: F.max_pool3d(x, 2),
        "avg_pool3d": lambda F, x, w: F.avg_pool3d(x, 2),
        "adaptive_avg_pool3d": lambda F, x, w: F.adaptive_avg_pool3d(x, 2),
        "adaptive_max_pool3d": lambda F, x, w: F.adaptive_max_pool3d(x, 2),
        "conv3d": lambda F, x, w: F.conv3d(x, w),
        "interpolate": lambda F, x, w: F.interpolate(x, scale_factor=2, mode="trilinear"),
        "pad": lambda F, x, w: F.pad(x, (1, 1, 0, 1, 1, 0)),
        "pad replicate": lambda F, x, w: F.pad(x, (1, 1, 0, 1, 1, 0), mode="replicate"),
        "group_norm": lambda F, x, w: F.group_norm(x, 3),
    }
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(values).contiguous(memory_format=lib.channels_last_3d)
        y = calls[op](lib.nn.functional, x, lib.tensor(weight))
        results.append((tuple(y.stride()), y.numpy()))
    assert results[1][0] == results[0][0]
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-10, atol=1e-12)


# --- nn.Module.to(memory_format=) --------------------------------------------------------------


def test_module_to_channels_last_converts_4d_parameters_only():
    reference = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3),
        torch.nn.BatchNorm2d(4),
        torch.nn.Flatten(),
        torch.nn.Linear(4 * 4 * 5, 2),
    ).double()
    model = minigrad.nn.Sequential(
        minigrad.nn.Conv2d(3, 4, 3),
        minigrad.nn.BatchNorm2d(4),
        minigrad.nn.Flatten(),
        minigrad.nn.Linear(4 * 4 * 5, 2),
    ).double()
    model.load_state_dict(
        {key: minigrad.tensor(value.numpy()) for key, value in reference.state_dict().items()}
    )
    assert reference.to(memory_format=torch.channels_last) is reference
    assert model.to(memory_format=minigrad.channels_last) is model
    for (name, p_t), (_, p_m) in zip(reference.named_parameters(), model.named_parameters()):
        assert tuple(p_m.stride()) == tuple(p_t.stride()), name
    values = np.random.default_rng(0).standard_normal((2, 3, 6, 7))
    y_t = reference(torch.tensor(values).contiguous(memory_format=torch.channels_last))
    y_m = model(minigrad.tensor(values).contiguous(memory_format=minigrad.channels_last))
    np.testing.assert_allclose(y_m.detach().numpy(), y_t.detach().numpy(), rtol=1e-10)
    conv3d_t, conv3d_m = torch.nn.Conv3d(1, 1, 1), minigrad.nn.Conv3d(1, 1, 1)
    expected = outcome(lambda: conv3d_t.to(memory_format=torch.channels_last))
    got = outcome(lambda: conv3d_m.to(memory_format=minigrad.channels_last))
    assert got == expected


# --- the factories' layout= and pin_memory= ------------------------------------------------------

FACTORY_CALLS = {
    "zeros": lambda lib, **kw: lib.zeros(2, 3, **kw),
    "ones": lambda lib, **kw: lib.ones((2, 3), **kw),
    "empty": lambda lib, **kw: lib.empty(2, 3, **kw).zero_(),
    "full": lambda lib, **kw: lib.full((2,), 1.5, **kw),
    "scalar_tensor": lambda lib, **kw: lib.scalar_tensor(3, **kw),
    "rand": lambda lib, **kw: lib.rand(2, **kw).mul(0),
    "randn": lambda lib, **kw: lib.randn(2, **kw).mul(0),
    "arange": lambda lib, **kw: lib.arange(3, **kw),
    "linspace": lambda lib, **kw: lib.linspace(0, 1, 3, **kw),
    "logspace": lambda lib, **kw: lib.logspace(0, 1, 3, **kw),
    "eye": lambda lib, **kw: lib.eye(2, **kw),
    "randperm": lambda lib, **kw: lib.randperm(3, **kw).sort().values,
    "randint": lambda lib, **kw: lib.randint(3, (2,), **kw).mul(0),
    "tril_indices": lambda lib, **kw: lib.tril_indices(2, 2, **kw),
    "new_zeros": lambda lib, **kw: lib.ones(2).new_zeros(2, **kw),
    "new_empty": lambda lib, **kw: lib.ones(2).new_empty((2,), **kw).zero_(),
    "new_full": lambda lib, **kw: lib.ones(2).new_full((2,), 3.0, **kw),
    "zeros_like": lambda lib, **kw: lib.zeros_like(lib.ones(2), **kw),
    "full_like": lambda lib, **kw: lib.full_like(lib.ones(2), 4, **kw),
}


@parametrize_in_one("factory", FACTORY_CALLS)
@parametrize_in_one(
    "options",
    [
        {"layout": "strided"},
        {"layout": None},
        {"pin_memory": False},
        {"pin_memory": None},
        {"pin_memory": True},
        {"layout": 1},
        {"pin_memory": 1},
        {"layout": "strided", "pin_memory": True},
    ],
)
def test_factories_take_layout_and_pin_memory(factory, options):
    results = []
    for lib in (torch, minigrad):
        kwargs = {
            key: lib.strided if value == "strided" else value for key, value in options.items()
        }
        results.append(
            outcome(lambda lib=lib, kwargs=kwargs: FACTORY_CALLS[factory](lib, **kwargs).tolist())
        )
    assert results[1] == results[0]


# --- randint_like -------------------------------------------------------------------------------


@parametrize_in_one(
    "call",
    [
        lambda lib, x: lib.randint_like(x, 10),
        lambda lib, x: lib.randint_like(x, 3, 10),
        lambda lib, x: lib.randint_like(x, high=10),
        lambda lib, x: lib.randint_like(x, low=3, high=10),
        lambda lib, x: lib.randint_like(x, lib.tensor(10)),
        lambda lib, x: lib.randint_like(x, 10, dtype=lib.int64),
        lambda lib, x: lib.randint_like(x, 10, memory_format=lib.channels_last),
        lambda lib, x: lib.randint_like(x, 10, memory_format=lib.contiguous_format),
        lambda lib, x: lib.randint_like(x, 10, requires_grad=True),
        lambda lib, x: lib.randint_like(x, 10, generator=lib.Generator()),
        lambda lib, x: lib.randint_like(x, 10.5),
        lambda lib, x: lib.randint_like(x, 0),
        lambda lib, x: lib.randint_like(x, 5, 3),
        lambda lib, x: lib.randint_like(x),
        lambda lib, x: lib.randint_like(x, 1, 2, 3),
        lambda lib, x: lib.randint_like(x, 10, layout=1),
        lambda lib, x: lib.randint_like(x, 10, memory_format=1),
        lambda lib, x: lib.randint_like(x, 10, generator=1),
        lambda lib, x: lib.randint_like(x, high=2.5),
        lambda lib, x: lib.randint_like(x, low=1),
        lambda lib, x: lib.randint_like(x, 300, dtype=lib.uint8),
        lambda lib, x: lib.randint_like(x, 10, pin_memory=True),
    ],
)
@parametrize_in_one("name", ["channels-last 4-d", "permuted 4-d"])
def test_randint_like(call, name):
    def described(lib: Any, x: Any) -> Any:
        y = call(lib, x)
        low, high = (3, 10) if (y >= 3).all() else (0, 10)
        values_in_range = bool(((y >= 0) & (y < high)).all()) and low >= 0
        return tuple(y.stride()), str(y.dtype), y.requires_grad, values_in_range

    expected, got = both(described, name)
    if isinstance(expected, tuple) and len(expected) == 4 and isinstance(expected[1], str):
        expected = (*expected[:1], expected[1].replace("torch", "minigrad"), *expected[2:])
    assert got == expected
