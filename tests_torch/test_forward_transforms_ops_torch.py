"""``minigrad.func.jvp`` on every op-table row against PyTorch's forward mode (float64).

minigrad has no forward mode: ``jvp`` computes ``J v`` by the double-backward trick (the
gradient of ``(J^T u) . v`` with respect to a dummy ``u``), so an op whose backward is not
itself recorded raises or gives zeros where PyTorch's forward mode works. This sweep calls
``minigrad.func.jvp`` and ``torch.func.jvp`` on the same function of each differentiable row
(the row's call with its grad arguments as primals, every other argument fixed), for every
sample, with random float64 tangents, and compares the primal outputs and the tangent outputs
(rtol 1e-7). One test per row, looping over its samples (its messages name the sample).

Where PyTorch's forward mode raises (no forward formula, or a functorch limit such as a
resize in the op), minigrad may raise or work: ``TORCH_RAISES`` records which. Where the two
differ and PyTorch works, ``DIFFERENCES`` says why, per row and sample; those cases must still
differ (a fix shows up as a failure until its entry goes). ``jacfwd`` is compared on a few
representative rows.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo import OpInfo, Sample, all_ops
from test_ops import build_args, call, has_grad_argument, is_edge, row_rng

import minigrad

torch = pytest.importorskip("torch")

ROWS = [row for row in all_ops() if row.differentiable]

# Where PyTorch's forward mode raises: what minigrad does ("works", "raises"), per row, or per
# sample name for rows where it depends ("*": the other samples).
TORCH_RAISES: dict[str, Any] = {
    # No forward formula in PyTorch (NotImplementedError "Trying to use forward AD with ...").
    **dict.fromkeys(["rrelu_", "F.rrelu_", "rrelu__top", "cholesky_legacy", "index_reduce",
                     "index_reduce_function", "index_reduce_source_only", "index_reduce_inplace",
                     "ormqr", "ormqr_method", "cdist_mm", "F.embedding_bag_weight_only",
                     "special.zeta", "special.zeta_number_first", "igamma", "igammac",
                     "igamma_method", "igammac_function", "igamma_", "igammac_",
                     "special.gammainc", "special.gammaincc"], "works"),
    # No forward formula in PyTorch, and no second derivative in minigrad either (PyTorch has
    # none: their backward's derivative raises).
    **dict.fromkeys(["F.grid_sample", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d",
                     "cdist", "F.ctc_loss", "ctc_loss_top", "F.pdist", "pdist_top",
                     "F.multi_margin_loss", "F.multilabel_margin_loss"], "raises"),
    # functorch's limits, not forward formulas: a resized output ("output with shape [4]
    # doesn't match the broadcast shape"), a broadcast tangent of another size, an expanded
    # bias, RNN weights flattened in place: minigrad works.
    "addbmm_resizing": "works",
    "triangular_solve": "works",
    "triangular_solve_coefficient": "works",
    "F.linear": "works",
    "norm_except_dim": "works",
    "view_copy": "works",
    **dict.fromkeys(["lstm", "gru", "rnn_tanh", "rnn_relu"], "works"),
    # scatter_reduce_ with include_self=False has no forward formula for the undefined self
    # tangent ("Expected a proper Tensor but got None"); two zeros scattered to one place have
    # no double backward in either library.
    "scatter_reduce_inplace": {"edge_two_zeros": "raises", "*": "works"},
    # The per-sample weights' gradient has no derivative (a NotImplemented node, as PyTorch's).
    "F.embedding_bag": {"per_sample_weights_last_offset": "raises", "*": "works"},
    "embedding_bag": {"weighted_sum": "raises", "*": "works"},
}

_PYTORCH_FORWARD = (
    "PyTorch's forward formula disagrees with finite differences of its own function and "
    "with its reverse mode; minigrad's J v agrees with both"
)
_KINK = (
    "a point where the op is not differentiable: PyTorch's forward formula picks another "
    "one-sided derivative than its backward, and minigrad's J v is its backward's transpose"
)
_OUT_OF_DOMAIN = (
    "a point outside the domain (or where a clamp switches): nan versus inf or 0 depends on "
    "how each formula is written"
)

_NO_DOUBLE_BACKWARD = (
    "PyTorch has no derivative of hardsigmoid_backward (its reverse-over-reverse raises, and "
    "minigrad keeps that NotImplemented node): the double-backward trick raises with it"
)
_NO_BACKWARD = "PyTorch's own backward raises here, so minigrad's (and the trick) does too"

# Where PyTorch works and minigrad raises or differs: row -> {sample name (or "*"): why}.
DIFFERENCES: dict[str, dict[str, str]] = {
    "triangular_solve": dict.fromkeys(["upper", "transpose", "transposed"], _PYTORCH_FORWARD),
    "cholesky_inverse": {"*": _PYTORCH_FORWARD},
    "cholesky_inverse_method": {"*": _PYTORCH_FORWARD},
    "scatter_reduce": {
        **dict.fromkeys(["prod_True", "prod_False", "0d", "edge_zeros"], _PYTORCH_FORWARD),
        "edge_two_zeros": "two zeros scattered to one place: no double backward (PyTorch's "
        "raises too)",
    },
    **{name: {"edge": _KINK} for name in ["maximum", "minimum", "fmax", "clamp_tensor_min_only",
                                          "clamp_tensor_max_only"]},
    "median": {"edge1": _KINK},
    "nanmedian": {"edge2": _KINK},
    "var_empty_dim_list": dict.fromkeys(["edge_2d", "edge_3d"], _KINK),
    "F.embedding": dict.fromkeys(
        ["edge_padding", "edge_padding_negative", "edge_scale_by_frequency"],
        "PyTorch's forward formula ignores padding_idx and scale_grad_by_freq (its backward "
        "does not): minigrad's J v follows the backward",
    ),
    "embedding_top": {"edge_padding_scaled": "as F.embedding's edge samples"},
    **{name: {"edge": _OUT_OF_DOMAIN} for name in ["logit", "logit_eps", "atan2"]},
    "logcumsumexp": dict.fromkeys(["edge0", "edge1"], _OUT_OF_DOMAIN + " (-inf inputs)"),
    # The trick needs a backward, and these have none (PyTorch's raises too; its forward
    # formulas do not need it).
    **{name: {"*": _NO_DOUBLE_BACKWARD} for name in ["hardsigmoid", "hardsigmoid_"]},
    **{name: {"edge_p0": _NO_BACKWARD + " (p = 0)"} for name in ["dist", "dist_method"]},
    "F.nll_loss": {"edge_1d_target_of_one": _NO_BACKWARD + " (a (1,) target for a (C,) input)"},
    "F.cosine_similarity": {"edge_large_eps": _KINK},
    "F.gaussian_nll_loss": {"edge_clamped": _KINK},
}


def _array(tensor: Any) -> np.ndarray:
    """The values of a tensor of either library (PyTorch's ZeroTensor tangents as zeros)."""
    if getattr(tensor, "_is_zerotensor", lambda: False)():
        return np.zeros(tuple(tensor.shape))
    return np.array(tensor.detach().numpy(), copy=True)


def _tangents(shapes: list[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in shapes]


def _function(lib: Any, row: OpInfo, sample: Sample) -> tuple[Any, tuple[Any, ...]]:
    """``(f, primals)``: the row's call as a function of its grad arguments (float64)."""
    args, kwargs, positions = build_args(lib, row, sample, "float64")
    args = [a.detach() if isinstance(a, lib.Tensor) else a for a in args]

    def f(*primals: Any) -> Any:
        full = list(args)
        for position, primal in zip(positions, primals, strict=True):
            full[position] = primal
        return call(lib, row, full, kwargs)

    return f, tuple(args[p] for p in positions)


def _jvp(lib: Any, row: OpInfo, sample: Sample) -> tuple[Any, BaseException | None]:
    """``((output, tangent), None)`` of ``lib.func.jvp``, or ``(None, error)``."""
    f, primals = _function(lib, row, sample)
    tangents = tuple(lib.from_numpy(t) for t in _tangents([tuple(p.shape) for p in primals], 7))
    try:
        with warnings.catch_warnings():  # (values are compared here, warnings elsewhere)
            warnings.simplefilter("ignore")
            return lib.func.jvp(f, primals, tangents), None
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's outcome
        return None, error


def _central_differences(row: OpInfo, sample: Sample) -> Any:
    """``(f(p + eps t) - f(p - eps t)) / 2 eps`` of PyTorch's function, for ``_jvp``'s tangents.

    The reference where PyTorch's forward mode raises but its function runs (float64).
    """
    f, primals = _function(torch, row, sample)
    tangents = _tangents([tuple(p.shape) for p in primals], 7)
    eps = 1e-6
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plus = f(*(p + eps * torch.from_numpy(t) for p, t in zip(primals, tangents, strict=True)))
        minus = f(*(p - eps * torch.from_numpy(t) for p, t in zip(primals, tangents, strict=True)))
    return (plus - minus) / (2 * eps)


def _difference(mine: Any, m_error: Any, theirs: Any) -> str | None:
    """Why minigrad's ``(output, tangent)`` is not PyTorch's, or None if they agree."""
    if m_error is not None:
        return f"minigrad raised {m_error!r}"
    for what, m, t in zip(("output", "tangent"), mine, theirs, strict=True):
        if tuple(m.shape) != tuple(t.shape):
            return f"{what} shape {tuple(m.shape)} != {tuple(t.shape)}"
        try:
            np.testing.assert_allclose(_array(m), _array(t), rtol=1e-7, atol=1e-9,
                                       equal_nan=True)
        except AssertionError as failure:
            return f"{what}: {failure}"
    return None


def _expected_when_torch_raises(row: OpInfo, sample: Sample) -> str | None:
    entry = TORCH_RAISES.get(row.name)
    if isinstance(entry, dict):
        return entry.get(sample.name, entry.get("*"))
    return entry


@parametrize_in_one("row", ROWS, ids=[row.name for row in ROWS],
                    per_test=35)
def test_jvp_matches_pytorch_forward_mode(row: OpInfo) -> None:
    failures = []
    for index, sample in enumerate(row.samples(row_rng(row.name))):
        if not has_grad_argument(row, sample):
            continue  # (no primal: both refuse an empty tuple)
        name = sample.name or str(index)
        theirs, t_error = _jvp(torch, row, sample)
        mine, m_error = _jvp(minigrad, row, sample)
        if t_error is not None:
            outcome = "works" if m_error is None else "raises"
            expected = _expected_when_torch_raises(row, sample)
            if outcome != expected:
                failures.append(f"{name}: PyTorch raises {t_error!r}; minigrad {outcome}, "
                                f"TORCH_RAISES says {expected}")
            elif outcome == "works" and not is_edge(sample):
                # Working means the right values (not zeros from a backward without history).
                try:
                    np.testing.assert_allclose(_array(mine[1]),
                                               _array(_central_differences(row, sample)),
                                               rtol=1e-5, atol=1e-6)
                except AssertionError as failure:
                    failures.append(f"{name}: tangent against finite differences: {failure}")
            continue
        difference = _difference(mine, m_error, theirs)
        known = DIFFERENCES.get(row.name, {})
        reason = known.get(name, known.get("*"))
        if difference is not None and reason is None:
            failures.append(f"{name}: {difference}")
        elif difference is None and reason is not None:
            failures.append(f"{name}: agrees with PyTorch now; drop its DIFFERENCES entry")
    assert not failures, "\n".join(failures)


JACFWD_ROWS = ["mul", "sigmoid", "matmul", "softmax", "logsumexp", "cumprod", "F.conv2d",
               "linalg_solve", "F.layer_norm", "where", "max_dim", "F.cross_entropy"]


@pytest.mark.parametrize("name", JACFWD_ROWS)
def test_jacfwd_matches_pytorch(name: str) -> None:
    (row,) = [row for row in ROWS if row.name == name]
    sample = next(s for s in row.samples(row_rng(row.name)) if has_grad_argument(row, s))
    results = []
    for lib in (torch, minigrad):
        f, primals = _function(lib, row, sample)
        with warnings.catch_warnings():  # (torch.func's jacfwd warns about torch.jit)
            warnings.simplefilter("ignore")
            results.append(lib.func.jacfwd(f, argnums=tuple(range(len(primals))))(*primals))
    theirs, mine = results
    assert len(mine) == len(theirs)
    for index, (m, t) in enumerate(zip(mine, theirs, strict=True)):
        assert tuple(m.shape) == tuple(t.shape), f"{sample.name}: Jacobian {index}"
        np.testing.assert_allclose(_array(m), _array(t), rtol=1e-7, atol=1e-9,
                                   err_msg=f"{sample.name}: Jacobian {index}")
