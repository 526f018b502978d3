"""Op-table rows of the dropout variants, instance and local response norm and the losses
added with them (ops/dropout.py, ops/normalization_composites.py, ops/margin_losses.py,
ops/losses_extra.py).

Random dropout cannot be compared with PyTorch (the generators differ): the dropout rows use
the deterministic p = 1; tests/test_nn_misc.py checks the masks' structure and statistics.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def _functional(name: str) -> Any:
    return lambda lib, *args, **kwargs: getattr(lib.nn.functional, name)(*args, **kwargs)


def _real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


# --- dropout ----------------------------------------------------------------------------------


def _p1_samples(*shapes: tuple[int, ...]) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        rows = [Sample((_real(rng, *shape), 1.0), name=f"{len(shape)}d") for shape in shapes]
        rows.append(Sample((_real(rng, *shapes[0]), 1.0), name="transposed", transposed=True))
        return rows

    return samples


def _dropout_bad(shape: tuple[int, ...]) -> tuple[BadInput, ...]:
    return (
        BadInput((np.ones(shape),), {"p": 1.5}, name="p_too_large"),
        BadInput((np.ones(shape, dtype=np.int64),), {"p": 0.5, "training": True}, name="integers"),
        BadInput((np.ones(shape),), {"p": 0.5, "training": None}, name="training_none"),
    )


OPS: list[OpInfo] = [
    OpInfo(
        "F.dropout1d",
        _functional("dropout1d"),
        _p1_samples((2, 3, 4), (3, 4)),
        bad_inputs=(
            *_dropout_bad((2, 3, 4)),
            BadInput((np.ones(3),), name="rank1"),
            BadInput((np.ones((2, 3, 4, 5)),), name="rank4"),
        ),
    ),
    OpInfo(
        "F.dropout2d",
        _functional("dropout2d"),
        _p1_samples((2, 3, 2, 2)),
        bad_inputs=_dropout_bad((2, 3, 2, 2)),
    ),
    OpInfo(
        "F.dropout3d",
        _functional("dropout3d"),
        _p1_samples((2, 3, 2, 1, 2), (3, 2, 1, 2)),
        bad_inputs=_dropout_bad((2, 3, 2, 1, 2)),
    ),
    OpInfo(
        "F.alpha_dropout",
        _functional("alpha_dropout"),
        lambda rng: [
            Sample((_real(rng, 3, 4), 1.0, True), name="p1"),
            Sample((_real(rng, 3, 4), 1.0, True), name="transposed", transposed=True),
        ],
        bad_inputs=_dropout_bad((3, 4)),
    ),
    OpInfo(
        "F.feature_alpha_dropout",
        _functional("feature_alpha_dropout"),
        lambda rng: [Sample((_real(rng, 2, 3, 4), 1.0, True), name="p1")],
        bad_inputs=(*_dropout_bad((2, 3, 4)), BadInput((np.ones(3), 0.5, True), name="rank1")),
    ),
]


# --- instance norm and local response norm ----------------------------------------------------


def _positive(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(0.5, 1.5, size=shape))


def instance_norm_samples(rng: np.random.Generator) -> list[Sample]:
    """Channels of at least 4 values (fewer make the gradient rounding noise)."""
    return [
        Sample((_real(rng, 2, 3, 4), None, None, _positive(rng, 3), _real(rng, 3)), name="3d"),
        Sample((_real(rng, 2, 2, 2, 3),), {"eps": 0.1}, name="4d_no_affine"),
        Sample(
            (_real(rng, 2, 3, 4), np.zeros(3), np.ones(3), _positive(rng, 3)),
            {"momentum": 0.3},
            name="running_stats",
        ),
        Sample(
            (_real(rng, 2, 3, 4), _real(rng, 3), _positive(rng, 3)),
            {"use_input_stats": False},
            name="running_stats_used",
        ),
        Sample(
            (_real(rng, 4, 5)[None], None, None, _positive(rng, 4)),
            name="transposed",
            transposed=True,
        ),
    ]


INSTANCE_NORM_BAD = (
    BadInput((np.ones((2, 3, 1)),), name="one_spatial_element"),
    BadInput((np.ones((2, 3, 4)),), {"use_input_stats": False}, name="no_running_stats"),
    BadInput((np.ones((2, 3, 4)), np.zeros(3)), name="running_var_missing"),
    BadInput((np.ones((2, 3, 4)), None, None, np.ones(4)), name="weight_size"),
)


def local_response_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 2, 5, 3), 3), name="3d"),
        Sample((_real(rng, 2, 4, 2, 2), 2), {"alpha": 0.5, "beta": 0.6, "k": 1.5}, name="4d"),
        Sample((_real(rng, 1, 3, 2, 1, 2), 4), {"alpha": 0.3}, name="5d"),
        Sample((_real(rng, 4, 3, 2), 1), {"alpha": 0.5}, name="transposed", transposed=True),
    ]


OPS += [
    OpInfo(
        "F.instance_norm",
        _functional("instance_norm"),
        instance_norm_samples,
        grad_args=(0, 3, 4),
        bad_inputs=INSTANCE_NORM_BAD,
        atol=1e-4,
    ),
    OpInfo(
        "F.local_response_norm",
        _functional("local_response_norm"),
        local_response_norm_samples,
        bad_inputs=(BadInput((np.ones((2, 3)), 2), name="rank2"),),
    ),
]


# --- losses -----------------------------------------------------------------------------------


def _signs(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.choice([-1.0, 1.0], size=shape))


def _classes(rng: np.random.Generator, count: int, *shape: int) -> np.ndarray:
    return np.asarray(rng.integers(0, count, size=shape), dtype=np.int64)


def soft_margin_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), _signs(rng, 3, 4)), name="2d"),
        Sample((_real(rng, 3, 4), _signs(rng, 3, 4)), {"reduction": "none"}, name="none"),
        Sample((_real(rng, 5), _signs(rng, 5)), {"reduction": "sum"}, name="sum"),
        Sample((_real(rng, 3, 4), _signs(rng, 4)), name="broadcast_target"),
        Sample((_real(rng), _signs(rng)), name="0d"),
        Sample((_real(rng, 4, 3), _signs(rng, 4, 3)), name="transposed", transposed=True),
    ]


def multi_margin_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 5), _classes(rng, 5, 3)), name="2d"),
        Sample(
            (_real(rng, 3, 5), _classes(rng, 5, 3)),
            {"p": 2, "margin": 0.7, "weight": _positive(rng, 5), "reduction": "sum"},
            name="p2_weight",
        ),
        Sample((_real(rng, 4, 3), _classes(rng, 3, 4)), {"reduction": "none"}, name="none"),
        Sample((_real(rng, 4), np.asarray(2)), name="1d"),
        Sample((_real(rng, 4), np.asarray([1])), {"reduction": "none"}, name="1d_none"),
        Sample(
            (_real(rng, 4, 3), _classes(rng, 3, 4)),
            {"margin": 2.0},
            name="transposed",
            transposed=True,
        ),
    ]


MULTI_MARGIN_BAD = (
    BadInput((np.ones((3, 4)), np.asarray([0, 1, 4])), name="target_out_of_range"),
    BadInput((np.ones((3, 4)), np.asarray([0, 1])), name="target_size"),
    BadInput((np.ones((3, 4)), np.asarray([0.0, 1.0, 2.0])), name="float_target"),
    BadInput((np.ones((3, 4)), np.asarray([0, 1, 2])), {"weight": np.ones(3)}, name="weight_size"),
    BadInput((np.ones((3, 4)), np.asarray([0, 1, 2])), {"p": 3}, name="p3"),
    BadInput((np.ones((3, 0)), np.asarray([0, 1, 2])), name="no_classes"),
    BadInput((np.ones((3, 4), dtype=np.int64), np.asarray([0, 1, 2])), name="integer_input"),
)


def multilabel_margin_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (_real(rng, 3, 4), np.asarray([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])), name="2d"
        ),
        Sample(
            (_real(rng, 2, 5), np.asarray([[4, 4, 1, -1, 2], [0, 1, 2, 3, 4]])),
            {"reduction": "none"},
            name="repeated_and_all",
        ),
        Sample((_real(rng, 4), np.asarray([2, 0, -1, 3])), {"reduction": "sum"}, name="1d"),
        Sample(
            (_real(rng, 4, 3), np.asarray([[0, -1, 1], [2, 1, -1], [1, -1, -1], [0, 2, 1]])),
            name="transposed",
            transposed=True,
        ),
    ]


MULTILABEL_MARGIN_BAD = (
    BadInput((np.ones((3, 4)), np.zeros((2, 4), dtype=np.int64)), name="target_size"),
    BadInput((np.ones((3, 4)), np.full((3, 4), 4)), name="target_out_of_range"),
    BadInput((np.ones((3, 4)), np.zeros((3, 4))), name="float_target"),
    BadInput(
        (np.ones((3, 4)), np.zeros((3, 4), dtype=np.int64)), {"reduction": "bad"}, name="reduction"
    ),
)


def multilabel_soft_margin_samples(rng: np.random.Generator) -> list[Sample]:
    unit = np.asarray(rng.uniform(0, 1, size=(3, 4)))
    return [
        Sample((_real(rng, 3, 4), unit), name="2d"),
        Sample((_real(rng, 3, 4), unit, _positive(rng, 4)), {"reduction": "sum"}, name="weight"),
        Sample(
            (_real(rng, 2, 3, 4), np.asarray(rng.uniform(0, 1, size=(2, 3, 4)))),
            {"reduction": "none"},
            name="3d",
        ),
        Sample((_real(rng, 4, 3), unit.T.copy()), name="transposed", transposed=True),
    ]


def gaussian_nll_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), _real(rng, 3, 4), _positive(rng, 3, 4)), name="same_shape"),
        Sample(
            (_real(rng, 3, 4), _real(rng, 3, 4), _positive(rng, 3)),
            {"full": True},
            name="one_dim_fewer",
        ),
        Sample(
            (_real(rng, 3, 4), _real(rng, 3, 4), _positive(rng, 3, 1)),
            {"reduction": "sum"},
            name="shared",
        ),
        Sample((_real(rng, 2, 3), _real(rng, 2, 3), 0.7), {"reduction": "none"}, name="float"),
        # a variance below eps: clamped without recording (its gradient stops there)
        Sample(
            (_real(rng, 4), _real(rng, 4), np.asarray([0.5, 1.0, 1e-3, 2.0])),
            {"eps": 0.01},
            name="edge_clamped",
        ),
        Sample(
            (_real(rng, 4, 3), _real(rng, 4, 3), _positive(rng, 4, 3)),
            name="transposed",
            transposed=True,
        ),
    ]


GAUSSIAN_NLL_BAD = (
    BadInput((np.ones((3, 4)), np.ones((3, 4)), -np.ones((3, 4))), name="negative_var"),
    BadInput((np.ones((3, 4)), np.ones((3, 4)), -1.0), name="negative_float_var"),
    BadInput((np.ones((3, 4)), np.ones((3, 4)), np.ones((2, 4))), name="var_size"),
    BadInput((np.ones((3, 4)), np.ones((3, 4)), np.ones(4)), name="var_rank"),
    BadInput(
        (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4))), {"reduction": "bad"}, name="reduction"
    ),
)


def _l1_distance(x: Any, y: Any) -> Any:
    return (x - y).abs().sum(-1)


def triplet_with_distance_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (_real(rng, 3, 4), _real(rng, 3, 4), _real(rng, 3, 4)), {"margin": 2.0}, name="pairwise"
        ),
        Sample(
            (_real(rng, 3, 4), _real(rng, 3, 4), _real(rng, 3, 4)),
            {"distance_function": _l1_distance, "swap": True, "margin": 3.0, "reduction": "none"},
            name="l1_swap",
        ),
        Sample(
            (_real(rng, 4, 3), _real(rng, 4, 3), _real(rng, 4, 3)),
            {"margin": 2.0, "reduction": "sum"},
            name="transposed",
            transposed=True,
        ),
    ]


TRIPLET_WITH_DISTANCE_BAD = (
    BadInput((np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3))), {"margin": 0.0}, name="margin"),
    BadInput((np.ones((2, 3)), np.ones((2, 3)), np.ones(3)), name="dims"),
    BadInput(
        (np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3))), {"reduction": "bad"}, name="reduction"
    ),
)


OPS += [
    OpInfo(
        "F.soft_margin_loss",
        _functional("soft_margin_loss"),
        soft_margin_samples,
        grad_args=(0,),
        bad_inputs=(
            BadInput((np.ones((3, 4)), np.ones(5)), name="shapes"),
            BadInput((np.ones(3, dtype=np.int64), np.ones(3, dtype=np.int64)), name="integers"),
            BadInput((np.ones(3), np.ones(3)), {"reduction": "bad"}, name="reduction"),
        ),
    ),
    # PyTorch has no second derivative (its first gradient's node is NotImplemented)
    OpInfo(
        "F.multi_margin_loss",
        _functional("multi_margin_loss"),
        multi_margin_samples,
        grad_args=(0,),
        gradgrad=False,
        bad_inputs=MULTI_MARGIN_BAD,
    ),
    OpInfo(
        "F.multilabel_margin_loss",
        _functional("multilabel_margin_loss"),
        multilabel_margin_samples,
        grad_args=(0,),
        gradgrad=False,
        bad_inputs=MULTILABEL_MARGIN_BAD,
    ),
    OpInfo(
        "F.multilabel_soft_margin_loss",
        _functional("multilabel_soft_margin_loss"),
        multilabel_soft_margin_samples,
        bad_inputs=(
            BadInput((np.ones((2, 3)), np.ones((2, 3))), {"reduction": "bad"}, name="reduction"),
        ),
    ),
    OpInfo(
        "F.gaussian_nll_loss",
        _functional("gaussian_nll_loss"),
        gaussian_nll_samples,
        bad_inputs=GAUSSIAN_NLL_BAD,
    ),
    OpInfo(
        "F.triplet_margin_with_distance_loss",
        _functional("triplet_margin_with_distance_loss"),
        triplet_with_distance_samples,
        bad_inputs=TRIPLET_WITH_DISTANCE_BAD,
    ),
]


# --- lp pooling and pdist ---------------------------------------------------------------------


def lp_pool1d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 2, 3, 6), 2, 2), name="p2"),
        Sample((_positive(rng, 2, 3, 7), 1.5, 3), {"stride": 2, "ceil_mode": True}, name="p1.5"),
        Sample((_real(rng, 3, 5), float("inf"), 2), name="inf_unbatched"),
        Sample((_positive(rng, 2, 4, 6), 3, 2), {"stride": 1}, name="transposed", transposed=True),
    ]


def lp_pool2d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 2, 2, 4, 4), 2, 2), name="p2"),
        Sample((_positive(rng, 1, 2, 5, 4), 1.5, (2, 3)), {"stride": (1, 2)}, name="p1.5"),
        Sample((_real(rng, 2, 4, 4), float("inf"), 2), name="inf_unbatched"),
        Sample(
            (_positive(rng, 1, 2, 4, 5), 3, 2),
            {"ceil_mode": True},
            name="transposed",
            transposed=True,
        ),
    ]


def lp_pool3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 1, 2, 3, 4, 3), 2, 2), name="p2"),
        Sample((_positive(rng, 2, 3, 4, 3), 1.5, (2, 3, 1)), {"stride": (1, 1, 2)},
               name="p1.5_unbatched"),
        Sample((_real(rng, 1, 2, 3, 2, 3), float("inf"), 2), {"ceil_mode": True}, name="inf"),
    ]


def pdist_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 5, 3),), name="p2"),
        Sample((_real(rng, 4, 3), 1.0), name="p1"),
        Sample((_real(rng, 4, 3), 0.5), name="p0.5"),
        Sample((_real(rng, 4, 2), 1.5), name="p1.5"),
        Sample((_real(rng, 4, 3), 3.0), name="p3"),
        Sample((_real(rng, 4, 3), float("inf")), name="inf"),
        Sample((_real(rng, 4, 3), 0.0), name="p0"),
        Sample((_real(rng, 3, 4),), name="transposed", transposed=True),
    ]


OPS += [
    OpInfo("F.lp_pool1d", _functional("lp_pool1d"), lp_pool1d_samples),
    OpInfo("F.lp_pool2d", _functional("lp_pool2d"), lp_pool2d_samples),
    OpInfo("F.lp_pool3d", _functional("lp_pool3d"), lp_pool3d_samples),
    # PyTorch has no second derivative (its first gradient's node is NotImplemented)
    OpInfo(
        "F.pdist",
        _functional("pdist"),
        pdist_samples,
        gradgrad=False,
        bad_inputs=(
            BadInput((np.ones(3),), name="rank1"),
            BadInput((np.ones((2, 3)), -1.0), name="negative_p"),
            BadInput((np.ones((2, 3), dtype=np.int64),), name="integers"),
        ),
    ),
]


# --- gumbel softmax ---------------------------------------------------------------------------


def gumbel_softmax_samples(rng: np.random.Generator) -> list[Sample]:
    # tau so large that (logits + noise) / tau vanishes: the sample is exactly uniform in both
    # libraries whatever their noise (the random samples: tests/test_nn_misc.py)
    return [
        Sample((_real(rng, 3, 4),), {"tau": 1e30}, name="noise_vanishes"),
        Sample((_real(rng, 4, 3),), {"tau": 1e30, "dim": 0}, name="transposed", transposed=True),
    ]


OPS += [
    OpInfo("F.gumbel_softmax", _functional("gumbel_softmax"), gumbel_softmax_samples),
]


# --- embedding bag ----------------------------------------------------------------------------


def embedding_bag_samples(rng: np.random.Generator) -> list[Sample]:
    indices = np.asarray([1, 2, 4, 5, 4, 3, 2, 0])
    return [
        Sample(
            (indices, _real(rng, 6, 3), np.asarray([0, 4, 4])),
            {"mode": "sum"},
            name="sum_empty_bag",
        ),
        Sample((indices, _real(rng, 6, 3), np.asarray([0, 3])), name="mean"),
        Sample((indices, _real(rng, 6, 3), np.asarray([0, 2, 5])), {"mode": "max"}, name="max"),
        Sample((indices.reshape(2, 4), _real(rng, 6, 3)), {"padding_idx": 2}, name="2d_padding"),
        Sample(
            (indices.reshape(2, 4), _real(rng, 6, 3)),
            {"mode": "max", "padding_idx": -2},
            name="2d_max_padding",
        ),
        Sample(
            (
                indices,
                _real(rng, 6, 3),
                np.asarray([0, 4, 6, 8]),
                None,
                2,
                False,
                "sum",
                False,
                _positive(rng, 8),
                True,
            ),
            name="per_sample_weights_last_offset",
        ),
        Sample(
            (indices, _real(rng, 3, 6).T.copy(), np.asarray([0, 5])),
            name="transposed",
            transposed=True,
        ),
    ]


EMBEDDING_BAG_BAD = (
    BadInput((np.asarray([0, 1]), np.ones(3), np.asarray([0])), name="weight_rank"),
    BadInput((np.zeros((2, 2, 2), dtype=np.int64), np.ones((3, 2))), name="input_rank"),
    BadInput((np.asarray([0, 1]), np.ones((3, 2))), name="no_offsets"),
    BadInput((np.asarray([0, 1]), np.ones((3, 2)), np.asarray([1])), name="first_offset"),
    BadInput((np.asarray([0, 1]), np.ones((3, 2)), np.asarray([0, 3])), name="last_offset"),
    BadInput((np.asarray([0, 3]), np.ones((3, 2)), np.asarray([0])), name="index_range"),
    BadInput((np.asarray([0, 1]), np.ones((3, 2)), np.asarray([0])), {"mode": "min"}, name="mode"),
    BadInput(
        (np.asarray([0, 1]), np.ones((3, 2)), np.asarray([0])),
        {"padding_idx": 3},
        name="padding_idx",
    ),
    BadInput(
        (np.asarray([0, 1]), np.ones((3, 2)), np.asarray([0])),
        {"per_sample_weights": np.ones(2)},
        name="weights_with_mean",
    ),
    BadInput(
        (np.asarray([0, 1]), np.ones((3, 2)), np.asarray([0])),
        {"per_sample_weights": np.ones(3), "mode": "sum"},
        name="weights_size",
    ),
    BadInput((np.asarray([0.0, 1.0]), np.ones((3, 2)), np.asarray([0])), name="float_indices"),
)


OPS += [
    # No gradgrad: the per-sample weights' gradient has no derivative (PyTorch's is a
    # NotImplemented node; minigrad's too). The weight's has one: the next row.
    OpInfo(
        "F.embedding_bag",
        _functional("embedding_bag"),
        embedding_bag_samples,
        gradgrad=False,
        bad_inputs=EMBEDDING_BAG_BAD,
    ),
    # The weight's gradient is differentiable again (PyTorch's EmbeddingBagBackwardBackward0;
    # func.jvp needs it): second derivatives with the per-sample weights held constant.
    OpInfo(
        "F.embedding_bag_weight_only",
        _functional("embedding_bag"),
        embedding_bag_samples,
        grad_args=(1,),
        op="F.embedding_bag",
    ),
]
