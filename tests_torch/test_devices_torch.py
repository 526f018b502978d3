"""Devices and the new factories side by side with PyTorch 2.13 (CPU build).

Every device string PyTorch's parser knows (and some it refuses) goes through ``device()``,
``Tensor.to`` and the factories in both libraries: the same outcome, the same exception type,
and the same message (where minigrad claims it; see ``SAME_MESSAGE``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from test_ops_torch import assert_same_outcome, run, to_minigrad_names

import minigrad
from minigrad._device import DEVICE_TYPES

torch = pytest.importorskip("torch")

# (Not "mkldnn": PyTorch warns about it once per process, which makes outcomes order-dependent.)
DEVICE_STRINGS = [
    *(t for t in DEVICE_TYPES if t != "mkldnn"),
    "cpu:0", "cpu:2", "cuda:1", "CPU", "cuda:x", "cpu:-1", "", "gpu",
]
# Device types whose refusal minigrad words differently (it has no meta tensors, no dispatcher,
# and PyTorch's own messages for these are internal asserts or module lookups).
DIFFERENT_MESSAGE = {"meta", "mkldnn", "opengl", "opencl", "ideep", "hpu", "privateuseone", "lazy"}


def _outcome(fn: Any) -> tuple[Any, BaseException | None]:
    return run(fn)


@parametrize_in_one("name", DEVICE_STRINGS)
def test_device_parsing(name: str) -> None:
    theirs, t_error = _outcome(lambda: torch.device(name))
    mine, m_error = _outcome(lambda: minigrad.device(name))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert (mine.type, mine.index, str(mine), repr(mine)) == (
            theirs.type, theirs.index, str(theirs), repr(theirs))


def _kind(name: str) -> str:
    return name.partition(":")[0]


@parametrize_in_one("name", [n for n in DEVICE_STRINGS if _kind(n) != "meta"])
def test_to_a_device(name: str) -> None:
    theirs, t_error = _outcome(lambda: torch.ones(2).to(name))
    mine, m_error = _outcome(lambda: minigrad.ones(2).to(name))
    assert_same_outcome(m_error, t_error, same_message=_kind(name) not in DIFFERENT_MESSAGE)
    if t_error is None:
        assert str(mine.device) == str(theirs.device)


FACTORIES = {
    "zeros": lambda lib, d: lib.zeros(2, device=d),
    "tensor": lambda lib, d: lib.tensor([1.0], device=d),
    "arange": lambda lib, d: lib.arange(3, device=d),
    "full": lambda lib, d: lib.full((2,), 1.0, device=d),
    "zeros_like": lambda lib, d: lib.zeros_like(lib.ones(2), device=d),
    "eye": lambda lib, d: lib.eye(2, device=d),
    "randint": lambda lib, d: lib.randint(3, (2,), device=d),
    "randperm": lambda lib, d: lib.randperm(3, device=d),
    "tril_indices": lambda lib, d: lib.tril_indices(3, 3, device=d),
}


@parametrize_in_one("factory", list(FACTORIES))
@parametrize_in_one("name", ["cpu", "cpu:1", "cuda", "cuda:0", "xpu", "mps", "hip", 0])
def test_factory_devices(factory: str, name: Any) -> None:
    make = FACTORIES[factory]
    theirs, t_error = _outcome(lambda: make(torch, name))
    mine, m_error = _outcome(lambda: make(minigrad, name))
    # The dispatcher's message for an op without a kernel lists every backend: minigrad keeps
    # its first sentence only.
    no_kernel = isinstance(t_error, NotImplementedError)
    assert_same_outcome(m_error, t_error, same_message=not no_kernel)
    if no_kernel:
        assert str(m_error).split(". ")[0] == str(t_error).split(". ")[0]
    if t_error is None:
        assert str(mine.device) == str(theirs.device) == "cpu"


TO_CALLS = [
    ((), {}), (("cpu",), {}), ((None,), {}), (("float64",), {}), ((float,), {}), ((int,), {}),
    (("cpu", "float64"), {}), ((), {"dtype": "float64"}), ((), {"dtype": "float16", "copy": True}),
    (("float32",), {"copy": True}), (("cpu",), {"copy": True, "non_blocking": True}),
    (("float64", False, True), {}), (("cpu", "int32", False, True), {}), (("tensor",), {}),
    (("tensor",), {"copy": True}), (("cpu", "cpu"), {}), (("float64", "cpu"), {}),
    (("float64", "float32"), {}), (("float64", 1), {}), (("tensor",), {"dtype": "float64"}),
    ((), {"other": "tensor"}), ((1.5, 2.5), {}), (("cpu",), {"device": "cpu"}),
]


def _arguments(lib: Any, values: Any, source: Any) -> Any:
    def convert(value: Any) -> Any:
        if value in ("float64", "float32", "float16", "int32"):
            return getattr(lib, value)
        if value == "tensor":
            return lib.zeros(1, dtype=lib.int32)
        return value

    if isinstance(values, dict):
        return {k: convert(v) for k, v in values.items()}
    return tuple(convert(v) for v in values)


@parametrize_in_one(("args", "kwargs"), TO_CALLS, ids=[repr(c) for c in TO_CALLS])
@parametrize_in_one("requires_grad", [False, True])
def test_to_signatures(args: Any, kwargs: Any, requires_grad: bool) -> None:
    outcomes = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.5, -2.0], requires_grad=requires_grad)
        call_args, call_kwargs = _arguments(lib, args, x), _arguments(lib, kwargs, x)
        result, error = run(lambda: x.to(*call_args, **call_kwargs))  # noqa: B023
        outcomes.append((x, result, error))
    (t_x, theirs, t_error), (m_x, mine, m_error) = outcomes
    # PyTorch's list of signatures names memory_format, which minigrad does not have.
    assert_same_outcome(m_error, t_error, same_message=False)
    if t_error is not None:
        expected = to_minigrad_names(str(t_error))
        assert str(m_error).split(" but expected")[0] == expected.split(" but expected")[0]
        return
    assert (mine is m_x) == (theirs is t_x)
    assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if theirs.grad_fn is not None:
        assert mine.grad_fn.name() == theirs.grad_fn.name()
