"""``minigrad.signal.windows``: PyTorch's ``torch.signal.windows``, SciPy-style windows.

Unlike the top-level ``hann_window`` ..., these are composites of public ops, as PyTorch's
are (they are written in Python there): a window of ``M`` points sampled from ``linspace``
and shaped by ``exp``, ``cos``, ``i0`` ...; with ``requires_grad=True`` the result is the
output of that graph (``ExpBackward0``, ``SumBackward1`` ...), as in PyTorch. ``sym=True``
gives the symmetric window of filter design, ``sym=False`` the periodic one of spectral
analysis (the symmetric window of ``M + 1`` points without its last).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from minigrad import _dtype
from minigrad._layouts import strided
from minigrad.creation import arange, empty, linspace, ones, tensor
from minigrad.ops.arithmetic import minimum
from minigrad.ops.special_functions import i0
from minigrad.ops.trigonometric import cos, sin
from minigrad.ops.unary import exp, sqrt
from minigrad.tensor import Tensor

__all__ = [
    "bartlett",
    "blackman",
    "cosine",
    "exponential",
    "gaussian",
    "general_cosine",
    "general_hamming",
    "hamming",
    "hann",
    "kaiser",
    "nuttall",
]


def _checked_dtype(name: str, M: int, dtype: Any, layout: Any) -> Any:
    """``dtype`` (None: the default float dtype) after the checks every window makes."""
    if dtype is None:
        dtype = _dtype.get_default_dtype()
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_dtype.float32, _dtype.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _trivial(M: int, dtype: Any, device: Any, requires_grad: bool) -> Tensor:
    """The window of 0 or 1 point: empty, or ``[1.]``."""
    make = empty if M == 0 else ones
    return make((M,), dtype=dtype, device=device, requires_grad=requires_grad)


def _points(start: Any, end: Any, M: int, dtype: Any, device: Any, requires_grad: bool) -> Any:
    return linspace(start, end, M, dtype=dtype, device=device, requires_grad=requires_grad)


def exponential(
    M: int,
    *,
    center: float | None = None,
    tau: float = 1.0,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``.

    ``center`` defaults to the middle, ``(M - 1) / 2`` (``M / 2`` when ``sym=False``); it may
    be given for a periodic window only.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.exponential(3)
        tensor([0.3679, 1.0000, 0.3679])
    """
    dtype = _checked_dtype("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = _points(-center * constant, (-center + (M - 1)) * constant, M, dtype, device,
                requires_grad)  # fmt: skip
    return exp(-k.abs())


def cosine(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The cosine (sine) window ``sin(pi (n + 0.5) / M)``, SciPy's.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.cosine(3)
        tensor([0.5000, 1.0000, 0.5000])
    """
    dtype = _checked_dtype("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _points(0.5 * constant, (0.5 + (M - 1)) * constant, M, dtype, device, requires_grad)
    return sin(k)


def gaussian(
    M: int,
    *,
    std: float = 1.0,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Gaussian window ``exp(-(n / (2 std))^2)``, ``n`` counted from the middle.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.gaussian(3)
        tensor([0.6065, 1.0000, 0.6065])
    """
    dtype = _checked_dtype("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = _points(start * constant, (start + (M - 1)) * constant, M, dtype, device, requires_grad)
    return exp(-(k**2))


def kaiser(
    M: int,
    *,
    beta: float = 12.0,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (n / (N/2))^2)) / I0(beta)``, ``n`` from the middle.

    ``N`` is ``M - 1`` (``M`` when ``sym=False``); ``I0`` is ``minigrad.i0``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.kaiser(3, beta=2.0)
        tensor([0.4387, 1.0000, 0.4387])
    """
    dtype = _checked_dtype("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    # beta as a tensor of the window's dtype: the end point then cannot pass it (no NaN).
    beta_ = tensor(beta, dtype=dtype, device=device)
    constant = 2.0 * beta_ / (M if not sym else M - 1)
    end = minimum(beta_, -beta_ + (M - 1) * constant)
    k = _points(-beta_, end, M, dtype, device, requires_grad)
    return i0(sqrt(beta_ * beta_ - k**2)) / i0(beta_)


def general_cosine(
    M: int,
    *,
    a: Iterable[float],
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The general cosine window ``sum_i (-1)^i a[i] cos(2 pi i n / N)``.

    ``N`` is ``M - 1`` (``M`` when ``sym=False``).

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.general_cosine(3, a=[0.5, 0.5])
        tensor([0., 1., 0.])
    """
    dtype = _checked_dtype("general_cosine", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * math.pi / (M if not sym else M - 1)
    k = _points(0, (M - 1) * constant, M, dtype, device, requires_grad)
    signed = tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, device=device,
                    requires_grad=requires_grad)  # fmt: skip
    i = arange(signed.shape[0], dtype=dtype, device=device, requires_grad=requires_grad)
    return (signed.unsqueeze(-1) * cos(i.unsqueeze(-1) * k)).sum(0)


def _cosine_sum(M: int, a: Sequence[float], sym: bool, dtype: Any, layout: Any, device: Any,
                requires_grad: bool) -> Tensor:  # fmt: skip
    return general_cosine(M, a=a, sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)  # fmt: skip


def general_hamming(
    M: int,
    *,
    alpha: float = 0.54,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The generalized Hamming window ``alpha - (1 - alpha) cos(2 pi n / N)``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.general_hamming(3, alpha=0.6)
        tensor([0.2000, 1.0000, 0.2000])
    """
    return _cosine_sum(M, [alpha, 1.0 - alpha], sym, dtype, layout, device, requires_grad)


def hamming(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Hamming window, ``general_hamming`` with ``alpha = 0.54``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.hamming(3)
        tensor([0.0800, 1.0000, 0.0800])
    """
    return _cosine_sum(M, [0.54, 1.0 - 0.54], sym, dtype, layout, device, requires_grad)


def hann(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Hann window, ``general_hamming`` with ``alpha = 0.5``: ``sin(pi n / N)^2``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.hann(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _cosine_sum(M, [0.5, 0.5], sym, dtype, layout, device, requires_grad)


def blackman(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Blackman window, ``general_cosine`` with ``a = [0.42, 0.5, 0.08]``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.blackman(3)
        tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    dtype = _checked_dtype("blackman", M, dtype, layout)
    return _cosine_sum(M, [0.42, 0.5, 0.08], sym, dtype, layout, device, requires_grad)


def nuttall(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The minimum 4-term Blackman-Harris window of Nuttall (``general_cosine``'s form).

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.nuttall(3)
        tensor([3.6280e-04, 1.0000e+00, 3.6280e-04])
    """
    a = [0.3635819, 0.4891775, 0.1365995, 0.0106411]
    return _cosine_sum(M, a, sym, dtype, layout, device, requires_grad)


def bartlett(
    M: int,
    *,
    sym: bool = True,
    dtype: _dtype.dtype | None = None,
    layout: Any = strided,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Bartlett (triangular) window ``1 - |2 n / N - 1|``.

    Example:
        >>> import minigrad
        >>> minigrad.signal.windows.bartlett(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype = _checked_dtype("bartlett", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    constant = 2 / (M if not sym else M - 1)
    k = _points(-1, -1 + (M - 1) * constant, M, dtype, device, requires_grad)
    return 1 - k.abs()
