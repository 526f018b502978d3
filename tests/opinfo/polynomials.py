"""Op-table rows of ``minigrad.special``'s orthogonal polynomials (ops/orthogonal_polynomials.py).

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
