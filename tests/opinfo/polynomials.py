"""Op-table rows of ``minigrad.special``'s polynomials and Bessel functions.

The polynomials: ops/orthogonal_polynomials.py; the Bessel functions: ops/bessel.py.

PyTorch gives them no derivative. The samples hold the special points (the ends of the
interval, 0 for the shifted polynomials), degrees below and above the kernels' switch to the
trigonometric forms, negative and tensor degrees.
"""

from __future__ import annotations

import numpy as np

from opinfo import OpInfo, Sample

NAMES = [
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
]


def points(rng: np.random.Generator) -> list[Sample]:
    x = np.concatenate([rng.uniform(-1.5, 1.5, size=8), [-1.0, 1.0, 0.0, 0.5]])
    return [
        Sample((x, 3), name="degree3"),
        Sample((x, 12), name="degree12"),
        Sample((x, -1), name="negative"),
        Sample((x.reshape(3, 4), np.array([0, 1, 7, 10])), name="tensor_degrees"),
        Sample((x.reshape(3, 4), 5), name="transposed", transposed=True),
    ]


OPS: list[OpInfo] = [
    OpInfo(
        f"special.{name}",
        lambda lib, x, n, name=name: getattr(lib.special, name)(x, n),
        points,
        differentiable=False,
    )
    for name in NAMES
]

BESSEL_NAMES = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "spherical_bessel_j0",
]


def bessel_points(rng: np.random.Generator) -> list[Sample]:
    """Both sides of the expansions' switches (2, 5 and 8), 0, negatives (nan for K and Y)."""
    x = np.array(
        [0.0, 0.25, 1.9, 2.0, 2.1, 4.9, 5.0, 5.1, 7.9, 8.0, 8.1, 30.0, -1.5, -9.0, -2.1, -2.0]
    )
    return [
        Sample((x,), name="switches"),
        Sample((rng.uniform(0.0, 12.0, size=(3, 4)),), name="transposed", transposed=True),
        Sample((np.asarray(1.25),), name="0d"),
    ]


OPS += [
    OpInfo(
        f"special.{name}",
        lambda lib, x, name=name: getattr(lib.special, name)(x),
        bessel_points,
        differentiable=False,
    )
    for name in BESSEL_NAMES
]
