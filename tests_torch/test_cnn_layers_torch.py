"""The convolution-network layers against PyTorch 2.13: what the op table cannot hold.

The op table (tests/opinfo/nn_functional.py) checks values, gradients, saved tensors and bad
inputs of each function. Here: the modules' reprs, the nodes a call records (and records again
under create_graph), the indices of ties and nans, and argument errors raised before any kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def outcome(call: Any, lib: Any) -> Any:
    """``call(lib)``, or the exception it raised (type and text, ``torch`` -> ``minigrad``)."""
    try:
        return call(lib)
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's
        return type(error).__name__, str(error).replace("torch", "minigrad")


def node_names(tensor: Any) -> list[str]:
    """The names of the nodes on the path from ``tensor`` through each node's first input."""
    names = []
    node = tensor.grad_fn
    while node is not None and "AccumulateGrad" not in node.name():
        names.append(node.name())
        edges = [edge for edge in node.next_functions if edge[0] is not None]
        node = edges[0][0] if edges else None
    return names


MODULES = [
    lambda nn: nn.AdaptiveAvgPool1d(3),
    lambda nn: nn.AdaptiveAvgPool2d((3, None)),
    lambda nn: nn.AdaptiveMaxPool1d(2, return_indices=True),
    lambda nn: nn.AdaptiveMaxPool2d((2, 3)),
    lambda nn: nn.MaxPool1d(3, 2, 1, 2, True, True),
    lambda nn: nn.AvgPool1d(3, 2, 1, True, False),
    lambda nn: nn.ConvTranspose1d(4, 6, 3),
    lambda nn: nn.PixelShuffle(2),
    lambda nn: nn.PixelUnshuffle(3),
    lambda nn: nn.ConvTranspose2d(4, 6, 3, 2, 1, 1, 2, False, 2),
]


@parametrize_in_one("make", MODULES)
def test_module_repr_as_pytorch(make: Any) -> None:
    assert repr(make(minigrad.nn)) == repr(make(torch.nn))


# (function of (lib, x), input shape): the nodes of the result and of its gradient.
GRAPHS = {
    "adaptive_avg_pool2d": (lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 2),
                            (3, 5, 7)),
    "adaptive_avg_pool2d_one": (lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1),
                                (2, 3, 5, 7)),
    "adaptive_max_pool2d": (lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x, (2, 3)),
                            (2, 3, 5, 7)),
    "adaptive_avg_pool1d": (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, 3),
                            (2, 3, 7)),
    "adaptive_avg_pool1d_one": (lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x, 1),
                                (2, 3, 7)),
    "adaptive_max_pool1d": (lambda lib, x: lib.adaptive_max_pool1d(x, 3)[0], (3, 7)),
    "max_pool1d": (lambda lib, x: lib.nn.functional.max_pool1d(x, 3, 2), (2, 3, 7)),
    "avg_pool1d": (lambda lib, x: lib.avg_pool1d(x, 3, 2, 1), (3, 7)),
    "conv_transpose1d": (lambda lib, x: lib.conv_transpose1d(
        x, lib.ones(1, 2, 2, dtype=x.dtype, requires_grad=True), None, 2), (2, 1, 4)),
}


@pytest.mark.parametrize("case", sorted(GRAPHS))
def test_recorded_nodes_as_pytorch(case: str) -> None:
    call, shape = GRAPHS[case]
    array = np.random.default_rng(0).standard_normal(shape)
    names = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = call(lib, x)
        (grad,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        names.append((node_names(y), node_names(grad)))
    assert names[0] == names[1]


def test_adaptive_max_indices_of_ties_and_nans_as_pytorch() -> None:
    nan = float("nan")
    rows = [[1.0, 3.0, 3.0, 2.0, 2.0], [nan, 1.0, nan, 5.0, 5.0], [0.0, 0.0, 0.0, 0.0, 0.0]]
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([rows])
        results.append([t.tolist() for t in lib.nn.functional.adaptive_max_pool2d(
            x, (2, 3), return_indices=True)])
        results.append(lib.adaptive_max_pool1d(x[0], 2)[1].tolist())
    assert str(results[:2]) == str(results[2:])


ARGUMENT_ERRORS = [
    lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(2, 3, 4), None),
    lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(2, 3, 4), 2.5),
    lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(2, 3, 4), (2.0, 3)),
    lambda lib: lib.nn.functional.adaptive_max_pool2d([1.0], 2),
    lambda lib: lib.nn.functional.adaptive_avg_pool1d([1.0], 2),
    lambda lib: lib.nn.functional.adaptive_avg_pool1d(lib.ones(2, 3), None),
    lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(2, 0, 3, 4), 2),
    lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(2, 3, 4, 4), (-1, 2)),
    lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 4, dtype=lib.int64), 2),
    lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 4), 2, dilation=(1, 1)),
    lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 4), 2, dilation=0),
    lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 3, 4), 2.0),
    lambda lib: lib.nn.functional.avg_pool1d(lib.ones(2, 3, 4), 2, (1, 1)),
    lambda lib: lib.nn.functional.avg_pool1d(lib.ones(2, 3, 4, dtype=lib.bool), 2),
    lambda lib: lib.nn.functional.max_pool1d_with_indices(lib.ones(2, 3, 4), 2, dilation=0),
    # accepted: integer pooling with indices, an empty output, empty batches and (for the
    # average) no channels
    lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(2, 3, 4, 4), (0, 2)).shape,
    lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(2, 0, 4, 4), (0, 2)).shape,
    lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(0, 3, 4, 4), 2).shape,
    lambda lib: lib.max_pool1d_with_indices(lib.arange(8).reshape(2, 4), 2)[1].tolist(),
    lambda lib: lib.nn.functional.avg_pool1d(lib.arange(-8, 8).reshape(2, 8), 3).tolist(),
]


@parametrize_in_one("call", ARGUMENT_ERRORS)
def test_argument_errors_as_pytorch(call: Any) -> None:
    mine, theirs = outcome(call, minigrad), outcome(call, torch)
    assert str(mine).replace("minigrad.Size", "Size") == str(theirs).replace("torch.Size", "Size")


def test_conv_transpose_output_size_as_pytorch() -> None:
    """``output_size`` picks the output padding; out of range, PyTorch's ValueError."""
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer = lib.nn.ConvTranspose2d(2, 3, 3, stride=2)
        x = lib.ones(1, 2, 4, 4)
        results.append([
            tuple(layer(x, output_size=[10, 9]).shape),
            tuple(layer(x, output_size=(1, 3, 9, 10)).shape),
            outcome(lambda lib, layer=layer, x=x: layer(x, output_size=[11, 9]), lib),
            outcome(lambda lib, layer=layer, x=x: layer(x, output_size=[9]), lib),
            outcome(lambda lib: lib.nn.ConvTranspose1d(2, 2, 3, padding_mode="reflect"), lib),
        ])
    assert str(results[0]) == str(results[1])
