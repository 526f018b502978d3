"""Python ints no int64 holds: PyTorch's argument parser refuses them, and so does minigrad.

An ``int`` parameter unpacks an int64 only (ValueError "Overflow when unpacking long long"), an
item of an int list is named by its position (TypeError "failed to unpack the object at pos
N"), and a Scalar also takes a uint64 (``x * 2**63`` works; past that, OverflowError). Each call
runs in both libraries: same exception type and first line of the message, or the same result;
a refused in-place call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

BIG = 2**70
CALLS: dict[str, Callable[[Any, Any], Any]] = {
    # Scalars: operands, fills, options
    "add": lambda lib, x: x + BIG,
    "radd": lambda lib, x: BIG + x,
    "sub": lambda lib, x: x - 2**64,
    "mul_uint64": lambda lib, x: x * 2**63,
    "mul_negative": lambda lib, x: x * -(2**63) - 1,
    "div_": lambda lib, x: x.div_(BIG),
    "add_": lambda lib, x: x.add_(BIG),
    "floordiv": lambda lib, x: x // BIG,
    "int_tensor": lambda lib, x: lib.ones(2, dtype=lib.int64) + BIG,
    # the reflected operators (a number first)
    "rsub": lambda lib, x: BIG - x,
    "rsub_negative": lambda lib, x: -BIG - x,
    "rsub_past_uint64": lambda lib, x: 2**64 - x,
    "rsub_uint64": lambda lib, x: 2**63 - x,
    "rsub_function": lambda lib, x: lib.rsub(x, BIG),
    "rmul": lambda lib, x: BIG * x,
    "rtruediv": lambda lib, x: BIG / x,
    "rfloordiv": lambda lib, x: BIG // x,
    "rmod": lambda lib, x: BIG % x,
    "rmod_negative": lambda lib, x: -BIG % x,
    "rmod_uint64": lambda lib, x: 2**63 % x,
    "rpow": lambda lib, x: BIG**x,
    "rand": lambda lib, x: BIG & x.long(),
    # a uint64 Scalar with an integer tensor: its bits, wrapped to the tensor's dtype
    "int64_radd_uint64": lambda lib, x: 2**63 + x.long(),
    "int64_rsub_uint64": lambda lib, x: (2**64 - 1) - x.long(),
    "int64_mul_uint64": lambda lib, x: x.long() * (2**64 - 1),
    "int64_rfloordiv_uint64": lambda lib, x: 2**63 // x.long().abs().clamp(1),
    "int64_rmod_uint64": lambda lib, x: (2**64 - 1) % x.long().abs().clamp(1),
    "int64_ror_uint64": lambda lib, x: 2**63 | x.long(),
    "int32_rfloordiv": lambda lib, x: 2**62 // x.int().abs().clamp(1),
    "uint8_rxor": lambda lib, x: (2**62 + 3) ^ x.byte(),
    "compare": lambda lib, x: x > BIG,
    "eq": lambda lib, x: x.eq(BIG),
    "where": lambda lib, x: lib.where(x > 0, x, BIG),
    "fill_": lambda lib, x: x.fill_(BIG),
    "masked_fill": lambda lib, x: x.masked_fill(x > 0, BIG),
    "index_fill": lambda lib, x: x.index_fill(0, lib.tensor([0]), BIG),
    "full": lambda lib, x: lib.full((), BIG),
    "full_negative": lambda lib, x: lib.full((), -(2**63) - 1),
    "full_uint64": lambda lib, x: lib.full((), 2**63),
    "new_full": lambda lib, x: x.new_full((2,), BIG),
    "full_like": lambda lib, x: lib.full_like(x, BIG),
    "alpha": lambda lib, x: x.add(x, alpha=BIG),
    "alpha_uint64": lambda lib, x: x.sub(x, alpha=2**63),
    "pow": lambda lib, x: x.pow(BIG),
    "pow_operator": lambda lib, x: x ** -(2**64),
    "lerp": lambda lib, x: x.lerp(x, BIG),
    "addcmul": lambda lib, x: x.addcmul(x, x, value=BIG),
    "threshold": lambda lib, x: lib.nn.functional.threshold(x, BIG, 1.0),
    "elu": lambda lib, x: lib.nn.functional.elu(x, BIG),
    "scatter_value": lambda lib, x: x.scatter(0, lib.tensor([[0]]), BIG),
    "renorm": lambda lib, x: x.renorm(2, 0, BIG),
    "arange": lambda lib, x: lib.arange(BIG),
    # arange's Scalars as its kernel reads them: int64 (checked), its length in int64 or doubles
    "arange_step_uint64": lambda lib, x: lib.arange(0, 1, 2**63),
    "arange_end_uint64": lambda lib, x: lib.arange(2**63),
    "arange_step_uint64_int16": lambda lib, x: lib.arange(0, 5, 2**63, dtype=lib.int16),
    "arange_end_uint64_int32": lambda lib, x: lib.arange(0, 2**63, 2**61, dtype=lib.int32),
    "arange_span_wraps_negative": lambda lib, x: lib.arange(-(2**63), 0, 2**62),
    "arange_span_wraps_empty": lambda lib, x: lib.arange(-(2**63), 2**63 - 1, 2**62),
    "arange_end_double_int64": lambda lib, x: lib.arange(0, 1e30, dtype=lib.int64),
    "arange_size_double": lambda lib, x: lib.arange(0, 1e19, 1.0),
    "arange_size_2_63": lambda lib, x: lib.arange(0, 2**63, 1, dtype=lib.int16),
    "arange_truncated_step": lambda lib, x: lib.arange(0.5, 3.7, 0.9, dtype=lib.int32),
    "arange_truncated_zero_step": lambda lib, x: lib.arange(0, 10, 0.5, dtype=lib.int64),
    "arange_nan_end": lambda lib, x: lib.arange(0, float("nan")),
    "arange_infinite_step": lambda lib, x: lib.arange(0, 5, float("inf")),
    "arange_zero_step_first": lambda lib, x: lib.arange(0, 2**63, 0),
    "addmm_beta": lambda lib, x: lib.addmm(x[:, :2], x, x.t(), beta=BIG),
    "addr_alpha": lambda lib, x: lib.addr(x, x[:, 0], x[0], alpha=BIG),
    "index_add_alpha": lambda lib, x: x.index_add(0, lib.tensor([0]), x[:1], alpha=BIG),
    "dist_p": lambda lib, x: lib.dist(x, x, BIG),
    "vector_norm_ord": lambda lib, x: lib.linalg.vector_norm(x, BIG),
    "trapezoid_dx": lambda lib, x: lib.trapezoid(x, dx=BIG),
    "renorm_p": lambda lib, x: x.renorm(BIG, 0, 1.0),
    "clamp_min": lambda lib, x: x.clamp_min(BIG),
    "clamp_max_": lambda lib, x: x.clamp_max_(-BIG),
    "hardtanh_min": lambda lib, x: lib.nn.functional.hardtanh(x, -BIG, 1.0),
    "hardtanh_": lambda lib, x: lib.nn.functional.hardtanh_(x, -BIG, 1.0),
    "leaky_relu": lambda lib, x: lib.nn.functional.leaky_relu(x, BIG),
    "softplus_threshold": lambda lib, x: lib.nn.functional.softplus(x, 1, BIG),
    "celu": lambda lib, x: lib.nn.functional.celu(x, BIG),
    "hardshrink": lambda lib, x: lib.nn.functional.hardshrink(x, BIG),
    "softshrink": lambda lib, x: lib.nn.functional.softshrink(x, BIG),
    "rrelu_lower": lambda lib, x: lib.nn.functional.rrelu(x, BIG),
    "linspace_end": lambda lib, x: lib.linspace(0, BIG, 3),
    "logspace_start": lambda lib, x: lib.logspace(-BIG, 1, 3),
    "histc_min": lambda lib, x: lib.histc(x, 10, -BIG, 1),
    "float_power_exponent": lambda lib, x: lib.float_power(x, BIG),
    "float_power_base": lambda lib, x: lib.float_power(BIG, x),
    "cosine_similarity_eps": lambda lib, x: lib.nn.functional.cosine_similarity(x, x, 1, BIG),
    "multi_margin_loss_margin": lambda lib, x: lib.nn.functional.multi_margin_loss(
        x, lib.tensor([0, 1]), 1, BIG
    ),
    "std_correction": lambda lib, x: lib.std(x, 0, correction=BIG),
    "var_mean_correction": lambda lib, x: lib.var_mean(x, 0, correction=-BIG),
    # several bad arguments: PyTorch's bindings unpack a call's arguments last first
    "clamp_both": lambda lib, x: x.clamp(-BIG, BIG),
    "hardtanh_both": lambda lib, x: lib.nn.functional.hardtanh(x, -BIG, BIG),
    "addmm_both": lambda lib, x: lib.addmm(x[:, :2], x, x.t(), beta=-BIG, alpha=BIG),
    "histc_all": lambda lib, x: lib.histc(x, BIG, -BIG, 1),
    "linspace_steps_last": lambda lib, x: lib.linspace(-BIG, 1, BIG),
    "as_strided_both": lambda lib, x: x.as_strided((BIG,), (BIG,)),
    "as_strided_offset_last": lambda lib, x: x.as_strided((1,), (BIG,), BIG),
    "movedim_both": lambda lib, x: x.movedim((0, BIG), (0, BIG)),
    "tensordot_both": lambda lib, x: lib.tensordot(x, x, ((0, BIG), (0, BIG))),
    "conv1d_stride_and_padding": lambda lib, x: lib.nn.functional.conv1d(
        x[None], lib.ones(1, 2, 1), None, (BIG,), (BIG,)
    ),
    "ctc_loss_both_lengths": lambda lib, x: lib.ctc_loss(
        x[None].log_softmax(-1), lib.tensor([[1]]), [BIG], [BIG]
    ),
    "ctc_loss_lengths_and_blank": lambda lib, x: lib.ctc_loss(
        x[None].log_softmax(-1), lib.tensor([[1]]), [BIG], [1], BIG
    ),
    # ints
    "sum_dim": lambda lib, x: x.sum(BIG),
    "sum_dim_keyword": lambda lib, x: x.sum(dim=BIG),
    "softmax_dim": lambda lib, x: lib.nn.functional.softmax(x, BIG),
    "transpose": lambda lib, x: x.transpose(0, BIG),
    "cumsum": lambda lib, x: x.cumsum(BIG),
    "unsqueeze": lambda lib, x: x.unsqueeze(BIG),
    "select": lambda lib, x: x.select(0, -BIG),
    "index": lambda lib, x: x[BIG],
    "narrow": lambda lib, x: x.narrow(0, BIG, 1),
    "chunk": lambda lib, x: x.chunk(BIG),
    "split": lambda lib, x: x.split(BIG),
    "tensor_split": lambda lib, x: x.tensor_split(BIG),
    "roll": lambda lib, x: x.roll(BIG),
    "roll_list": lambda lib, x: x.roll((1, BIG), (0, 1)),
    "diagonal": lambda lib, x: x.diagonal(BIG),
    "topk": lambda lib, x: x.topk(BIG),
    "kthvalue": lambda lib, x: x.kthvalue(BIG),
    "unfold": lambda lib, x: x.unfold(0, BIG, 1),
    "tril": lambda lib, x: x.tril(BIG),
    "triu_": lambda lib, x: x.triu_(-BIG),
    "round": lambda lib, x: x.round(decimals=BIG),
    "histc": lambda lib, x: x.histc(BIG),
    "linspace": lambda lib, x: lib.linspace(0, 1, BIG),
    "eye": lambda lib, x: lib.eye(2, BIG),
    "randint": lambda lib, x: lib.randint(BIG, (2,)),
    "rot90": lambda lib, x: x.rot90(BIG),
    "matrix_power": lambda lib, x: lib.linalg.matrix_power(x[:, :2], -BIG),
    "polygamma": lambda lib, x: lib.polygamma(BIG, x),
    "mvlgamma": lambda lib, x: lib.mvlgamma(x + 2, BIG),
    "combinations": lambda lib, x: lib.combinations(x[0], BIG),
    "unsafe_split": lambda lib, x: lib.unsafe_split(x, BIG),
    "vecdot_dim": lambda lib, x: lib.linalg.vecdot(x, x, dim=BIG),
    "triplet_reduction": lambda lib, x: lib.triplet_margin_loss(x, x, x, 1.0, 2, 1e-6, False, BIG),
    "narrow_length": lambda lib, x: x.narrow(0, 0, BIG),
    "pool_kernel": lambda lib, x: lib.nn.functional.max_pool2d(x[None], BIG),
    "conv_stride": lambda lib, x: lib.nn.functional.conv1d(x[None], lib.ones(1, 2, 2), stride=BIG),
    "conv_groups": lambda lib, x: lib.nn.functional.conv1d(x[None], x[:, None, :2], groups=BIG),
    "pixel_shuffle": lambda lib, x: lib.nn.functional.pixel_shuffle(x[None], BIG),
    "channel_shuffle": lambda lib, x: lib.nn.functional.channel_shuffle(x[None, :, :, None], BIG),
    "group_norm": lambda lib, x: lib.nn.functional.group_norm(x[None], BIG),
    "grid_sampler_mode": lambda lib, x: lib.grid_sampler(
        x[None, None], lib.zeros(1, 1, 1, 2), BIG, 0, False
    ),
    "poisson_reduction": lambda lib, x: lib.poisson_nll_loss(x, x, True, False, 1e-8, BIG),
    "slice_scatter": lambda lib, x: lib.slice_scatter(x, x, 0, BIG),
    "select_scatter": lambda lib, x: lib.select_scatter(x, x[0], 0, BIG),
    "diagonal_scatter": lambda lib, x: lib.diagonal_scatter(x, x[0, :2], BIG),
    "narrow_copy": lambda lib, x: x.narrow_copy(0, 0, BIG),
    "gradient_edge_order": lambda lib, x: lib.gradient(x, edge_order=BIG),
    "unflatten": lambda lib, x: x.unflatten(1, (BIG, -1)),
    "cov_correction": lambda lib, x: lib.cov(x, correction=BIG),
    "linalg_cond_p": lambda lib, x: lib.linalg.cond(x[:, :2], BIG),
    "linalg_cond_p_negative": lambda lib, x: lib.linalg.cond(x[:, :2], -BIG),
    "linalg_cond_p_uint64": lambda lib, x: lib.linalg.cond(x[:, :2], 2**63),  # (shown as %g)
    "native_group_norm": lambda lib, x: lib.native_group_norm(x, None, None, 2, BIG, 1, 1, 0.0),
    "native_group_norm_group": lambda lib, x: lib.native_group_norm(
        x, None, None, 2, 3, 1, BIG, 0.0
    ),
    "repeat_interleave": lambda lib, x: x.repeat_interleave(BIG, 0),
    # repeat_interleave's results past int64: the expanded view's numel, the copy's storage
    "repeat_interleave_numel": lambda lib, x: lib.repeat_interleave(x, 2**62),
    "repeat_interleave_storage": lambda lib, x: x.repeat_interleave(2**60, 1),
    "repeat_interleave_strides": lambda lib, x: x[:0].repeat_interleave(2**62, 1),
    "repeat_interleave_total_wraps": lambda lib, x: x.repeat_interleave(
        lib.tensor([2**62, 2**62]), 0
    ),
    "repeat_interleave_total_negative": lambda lib, x: lib.repeat_interleave(
        lib.tensor([2**62 - 1] * 4)
    ),
    "repeat_interleave_index_storage": lambda lib, x: x.repeat_interleave(lib.tensor(2**61), 0),
    "expand_numel": lambda lib, x: x[:, :, None].expand(2, 3, 2**61),
    "expand_numel_before_zero": lambda lib, x: x[:1, :1, None].expand(2**62, 2**62, 0),
    "repeat_interleave_output_size": lambda lib, x: x.repeat_interleave(2, 0, output_size=BIG),
    "repeat_interleave_counts": lambda lib, x: lib.repeat_interleave(
        lib.tensor([1, 2]), output_size=BIG
    ),
    "stack_dim": lambda lib, x: lib.stack([x, x], BIG),
    "stack_empty": lambda lib, x: lib.stack([], -BIG),
    "slice_copy_dim": lambda lib, x: lib.slice_copy(x, BIG),
    "slice_copy_end": lambda lib, x: lib.slice_copy(x, 0, 0, BIG),
    "slice_copy_step": lambda lib, x: lib.slice_copy(x, 0, 0, 1, BIG),
    "unravel_index_shape": lambda lib, x: lib.unravel_index(lib.tensor([1]), (BIG,)),
    "unravel_index_lone": lambda lib, x: lib.unravel_index(lib.tensor([1]), BIG),
    "unravel_index_stride": lambda lib, x: lib.unravel_index(lib.tensor([1]), (4, 2**62, 4)),
    "unravel_index_large": lambda lib, x: lib.stack(lib.unravel_index(lib.tensor([5]), (2**62, 2))),
    "ctc_loss_blank": lambda lib, x: lib.ctc_loss(
        x[None].log_softmax(-1), lib.tensor([[1]]), [1], [1], BIG
    ),
    "as_strided_offset": lambda lib, x: x.as_strided((2,), (1,), BIG),
    "as_strided_copy_offset": lambda lib, x: lib.as_strided_copy(x, (2,), (1,), BIG),
    "cosine_similarity_dim": lambda lib, x: lib.nn.functional.cosine_similarity(x, x, BIG),
    "nll_loss_ignore_index": lambda lib, x: lib.nn.functional.nll_loss(
        x, lib.tensor([0, 1]), ignore_index=BIG
    ),
    "cross_entropy_ignore_index": lambda lib, x: lib.nn.functional.cross_entropy(
        x, lib.tensor([0, 1]), ignore_index=-BIG
    ),
    "diff_n": lambda lib, x: lib.diff(x, BIG),
    "bincount_minlength": lambda lib, x: lib.bincount(lib.tensor([0, 1]), minlength=BIG),
    "diag_diagonal": lambda lib, x: lib.diag(x, BIG),
    "diagflat_offset": lambda lib, x: lib.diagflat(x, -BIG),
    "norm_dims": lambda lib, x: x.norm(2, (0, BIG)),
    "norm_nuc_dims": lambda lib, x: x.norm("nuc", (0, BIG)),
    "normalize_dim": lambda lib, x: lib.nn.functional.normalize(x, 2, BIG),
    "channel_shuffle_negative": lambda lib, x: lib.nn.functional.channel_shuffle(
        x[None, :, :, None], -BIG
    ),
    "vsplit_sections": lambda lib, x: lib.vsplit(x, BIG),
    "random_to": lambda lib, x: x.random_(BIG),
    "random_from": lambda lib, x: x.random_(-BIG, 0),
    "multinomial_samples": lambda lib, x: lib.multinomial(lib.ones(3), BIG),
    "one_hot": lambda lib, x: lib.nn.functional.one_hot(lib.tensor([0]), BIG),
    "setitem": lambda lib, x: x.__setitem__(0, BIG),
    "setitem_uint64": lambda lib, x: x.__setitem__((0, 1), 2**63),
    # int lists
    "zeros": lambda lib, x: lib.zeros(BIG),
    "ones_unpacked": lambda lib, x: lib.ones(2, BIG),
    "full_size": lambda lib, x: lib.full((BIG,), 1.0),
    "flip": lambda lib, x: x.flip(BIG),
    "view": lambda lib, x: x.view(2, BIG),
    "reshape": lambda lib, x: x.reshape(BIG),
    "reshape_function": lambda lib, x: lib.reshape(x, (3, BIG)),
    "expand": lambda lib, x: x.expand(BIG, 2, 3),
    "repeat": lambda lib, x: x.repeat(1, BIG),
    "repeat_lone": lambda lib, x: x.repeat(BIG),
    "permute": lambda lib, x: x.permute(BIG, 1),
    "sum_dims": lambda lib, x: x.sum((0, BIG)),
    "sum_dims_keyword": lambda lib, x: lib.sum(x, dim=[BIG]),
    "sum_dims_out_of_range_first": lambda lib, x: x.sum((5, -BIG)),  # (unpacked first)
    "mean_dims": lambda lib, x: x.mean((1, BIG), keepdim=True),
    "amax_dims": lambda lib, x: x.amax((0, BIG)),
    "std_dims": lambda lib, x: lib.std(x, (0, BIG)),
    "any_dims": lambda lib, x: x.any((0, BIG)),
    "squeeze_dims": lambda lib, x: x.squeeze((0, BIG)),
    "squeeze_dims_out_of_range_first": lambda lib, x: x.squeeze((7, BIG)),
    "movedim_source": lambda lib, x: x.movedim((0, BIG), (1, 0)),
    "moveaxis_destination": lambda lib, x: lib.moveaxis(x, (0, 1), (1, BIG)),
    "broadcast_to": lambda lib, x: lib.broadcast_to(x, (2, BIG)),
    "tensordot_dims_self": lambda lib, x: lib.tensordot(x, x, ((0, BIG), (0, 1))),
    "tensordot_dims_other": lambda lib, x: lib.tensordot(x, x, ((0, 1), (0, BIG))),
    "linalg_norm_dims": lambda lib, x: lib.linalg.norm(x, 2, (0, BIG)),
    "matrix_norm_dims": lambda lib, x: lib.linalg.matrix_norm(x, "fro", [BIG, 0, 1]),
    "conv1d_stride_list": lambda lib, x: lib.nn.functional.conv1d(
        x[None], lib.ones(1, 2, 1), stride=(1, BIG)
    ),
    "conv_transpose2d_output_padding": lambda lib, x: lib.nn.functional.conv_transpose2d(
        x[None, None], lib.ones(1, 1, 1, 1), output_padding=(0, BIG)
    ),
    "tensor_split_indices": lambda lib, x: lib.tensor_split(x, (1, BIG)),
    "hsplit_indices": lambda lib, x: lib.hsplit(x, (1, BIG)),
    "normal_size": lambda lib, x: lib.normal(0.0, 1.0, (2, BIG)),
    "as_strided_size": lambda lib, x: x.as_strided((2, BIG), (1, 1)),
    "as_strided_stride": lambda lib, x: x.as_strided((2,), (BIG,)),
    "as_strided_": lambda lib, x: x.as_strided_((BIG,), (1,)),
    "as_strided_copy": lambda lib, x: lib.as_strided_copy(x, (BIG,), (1,)),
    "as_strided_scatter": lambda lib, x: lib.as_strided_scatter(x, x[0, :2], (2,), (BIG,)),
    "interpolate_nearest": lambda lib, x: lib.nn.functional.interpolate(x[None], size=BIG),
    "interpolate_bilinear": lambda lib, x: lib.nn.functional.interpolate(
        x[None, None], size=(2, BIG), mode="bilinear"
    ),
    "interpolate_nearest_exact": lambda lib, x: lib.nn.functional.interpolate(
        x[None], size=(BIG,), mode="nearest-exact"
    ),
    "interpolate_area": lambda lib, x: lib.nn.functional.interpolate(
        x[None], size=BIG, mode="area"
    ),
    "interpolate_area_2d": lambda lib, x: lib.nn.functional.interpolate(
        x[None, None], size=(1, BIG), mode="area"
    ),
    "ctc_loss_input_lengths": lambda lib, x: lib.ctc_loss(
        x[None].log_softmax(-1), lib.tensor([[1]]), [BIG], [1]
    ),
    "ctc_loss_target_lengths": lambda lib, x: lib.nn.functional.ctc_loss(
        x[None].log_softmax(-1), lib.tensor([[1]]), [1], (1, BIG)
    ),
}


def without_trace(error: BaseException) -> str:
    """The message without the C++ trace PyTorch puts inside some parser errors' quotes.

    (``... with error "Overflow when unpacking long long<trace>"``: minigrad has no trace.)
    """
    text = str(error)
    message, trace, _ = text.partition("\nException raised from")
    if trace and text.endswith('"'):
        message += '"'
    return message.replace("torch.", "minigrad.")


def run(lib: Any, call: Callable[[Any, Any], Any], x: Any) -> tuple[Any, BaseException | None]:
    try:
        return call(lib, x), None
    except Exception as error:  # (compared below)
        return None, error


@parametrize_in_one("name", list(CALLS))
def test_int_past_int64_as_pytorch(name: str) -> None:
    values = np.array([[0.5, -1.5, 2.0], [1.0, 3.0, -0.25]], dtype=np.float32)
    theirs, their_error = run(torch, CALLS[name], torch.from_numpy(values.copy()))
    x = minigrad.from_numpy(values.copy())
    mine, my_error = run(minigrad, CALLS[name], x)
    if their_error is None:
        assert my_error is None, f"PyTorch accepts; minigrad raises {my_error!r}"
        assert np.array_equal(np.asarray(mine.numpy()), theirs.numpy())
        return
    assert type(my_error) is type(their_error), f"{my_error!r} instead of {their_error!r}"
    assert str(my_error) == without_trace(their_error)
    assert np.array_equal(x.numpy(), values) and x._version == 0  # a refused call wrote nothing
