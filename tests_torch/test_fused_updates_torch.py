"""Optimizer steps bit for bit as PyTorch's: its kernels' fused multiply-adds.

PyTorch's float32 and float64 ``add``/``sub`` with ``alpha``, ``addcmul`` and ``lerp`` round
``a * b + c`` once (an FMA); ``addcdiv`` computes ``x + (value * t1) / t2`` in that order. The
optimizers are made of these (``p.add_(g, alpha=-lr)``, Adam's ``lerp_``, ``addcmul_`` and
``addcdiv_``), so their trajectories agree with PyTorch's to the bit when the primitives do.
Here the primitives on arrays of every length up to three vector steps and every layout, then
30 steps of each optimizer with its options (a parameter without a gradient among them,
``zero_grad`` with and without ``set_to_none``), compared bit for bit.
"""

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def _layouts(rng, dtype):
    """Operand pairs of many lengths (every tail of a vector step) and layouts."""
    for rows, columns in [(1, n) for n in range(1, 40)] + [(3, 7), (4, 16), (5, 33)]:
        a, b = (rng.standard_normal((rows, columns)).astype(dtype) for _ in range(2))
        yield "contiguous", a, b
        yield "transposed", a.T, b.T
        yield "row broadcast", a, b[:1]


PRIMITIVES = {
    "add alpha": lambda lib, a, b, w: lib.tensor(a).add(lib.tensor(b), alpha=-0.1),
    "add_ alpha": lambda lib, a, b, w: lib.tensor(a).add_(lib.tensor(b), alpha=0.3),
    "sub alpha": lambda lib, a, b, w: lib.tensor(a).sub(lib.tensor(b), alpha=0.7),
    "addcmul": lambda lib, a, b, w: lib.tensor(a).addcmul(lib.tensor(b), lib.tensor(w),
                                                           value=0.01),
    "addcmul_ value 1": lambda lib, a, b, w: lib.tensor(a).addcmul_(lib.tensor(b), lib.tensor(w)),
    "addcdiv_": lambda lib, a, b, w: lib.tensor(a).addcdiv_(lib.tensor(b), lib.tensor(w),
                                                            value=-0.03),
    "lerp 0.1": lambda lib, a, b, w: lib.tensor(a).lerp(lib.tensor(b), 0.1),
    "lerp_ 0.9": lambda lib, a, b, w: lib.tensor(a).lerp_(lib.tensor(b), 0.9),
    "lerp tensor": lambda lib, a, b, w: lib.tensor(a).lerp(lib.tensor(b), lib.tensor(w - 1)),
}


@parametrize_in_one("dtype", ["float32", "float64"])
def test_fused_primitives_round_once_as_pytorch(dtype):
    rng = np.random.default_rng(0)
    failures = []
    for name, call in PRIMITIVES.items():
        for layout, a, b in _layouts(rng, dtype):
            w = (np.abs(rng.standard_normal(b.shape)) + 0.5).astype(dtype)
            mine, theirs = call(minigrad, a, b, w).numpy(), call(torch, a, b, w).numpy()
            if mine.tobytes() != theirs.tobytes():
                failures.append(f"{name}, {layout} {a.shape}: {int((mine != theirs).sum())}")
    assert not failures, failures


OPTIMIZERS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01,
             "maximize": True}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("Adam", {"lr": 0.01, "betas": (0.5, 0.9), "eps": 1e-3}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "maximize": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "alpha": 0.9,
                 "weight_decay": 0.1, "maximize": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.2,
                 "weight_decay": 0.1}),
    ("Adadelta", {"lr": 1.0, "rho": 0.8, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.01, "t0": 5, "weight_decay": 0.1}),
]


def _trajectory(lib, name, options, dtype, steps=30):
    """The parameters after each step (three, the second never given a gradient), then the
    optimizer's state."""
    rng = np.random.default_rng(0)
    shapes = [(5, 7), (3,), (19,)]
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dtype))) for s in shapes]
    optimizer = getattr(lib.optim, name)(params, **options)
    seen = []
    for step in range(steps):
        for index, param in enumerate(params):
            if index != 1:
                param.grad = lib.tensor(rng.standard_normal(tuple(param.shape)).astype(dtype))
        optimizer.step()
        optimizer.zero_grad(set_to_none=step % 2 == 0)
        seen.append([param.detach().numpy().copy() for param in params])
    state = optimizer.state_dict()["state"]
    seen.append([np.asarray(value) for _, entry in sorted(state.items())
                 for _, value in sorted(entry.items())])
    return seen


CASES = [(name, options, dtype) for name, options in OPTIMIZERS for dtype in ("float32", "float64")]


# PyTorch's float sqrt is correctly rounded (numpy's) on some CPUs only: with AVX-512 it is
# MKL's vector sqrt, an ulp below for ~1 % of inputs (tests_torch/test_edge_values_torch.py).
# The optimizers that take a square root are then compared to a few ulps per step.
SQRT = {"Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "NAdam", "RAdam"}


def _sqrt_is_correctly_rounded(dtype):
    values = np.random.default_rng(1).random(10000).astype(dtype) * 10
    return torch.sqrt(torch.tensor(values)).numpy().tobytes() == np.sqrt(values).tobytes()


@parametrize_in_one(("name", "options", "dtype"), CASES,
                    ids=[f"{name}-{index // 2}-{dtype}" for index, (name, _, dtype) in
                         enumerate(CASES)])
def test_trajectories_are_pytorchs_bit_for_bit(name, options, dtype):
    mine, theirs = _trajectory(minigrad, name, options, dtype), _trajectory(torch, name, options,
                                                                            dtype)
    if name in SQRT and not _sqrt_is_correctly_rounded(dtype):
        rtol = 1e-5 if dtype == "float32" else 1e-13
        for step, (ours, expected) in enumerate(zip(mine, theirs, strict=True)):
            for a, b in zip(ours, expected, strict=True):
                np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol, err_msg=f"step {step}")
        return
    for step, (ours, expected) in enumerate(zip(mine, theirs, strict=True)):
        assert [a.tobytes() for a in ours] == [b.tobytes() for b in expected], (
            f"the parameters part at step {step} (30: the optimizer's state)")
