"""The default dtype (set_default_dtype and everything that follows it), finfo/iinfo, and the
small global helpers (warn_always, deterministic algorithms, constants, real-tensor conj).

Expected values are PyTorch 2.13's (MINIGRAD_TEST_REFERENCE=torch runs this file on torch).
Every test that changes the default dtype or a global flag takes a fixture restoring it, so no
other test (on this xdist worker) sees the change.
"""

import threading
import warnings

import numpy as np
import pytest
from _backend import mg, text


@pytest.fixture
def default_dtype():
    """Restore the default dtype after the test, whatever the test did to it."""
    saved = mg.get_default_dtype()
    yield
    mg.set_default_dtype(saved)


@pytest.fixture
def warn_always():
    """Restore the warn-always flag after the test."""
    saved = mg.is_warn_always_enabled()
    yield
    mg.set_warn_always(saved)


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
        "normal": mg.normal(0.0, 1.0, (2,)), "scalar_tensor": mg.scalar_tensor(1),
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


def test_set_default_tensor_type(default_dtype, warn_always):
    mg.set_warn_always(True)  # (its deprecation warning is once per process otherwise)
    deprecated = text("minigrad.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                      "use minigrad.set_default_dtype() and minigrad.set_default_device() as "
                      "alternatives.")
    with pytest.warns(UserWarning) as caught:
        mg.set_default_tensor_type(mg.DoubleTensor)
    assert str(caught[0].message).startswith(deprecated)
    assert mg.get_default_dtype() == mg.float64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mg.set_default_tensor_type(text("minigrad.HalfTensor"))
        assert mg.get_default_dtype() == mg.float16
        for value, message in ((mg.LongTensor, ""), (mg.float64, "invalid type object: ")):
            with pytest.raises(TypeError) as info:
                mg.set_default_tensor_type(value)
            assert str(info.value) == message + (
                "only floating-point types are supported as the default type")
    assert mg.get_default_dtype() == mg.float16


def test_finfo():
    info = mg.finfo(mg.float32)
    assert (info.eps, info.max, info.min, info.tiny, info.smallest_normal, info.resolution,
            info.bits, info.dtype) == (2.0**-23, 3.4028234663852886e38, -3.4028234663852886e38,
                                       2.0**-126, 2.0**-126, 1e-06, 32, "float32")
    assert repr(mg.finfo(mg.float16)) == (
        "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
        "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)")
    assert mg.finfo() == info and mg.finfo(float) == mg.finfo(mg.float64) != info
    assert mg.finfo(mg.float64).resolution == 1e-15 and mg.finfo(mg.float64).eps == 2.0**-52
    for value in (mg.int32, mg.bool, int):
        with pytest.raises(TypeError) as caught:
            mg.finfo(value)
        assert str(caught.value) == text("minigrad.finfo() requires a floating point input type. "
                                         "Use minigrad.iinfo to handle 'minigrad.finfo'")
    with pytest.raises(TypeError) as caught:
        mg.finfo("float32")
    assert str(caught.value) == text(
        "finfo(): argument 'type' (position 1) must be minigrad.dtype, not str")
    with pytest.raises(TypeError):
        hash(info)


def test_finfo_follows_the_default_dtype(default_dtype):
    mg.set_default_dtype(mg.float64)
    assert mg.finfo().dtype == "float64"


def test_iinfo():
    assert repr(mg.iinfo(mg.int32)) == "iinfo(min=-2.14748e+09, max=2.14748e+09, dtype=int32)"
    assert repr(mg.iinfo(mg.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"
    info = mg.iinfo(int)
    assert (info.min, info.max, info.bits, info.dtype) == (-(2**63), 2**63 - 1, 64, "int64")
    assert type(info.max) is int and mg.iinfo(mg.int8) == mg.iinfo(mg.int8)
    cases = ((mg.float32, "minigrad.iinfo() requires an integer input type. Use minigrad.finfo "
                          "to handle 'minigrad.iinfo'"),
             (mg.bool, "minigrad.bool is not supported by minigrad.iinfo"),
             ("int8", "iinfo(): argument 'type' (position 1) must be minigrad.dtype, not str"))
    for value, message in cases:
        with pytest.raises(TypeError) as caught:
            mg.iinfo(value)
        assert str(caught.value) == text(message)
    with pytest.raises(TypeError) as caught:
        mg.iinfo()
    assert str(caught.value) == 'iinfo() missing 1 required positional arguments: "type"'


def test_constants_and_small_functions():
    assert (mg.pi, mg.e, mg.inf, mg.newaxis) == (np.pi, np.e, float("inf"), None)
    assert mg.nan != mg.nan and type(mg.pi) is float
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert mg.conj(x) is x and x.conj() is x and mg.resolve_conj(x) is x
    assert mg.resolve_neg(x) is x and x.resolve_neg() is x
    assert not (mg.is_conj(x) or mg.is_neg(x) or x.is_conj() or x.is_neg())
    assert mg.is_inference(x) is False
    with pytest.raises(TypeError) as caught:
        mg.is_conj(1)
    assert str(caught.value) == "is_conj(): argument 'input' (position 1) must be Tensor, not int"
    assert mg.typename(x) == text("minigrad.FloatTensor") and mg.typename(1) == "int"
    assert mg.typename(mg.tensor([True])) == text("minigrad.BoolTensor")
    assert mg.typename(np.zeros(1)) == "numpy.ndarray"


def test_scalar_tensor():
    assert repr(mg.scalar_tensor(1)) == repr(mg.scalar_tensor(True)) == "tensor(1.)"
    assert repr(mg.scalar_tensor(1.5, dtype=mg.int64)) == "tensor(1)"
    assert repr(mg.scalar_tensor(-1, dtype=mg.uint8)) == text("tensor(255, dtype=minigrad.uint8)")
    assert repr(mg.scalar_tensor(mg.tensor(2))) == "tensor(2.)"
    assert mg.scalar_tensor(2, requires_grad=True).requires_grad
    errors = (
        (([1],), {}, TypeError,
         "scalar_tensor(): argument 's' (position 1) must be Number, not list"),
        ((300,), {"dtype": mg.uint8}, RuntimeError,
         "value cannot be converted to type uint8_t without overflow"),
        ((1,), {"dtype": mg.int32, "requires_grad": True}, RuntimeError,
         "Only Tensors of floating point and complex dtype can require gradients"),
        ((2**64,), {}, OverflowError, "int too big to convert"),
    )
    for args, kwargs, kind, message in errors:
        with pytest.raises(kind) as caught:
            mg.scalar_tensor(*args, **kwargs)
        assert str(caught.value) == message


def test_warn_always_repeats_once_per_process_warnings(warn_always):
    assert mg.is_warn_always_enabled() is False
    mg.set_warn_always(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            mg.cholesky(mg.eye(2))
    assert len(caught) == 2
    with pytest.raises(RuntimeError) as info:
        mg.set_warn_always(1)
    assert str(info.value) == "setWarnOnlyOnce expects a bool, but got int"


def test_deterministic_algorithms_flag():
    assert not mg.are_deterministic_algorithms_enabled()
    try:
        mg.use_deterministic_algorithms(True, warn_only=True)
        assert mg.are_deterministic_algorithms_enabled()
        assert mg.is_deterministic_algorithms_warn_only_enabled()
        with pytest.raises(TypeError) as info:
            mg.use_deterministic_algorithms(1)
        assert str(info.value) == (
            "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not int")
    finally:
        mg.use_deterministic_algorithms(False)
    assert not mg.is_deterministic_algorithms_warn_only_enabled()


def test_asarray_aliases_where_pytorch_does(warn_always):
    a = np.arange(3.0)
    shared = mg.asarray(a)
    a[0] = 5.0
    assert shared.tolist() == [5.0, 1.0, 2.0] and shared.dtype == mg.float64
    assert not np.shares_memory(mg.asarray(a, copy=True).numpy(), a)
    assert mg.asarray(a, dtype=mg.float32).dtype == mg.float32
    assert not np.shares_memory(mg.asarray(np.array(1.5)).numpy(), a)  # (0-d: copied)
    t = mg.tensor([1.0, 2.0])
    assert mg.asarray(t) is t and mg.asarray(t, dtype=mg.float32, copy=False) is t
    assert mg.asarray(t, dtype=mg.float64).dtype == mg.float64
    assert mg.asarray([1, 2.5]).dtype == mg.float32 and mg.asarray((1, 2)).dtype == mg.int64
    # requires_grad defaults to the tensor's (with a warning, once per process), and is set on
    # the result: the same leaf is changed; a non-leaf told False is detached
    mg.set_warn_always(True)
    leaf = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="unspecified requires_grad now defaults"):
        copied = mg.asarray(leaf, copy=True)
    assert copied.grad_fn.name() == "CloneBackward0"
    assert mg.asarray(t, requires_grad=True) is t and t.requires_grad
    product = leaf * 2
    detached = mg.asarray(product, requires_grad=False)
    assert detached.is_leaf and not detached.requires_grad
    assert np.shares_memory(detached.numpy(), product.detach().numpy())
    errors = (
        ((a,), {"dtype": mg.float32, "copy": False}, ValueError,
         "can't alias tensor with dtype 'Double' into dtype 'Float'."),
        (([1, 2],), {"copy": False}, ValueError, "can't alias arbitrary sequence into a tensor."),
        ((np.float64(1.5),), {"copy": False}, RuntimeError,
         "can't alias NumPy scalars. Either remove copy=False or transform it in a ndarray. "),
        ((mg.tensor([1]),), {"requires_grad": True}, RuntimeError,
         "Only Tensors of floating point and complex dtype can require gradients"),
    )
    for args, kwargs, kind, message in errors:
        with pytest.raises(kind) as caught:
            mg.asarray(*args, **kwargs)
        assert str(caught.value) == message
