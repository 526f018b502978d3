"""Gamma and Dirichlet draws whose gradients reach the concentrations (implicit reparameterisation).

A gamma draw ``x ~ Gamma(alpha, 1)`` is not a smooth function of ``alpha`` and a noise of fixed
law, but it is one of its CDF level ``u = P(alpha, x)``, which is uniform: holding ``u`` fixed,

    dx/dalpha = -(dP(alpha, x)/dalpha) / p(x; alpha),

with ``P`` the regularized lower incomplete gamma function and ``p`` the density (PyTorch's
``_standard_gamma_grad``). A Dirichlet coordinate ``x_i`` is Beta(alpha_i, total - alpha_i)
distributed, and ``_dirichlet_grad`` is the same quotient for the regularized incomplete beta
function. PyTorch evaluates both with fitted approximations; here they are series, summed in
float64 until their terms no longer count:

    P(a, x) = sum_n x**(a+n) e**-x / Gamma(a+n+1)
    I_x(a, b) = x**a (1-x)**b / (a B(a, b)) * sum_n (a+b)_n / (a+1)_n x**n

(for ``x`` above the mean the beta series is summed for ``I_{1-x}(b, a) = 1 - I_x(a, b)``,
where it converges fast). Each term's derivative in ``a`` is the term times the derivative of
its logarithm, and dividing by the density first cancels the gamma functions.

The draws come from minigrad's generator (numpy's gamma sampler): seeded runs repeat; the
numbers are not PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _random
from minigrad._layout import contiguous_result
from minigrad.autograd.function import Op
from minigrad.ops import _special_kernels as kernels
from minigrad.ops._helpers import constant_tensor, is_tensor, raw

__all__ = [
    "Dirichlet",
    "StandardGamma",
    "dirichlet_grad",
    "sample_dirichlet",
    "standard_gamma",
    "standard_gamma_grad",
]

_MAX_TERMS = 100_000  # (a series needs about x + 40 sqrt(x) terms; this is a safety stop)


def _series(ratio: Any, slope: np.ndarray, slope_step: Any) -> np.ndarray:
    """``sum_n r_n c_n``, summed until the terms stop counting.

    ``r_0 = 1``, ``r_n = r_(n-1) ratio(n)``; ``c_0 = slope``, ``c_n = c_(n-1) + slope_step(n)``.
    """
    r = np.ones_like(slope)
    total = slope.copy()
    size = np.abs(slope)
    for n in range(1, _MAX_TERMS):
        factor = ratio(n)
        r = r * factor
        slope = slope + slope_step(n)
        term = r * slope
        total += term
        size += np.abs(term)
        # done once the terms shrink (factor < 1) and are below round-off of what was summed
        if np.all((factor < 1) & (np.abs(term) <= 1e-17 * size)):
            break
    return total


def standard_gamma_grad(alpha: Any, x: Any) -> np.ndarray:
    """``dx/dalpha`` of a ``Gamma(alpha, 1)`` draw ``x`` at a fixed CDF level (float64).

    ``-(x / a) sum_n s_n (log x - digamma(a + n + 1))`` with ``s_0 = 1``,
    ``s_n = s_(n-1) x / (a + n)``: the series of ``P(a, x)`` differentiated in ``a``, divided
    by the density.

    Example:
        >>> import numpy as np
        >>> from minigrad.ops.gamma_sampling import standard_gamma_grad
        >>> float(standard_gamma_grad(np.array(1.0), np.array(1.0)).round(4))
        1.1736
    """
    a, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(x, np.float64))
    x = np.maximum(x, np.finfo(np.float64).tiny)  # (a draw of 0 is a rounded tiny one)
    log_x = np.log(x)
    total = _series(lambda n: x / (a + n), log_x - kernels.digamma(a + 1), lambda n: -1 / (a + n))
    return -(x / a) * total


def beta_grad(x: Any, a: Any, b: Any) -> np.ndarray:
    """``dx/da`` of a ``Beta(a, b)`` draw ``x`` at a fixed CDF level, ``b`` held (float64)."""
    x, a, b = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (x, a, b)))
    tiny = np.finfo(np.float64).tiny
    x = np.clip(x, tiny, 1 - np.finfo(np.float64).epsneg)
    y = 1 - x
    common = kernels.digamma(a + b) - kernels.digamma(a) + np.log(x)
    lower = x <= (a + 1) / (a + b + 2)
    result = np.empty_like(x)
    if lower.any():  # I_x(a, b) by its own series
        xl, al, bl = x[lower], a[lower], b[lower]
        total = _series(
            lambda n: xl * (al + bl + n - 1) / (al + n),
            common[lower] - 1 / al,
            lambda n: 1 / (al + bl + n - 1) - 1 / (al + n),
        )
        result[lower] = -xl * y[lower] / al * total
    upper = ~lower
    if upper.any():  # 1 - I_(1-x)(b, a): the series in 1 - x
        yu, au, bu = y[upper], a[upper], b[upper]
        total = _series(
            lambda n: yu * (au + bu + n - 1) / (bu + n),
            common[upper],
            lambda n: 1 / (au + bu + n - 1),
        )
        result[upper] = x[upper] * yu / bu * total
    return result


def dirichlet_grad(x: Any, alpha: Any, total: Any) -> np.ndarray:
    """PyTorch's ``_dirichlet_grad``: ``dx/dalpha / (1 - x)``, ``x ~ Beta(alpha, total - alpha)``.

    Raising ``alpha_i`` moves ``x_i`` by ``dx``; the other coordinates share the rest, each
    scaled by ``(1 - x_i - dx) / (1 - x_i)``: the ``1 / (1 - x)`` is that rescaling's.
    """
    x = np.asarray(x, np.float64)
    return beta_grad(x, alpha, np.asarray(total, np.float64) - alpha) / (1 - x)


def _as_gradient_factor(factor: np.ndarray, like: Any) -> Any:
    """The factor in the gradient's dtype (a constant tensor under ``create_graph``)."""
    factor = factor.astype(raw(like).dtype, copy=False)
    return constant_tensor(factor) if is_tensor(like) else factor


class StandardGamma(Op):
    """x ~ Gamma(alpha, 1) elementwise;  dalpha = grad * standard_gamma_grad(alpha, x).

    Saves alpha and its result (PyTorch's ``_saved_self``, ``_saved_result``). The factor is
    not differentiable again (PyTorch's ``_standard_gamma_grad`` has no derivative either).
    """

    result_layout = staticmethod(contiguous_result)

    @staticmethod
    def forward(ctx: Any, alpha: np.ndarray, generator: Any) -> np.ndarray:
        draws = _random.generator(generator).standard_gamma(alpha)
        x = np.maximum(draws, np.finfo(alpha.dtype).tiny).astype(alpha.dtype)
        ctx.save_for_backward(alpha, x)
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        alpha, x = ctx.saved_tensors
        return grad * _as_gradient_factor(standard_gamma_grad(raw(alpha), raw(x)), grad), None


def standard_gamma(alpha: Any, generator: _random.Generator | None = None) -> Any:
    """Draws of ``Gamma(alpha, 1)`` (PyTorch's ``_standard_gamma``), differentiable in alpha.

    Example:
        >>> import minigrad
        >>> from minigrad.ops.gamma_sampling import standard_gamma
        >>> standard_gamma(minigrad.ones(3)).shape
        minigrad.Size([3])
    """
    return StandardGamma.apply(alpha, generator)


class Dirichlet(Op):
    """x ~ Dirichlet(alpha) over the last dim;  dalpha = D * (grad - sum(x * grad)).

    The draw normalises gammas; ``D = dirichlet_grad(x, alpha, sum(alpha))``.
    PyTorch's ``_Dirichlet`` autograd function (its node ``_DirichletBackward``); saves the
    sample and the concentration. Not differentiable again (``once_differentiable``).
    """

    node_name = "_DirichletBackward"
    result_layout = staticmethod(contiguous_result)

    @staticmethod
    def forward(ctx: Any, alpha: np.ndarray, generator: Any) -> np.ndarray:
        gammas = _random.generator(generator).standard_gamma(alpha)
        gammas = np.maximum(gammas, np.finfo(alpha.dtype).tiny)
        x = (gammas / gammas.sum(-1, keepdims=True)).astype(alpha.dtype)
        ctx.save_for_backward(alpha, x)
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        alpha, x = (raw(v) for v in ctx.saved_tensors)
        total = np.broadcast_to(alpha.sum(-1, keepdims=True), alpha.shape)
        factor = dirichlet_grad(x, alpha, total)
        g = raw(grad)
        result = factor * (g - (x * g).sum(-1, keepdims=True))
        return _as_gradient_factor(result, grad), None


def sample_dirichlet(alpha: Any, generator: _random.Generator | None = None) -> Any:
    """A Dirichlet draw per row of ``alpha``'s last dim, differentiable in alpha.

    Example:
        >>> import minigrad
        >>> from minigrad.ops.gamma_sampling import sample_dirichlet
        >>> sample_dirichlet(minigrad.ones(2, 4)).shape
        minigrad.Size([2, 4])
    """
    return Dirichlet.apply(alpha, generator)
