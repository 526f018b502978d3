"""The default dtype: set_default_dtype and everything that follows it.

Expected values are PyTorch 2.13's (MINIGRAD_TEST_REFERENCE=torch runs this file on torch).
Every test that changes the default dtype takes a fixture restoring it, so no other test (on
this xdist worker) sees the change.
"""

import threading

import numpy as np
import pytest
from _backend import mg, text


@pytest.fixture
def default_dtype():
    """Restore the default dtype after the test, whatever the test did to it."""
    saved = mg.get_default_dtype()
    yield
    mg.set_default_dtype(saved)


def test_set_default_dtype_takes_floating_dtypes_only(default_dtype):
    not_floating = "only floating-point types are supported as the default type"
    for value in (mg.int32, mg.int64, mg.bool, mg.uint8):
        with pytest.raises(TypeError) as info:
            mg.set_default_dtype(value)
        assert str(info.value) == not_floating
    for value in ("float64", float, None):
        with pytest.raises(TypeError) as info:
            mg.set_default_dtype(value)
        assert str(info.value) == "invalid dtype object: " + not_floating
    assert mg.get_default_dtype() == mg.float32  # (nothing changed)
    mg.set_default_dtype(mg.float16)
    assert mg.tensor([1.5]).dtype == mg.float16 and mg.get_default_dtype() == mg.float16


def test_what_follows_the_default_dtype(default_dtype):
    mg.set_default_dtype(mg.float64)
    mg.manual_seed(0)
    follows = {
        "tensor(1.5)": mg.tensor(1.5),
        "tensor([1, 2.5])": mg.tensor([1, 2.5]),
        "tensor([])": mg.tensor([]),
        "zeros": mg.zeros(2), "ones": mg.ones(2), "empty": mg.empty(2), "eye": mg.eye(2),
        "full float": mg.full((2,), 1.5), "rand": mg.rand(2), "randn": mg.randn(2),
        "arange float": mg.arange(0, 1, 0.5), "linspace": mg.linspace(0, 1, 3),
        "normal": mg.normal(0.0, 1.0, (2,)),
        "int * float": mg.tensor([1, 2]) * 1.5, "int / int": mg.tensor([1, 2]) / 2,
        "true_divide": mg.tensor([1, 2]).true_divide(2), "sqrt int": mg.tensor([1, 2]).sqrt(),
        "exp int": mg.tensor([1, 2]).exp(), "int ** float": mg.tensor(2) ** 0.5,
        "clamp int by float": mg.tensor([1, 2]).clamp(0.5), "bool + float": mg.tensor([True]) + 0.5,
        "where numbers": mg.where(mg.tensor([True]), 1.0, 2.0), "block_diag()": mg.block_diag(),
        "legacy Tensor": mg.Tensor(2, 3), "legacy Tensor data": mg.Tensor([1]),
        "Linear weight": mg.nn.Linear(2, 3).weight, "new_zeros": mg.empty(2).new_zeros(2),
    }
    assert {name: t.dtype for name, t in follows.items() if t.dtype != mg.float64} == {}
    assert repr(mg.tensor([1.5])) == "tensor([1.5000])"  # the default's dtype is not printed
    assert repr(mg.ones(1, dtype=mg.float32)) == text("tensor([1.], dtype=minigrad.float32)")
    assert repr(mg.tensor([], dtype=mg.float32)) == text("tensor([], dtype=minigrad.float32)")
    assert mg.tensor(1.5).type() == text("minigrad.DoubleTensor")
    # an int64 tensor compared with a Python float is compared in the default dtype
    assert (mg.tensor([16777217]) == 16777216.0).tolist() == [False]


def test_what_keeps_its_own_dtype(default_dtype):
    mg.set_default_dtype(mg.float64)
    fixed = {
        "from_numpy": (mg.from_numpy(np.zeros(2, np.float32)), mg.float32),
        "numpy float32 scalar": (mg.tensor(np.float32(1)), mg.float32),
        "FloatTensor": (mg.FloatTensor(2), mg.float32),
        "float()": (mg.tensor([1]).float(), mg.float32),
        "zeros_like": (mg.zeros_like(mg.zeros(2, dtype=mg.float32)), mg.float32),
        "float32 + float": (mg.zeros(2, dtype=mg.float32) + 1.5, mg.float32),
        "full int": (mg.full((2,), 1), mg.int64), "arange int": (mg.arange(3), mg.int64),
        "floor division": (mg.tensor([1, 2]).div(2, rounding_mode="floor"), mg.int64),
        "float16 * 0-d": (mg.ones(2, dtype=mg.float16) * mg.tensor(2.5), mg.float16),
    }
    assert {name: t.dtype for name, (t, dtype) in fixed.items() if t.dtype != dtype} == {}
    with pytest.raises(RuntimeError) as info:
        mg.tensor([1, 2]).mean()
    assert str(info.value) == ("mean(): could not infer output dtype. Input dtype must be either "
                               "a floating point or complex dtype. Got: Long")


def test_the_default_dtype_is_process_global(default_dtype):
    mg.set_default_dtype(mg.float64)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(mg.get_default_dtype()))
    thread.start()
    thread.join()
    assert seen == [mg.float64]


def test_float64_training_step_and_gradcheck(default_dtype):
    mg.set_default_dtype(mg.float64)
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 1))
    optimizer = mg.optim.Adam(model.parameters(), lr=0.1)
    x, y = mg.randn(8, 3), mg.randn(8, 1)
    losses = []
    for _ in range(3):
        optimizer.zero_grad()
        loss = mg.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert loss.dtype == mg.float64 and losses[-1] < losses[0]
    # Adam counts steps in float64 under a float64 default (PyTorch's _get_scalar_dtype)
    assert optimizer.state[model[0].weight]["step"].dtype == mg.float64
    assert mg.autograd.gradcheck(lambda t: (model(t) ** 2).sum(), (x[:2].requires_grad_(),))
    mg.set_default_dtype(mg.float16)
    adam = mg.optim.Adam([mg.nn.Parameter(mg.zeros(1))])
    adam.param_groups[0]["params"][0].grad = mg.ones(1)
    adam.step()
    assert adam.state[adam.param_groups[0]["params"][0]]["step"].dtype == mg.float32

