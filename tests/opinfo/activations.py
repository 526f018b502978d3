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

from opinfo import BadInput, OpInfo, Sample
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


# --- celu, threshold, the shrinks, glu, prelu, rrelu, softsign, tanhshrink, softmin ------------


def glu_samples(rng: np.random.Generator) -> list[Sample]:
    """Even halving dims: the last by default, others by ``dim`` (negative too), transposed."""
    return [
        Sample((WIDE(rng, (4,)),), name="1d"),
        Sample((WIDE(rng, (3, 4)),), name="2d"),
        Sample((WIDE(rng, (4, 3)), 0), name="dim0"),
        Sample((WIDE(rng, (4, 3)), -2), name="transposed", transposed=True),
        Sample((WIDE(rng, (2, 2, 3)), 1), name="3d"),
    ]


def prelu_samples(rng: np.random.Generator) -> list[Sample]:
    """One slope or one per channel (dim 1), for inputs of 0 to 3 dims, transposed too."""
    return [
        Sample((WIDE(rng, (3, 4)), uniform(0.1, 0.5)(rng, (4,))), name="channels"),
        Sample((WIDE(rng, (3, 4)), uniform(0.1, 0.5)(rng, (1,))), name="one"),
        Sample((WIDE(rng, (2, 3, 4)), uniform(0.1, 0.5)(rng, (3,))), name="3d"),
        Sample((WIDE(rng, (2, 3)), uniform(0.1, 0.5)(rng, ())), name="0d_weight"),
        Sample((WIDE(rng, (5,)), uniform(0.1, 0.5)(rng, (1,))), name="1d"),
        Sample((WIDE(rng, ()), uniform(0.1, 0.5)(rng, ())), name="0d"),
        Sample((WIDE(rng, (4, 3)), uniform(0.1, 0.5)(rng, (3,))), name="transposed",
               transposed=True),
        Sample((np.array([[0.0, -1.0], [2.0, -0.0]]), np.array([0.25, 0.5])), name="edge"),
    ]


PRELU_BAD = (
    BadInput((np.ones((2, 3)), np.ones(2)), name="channels"),
    BadInput((np.ones(5), np.ones(5)), name="channels_1d"),
    BadInput((np.ones(()), np.ones(3)), name="0d_input"),
    BadInput((np.ones((2, 3)), np.ones((1, 3))), name="weight_2d"),
    BadInput((np.ones((2, 3)), np.ones(3, dtype=np.int64)), name="dtypes"),
    BadInput((np.ones(3, dtype=np.int64), np.ones(1, dtype=np.int64)), name="integer"),
)


def softmin_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((WIDE(rng, (3, 4)), 1), name="2d"),
            Sample((WIDE(rng, (2, 3, 4)), -1), name="3d"),
            Sample((WIDE(rng, (3, 4)), 0), name="transposed", transposed=True)]


EXTRA: list[OpInfo] = [
    activation("celu", edge=(0.0,)),
    activation("celu", edge=(0.0,), alpha=0.5),
    OpInfo("celu_kwargs", lambda lib, x, **kw: nn_functional(lib, "celu")(x, **kw),
           unary_samples(), bad_inputs=(
               BadInput((np.ones(3),), {"alpha": 0.0}, name="zero_alpha"),
               BadInput((np.ones(3, dtype=np.int64),), name="integer"),
           ), op="F.celu"),
    activation("threshold", edge=(0.5, 0.0), threshold=0.5, value=-3.0),
    activation("threshold", edge=(0.0,), threshold=-1.0, value=20.0),
    OpInfo("threshold_integer", lambda lib, x: nn_functional(lib, "threshold")(
        x.round().long(), 1.5, 7.9), unary_samples(), differentiable=False, op="F.threshold"),
    activation("hardshrink", edge=(0.5, -0.5, 0.0)),
    activation("hardshrink", edge=(0.3, -0.3), lambd=0.3),
    activation("softshrink", edge=(0.5, -0.5, 0.0)),
    activation("softshrink", edge=(0.3, -0.3), lambd=0.3),
    OpInfo("shrink_kwargs", lambda lib, x, name, **kw: nn_functional(lib, name)(x, **kw),
           lambda rng: [Sample((WIDE(rng, (3,)), "softshrink"), {"lambd": 0.0}, name="soft_0"),
                        Sample((WIDE(rng, (3,)), "hardshrink"), {"lambd": -1.0}, name="hard_neg")],
           bad_inputs=(
               BadInput((np.ones(3), "softshrink"), {"lambd": -1.0}, name="negative"),
               BadInput((np.ones(3, dtype=np.float32), "softshrink"), {"lambd": 4e38},
                        name="too_large"),
               BadInput((np.ones(3, dtype=np.int64), "softshrink"), name="soft_integer"),
               BadInput((np.ones(3, dtype=np.int64), "hardshrink"), name="hard_integer"),
           ), op="F.softshrink"),
    OpInfo("F.glu", lambda lib, x, *dim: nn_functional(lib, "glu")(x, *dim), glu_samples,
           bad_inputs=(
               BadInput((np.ones((2, 3)),), name="odd"),
               BadInput((np.ones((3, 4)), 0), name="odd_dim0"),
               BadInput((np.ones(()),), name="0d"),
               BadInput((np.ones((2, 4)), 2), name="dim_range"),
               BadInput((np.ones(4, dtype=np.int64),), name="integer"),
           )),
    OpInfo("F.prelu", lambda lib, x, w: nn_functional(lib, "prelu")(x, w), prelu_samples,
           bad_inputs=PRELU_BAD),
    OpInfo("F.prelu_input_only", lambda lib, x, w: nn_functional(lib, "prelu")(x, w),
           prelu_samples, grad_args=(0,), op="F.prelu"),
    # Eval mode only: training draws from each library's own generator (tests/test_nn_functional.py
    # checks training mode's slopes and gradient).
    activation("rrelu", edge=(0.0,)),
    activation("rrelu", edge=(0.0,), lower=0.2, upper=0.6),
    OpInfo("rrelu_kwargs", lambda lib, x, **kw: nn_functional(lib, "rrelu")(x, **kw),
           unary_samples(), bad_inputs=(
               BadInput((np.ones(3),), {"lower": 0.5, "upper": 0.1}, name="bounds"),
               BadInput((np.ones(3, dtype=np.int64),), name="integer"),
               BadInput((np.ones(3, dtype=np.int64),), {"training": True}, name="int_training"),
           ), op="F.rrelu"),
    activation("softsign"),
    activation("tanhshrink"),
    OpInfo("F.softmin", lambda lib, x, dim: nn_functional(lib, "softmin")(x, dim),
           softmin_samples),
    OpInfo("softmin_dtype", lambda lib, x, dim: nn_functional(lib, "softmin")(
        x, dim, dtype=lib.float64), softmin_samples, op="F.softmin"),
    # --- in place ---
    inplace("celu_", lambda lib, x: nn_functional(lib, "celu")(x.clone(), 0.5, True), op="F.celu"),
    inplace("F.celu_", lambda lib, x: nn_functional(lib, "celu_")(x.clone()), op="F.celu_"),
    inplace("threshold_", lambda lib, x: nn_functional(lib, "threshold")(x.clone(), 0.1, 2.0, True),
            edge=(0.1,), op="F.threshold"),
    inplace("F.threshold_", lambda lib, x: nn_functional(lib, "threshold_")(x.clone(), 0.1, -2.0),
            op="F.threshold_"),
    inplace("rrelu_", lambda lib, x: nn_functional(lib, "rrelu")(x.clone(), 0.1, 0.3, False, True),
            op="F.rrelu"),
    inplace("F.rrelu_", lambda lib, x: nn_functional(lib, "rrelu_")(x.clone()), op="F.rrelu_"),
]


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
    # --- the in-place spellings of nn.functional (F.relu_, F.elu_, ...) ------------------------
    inplace("F.relu_", lambda lib, x: nn_functional(lib, "relu_")(x.clone()), WIDE, op="F.relu_"),
    inplace("F.elu_", lambda lib, x: nn_functional(lib, "elu_")(x.clone(), 0.5), WIDE,
            op="F.elu_"),
    inplace("F.selu_", lambda lib, x: nn_functional(lib, "selu_")(x.clone()), WIDE, op="F.selu_"),
    inplace("F.leaky_relu_", lambda lib, x: nn_functional(lib, "leaky_relu_")(x.clone(), 0.2),
            WIDE, op="F.leaky_relu_"),
    inplace("F.hardtanh_", lambda lib, x: nn_functional(lib, "hardtanh_")(x.clone(), -0.5, 2.0),
            WIDE, op="F.hardtanh_"),
    *EXTRA,
]

