"""Op-table rows of the activations (torch.nn.functional: relu6, elu, gelu, ...), out of place
and in place (``inplace=True``, on a clone of the input so that it is a non-leaf).

Sample names that start with ``edge`` hold the kinks (relu6 at 0 and 6, hardtanh at its bounds):
PyTorch's convention there is checked against torch, but they are skipped by the
finite-difference checks (tests/test_ops.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo
from opinfo.elementwise import Domain, inplace, unary_samples, uniform


def nn_functional(lib: Any, name: str) -> Callable[..., Any]:
    """``lib.nn.functional.<name>`` (the same spelling in minigrad and torch)."""
    return getattr(lib.nn.functional, name)


WIDE = uniform(-4.0, 4.0)


def activation(name: str, domain: Domain = WIDE, edge: tuple[float, ...] = (),
               **options: Any) -> OpInfo:
    """A row for ``F.<name>(x, **options)``; the row is named after the options too."""
    suffix = "".join(f"_{key}_{value}" for key, value in options.items())
    return OpInfo(
        name + suffix,
        lambda lib, x: nn_functional(lib, name)(x, **options),
        unary_samples(domain, edge),
        op=f"F.{name}",
    )


OPS: list[OpInfo] = [
    activation("relu6", uniform(-2.0, 8.0), edge=(0.0, 6.0, -1.0, 7.0)),
    activation("leaky_relu", edge=(0.0,)),
    activation("leaky_relu", edge=(0.0,), negative_slope=0.2),
    activation("elu", edge=(0.0,)),
    activation("elu", edge=(0.0,), alpha=0.5),
    activation("selu", edge=(0.0,)),
    OpInfo("selu_torch", lambda lib, x: lib.selu(x), unary_samples(uniform(-4.0, 4.0)),
           op="selu"),
    activation("gelu", edge=(0.0,)),
    activation("gelu", edge=(0.0,), approximate="tanh"),
    activation("silu"),
    activation("softplus", uniform(-30.0, 30.0)),
    activation("softplus", edge=(0.5, 0.6), beta=2.0, threshold=1.0),
    activation("mish", uniform(-30.0, 30.0)),
    activation("hardtanh", edge=(-1.0, 1.0, 0.0, 2.0)),
    activation("hardtanh", edge=(-0.5, 2.0), min_val=-0.5, max_val=2.0),
    # gradgrad off: PyTorch has no derivative of hardsigmoid's backward (it raises; see
    # tests_torch's test_hardsigmoid_second_derivative_raises).
    OpInfo("hardsigmoid", lambda lib, x: nn_functional(lib, "hardsigmoid")(x),
           unary_samples(uniform(-5.0, 5.0), (-3.0, 3.0, 0.0)), gradgrad=False,
           op="F.hardsigmoid"),
    activation("hardswish", uniform(-5.0, 5.0), edge=(-3.0, 3.0, 0.0)),
    activation("logsigmoid", uniform(-30.0, 30.0), edge=(0.0, -100.0, 100.0)),
    OpInfo("gelu_kwargs", lambda lib, x, **kw: nn_functional(lib, "gelu")(x, **kw),
           unary_samples(), bad_inputs=(
               BadInput((np.ones(3),), {"approximate": "bogus"}, name="approximate"),
           ), op="F.gelu"),
    OpInfo("hardtanh_kwargs", lambda lib, x, **kw: nn_functional(lib, "hardtanh")(x, **kw),
           unary_samples(), bad_inputs=(
               BadInput((np.ones(3),), {"min_val": 1.0, "max_val": -1.0}, name="min_above_max"),
           ), op="F.hardtanh"),
    # --- in place (on a clone: does the op save its result?) ---------------------------------
    inplace("leaky_relu_", lambda lib, x: nn_functional(lib, "leaky_relu")(x.clone(), 0.2, True),
            edge=(0.0,), op="F.leaky_relu"),
    # Backward raises with a negative slope in place, as in PyTorch.
    inplace("leaky_relu_negative_", lambda lib, x: nn_functional(lib, "leaky_relu")(
        x.clone(), -0.2, True), differentiable=False, op="F.leaky_relu"),
    inplace("elu_", lambda lib, x: nn_functional(lib, "elu")(x.clone(), 1.0, True), op="F.elu"),
    inplace("selu_", lambda lib, x: nn_functional(lib, "selu")(x.clone(), True), op="F.selu"),
    inplace("hardtanh_", lambda lib, x: nn_functional(lib, "hardtanh")(x.clone(), -1.0, 1.0, True),
            edge=(-1.0, 1.0), op="F.hardtanh"),
    inplace("relu6_", lambda lib, x: nn_functional(lib, "relu6")(x.clone() * 4, True),
            op="F.relu6"),
    inplace("silu_", lambda lib, x: nn_functional(lib, "silu")(x.clone(), True), op="F.silu"),
    inplace("mish_", lambda lib, x: nn_functional(lib, "mish")(x.clone(), True), op="F.mish"),
    inplace("hardsigmoid_", lambda lib, x: nn_functional(lib, "hardsigmoid")(x.clone() * 2, True),
            gradgrad=False, op="F.hardsigmoid"),
    inplace("hardswish_", lambda lib, x: nn_functional(lib, "hardswish")(x.clone() * 2, True),
            op="F.hardswish"),
]
