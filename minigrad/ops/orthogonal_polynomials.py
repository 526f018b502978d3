"""``minigrad.special``'s orthogonal polynomials of degree ``n``.

Chebyshev's of the four kinds (T, U, V, W) and shifted to [0, 1], Hermite's (physicists' H,
probabilists' He), Laguerre's L and Legendre's P.

Each is evaluated as PyTorch's kernel evaluates it: special values first (n < 0 gives 0, the
ends of the interval their closed forms), then, for high degrees inside the interval, the
trigonometric form (``cos(n acos x)`` ...), else the three-term recurrence. ``n`` may be a
tensor (broadcast with ``input``); a float degree is truncated to an integer. PyTorch gives
these no derivative: the result never requires grad.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _arguments, _dtype, errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import constant_tensor

Kernel = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _recurrence(
    x: np.ndarray, n: np.ndarray, first: np.ndarray, step: Callable[..., Any], start: int = 1
) -> np.ndarray:
    """p_n by ``p_{k+1} = step(k, p_k, p_{k-1})`` from p_0 = 1, p_1 = ``first``.

    Each element stops at its own degree: ``step`` runs for k = start .. n - 1 (the kernels'
    loops), on every element still short of its degree.
    """
    previous, current = np.ones_like(x), first.copy()
    top = int(n.max(initial=1))
    for k in range(start, top + start - 1):
        running = k < n + start - 1
        if not running.any():
            break
        following = step(k, current, previous)
        previous = np.where(running, current, previous)
        current = np.where(running, following, current)
    return current


def _evaluate(
    x: np.ndarray,
    n: np.ndarray,
    special: list[tuple[np.ndarray, Any]],
    general: Callable[[], np.ndarray],
) -> np.ndarray:
    """``general()`` where no special case applies, else the first special case's value."""
    result = general()
    for mask, value in reversed(special):
        result = np.where(mask, value, result)
    return result


def _chebyshev(kind: str, shifted: bool) -> Kernel:
    """The kernel of the Chebyshev polynomial of ``kind`` (t, u, v, w), maybe shifted."""

    def kernel(x: np.ndarray, n: np.ndarray) -> np.ndarray:
        y = x + x - 1 if shifted else x
        one = x.dtype.type(1)
        odd = n % 2 == 1
        plus = (x == 1) if shifted else (np.abs(x) == 1) & (x > 0)
        minus = (x == 0) if shifted else (np.abs(x) == 1) & ~(x > 0)
        threshold = {
            "t": 6,
            "u": 6 if shifted else 8,
            "v": 6 if shifted else 8,
            "w": 4 if shifted else 8,
        }[kind]
        inside = (n > threshold) & (np.abs(y) < 1)
        theta = np.arccos(np.where(inside, y, 0))
        m = n.astype(x.dtype)
        if kind == "t":
            ends = [(plus, one), (minus, np.where(odd, -one, one))]
            trigonometric = np.cos(m * theta)
            first = y
        elif kind == "u":
            ends = [(plus, m + 1), (minus, np.where(odd, -(m + 1), m + 1))]
            sine = np.sin(theta)
            trigonometric = np.where(
                sine != 0, np.sin((m + 1) * theta) / sine, (m + 1) * np.cos((m + 1) * theta) / y
            )
            first = y + y
        elif kind == "v":
            ends = [(plus, one), (minus, np.where(odd, -(m + m + 1), m + m + 1))]
            trigonometric = np.where(
                np.sin(theta / 2) != 1,
                np.cos((m + 0.5) * theta) / np.cos(theta / 2),
                np.where(odd, -(m + m + 1), m + m + 1),
            )
            first = y + y - 1
        else:
            ends = [(plus, m + m + 1), (minus, np.where(odd, -one, one))]
            trigonometric = np.where(
                np.cos(theta / 2) != 1,
                np.sin((m + 0.5) * theta) / np.sin(theta / 2),
                np.where(y > 0, m + m + 1, np.where(odd, -one, one)),
            )
            first = y + y + 1
        special = [(n < 0, 0), *ends, (inside, trigonometric), (n == 0, one)]

        def general() -> np.ndarray:
            return _recurrence(y, n, first, lambda k, q, p: (y + y) * q - p, start=1)

        return _evaluate(x, n, special, general)

    return kernel


def _hermite_h(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    return _evaluate(
        x,
        n,
        [(n < 0, 0), (n == 0, 1)],
        lambda: _recurrence(x, n, x + x, lambda k, q, p: (x + x) * q - (2 * k) * p),
    )


def _hermite_he(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    return _evaluate(
        x, n, [(n < 0, 0), (n == 0, 1)], lambda: _recurrence(x, n, x, lambda k, q, p: x * q - k * p)
    )


def _laguerre_l(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    one = x.dtype.type(1)
    return _evaluate(
        x,
        n,
        [(n < 0, 0), (x == 0, 1), (n == 0, 1)],
        lambda: _recurrence(
            x, n, one - x, lambda k, q, p: (((k + k) + (one - x)) * q - k * p) / (k + 1)
        ),
    )


def _legendre_p(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    odd = n % 2 == 1
    one = x.dtype.type(1)
    ends = [(np.abs(x) == 1, np.where((x > 0) | ~odd, one, -one))]
    return _evaluate(
        x,
        n,
        [(n < 0, 0), *ends, (n == 0, 1)],
        lambda: _recurrence(x, n, x, lambda k, q, p: ((k + k + 1) * x * q - k * p) / (k + 1)),
    )


def _degree(n: np.ndarray) -> np.ndarray:
    """The degree as PyTorch's kernels take it: truncated to int64 (NaN: a negative degree)."""
    if n.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            return np.where(np.isfinite(n), np.trunc(np.nan_to_num(n)), -1).astype(np.int64)
    return n.astype(np.int64)


def _apply(name: str, kernel: Kernel, input: Any, n: Any) -> Any:
    """``kernel`` on ``input`` and the degrees ``n``, broadcast, in their promoted float dtype."""
    numbers = (bool, int, float, np.number)
    if not (
        all(isinstance(value, (TensorBase, *numbers)) for value in (input, n))
        and (isinstance(input, TensorBase) or isinstance(n, TensorBase))
    ):
        # (PyTorch's overloads: Tensor and Tensor, Number and Tensor, Tensor and Number)
        raise TypeError(_arguments.function_call_fits_none(f"special_{name}", (input, n), {}))
    x = input._array if isinstance(input, TensorBase) else input
    degree = n._array if isinstance(n, TensorBase) else n
    dtype = _dtype.result_type(x, degree)
    if dtype.kind != "f":
        dtype = _dtype.default_float()
    if dtype == np.float16:
        raise NotImplementedError(errors.not_implemented_for(f"{name}_cpu", "Half"))
    x_array, n_array = np.broadcast_arrays(np.asarray(x, dtype=dtype), _degree(np.asarray(degree)))
    with np.errstate(all="ignore"):
        return constant_tensor(np.asarray(kernel(x_array, n_array), dtype=dtype))


_CHEBYSHEV_POLYNOMIAL_T = _chebyshev("t", False)
_CHEBYSHEV_POLYNOMIAL_U = _chebyshev("u", False)
_CHEBYSHEV_POLYNOMIAL_V = _chebyshev("v", False)
_CHEBYSHEV_POLYNOMIAL_W = _chebyshev("w", False)
_SHIFTED_CHEBYSHEV_POLYNOMIAL_T = _chebyshev("t", True)
_SHIFTED_CHEBYSHEV_POLYNOMIAL_U = _chebyshev("u", True)
_SHIFTED_CHEBYSHEV_POLYNOMIAL_V = _chebyshev("v", True)
_SHIFTED_CHEBYSHEV_POLYNOMIAL_W = _chebyshev("w", True)


def chebyshev_polynomial_t(input: Any, n: Any) -> Any:
    """The Chebyshev polynomial of the first kind, T_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.chebyshev_polynomial_t(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-0.5000,  7.0000])
    """
    return _apply("chebyshev_polynomial_t", _CHEBYSHEV_POLYNOMIAL_T, input, n)


def chebyshev_polynomial_u(input: Any, n: Any) -> Any:
    """The Chebyshev polynomial of the second kind, U_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.chebyshev_polynomial_u(minigrad.tensor([0.5, 2.0]), 2)
        tensor([ 0., 15.])
    """
    return _apply("chebyshev_polynomial_u", _CHEBYSHEV_POLYNOMIAL_U, input, n)


def chebyshev_polynomial_v(input: Any, n: Any) -> Any:
    """The Chebyshev polynomial of the third kind, V_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.chebyshev_polynomial_v(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 11.])
    """
    return _apply("chebyshev_polynomial_v", _CHEBYSHEV_POLYNOMIAL_V, input, n)


def chebyshev_polynomial_w(input: Any, n: Any) -> Any:
    """The Chebyshev polynomial of the fourth kind, W_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.chebyshev_polynomial_w(minigrad.tensor([0.5, 2.0]), 2)
        tensor([ 1., 19.])
    """
    return _apply("chebyshev_polynomial_w", _CHEBYSHEV_POLYNOMIAL_W, input, n)


def shifted_chebyshev_polynomial_t(input: Any, n: Any) -> Any:
    """T_n(2 input - 1): the Chebyshev T shifted to [0, 1].

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.shifted_chebyshev_polynomial_t(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 17.])
    """
    return _apply("shifted_chebyshev_polynomial_t", _SHIFTED_CHEBYSHEV_POLYNOMIAL_T, input, n)


def shifted_chebyshev_polynomial_u(input: Any, n: Any) -> Any:
    """U_n(2 input - 1): the Chebyshev U shifted to [0, 1].

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.shifted_chebyshev_polynomial_u(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 35.])
    """
    return _apply("shifted_chebyshev_polynomial_u", _SHIFTED_CHEBYSHEV_POLYNOMIAL_U, input, n)


def shifted_chebyshev_polynomial_v(input: Any, n: Any) -> Any:
    """V_n(2 input - 1): the Chebyshev V shifted to [0, 1].

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.shifted_chebyshev_polynomial_v(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 29.])
    """
    return _apply("shifted_chebyshev_polynomial_v", _SHIFTED_CHEBYSHEV_POLYNOMIAL_V, input, n)


def shifted_chebyshev_polynomial_w(input: Any, n: Any) -> Any:
    """W_n(2 input - 1): the Chebyshev W shifted to [0, 1].

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.shifted_chebyshev_polynomial_w(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 41.])
    """
    return _apply("shifted_chebyshev_polynomial_w", _SHIFTED_CHEBYSHEV_POLYNOMIAL_W, input, n)


def hermite_polynomial_h(input: Any, n: Any) -> Any:
    """The physicists' Hermite polynomial H_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.hermite_polynomial_h(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-1., 14.])
    """
    return _apply("hermite_polynomial_h", _hermite_h, input, n)


def hermite_polynomial_he(input: Any, n: Any) -> Any:
    """The probabilists' Hermite polynomial He_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.hermite_polynomial_he(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-0.7500,  3.0000])
    """
    return _apply("hermite_polynomial_he", _hermite_he, input, n)


def laguerre_polynomial_l(input: Any, n: Any) -> Any:
    """The Laguerre polynomial L_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.laguerre_polynomial_l(minigrad.tensor([0.5, 2.0]), 2)
        tensor([ 0.1250, -1.0000])
    """
    return _apply("laguerre_polynomial_l", _laguerre_l, input, n)


def legendre_polynomial_p(input: Any, n: Any) -> Any:
    """The Legendre polynomial P_n(input).

    Of degree ``n`` (a number or a tensor). Not differentiable, as in PyTorch.

    Example:
        >>> import minigrad
        >>> minigrad.special.legendre_polynomial_p(minigrad.tensor([0.5, 2.0]), 2)
        tensor([-0.1250,  5.5000])
    """
    return _apply("legendre_polynomial_p", _legendre_p, input, n)


__all__ = [
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
]
