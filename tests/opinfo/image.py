"""Op-table rows of the image-shaped functions of ``nn.functional``: ``pad``'s reflect,
replicate and circular modes.

Rows call ``lib.nn.functional.<name>``; samples are small (gradcheck runs finite differences
over every element) and cover 1-, 2- and 3-d padding, unbatched inputs, negative pads (crops)
and transposed (non-contiguous) inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


def _pad(mode: str) -> Any:
    return lambda lib, x, pad, **kw: lib.nn.functional.pad(x, pad, mode=mode, **kw)


def pad_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3, 4), (2, 1)), name="1d"),
        Sample((real(rng, 3, 4), (1, 3)), name="1d_unbatched"),
        Sample((real(rng, 1, 2, 3, 4), (1, 2, 2, 0)), name="2d"),
        Sample((real(rng, 2, 3, 4), (-1, 2, 1, -1)), name="2d_crop"),
        Sample((real(rng, 1, 2, 3, 3, 2), (1, 1, 0, 2, 1, 0)), name="3d"),
        Sample((real(rng, 3, 4), (1, 2)), name="transposed", transposed=True),
    ]


def _bad(mode: str) -> tuple[BadInput, ...]:
    common = (
        BadInput((np.ones((2, 4)), (1, 1, 1)), name="odd"),
        BadInput((np.ones((2, 4)), (1, 1, 1, 1)), name="length_for_dims"),
        BadInput((np.ones(4), (1, 1)), name="1d_input"),
        BadInput((np.ones((2, 4)), (1, 1, 1, 1, 1, 1)), name="too_long"),
        BadInput((np.ones((2, 4)), (1, 1)), {"value": 1.0}, name="value"),
    )
    # Each mode has its own limits: replicate takes pads larger than the dim (it repeats the
    # edge), circular crops a 1-d input to nothing.
    limits = {
        "reflect": (
            (np.ones((2, 4)), (4, 0)),
            (np.ones((1, 4)), (-2, -2)),
            (np.ones((2, 0)), (1, 1)),
        ),
        "replicate": ((np.ones((1, 4)), (-3, -2)), (np.ones((3, 0, 4)), (1, 1))),
        "circular": ((np.ones((2, 4)), (5, 0)), (np.ones((1, 4)), (-3, -2))),
    }[mode]
    return common + tuple(BadInput(args, name=f"limit_{i}") for i, args in enumerate(limits))


OPS = [
    OpInfo("pad_reflect", _pad("reflect"), pad_samples, bad_inputs=_bad("reflect"), op="F.pad"),
    OpInfo(
        "pad_replicate", _pad("replicate"), pad_samples, bad_inputs=_bad("replicate"), op="F.pad"
    ),
    OpInfo("pad_circular", _pad("circular"), pad_samples, bad_inputs=_bad("circular"), op="F.pad"),
]
