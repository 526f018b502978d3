"""Op-table rows of PyTorch's top-level forms of nn functions (``minigrad.dropout(input, p,
train)``, ``minigrad.celu``, ``minigrad.layer_norm`` ...): ATen's signatures over the ops that
``nn.functional`` already uses.

Each row is small (one or two samples): the ``F.`` rows test the formulas; these check the
top-level signature, its values and gradients against PyTorch, and its own errors. Random
dropout cannot be compared with PyTorch (the generators differ): the rows use p = 1 or
``train=False``; tests_torch/test_toplevel_forms_torch.py checks the masks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, quietly


def _top(name: str) -> Callable[..., Any]:
    return lambda lib, *args, **kwargs: getattr(lib, name)(*args, **kwargs)


def _inplace_top(name: str) -> Callable[..., Any]:
    """``lib.<name>(x.clone(), ...)``: written into a non-leaf."""
    return lambda lib, x, *args, **kwargs: getattr(lib, name)(x.clone(), *args, **kwargs)


def _real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


# --- dropout and activations ------------------------------------------------------------------


def _dropout_samples(feature: bool = False) -> Callable[[np.random.Generator], list[Sample]]:
    shape = (2, 3, 2) if feature else (3, 4)
    return lambda rng: [
        Sample((_real(rng, *shape), 1.0, True), name="p1"),
        Sample((_real(rng, *shape), 1.0, True), name="p1_transposed", transposed=True),
    ]


def _dropout_bad(name: str) -> tuple[BadInput, ...]:
    bad = (
        BadInput((np.ones((2, 3)), 1.5, True), name="p_too_large"),
        BadInput((np.ones((2, 3)), -0.5, False), name="p_negative_in_eval"),
        BadInput((np.ones((2, 3)), 0.5), name="no_train"),
        BadInput((np.ones((2, 3)), 0.5, None), name="train_none"),
        BadInput((np.ones((2, 3), dtype=np.int64), 0.5, True), name="integers"),
    )
    if name.startswith("feature"):
        bad += (BadInput((np.ones(3), 0.5, True), name="rank1"),)
    return bad


def _dropout_rows(name: str) -> list[OpInfo]:
    feature = name.startswith("feature")
    return [
        OpInfo(
            f"{name}_top",
            _top(name),
            _dropout_samples(feature),
            bad_inputs=_dropout_bad(name),
            op=name,
        ),
        OpInfo(
            f"{name}__top",
            _inplace_top(name + "_"),
            _dropout_samples(feature),
            bad_inputs=_dropout_bad(name),
            inplace=True,
            op=name + "_",
        ),
    ]


def _native_dropout_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), 0.5, False), name="eval"),
        Sample((_real(rng, 3, 4), 1.0, True), name="p1", transposed=True),
    ]


def _unary(rng: np.random.Generator, *extra: Any) -> list[Sample]:
    return [
        Sample((_real(rng, 3, 4), *extra), name="2d"),
        Sample((_real(rng, 3, 4), *extra), name="transposed", transposed=True),
        Sample((np.asarray(_real(rng)), *extra), name="0d"),
    ]


OPS: list[OpInfo] = [
    *(
        row
        for name in ("dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout")
        for row in _dropout_rows(name)
    ),
    OpInfo(
        "native_dropout",
        _top("native_dropout"),
        _native_dropout_samples,
        output_index=0,
        bad_inputs=(
            BadInput((np.ones(3), 1.5, True), name="p_too_large"),
            BadInput((np.ones(3, dtype=np.int64), 0.0, True), name="integers"),
            BadInput((np.ones(3, dtype=np.bool_), 0.5, None), name="bools"),
        ),
    ),
    OpInfo(
        "celu_top",
        _top("celu"),
        lambda rng: _unary(rng, 0.5),
        bad_inputs=(
            BadInput((np.ones(3), 0.0), name="alpha_0"),
            BadInput((np.ones(3),), {"inplace": True}, name="inplace"),
        ),
        op="celu",
    ),
    OpInfo(
        "celu__top", _inplace_top("celu_"), lambda rng: _unary(rng, 2.0), inplace=True, op="celu_"
    ),
    OpInfo("selu__top", _inplace_top("selu_"), _unary, inplace=True, op="selu_"),
    OpInfo(
        "rrelu_top",
        _top("rrelu"),
        lambda rng: _unary(rng, 0.1, 0.4),
        bad_inputs=(BadInput((np.ones(3), 0.5, 0.1), name="bounds"),),
        op="rrelu",
    ),
    OpInfo("rrelu__top", _inplace_top("rrelu_"), _unary, inplace=True, op="rrelu_"),
    OpInfo(
        "threshold_top",
        _top("threshold"),
        lambda rng: _unary(rng, 0.25, -3.0),
        bad_inputs=(
            BadInput((np.ones(3), 0.5), name="no_value"),
            BadInput((np.ones(3, dtype=np.bool_), 0.5, 1.0), name="bools"),
        ),
        op="threshold",
    ),
    OpInfo(
        "threshold__top",
        _inplace_top("threshold_"),
        lambda rng: _unary(rng, 0.25, 5.0),
        inplace=True,
        op="threshold_",
    ),
]


# --- normalization ----------------------------------------------------------------------------


def _positive(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(0.5, 1.5, size=shape))


def _batch_norm_samples(rng: np.random.Generator) -> list[Sample]:
    def stats() -> tuple[np.ndarray, np.ndarray]:
        return _real(rng, 3) * 0.1, _positive(rng, 3)

    x, w, b = _real(rng, 4, 3), _positive(rng, 3), _real(rng, 3)
    return [
        Sample((x, w, b, *stats(), True, 0.3, 1e-5, False), name="training"),
        Sample((_real(rng, 2, 3, 2), w, b, *stats(), False, 0.1, 1e-3, True), name="eval"),
        Sample(
            (x, None, None, None, None, True, 0.1, 1e-5, True),
            name="batch_stats_only",
            transposed=True,
        ),
    ]


# (PyTorch's native_batch_norm does not check the running statistics' sizes: no row for it)
_BATCH_NORM_FEATURES = BadInput(
    (np.ones((4, 3)), None, None, np.zeros(2), np.ones(2), True, 0.1, 1e-5, True), name="features"
)
_NATIVE_BATCH_NORM_BAD = (
    BadInput((np.ones((0, 3)), None, None, None, None, True, 0.1, 1e-5), name="empty"),
    BadInput((np.ones((4, 3)), None, None, np.zeros(3), None, True, 0.1, 1e-5), name="one_stat"),
    BadInput(
        (np.ones((4, 3), dtype=np.int64), None, None, None, None, True, 0.1, 1e-5), name="integers"
    ),
)


def _group_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (_real(rng, 2, 6, 3), 3, _positive(rng, 6), _real(rng, 6), 1e-5, False), name="affine"
        ),
        Sample((_real(rng, 3, 8), 2), name="2d", transposed=True),
        Sample((_real(rng, 1, 2, 1), 2), {"eps": 0.5}, name="one_value_per_group"),
    ]


def _native_group_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (_real(rng, 2, 6, 3), _positive(rng, 6), _real(rng, 6), 2, 6, 3, 3, 1e-5), name="affine"
        ),
        Sample((_real(rng, 3, 8), None, None, 3, 8, 1, 2, 1e-5), name="2d"),
    ]


_GROUP_NORM_BAD = (
    BadInput((np.ones((2, 3, 4)), 2), name="groups"),
    BadInput((np.ones(3), 1), name="1d"),
    BadInput((np.ones((2, 3, 4)), 3, np.ones(2)), name="weight_size"),
)


def _layer_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (_real(rng, 2, 3, 4), [4], _positive(rng, 4), _real(rng, 4), 1e-5, False), name="affine"
        ),
        Sample((_real(rng, 3, 4), (3, 4)), name="two_dims", transposed=True),
    ]


def _native_layer_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((_real(rng, 2, 3, 4), [4], _positive(rng, 4), _real(rng, 4), 1e-5), name="affine"),
        Sample((_real(rng, 3, 4), (3, 4), None, None, 0.1), name="two_dims", transposed=True),
    ]


_LAYER_NORM_BAD = (
    BadInput((np.ones((2, 3)), (4,)), name="shape"),
    BadInput((np.ones((2, 3)), 3), name="int_shape"),
)


def _instance_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(
            (
                _real(rng, 2, 3, 4),
                _positive(rng, 3),
                _real(rng, 3),
                _real(rng, 3) * 0.1,
                _positive(rng, 3),
                True,
                0.1,
                1e-5,
                False,
            ),
            name="affine_running",
        ),
        Sample(
            (
                _real(rng, 2, 3, 4),
                None,
                None,
                _real(rng, 3) * 0.1,
                _positive(rng, 3),
                False,
                0.1,
                1e-5,
                False,
            ),
            name="eval",
        ),
        Sample(
            (_real(rng, 2, 3), None, None, None, None, True, 0.1, 1e-5, True),
            name="no_spatial_dims",
        ),
    ]


OPS += [
    OpInfo(
        "batch_norm_top",
        _top("batch_norm"),
        _batch_norm_samples,
        grad_args=(0, 1, 2),
        bad_inputs=(_BATCH_NORM_FEATURES,),
        op="batch_norm",
    ),
    OpInfo(
        "native_batch_norm",
        _top("native_batch_norm"),
        lambda rng: [
            Sample(s.args[:8], name=s.name, transposed=s.transposed)
            for s in _batch_norm_samples(rng)
        ],
        grad_args=(0, 1, 2),
        output_index=0,
        bad_inputs=_NATIVE_BATCH_NORM_BAD,
    ),
    OpInfo(
        "instance_norm_top",
        _top("instance_norm"),
        _instance_norm_samples,
        grad_args=(0, 1, 2),
        bad_inputs=(
            BadInput(
                (np.ones((2, 3, 4)), None, None, None, None, False, 0.1, 1e-5, True),
                name="eval_without_stats",
            ),
        ),
        op="instance_norm",
    ),
    OpInfo(
        "group_norm_top",
        _top("group_norm"),
        _group_norm_samples,
        bad_inputs=_GROUP_NORM_BAD,
        op="group_norm",
    ),
    OpInfo(
        "native_group_norm",
        _top("native_group_norm"),
        _native_group_norm_samples,
        output_index=0,
        bad_inputs=(
            BadInput((np.ones((2, 3, 4)), None, None, 2, 3, 5, 1, 1e-5), name="numel"),
            BadInput((np.ones((2, 3, 4)), None, None, 2, 3, 4, 2, 1e-5), name="groups"),
        ),
    ),
    OpInfo(
        "layer_norm_top",
        _top("layer_norm"),
        _layer_norm_samples,
        bad_inputs=_LAYER_NORM_BAD,
        op="layer_norm",
    ),
    OpInfo(
        "native_layer_norm",
        _top("native_layer_norm"),
        _native_layer_norm_samples,
        output_index=0,
        bad_inputs=(BadInput((np.ones((2, 3)), (4,), None, None, 1e-5), name="shape"),),
    ),
    OpInfo(
        "rms_norm_top",
        _top("rms_norm"),
        lambda rng: [
            Sample((_real(rng, 3, 4), [4], _positive(rng, 4)), name="weight"),
            Sample((_real(rng, 3, 4), (3, 4), None, 0.1), name="eps", transposed=True),
        ],
        bad_inputs=(BadInput((np.ones(3), (2, 3)), name="rank"),),
        op="rms_norm",
    ),
]


# --- losses (reduction as a number: none without it, as PyTorch's parser reads the default) --


def _signs(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)


def _loss_samples(make: Callable[..., tuple[Any, ...]]) -> Callable[..., list[Sample]]:
    return lambda rng: [
        Sample(make(rng), name="default"),
        Sample(make(rng), {"reduction": 1}, name="mean"),
        Sample(make(rng), {"reduction": 2}, name="sum", transposed=True),
    ]


OPS += [
    OpInfo(
        "kl_div_top",
        _top("kl_div"),
        _loss_samples(lambda rng: (_real(rng, 3, 4), _positive(rng, 3, 4))),
        grad_args=(0,),
        bad_inputs=(BadInput((np.ones(3, dtype=np.int64), np.ones(3)), name="integers"),),
        op="kl_div",
    ),
    OpInfo(
        "kl_div_log_target_top",
        lambda lib, x, t, *a, **k: lib.kl_div(x, t, *a, log_target=True, **k),
        _loss_samples(lambda rng: (_real(rng, 3, 4), _real(rng, 3, 4))),
        op="kl_div",
    ),
    OpInfo(
        "hinge_embedding_loss_top",
        _top("hinge_embedding_loss"),
        _loss_samples(lambda rng: (_real(rng, 3, 4), _signs(rng, 3, 4), 0.5)),
        grad_args=(0,),
        op="hinge_embedding_loss",
    ),
    OpInfo(
        "margin_ranking_loss_top",
        _top("margin_ranking_loss"),
        _loss_samples(lambda rng: (_real(rng, 3, 4), _real(rng, 3, 4), _signs(rng, 3, 4), 0.3)),
        grad_args=(0, 1),
        op="margin_ranking_loss",
    ),
    OpInfo(
        "cosine_embedding_loss_top",
        _top("cosine_embedding_loss"),
        _loss_samples(lambda rng: (_real(rng, 3, 4), _real(rng, 3, 4), _signs(rng, 3), 0.1)),
        grad_args=(0, 1),
        bad_inputs=(BadInput((np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3))), name="target"),),
        op="cosine_embedding_loss",
    ),
    OpInfo(
        "poisson_nll_loss_top",
        _top("poisson_nll_loss"),
        lambda rng: [
            Sample((_real(rng, 3, 4), _positive(rng, 3, 4) * 2, True, False, 1e-8, 0), name="log"),
            Sample(
                (_positive(rng, 3, 4), _positive(rng, 3, 4) * 2, False, True, 1e-8, 1),
                name="full",
                transposed=True,
            ),
        ],
        grad_args=(0,),
        bad_inputs=(BadInput((np.ones(3), np.ones(3), True, False, 1e-8), name="no_reduction"),),
        op="poisson_nll_loss",
    ),
    OpInfo(
        "binary_cross_entropy_with_logits_top",
        _top("binary_cross_entropy_with_logits"),
        lambda rng: [
            Sample((_real(rng, 3, 4), _positive(rng, 3, 4) / 2), name="default"),
            Sample(
                (
                    _real(rng, 3, 4),
                    _positive(rng, 3, 4) / 2,
                    _positive(rng, 4),
                    _positive(rng, 4),
                    1,
                ),
                name="weights",
                transposed=True,
            ),
            Sample((_real(rng, 3, 4), _positive(rng, 3, 4) / 2), {"reduction": 2}, name="sum"),
        ],
        grad_args=(0,),
        bad_inputs=(BadInput((np.ones((3, 4)), np.ones((1, 4))), name="target_shape"),),
        op="binary_cross_entropy_with_logits",
    ),
]


def _ctc_samples(rng: np.random.Generator) -> list[Sample]:
    log_probs = _real(rng, 5, 2, 4)  # (logits: the row takes their log_softmax)
    targets = np.array([[1, 2], [3, 3]])
    return [
        Sample((log_probs, targets, [5, 4], [2, 1]), name="default"),
        Sample((log_probs, targets, np.array([5, 5]), np.array([2, 2]), 0, 1), name="mean"),
        Sample((log_probs, targets, [5, 5], [2, 2], 0, 2, True), name="sum"),
    ]


OPS += [
    OpInfo(
        "ctc_loss_top",
        # (PyTorch's CTC gradient assumes normalised log-probabilities, as F.ctc_loss's row)
        lambda lib, x, *args, **kwargs: lib.ctc_loss(x.log_softmax(-1), *args, **kwargs),
        _ctc_samples,
        grad_args=(0,),
        gradgrad=False,  # (CtcLossBackward0 has no derivative in PyTorch either)
        op="ctc_loss",
    ),
    OpInfo(
        "bilinear_top",
        _top("bilinear"),
        lambda rng: [
            Sample(
                (_real(rng, 3, 2), _real(rng, 3, 4), _real(rng, 5, 2, 4), _real(rng, 5)),
                name="bias",
            ),
            Sample((_real(rng, 2), _real(rng, 3), _real(rng, 2, 2, 3)), name="1d"),
        ],
        op="bilinear",
    ),
    OpInfo(
        "pdist_top",
        _top("pdist"),
        lambda rng: [
            Sample((_real(rng, 4, 3),), name="p2"),
            Sample((_real(rng, 4, 3), 1.5), name="p1.5", transposed=True),
        ],
        gradgrad=False,  # (PyTorch has no second derivative of pdist)
        op="pdist",
    ),
    OpInfo(
        "embedding_top",
        _top("embedding"),
        lambda rng: [
            Sample((_real(rng, 5, 3), np.array([[0, 2], [4, 2]])), name="plain"),
            Sample((_real(rng, 5, 3), np.array([0, 2, 2, 1]), 2, True), name="edge_padding_scaled"),
            Sample(
                (_real(rng, 5, 3), np.array([0, 2, 2, 1]), -3),
                name="negative_padding",
                transposed=True,
            ),
        ],
        bad_inputs=(
            BadInput((np.ones((5, 3)), np.array([5])), name="index_range"),
            BadInput((np.ones((5, 3)), np.array([1.0])), name="float_indices"),
            BadInput((np.ones(5), np.array([1])), name="1d_table"),
        ),
        op="embedding",
    ),
    OpInfo(
        "constant_pad_nd",
        _top("constant_pad_nd"),
        lambda rng: [
            Sample((_real(rng, 3, 4), [1, 2], 3.0), name="value"),
            Sample((_real(rng, 2, 3, 4), [-1, 2, 0, 1]), name="crop", transposed=True),
        ],
        bad_inputs=(BadInput((np.ones((3, 4)), [1]), name="odd"),),
    ),
    OpInfo(
        "convolution",
        _top("convolution"),
        lambda rng: [
            Sample(
                (
                    _real(rng, 1, 2, 5, 4),
                    _real(rng, 4, 1, 2, 3),
                    _real(rng, 4),
                    [1, 2],
                    [1, 0],
                    [1, 1],
                    False,
                    [0, 0],
                    2,
                ),
                name="2d_groups",
            ),
            Sample(
                (
                    _real(rng, 2, 2, 5),
                    _real(rng, 2, 3, 2),
                    _real(rng, 3),
                    [2],
                    [1],
                    [1],
                    True,
                    [1],
                    1,
                ),
                name="1d_transposed",
            ),
        ],
        bad_inputs=(
            BadInput(
                (np.ones((1, 2, 4)), np.ones((3, 2)), None, [1], [0], [1], False, [0], 1),
                name="2d_weight",
            ),
            BadInput(
                (np.ones((1, 2, 4, 4)), np.ones((3, 1, 3, 3)), None, [1], [0], [1], False, [0], 2),
                name="groups",
            ),
        ),
    ),
    # (gradgrad off: minigrad does not differentiate grid_sample's backward; the grid stays
    # inside the pixels' kinks as the F.grid_sample row's does)
    *(
        OpInfo(
            name,
            _top(name),
            lambda rng: [
                Sample(
                    (_real(rng, 1, 2, 3, 4), rng.uniform(-0.9, 0.9, (1, 2, 3, 2)), 0, 0, False),
                    name="bilinear_zeros",
                ),
                Sample(
                    (_real(rng, 2, 1, 3, 3), rng.uniform(-1.3, 1.3, (2, 2, 2, 2)), 0, 1, True),
                    name="border",
                ),
            ],
            gradgrad=False,
            bad_inputs=(
                BadInput(
                    (np.ones((1, 1, 2, 2, 2)), np.zeros((1, 1, 1, 1, 3)), 0, 0, False), name="5d"
                ),
            )
            if name.endswith("2d")
            else (),
        )
        for name in ("grid_sampler", "grid_sampler_2d")
    ),
    OpInfo(
        "grid_sampler_3d",
        _top("grid_sampler_3d"),
        lambda rng: [
            Sample(
                (_real(rng, 1, 2, 2, 3, 2), rng.uniform(-0.9, 0.9, (1, 1, 2, 2, 3)), 0, 0, False),
                name="bilinear_zeros",
            ),
            Sample(
                (_real(rng, 1, 1, 2, 2, 2), rng.uniform(-1.3, 1.3, (1, 2, 1, 2, 3)), 0, 2, True),
                name="reflection",
            ),
        ],
        gradgrad=False,
        bad_inputs=(
            BadInput((np.ones((1, 1, 2, 2)), np.zeros((1, 1, 1, 2)), 0, 0, False), name="4d"),
            BadInput(
                (np.ones((1, 1, 2, 2, 2)), np.zeros((1, 1, 1, 1, 3)), 2, 0, False), name="bicubic"
            ),
        ),
    ),
    OpInfo(
        "affine_grid_generator",
        _top("affine_grid_generator"),
        lambda rng: [
            Sample((_real(rng, 2, 2, 3), [2, 1, 3, 4], False), name="2d"),
            Sample((_real(rng, 1, 3, 4), [1, 1, 2, 2, 3], True), name="3d"),
        ],
        bad_inputs=(BadInput((np.ones((1, 2, 3)), [1, 2, 4], False), name="size"),),
    ),
]


# --- norms and misc ---------------------------------------------------------------------------

OPS += [
    OpInfo(
        "frobenius_norm",
        quietly(_top("frobenius_norm")),
        lambda rng: [
            Sample((_real(rng, 3, 4), [0, 1]), name="both"),
            Sample((_real(rng, 2, 3, 4), [-1], True), name="keepdim", transposed=True),
        ],
        bad_inputs=(
            BadInput((np.ones((2, 2, 2)), [0, 1, 2]), name="three_dims"),
            BadInput((np.ones(3, dtype=np.int64), [0]), name="integers"),
        ),
    ),
    OpInfo(
        "nuclear_norm",
        quietly(_top("nuclear_norm")),
        lambda rng: [
            Sample((_real(rng, 3, 4),), name="matrix"),
            Sample((_real(rng, 3, 2, 4), [0, 2], True), name="dims", transposed=True),
            Sample((_real(rng, 3, 4), True), name="keepdim"),
        ],
        bad_inputs=(BadInput((np.ones((2, 3, 4)), [0, 1, 2]), name="three_dims"),),
    ),
    OpInfo(
        "norm_except_dim",
        _top("norm_except_dim"),
        lambda rng: [
            Sample((_real(rng, 3, 4, 2),), name="dim0"),
            Sample((_real(rng, 3, 4, 2), 3, 1), name="middle_p3"),
            Sample((_real(rng, 3, 4), 2, 1), name="last", transposed=True),
            Sample((_real(rng, 3, 4), 2, -1), name="all"),
        ],
    ),
    OpInfo(
        "fill_top",
        _top("fill"),
        lambda rng: [
            Sample((_real(rng, 3, 4), 2.5), name="number", transposed=True),
            Sample((_real(rng, 3, 4), np.asarray(1.5)), name="tensor"),
        ],
        bad_inputs=(BadInput((np.ones(3), np.ones(1)), name="1d_value"),),
        op="fill",
    ),
    OpInfo(
        "nonzero_static",
        lambda lib, x, **kwargs: lib.nonzero_static(x, **kwargs),
        lambda rng: [
            Sample((np.array([[0.0, 1.5], [2.0, 0.0]]),), {"size": 3}, name="padded"),
            Sample((np.array([0.0, 1.5, 2.0]),), {"size": 1, "fill_value": 7}, name="cut"),
            Sample((np.asarray(2.0),), {"size": 2}, name="0d"),
        ],
        differentiable=False,
        bad_inputs=(BadInput((np.ones(3),), {"size": -1}, name="negative_size"),),
    ),
]


# --- the *_copy functions: each a view's result copied (one row each, two small samples) ------

_VIEW_COPIES: dict[str, tuple[tuple[int, ...], tuple[Any, ...]]] = {
    "alias_copy": ((3, 4), ()),
    "as_strided_copy": ((3, 4), ((2, 2), (1, 2), 1)),
    "diagonal_copy": ((3, 4), (1, 0, 1)),
    "expand_copy": ((1, 4), ((3, 4),)),
    "permute_copy": ((3, 4), ((1, 0),)),
    "select_copy": ((3, 4), (1, -1)),
    "slice_copy": ((3, 4), (1, 1, 3)),
    "split_copy": ((3, 4), (2, 1)),
    "split_with_sizes_copy": ((3, 4), ([1, 3], 1)),
    "squeeze_copy": ((3, 1, 4), (1,)),
    "t_copy": ((3, 4), ()),
    "transpose_copy": ((3, 4), (0, 1)),
    "unbind_copy": ((3, 4), (1,)),
    "unfold_copy": ((3, 4), (1, 2, 1)),
    "unsqueeze_copy": ((3, 4), (-1,)),
    "view_copy": ((3, 4), ((2, 6),)),
}


def _copy_samples(shape: tuple[int, ...], args: tuple[Any, ...]) -> Callable[..., list[Sample]]:
    return lambda rng: [
        Sample((_real(rng, *shape), *args), name="plain"),
        Sample((_real(rng, *shape), *args), name="transposed", transposed=name_ok(args)),
    ]


def name_ok(args: tuple[Any, ...]) -> bool:
    """Transposed inputs for all but ``as_strided_copy`` (it sees memory)."""
    return args != ((2, 2), (1, 2), 1)


OPS += [
    OpInfo(
        name,
        _top(name),
        _copy_samples(shape, args),
        output_index=0 if name in ("split_copy", "split_with_sizes_copy", "unbind_copy") else None,
    )
    for name, (shape, args) in _VIEW_COPIES.items()
]


# --- the recurrent cells (compositions of the cell modules' step formulas) --------------------


def _cell_samples(gates: int, lstm: bool = False) -> Callable[..., list[Sample]]:
    def samples(rng: np.random.Generator) -> list[Sample]:
        hidden = _real(rng, 2, 3) * 0.5
        hx = (hidden, _real(rng, 2, 3) * 0.5) if lstm else hidden
        weights = (_real(rng, 3 * gates, 4) * 0.5, _real(rng, 3 * gates, 3) * 0.5)
        biases = (_real(rng, 3 * gates) * 0.5, _real(rng, 3 * gates) * 0.5)
        return [
            Sample((_real(rng, 2, 4), hx, *weights, *biases), name="biases"),
            Sample((_real(rng, 2, 4), hx, *weights), name="no_biases"),
        ]

    return samples


OPS += [
    OpInfo("rnn_tanh_cell", _top("rnn_tanh_cell"), _cell_samples(1)),
    OpInfo("rnn_relu_cell", _top("rnn_relu_cell"), _cell_samples(1)),
    OpInfo(
        "gru_cell",
        _top("gru_cell"),
        _cell_samples(3),
    ),
    *(
        OpInfo(
            f"lstm_cell_{index}",
            lambda lib, x, h, c, *args: lib.lstm_cell(x, (h, c), *args),
            lambda rng: [
                Sample((s.args[0], *s.args[1], *s.args[2:]), name=s.name)
                for s in _cell_samples(4, lstm=True)(rng)
            ],
            output_index=index,
            op="lstm_cell",
        )
        for index in (0, 1)
    ),
]


# --- the recurrent sequence forms (minigrad.lstm, gru, rnn_tanh, rnn_relu): the flat weights
# given one array each, the options after them; the sequence form, then the packed form


def _sequence_samples(gates: int, lstm: bool = False) -> Callable[..., list[Sample]]:
    """(x, h[, c], *weights, has_biases, num_layers, dropout, train, bidirectional, last)

    ``last``: batch_first, or for a packed sample its batch sizes (an int64 array). The first
    sample of an LSTM has projections (w_hr): PyTorch's float32 LSTM without them runs oneDNN,
    whose misuse checks differ from its native path's (and may crash), and the misuse sweep
    calls the first sample.
    """

    def weights(rng, inputs, out, bias, proj=0):
        flat = [_real(rng, gates * 3, inputs) * 0.5, _real(rng, gates * 3, out) * 0.5]
        if bias:
            flat += [_real(rng, gates * 3) * 0.5, _real(rng, gates * 3) * 0.5]
        return flat + ([_real(rng, proj, 3) * 0.5] if proj else [])

    def states(rng, count, batch, proj=0):
        first = _real(rng, count, batch, proj or 3) * 0.5
        return (first, _real(rng, count, batch, 3) * 0.5) if lstm else (first,)

    def samples(rng: np.random.Generator) -> list[Sample]:
        found = []
        if lstm:
            found.append(
                Sample(
                    (
                        _real(rng, 3, 2, 4),
                        *states(rng, 1, 2, 2),
                        *weights(rng, 4, 2, True, 2),
                        True,
                        1,
                        0.0,
                        False,
                        False,
                        False,
                    ),
                    name="projections",
                )
            )
        found += [
            Sample(
                (
                    _real(rng, 3, 2, 4),
                    *states(rng, 1, 2),
                    *weights(rng, 4, 3, True),
                    True,
                    1,
                    0.0,
                    False,
                    False,
                    False,
                ),
                name="one_layer",
            ),
            Sample(
                (
                    _real(rng, 2, 3, 4),
                    *states(rng, 2, 2),
                    *weights(rng, 4, 3, False),
                    *weights(rng, 4, 3, False),
                    False,
                    1,
                    0.0,
                    False,
                    True,
                    True,
                ),
                name="bidirectional_batch_first",
            ),
            Sample(
                (
                    _real(rng, 5, 4),
                    *states(rng, 1, 2),
                    *weights(rng, 4, 3, True),
                    True,
                    1,
                    0.0,
                    False,
                    False,
                    np.asarray([2, 2, 1]),
                ),
                name="packed",
            ),
        ]
        return found

    return samples


def _native(value: Any) -> Any:
    """A float tensor as float64 (``.double()``, recorded), anything else as it is."""
    floating = getattr(value, "is_floating_point", None)
    return value.double() if floating is not None and floating() else value


def _sequence_call(name: str, lstm: bool = False) -> Callable[..., Any]:
    """``lib.<name>`` of a sample: the weights as a list, ``hx`` a pair for an LSTM.

    An LSTM's tensors go in as float64: PyTorch's float32 LSTM without projections runs
    oneDNN, whose graph (``MkldnnRnnLayerBackward0``), saved tensors and warnings minigrad does
    not mirror; in float64 it runs its native path, as minigrad (the float32 values are
    compared in tests_torch/test_toplevel_rnn_torch.py).
    """
    count = 2 if lstm else 1

    def call(lib: Any, x: Any, *rest: Any) -> Any:
        if lstm:
            x, rest = _native(x), tuple(map(_native, rest))
        states, weights, options = rest[:count], rest[count:-6], rest[-6:]
        hx = tuple(states) if lstm else states[0]
        if isinstance(options[-1], bool):  # batch_first: the sequence form
            return getattr(lib, name)(x, hx, list(weights), *options)
        return getattr(lib, name)(x, options[-1], hx, list(weights), *options[:-1])

    return call


# The gradient's formulas are the cells' (a composition of public ops), differentiable again.
OPS += [
    OpInfo(
        name,
        _sequence_call(name, name == "lstm"),
        _sequence_samples(gates, name == "lstm"),
        output_index=0,
    )
    for name, gates in (("lstm", 4), ("gru", 3), ("rnn_tanh", 1), ("rnn_relu", 1))
]


# --- embedding_bag's ATen form: (weight, indices, offsets, scale, mode, sparse, weights, last,
# padding_idx); the 'F.embedding_bag' row tests the formulas


def _embedding_bag_samples(rng: np.random.Generator) -> list[Sample]:
    indices, offsets = np.asarray([1, 2, 4, 5, 4, 3, 2, 0]), np.asarray([0, 2, 2, 5])
    return [
        Sample(
            (_real(rng, 6, 3), indices, offsets, False, 1, False, None, False, None), name="mean"
        ),
        Sample(
            (_real(rng, 6, 3), indices, offsets, False, 0, False, None, True, 4),
            name="sum_last_offset_padding",
        ),
        Sample(
            (_real(rng, 6, 3), indices, offsets, False, 2, False, None, False, -1),
            name="max_padding",
        ),
        Sample(
            (_real(rng, 6, 3), indices, offsets, False, 0, False, _real(rng, 8), False, None),
            name="weighted_sum",
        ),
    ]


OPS.append(
    # No gradgrad: the per-sample weights' gradient has no derivative (PyTorch's is a
    # NotImplemented node; minigrad's too); F.embedding_bag_weight_only has the weight's.
    OpInfo(
        "embedding_bag",
        _top("embedding_bag"),
        _embedding_bag_samples,
        output_index=0,
        gradgrad=False,
    )
)
