"""Misuse, generated: wrong-type, wrong-shape, wrong-dtype and out-of-range arguments.

``variants(args, kwargs)`` takes one valid call (numpy arrays for tensors, plain Python values
for the rest) and yields calls that differ from it in one argument. The sweep runs each in
minigrad and in PyTorch: both must fail with the same exception type (or both succeed with the
same result), and a failed call must leave every tensor as it was.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

# What replaces a tensor argument: not a tensor at all, or a tensor of another dtype or shape.
NOT_TENSORS: tuple[tuple[str, Any], ...] = (("str", "a"), ("None", None), ("object", object()))
OTHER_TENSORS: tuple[tuple[str, Callable[[np.ndarray], np.ndarray]], ...] = (
    ("bool", lambda a: np.asarray(a) > 0),
    ("int64", lambda a: np.round(np.asarray(a) * 3).astype(np.int64)),
    ("shape-7", lambda a: np.linspace(-1.0, 1.0, 7)),
    ("shape-1x2x1x3", lambda a: np.linspace(-1.0, 1.0, 6).reshape(1, 2, 1, 3)),
)
# What replaces a Python argument, by the type of the valid value.
_FOR_INT = (("float", 1.5), ("str", "a"), ("None", None), ("int-99", 99), ("int-minus-99", -99),
            ("int-2**70", 2**70))
_FOR_FLOAT = (("str", "a"), ("None", None), ("list", [1.0]))
_FOR_BOOL = (("str", "a"), ("None", None))
_FOR_SEQUENCE = (("str", "a"), ("None", None), ("floats", (0.5,)), ("int-99", (99,)),
                 ("int-2**70", (2**70,)))
_FOR_STR = (("int", 1), ("None", None), ("str", "no-such-option"))


@dataclass(frozen=True)
class Variant:
    """One bad call: which argument changed (``where``) to what (``what``)."""

    where: str
    what: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def _python_replacements(value: Any) -> tuple[tuple[str, Any], ...]:
    if isinstance(value, bool):
        return _FOR_BOOL
    if isinstance(value, int):
        return _FOR_INT
    if isinstance(value, float):
        return _FOR_FLOAT
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) for v in value):
        return _FOR_SEQUENCE
    if isinstance(value, str):
        return _FOR_STR
    return ()


def _replacements(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, np.ndarray):
        yield from NOT_TENSORS
        for name, make in OTHER_TENSORS:
            yield name, ArraySpec(make(value))
    else:
        yield from _python_replacements(value)


@dataclass(frozen=True)
class ArraySpec:
    """A replacement that is a tensor (made for each library from this array)."""

    array: np.ndarray


def variants(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Iterator[Variant]:
    """Every call that differs from ``(args, kwargs)`` in exactly one argument."""
    for position, value in enumerate(args):
        for what, bad in _replacements(value):
            changed = list(args)
            changed[position] = bad
            yield Variant(f"arg{position}", what, tuple(changed), kwargs)
    for key, value in kwargs.items():
        for what, bad in _replacements(value):
            yield Variant(key, what, args, {**kwargs, key: bad})


# --- running a call in one library -------------------------------------------------------------


def to_lib(lib: Any, value: Any, dtype: str, requires_grad: bool) -> Any:
    """A sample value for ``lib``: arrays become tensors (floats in ``dtype``)."""
    if isinstance(value, ArraySpec):
        value = value.array
        requires_grad = False
    if not isinstance(value, np.ndarray):
        return value
    array = value.astype(dtype) if value.dtype.kind == "f" else value
    tensor = lib.from_numpy(np.array(array, copy=True))
    if requires_grad and array.dtype.kind == "f":
        tensor.requires_grad_(True)
        tensor.grad = lib.from_numpy(np.full(array.shape, 0.25, dtype=array.dtype))
    return tensor


@dataclass
class Snapshot:
    """A tensor's observable state: values, version, requires_grad and .grad."""

    values: np.ndarray
    version: int
    requires_grad: bool
    grad: np.ndarray | None

    @staticmethod
    def of(tensor: Any) -> Snapshot:
        grad = tensor.grad
        return Snapshot(
            np.array(tensor.detach().numpy(), copy=True),
            tensor._version,
            tensor.requires_grad,
            None if grad is None else np.array(grad.numpy(), copy=True),
        )

    def same_as(self, other: Snapshot) -> bool:
        if (self.grad is None) != (other.grad is None):
            return False
        return (
            np.array_equal(self.values, other.values, equal_nan=True)
            and self.version == other.version
            and self.requires_grad == other.requires_grad
            and (self.grad is None or np.array_equal(self.grad, other.grad, equal_nan=True))
        )


def outcome(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """``(result, None)`` or ``(None, error)``; warnings are not part of this comparison."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call(), None
        except Exception as error:  # noqa: BLE001 - compared with PyTorch's
            return None, error


def tensors_in(values: Any) -> list[Any]:
    """The tensors among call arguments (not inside containers)."""
    return [v for v in values if hasattr(v, "_version") and hasattr(v, "requires_grad")]


def flat_results(result: Any) -> list[Any]:
    """A result as a list: tensors and plain values, tuples flattened."""
    if isinstance(result, (tuple, list)):
        return [item for part in result for item in flat_results(part)]
    return [result]


def same_results(mine: Any, theirs: Any) -> bool:
    """Same shapes, dtypes and values (float32 tolerance), or equal plain values."""
    mine, theirs = flat_results(mine), flat_results(theirs)
    if len(mine) != len(theirs):
        return False
    for a, b in zip(mine, theirs):
        if hasattr(b, "detach") and hasattr(b, "dtype"):
            if not hasattr(a, "detach"):
                return False
            if str(a.dtype).split(".")[-1] != str(b.dtype).split(".")[-1]:
                return False
            x, y = a.detach().numpy(), b.detach().numpy()
            if x.shape != y.shape:
                return False
            if x.dtype.kind == "f":
                if not np.allclose(x, y, rtol=1e-4, atol=1e-5, equal_nan=True):
                    return False
            elif not np.array_equal(x, y):
                return False
        elif hasattr(a, "detach"):
            return False
    return True
