"""Programs that misuse the library, one per defect of issue 10, written for either library.

Each scenario takes the library (``minigrad`` or ``torch``) and returns what a user can observe:
values (floats as their repr, so nan, inf and -0.0 compare exactly), dtypes, and errors as
``(type name, message)`` with PyTorch's ``torch.`` names written ``minigrad.``. The values
PyTorch 2.13 gives are recorded in tests/test_misuse.py, and tests_torch/test_misuse_torch.py
runs every scenario in both libraries side by side.
"""

from __future__ import annotations

import copy
import pickle
import re
from collections.abc import Callable
from typing import Any

import numpy as np

SCENARIOS: dict[str, Callable[[Any], Any]] = {}
_TORCH_NAME = re.compile(r"\btorch\.(?=[A-Za-z_])")


def scenario(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Register a scenario under its function's name."""
    SCENARIOS[function.__name__] = function
    return function


def failure(call: Callable[[], Any]) -> Any:
    """``(exception type, message)`` if ``call`` raises, else ``("no error", repr of result)``."""
    try:
        result = call()
    except Exception as error:  # noqa: BLE001 - the error is the observation
        return type(error).__name__, _TORCH_NAME.sub("minigrad.", str(error))
    return "no error", _TORCH_NAME.sub("minigrad.", repr(result))


def values(tensor: Any) -> Any:
    """A tensor's values as nested lists, floats as their repr (``'nan'``, ``'-0.0'``)."""
    if tensor is None:
        return None
    data = tensor.detach().tolist()

    def convert(value: Any) -> Any:
        if isinstance(value, list):
            return [convert(v) for v in value]
        return repr(value) if isinstance(value, float) else value

    return convert(data)


def dtype(tensor: Any) -> str:
    return str(tensor.dtype).split(".")[-1]


# --- data loss and wrong gradients -----------------------------------------------------------


@scenario
def own_grad(lib: Any) -> Any:
    a = lib.ones(3, requires_grad=True)

    def assign() -> None:
        a.grad = a

    return failure(assign), values(a), a.grad


@scenario
def grad_of_another_dtype(lib: Any) -> Any:
    observed = []
    for other in (lib.int64, lib.float64, lib.float16, lib.bool):
        a = lib.ones(3, requires_grad=True)

        def assign(a: Any = a, other: Any = other) -> None:
            a.grad = lib.zeros(3, dtype=other)

        observed.append((failure(assign), a.grad))
    return observed


@scenario
def expanded_grad(lib: Any) -> Any:
    a = lib.ones(3, requires_grad=True)
    a.grad = lib.zeros(1).expand(3)  # accepted; the accumulation refuses it
    error = failure(lambda: (a * 2).sum().backward())
    return error, values(a.grad), values(a)


@scenario
def retain_grad_then_inplace(lib: Any) -> Any:
    a = lib.ones(1, requires_grad=True)
    y = a * 2
    y.retain_grad()
    y.mul_(3)
    (y * 5).sum().backward()
    return values(y.grad), values(a.grad)


@scenario
def retain_grad_then_inplace_through_a_view(lib: Any) -> Any:
    a = lib.ones(4, requires_grad=True)
    b = a * 1
    b.retain_grad()
    b[1:3].mul_(3)
    (b * 5).sum().backward()
    first = values(b.grad), values(a.grad)
    a = lib.ones(4, requires_grad=True)
    b = a * 1
    view = b[1:3]
    view.retain_grad()
    b.mul_(3)
    (view * 5).sum().backward()
    return first, (values(view.grad), values(a.grad))


@scenario
def deepcopy_of_a_result(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    return failure(lambda: copy.deepcopy(a * 3)), a.grad


@scenario
def deepcopy_of_a_leaf(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    a.grad = lib.full((2,), 5.0)
    with lib.no_grad():
        a.mul_(2)
    b = copy.deepcopy(a)
    (b * 3).sum().backward()
    with lib.no_grad():
        b.add_(1)
    return (values(a), values(a.grad), a._version, values(b), values(b.grad), b._version,
            b.requires_grad, b.is_leaf)


@scenario
def hook_changes_the_dtype(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda grad: grad.double())
    return failure(lambda: b.sum().backward()), a.grad


@scenario
def leaf_hook_changes_the_dtype(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)

    def to_int(grad: Any) -> Any:
        return grad.int()

    a.register_hook(to_int)
    return failure(lambda: (a * 2).sum().backward()), a.grad


@scenario
def cumsum_of_a_million_float32(lib: Any) -> Any:
    x = lib.ones(10**6) * 0.1
    total = x.cumsum(0)[-1]
    return repr(total.item()), dtype(total)


# --- crashes and unusable objects ------------------------------------------------------------


@scenario
def tensor_of_huge_numbers(lib: Any) -> Any:
    observed = {}
    for label, data in (("2**70", 2**70), ("[-2**63-1]", [-(2**63) - 1]),
                        ("[1, 2**63]", [1, 2**63]), ("2**63", 2**63)):
        observed[label] = failure(lambda data=data: lib.tensor(data))
    mixed = lib.tensor([1.0, 2**70])
    observed["[1.0, 2**70]"] = values(mixed), dtype(mixed)
    observed["[2**40] as int32"] = failure(lambda: lib.tensor([2**40], dtype=lib.int32))
    observed["[-1] as uint8"] = values(lib.tensor([-1], dtype=lib.uint8))
    observed["[nan] as int64"] = failure(lambda: lib.tensor([float("nan")], dtype=lib.int64))
    observed["[1.0, 2**1030]"] = failure(lambda: lib.tensor([1.0, 2**1030]))
    return observed


@scenario
def tensor_of_odd_elements(lib: Any) -> Any:
    observed = {}
    cases = {
        "'abc'": "abc", "['a']": ["a"], "[1, 'a']": [1, "a"], "None": None, "[1, None]": [1, None],
        "[np.float64(1.0)]": [np.float64(1.0)], "[np.int32(1)]": [np.int32(1)],
        "[np.float64(1.0), 2]": [np.float64(1.0), 2], "[np.int32(1), 2.5]": [np.int32(1), 2.5],
        "[np.uint8(1), np.int8(2)]": [np.uint8(1), np.int8(2)],
        "[np.float16(1), 2]": [np.float16(1), 2], "[True, 2]": [True, 2],
        "[0-d float64 tensor, 2]": [lib.tensor(1.0, dtype=lib.float64), 2],
    }  # fmt: skip
    for label, data in cases.items():
        made = failure(lambda data=data: lib.tensor(data))
        observed[label] = made if made[0] != "no error" else dtype(lib.tensor(data))
    return observed


@scenario
def pickle_a_used_leaf(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    (a * 2).sum().backward()
    b = pickle.loads(pickle.dumps(a))
    result = pickle.loads(pickle.dumps(a * 3))
    return (values(b), b.requires_grad, b.is_leaf, b.grad, b._version,
            values(result), result.requires_grad, result.is_leaf)


@scenario
def logical_and_with_none(lib: Any) -> Any:
    return failure(lambda: lib.logical_and(lib.ones(2), None))[0]


@scenario
def hook_returns_a_list(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda grad: [1.0, 2.0])
    return failure(lambda: b.sum().backward()), a.grad


@scenario
def custom_backward_returns_a_str(lib: Any) -> Any:
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return "abc"

    a = lib.ones(2, requires_grad=True)
    return failure(lambda: Double.apply(a).sum().backward()), a.grad


@scenario
def operators_with_non_tensors(lib: Any) -> Any:
    t = lib.ones(2)
    calls = {
        "t @ list": lambda: t @ [[1.0], [2.0]], "t + 'a'": lambda: t + "a",
        "t + None": lambda: t + None, "None - t": lambda: None - t,
        "t * object": lambda: t * object(),
        "t < None": lambda: t < None, "t == None": lambda: t == None,  # noqa: E711
        "t @ 2": lambda: t @ 2, "2 @ t": lambda: 2 @ t, "t @ 2.5": lambda: t @ 2.5,
        "[1., 1.] @ t": lambda: [1.0, 1.0] @ t,
    }  # fmt: skip
    return {label: failure(call) for label, call in calls.items()}


@scenario
def functions_with_non_tensors(lib: Any) -> Any:
    t = lib.ones(2)
    calls = {
        "exp('a')": lambda: lib.exp("a"), "add(t, 'a')": lambda: lib.add(t, "a"),
        "t.add(None)": lambda: t.add(None), "t.mul_(None)": lambda: t.mul_(None),
        "matmul(t, None)": lambda: lib.matmul(t, None), "t.pow(None)": lambda: t.pow(None),
    }  # fmt: skip
    return {label: failure(call)[0] for label, call in calls.items()}


@scenario
def masked_fill_with_a_mask_that_does_not_broadcast(lib: Any) -> Any:
    t = lib.ones(2, 3)
    return failure(lambda: t.masked_fill(lib.ones(4, dtype=lib.bool), 1.0)), values(t)


@scenario
def small_integers_wrap(lib: Any) -> Any:
    t = lib.tensor([1, 100], dtype=lib.int8)
    u = lib.tensor([1], dtype=lib.uint8)
    inplace = lib.tensor([1], dtype=lib.int8)
    inplace += 1000
    return values(t + 1000), values(1000 + t), values(u - 300), values(inplace)


@scenario
def dims_of_the_wrong_type(lib: Any) -> Any:
    t = lib.ones(2)
    calls = {
        "sum(dim=0.0)": lambda: t.sum(dim=0.0), "sum(dim='a')": lambda: t.sum(dim="a"),
        "sum(True)": lambda: t.sum(True), "prod(None)": lambda: t.prod(None),
        "prod(dim=None)": lambda: t.prod(dim=None), "flip(None)": lambda: t.flip(None),
        "flip(0.0)": lambda: t.flip(0.0), "cumsum(None)": lambda: t.cumsum(None),
        "softmax(dim=None)": lambda: t.softmax(dim=None),
        "unsqueeze(0.0)": lambda: t.unsqueeze(0.0),
        "cumsum(True)": lambda: t.cumsum(True),
    }  # fmt: skip
    observed = {label: failure(call)[0] for label, call in calls.items()}
    observed["sum(None)"] = values(t.sum(None))
    observed["prod()"] = values(t.prod())
    return observed


# --- wrong behaviour -------------------------------------------------------------------------


@scenario
def no_grad_generator_close_and_throw(lib: Any) -> Any:
    seen = []

    @lib.no_grad()
    def numbers() -> Any:
        try:
            while True:
                try:
                    yield lib.is_grad_enabled()
                except ValueError:
                    seen.append(("caught", lib.is_grad_enabled()))
        finally:
            seen.append(("finally", lib.is_grad_enabled()))

    generator = numbers()
    first = next(generator)
    thrown = generator.throw(ValueError("x"))
    generator.close()
    return first, thrown, seen, lib.is_grad_enabled()


@scenario
def backward_with_empty_inputs(lib: Any) -> Any:
    a = lib.ones(2, requires_grad=True)
    return failure(lambda: (a * 2).sum().backward(inputs=[])), a.grad


@scenario
def autograd_with_non_tensors(lib: Any) -> Any:
    a = lib.ones(3, requires_grad=True)
    y, g = a * 3, lib.ones(3)
    return (failure(lambda: lib.autograd.grad("abc", a, g)),
            failure(lambda: lib.autograd.grad([y, "a"], a, [g])),
            failure(lambda: lib.autograd.backward(["a"])),
            failure(lambda: lib.autograd.grad(y, "a", g)),
            failure(lambda: lib.autograd.backward(y, g, inputs=["a"])), a.grad)


@scenario
def random_numbers_of_an_integer_dtype(lib: Any) -> Any:
    return (failure(lambda: lib.rand(2, dtype=lib.int64)),
            failure(lambda: lib.randn(2, dtype=lib.bool)),
            failure(lambda: lib.rand(2, dtype=lib.int32)), dtype(lib.rand(2, dtype=lib.float64)))


@scenario
def number_conversions_of_many_elements(lib: Any) -> Any:
    t = lib.ones(2)
    return (failure(lambda: float(t)), failure(lambda: int(t)), failure(lambda: t.item()),
            float(lib.ones(1)), int(lib.full((1, 1), 3.7)))


# --- special values --------------------------------------------------------------------------


def _value_and_grad(lib: Any, function: Callable[[Any], Any], data: list[float]) -> Any:
    x = lib.tensor(data, requires_grad=True)
    y = function(x)
    y.sum().backward()
    return values(y), values(x.grad)


NAN, INF = float("nan"), float("inf")


@scenario
def special_values(lib: Any) -> Any:
    return {
        "sign": _value_and_grad(lib, lambda x: x.sign(), [NAN, -0.0, 0.0, -2.0, INF]),
        "abs": _value_and_grad(lib, lambda x: x.abs(), [NAN, 0.0, -0.0, -INF]),
        "relu": _value_and_grad(lib, lambda x: x.relu(), [NAN, 0.0, -0.0, 1.0]),
        "x**0.5": _value_and_grad(lib, lambda x: x**0.5, [-0.0, 0.0, INF, -1.0]),
        "x**-0.5": _value_and_grad(lib, lambda x: x**-0.5, [-0.0, -INF, 0.0, INF]),
        "sqrt": _value_and_grad(lib, lambda x: x.sqrt(), [-0.0, 0.0]),
        "rsqrt": _value_and_grad(lib, lambda x: x.rsqrt(), [-0.0, -INF]),
    }


@scenario
def prod_backward_at_special_values(lib: Any) -> Any:
    observed = {}
    for data in ([0.0, 2.0, 3.0], [0.0, 0.0, 3.0], [INF, 2.0, 3.0], [NAN, 2.0, 3.0],
                 [INF, 0.0, 3.0], [NAN, 0.0, 1.0], [-0.0, 2.0, 3.0]):
        observed[repr(data)] = (
            _value_and_grad(lib, lambda x: x.prod(), data),
            _value_and_grad(lib, lambda x: x.reshape(1, 3).prod(1), data),
        )
    return observed
