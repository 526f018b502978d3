"""Devices: the CPU everywhere, PyTorch's parsing of device names, and a CPU-only build's errors.

Every expected value and message here is what PyTorch 2.13 (CPU build) printed.
"""
import pickle

import pytest
from _backend import mg, text
from _cases import parametrize_in_one

CUDA_MISSING = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


# ---- minigrad.device --------------------------------------------------------------------------

PARSED = [
    (("cpu",), "cpu", None, "device(type='cpu')", "cpu"),
    (("cpu:0",), "cpu", 0, "device(type='cpu', index=0)", "cpu:0"),
    (("cpu", 0), "cpu", 0, "device(type='cpu', index=0)", "cpu:0"),
    (("cuda",), "cuda", None, "device(type='cuda')", "cuda"),
    (("cuda", 1), "cuda", 1, "device(type='cuda', index=1)", "cuda:1"),
    (("cuda:12",), "cuda", 12, "device(type='cuda', index=12)", "cuda:12"),
    (("mps",), "mps", None, "device(type='mps')", "mps"),
    (("meta",), "meta", None, "device(type='meta')", "meta"),
]


@pytest.mark.parametrize(("args", "kind", "index", "shown", "string"), PARSED,
                         ids=[str(p[0]) for p in PARSED])
def test_device_is_parsed_like_pytorch(args, kind, index, shown, string):
    d = mg.device(*args)
    assert (d.type, d.index) == (kind, index)
    assert repr(d) == shown
    assert str(d) == string


def test_device_equality_hash_and_copies():
    assert mg.device("cpu") == mg.device("cpu")
    assert mg.device("cpu") != mg.device("cpu:0")  # an index makes another device
    assert mg.device("cpu") != "cpu"
    assert hash(mg.device("cpu")) == hash(mg.device("cpu"))
    assert mg.device(mg.device("cuda", 1)) == mg.device("cuda:1")
    assert pickle.loads(pickle.dumps(mg.device("cuda", 1))) == mg.device("cuda", 1)
    assert mg.device(type="cpu") == mg.device("cpu")
    with pytest.raises(AttributeError):
        mg.device("cpu").type = "cuda"


DEVICE_ERRORS = [
    (("foo",), RuntimeError,
     "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
     "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
     "string: foo"),
    (("Cpu:0",), RuntimeError,
     "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
     "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
     "string: Cpu"),
    (("cpu:-1",), RuntimeError, "Invalid device string: 'cpu:-1'"),
    (("cuda:x",), RuntimeError, "Invalid device string: 'cuda:x'"),
    (("cpu:0:1",), RuntimeError, "Invalid device string: 'cpu:0:1'"),
    (("cuda:01",), RuntimeError, "Invalid device string: 'cuda:01'"),
    ((" cpu",), RuntimeError, "Invalid device string: ' cpu'"),
    (("",), RuntimeError, "Device string must not be empty"),
    (("cpu", -1), RuntimeError, "Device index must not be negative"),
    (("cpu:0", 1), RuntimeError,
     "type (string) must not include an index because index was passed explicitly: cpu:0"),
    (("cpu", "a"), TypeError, "device(): argument 'index' (position 2) must be int, not str"),
    ((0,), RuntimeError, NO_ACCELERATOR),
]


@parametrize_in_one(("args", "error", "message"), DEVICE_ERRORS,
                         ids=[repr(e[0]) for e in DEVICE_ERRORS])
def test_bad_device_names_raise_pytorchs_errors(args, error, message):
    with pytest.raises(error) as info:
        mg.device(*args)
    assert str(info.value) == message


@pytest.mark.parametrize("args", [(3.0,), (None,), ()])
def test_device_of_the_wrong_type_is_a_type_error(args):
    with pytest.raises(TypeError) as info:
        mg.device(*args)
    got = ", ".join(type(a).__name__ for a in args)
    assert str(info.value).startswith(
        f"device() received an invalid combination of arguments - got ({got}), but expected "
        "one of:\n"
    )


# ---- device= on the factories ------------------------------------------------------------------

FACTORIES = {
    "tensor": lambda device: mg.tensor([1.0, 2.0], device=device),
    "zeros": lambda device: mg.zeros(2, device=device),
    "ones": lambda device: mg.ones(2, 3, device=device),
    "empty": lambda device: mg.empty(2, device=device),
    "full": lambda device: mg.full((2,), 1.5, device=device),
    "rand": lambda device: mg.rand(2, device=device),
    "randn": lambda device: mg.randn(2, device=device),
    "arange": lambda device: mg.arange(3, device=device),
    "linspace": lambda device: mg.linspace(0, 1, 3, device=device),
    "zeros_like": lambda device: mg.zeros_like(mg.ones(2), device=device),
    "ones_like": lambda device: mg.ones_like(mg.ones(2), device=device),
    "empty_like": lambda device: mg.empty_like(mg.ones(2), device=device),
    "full_like": lambda device: mg.full_like(mg.ones(2), 3.0, device=device),
    "rand_like": lambda device: mg.rand_like(mg.ones(2), device=device),
    "randn_like": lambda device: mg.randn_like(mg.ones(2), device=device),
    "eye": lambda device: mg.eye(2, device=device),
    "randint": lambda device: mg.randint(3, (2,), device=device),
    "randperm": lambda device: mg.randperm(3, device=device),
    "tril_indices": lambda device: mg.tril_indices(3, 3, device=device),
    "triu_indices": lambda device: mg.triu_indices(3, 3, device=device),
}


@parametrize_in_one("factory", list(FACTORIES))
@parametrize_in_one("device", [None, "cpu", "cpu:0", "cpu:3"])
def test_factories_accept_the_cpu(factory, device):
    assert FACTORIES[factory](device).device == mg.device("cpu")  # the index is dropped


@parametrize_in_one("factory", list(FACTORIES))
def test_factories_accept_a_device_object(factory):
    assert FACTORIES[factory](mg.device("cpu")).device == mg.device("cpu")


@parametrize_in_one("factory", list(FACTORIES))
@parametrize_in_one("device", ["cuda", "cuda:0", mg.device("cuda", 1)])
def test_factories_on_cuda_raise_the_cpu_only_builds_error(factory, device):
    with pytest.raises(AssertionError) as info:
        FACTORIES[factory](device)
    assert str(info.value) == CUDA_MISSING


@parametrize_in_one("factory", list(FACTORIES))
def test_factories_with_a_device_index_ask_for_an_accelerator(factory):
    with pytest.raises(RuntimeError) as info:
        FACTORIES[factory](0)
    assert str(info.value) == NO_ACCELERATOR


@parametrize_in_one("factory", [f for f in FACTORIES if f != "tensor"])
def test_factories_on_mps_find_no_kernel(factory):
    with pytest.raises(NotImplementedError) as info:
        FACTORIES[factory]("mps")
    assert str(info.value).startswith("Could not run 'aten::")
    assert "with arguments from the 'MPS' backend." in str(info.value)


def test_tensor_on_mps_is_refused_like_a_copy():
    with pytest.raises(RuntimeError) as info:
        mg.tensor([1.0], device="mps")
    assert str(info.value) == "PyTorch is not linked with support for mps devices"


def test_factory_device_of_the_wrong_type():
    with pytest.raises(TypeError) as info:
        mg.zeros(2, device=1.5)
    assert str(info.value) == text("zeros(): argument 'device' must be minigrad.device, not float")


# ---- Tensor.device, cpu(), cuda(), to() ---------------------------------------------------------

def test_tensor_device_attributes():
    x = mg.ones(2)
    assert x.device == mg.device("cpu")
    assert repr(x.device) == "device(type='cpu')"
    assert x.is_cuda is False
    assert x.is_cpu is True
    assert x.get_device() == -1
    assert x.cpu() is x


def test_cuda_method_raises():
    with pytest.raises(AssertionError) as info:
        mg.ones(2).cuda()
    assert str(info.value) == CUDA_MISSING
    with pytest.raises(RuntimeError) as info:
        mg.ones(2).cuda(0)
    assert str(info.value) == NO_ACCELERATOR
    for device in ("cpu", "mps", mg.device("cpu")):
        with pytest.raises(RuntimeError) as info:
            mg.ones(2).cuda(device)
        assert str(info.value) == "Invalid device, must be cuda device"


def test_to_the_cpu_returns_the_tensor_itself():
    x = mg.ones(2, requires_grad=True)
    for args, kwargs in [(("cpu",), {}), ((mg.device("cpu"),), {}), ((), {"device": "cpu"}),
                         ((None,), {}), ((mg.float32,), {}), ((x,), {}), ((), {}),
                         (("cpu", mg.float32), {}), (("cpu",), {"non_blocking": True}),
                         ((mg.device("cpu"), None), {})]:
        assert x.to(*args, **kwargs) is x, (args, kwargs)


CONVERSIONS = [
    ((mg.float64,), {}, "float64"),
    (("cpu", mg.float64), {}, "float64"),
    ((), {"dtype": mg.float64}, "float64"),
    ((), {"device": "cpu", "dtype": mg.float16}, "float16"),
    ((None, mg.float64), {}, "float64"),
    ((float,), {}, "float64"),
    ((int,), {}, "int64"),
    ((bool,), {}, "bool"),
    ((mg.float64, False, True), {}, "float64"),
    (("cpu", mg.float64, False, True), {}, "float64"),
    ((mg.zeros(1, dtype=mg.int64),), {}, "int64"),
    ((), {"tensor": mg.zeros(1, dtype=mg.int32)}, "int32"),
]


@parametrize_in_one(("args", "kwargs", "dtype"), CONVERSIONS)
def test_to_converts_dtypes(args, kwargs, dtype):
    x = mg.tensor([1.5, 0.0])
    y = x.to(*args, **kwargs)
    assert y is not x
    assert y.dtype == getattr(mg, dtype)
    assert y.tolist() == mg.tensor([1.5, 0.0]).to(getattr(mg, dtype)).tolist()


def test_to_with_copy_makes_a_copy_with_history():
    x = mg.ones(2, requires_grad=True)
    for y in (x.to("cpu", copy=True), x.to(mg.float32, copy=True), x.to(x, False, True)):
        assert y is not x
        assert y.grad_fn.name() == "ToCopyBackward0"
        y.detach().add_(1)  # its own buffer and counter
        assert x.tolist() == [1.0, 1.0]
        assert x._version == 0


def test_to_a_dtype_is_differentiable():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.to("cpu", mg.float64)
    assert repr(y) == text(
        "tensor([1., 2.], dtype=minigrad.float64, grad_fn=<ToCopyBackward0>)")
    (y * y).sum().backward()
    assert x.grad.dtype == mg.float32
    assert x.grad.tolist() == [2.0, 4.0]


TO_DEVICE_ERRORS = [
    ("cuda", AssertionError, CUDA_MISSING),
    ("cuda:1", AssertionError, CUDA_MISSING),
    ("xpu", AssertionError, "Torch not compiled with XPU enabled"),
    ("mps", RuntimeError, "PyTorch is not linked with support for mps devices"),
    ("hip", RuntimeError, "PyTorch is not linked with support for hip devices"),
    ("xla", RuntimeError, "PyTorch is not linked with support for xla devices"),
    (0, RuntimeError, NO_ACCELERATOR),
    ("foo", RuntimeError,
     "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
     "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
     "string: foo"),
]


@pytest.mark.parametrize(("device", "error", "message"), TO_DEVICE_ERRORS,
                         ids=[str(e[0]) for e in TO_DEVICE_ERRORS])
def test_to_another_device_raises(device, error, message):
    x = mg.ones(2)
    with pytest.raises(error) as info:
        x.to(device)
    assert str(info.value) == message
    with pytest.raises(error):
        x.to(device, mg.float64)


BAD_TO_CALLS = [
    (("cpu", "float"), {}, "(str, str)"),
    ((mg.float64, mg.float32), {}, "(minigrad.dtype, minigrad.dtype)"),
    ((mg.float64, "cpu"), {}, "(minigrad.dtype, str)"),
    ((mg.float64, 1), {}, "(minigrad.dtype, int)"),
    ((mg.float64,), {"non_blocking": 1}, "(minigrad.dtype, non_blocking=int)"),
    (("cpu",), {"device": "cpu"}, "(str, device=str)"),
    ((mg.ones(1),), {"dtype": mg.float64}, "(Tensor, dtype=minigrad.dtype)"),
    ((), {"other": mg.ones(1)}, "(other=Tensor, )"),
]


@pytest.mark.parametrize(("args", "kwargs", "got"), BAD_TO_CALLS, ids=[c[2] for c in BAD_TO_CALLS])
def test_to_with_arguments_that_fit_no_signature(args, kwargs, got):
    with pytest.raises(TypeError) as info:
        mg.ones(2).to(*args, **kwargs)
    assert str(info.value).startswith(text(
        f"to() received an invalid combination of arguments - got {got}, but expected one of:\n"
        " * (minigrad.device device = None, minigrad.dtype dtype = None, bool non_blocking = "
        "False, bool copy = False"))


# ---- type() and type_as() ----------------------------------------------------------------------

def test_type_names_and_conversions():
    x = mg.ones(2)
    assert x.type() == text("minigrad.FloatTensor")
    assert mg.ones(2, dtype=mg.int32).type() == text("minigrad.IntTensor")
    assert mg.ones(2, dtype=mg.bool).type() == text("minigrad.BoolTensor")
    assert mg.ones(2, dtype=mg.float16).type() == text("minigrad.HalfTensor")
    assert x.type(mg.float32) is x
    assert x.type(mg.float64).dtype == mg.float64
    assert x.type(text("minigrad.LongTensor")).dtype == mg.int64
    assert x.type(dtype=mg.float64, non_blocking=True).dtype == mg.float64
    assert x.type_as(mg.ones(1, dtype=mg.int32)).dtype == mg.int32
    y = mg.ones(2, requires_grad=True).type(mg.float64)
    assert y.grad_fn.name() == "ToCopyBackward0"


def test_type_errors():
    x = mg.ones(2)
    for bad in ("float", text("minigrad.float64")):
        with pytest.raises(ValueError) as info:
            x.type(bad)
        assert str(info.value) == f"invalid type: '{bad}'"
    with pytest.raises(ValueError) as info:
        x.type(float)
    assert str(info.value) == "invalid type: 'float'"
    with pytest.raises(TypeError) as info:
        x.type(3)
    assert str(info.value) == "dtype must be a type, str, or dtype object"
    with pytest.raises(TypeError) as info:
        x.type_as(3)
    assert str(info.value) == "type_as(): argument 'other' (position 1) must be Tensor, not int"


# ---- torch.cuda, torch.accelerator, torch.backends, the default device -------------------------

def test_cuda_module_in_a_cpu_only_build():
    assert mg.cuda.is_available() is False
    assert mg.cuda.device_count() == 0
    assert mg.cuda.is_initialized() is False
    assert mg.cuda.manual_seed(0) is None
    assert mg.cuda.manual_seed_all(0) is None
    assert mg.cuda.empty_cache() is None


def test_device_selection_idioms_pick_the_cpu():
    device = "cuda" if mg.cuda.is_available() else (
        "mps" if mg.backends.mps.is_available() else "cpu")
    assert device == "cpu"
    assert mg.backends.mps.is_built() is False
    assert mg.accelerator.is_available() is False
    assert mg.accelerator.current_accelerator() is None
    assert mg.accelerator.device_count() == 0
    with pytest.raises(RuntimeError) as info:
        mg.accelerator.current_device_index()
    assert str(info.value) == NO_ACCELERATOR


def test_cudnn_flags_can_be_set():
    cudnn = mg.backends.cudnn
    assert (cudnn.enabled, cudnn.deterministic, cudnn.benchmark) == (True, False, False)
    assert cudnn.is_available() is False
    cudnn.deterministic = True
    try:
        assert mg.backends.cudnn.deterministic is True
    finally:
        cudnn.deterministic = False


def test_default_device_is_the_cpu():
    assert mg.get_default_device() == mg.device("cpu")
    mg.set_default_device("cpu")
    try:
        assert mg.get_default_device() == mg.device("cpu")
    finally:
        mg.set_default_device(None)  # (in PyTorch a default device is global state: reset it)
    with mg.device("cpu"):
        assert mg.zeros(1).device == mg.device("cpu")
