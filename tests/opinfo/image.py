"""Op-table rows of the image-shaped functions of ``nn.functional``: ``pad``'s reflect,
replicate and circular modes, ``interpolate``, ``unfold``/``fold``, ``channel_shuffle``,
``max_unpool1d/2d``, ``affine_grid``, ``grid_sample``.

Rows call ``lib.nn.functional.<name>``; samples are small (gradcheck runs finite differences
over every element) and cover 1-, 2- and 3-d padding, unbatched inputs, negative pads (crops)
and transposed (non-contiguous) inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, quietly


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


def unit(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Normalized positions inside (-0.9, 0.9)."""
    return np.asarray(rng.uniform(-0.9, 0.9, size=shape))


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


def _interpolate(mode: str) -> Any:
    return lambda lib, x, **kw: lib.nn.functional.interpolate(x, mode=mode, **kw)


# No sample keeps a size with a scale factor other than 1 (1.1 on 4 pixels): there PyTorch's
# nearest and bicubic backward kernels pass the gradient straight through, which is not the
# derivative of their forward (tests_torch/test_image_layers_torch.py compares that case).
def nearest_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 2, 3),), {"size": 5}, name="1d_size"),
        Sample((real(rng, 1, 2, 3, 4),), {"scale_factor": 1.7}, name="2d_scale"),
        Sample((real(rng, 1, 2, 4, 3),), {"scale_factor": (2.0, 0.6)}, name="2d_down"),
        Sample((real(rng, 1, 1, 2, 3, 2),), {"size": (3, 2, 4)}, name="3d"),
        Sample((real(rng, 1, 2, 3, 4),), {"size": (5, 3)}, name="transposed", transposed=True),
    ]


def linear_samples(dims: int) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        shape = {1: (2, 2, 4), 2: (1, 2, 3, 4), 3: (1, 1, 2, 3, 2)}[dims]
        size = {1: 7, 2: (5, 3), 3: (3, 4, 3)}[dims]
        return [
            Sample((real(rng, *shape),), {"size": size}, name="size"),
            Sample((real(rng, *shape),), {"size": size, "align_corners": True}, name="corners"),
            Sample((real(rng, *shape),), {"scale_factor": 1.6}, name="scale"),
            Sample(
                (real(rng, *shape),),
                {"scale_factor": 0.7, "recompute_scale_factor": True},
                name="recomputed",
            ),
            Sample((real(rng, *shape),), {"size": size}, name="transposed", transposed=True),
        ]

    return samples


def area_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 2, 5),), {"size": 3}, name="1d"),
        Sample((real(rng, 1, 2, 5, 4),), {"scale_factor": 0.6}, name="2d"),
    ]


INTERPOLATE_BAD = (
    BadInput((np.ones((1, 1, 4, 4)),), {"size": 3, "scale_factor": 2.0}, name="both"),
    BadInput((np.ones((1, 1, 4, 4)),), name="neither"),
    BadInput((np.ones((1, 1, 4, 4)),), {"size": (3,)}, name="size_length"),
    BadInput((np.ones((1, 1, 4, 4)),), {"size": (3.0, 3)}, name="size_type"),
    BadInput((np.ones((1, 1, 4, 4)),), {"scale_factor": (2.0,)}, name="scale_length"),
    BadInput(
        (np.ones((1, 1, 4, 4)),),
        {"size": 3, "recompute_scale_factor": True},
        name="recompute_with_size",
    ),
    BadInput((np.ones((1, 1, 4, 4)),), {"size": 3, "align_corners": True}, name="corners"),
    BadInput((np.ones((1, 1, 4, 4)),), {"size": 0}, name="size_0"),
    BadInput((np.ones((1, 0, 4, 4)),), {"size": 3}, name="no_channels"),
    BadInput((np.ones((4, 4)),), {"size": 3}, name="2d_input"),
)


def unfold_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 2, 3, 4), 2), name="batched"),
        Sample(
            (real(rng, 2, 4, 5), (2, 3)),
            {"dilation": (1, 2), "padding": 1, "stride": 2},
            name="unbatched_options",
        ),
        Sample(
            (real(rng, 1, 2, 4, 3), (3, 2)), {"stride": (1, 2)}, name="transposed", transposed=True
        ),
    ]


def fold_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 8, 6), (3, 4), 2), name="batched"),
        Sample(
            (real(rng, 12, 6), (4, 5), (2, 3)),
            {"dilation": (1, 2), "padding": 1, "stride": 2},
            name="unbatched_options",
        ),
        Sample((real(rng, 1, 4, 4), (3, 3), 2), name="transposed", transposed=True),
    ]


def _window_positions(
    rng: np.random.Generator, lead: tuple, out: int, kernel: int, stride: int, width: int = 1
) -> np.ndarray:
    """One position per window along a dim (as max pooling's indices), times ``width``."""
    return (np.arange(out) * stride + rng.integers(0, kernel, (*lead, out))) * width


def unpool2d_samples(rng: np.random.Generator) -> list[Sample]:
    """Indices inside each window, as a max pooling's (flat positions row * W + column)."""

    def pooled(lead: tuple, size: int, kernel: int, stride: int) -> tuple:
        out = (size - kernel) // stride + 1
        rows = _window_positions(rng, lead, out, kernel, stride, size)[..., :, None]
        cols = _window_positions(rng, (*lead, out), out, kernel, stride)
        return real(rng, *lead, out, out), rows + cols

    values, indices = pooled((2, 2), 4, 2, 2)
    values3, indices3 = pooled((2,), 5, 3, 2)
    return [
        Sample((values, indices, 2), name="batched"),
        Sample((values3, indices3, 3), {"stride": 2}, name="unbatched_stride"),
        Sample((values3, indices3, 3), {"stride": 2, "output_size": (6, 6)}, name="output_size"),
    ]


def unpool1d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3, 3), _window_positions(rng, (2, 3), 3, 2, 2), 2), name="batched"),
        Sample(
            (real(rng, 2, 4), _window_positions(rng, (2,), 4, 3, 2), 3),
            {"stride": 2},
            name="unbatched_stride",
        ),
    ]


def unpool3d_samples(rng: np.random.Generator) -> list[Sample]:
    """Indices inside each 2x2x2 window of a 4x4x4 volume (flat positions (d * H + h) * W + w)."""
    lead = (1, 2)
    depth = _window_positions(rng, lead, 2, 2, 2, 16)[..., :, None, None]
    rows = _window_positions(rng, (*lead, 2), 2, 2, 2, 4)[..., None]
    cols = _window_positions(rng, (*lead, 2, 2), 2, 2, 2)
    indices = depth + rows + cols
    return [
        Sample((real(rng, *lead, 2, 2, 2), indices, 2), name="batched"),
        Sample(
            (real(rng, 2, 2, 2, 2), indices[0], 2),
            {"output_size": (5, 4, 5)},
            name="unbatched_output_size",
        ),
    ]


UNPOOL3D_BAD = (
    BadInput((np.ones((1, 1, 1, 2, 2)), np.array([[[[[0, 1], [2, 99]]]]]), 2), name="index"),
    BadInput((np.ones((1, 1, 1, 2, 2)), np.array([[[[0, 1], [2, 3]]]]), 2), name="shape"),
    BadInput(
        (np.ones((1, 1, 1, 2, 2)), np.array([[[[[0, 1], [2, 3]]]]], dtype=np.int32), 2),
        name="int32_indices",
    ),
    BadInput((np.ones((2, 2, 2)), np.zeros((2, 2, 2), dtype=np.int64), 2), name="3d"),
    BadInput(
        (np.ones((1, 1, 1, 2, 2)), np.array([[[[[0, 1], [2, 3]]]]]), 2),
        {"output_size": (9, 9, 9)},
        name="output_size",
    ),
)


UNPOOL_BAD = (
    BadInput((np.ones((1, 1, 2, 2)), np.array([[[[0, 1], [2, 30]]]]), 2), name="index"),
    BadInput((np.ones((1, 1, 2, 2)), np.array([[[0, 1], [2, 3]]]), 2), name="shape"),
    BadInput(
        (np.ones((1, 1, 2, 2)), np.array([[[[0, 1], [2, 3]]]]), 2),
        {"output_size": (9, 9)},
        name="output_size",
    ),
    BadInput((np.ones((2, 2)), np.array([[0, 1], [2, 3]]), 2), name="2d"),
)


OPS = [
    OpInfo("pad_reflect", _pad("reflect"), pad_samples, bad_inputs=_bad("reflect"), op="F.pad"),
    OpInfo(
        "pad_replicate", _pad("replicate"), pad_samples, bad_inputs=_bad("replicate"), op="F.pad"
    ),
    OpInfo("pad_circular", _pad("circular"), pad_samples, bad_inputs=_bad("circular"), op="F.pad"),
    OpInfo(
        "interpolate_nearest",
        _interpolate("nearest"),
        nearest_samples,
        bad_inputs=INTERPOLATE_BAD,
        op="F.interpolate",
    ),
    OpInfo(
        "interpolate_nearest_exact",
        _interpolate("nearest-exact"),
        nearest_samples,
        op="F.interpolate",
    ),
    OpInfo(
        "interpolate_linear",
        _interpolate("linear"),
        linear_samples(1),
        bad_inputs=(
            BadInput((np.ones((1, 1, 4, 4)),), {"size": 3}, name="4d"),
            BadInput((np.ones((1, 1, 4)),), {"size": 3, "antialias": True}, name="antialias"),
        ),
        op="F.interpolate",
    ),
    OpInfo(
        "interpolate_bilinear",
        _interpolate("bilinear"),
        linear_samples(2),
        bad_inputs=(BadInput((np.ones((1, 1, 4)),), {"size": 3}, name="3d"),),
        op="F.interpolate",
    ),
    OpInfo(
        "interpolate_bicubic",
        _interpolate("bicubic"),
        linear_samples(2),
        atol=1e-4,
        op="F.interpolate",
    ),
    OpInfo(
        "interpolate_trilinear", _interpolate("trilinear"), linear_samples(3), op="F.interpolate"
    ),
    OpInfo("interpolate_area", _interpolate("area"), area_samples, op="F.interpolate"),
    # The deprecated spellings (their warning is tested in tests_torch).
    OpInfo(
        "F.upsample",
        quietly(lambda lib, x, **kw: lib.nn.functional.upsample(x, mode="bilinear", **kw)),
        lambda rng: [Sample((real(rng, 1, 2, 3, 4),), {"size": (5, 3)}, name="bilinear")],
    ),
    OpInfo(
        "F.upsample_nearest",
        quietly(lambda lib, x, **kw: lib.nn.functional.upsample_nearest(x, **kw)),
        lambda rng: [Sample((real(rng, 1, 2, 3, 4),), {"scale_factor": 1.7}, name="2d")],
    ),
    OpInfo(
        "F.upsample_bilinear",
        quietly(lambda lib, x, **kw: lib.nn.functional.upsample_bilinear(x, **kw)),
        lambda rng: [Sample((real(rng, 1, 2, 3, 4),), {"size": (5, 3)}, name="2d")],
    ),
    OpInfo(
        "F.unfold",
        lambda lib, x, k, **kw: lib.nn.functional.unfold(x, k, **kw),
        unfold_samples,
        bad_inputs=(
            BadInput((np.ones((1, 2, 5, 6)), 7), name="too_large"),
            BadInput((np.ones((1, 2, 5, 6)), 0), name="kernel_0"),
            BadInput((np.ones((1, 2, 5, 6)), 2), {"padding": -1}, name="padding"),
            BadInput((np.ones((1, 2, 5, 6)), (2, 2, 2)), name="kernel_length"),
            BadInput((np.ones((1, 0, 5, 6)), 2), name="empty"),
            BadInput((np.ones((5, 6)), 2), name="2d"),
        ),
    ),
    OpInfo(
        "F.fold",
        lambda lib, x, size, k, **kw: lib.nn.functional.fold(x, size, k, **kw),
        fold_samples,
        bad_inputs=(
            BadInput((np.ones((1, 12, 12)), (5, 6), 3), name="channels"),
            BadInput((np.ones((1, 12, 11)), (5, 6), 2), name="blocks"),
            BadInput((np.ones((12, 12, 1, 1)), (5, 6), 2), name="4d"),
            BadInput((np.ones((1, 12, 20)), (5, 6), 2), {"stride": 0}, name="stride_0"),
            BadInput((np.ones((1, 12, 20)), (5, 6, 7), 2), name="size_length"),
        ),
    ),
    OpInfo(
        "F.channel_shuffle",
        lambda lib, x, groups: lib.nn.functional.channel_shuffle(x, groups),
        lambda rng: [
            Sample((real(rng, 2, 6, 3, 2), 3), name="4d"),
            Sample((real(rng, 1, 4, 3), 2), name="3d"),
            Sample((real(rng, 2, 4, 3, 2), 2), name="transposed", transposed=True),
        ],
        bad_inputs=(
            BadInput((np.ones((2, 6, 3)), 4), name="not_divisible"),
            BadInput((np.ones((2, 6, 3)), 0), name="groups_0"),
            BadInput((np.ones((2, 6)), 2), name="2d"),
        ),
    ),
    OpInfo(
        "channel_shuffle",
        lambda lib, x, groups: lib.channel_shuffle(x, groups),
        lambda rng: [Sample((real(rng, 2, 6, 3, 2), 3), name="4d")],
    ),
    # No derivative in PyTorch (its node is NotImplemented): forward and errors only.
    OpInfo(
        "native_channel_shuffle",
        lambda lib, x, groups: lib.native_channel_shuffle(x, groups),
        lambda rng: [Sample((real(rng, 2, 6, 3, 2), 3), name="4d")],
        differentiable=False,
        bad_inputs=(BadInput((np.ones(6), 2), name="1d"),),
    ),
    OpInfo(
        "F.native_channel_shuffle",
        lambda lib, x, groups: lib.nn.functional.native_channel_shuffle(x, groups),
        lambda rng: [Sample((real(rng, 1, 4, 3), 2), name="3d")],
        differentiable=False,
    ),
    # The indices (position 1) never require grad.
    OpInfo(
        "F.max_unpool2d",
        lambda lib, x, idx, k, **kw: lib.nn.functional.max_unpool2d(x, idx, k, **kw),
        unpool2d_samples,
        grad_args=(0,),
        bad_inputs=UNPOOL_BAD,
    ),
    OpInfo(
        "F.max_unpool3d",
        lambda lib, x, idx, k, **kw: lib.nn.functional.max_unpool3d(x, idx, k, **kw),
        unpool3d_samples,
        grad_args=(0,),
        bad_inputs=UNPOOL3D_BAD,
    ),
    OpInfo(
        "F.max_unpool1d",
        lambda lib, x, idx, k, **kw: lib.nn.functional.max_unpool1d(x, idx, k, **kw),
        unpool1d_samples,
        grad_args=(0,),
    ),
    OpInfo(
        "F.affine_grid",
        lambda lib, theta, size, **kw: lib.nn.functional.affine_grid(theta, size, **kw),
        lambda rng: [
            Sample((real(rng, 2, 2, 3), (2, 3, 4, 5)), {"align_corners": False}, name="2d"),
            Sample((real(rng, 1, 2, 3), (1, 1, 3, 2)), {"align_corners": True}, name="corners"),
            Sample((real(rng, 1, 3, 4), (1, 2, 2, 3, 2)), {"align_corners": False}, name="3d"),
            Sample(
                (real(rng, 2, 2, 3), (2, 1, 3, 3)),
                {"align_corners": False},
                name="transposed",
                transposed=True,
            ),
        ],
        bad_inputs=(
            BadInput((np.ones((2, 2, 3)), (2, 3, 4)), {"align_corners": False}, name="size"),
            BadInput(
                (np.ones((2, 2, 3)), (2, 3, 4, 5, 6)), {"align_corners": False}, name="theta_3d"
            ),
            BadInput((np.ones((2, 2, 3)), (2, 3, 0, 5)), {"align_corners": False}, name="empty"),
            BadInput((np.ones((2, 2, 3)), (1, 3, 4, 5)), {"align_corners": False}, name="batch"),
        ),
    ),
    # gradgrad off: minigrad does not differentiate grid_sample's backward (PyTorch does).
    # The grid stays inside (-0.9, 0.9) scaled: finite differences must not cross a pixel
    # boundary or the border, where the bilinear weights have kinks.
    OpInfo(
        "F.grid_sample",
        lambda lib, x, grid, **kw: lib.nn.functional.grid_sample(x, grid, **kw),
        lambda rng: [
            Sample(
                (real(rng, 1, 2, 3, 4), unit(rng, 1, 2, 3, 2)),
                {"align_corners": False},
                name="zeros",
            ),
            Sample(
                (real(rng, 2, 1, 3, 3), 1.4 * unit(rng, 2, 2, 2, 2)),
                {"padding_mode": "border", "align_corners": True},
                name="border",
            ),
            Sample(
                (real(rng, 1, 2, 4, 3), 1.6 * unit(rng, 1, 3, 2, 2)),
                {"padding_mode": "reflection", "align_corners": False},
                name="reflection",
            ),
            Sample(
                (real(rng, 1, 2, 3, 4), unit(rng, 1, 3, 2, 2)),
                {"mode": "nearest", "align_corners": False},
                name="edge_nearest",
            ),
            Sample(
                (real(rng, 1, 2, 3, 3), unit(rng, 1, 2, 3, 2)),
                {"align_corners": True},
                name="transposed",
                transposed=True,
            ),
            Sample(
                (real(rng, 1, 1, 3, 4), 1.3 * unit(rng, 1, 2, 2, 2)),
                {"mode": "bicubic", "align_corners": False},
                name="bicubic",
            ),
            Sample(
                (real(rng, 1, 1, 3, 3), 1.5 * unit(rng, 1, 1, 2, 2)),
                {"mode": "bicubic", "padding_mode": "reflection", "align_corners": True},
                name="bicubic_reflection",
            ),
            Sample(
                (real(rng, 1, 2, 2, 3, 3), 1.3 * unit(rng, 1, 1, 2, 2, 3)),
                {"padding_mode": "border", "align_corners": False},
                name="3d",
            ),
            Sample(
                (real(rng, 1, 1, 2, 2, 3), unit(rng, 1, 2, 1, 2, 3)),
                {"mode": "nearest", "align_corners": True},
                name="edge_3d_nearest",
            ),
        ],
        gradgrad=False,
        bad_inputs=(
            BadInput(
                (np.ones((2, 1, 3, 3)), np.zeros((1, 2, 2, 2))),
                {"align_corners": False},
                name="batch",
            ),
            BadInput(
                (np.ones((1, 1, 3, 3)), np.zeros((1, 2, 2, 3))),
                {"align_corners": False},
                name="last_dim",
            ),
            BadInput(
                (np.ones((1, 1, 0, 3)), np.zeros((1, 2, 2, 2))),
                {"align_corners": False},
                name="empty",
            ),
            BadInput(
                (np.ones((1, 1, 3, 3)), np.zeros((1, 2, 2, 2))),
                {"mode": "area", "align_corners": False},
                name="mode",
            ),
            BadInput(
                (np.ones((1, 1, 2, 3, 3)), np.zeros((1, 2, 2, 2, 3))),
                {"mode": "bicubic", "align_corners": False},
                name="bicubic_3d",
            ),
            BadInput(
                (np.ones((1, 1, 2, 3, 3)), np.zeros((1, 2, 2, 3))),
                {"align_corners": False},
                name="dims_3d",
            ),
            BadInput(
                (np.ones((1, 1, 3)), np.zeros((1, 2, 1))),
                {"align_corners": False},
                name="dims_1d",
            ),
        ),
    ),
]
