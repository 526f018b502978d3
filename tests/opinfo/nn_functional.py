"""Op-table rows of ``minigrad.nn.functional`` (ops/nn.py): losses, linear, normalization,
convolution, pooling, dropout, embedding, softmax.

Rows call ``lib.nn.functional.<name>``. Integer arrays in a sample (class indices, embedding
indices) stay integer tensors and never require grad. Samples that gradcheck must skip are
named ``edge...``: their gradient is PyTorch's convention, not the derivative (the padding row
of an embedding, gradients scaled by frequency, rows renormalized in place by ``max_norm``).
Random dropout cannot be compared with PyTorch (the generators differ): its row uses the
deterministic p = 1; tests/test_nn_functional.py checks the mask and the other cases.
Samples named ``edge`` also include empty inputs (gradcheck refuses them) and points where the
result is nan or PyTorch's gradient is a convention (all targets ignored, clamped norms).

No sample makes PyTorch warn (a broadcast target, kl_div's 'mean', an even kernel with
padding='same'): the generic tests treat warnings as errors. Those cases are tested in
tests/test_nn_functional.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first


def F(lib: Any) -> Any:  # noqa: N802 - the usual alias of nn.functional
    """``lib.nn.functional``."""
    return lib.nn.functional


def real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


def unit(rng: np.random.Generator, *shape: int, low: float = 0.05, high: float = 0.95) -> Any:
    return np.asarray(rng.uniform(low, high, size=shape))


def classes(rng: np.random.Generator, count: int, *shape: int) -> np.ndarray:
    return np.asarray(rng.integers(0, count, size=shape), dtype=np.int64)


REDUCTIONS = ("mean", "sum", "none")


# --- linear -----------------------------------------------------------------------------------


def linear_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng, 5)), name="2d"),
        Sample((real(rng, 4, 3), real(rng, 5, 3)), name="2d_no_bias"),
        Sample((real(rng, 2, 4, 3), real(rng, 5, 3), real(rng, 5)), name="3d"),
        Sample((real(rng, 2, 4, 3), real(rng, 5, 3)), name="3d_no_bias"),
        Sample((real(rng, 2, 2, 1, 3), real(rng, 5, 3), real(rng, 5)), name="4d"),
        Sample((real(rng, 3), real(rng, 5, 3), real(rng, 5)), name="1d"),
        Sample((real(rng, 3), real(rng, 5, 3)), name="1d_no_bias"),
        Sample((real(rng, 4, 3), real(rng, 3)), name="vector_weight"),
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng, 4, 5)), name="2d_bias"),
        Sample((real(rng, 2, 4, 3), real(rng, 5, 3), real(rng, 4, 5)), name="3d_2d_bias"),
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng)), name="0d_bias"),
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng, 5)), name="transposed",
               transposed=True),
        Sample((real(rng, 2, 4, 3), real(rng, 5, 3), real(rng, 5)), name="3d_transposed",
               transposed=True),
    ]


def linear_2d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng, 5)), name="2d"),
        Sample((real(rng, 2, 4, 3), real(rng, 5, 3), real(rng, 5)), name="3d"),
        Sample((real(rng, 4, 3), real(rng, 5, 3)), name="no_bias"),
        Sample((real(rng, 4, 3), real(rng, 5, 3), real(rng, 5)), name="transposed",
               transposed=True),
    ]


LINEAR_BAD = (
    BadInput((np.ones((4, 2)), np.ones((5, 3))), name="inner_mismatch"),
    BadInput((np.ones((4, 3)), np.ones((5, 3)), np.ones(4)), name="bias_mismatch"),
    BadInput((np.ones((2, 4, 2)), np.ones((5, 3)), np.ones(5)), name="3d_inner_mismatch"),
    BadInput((np.ones(()), np.ones((5, 3))), name="0d_input"),
    BadInput((np.ones((4, 3)), np.ones((5, 3, 1))), name="3d_weight"),
    BadInput((np.ones(2), np.ones((5, 3))), name="1d_mismatch"),
)


# --- pointwise losses -------------------------------------------------------------------------


def pointwise_loss_samples(target: Any = real, **options: Any) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = []
        for reduction in REDUCTIONS:
            kw = {"reduction": reduction, **options}
            out += [
                Sample((real(rng, 3, 4), target(rng, 3, 4)), kw, name=f"2d_{reduction}"),
                Sample((real(rng), target(rng)), kw, name=f"0d_{reduction}"),
                Sample((real(rng, 2, 3, 2), target(rng, 2, 3, 2)), kw, name=f"3d_{reduction}"),
                Sample((real(rng, 3, 4), target(rng, 3, 4)), kw, name=f"transposed_{reduction}",
                       transposed=True),
            ]
        out.append(Sample((real(rng, 0, 3), target(rng, 0, 3)), {"reduction": "sum"},
                          name="edge_empty"))
        return out

    return samples


def weighted_loss_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3, 4)),
               {"reduction": reduction, "weight": unit(rng, 3, 4)}, name=f"weighted_{reduction}")
        for reduction in REDUCTIONS
    ]


POINTWISE_BAD = (
    BadInput((np.ones((4, 3)), np.ones((4, 3))), {"reduction": "batch"}, name="reduction"),
    BadInput((np.ones((4, 3), dtype=np.int64), np.ones((4, 3), dtype=np.int64)),
             name="integers"),
)


# --- binary cross entropy ---------------------------------------------------------------------


def bce_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduction in REDUCTIONS:
        out += [
            Sample((unit(rng, 3, 4), unit(rng, 3, 4)), {"reduction": reduction},
                   name=f"2d_{reduction}"),
            Sample((unit(rng), unit(rng)), {"reduction": reduction}, name=f"0d_{reduction}"),
            Sample((unit(rng, 3, 4), unit(rng, 3, 4)),
                   {"reduction": reduction, "weight": unit(rng, 4)}, name=f"weight_{reduction}"),
        ]
    out.append(Sample((unit(rng, 3, 4), unit(rng, 3, 4)), name="transposed", transposed=True))
    out.append(Sample((unit(rng, 2, 3), np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]])),
                      name="edge_hard_targets"))
    return out


BCE_BAD = (
    BadInput((np.full((2, 3), 0.5), np.full(3, 0.5)), name="target_size"),
    BadInput((np.full((2, 3), 1.5), np.full((2, 3), 0.5)), name="input_range"),
    BadInput((np.full((2, 3), 0.5), np.full((2, 3), -0.5)), name="target_range"),
    BadInput((np.full((2, 3), 0.5), np.full((2, 3), 0.5)), {"weight": np.ones(2)},
             name="weight_shape"),
    BadInput((np.full((2, 3), 0.5), np.ones((2, 3), dtype=np.int64)), name="target_dtype"),
    BadInput((np.full(3, 0.5), np.full(3, 0.5)), {"reduction": "all"}, name="reduction"),
)


def bce_logits_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduction in REDUCTIONS:
        out += [
            Sample((real(rng, 3, 4), unit(rng, 3, 4)), {"reduction": reduction},
                   name=f"2d_{reduction}"),
            Sample((real(rng), unit(rng)), {"reduction": reduction}, name=f"0d_{reduction}"),
            Sample((real(rng, 3, 4), unit(rng, 3, 4)),
                   {"reduction": reduction, "weight": unit(rng, 4), "pos_weight": unit(rng, 4)},
                   name=f"weights_{reduction}"),
        ]
    out.append(Sample((real(rng, 3, 4) * 20, unit(rng, 3, 4)), name="large_logits"))
    out.append(Sample((real(rng, 3, 4), unit(rng, 3, 4)), name="transposed", transposed=True))
    return out


BCE_LOGITS_BAD = (
    BadInput((np.ones((2, 3)), np.full(3, 0.5)), name="target_size"),
    BadInput((np.ones((2, 3)), np.full((2, 3), 0.5)), {"weight": np.ones(2)},
             name="weight_shape"),
    BadInput((np.ones((2, 3)), np.full((2, 3), 0.5)), {"pos_weight": np.ones(2)},
             name="pos_weight_shape"),
    BadInput((np.ones((2, 3)), np.ones((2, 3), dtype=np.int64)), name="integer_target"),
)


# --- nll_loss and cross_entropy ---------------------------------------------------------------


def nll_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduction in REDUCTIONS:
        kw = {"reduction": reduction}
        out += [
            Sample((real(rng, 4, 3), classes(rng, 3, 4)), kw, name=f"2d_{reduction}"),
            Sample((real(rng, 3), classes(rng, 3)), kw, name=f"1d_{reduction}"),
            Sample((real(rng, 2, 3, 4), classes(rng, 3, 2, 4)), kw, name=f"3d_{reduction}"),
            Sample((real(rng, 2, 3, 2, 2), classes(rng, 3, 2, 2, 2)), kw,
                   name=f"4d_{reduction}"),
            Sample((real(rng, 4, 3), classes(rng, 3, 4)), {**kw, "weight": unit(rng, 3)},
                   name=f"weight_{reduction}"),
            Sample((real(rng, 4, 3), np.array([0, 2, 1, 2])),
                   {**kw, "weight": unit(rng, 3), "ignore_index": 2},
                   name=f"ignore_{reduction}"),
        ]
    out += [
        Sample((real(rng, 2, 3, 2, 2, 2), classes(rng, 3, 2, 2, 2, 2)), name="5d"),
        Sample((real(rng, 4, 3), classes(rng, 3, 4)), name="transposed", transposed=True),
        Sample((real(rng, 4, 3), np.full(4, -100)), name="edge_all_ignored"),
        # PyTorch's forward accepts a (1,) target for a (C,) input; its backward raises.
        Sample((real(rng, 3), np.array([1])), name="edge_1d_target_of_one"),
    ]
    return out


NLL_BAD = (
    BadInput((np.ones((4, 3)), np.array([0, 3, 1, 2])), name="target_out_of_bounds"),
    BadInput((np.ones((4, 3)), np.array([0, -1, 1, 2])), name="negative_target"),
    BadInput((np.ones((4, 3)), np.array([0.0, 1.0, 1.0, 2.0])), name="float_target"),
    BadInput((np.ones((4, 3)), np.array([0, 1], dtype=np.int32)), name="batch_mismatch"),
    BadInput((np.ones((4, 3)), np.array([0, 1, 1, 2], dtype=np.int32)), name="int32_target"),
    BadInput((np.ones((4, 3)), np.array([0, 1, 1, 2])), {"weight": np.ones(2)},
             name="weight_shape"),
    BadInput((np.ones(()), np.array(1)), name="0d_input"),
    BadInput((np.ones(3), np.array([1, 2])), name="1d_target_size"),
    BadInput((np.ones((2, 3, 4)), np.zeros((2, 5), dtype=np.int64)), name="3d_target_size"),
    BadInput((np.ones((2, 3, 4, 5)), np.zeros((2, 4, 4), dtype=np.int64)),
             name="4d_target_size"),
    BadInput((np.ones((2, 3, 4, 5)), np.zeros((2, 4), dtype=np.int64)), name="4d_target_rank"),
    BadInput((np.ones((4, 3)), np.array([0, 1, 1, 2])), {"reduction": "max"}, name="reduction"),
)


def cross_entropy_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduction in REDUCTIONS:
        kw = {"reduction": reduction}
        out += [
            Sample((real(rng, 4, 3), classes(rng, 3, 4)), kw, name=f"indices_{reduction}"),
            Sample((real(rng, 3), classes(rng, 3)), kw, name=f"1d_{reduction}"),
            Sample((real(rng, 2, 3, 2, 2), classes(rng, 3, 2, 2, 2)), kw, name=f"4d_{reduction}"),
            Sample((real(rng, 4, 3), np.array([0, 2, 1, 2])),
                   {**kw, "weight": unit(rng, 3), "ignore_index": 1},
                   name=f"weight_ignore_{reduction}"),
            Sample((real(rng, 4, 3), np.array([0, 2, 1, 2])),
                   {**kw, "label_smoothing": 0.2, "ignore_index": 1},
                   name=f"smoothing_{reduction}"),
            Sample((real(rng, 2, 3, 4), classes(rng, 3, 2, 4)),
                   {**kw, "label_smoothing": 0.1, "weight": unit(rng, 3)},
                   name=f"smoothing_weight_3d_{reduction}"),
            Sample((real(rng, 4, 3), unit(rng, 4, 3)), kw, name=f"probabilities_{reduction}"),
            Sample((real(rng, 2, 3, 2), unit(rng, 2, 3, 2)),
                   {**kw, "weight": unit(rng, 3), "label_smoothing": 0.3},
                   name=f"probabilities_weight_smoothing_{reduction}"),
        ]
    out += [
        Sample((real(rng, 4, 3), classes(rng, 3, 4)), name="transposed", transposed=True),
        Sample((real(rng, 3), unit(rng, 3)), name="1d_probabilities"),
        Sample((real(rng, 4, 3), classes(rng, 3, 4)), {"label_smoothing": 1.0},
               name="full_smoothing"),
    ]
    return out


CROSS_ENTROPY_BAD = (
    BadInput((np.ones((4, 3)), np.array([0, 3, 1, 2])), name="target_out_of_bounds"),
    BadInput((np.ones((4, 3)), np.array([0, 3, 1, 2])), {"label_smoothing": 0.1},
             name="smoothing_target_out_of_bounds"),
    BadInput((np.ones((4, 3)), np.ones((4, 2))), name="multi_target"),
    BadInput((np.ones((4, 3)), np.full((4, 3), 0.5)), {"ignore_index": 1},
             name="probabilities_ignore_index"),
    BadInput((np.ones((4, 3)), np.full((4, 3), 0.5)), {"weight": np.ones(2)},
             name="probabilities_weight"),
    BadInput((np.ones((4, 3)), np.array([0, 1, 1, 2])), {"label_smoothing": 1.5},
             name="smoothing_too_large"),
    BadInput((np.ones((4, 3)), np.ones((4, 3), dtype=np.int64)), name="integer_probabilities"),
)


# --- kl_div, cosine_similarity ----------------------------------------------------------------


def kl_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for reduction in ("sum", "none", "batchmean"):
        for log_target in (False, True):
            kw = {"reduction": reduction, "log_target": log_target}

            def target(*shape: int, log: bool = log_target) -> np.ndarray:
                p = unit(rng, *shape, low=0.1, high=1.0)
                return np.asarray(np.log(p) if log else p)

            out += [
                Sample((np.log(unit(rng, 4, 3)), target(4, 3)), kw,
                       name=f"{reduction}_log_target_{log_target}"),
                Sample((real(rng), target()), kw, name=f"0d_{reduction}_{log_target}"),
            ]
    out.append(Sample((real(rng, 4, 3), np.array([[0.0, 0.5, 0.5]] * 4)),
                      {"reduction": "sum"}, name="edge_zero_target"))
    out.append(Sample((real(rng, 4, 3), unit(rng, 4, 3)), {"reduction": "batchmean"},
                      name="transposed", transposed=True))
    return out


def cosine_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3), real(rng, 4, 3)), name="2d"),
        Sample((real(rng, 4, 3), real(rng, 4, 3)), {"dim": 0}, name="dim0"),
        Sample((real(rng, 2, 3, 4), real(rng, 2, 3, 4)), {"dim": -1}, name="3d"),
        Sample((real(rng, 4, 3), real(rng, 3)), {"dim": -1}, name="broadcast"),
        Sample((real(rng, 5), real(rng, 5)), {"dim": 0}, name="1d"),
        # Norms below eps are clamped without recording: the gradient treats eps as the norm.
        Sample((real(rng, 4, 3), real(rng, 4, 3)), {"eps": 10.0}, name="edge_large_eps"),
        Sample((real(rng, 4, 3), real(rng, 4, 3)), name="transposed", transposed=True),
    ]


COSINE_BAD = (
    BadInput((np.ones((2, 3)), np.ones((4, 3))), name="shape_mismatch"),
    BadInput((np.ones((2, 3)), np.ones((2, 3))), {"dim": 2}, name="dim"),
    BadInput((np.ones((2, 3), dtype=np.int64), np.ones((2, 3), dtype=np.int64)),
             name="integers"),
)


# --- dropout ----------------------------------------------------------------------------------


def dropout_samples(rng: np.random.Generator) -> list[Sample]:
    # p = 0 and training=False return the input itself (as PyTorch), which the generic
    # "nothing recorded under no_grad" test cannot express: tests/test_nn_functional.py has them.
    return [
        Sample((real(rng, 4, 3),), {"p": 1.0}, name="p1"),
        Sample((real(rng, 4, 3),), {"p": 1.0}, name="p1_transposed", transposed=True),
    ]


DROPOUT_BAD = (
    BadInput((np.ones(3),), {"p": 1.5}, name="p_too_large"),
    BadInput((np.ones(3),), {"p": -0.1}, name="p_negative"),
    BadInput((np.ones(3, dtype=np.int64),), {"p": 0.5}, name="integers"),
    BadInput((np.ones(3),), {"p": 0.5, "inplace": True}, name="inplace_on_leaf"),
)


# --- normalization ----------------------------------------------------------------------------


def layer_norm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 4, 3, 5), (5,), real(rng, 5), real(rng, 5)), name="last"),
        Sample((real(rng, 4, 3, 5), (3, 5), real(rng, 3, 5), real(rng, 3, 5)), name="last_two"),
        Sample((real(rng, 4, 5), (5,)), name="no_affine"),
        Sample((real(rng, 4, 5), (5,), real(rng, 5)), name="weight_only"),
        Sample((real(rng, 5), (5,), real(rng, 5), real(rng, 5)), name="1d"),
        Sample((real(rng, 4, 5), (5,), real(rng, 5), real(rng, 5)), {"eps": 0.5}, name="eps"),
        Sample((real(rng, 3, 4), (4,), real(rng, 4), real(rng, 4)), name="transposed",
               transposed=True),
    ]


LAYER_NORM_BAD = (
    BadInput((np.ones((4, 3, 5)), (4,)), name="normalized_shape"),
    BadInput((np.ones((4, 3, 5)), (5,), np.ones(4)), name="weight_shape"),
    BadInput((np.ones((4, 3, 5)), (5,), None, np.ones(4)), name="bias_shape"),
    BadInput((np.ones((4, 3, 5)), ()), name="empty_normalized_shape"),
    BadInput((np.ones((2, 5), dtype=np.int64), (5,)), name="integers"),
)


def batch_norm_samples(rng: np.random.Generator) -> list[Sample]:
    def stats(n: int = 3) -> tuple[np.ndarray, np.ndarray]:
        return real(rng, n) * 0.1, unit(rng, n, low=0.5, high=1.5)

    out = []
    for training in (True, False):
        kw = {"training": training, "momentum": 0.3}
        out += [
            Sample((real(rng, 4, 3), *stats(), real(rng, 3), real(rng, 3)), kw,
                   name=f"2d_{training}"),
            Sample((real(rng, 2, 3, 4), *stats(), real(rng, 3), real(rng, 3)), kw,
                   name=f"3d_{training}"),
            Sample((real(rng, 2, 3, 2, 2), *stats()), kw, name=f"4d_no_affine_{training}"),
            Sample((real(rng, 4, 3), *stats(), real(rng, 3), real(rng, 3)), kw,
                   name=f"transposed_{training}", transposed=True),
        ]
    out.append(Sample((real(rng, 4, 3), None, None, real(rng, 3), real(rng, 3)),
                      {"training": True}, name="no_running_stats"))
    out.append(Sample((real(rng, 4, 3), *stats(), real(rng, 3), real(rng, 3)),
                      {"training": True, "eps": 0.1}, name="eps"))
    return out


BATCH_NORM_BAD = (
    BadInput((np.ones((1, 3)), np.zeros(3), np.ones(3)), {"training": True},
             name="one_value_per_channel"),
    BadInput((np.ones((4, 2)), np.zeros(3), np.ones(3)), {"training": True}, name="channels"),
    BadInput((np.ones((4, 3)), np.zeros(3), np.ones(2)), name="running_var_size"),
    BadInput((np.ones((4, 3)), np.zeros(3), np.ones(3), np.ones(2)), {"training": True},
             name="weight_size"),
    BadInput((np.ones((4, 3)), None, None), name="eval_without_stats"),
    BadInput((np.ones((4, 3)), np.zeros(3), None), {"training": True}, name="one_stat"),
    BadInput((np.ones((4, 3)), np.zeros(3), np.ones(3)), {"training": True, "eps": 0.0},
             name="eps"),
)


# --- embedding --------------------------------------------------------------------------------


def embedding_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((classes(rng, 5, 2, 3), real(rng, 5, 3)), name="2d"),
        Sample((classes(rng, 5, 4), real(rng, 5, 3)), name="1d"),
        Sample((np.array(3), real(rng, 5, 3)), name="0d"),
        Sample((np.array([1, 1, 4, 1]), real(rng, 5, 3)), name="repeated"),
        Sample((classes(rng, 5, 2, 3), real(rng, 5, 3)), name="transposed", transposed=True),
        Sample((np.array([[0, 2], [4, 2]]), real(rng, 5, 3)), {"padding_idx": 2},
               name="edge_padding"),
        Sample((np.array([[0, 2], [4, 2]]), real(rng, 5, 3)), {"padding_idx": -1},
               name="edge_padding_negative"),
        Sample((np.array([[0, 2], [4, 2]]), real(rng, 5, 3)), {"scale_grad_by_freq": True},
               name="edge_scale_by_frequency"),
        Sample((np.array([1, 1, 2, 3]), real(rng, 5, 3) * 2), {"max_norm": 1.0},
               name="edge_max_norm"),
    ]


EMBEDDING_BAD = (
    BadInput((np.array([5]), np.ones((5, 3))), name="index_too_large"),
    BadInput((np.array([-1]), np.ones((5, 3))), name="negative_index"),
    BadInput((np.array([1.0]), np.ones((5, 3))), name="float_indices"),
    BadInput((np.array([1]), np.ones(5)), name="1d_weight"),
    BadInput((np.array([1]), np.ones((5, 3))), {"padding_idx": 5}, name="padding_idx"),
)


def ctc_samples(rng: np.random.Generator) -> list[Sample]:
    padded = np.array([[1, 1, 2], [3, 2, 0]])
    lengths = (np.array([6, 5]), np.array([3, 2]))
    return [
        Sample((real(rng, 6, 2, 4), padded, *lengths), name="mean"),
        Sample((real(rng, 6, 2, 4), padded, *lengths), {"reduction": "none", "blank": 3},
               name="none_blank"),
        Sample((real(rng, 5, 3, 5), np.array([1, 2, 3, 4, 4, 2]), [5, 4, 5], [2, 3, 1]),
               {"reduction": "sum"}, name="concatenated_targets"),
        Sample((real(rng, 4, 2, 4), np.array([[1, 1, 2], [3, 2, 1]]), np.array([4, 2]),
                np.array([3, 3])), {"reduction": "none", "zero_infinity": True},
               name="zero_infinity"),
        Sample((real(rng, 5, 4), np.array([1, 2]), np.asarray(5), np.asarray(2)),
               name="unbatched"),
        Sample((real(rng, 6, 2, 4), padded, *lengths), name="transposed", transposed=True),
    ]


CTC_BAD = (
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4, 5]),
              np.array([2, 2])), name="input_length_too_long"),
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4]),
              np.array([2, 2])), name="input_lengths_size"),
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4, 4]),
              np.array([2, 3])), name="targets_too_short"),
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4, 4]),
              np.array([2, 2])), {"blank": 5}, name="blank"),
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4, 4]),
              np.array([2, 2])), {"reduction": "avg"}, name="reduction"),
    BadInput((np.zeros((4, 2, 5)), np.array([[1, 2], [3, 4]]), np.array([4.0, 4.0]),
              np.array([2, 2])), name="float_lengths"),
)


def _ctc(lib: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
    # PyTorch's CTC gradient assumes normalised log-probabilities (its exp(lp) term cancels
    # through log_softmax's backward): the row differentiates through log_softmax, as real use
    return F(lib).ctc_loss(x.log_softmax(-1), *args, **kwargs)


# --- convolution ------------------------------------------------------------------------------

CONV2D_CONFIGS = (
    ("plain", {}),
    ("stride", {"stride": 2}),
    ("padding", {"padding": 1}),
    ("dilation", {"dilation": 2}),
    ("mixed", {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2)}),
    ("groups", {"groups": 2}),
    ("groups_stride_padding", {"groups": 2, "stride": 2, "padding": 2, "dilation": 2}),
    ("valid", {"padding": "valid"}),
    ("same", {"padding": "same"}),
    ("same_dilation", {"padding": "same", "dilation": (2, 1)}),
)


def conv2d_samples(rng: np.random.Generator) -> list[Sample]:
    out = []
    for name, kw in CONV2D_CONFIGS:
        groups = kw.get("groups", 1)
        out.append(Sample((real(rng, 2, 4, 5, 6), real(rng, 4, 4 // groups, 3, 3), real(rng, 4)),
                          kw, name=name))
    out += [
        Sample((real(rng, 2, 4, 5, 6), real(rng, 3, 4, 2, 3)), name="no_bias"),
        Sample((real(rng, 4, 5, 6), real(rng, 3, 4, 3, 3), real(rng, 3)), name="unbatched"),
        Sample((real(rng, 2, 4, 5, 6), real(rng, 3, 4, 3, 3), real(rng, 3)), {"padding": 1},
               name="transposed", transposed=True),
        Sample((real(rng, 2, 4, 3, 3), real(rng, 5, 4, 1, 1), real(rng, 5)), name="1x1"),
        Sample((real(rng, 2, 4, 5, 5), real(rng, 8, 1, 3, 3)), {"groups": 4}, name="depthwise"),
    ]
    return out


CONV2D_BAD = (
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 2, 3, 3))), name="channels"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((5, 2, 3, 3))), {"groups": 2}, name="groups"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 7, 3))), name="kernel_too_large"),
    BadInput((np.ones((2, 4, 6)), np.ones((6, 4, 3, 3))), name="input_rank"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3))), name="weight_rank"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3)), np.ones(5)), name="bias"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"stride": 0}, name="stride"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"padding": -1}, name="padding"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"dilation": 0}, name="dilation"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"stride": (1, 1, 1)},
             name="stride_length"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"padding": "same", "stride": 2},
             name="same_strided"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"padding": "full"},
             name="padding_string"),
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3, 3))), {"groups": 0}, name="groups_0"),
)


def conv1d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 4, 7), real(rng, 3, 4, 3), real(rng, 3)), name="plain"),
        Sample((real(rng, 2, 4, 9), real(rng, 3, 4, 3), real(rng, 3)),
               {"stride": 2, "padding": 2, "dilation": 2}, name="stride_padding_dilation"),
        Sample((real(rng, 2, 4, 7), real(rng, 8, 2, 3)), {"groups": 2}, name="groups"),
        Sample((real(rng, 4, 7), real(rng, 3, 4, 3), real(rng, 3)), name="unbatched"),
        Sample((real(rng, 2, 4, 7), real(rng, 3, 4, 3)), {"padding": "same"}, name="same"),
        Sample((real(rng, 2, 4, 7), real(rng, 3, 4, 3), real(rng, 3)), name="transposed",
               transposed=True),
    ]


CONV1D_BAD = (
    BadInput((np.ones((2, 4, 6, 6)), np.ones((6, 4, 3))), name="input_rank"),
    BadInput((np.ones((2, 4, 2)), np.ones((6, 4, 3))), name="kernel_too_large"),
    BadInput((np.ones((2, 3, 6)), np.ones((6, 4, 3))), name="channels"),
)


def conv_transpose1d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 4, 5), real(rng, 4, 3, 3), real(rng, 3)),
               {"stride": 2, "padding": 1, "output_padding": 1}, name="stride_output_padding"),
        # an output padding below the dilation but not the stride: one position past it
        Sample((real(rng, 2, 4, 5), real(rng, 4, 3, 2)), {"output_padding": 1, "dilation": 2},
               name="output_padding_past_stride"),
        Sample((real(rng, 2, 4, 5), real(rng, 4, 2, 3), real(rng, 4)), {"groups": 2},
               name="groups"),
        Sample((real(rng, 4, 5), real(rng, 4, 3, 3), real(rng, 3)), name="unbatched"),
        Sample((real(rng, 2, 4, 5), real(rng, 4, 3, 3), real(rng, 3)), {"stride": 2},
               name="transposed", transposed=True),
    ]


def conv_transpose2d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 4, 3, 4), real(rng, 4, 2, 3, 2), real(rng, 4)),
               {"stride": (2, 1), "padding": (1, 0), "output_padding": (1, 0), "groups": 2,
                "dilation": (1, 2)}, name="everything"),
        Sample((real(rng, 2, 3, 3, 3), real(rng, 3, 2, 2, 2)), {"stride": 2}, name="no_bias"),
        Sample((real(rng, 3, 4, 3), real(rng, 3, 2, 3, 3), real(rng, 2)), name="unbatched"),
        Sample((real(rng, 2, 3, 4, 3), real(rng, 3, 2, 2, 2), real(rng, 2)), {"padding": 1},
               name="transposed", transposed=True),
    ]


def conv3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 1, 2, 3, 4, 3), real(rng, 2, 2, 2, 2, 2), real(rng, 2)), name="plain"),
        Sample((real(rng, 2, 2, 3, 4, 3), real(rng, 2, 1, 2, 2, 1), real(rng, 2)),
               {"stride": (1, 2, 1), "padding": (1, 0, 1), "dilation": (2, 1, 1), "groups": 2},
               name="everything"),
        Sample((real(rng, 2, 3, 2, 3), real(rng, 2, 2, 3, 1, 3)), {"padding": "same"},
               name="unbatched_same"),
        Sample((real(rng, 1, 2, 3, 3, 4), real(rng, 2, 2, 1, 2, 2), real(rng, 2)),
               name="transposed", transposed=True),
    ]


CONV3D_BAD = (
    BadInput((np.ones((1, 3, 4, 4, 4)), np.ones((6, 2, 3, 3, 3))), name="channels"),
    BadInput((np.ones((2, 2, 1, 6, 6)), np.ones((6, 2, 3, 3, 3))), name="kernel_too_large"),
    BadInput((np.ones((2, 6, 6)), np.ones((6, 2, 3, 3, 3))), name="input_rank"),
    BadInput((np.ones((1, 2, 3, 3, 3)), np.ones((6, 2, 2, 2, 2))), {"stride": (1, 1)},
             name="stride_length"),
    BadInput((np.ones((1, 2, 3, 3, 3)), np.ones((6, 2, 2, 2, 2))), {"padding": "full"},
             name="padding_string"),
)


def conv_transpose3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 1, 4, 2, 3, 2), real(rng, 4, 1, 2, 2, 2), real(rng, 2)),
               {"stride": (2, 1, 2), "padding": (1, 0, 0), "output_padding": (1, 0, 1),
                "groups": 2, "dilation": (1, 2, 1)}, name="everything"),
        Sample((real(rng, 2, 2, 3, 2), real(rng, 2, 1, 2, 2, 2)), name="unbatched"),
        Sample((real(rng, 1, 2, 2, 3, 2), real(rng, 2, 2, 2, 1, 2), real(rng, 2)),
               {"stride": 2}, name="transposed", transposed=True),
    ]


CONV_TRANSPOSE3D_BAD = (
    BadInput((np.ones((1, 2, 3, 3, 3)), np.ones((2, 2, 2, 2, 2))), {"output_padding": 1},
             name="output_padding"),
    BadInput((np.ones((1, 2, 3, 3, 3)), np.ones((2, 2, 2, 2, 2))), {"padding": 5},
             name="output_too_small"),
    BadInput((np.ones((1, 3, 3, 3, 3)), np.ones((2, 2, 2, 2, 2))), name="channels"),
)


CONV_TRANSPOSE_BAD = (
    BadInput((np.ones((2, 4, 6)), np.ones((5, 3, 3))), name="channels"),
    BadInput((np.ones((2, 4, 6)), np.ones((4, 3, 3)), np.ones(4)), name="bias"),
    BadInput((np.ones((2, 4, 6)), np.ones((4, 3, 3))), {"output_padding": 1},
             name="output_padding"),
    BadInput((np.ones((2, 4, 6)), np.ones((4, 3, 3))), {"padding": -1}, name="negative_padding"),
    BadInput((np.ones((2, 4, 6)), np.ones((4, 3, 3))), {"groups": 3}, name="groups"),
    BadInput((np.ones((6,)), np.ones((4, 3, 3))), name="input_rank"),
    BadInput((np.ones((2, 4, 6)), np.ones((4, 3, 3))), {"padding": 5}, name="output_too_small"),
)


# --- pooling ----------------------------------------------------------------------------------

POOL_CONFIGS = (
    ("k2", {"kernel_size": 2}),
    ("k3_s2_p1", {"kernel_size": 3, "stride": 2, "padding": 1}),
    ("rectangular", {"kernel_size": (2, 3), "stride": (1, 2)}),
    ("ceil", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("ceil_no_padding", {"kernel_size": 2, "stride": 2, "ceil_mode": True}),
)


def pool_samples(extra: tuple[tuple[str, dict[str, Any]], ...] = ()) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample((real(rng, 2, 3, 5, 7),), kw, name=name)
               for name, kw in POOL_CONFIGS + extra]
        out += [
            Sample((real(rng, 3, 5, 6),), {"kernel_size": 2}, name="unbatched"),
            Sample((real(rng, 2, 3, 6, 5),), {"kernel_size": 2}, name="transposed",
                   transposed=True),
        ]
        return out

    return samples


POOL_BAD = (
    BadInput((np.ones((2, 4, 6, 6)),), {"kernel_size": 7}, name="output_too_small"),
    BadInput((np.ones((2, 4, 6, 6)),), {"kernel_size": 3, "padding": 2}, name="padding"),
    BadInput((np.ones((2, 4, 6, 6)),), {"kernel_size": 2, "stride": 0}, name="stride_0"),
    BadInput((np.ones((2, 4, 6, 6)),), {"kernel_size": -1}, name="negative_kernel"),
    BadInput((np.ones((2, 4, 6, 6)),), {"kernel_size": (2, 2, 2)}, name="kernel_length"),
    BadInput((np.ones((1, 2, 3, 6, 6)),), {"kernel_size": 2}, name="5d"),
    BadInput((np.ones((2, 0, 6, 6)),), {"kernel_size": 2}, name="no_channels"),
)


POOL3D_CONFIGS = (
    ("k2", {"kernel_size": 2}),
    ("uneven_padding", {"kernel_size": (2, 3, 2), "stride": (1, 2, 1), "padding": (1, 0, 1)}),
    ("ceil", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
)


def pool3d_samples(extra: tuple[tuple[str, dict[str, Any]], ...] = ()) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        return [Sample((real(rng, 1, 2, 3, 4, 3),), kw, name=name)
                for name, kw in POOL3D_CONFIGS + extra] + [
            Sample((real(rng, 2, 3, 4, 3),), {"kernel_size": 2, "stride": 1}, name="unbatched"),
            Sample((real(rng, 1, 2, 3, 3, 4),), {"kernel_size": 2}, name="transposed",
                   transposed=True),
        ]

    return samples


POOL3D_BAD = (
    BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": 5}, name="output_too_small"),
    BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": 3, "padding": 2}, name="padding"),
    BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": 2, "stride": 0}, name="stride_0"),
    BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": -1}, name="negative_kernel"),
    BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": (2, 2)}, name="kernel_length"),
    BadInput((np.ones((2, 4, 4)),), {"kernel_size": 2}, name="3d"),
    BadInput((np.ones((1, 0, 4, 4, 4)),), {"kernel_size": 2}, name="no_channels"),
    BadInput((np.ones((1, 2, 4, 4, 4), dtype=bool),), {"kernel_size": 2}, name="bool"),
)


POOL1D_CONFIGS = (
    ("k2", {"kernel_size": 2}),
    ("k3_s2_p1", {"kernel_size": 3, "stride": 2, "padding": 1}),
    ("ceil", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
)


def pool1d_samples(extra: tuple[tuple[str, dict[str, Any]], ...] = ()) -> Any:
    def samples(rng: np.random.Generator) -> list[Sample]:
        return [Sample((real(rng, 2, 3, 7),), kw, name=name)
                for name, kw in POOL1D_CONFIGS + extra] + [
            Sample((real(rng, 3, 6),), {"kernel_size": 2}, name="unbatched"),
            Sample((real(rng, 2, 6, 3),), {"kernel_size": 2}, name="transposed",
                   transposed=True),
        ]

    return samples


POOL1D_BAD = (
    BadInput((np.ones((2, 4, 6)),), {"kernel_size": 7}, name="output_too_small"),
    BadInput((np.ones((2, 4, 6)),), {"kernel_size": 3, "padding": 2}, name="padding"),
    BadInput((np.ones((2, 4, 6)),), {"kernel_size": 2, "stride": 0}, name="stride_0"),
    BadInput((np.ones((2, 4, 6)),), {"kernel_size": (2, 2)}, name="kernel_length"),
    BadInput((np.ones((2, 4, 6)),), {"kernel_size": 2, "padding": -1}, name="negative_padding"),
    BadInput((np.ones((1, 2, 4, 6)),), {"kernel_size": 2}, name="4d"),
    BadInput((np.ones((2, 0, 6)),), {"kernel_size": 2}, name="no_channels"),
)


ADAPTIVE_2D = (
    ("uneven", (2, 3, 5, 7), (3, 4)),  # bins of two lengths, overlapping by one
    ("none", (2, 3, 5, 7), (3, None)),  # None keeps the input's size
    ("upsampling", (2, 2, 3, 4), (5, 6)),  # more bins than positions
    ("unbatched", (3, 5, 6), 2),
    ("one", (2, 3, 4, 5), 1),  # average: PyTorch takes the mean over the plane
)


def adaptive_2d_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((real(rng, *shape), size), name=name) for name, shape, size in ADAPTIVE_2D] + [
        Sample((real(rng, 2, 3, 6, 5), (4, 3)), name="transposed", transposed=True)]


def adaptive_1d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 2, 3, 7), 3), name="uneven"),
        Sample((real(rng, 3, 3), (5,)), name="upsampling"),
        Sample((real(rng, 2, 5, 4), 1), name="one"),
        Sample((real(rng, 2, 6, 5), 2), name="transposed", transposed=True),
    ]


ADAPTIVE_3D = (
    ("uneven", (1, 2, 3, 5, 4), (2, 3, 3)),  # bins of two lengths, overlapping by one
    ("none_unbatched", (2, 3, 4, 3), (None, 2, 1)),  # None keeps the input's size
    ("upsampling", (1, 1, 2, 3, 2), (3, 4, 3)),  # more bins than positions
    ("one", (1, 2, 2, 3, 2), 1),  # average: PyTorch takes the mean over the volume
)


def adaptive_3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((real(rng, *shape), size), name=name) for name, shape, size in ADAPTIVE_3D] + [
        Sample((real(rng, 1, 2, 3, 4, 3), (2, 3, 2)), name="transposed", transposed=True)]


ADAPTIVE_3D_BAD = (
    BadInput((np.ones((1, 2, 4, 4, 4)), (1, 2)), name="two_sizes"),
    BadInput((np.ones((1, 2, 4, 4, 4)), (-1, 2, 2)), name="negative_size"),
    BadInput((np.ones((2, 4, 4)), 2), name="3d"),
    BadInput((np.ones((1, 0, 4, 4, 4)), 2), name="empty_channels"),
    BadInput((np.ones((1, 2, 4, 4, 4), dtype=np.int64), 2), name="integer"),
)


def fractional_2d_samples(rng: np.random.Generator) -> list[Sample]:
    # (the first: windows at every position whatever the samples, so that a call drawing its
    # own samples, as the misuse sweep makes, gives PyTorch's result too)
    return [
        Sample((real(rng, 1, 2, 4, 5), 2), {"output_size": (3, 4),
                                            "_random_samples": rng.random((1, 2, 2))},
               name="every_position"),
        Sample((real(rng, 2, 2, 5, 6), 2), {"output_size": (3, 4),
                                            "_random_samples": rng.random((2, 2, 2))},
               name="batched"),
        Sample((real(rng, 2, 6, 5), (3, 2)), {"output_ratio": (0.5, 0.5),
                                              "_random_samples": rng.random((1, 2, 2))},
               name="unbatched_ratio"),
        Sample((real(rng, 1, 2, 5, 5), 2), {"output_size": 3,
                                            "_random_samples": rng.random((1, 2, 2))},
               name="transposed", transposed=True),
    ]


def fractional_3d_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        # (windows two apart whatever the samples: (4 - 2) / (2 - 1) is a whole number)
        Sample((real(rng, 1, 2, 4, 4, 4), 2), {"output_size": 2,
                                               "_random_samples": rng.random((1, 2, 3))},
               name="every_other_position"),
        Sample((real(rng, 1, 2, 4, 5, 4), 2), {"output_size": (2, 2, 2),
                                               "_random_samples": rng.random((1, 2, 3))},
               name="batched"),
        Sample((real(rng, 2, 4, 4, 5), (2, 1, 3)), {"output_size": 2,
                                                    "_random_samples": rng.random((1, 2, 3))},
               name="unbatched"),
    ]


FRACTIONAL_BAD = (
    BadInput((np.ones((1, 2, 5, 5)), 2), {"output_size": 5,
                                          "_random_samples": np.full((1, 2, 2), 0.5)},
             name="kernel_too_large"),
    BadInput((np.ones((1, 2, 5, 5)), 2), {"output_size": 3,
                                          "_random_samples": np.full((1, 2, 3), 0.5)},
             name="samples_shape"),
    BadInput((np.ones((1, 2, 5, 5)), 2), {"output_size": 3,
                                          "_random_samples": np.full((1, 3, 2), 0.5)},
             name="samples_channels"),
    BadInput((np.ones((5, 5)), 2), {"output_size": 3}, name="2d"),
    BadInput((np.ones((1, 2, 5, 5)), (2, 2, 2)), {"output_size": 3}, name="kernel_length"),
    BadInput((np.ones((1, 2, 5, 5)), 2), name="no_size"),
)


ADAPTIVE_2D_BAD = (
    BadInput((np.ones((2, 4, 6, 6)), (1, 2, 3)), name="three_sizes"),
    BadInput((np.ones((2, 4, 6, 6)), (-1, 2)), name="negative_size"),
    BadInput((np.ones((1, 2, 4, 6, 6)), 2), name="5d"),
    BadInput((np.ones((6, 6)), (2, 2)), name="2d_with_pair"),
    BadInput((np.ones((6, 6)), 2), name="2d"),
    BadInput((np.ones((2, 4, 0, 6)), 2), name="empty_plane"),
    BadInput((np.ones((2, 4, 5, 6), dtype=np.int64), 2), name="integer"),
)

ADAPTIVE_1D_BAD = (
    BadInput((np.ones((2, 4, 6, 6)), 2), name="4d"),
    BadInput((np.ones((6,)), 2), name="1d"),
    BadInput((np.ones((2, 6)), (2, 3)), name="two_sizes"),
    BadInput((np.ones((2, 0)), 2), name="empty"),
    BadInput((np.ones((2, 6)), -1), name="negative_size"),
)


# --- the rows ---------------------------------------------------------------------------------


def _loss(name: str) -> Any:
    return lambda lib, *args, **kwargs: getattr(F(lib), name)(*args, **kwargs)


OPS: list[OpInfo] = [
    OpInfo("F.linear", lambda lib, *a: F(lib).linear(*a), linear_samples,
           bad_inputs=LINEAR_BAD),
    OpInfo("F.linear_input_only", lambda lib, *a: F(lib).linear(*a), linear_2d_samples,
           grad_args=(0,)),
    OpInfo("F.linear_weight_only", lambda lib, *a: F(lib).linear(*a), linear_2d_samples,
           grad_args=(1,)),
    OpInfo("F.mse_loss", _loss("mse_loss"), pointwise_loss_samples(), bad_inputs=POINTWISE_BAD),
    OpInfo("F.mse_loss_input_only", _loss("mse_loss"), pointwise_loss_samples(),
           grad_args=(0,)),
    OpInfo("F.mse_loss_weighted", _loss("mse_loss"), weighted_loss_samples),
    OpInfo("F.l1_loss", _loss("l1_loss"), pointwise_loss_samples()),
    OpInfo("F.l1_loss_weighted", _loss("l1_loss"), weighted_loss_samples),
    OpInfo("F.smooth_l1_loss", _loss("smooth_l1_loss"), pointwise_loss_samples(),
           bad_inputs=POINTWISE_BAD),
    OpInfo("F.smooth_l1_loss_beta", _loss("smooth_l1_loss"),
           pointwise_loss_samples(beta=0.5)),
    OpInfo("F.smooth_l1_loss_beta_0", _loss("smooth_l1_loss"),
           pointwise_loss_samples(beta=0.0)),
    OpInfo("F.huber_loss", _loss("huber_loss"), pointwise_loss_samples(delta=0.7),
           bad_inputs=POINTWISE_BAD),
    OpInfo("F.huber_loss_weighted", _loss("huber_loss"), weighted_loss_samples),
    OpInfo("F.binary_cross_entropy", _loss("binary_cross_entropy"), bce_samples,
           bad_inputs=BCE_BAD),
    OpInfo("F.binary_cross_entropy_input_only", _loss("binary_cross_entropy"), bce_samples,
           grad_args=(0,)),
    OpInfo("F.binary_cross_entropy_with_logits", _loss("binary_cross_entropy_with_logits"),
           bce_logits_samples, bad_inputs=BCE_LOGITS_BAD),
    OpInfo("F.nll_loss", _loss("nll_loss"), nll_samples, bad_inputs=NLL_BAD),
    OpInfo("F.cross_entropy", _loss("cross_entropy"), cross_entropy_samples,
           bad_inputs=CROSS_ENTROPY_BAD),
    OpInfo("F.cross_entropy_logits_only", _loss("cross_entropy"), cross_entropy_samples,
           grad_args=(0,)),
    OpInfo("F.kl_div", _loss("kl_div"), kl_samples),
    OpInfo("F.kl_div_input_only", _loss("kl_div"), kl_samples, grad_args=(0,)),
    OpInfo("F.cosine_similarity", _loss("cosine_similarity"), cosine_samples,
           bad_inputs=COSINE_BAD),
    OpInfo("F.dropout", _loss("dropout"), dropout_samples, bad_inputs=DROPOUT_BAD),
    OpInfo("F.layer_norm", _loss("layer_norm"), layer_norm_samples, bad_inputs=LAYER_NORM_BAD,
           atol=1e-4),
    # gradgrad off: PyTorch's own double backward raises when there is a bias but no weight
    # ("Expected a proper Tensor but got None ... for argument #1 'other'"); minigrad's works.
    OpInfo("F.layer_norm_bias_only", _loss("layer_norm"),
           lambda rng: [Sample((real(rng, 4, 5), (5,), None, real(rng, 5)), name="2d")],
           atol=1e-4, gradgrad=False),
    # The running statistics (positions 1, 2) never require grad.
    OpInfo("F.batch_norm", _loss("batch_norm"), batch_norm_samples, grad_args=(0, 3, 4),
           bad_inputs=BATCH_NORM_BAD, atol=1e-4),
    OpInfo("F.embedding", _loss("embedding"), embedding_samples, bad_inputs=EMBEDDING_BAD),
    # No second derivative: PyTorch's first gradient's node is NotImplemented.
    OpInfo("F.ctc_loss", _ctc, ctc_samples, bad_inputs=CTC_BAD, gradgrad=False, grad_args=(0,),
           op="F.ctc_loss"),
    OpInfo("F.conv2d", _loss("conv2d"), conv2d_samples, bad_inputs=CONV2D_BAD, atol=1e-4),
    OpInfo("F.conv2d_input_only", _loss("conv2d"), conv2d_samples, grad_args=(0,), atol=1e-4),
    OpInfo("F.conv2d_weight_only", _loss("conv2d"), conv2d_samples, grad_args=(1,), atol=1e-4),
    OpInfo("F.conv1d", _loss("conv1d"), conv1d_samples, bad_inputs=CONV1D_BAD, atol=1e-4),
    OpInfo("F.conv_transpose1d", _loss("conv_transpose1d"), conv_transpose1d_samples,
           bad_inputs=CONV_TRANSPOSE_BAD, atol=1e-4),
    OpInfo("F.conv_transpose2d", _loss("conv_transpose2d"), conv_transpose2d_samples,
           atol=1e-4),
    OpInfo("F.conv3d", _loss("conv3d"), conv3d_samples, bad_inputs=CONV3D_BAD, atol=1e-4),
    OpInfo("F.conv_transpose3d", _loss("conv_transpose3d"), conv_transpose3d_samples,
           bad_inputs=CONV_TRANSPOSE3D_BAD, atol=1e-4),
    OpInfo("conv3d", lambda lib, *a, **kw: lib.conv3d(*a, **kw), first(conv3d_samples, 1),
           atol=1e-4),
    OpInfo("conv_transpose3d", lambda lib, *a, **kw: lib.conv_transpose3d(*a, **kw),
           first(conv_transpose3d_samples, 1), atol=1e-4),
    OpInfo("conv1d", lambda lib, *a, **kw: lib.conv1d(*a, **kw), first(conv1d_samples, 1)),
    OpInfo("conv2d", lambda lib, *a, **kw: lib.conv2d(*a, **kw), first(conv2d_samples, 1),
           atol=1e-4),
    OpInfo("conv_transpose1d", lambda lib, *a, **kw: lib.conv_transpose1d(*a, **kw),
           first(conv_transpose1d_samples, 1), atol=1e-4),
    OpInfo("conv_transpose2d", lambda lib, *a, **kw: lib.conv_transpose2d(*a, **kw),
           first(conv_transpose2d_samples, 1), atol=1e-4),
    OpInfo("F.pixel_shuffle", _loss("pixel_shuffle"), lambda rng: [
        Sample((real(rng, 2, 8, 2, 3), 2), name="batched"),
        Sample((real(rng, 2, 1, 9, 2, 2), 3), name="two_batch_dims"),
        Sample((real(rng, 4, 3, 2), 2), name="transposed", transposed=True),
    ], bad_inputs=(
        BadInput((np.ones((7, 3, 3)), 2), name="channels"),
        BadInput((np.ones((3, 3)), 2), name="2d"),
        BadInput((np.ones((8, 3, 3)), 0), name="factor_0"),
    )),
    OpInfo("F.pixel_unshuffle", _loss("pixel_unshuffle"), lambda rng: [
        Sample((real(rng, 2, 2, 4, 6), 2), name="batched"),
        Sample((real(rng, 1, 3, 3), 3), name="unbatched"),
        Sample((real(rng, 2, 4, 4), 2), name="transposed", transposed=True),
    ], bad_inputs=(
        BadInput((np.ones((8, 3, 4)), 2), name="height"),
        BadInput((np.ones((8, 4, 3)), 2), name="width"),
        BadInput((np.ones((8, 4, 4)), -1), name="negative_factor"),
    )),
    OpInfo("pixel_shuffle", lambda lib, x, r: lib.pixel_shuffle(x, r),
           lambda rng: [Sample((real(rng, 2, 8, 2, 3), 2), name="batched")]),
    OpInfo("pixel_unshuffle", lambda lib, x, r: lib.pixel_unshuffle(x, r),
           lambda rng: [Sample((real(rng, 2, 2, 4, 6), 2), name="batched")]),
    OpInfo("F.max_pool2d", _loss("max_pool2d"),
           pool_samples((("dilation", {"kernel_size": 2, "stride": 1, "dilation": 2}),)),
           bad_inputs=POOL_BAD),
    OpInfo("F.max_pool2d_with_indices", _loss("max_pool2d_with_indices"),
           pool_samples(), output_index=0),
    OpInfo("F.max_pool1d", _loss("max_pool1d"),
           pool1d_samples((("dilation", {"kernel_size": 2, "stride": 1, "dilation": 2}),)),
           bad_inputs=POOL1D_BAD),
    OpInfo("F.max_pool1d_with_indices", _loss("max_pool1d_with_indices"), pool1d_samples(),
           output_index=0, bad_inputs=POOL1D_BAD),
    OpInfo("F.avg_pool1d", _loss("avg_pool1d"),
           pool1d_samples((("exclude_padding", {"kernel_size": 3, "stride": 2, "padding": 1,
                                                "count_include_pad": False}),)),
           bad_inputs=POOL1D_BAD),
    OpInfo("max_pool1d", lambda lib, x, **kw: lib.max_pool1d(x, **kw),
           first(pool1d_samples(), 2)),
    OpInfo("max_pool1d_with_indices", lambda lib, x, **kw: lib.max_pool1d_with_indices(x, **kw),
           first(pool1d_samples(), 2), output_index=0),
    OpInfo("avg_pool1d", lambda lib, x, **kw: lib.avg_pool1d(x, **kw),
           first(pool1d_samples(), 2)),
    OpInfo("max_pool2d", lambda lib, x, **kw: lib.max_pool2d(x, **kw), first(pool_samples(), 2)),
    OpInfo("F.avg_pool2d", _loss("avg_pool2d"),
           pool_samples((
               ("exclude_padding", {"kernel_size": 3, "stride": 2, "padding": 1,
                                    "count_include_pad": False}),
               ("ceil_exclude_padding", {"kernel_size": 3, "stride": 2, "padding": 1,
                                         "ceil_mode": True, "count_include_pad": False}),
               ("divisor", {"kernel_size": (2, 3), "divisor_override": 4}),
           )),
           bad_inputs=POOL_BAD),
    OpInfo("F.max_pool3d", _loss("max_pool3d"),
           pool3d_samples((("dilation", {"kernel_size": 2, "stride": 1, "dilation": (1, 2, 1)}),)),
           bad_inputs=POOL3D_BAD),
    OpInfo("F.max_pool3d_with_indices", _loss("max_pool3d_with_indices"),
           first(pool3d_samples(), 2), output_index=0),
    OpInfo("max_pool3d", lambda lib, x, **kw: lib.max_pool3d(x, **kw), first(pool3d_samples(), 1)),
    OpInfo("F.avg_pool3d", _loss("avg_pool3d"),
           pool3d_samples((
               ("ceil_exclude_padding", {"kernel_size": 3, "stride": 2, "padding": 1,
                                         "ceil_mode": True, "count_include_pad": False}),
               ("divisor", {"kernel_size": (2, 3, 1), "divisor_override": 4}),
           )),
           bad_inputs=POOL3D_BAD + (
               BadInput((np.ones((1, 2, 2, 4, 4)),), {"kernel_size": (3, 1, 1),
                                                       "padding": (1, 0, 0)},
                        name="input_smaller_than_kernel"),
               BadInput((np.ones((1, 2, 4, 4, 4)),), {"kernel_size": 2, "divisor_override": 0},
                        name="divisor_0"),
           )),
    OpInfo("F.adaptive_avg_pool2d", _loss("adaptive_avg_pool2d"), adaptive_2d_samples,
           bad_inputs=ADAPTIVE_2D_BAD),
    OpInfo("F.adaptive_max_pool2d", _loss("adaptive_max_pool2d"), adaptive_2d_samples,
           bad_inputs=ADAPTIVE_2D_BAD),
    OpInfo("F.adaptive_max_pool2d_with_indices",
           lambda lib, x, size: F(lib).adaptive_max_pool2d(x, size, return_indices=True),
           first(adaptive_2d_samples, 2), output_index=0, op="F.adaptive_max_pool2d"),
    OpInfo("F.adaptive_max_pool2d_with_indices_function",
           _loss("adaptive_max_pool2d_with_indices"), first(adaptive_2d_samples, 2),
           output_index=0, op="F.adaptive_max_pool2d_with_indices"),
    OpInfo("F.adaptive_avg_pool3d", _loss("adaptive_avg_pool3d"), adaptive_3d_samples,
           bad_inputs=ADAPTIVE_3D_BAD),
    OpInfo("F.adaptive_max_pool3d", _loss("adaptive_max_pool3d"), adaptive_3d_samples,
           bad_inputs=ADAPTIVE_3D_BAD),
    OpInfo("F.adaptive_max_pool3d_with_indices", _loss("adaptive_max_pool3d_with_indices"),
           first(adaptive_3d_samples, 2), output_index=0),
    OpInfo("F.adaptive_max_pool1d_with_indices", _loss("adaptive_max_pool1d_with_indices"),
           first(adaptive_1d_samples, 2), output_index=0),
    OpInfo("F.fractional_max_pool2d", _loss("fractional_max_pool2d"), fractional_2d_samples,
           bad_inputs=FRACTIONAL_BAD),
    OpInfo("F.fractional_max_pool2d_with_indices", _loss("fractional_max_pool2d_with_indices"),
           first(fractional_2d_samples, 1), output_index=0),
    OpInfo("F.fractional_max_pool3d", _loss("fractional_max_pool3d"), fractional_3d_samples,
           bad_inputs=(
               BadInput((np.ones((1, 2, 3, 5, 5)), 2), {"output_size": 3,
                                                        "_random_samples": np.ones((1, 2, 3))},
                        name="kernel_too_large"),
               BadInput((np.ones((5, 5, 5)), 2), {"output_size": 3}, name="3d"),
           )),
    OpInfo("F.fractional_max_pool3d_with_indices", _loss("fractional_max_pool3d_with_indices"),
           first(fractional_3d_samples, 1), output_index=0),
    OpInfo("F.adaptive_avg_pool1d", _loss("adaptive_avg_pool1d"), adaptive_1d_samples,
           bad_inputs=ADAPTIVE_1D_BAD),
    OpInfo("F.adaptive_max_pool1d", _loss("adaptive_max_pool1d"), adaptive_1d_samples,
           bad_inputs=ADAPTIVE_1D_BAD),
    OpInfo("adaptive_avg_pool1d", lambda lib, x, size: lib.adaptive_avg_pool1d(x, size),
           first(adaptive_1d_samples, 1)),
    OpInfo("adaptive_max_pool1d", lambda lib, x, size: lib.adaptive_max_pool1d(x, size),
           first(adaptive_1d_samples, 1), output_index=0),
    OpInfo("F.softmax", lambda lib, x, dim: F(lib).softmax(x, dim),
           lambda rng: [Sample((real(rng, 3, 4), 1), name="2d"),
                        Sample((real(rng, 2, 3, 4), 0), name="3d")]),
    OpInfo("F.log_softmax", lambda lib, x, dim: F(lib).log_softmax(x, dim),
           lambda rng: [Sample((real(rng, 3, 4), 1), name="2d"),
                        Sample((real(rng, 2, 3, 4), -1), name="3d")]),
    OpInfo("F.relu", lambda lib, x: F(lib).relu(x),
           lambda rng: [Sample((real(rng, 3, 4),), name="2d")]),
    OpInfo("F.sigmoid", lambda lib, x: F(lib).sigmoid(x),
           lambda rng: [Sample((real(rng, 3, 4),), name="2d")]),
    OpInfo("F.tanh", lambda lib, x: F(lib).tanh(x),
           lambda rng: [Sample((real(rng, 3, 4),), name="2d")]),
    OpInfo("F.bilinear", lambda lib, x1, x2, w, b: F(lib).bilinear(x1, x2, w, b),
           lambda rng: [
               Sample((real(rng, 3, 2), real(rng, 3, 4), real(rng, 5, 2, 4), real(rng, 5)),
                      name="2d"),
               Sample((real(rng, 2, 3, 2), real(rng, 2, 3, 4), real(rng, 1, 2, 4), real(rng, 1)),
                      name="batch"),
           ]),
    OpInfo("F.bilinear_no_bias", lambda lib, x1, x2, w: F(lib).bilinear(x1, x2, w),
           lambda rng: [Sample((real(rng, 3, 2), real(rng, 3, 4), real(rng, 5, 2, 4)),
                               name="2d")], op="F.bilinear"),
]
