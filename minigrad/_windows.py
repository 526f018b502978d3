"""The window factories: PyTorch's ``hann_window``, ``hamming_window``, ``blackman_window`` ...

``bartlett_window`` and ``kaiser_window`` too (PyTorch's ``torch.*_window``).

Each is computed as ATen computes it, one operation at a time in the window's dtype (float16
through float32, PyTorch's "opmath", rounded after every step), so the values agree with
PyTorch's to the last place or so, float16's lopsided roundings included. With
``periodic=True`` a window of ``N`` is the symmetric window of ``N + 1`` without its last
point, the form spectral analysis (``stft``) wants.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _dtype, errors
from minigrad._device import check_factory_device
from minigrad._layouts import strided
from minigrad.ops import _special_kernels as kernels
from minigrad.tensor import Tensor


def _options_text(numpy_dtype: np.dtype, dtype_given: bool, layout: Any) -> str:
    """PyTorch's printing of the factory's TensorOptions, for its error messages."""
    layout_text = "Strided (default)" if layout is None else "Strided"
    if layout is not None and layout is not strided:
        layout_text = "Sparse"
    return (
        f"TensorOptions(dtype={errors.CPP_TYPE_NAMES[numpy_dtype.name]}"
        f"{'' if dtype_given else ' (default)'}, device=cpu, "
        f"layout={layout_text}, requires_grad=false (default), pinned_memory=false, "
        "memory_format=(nullopt))"
    )


def _window_dtype(name: str, window_length: int, dtype: Any, layout: Any, device: Any) -> np.dtype:
    """The window's dtype, after PyTorch's checks (in PyTorch's order)."""
    check_factory_device(device, name)
    numpy_dtype = _dtype.default_float() if dtype is None else _dtype.to_numpy_dtype(dtype, name)
    # PyTorch's bindings fill in a missing dtype before the check, except hann_window's: only
    # its message says "(default)".
    dtype_given = dtype is not None or name != "hann_window"
    if layout is not None and layout is not strided:
        raise RuntimeError(
            f"{name} is not implemented for sparse types, got: "
            f"{_options_text(numpy_dtype, dtype_given, layout)}"
        )
    if numpy_dtype.kind != "f":
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: "
            f"{_options_text(numpy_dtype, dtype_given, layout)}"
        )
    if window_length < 0:
        raise RuntimeError(
            f"{name} requires non-negative window_length, got window_length={window_length}"
        )
    return numpy_dtype


def _window(
    name: str,
    window_length: int,
    periodic: bool,
    dtype: Any,
    layout: Any,
    device: Any,
    requires_grad: bool,
    symmetric: Callable[[np.ndarray, Callable[[Any], np.ndarray]], np.ndarray],
) -> Tensor:
    """A window of ``window_length`` points: ``symmetric(n, rounded)`` over ``n = 0 .. N-1``.

    ``rounded(value)`` rounds a step's value to the window's dtype and takes it back to the
    computing dtype (float32 for float16, as PyTorch's kernels compute).
    """
    numpy_dtype = _window_dtype(name, window_length, dtype, layout, device)
    if window_length <= 1:
        values = np.ones(window_length, dtype=numpy_dtype)
    else:
        computing = np.dtype(np.float32) if numpy_dtype == np.float16 else numpy_dtype

        def rounded(value: Any) -> np.ndarray:
            return np.asarray(value, dtype=computing).astype(numpy_dtype).astype(computing)

        length = window_length + 1 if periodic else window_length
        with np.errstate(all="ignore"):
            values = symmetric(np.arange(length, dtype=computing), rounded)
        values = values.astype(numpy_dtype)[:window_length]
    return Tensor._make(values, requires_grad=bool(requires_grad))


def _scalar(value: float, like: np.ndarray) -> np.ndarray:
    """A Python float as a scalar of ``like``'s dtype (PyTorch casts a wrapped number so)."""
    return np.asarray(value, dtype=like.dtype)


def hamming_window(
    window_length: int,
    periodic: bool = True,
    alpha: float = 0.54,
    beta: float = 0.46,
    *,
    dtype: _dtype.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Hamming window ``alpha - beta cos(2 pi n / (N - 1))``, ``n = 0 .. N - 1``.

    ``periodic=True`` (the default) computes ``N = window_length + 1`` points and drops the last.

    Example:
        >>> import minigrad
        >>> minigrad.hamming_window(4, periodic=False)
        tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """

    def symmetric(n: np.ndarray, rounded: Callable[[Any], np.ndarray]) -> np.ndarray:
        step = _scalar(math.pi * 2.0 / (len(n) - 1), n)
        cosine = rounded(np.cos(rounded(n * step)))
        return rounded(rounded(cosine * _scalar(-beta, n)) + _scalar(alpha, n))

    return _window("hamming_window", window_length, periodic, dtype, layout, device,
                   requires_grad, symmetric)  # fmt: skip


def hann_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: _dtype.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))`` (``hamming_window``'s form).

    Example:
        >>> import minigrad
        >>> minigrad.hann_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    _window_dtype("hann_window", window_length, dtype, layout, device)
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)  # fmt: skip


def blackman_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: _dtype.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    Example:
        >>> import minigrad
        >>> minigrad.blackman_window(5, periodic=False)
        tensor([-2.9802e-08,  3.4000e-01,  1.0000e+00,  3.4000e-01, -2.9802e-08])
    """

    def symmetric(n: np.ndarray, rounded: Callable[[Any], np.ndarray]) -> np.ndarray:
        angle = rounded(n * _scalar(math.pi / (len(n) - 1), n))
        fourth = rounded(rounded(np.cos(rounded(angle * _scalar(4.0, n)))) * _scalar(0.08, n))
        second = rounded(rounded(np.cos(rounded(angle * _scalar(2.0, n)))) * _scalar(0.5, n))
        return rounded(rounded(fourth - second) + _scalar(0.42, n))

    return _window("blackman_window", window_length, periodic, dtype, layout, device,
                   requires_grad, symmetric)  # fmt: skip


def bartlett_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: _dtype.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Bartlett (triangular) window ``1 - |2 n / (N - 1) - 1|``.

    Example:
        >>> import minigrad
        >>> minigrad.bartlett_window(5, periodic=False)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """

    def symmetric(n: np.ndarray, rounded: Callable[[Any], np.ndarray]) -> np.ndarray:
        rising = rounded(n * _scalar(2.0 / (len(n) - 1), n))
        first_half = ((len(n) - 1) >> 1) + 1  # the rising half, with the middle point
        rising[first_half:] = rounded(_scalar(2.0, n) - rising[first_half:])
        return rising

    return _window("bartlett_window", window_length, periodic, dtype, layout, device,
                   requires_grad, symmetric)  # fmt: skip


def kaiser_window(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype: _dtype.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - ((n - A) / A)^2)) / I0(beta)``, ``A = (N - 1) / 2``.

    ``I0`` is the modified Bessel function of order 0 (``minigrad.i0``).

    Example:
        >>> import minigrad
        >>> minigrad.kaiser_window(4, periodic=False, beta=2.0)
        tensor([0.4387, 0.9243, 0.9243, 0.4387])
    """

    def symmetric(n: np.ndarray, rounded: Callable[[Any], np.ndarray]) -> np.ndarray:
        # One fused kernel in PyTorch: computed in the computing dtype, rounded once.
        middle = _scalar((len(n) - 1) / 2.0, n)
        beta_ = _scalar(beta, n)
        ratio = (n - middle) / middle
        argument = beta_ * np.sqrt(np.abs(_scalar(1.0, n) - ratio * ratio))
        return (kernels.i0(argument) / kernels.i0(beta_)).astype(n.dtype)

    return _window("kaiser_window", window_length, periodic, dtype, layout, device,
                   requires_grad, symmetric)  # fmt: skip
