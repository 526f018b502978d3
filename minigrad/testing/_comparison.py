"""``assert_close`` (and the deprecated ``assert_allclose``): PyTorch's rules for "close".

How it works, as in PyTorch: the two inputs are walked together (sequences by index, mappings by
key) down to pairs of leaves; each pair of leaves is claimed by the first kind of pair that takes
it (both None, both bools, both numbers, or two directly related tensor-likes that
``minigrad.as_tensor`` accepts); a leaf nobody takes is a TypeError. Every pair is then compared,
and the first failure is raised, with the path to it ("The failure occurred for item [0]['a']")
and, if given, the caller's ``msg`` in place of (or wrapped around) the generated text.

Tensors are compared by value with ``minigrad.isclose`` on detached copies: nothing is recorded
and nothing is written, whatever ``requires_grad`` says.
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

import minigrad
from minigrad.testing._messages import (
    UNEXPECTED,
    item_path,
    scalar_mismatch,
    tensor_mismatch,
    type_text,
)


class _Failure(Exception):
    """A comparison's verdict: the exception type to raise, its text, and where it happened."""

    def __init__(self, kind: type[Exception], message: str, id: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.kind, self.message, self.id = kind, message, id

    def to_error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        """The exception to raise; ``msg`` replaces its text (a str) or rewrites it (a callable)."""
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.message
        if self.id:
            text += f"\n\nThe failure occurred for item {item_path(self.id)}"
        return self.kind(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    """Raised by a pair's constructor: this kind of pair does not take these inputs."""


def _float_tolerances() -> dict[Any, tuple[float, float]]:
    """PyTorch's default (rtol, atol) per dtype; every other dtype compares exactly."""
    return {
        minigrad.float16: (0.001, 1e-5),
        minigrad.float32: (1.3e-6, 1e-5),
        minigrad.float64: (1e-7, 1e-7),
    }


def _number_dtype(kind: type) -> Any:
    """The dtype a Python number type stands for (a KeyError for bool, as in PyTorch)."""
    return {int: minigrad.int64, float: minigrad.float64, complex: "complex128"}[kind]


def default_tolerances(
    *dtypes: Any, precisions: dict[Any, tuple[float, float]] | None = None
) -> tuple[float, float]:
    """The loosest default (rtol, atol) over ``dtypes`` (0.0 for integer and bool dtypes)."""
    table = precisions or _float_tolerances()
    table = {**table, "complex128": (1e-7, 1e-7)}  # (Python complex numbers only)
    rtols, atols = zip(*[table.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _tolerances(
    *dtypes: Any, rtol: Any, atol: Any, id: tuple[Any, ...]
) -> tuple[Any, Any]:
    """The given tolerances, or the defaults if neither is given; one without the other fails."""
    if (rtol is None) != (atol is None):
        raise _Failure(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            id,
        )
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*dtypes)


class _Pair:
    """Two leaves to compare, and where they sit in the inputs."""

    def __init__(self, actual: Any, expected: Any, id: tuple[Any, ...]) -> None:
        self.actual, self.expected, self.id = actual, expected, id

    def fail(self, kind: type[Exception], message: str) -> NoReturn:
        """Give the verdict "not close"."""
        raise _Failure(kind, message, self.id)

    def compare(self) -> None:
        """Raise ``_Failure`` unless the two leaves are close."""
        raise NotImplementedError

    def options(self) -> list[tuple[str, Any]]:
        """The settings shown when the comparison breaks unexpectedly."""
        return []

    def __repr__(self) -> str:
        fields = [("id", self.id), ("actual", self.actual), ("expected", self.expected)]
        body = [f"    {name}={value!s}," for name, value in fields + self.options()]
        return "\n".join((f"{type(self).__name__}(", *body, ")"))


class NonePair(_Pair):
    """``None`` on either side: close only to ``None``."""

    def __init__(self, actual: Any, expected: Any, id: tuple[Any, ...], **_: Any) -> None:
        if actual is not None and expected is not None:
            raise _Unsupported
        super().__init__(actual, expected, id)

    def compare(self) -> None:
        """Both must be None."""
        if not (self.actual is None and self.expected is None):
            self.fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class BooleanPair(_Pair):
    """Two bools (Python's or numpy's): close if they are the same bool."""

    def __init__(self, actual: Any, expected: Any, id: tuple[Any, ...], **_: Any) -> None:
        if not all(isinstance(value, (bool, np.bool_)) for value in (actual, expected)):
            raise _Unsupported
        super().__init__(bool(actual), bool(expected), id)

    def compare(self) -> None:
        """The same truth value."""
        if self.actual is not self.expected:
            self.fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class NumberPair(_Pair):
    """Two numbers (int, float, complex, or numpy's): close within tolerances of their types."""

    def __init__(
        self,
        actual: Any,
        expected: Any,
        id: tuple[Any, ...],
        *,
        rtol: Any = None,
        atol: Any = None,
        equal_nan: bool = False,
        check_dtype: bool = False,
        **_: Any,
    ) -> None:
        kinds = (int, float, complex, np.number)
        if not all(isinstance(value, kinds) for value in (actual, expected)):
            raise _Unsupported
        actual, expected = (v.item() if isinstance(v, np.number) else v for v in (actual, expected))
        super().__init__(actual, expected, id)
        # (a bool among numbers has no dtype here: a KeyError, reported as PyTorch reports it)
        dtypes = [_number_dtype(type(value)) for value in (actual, expected)]
        self.rtol, self.atol = _tolerances(*dtypes, rtol=rtol, atol=atol, id=id)
        self.equal_nan, self.check_dtype = equal_nan, check_dtype

    def compare(self) -> None:
        """Same type (if checked), then ``|actual - expected| <= atol + rtol * |expected|``."""
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            self.fail(
                AssertionError,
                f"The (d)types do not match: {type(actual)} != {type(expected)}.",
            )
        if actual == expected:
            return
        if self.equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
            return
        difference = abs(actual - expected)
        if cmath.isfinite(difference) and difference <= self.atol + self.rtol * abs(expected):
            return
        self.fail(
            AssertionError, scalar_mismatch(actual, expected, rtol=self.rtol, atol=self.atol)
        )

    def options(self) -> list[tuple[str, Any]]:
        """The settings shown when the comparison breaks unexpectedly."""
        names = ("rtol", "atol", "equal_nan", "check_dtype")
        return [(name, getattr(self, name)) for name in names]


class TensorLikePair(_Pair):
    """Two tensors, or two directly related objects ``minigrad.as_tensor`` turns into tensors."""

    _OPTIONS = ("rtol", "atol", "equal_nan", "check_device", "check_dtype", "check_layout",
                "check_stride")  # fmt: skip

    def __init__(
        self,
        actual: Any,
        expected: Any,
        id: tuple[Any, ...],
        *,
        allow_subclasses: bool = True,
        rtol: Any = None,
        atol: Any = None,
        equal_nan: bool = False,
        check_device: bool = True,
        check_dtype: bool = True,
        check_layout: bool = True,
        check_stride: bool = False,
        **_: Any,
    ) -> None:
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or (not allow_subclasses and type(actual) is not type(expected)):
            raise _Unsupported
        super().__init__(_as_tensor(actual), _as_tensor(expected), id)
        self.rtol, self.atol = _tolerances(
            self.actual.dtype, self.expected.dtype, rtol=rtol, atol=atol, id=id
        )
        self.equal_nan = equal_nan
        self.check_device, self.check_dtype = check_device, check_dtype
        self.check_layout, self.check_stride = check_layout, check_stride

    def compare(self) -> None:
        """The attributes (shape; layout, stride, device, dtype as asked), then the values."""
        actual, expected = self.actual, self.expected
        self._check_attribute("shape", actual.shape, expected.shape)
        if actual.layout != expected.layout:
            if self.check_layout:
                self._check_attribute("layout", actual.layout, expected.layout)
        elif self.check_stride:
            self._check_attribute("stride()", actual.stride(), expected.stride())
        if self.check_device:
            self._check_attribute("device", actual.device, expected.device)
        if self.check_dtype:
            self._check_attribute("dtype", actual.dtype, expected.dtype)
        self._compare_values(*self._equalized(actual, expected))

    def _check_attribute(self, name: str, actual: Any, expected: Any) -> None:
        if actual != expected:
            self.fail(
                AssertionError,
                f"The values for attribute '{name}' do not match: {actual} != {expected}.",
            )

    @staticmethod
    def _equalized(actual: Any, expected: Any) -> tuple[Any, Any]:
        """Detached tensors on one device and of one dtype (PyTorch's promotion), to compare."""
        actual, expected = actual.detach(), expected.detach()
        if actual.device != expected.device:
            actual, expected = actual.cpu(), expected.cpu()
        if actual.dtype != expected.dtype:
            common = minigrad.promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(common), expected.to(common)
        return actual, expected

    def _compare_values(self, actual: Any, expected: Any) -> None:
        matches = minigrad.isclose(
            actual, expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan
        )
        if bool(matches.all()):
            return
        if actual.shape == ():
            message = scalar_mismatch(
                actual.item(), expected.item(), rtol=self.rtol, atol=self.atol
            )
        else:
            message = tensor_mismatch(actual, expected, matches, rtol=self.rtol, atol=self.atol)
        self.fail(AssertionError, message)

    def options(self) -> list[tuple[str, Any]]:
        """The settings shown when the comparison breaks unexpectedly."""
        return [(name, getattr(self, name)) for name in self._OPTIONS]


def _as_tensor(value: Any) -> Any:
    """``value`` as a tensor, or ``_Unsupported`` if minigrad cannot make one of it."""
    if isinstance(value, minigrad.Tensor):
        return value
    try:
        return minigrad.as_tensor(value)
    except Exception:
        raise _Unsupported from None


_PAIR_TYPES = (NonePair, BooleanPair, NumberPair, TensorLikePair)


def _is_sequence(value: Any) -> bool:
    # (strings are sequences of strings: "a"[0] is "a", forever)
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _pairs(actual: Any, expected: Any, id: tuple[Any, ...], options: dict[str, Any]) -> list:
    """The pairs of leaves of two (maybe nested) inputs; ``_Failure`` if their structure differs."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                id,
            )
        pairs = []
        for index in range(len(actual)):
            pairs += _pairs(actual[index], expected[index], (*id, index), options)
        return pairs
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise _Failure(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(expected_keys - actual_keys)}\n"
                f"Additional keys in the actual mapping: {sorted(actual_keys - expected_keys)}",
                id,
            )
        keys: Any = actual_keys
        with contextlib.suppress(Exception):  # (sorted when the keys sort: a stable order)
            keys = sorted(keys)
        pairs = []
        for key in keys:
            pairs += _pairs(actual[key], expected[key], (*id, key), options)
        return pairs
    for pair_type in _PAIR_TYPES:
        try:
            return [pair_type(actual, expected, id, **options)]
        except _Unsupported:
            continue
        except _Failure:
            raise
        except Exception as error:
            raise RuntimeError(
                f"Originating a {pair_type.__name__}() at item {item_path(id)} with\n\n"
                f"{type(actual).__name__}(): {actual}\n\n"
                f"and\n\n"
                f"{type(expected).__name__}(): {expected}\n\n" + UNEXPECTED
            ) from error
    raise _Failure(
        TypeError,
        "No comparison pair was able to handle inputs of type "
        f"{type_text(actual)} and {type_text(expected)}.",
        id,
    )


def _failures(actual: Any, expected: Any, options: dict[str, Any]) -> list[_Failure]:
    """Every pair's verdict (PyTorch compares them all, then reports the first)."""
    try:
        pairs = _pairs(actual, expected, (), options)
    except _Failure as failure:
        raise failure.to_error() from None  # (a structural error ignores ``msg``)
    failures = []
    for pair in pairs:
        try:
            pair.compare()
        except _Failure as failure:
            failures.append(failure)
        except Exception as error:
            raise RuntimeError(f"Comparing\n\n{pair}\n\n" + UNEXPECTED) from error
    return failures


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Asserts that ``actual`` and ``expected`` are close, as ``torch.testing.assert_close``.

    Close means ``|actual - expected| <= atol + rtol * |expected|`` elementwise, with the same
    shape (and device, dtype, layout, and stride if asked). Without tolerances, each dtype's
    defaults apply (float16: rtol 1e-3, atol 1e-5; float32: 1.3e-6, 1e-5; float64: 1e-7, 1e-7;
    integers and bool: exact); give both or neither. Inputs may be tensors, numpy arrays, Python
    numbers (a tensor never matches a number), None, and sequences or mappings of them, matched
    by index or key. NaNs are equal only with ``equal_nan=True``. ``msg`` replaces the message,
    or, as a callable, receives the generated one and returns the new one.

    Raises:
        AssertionError: if the inputs are not close (PyTorch's message, which says where).
        TypeError: if inputs cannot be compared (unrelated types, a tensor and a number).
        ValueError: if only one of ``rtol`` and ``atol`` is given.

    Example:
        >>> import minigrad
        >>> expected = minigrad.tensor([1.0, 2.0, 3.0])
        >>> minigrad.testing.assert_close(expected + 1e-7, expected)
        >>> minigrad.testing.assert_close(minigrad.tensor([1.0, 2.5, 3.0]), expected)
        Traceback (most recent call last):
        ...
        AssertionError: Tensor-likes are not close!
        <BLANKLINE>
        Mismatched elements: 1 / 3 (33.3%)
        Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
        Greatest relative difference: 0.25 at index (1,) (up to 1.3e-06 allowed)
    """
    __tracebackhide__ = True  # (pytest: show the caller's line, not this function's)
    options = {
        "allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol,
        "equal_nan": equal_nan, "check_device": check_device, "check_dtype": check_dtype,
        "check_layout": check_layout, "check_stride": check_stride,
    }  # fmt: skip
    failures = _failures(actual, expected, options)
    if failures:
        raise failures[0].to_error(msg)


# PyTorch's deprecation text for assert_allclose (its link leads to the upgrade notes).
_ALLCLOSE_DEPRECATED = (
    "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future "
    "release. Please use `torch.testing.assert_close()` instead. You can find detailed upgrade "
    "instructions in https://github.com/pytorch/pytorch/issues/61844."
).replace("torch.", "minigrad.")


def assert_allclose(
    actual: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = True,
    msg: str = "",
) -> None:
    """Deprecated (as in PyTorch, with a FutureWarning): use ``assert_close`` instead.

    The old rules: non-tensors become tensors (``expected`` of ``actual``'s dtype), dtypes need
    not match, NaNs are equal by default, and the default tolerances are looser (float16: rtol
    1e-3, atol 1e-3; float32: 1e-4, 1e-5; float64: 1e-5, 1e-8).
    """
    warnings.warn(_ALLCLOSE_DEPRECATED, FutureWarning, stacklevel=2)
    if not isinstance(actual, minigrad.Tensor):
        actual = minigrad.tensor(actual)
    if not isinstance(expected, minigrad.Tensor):
        expected = minigrad.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = default_tolerances(
            actual.dtype,
            expected.dtype,
            precisions={
                minigrad.float16: (1e-3, 1e-3),
                minigrad.float32: (1e-4, 1e-5),
                minigrad.float64: (1e-5, 1e-8),
            },
        )
    assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
        check_dtype=False, check_stride=False, msg=msg or None,
    )  # fmt: skip
