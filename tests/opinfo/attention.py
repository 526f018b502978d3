"""Op-table row of ``F.scaled_dot_product_attention`` (ops/attention.py, PyTorch's math path).

The samples cover what changes the computation: a float mask broadcast over batch and heads,
a boolean mask with a fully masked query (zeros, not nan), ``is_causal`` with a negative
``scale``, grouped-query heads, 2-D (a matrix product: ``MmBackward0``) and transposed inputs.
Dropout is random (the generators differ): its row uses the deterministic p = 1. The samples
keep value's head size apart from query's: with equal sizes PyTorch's CPU takes its flash
kernel instead of the math path (another node, other saved tensors, no double backward).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample


def _sdpa(lib: Any, *args: Any, **kwargs: Any) -> Any:
    return lib.nn.functional.scaled_dot_product_attention(*args, **kwargs)


def _real(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


def sdpa_samples(rng: np.random.Generator) -> list[Sample]:
    float_mask = _real(rng, 3, 4)
    # (the last query is masked from every key: zeros, not nan; no -inf in a float sample:
    # the misuse sweep casts samples to integers)
    bool_mask = np.array(
        [[True, False, True, True], [False, True, True, False], [False, False, False, False]]
    )
    return [
        Sample(
            (_real(rng, 2, 2, 3, 5), _real(rng, 2, 2, 4, 5), _real(rng, 2, 2, 4, 2)),
            {"attn_mask": float_mask},
            name="float_mask",
        ),
        Sample(
            (_real(rng, 2, 3, 5), _real(rng, 2, 4, 5), _real(rng, 2, 4, 2)),
            {"attn_mask": bool_mask},
            name="bool_mask",
        ),
        Sample(
            (_real(rng, 2, 4, 3, 2), _real(rng, 2, 2, 4, 2), _real(rng, 2, 2, 4, 3)),
            {"is_causal": True, "scale": -0.7, "enable_gqa": True},
            name="causal_gqa",
        ),
        Sample((_real(rng, 3, 5), _real(rng, 4, 5), _real(rng, 4, 3)), name="2d", transposed=True),
        # a 1-d mask broadcasts over the queries, unless PyTorch tries its 4-d flash kernel
        Sample(
            (_real(rng, 2, 3, 5), _real(rng, 2, 4, 5), _real(rng, 2, 4, 2)),
            {"attn_mask": _real(rng, 4)},
            name="1d_mask",
        ),
    ]


SDPA_BAD = (
    BadInput(
        (np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))),
        {"attn_mask": np.zeros((3, 4)), "is_causal": True},
        name="causal_and_mask",
    ),
    BadInput(
        (np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))),
        {"attn_mask": np.zeros((3, 4), dtype=np.int64)},
        name="mask_dtype",
    ),
    BadInput((np.ones(2), np.ones(2), np.ones(2)), name="rank"),
    BadInput((np.ones((3, 2)), np.ones((4, 3)), np.ones((4, 2))), name="embedding_sizes"),
    BadInput((np.ones((3, 2), dtype=np.int64),) * 3, name="integer"),
    BadInput(
        (np.ones((2, 3, 3, 2)), np.ones((2, 2, 4, 2)), np.ones((2, 2, 4, 2))),
        {"enable_gqa": True},
        name="heads",
    ),
    BadInput(
        (np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))), {"dropout_p": 1.5}, name="dropout_p"
    ),
    BadInput(
        (np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))), {"is_causal": 1}, name="is_causal_type"
    ),
    BadInput(
        (np.ones((1, 2, 3, 2)), np.ones((1, 2, 4, 2)), np.ones((1, 2, 4, 2))),
        {"attn_mask": np.zeros(4), "is_causal": True},
        name="flash_1d_mask",
    ),
    BadInput(
        (np.ones((1, 2, 3, 2)), np.ones((1, 2, 4, 2)), np.ones((1, 2, 4, 3))),
        {"attn_mask": np.array(True)},
        name="flash_0d_mask",
    ),
    BadInput(
        (np.ones((1, 2, 3, 2)), np.ones((1, 2, 4, 2)), np.ones((1, 2, 4, 2))),
        {"dropout_p": 2.0},
        name="dropout_p_shown_as_cpp",
    ),
)

OPS: list[OpInfo] = [
    OpInfo("F.scaled_dot_product_attention", _sdpa, sdpa_samples, bad_inputs=SDPA_BAD),
    OpInfo(
        "F.scaled_dot_product_attention_dropout_all",
        lambda lib, q, k, v: _sdpa(lib, q, k, v, dropout_p=1.0),
        lambda rng: [
            Sample((_real(rng, 2, 3, 2), _real(rng, 2, 4, 2), _real(rng, 2, 4, 3)), name="3d")
        ],
        op="F.scaled_dot_product_attention",
    ),
]


def _mha(
    lib: Any, q: Any, k: Any, v: Any, w_in: Any, b_in: Any, w_out: Any, b_out: Any, **kwargs: Any
) -> Any:
    return lib.nn.functional.multi_head_attention_forward(
        q, k, v, 4, 2, w_in, b_in, None, None, False, 0.0, w_out, b_out, **kwargs
    )


def mha_samples(rng: np.random.Generator) -> list[Sample]:
    weights = (_real(rng, 12, 4), _real(rng, 12), _real(rng, 4, 4), _real(rng, 4))
    padding = np.array([[False, False, True], [False, True, True]])
    return [
        Sample(
            (_real(rng, 2, 2, 4), _real(rng, 3, 2, 4), _real(rng, 3, 2, 4), *weights),
            {"key_padding_mask": padding, "average_attn_weights": False},
            name="padding",
        ),
    ]
    # (need_weights=False goes through scaled_dot_product_attention, where PyTorch takes its
    # flash kernel for equal head sizes: tests_torch/test_nn_seq_torch.py compares it.)


_MHA_ARGS = (
    np.ones((2, 1, 4)),
    np.ones((3, 1, 4)),
    np.ones((3, 1, 4)),
    np.ones((12, 4)),
    None,
    np.ones((4, 4)),
    None,
)
MHA_BAD = (
    BadInput(_MHA_ARGS[:2] + (np.ones((2, 1, 4)),) + _MHA_ARGS[3:], name="key_value_shapes"),
    BadInput(_MHA_ARGS, {"is_causal": True}, name="causal_without_mask"),
    BadInput(_MHA_ARGS, {"attn_mask": np.zeros((2, 2))}, name="mask_shape"),
    BadInput(_MHA_ARGS, {"key_padding_mask": np.zeros(3, dtype=bool)}, name="padding_rank"),
    BadInput(
        _MHA_ARGS, {"key_padding_mask": np.zeros((1, 3), dtype=np.int64)}, name="padding_dtype"
    ),
)

OPS += [
    OpInfo(
        "F.multi_head_attention_forward",
        _mha,
        mha_samples,
        output_index=0,
        bad_inputs=MHA_BAD,
        atol=1e-4,
    ),
]
