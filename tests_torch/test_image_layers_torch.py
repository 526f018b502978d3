"""The image-shaped layers against PyTorch 2.13: padding modes, resampling, im2col.

The op table (tests/opinfo/image.py) checks values, gradients, saved tensors and bad inputs of
each function on a few samples. Here: the modules (repr, output, gradient), the nodes a call
records, and sweeps of options where PyTorch's index rules have corners (negative pads, odd
sizes, fractional scale factors).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def outcome(call: Any, lib: Any) -> Any:
    """``call(lib)``, or the exception it raised (type and text, ``torch`` -> ``minigrad``)."""
    try:
        return call(lib)
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's
        return type(error).__name__, str(error).replace("torch", "minigrad")


def run_both(call: Any, arrays: list[np.ndarray], seed: int = 0) -> list[Any]:
    """``call(lib, *tensors)`` in both libraries, then backward with one random gradient.

    Returns, per library, the result's values, node name and version and the inputs'
    gradients, or the error raised.
    """
    rng = np.random.default_rng(seed)
    grad = None
    results = []
    for lib in (torch, minigrad):
        tensors = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
        result = outcome(lambda lib: call(lib, *tensors), lib)  # noqa: B023 - called at once
        if isinstance(result, tuple):
            results.append(result)
            continue
        if grad is None:
            grad = rng.standard_normal(tuple(result.shape))
        if result.requires_grad and result.numel():
            result.backward(lib.tensor(grad, dtype=result.dtype))
        results.append(
            (
                result.detach().numpy(),
                result.grad_fn.name() if result.grad_fn is not None else None,
                result._version,
                [None if t.grad is None else t.grad.numpy() for t in tensors],
            )
        )
    return results


def assert_same(results: list[Any], atol: float = 1e-6) -> None:
    """The two libraries' ``run_both`` results agree (errors: type and text)."""
    expected, actual = results
    if isinstance(expected, tuple) and isinstance(expected[0], str):
        assert actual == expected
        return
    assert not (isinstance(actual, tuple) and isinstance(actual[0], str)), actual
    assert actual[0].shape == expected[0].shape
    np.testing.assert_allclose(actual[0], expected[0], atol=atol, rtol=1e-5)
    assert actual[1:3] == expected[1:3]
    for mine, theirs in zip(actual[3], expected[3]):
        assert (mine is None) == (theirs is None)
        if theirs is not None:
            np.testing.assert_allclose(mine, theirs, atol=atol, rtol=1e-5)


# --- padding ---------------------------------------------------------------------------------

PAD_CASES = [
    ((2, 4), (1, 2)),
    ((2, 3, 4), (3, 0)),
    ((2, 3, 4), (1, 1, 2, 0)),
    ((2, 3, 4, 5), (1, 2, 0, -1)),
    ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 2)),
    ((2, 4), (-1, 2)),
    ((2, 4), (-2, -1)),
    ((1, 4), (-2, -2)),
    ((1, 4), (-5, 0)),
    ((2, 4), (4, 0)),
    ((2, 4), (5, 0)),
    ((0, 3, 4), (1, 1)),
    ((3, 0, 4), (1, 1)),
    ((2, 3, 4), (1, 1, 3, 0)),
    ((2, 3, 4, 5), (-6, 1, 1, 1, 1, 0)),
    ((2, 3, 4), (-2, -2, -1, 0)),
    ((2, 3, 4, 5), (1, 1, 1, 1, -3, -1)),
]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize(("shape", "pad"), PAD_CASES)
def test_pad_modes_as_pytorch(mode: str, shape: tuple[int, ...], pad: tuple[int, ...]) -> None:
    """Values, gradients, node, version (circular: three copies) and errors."""
    array = np.random.default_rng(len(shape)).standard_normal(shape)
    assert_same(run_both(lambda lib, x: lib.nn.functional.pad(x, pad, mode=mode), [array]))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "constant"])
def test_pad_of_integers_and_bools_as_pytorch(mode: str) -> None:
    for dtype in ("int32", "bool"):

        def call(lib: Any, dtype: str = dtype) -> Any:
            return lib.nn.functional.pad(
                lib.ones(2, 3, dtype=getattr(lib, dtype)), (1, 2), mode=mode
            )

        expected, actual = outcome(call, torch), outcome(call, minigrad)
        if isinstance(expected, tuple):
            assert actual == expected
        else:
            assert str(actual.dtype) == str(expected.dtype).replace("torch", "minigrad")
            np.testing.assert_array_equal(actual.numpy(), expected.numpy())


def test_pad_mode_errors_as_pytorch() -> None:
    calls = [
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4), (1,), mode="wrap"),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4), (1, 1), mode="reflect", value=2.0),
        lambda lib: lib.nn.functional.pad(lib.ones(2, 4, 3, 3), (1, 1), mode="replicate"),
    ]
    for call in calls:
        assert outcome(call, minigrad) == outcome(call, torch)


def test_pad_double_backward_nodes_as_pytorch() -> None:
    for mode in ("reflect", "replicate"):
        names = []
        for lib in (torch, minigrad):
            x = lib.ones(2, 4, dtype=lib.float64, requires_grad=True)
            y = lib.nn.functional.pad(x, (1, 2), mode=mode)
            (g,) = lib.autograd.grad(y, x, lib.ones_like(y, requires_grad=True), create_graph=True)
            names.append((y.grad_fn.name(), g.grad_fn.name(), g.grad_fn._saved_padding))
        assert names[0] == names[1]


PADDING_MODULES = [
    (lambda nn: nn.ReflectionPad1d(2), (2, 3, 5)),
    (lambda nn: nn.ReflectionPad2d((1, 0, 2, 1)), (3, 4, 5)),
    (lambda nn: nn.ReflectionPad3d(1), (1, 2, 3, 3, 4)),
    (lambda nn: nn.ReplicationPad1d((3, 1)), (3, 4)),
    (lambda nn: nn.ReplicationPad2d(2), (1, 2, 3, 4)),
    (lambda nn: nn.ReplicationPad3d((1, 2, 0, 1, 2, 0)), (2, 2, 3, 4)),
    (lambda nn: nn.CircularPad1d(2), (2, 3, 4)),
    (lambda nn: nn.CircularPad2d((1, 2, 0, 1)), (2, 3, 4)),
    (lambda nn: nn.CircularPad3d(1), (1, 2, 2, 3, 4)),
    (lambda nn: nn.ConstantPad3d((1, 0, 2, 1, 0, 1), 2.5), (2, 2, 3, 4)),
    (lambda nn: nn.ZeroPad3d(1), (2, 2, 3, 4)),
]


@pytest.mark.parametrize(("make", "shape"), PADDING_MODULES)
def test_padding_modules_as_pytorch(make: Any, shape: tuple[int, ...]) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))
    assert make(minigrad.nn).padding == make(torch.nn).padding
    array = np.random.default_rng(1).standard_normal(shape)
    assert_same(run_both(lambda lib, x: make(lib.nn)(x), [array]))


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_circular_padding_modules_check_dims_as_pytorch(dims: int) -> None:
    for shape in ((5,), (1, 1, 1, 1, 1, 1)):
        call = lambda lib: getattr(lib.nn, f"CircularPad{dims}d")(1)(lib.ones(*shape))  # noqa: E731, B023
        assert outcome(call, minigrad) == outcome(call, torch)
