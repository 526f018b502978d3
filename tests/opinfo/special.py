"""Op-table rows of the special functions (ops/gamma.py, ops/special_functions.py).

Domains keep clear of the poles (lgamma, digamma and polygamma at 0, -1, -2, ...) where finite
differences cannot work; ``edge`` samples put the poles, infinities and the ends of the domains
(erfinv at +-1, ndtri at 0 and 1) to PyTorch's values without finite differences.
Value-by-value accuracy over wide grids is checked in tests_torch/test_special_torch.py.
"""

from __future__ import annotations

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first
from opinfo.elementwise import (
    POSITIVE,
    REAL,
    UNIT,
    away_from_integers,
    binary_samples,
    unary,
    unary_samples,
    uniform,
)

GAMMA = away_from_integers(-3.0, 4.0)  # (0.1 to 0.4 past an integer or a half-integer)
ABOVE_ONE = uniform(1.6, 4.0)  # mvlgamma of p = 3 needs x > 1
INF = np.inf


def _order_samples(rng: np.random.Generator) -> list[Sample]:
    """polygamma and mvlgamma with their order as an argument."""
    return [Sample((ABOVE_ONE(rng, (3, 2)), n), name=f"order{n}") for n in (1, 2, 4)]


OPS: list[OpInfo] = [
    # --- the gamma family ---------------------------------------------------------------------
    unary(
        "lgamma",
        lambda lib, x: lib.lgamma(x),
        GAMMA,
        edge=(0.0, -1.0, -2.5, INF, -INF, 1.0, 2.0, 1e-30),
    ),
    unary("digamma", lambda lib, x: lib.digamma(x), GAMMA, edge=(0.0, 1.0, INF, 1e-30, 1.4616)),
    unary("polygamma", lambda lib, x: lib.polygamma(2, x), GAMMA, edge=(0.0, 1.0, INF)),
    OpInfo(
        "polygamma_1", lambda lib, x: x.polygamma(1), first(unary_samples(GAMMA), 2), op="polygamma"
    ),
    OpInfo(
        "polygamma_0",
        lambda lib, x: lib.polygamma(0, x),
        first(unary_samples(POSITIVE), 2),
        op="polygamma",
    ),
    OpInfo(
        "polygamma_n",
        lambda lib, x, n: lib.polygamma(n, x),
        _order_samples,
        op="polygamma",
        bad_inputs=(BadInput((np.ones(3), -1), name="negative_n"),),
    ),
    unary("mvlgamma", lambda lib, x: lib.mvlgamma(x, 3), ABOVE_ONE, edge=(1.0, 0.5, INF)),
    OpInfo(
        "mvlgamma_method",
        lambda lib, x: x.mvlgamma(1),
        first(unary_samples(POSITIVE), 2),
        op="mvlgamma",
    ),
    OpInfo(
        "mvlgamma_p",
        lambda lib, x, p: lib.mvlgamma(x, p),
        _order_samples,
        op="mvlgamma",
        bad_inputs=(BadInput((np.ones(3), 0), name="p_below_one"),),
    ),
    OpInfo("lgamma_", lambda lib, x: x.clone().lgamma_(), first(unary_samples(GAMMA), 2)),
    OpInfo("digamma_", lambda lib, x: x.clone().digamma_(), first(unary_samples(GAMMA), 2)),
    OpInfo("polygamma_", lambda lib, x: x.clone().polygamma_(1), first(unary_samples(GAMMA), 2)),
    OpInfo("mvlgamma_", lambda lib, x: x.clone().mvlgamma_(2), first(unary_samples(ABOVE_ONE), 2)),
    # --- erfinv and the Bessel functions ------------------------------------------------------
    unary("erfinv", lambda lib, x: lib.erfinv(x), UNIT, edge=(1.0, -1.0, 0.0, 1.5, -0.0)),
    OpInfo("erfinv_", lambda lib, x: x.clone().erfinv_(), first(unary_samples(UNIT), 2)),
    unary("i0", lambda lib, x: lib.i0(x), uniform(-4.0, 4.0), edge=(0.0, 25.0, -30.0, INF)),
    OpInfo("i0_", lambda lib, x: x.clone().i0_(), first(unary_samples(), 2)),
    unary(
        "special.i0e",
        lambda lib, x: lib.special.i0e(x),
        uniform(-4.0, 4.0),
        edge=(0.0, 25.0, -30.0, INF),
    ),
    unary(
        "special.i1", lambda lib, x: lib.special.i1(x), uniform(-4.0, 4.0), edge=(0.0, 25.0, -30.0)
    ),
    unary(
        "special.i1e",
        lambda lib, x: lib.special.i1e(x),
        uniform(-4.0, 4.0),
        edge=(0.0, 25.0, -30.0, INF),
    ),
    # --- the normal distribution and erfcx ----------------------------------------------------
    unary("special.ndtr", lambda lib, x: lib.special.ndtr(x), REAL, edge=(0.0, -INF, 10.0)),
    unary(
        "special.ndtri",
        lambda lib, x: lib.special.ndtri(x),
        uniform(0.05, 0.95),
        edge=(0.0, 1.0, 0.5, 1.5),
    ),
    unary(
        "special.log_ndtr",
        lambda lib, x: lib.special.log_ndtr(x),
        uniform(-6.0, 3.0),
        edge=(-40.0, 10.0, 0.0),
    ),
    unary(
        "special.erfcx",
        lambda lib, x: lib.special.erfcx(x),
        uniform(-2.0, 4.0),
        edge=(0.0, 30.0, INF),
    ),
    unary("special.entr", lambda lib, x: lib.special.entr(x), POSITIVE, edge=(0.0, -1.0, 1.0, INF)),
    # --- two arguments ------------------------------------------------------------------------
    OpInfo(
        "special.xlog1py",
        lambda lib, x, y: lib.special.xlog1py(x, y),
        binary_samples(
            right=uniform(-0.5, 2.0),
            scalar=2.5,
            edge=((0.0, 0.0, 1.0, 2.0), (np.nan, -1.0, -1.0, 3.0)),
        ),
    ),
    OpInfo(
        "special.xlog1py_number_first",
        lambda lib, y: lib.special.xlog1py(2.5, y),
        unary_samples(POSITIVE),
        op="special.xlog1py",
    ),
    # (PyTorch has no derivative with respect to zeta's first argument: only q requires grad)
    OpInfo(
        "special.zeta",
        lambda lib, x, q: lib.special.zeta(x, q),
        binary_samples(left=uniform(1.5, 4.0), right=POSITIVE, scalar=None),
        grad_args=(1,),
    ),
    OpInfo(
        "special.zeta_number_first",
        lambda lib, q: lib.special.zeta(3.0, q),
        unary_samples(POSITIVE),
        op="special.zeta",
    ),
    # (igamma and igammac: PyTorch has a derivative with respect to ``other`` only)
    OpInfo(
        "igamma",
        lambda lib, a, x: lib.igamma(a, x),
        binary_samples(
            left=uniform(0.5, 4.0),
            right=POSITIVE,
            scalar=None,
            edge=((0.0, 1.0, 2.0, INF), (1.0, 0.0, INF, 1.0)),
        ),
        grad_args=(1,),
        bad_inputs=(BadInput((np.ones(3), 2.0), name="number"),),
    ),
    OpInfo(
        "igammac",
        lambda lib, a, x: a.igammac(x),
        binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None),
        grad_args=(1,),
    ),
    OpInfo(
        "igamma_method",
        lambda lib, a, x: a.igamma(x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 2),
        grad_args=(1,),
        op="igamma",
    ),
    OpInfo(
        "igammac_function",
        lambda lib, a, x: lib.igammac(a, x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 2),
        grad_args=(1,),
        op="igammac",
    ),
    OpInfo(
        "igamma_",
        lambda lib, a, x: a.clone().igamma_(x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 1),
        grad_args=(1,),
    ),
    OpInfo(
        "igammac_",
        lambda lib, a, x: a.clone().igammac_(x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 1),
        grad_args=(1,),
    ),
    OpInfo(
        "special.gammainc",
        lambda lib, a, x: lib.special.gammainc(a, x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 2),
        grad_args=(1,),
    ),
    OpInfo(
        "special.gammaincc",
        lambda lib, a, x: lib.special.gammaincc(a, x),
        first(binary_samples(left=uniform(0.5, 4.0), right=POSITIVE, scalar=None), 2),
        grad_args=(1,),
    ),
    # --- aliases --------------------------------------------------------------------------------
    OpInfo(
        "special.gammaln", lambda lib, x: lib.special.gammaln(x), first(unary_samples(GAMMA), 2)
    ),
    OpInfo("special.psi", lambda lib, x: lib.special.psi(x), first(unary_samples(GAMMA), 2)),
    OpInfo(
        "special.multigammaln",
        lambda lib, x: lib.special.multigammaln(x, 2),
        first(unary_samples(ABOVE_ONE), 2),
    ),
    OpInfo("special.expit", lambda lib, x: lib.special.expit(x), first(unary_samples(), 2)),
    *[
        OpInfo(
            f"special.{name}",
            (lambda n: lambda lib, x: getattr(lib.special, n)(x))(name),
            first(unary_samples(domain), 2),
        )
        for name, domain in (
            ("digamma", GAMMA),
            ("erf", REAL),
            ("erfc", REAL),
            ("erfinv", UNIT),
            ("exp2", REAL),
            ("expm1", REAL),
            ("i0", REAL),
            ("log1p", POSITIVE),
            ("logit", uniform(0.05, 0.95)),
            ("sinc", REAL),
            ("round", away_from_integers()),
        )
    ],
    OpInfo(
        "special.polygamma",
        lambda lib, x: lib.special.polygamma(3, x),
        first(unary_samples(POSITIVE), 2),
    ),
    OpInfo(
        "special.xlogy",
        lambda lib, x, y: lib.special.xlogy(x, y),
        first(binary_samples(right=POSITIVE), 3),
    ),
    OpInfo("special.softmax", lambda lib, x: lib.special.softmax(x, 0), first(unary_samples(), 3)),
    OpInfo(
        "special.log_softmax",
        lambda lib, x: lib.special.log_softmax(x, -1),
        first(unary_samples(), 3),
    ),
    OpInfo(
        "special.logsumexp", lambda lib, x: lib.special.logsumexp(x, 0), first(unary_samples(), 3)
    ),
]
