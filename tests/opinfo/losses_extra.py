"""Op-table rows of the margin and likelihood losses (ops/losses_extra.py, PyTorch's composites).

Targets of ±1 are compared with 1 and -1 by hinge and cosine embedding losses (no derivative
there: only the inputs are differentiated); margin_ranking_loss multiplies by its target, so
the target is differentiated too, as in PyTorch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def _loss(name: str) -> Any:
    return lambda lib, *args, **kwargs: getattr(lib.nn.functional, name)(*args, **kwargs)


def _real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


def _signs(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.choice([-1.0, 1.0], size=shape)


def margin_ranking_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), _real(rng, 3, 4), _signs(rng, 3, 4)), {"margin": 0.3},
               name="2d"),
        Sample((_real(rng, 4), _real(rng, 4), _signs(rng, 4)), {"reduction": "none"},
               name="none"),
    ]


def hinge_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((_real(rng, 3, 4), _signs(rng, 3, 4)), {"margin": 0.5}, name="2d",
                   transposed=True),
            Sample((_real(rng, 4), _signs(rng, 4)), {"reduction": "sum"}, name="sum")]


def cosine_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 5), _real(rng, 3, 5), _signs(rng, 3)), {"margin": 0.2},
               name="2d"),
        Sample((_real(rng, 5), _real(rng, 5), np.array(-1.0)), {"reduction": "sum"},
               name="1d"),
    ]


def triplet_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), _real(rng, 3, 4), _real(rng, 3, 4)), {"margin": 2.0},
               name="2d"),
        Sample((_real(rng, 3, 4), _real(rng, 3, 4), _real(rng, 3, 4)),
               {"swap": True, "p": 1.0, "margin": 2.0, "reduction": "none"}, name="swap_p1"),
    ]


def poisson_samples(rng: np.random.Generator) -> list[Sample]:
    counts = np.asarray(rng.uniform(0.1, 3.0, size=(3, 4)))
    return [
        Sample((_real(rng, 3, 4), counts), name="log_input"),
        Sample((np.asarray(rng.uniform(0.5, 2.0, size=(3, 4))), counts),
               {"log_input": False, "full": True, "reduction": "sum"}, name="rate_full"),
    ]


OPS: list[OpInfo] = [
    OpInfo("F.margin_ranking_loss", _loss("margin_ranking_loss"), margin_ranking_samples,
           bad_inputs=(BadInput((np.ones(3), np.ones((1, 3)), np.ones(3)), name="dims"),)),
    OpInfo("F.hinge_embedding_loss", _loss("hinge_embedding_loss"), hinge_samples,
           grad_args=(0,)),
    OpInfo("F.cosine_embedding_loss", _loss("cosine_embedding_loss"), cosine_samples,
           grad_args=(0, 1),
           bad_inputs=(BadInput((np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 1))),
                                name="target_rank"),
                       BadInput((np.ones(3), np.ones(3), np.ones(2)), name="input_rank"))),
    OpInfo("F.triplet_margin_loss", _loss("triplet_margin_loss"), triplet_samples,
           bad_inputs=(BadInput((np.ones((2, 3)),) * 3, {"margin": 0.0}, name="margin"),
                       BadInput((np.ones((2, 3)), np.ones(3), np.ones((2, 3))), name="dims"))),
    OpInfo("F.poisson_nll_loss", _loss("poisson_nll_loss"), poisson_samples,
           bad_inputs=(BadInput((np.ones(3), np.ones(3)), {"reduction": "avg"},
                                name="reduction"),)),
]
