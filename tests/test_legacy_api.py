"""PyTorch's older API that tutorials still use: Variable, FloatTensor & co, Tensor(...),
x.new_*(), type(); and small helpers (is_tensor, numel, get_default_dtype).

Every expected value and message here is what PyTorch 2.13 printed for the same program.
"""
import warnings

import numpy as np
import pytest
from _backend import mg, text
from _cases import parametrize_in_one

Variable = mg.autograd.Variable
FACTORY_FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"

# ---- Variable ----------------------------------------------------------------------------


def test_variable_is_a_detached_alias_that_may_require_grad():
    t = mg.ones(2)
    v = Variable(t, requires_grad=True)
    assert repr(v) == "tensor([1., 1.], requires_grad=True)"
    assert v is not t and not t.requires_grad
    assert type(v) is mg.Tensor
    assert isinstance(v, Variable) and isinstance(t, Variable) and isinstance(v, mg.Tensor)
    assert Variable(t) is not t
    t2 = mg.ones(2)
    v2 = Variable(t2)
    v2.add_(1)  # the same buffer and version counter
    assert t2.tolist() == [2.0, 2.0] and (t2._version, v2._version) == (1, 1)
    assert Variable(mg.ones(2), True).requires_grad
    assert Variable(mg.ones(2), 1).requires_grad
    assert Variable(data=mg.ones(2), requires_grad=True).requires_grad
    assert Variable().tolist() == []


def test_variable_of_a_tensor_with_history_cuts_it():
    x = mg.ones(2, requires_grad=True)
    v = Variable(x * 2)
    assert not v.requires_grad and v.grad_fn is None and v.tolist() == [2.0, 2.0]
    w = Variable(x * 2, requires_grad=True)
    assert w.is_leaf and w.requires_grad
    assert not Variable(x).requires_grad
    assert Variable(mg.ones(2), requires_grad=True).grad_fn is None


def test_variable_errors_and_volatile():
    with pytest.raises(RuntimeError) as info:
        Variable(mg.ones(2, dtype=mg.int64), requires_grad=True)
    assert str(info.value) == FACTORY_FLOAT_ONLY
    for data, name in (([1.0, 2.0], "list"), (np.ones(2), "numpy.ndarray")):
        with pytest.raises(TypeError) as info:
            Variable(data)
        assert str(info.value) == f"Variable data has to be a tensor, but got {name}"
    with pytest.raises(TypeError) as info:
        Variable(mg.ones(2), foo=True)
    assert str(info.value) == "'foo' is an invalid keyword argument for this function"
    with pytest.warns(UserWarning, match="^volatile was removed and now has no effect. Use "):
        assert Variable(mg.ones(2), volatile=True).tolist() == [1.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError) as info:
            Variable(mg.ones(2), True, True)
    assert str(info.value) == "Variable can't be volatile and require_grad at the same time!"


# ---- FloatTensor & co --------------------------------------------------------------------

LEGACY = [
    ("FloatTensor", [1, 2], "float32", [1.0, 2.0]),
    ("FloatTensor", np.array([1, 2]), "float32", [1.0, 2.0]),
    ("FloatTensor", np.array([1.0, 2.0]), "float32", [1.0, 2.0]),
    ("DoubleTensor", [1, 2], "float64", [1.0, 2.0]),
    ("LongTensor", [1.7, 2], "int64", [1, 2]),
    ("IntTensor", [1], "int32", [1]),
    ("BoolTensor", [1, 0], "bool", [True, False]),
    ("ByteTensor", [1, 0], "uint8", [1, 0]),
    ("HalfTensor", [1, 0], "float16", [1.0, 0.0]),
    ("ShortTensor", [1, 0], "int16", [1, 0]),
    ("CharTensor", [1, 0], "int8", [1, 0]),
]


@parametrize_in_one(("kind", "data", "dtype", "values"), LEGACY,
                         ids=[f"{c[0]}-{type(c[1]).__name__}" for c in LEGACY])
def test_legacy_types_from_data(kind, data, dtype, values):
    t = getattr(mg, kind)(data)
    assert t.dtype == getattr(mg, dtype)
    assert t.tolist() == values
    assert type(t) is mg.Tensor
    assert isinstance(t, getattr(mg, kind))


def test_legacy_types_from_sizes_and_tensors():
    assert mg.FloatTensor(2).shape == (2,)
    assert mg.FloatTensor(2, 3).shape == (2, 3)
    assert mg.FloatTensor().tolist() == []
    assert mg.LongTensor(2).dtype == mg.int64
    assert mg.FloatTensor([1], device="cpu").tolist() == [1.0]
    a = mg.tensor([1.0, 2.0])
    b = mg.FloatTensor(a)
    a.add_(1)
    assert b.tolist() == [2.0, 3.0] and b._version == 1 and b is not a


def test_isinstance_checks_the_dtype():
    assert isinstance(mg.ones(2), mg.FloatTensor)
    assert not isinstance(mg.ones(2, dtype=mg.float64), mg.FloatTensor)
    assert isinstance(mg.ones(2, dtype=mg.float64), mg.DoubleTensor)
    assert isinstance(mg.tensor([1]), mg.LongTensor)
    assert not isinstance([1.0], mg.FloatTensor)
    assert not issubclass(mg.FloatTensor, mg.Tensor)
    assert mg.FloatTensor.dtype == mg.float32
    assert mg.ones(2).type(mg.DoubleTensor).dtype == mg.float64
    assert mg.ones(2).type(mg.FloatTensor).dtype == mg.float32


def test_legacy_type_errors():
    with pytest.raises(TypeError) as info:
        mg.FloatTensor(mg.tensor([1, 2]))
    assert str(info.value) == (
        "expected TensorOptions(dtype=float, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt)) (got "
        "TensorOptions(dtype=long int, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt)))")
    with pytest.raises(TypeError) as info:
        mg.FloatTensor(mg.tensor([1.0], dtype=mg.float64))
    assert "(got TensorOptions(dtype=double, " in str(info.value)
    with pytest.raises(RuntimeError) as info:
        mg.FloatTensor([1], device="cuda")
    assert str(info.value) == (
        "legacy constructor expects device type: cpu but device type: cuda was passed")
    with pytest.raises(RuntimeError) as info:
        mg.FloatTensor(-1)
    assert str(info.value) == "Trying to create tensor with negative dimension -1: [-1]"
    for kwargs, got in (({"requires_grad": True}, "(list, requires_grad=bool)"),
                        ({"dtype": mg.float64}, "(list, dtype=minigrad.dtype)")):
        with pytest.raises(TypeError) as info:
            mg.FloatTensor([1.0], **kwargs)
        assert str(info.value).startswith(text(
            f"new() received an invalid combination of arguments - got {got}, but expected "
            "one of:\n * (*, minigrad.device device = None)\n"))


# ---- Tensor(...) ---------------------------------------------------------------------------

def test_tensor_constructor():
    assert mg.Tensor([1, 2]).tolist() == [1.0, 2.0]
    assert mg.Tensor([1, 2]).dtype == mg.float32
    assert mg.Tensor(2, 3).shape == (2, 3) and mg.Tensor(2, 3).dtype == mg.float32
    assert mg.Tensor(3).shape == (3,)  # a size, not a value
    assert mg.Tensor(np.int64(3)).shape == (3,)
    assert mg.Tensor().tolist() == []
    assert mg.Tensor((2, 3)).tolist() == [2.0, 3.0]  # a tuple is data
    assert mg.Tensor(mg.Size([2, 3])).shape == (2, 3)  # a Size is a shape
    assert mg.Tensor(mg.Size([])).shape == ()
    assert mg.Tensor([[1, 2], [3, 4]]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert mg.Tensor(np.array([1, 2])).dtype == mg.float32
    assert mg.Tensor(np.array([1.0, 2.0])).dtype == mg.float32
    assert mg.Tensor([1, 2], device="cpu").tolist() == [1.0, 2.0]
    assert mg.Tensor(2, device=mg.device("cpu")).shape == (2,)
    assert mg.Tensor([True]).tolist() == [1.0]


def test_tensor_constructor_of_a_tensor_is_an_alias():
    a = mg.tensor([1.0, 2.0])
    b = mg.Tensor(a)
    a.add_(1)
    assert b is not a and b.tolist() == [2.0, 3.0] and b._version == 1
    assert b._base is a
    assert mg.Tensor(mg.tensor([1, 2])).dtype == mg.int64  # any dtype
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert mg.Tensor(x).grad_fn.name() == "AliasBackward0"


TENSOR_ERRORS = [
    (lambda: mg.Tensor(3.5), TypeError, "new(): data must be a sequence (got float)"),
    (lambda: mg.Tensor(True), TypeError, "new(): data must be a sequence (got bool)"),
    (lambda: mg.Tensor(None), TypeError, "new(): data must be a sequence (got NoneType)"),
    (lambda: mg.Tensor("a"), TypeError, "new(): invalid data type 'str'"),
    (lambda: mg.Tensor(-1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: mg.Tensor(2, 3.0), TypeError,
     "new(): argument 'size' failed to unpack the object at pos 2 with error \"type must be "
     "tuple of ints,but got float\""),
    (lambda: mg.Tensor(2, "a"), TypeError,
     "new(): argument 'size' failed to unpack the object at pos 2 with error \"type must be "
     "tuple of ints,but got str\""),
    (lambda: mg.Tensor([1, 2], device="cuda"), RuntimeError,
     "legacy constructor expects device type: cpu but device type: cuda was passed"),
    (lambda: mg.Tensor(2, 3, device="cuda"), RuntimeError,
     "legacy constructor expects device type: cpu but device type: cuda was passed"),
    (lambda: mg.Tensor(mg.tensor([1, 2]), device="cpu"), RuntimeError,
     "Legacy tensor constructor of the form minigrad.Tensor(tensor, device=device) is not "
     "supported.  Use minigrad.tensor(...) or minigrad.as_tensor(...) instead."),
]


@parametrize_in_one(("call", "error", "message"), TENSOR_ERRORS)
def test_tensor_constructor_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)


# ---- new_*, new, and small helpers ---------------------------------------------------------

def test_new_tensors_like_this_one():
    x = mg.tensor([1, 2])
    assert x.new_zeros(2, 3).tolist() == [[0, 0, 0], [0, 0, 0]]
    assert x.new_zeros((2, 3)).dtype == mg.int64
    assert x.new_ones([2]).tolist() == [1, 1]
    assert x.new_full((2,), 1.5).tolist() == [1, 1]
    assert x.new_full((2,), 1.5, dtype=mg.float32).tolist() == [1.5, 1.5]
    assert x.new_empty(2).dtype == mg.int64
    assert x.new_tensor([1.5, 2]).tolist() == [1, 2]
    assert x.new_tensor([1.5, 2], dtype=mg.float64).dtype == mg.float64
    assert repr(mg.ones(1).new_tensor([1, 2], requires_grad=True)) == (
        "tensor([1., 2.], requires_grad=True)")
    assert x.new(2, 3).dtype == mg.int64
    assert x.new([1.5]).tolist() == [1]
    assert x.new().tolist() == []
    with pytest.raises(RuntimeError) as info:
        x.new_zeros(2, requires_grad=True)
    assert str(info.value) == FACTORY_FLOAT_ONLY
    with pytest.raises(AssertionError) as info:
        mg.ones(1).new_zeros(2, device="cuda")
    assert str(info.value) == "Torch not compiled with CUDA enabled"


def test_small_helpers():
    assert mg.is_tensor(mg.ones(1)) and not mg.is_tensor(1) and not mg.is_tensor([1.0])
    assert mg.numel(mg.ones(2, 3)) == 6
    assert mg.get_default_dtype() == mg.float32
    assert mg.is_floating_point(mg.ones(1)) and not mg.is_floating_point(mg.tensor([1]))
