"""``minigrad.special``: PyTorch's ``torch.special``, the special functions.

Aliases of minigrad's own functions (``expit`` is ``sigmoid``, ``gammaln`` is ``lgamma``,
``psi`` is ``digamma``, ``multigammaln`` is ``mvlgamma`` ...) and the functions only this
module has: ``xlog1py``, ``entr``, ``erfcx``, ``ndtr``, ``ndtri``, ``log_ndtr``, ``i0e``,
``i1``, ``i1e`` and Hurwitz's ``zeta``. Their kernels are minigrad's own
(``ops/_special_kernels.py``): numpy only, accurate to a few units in the last place of a
float64 over the whole domain PyTorch computes. Without derivatives, as in PyTorch: the
Bessel functions and Airy's Ai (``ops/bessel.py``) and the orthogonal polynomials
(``ops/orthogonal_polynomials.py``), evaluated as PyTorch's kernels evaluate them.

Example:
    >>> import minigrad
    >>> minigrad.special.gammaln(minigrad.tensor([0.5, 3.0]))
    tensor([0.5724, 0.6931])
"""

from typing import Any

from minigrad import _arguments, _out
from minigrad.ops._helpers import check_float_kernel
from minigrad.ops.bessel import (
    airy_ai,
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    modified_bessel_i0,
    modified_bessel_i1,
    modified_bessel_k0,
    modified_bessel_k1,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    spherical_bessel_j0,
)
from minigrad.ops.binary_extra import logit
from minigrad.ops.binary_extra import xlogy as xlogy
from minigrad.ops.gamma import digamma, polygamma
from minigrad.ops.gamma import igamma as gammainc
from minigrad.ops.gamma import igammac as gammaincc
from minigrad.ops.gamma import lgamma as gammaln
from minigrad.ops.gamma import mvlgamma as multigammaln
from minigrad.ops.orthogonal_polynomials import (
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    hermite_polynomial_h,
    hermite_polynomial_he,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
)
from minigrad.ops.reduction import logsumexp
from minigrad.ops.rounding import RoundDecimals
from minigrad.ops.softmax import log_softmax as _log_softmax
from minigrad.ops.softmax import softmax as _softmax
from minigrad.ops.special_functions import (
    entr,
    erfcx,
    erfinv,
    i0,
    i0e,
    i1,
    i1e,
    log_ndtr,
    ndtr,
    ndtri,
    xlog1py,
    zeta,
)
from minigrad.ops.unary import erf, exp2, expm1, log1p
from minigrad.ops.unary import sigmoid as expit
from minigrad.ops.unary_extra import erfc, sinc

psi = digamma  # (PyTorch's other name for it)


def round(input: Any, *, decimals: int = 0) -> Any:  # noqa: A001 - PyTorch's name
    """``input`` rounded to ``decimals`` decimal places, halves to even.

    PyTorch's ``round.decimals`` overload whatever ``decimals`` is: ``RoundBackward1``, and no
    kernel for integer tensors.

    Example:
        >>> import minigrad
        >>> minigrad.special.round(minigrad.tensor([0.5, 1.5, 2.25]))
        tensor([0., 2., 2.])
    """
    check_float_kernel("round_vml_cpu", input)
    return RoundDecimals.apply(input, decimals)


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """``exp(input) / sum(exp(input))`` along ``dim`` (``minigrad.softmax``).

    Example:
        >>> import minigrad
        >>> minigrad.special.softmax(minigrad.tensor([0.0, 0.0]), 0)
        tensor([0.5000, 0.5000])
    """
    return _softmax(input, dim, dtype)


def log_softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """``log(softmax(input))`` along ``dim`` (``minigrad.log_softmax``).

    Example:
        >>> import minigrad
        >>> minigrad.special.log_softmax(minigrad.tensor([0.0, 0.0]), 0)
        tensor([-0.6931, -0.6931])
    """
    return _log_softmax(input, dim, dtype)


__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]

# PyTorch's TypeError for an argument of the wrong type (minigrad/_arguments.py).
_arguments.check_functions(globals(), __all__, prefix="special_")
_out.install(globals(), "special.")  # the functions that take out= (minigrad/_out.py)
