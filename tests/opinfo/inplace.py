"""Op-table rows of the core in-place ops: ``add_``, ``mul_``, ``eq_``, ``exp_``, ``clamp_``,
``fill_``, ``copy_``, ``masked_fill_``, ``scatter_``, the augmented assignments (``x += y``),
``x[key] = v``, and in-place writes through a view of the tensor (PyTorch's CopySlices).

Every row writes into a clone of its first argument (a leaf cannot be written in place while it
requires grad) and returns the tensor written, so the generic tests check the values, the
gradients through the write (of the original leaf and of every other operand), the mutation
matrix (which tells whether the op saved its result or its input), and, in tests_torch, the
version: one bump per write, as in PyTorch. The in-place variants of the elementwise math and of
the indexing ops sit in their own families' tables (``sin_`` in elementwise.py, ``index_add_``
in index_ops.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from opinfo import BadInput, OpInfo, Sample, first
from opinfo.elementwise import (
    POSITIVE,
    REAL,
    away_from_zero,
    binary_samples,
    clamp_tensor_samples,
    full_first,
    unary_samples,
)
from opinfo.linalg import addmm_samples, baddbmm_samples
from opinfo.reductions import cumulative_samples, nonzero, with_edge
from opinfo.shape import (
    index,
    real,
    scatter_samples,
    scatter_value_samples,
    triangle_samples,
)
from opinfo.views import SQUEEZES, SQUEEZES_UNPACKED, TRANSPOSES, UNSQUEEZES, one

Samples = Callable[[np.random.Generator], list[Sample]]


def written(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call(lib, target, *rest)`` on a clone of the first argument; returns the clone."""

    def wrapped(lib: Any, x: Any, *rest: Any, **kwargs: Any) -> Any:
        target = x.clone()
        call(lib, target, *rest, **kwargs)
        return target

    return wrapped


def full_shape(samples: Samples) -> Samples:
    """The samples of a product whose first argument has the result's shape (in place)."""

    def chosen(rng: np.random.Generator) -> list[Sample]:
        return [sample for sample in samples(rng)
                if sample.args[0].shape[:-1] == sample.args[1].shape[:-1]
                and sample.args[0].shape[-1] == sample.args[2].shape[-1]]

    return chosen


def row(name: str, call: Callable[..., Any], samples: Samples, **kw: Any) -> OpInfo:
    """An in-place row: ``call(lib, target, *rest)`` writes into (a clone of) ``target``."""
    return OpInfo(name, written(call), samples, inplace=True, **kw)


def augmented(operator: str) -> Callable[..., Any]:
    """``target <operator>= other`` (``+``, ``-``, ``*``, ``/``, ``%``)."""

    def call(lib: Any, target: Any, other: Any) -> None:
        if operator == "+":
            target += other
        elif operator == "-":
            target -= other
        elif operator == "*":
            target *= other
        elif operator == "/":
            target /= other
        else:
            target %= other

    return call


def setitem(lib: Any, target: Any, key: Any, value: Any) -> None:
    target[key] = value


UNARY = unary_samples()
BINARY = full_first(binary_samples())
DIVISORS = full_first(binary_samples(right=away_from_zero()))


def fill_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), 1.5), name="number"),
        Sample((real(rng, 3, 4), real(rng)), name="tensor"),
        Sample((real(rng), real(rng)), name="0d"),
        Sample((real(rng, 3, 4), real(rng)), name="transposed", transposed=True),
    ]


def copy_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="same"),
        Sample((real(rng, 3, 4), real(rng, 4)), name="broadcast"),
        Sample((real(rng, 3, 4), real(rng)), name="0d_source"),
        Sample((real(rng, 3, 4), real(rng, 3, 4)), name="transposed", transposed=True),
    ]


def masked_fill_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample((real(rng, 3, 4), rng.random((3, 4)) < 0.5, -1.5), name="number"),
        Sample((real(rng, 3, 4), np.array([True, False, False, True]), real(rng)),
               name="tensor_broadcast_mask"),
        Sample((real(rng), np.array(True), 2.0), name="0d"),
        Sample((real(rng, 3, 4), rng.random((3, 4)) < 0.5, real(rng)), name="transposed",
               transposed=True),
    ]


BAD_MASKED_FILL = (
    BadInput((np.ones((3, 4)), np.ones((3, 4)), 0.0), name="float_mask"),
    BadInput((np.ones((3, 4)), np.ones((3, 4), dtype=bool), np.ones(2)), name="value_1d"),
    BadInput((np.ones(4), np.ones((3, 4), dtype=bool), 0.0), name="mask_larger"),
)


def setitem_samples(rng: np.random.Generator) -> list[Sample]:
    """Basic keys (a view is written) and advanced ones (an index_put), numbers and tensors."""
    return [
        Sample((real(rng, 3, 4), (1,), real(rng, 4)), name="row"),
        Sample((real(rng, 3, 4), (slice(None), slice(1, 3)), real(rng, 3, 1)), name="slice"),
        Sample((real(rng, 3, 4), (Ellipsis, 0), 2.5), name="number"),
        Sample((real(rng, 3, 4), (index(0, 2),), real(rng, 2, 4)), name="index_tensor"),
        Sample((real(rng, 3, 4), (rng.random((3, 4)) < 0.5,), real(rng)), name="mask"),
        Sample((real(rng, 3, 4), (slice(None, None, 2), -1), real(rng, 2)), name="transposed",
               transposed=True),
    ]


def through_view(view: Callable[[Any], Any], method: str) -> Callable[..., Any]:
    """Write ``view(target).<method>(*rest)`` (the base gets PyTorch's CopySlices node)."""

    def call(lib: Any, target: Any, *rest: Any) -> None:
        getattr(view(target), method)(*rest)

    return call


def view_samples(other_shape: tuple[int, ...] | None) -> Samples:
    """A (3, 4) base (also transposed) and, if ``other_shape``, an operand of that shape."""

    def samples(rng: np.random.Generator) -> list[Sample]:
        other = () if other_shape is None else (real(rng, *other_shape),)
        return [
            Sample((real(rng, 3, 4), *other), name="2d"),
            Sample((real(rng, 3, 4), *other), name="transposed", transposed=True),
        ]

    return samples


OPS: list[OpInfo] = [
    # --- arithmetic ------------------------------------------------------------------------------
    row("add_", lambda lib, t, y: t.add_(y), BINARY, bad_inputs=(
        BadInput((np.ones(3), np.ones((2, 3))), name="result_larger"),)),
    row("add_alpha_", lambda lib, t, y: t.add_(y, alpha=-2.0), BINARY, op="add_"),
    row("add_other_only_", lambda lib, t, y: t.add_(y), BINARY, grad_args=(1,), op="add_"),
    row("sub_", lambda lib, t, y: t.sub_(y, alpha=0.5), BINARY),
    row("mul_", lambda lib, t, y: t.mul_(y), BINARY),
    row("mul_self_only_", lambda lib, t, y: t.mul_(y), BINARY, grad_args=(0,), op="mul_"),
    row("div_", lambda lib, t, y: t.div_(y), DIVISORS),
    row("div_other_only_", lambda lib, t, y: t.div_(y), DIVISORS, grad_args=(1,), op="div_"),
    row("div_floor_", lambda lib, t, y: t.div_(y, rounding_mode="floor"), DIVISORS, op="div_"),
    row("div_trunc_", lambda lib, t, y: t.div_(y, rounding_mode="trunc"), DIVISORS, op="div_"),
    row("true_divide_", lambda lib, t, y: t.true_divide_(y), DIVISORS),
    row("subtract_", lambda lib, t, y: t.subtract_(y, alpha=0.5), BINARY),
    row("multiply_", lambda lib, t, y: t.multiply_(y), BINARY),
    row("divide_", lambda lib, t, y: t.divide_(y), DIVISORS),
    row("hypot_", lambda lib, t, y: t.hypot_(y), full_first(binary_samples(scalar=None))),
    row("xlogy_", lambda lib, t, y: t.xlogy_(y),
        full_first(binary_samples(REAL, POSITIVE, scalar=None))),
    row("xlogy_number_", lambda lib, t: t.xlogy_(2.5), UNARY, op="xlogy_"),
    row("pow_", lambda lib, t, y: t.pow_(y),
        full_first(binary_samples(POSITIVE, REAL, scalar=None))),
    row("pow_scalar_", lambda lib, t: t.pow_(3), UNARY, op="pow_"),
    row("atan2_", lambda lib, t, y: t.atan2_(y), full_first(binary_samples(scalar=None))),
    row("arctan2_", lambda lib, t, y: t.arctan2_(y),
        first(full_first(binary_samples(scalar=None)), 2)),
    row("iadd", augmented("+"), BINARY, op="add_"),
    row("isub", augmented("-"), BINARY, op="sub_"),
    row("imul", augmented("*"), BINARY, op="mul_"),
    row("itruediv", augmented("/"), DIVISORS, op="div_"),
    row("imod", augmented("%"), full_first(binary_samples(right=away_from_zero(), scalar=0.75)),
        gradgrad=False, op="remainder_"),
    # --- comparisons: 1 and 0 written in the tensor's dtype; gradients are zeros ---------------
    *[
        row(name, (lambda n: lambda lib, t, y: getattr(t, n)(y))(name), BINARY, bad_inputs=(
            BadInput((np.ones(3), np.ones((2, 3))), name="result_larger"),
            BadInput((np.ones(3), np.ones(2)), name="not_broadcastable")))
        for name in ("eq_", "ne_", "lt_", "le_", "gt_", "ge_", "not_equal_", "less_",
                     "less_equal_", "greater_", "greater_equal_")
    ],
    row("lt_other_only_", lambda lib, t, y: t.lt_(y), BINARY, grad_args=(1,), op="lt_"),
    row("ge_through_slice_", through_view(lambda t: t[1:], "ge_"), view_samples((2, 4)),
        op="ge_"),
    # --- elementwise math ----------------------------------------------------------------------
    row("neg_", lambda lib, t: t.neg_(), UNARY),
    row("abs_", lambda lib, t: t.abs_(), unary_samples(edge=(0.0, -1.0))),
    row("exp_", lambda lib, t: t.exp_(), UNARY),
    row("log_", lambda lib, t: t.log_(), unary_samples(POSITIVE)),
    row("sqrt_", lambda lib, t: t.sqrt_(), unary_samples(POSITIVE)),
    row("sigmoid_", lambda lib, t: t.sigmoid_(), UNARY),
    row("tanh_", lambda lib, t: t.tanh_(), UNARY),
    row("relu_", lambda lib, t: t.relu_(), unary_samples(edge=(0.0, -1.0, 1.0))),
    row("fix_", lambda lib, t: t.fix_(), UNARY),
    row("clamp_", lambda lib, t: t.clamp_(-0.5, 0.5), unary_samples(edge=(-0.5, 0.5))),
    row("clamp_min_only_", lambda lib, t: t.clamp_(min=-0.5), UNARY, op="clamp_"),
    row("clamp_tensor_", lambda lib, t, lo, hi: t.clamp_(lo, hi), clamp_tensor_samples,
        op="clamp_"),
    row("clip_", lambda lib, t: t.clip_(-0.5, 0.5), UNARY),
    row("clamp_max_tensor_", lambda lib, t, lo, hi: t.clamp_max_(hi), clamp_tensor_samples,
        op="clamp_max_"),
    # --- filling and copying -------------------------------------------------------------------
    row("cumsum_", lambda lib, t, dim: t.cumsum_(dim), cumulative_samples(),
        bad_inputs=(BadInput((np.ones((2, 3)), 2), name="dim"),
                    BadInput((np.array([True, False]), 0), name="bool"))),
    row("cumprod_", lambda lib, t, dim: t.cumprod_(dim),
        with_edge(cumulative_samples(nonzero), ([[1.5, 0.0, 2.0, -1.0], [0.0, 0.0, 1.0, 2.0]], 1)),
        bad_inputs=(BadInput((np.ones((2, 3)), -3), name="dim"),)),
    row("reciprocal_", lambda lib, t: t.reciprocal_(), unary_samples(away_from_zero())),
    row("tril_", lambda lib, t, k: t.tril_(k), triangle_samples,
        bad_inputs=(BadInput((np.ones(3), 0), name="1d"),)),
    row("triu_", lambda lib, t, k: t.triu_(k), triangle_samples),
    row("addmm_", lambda lib, t, x, y, beta, alpha: t.addmm_(x, y, beta=beta, alpha=alpha),
        full_shape(addmm_samples),
        bad_inputs=(BadInput((np.ones((1, 5)), np.ones((3, 4)), np.ones((4, 5)), 1, 1),
                             name="size"),)),
    row("baddbmm_", lambda lib, t, x, y, beta, alpha: t.baddbmm_(x, y, beta=beta, alpha=alpha),
        full_shape(baddbmm_samples),
        bad_inputs=(BadInput((np.ones((1, 3, 5)), np.ones((2, 3, 4)), np.ones((2, 4, 5)), 1,
                              1), name="size"),)),
    row("zero_", lambda lib, t: t.zero_(), UNARY),
    row("fill_diagonal_", lambda lib, t, value: t.fill_diagonal_(value),
        one(("2d", (3, 4), 2.0), ("tall", (5, 3), -1.0), ("cube", (3, 3, 3), 0.5),
            ("transposed", (4, 3), 1.5))),
    row("fill_diagonal_wrap_", lambda lib, t, value: t.fill_diagonal_(value, wrap=True),
        one(("tall", (7, 3), 2.0), ("taller", (20, 3), -1.0), ("transposed", (7, 3), 0.5)),
        op="fill_diagonal_"),
    row("fill_", lambda lib, t, value: t.fill_(value), fill_samples,
        bad_inputs=(BadInput((np.ones(3), np.ones(2)), name="value_1d"),)),
    row("copy_", lambda lib, t, src: t.copy_(src), copy_samples,
        bad_inputs=(BadInput((np.ones((3, 4)), np.ones(3)), name="broadcast"),)),
    row("copy_source_only_", lambda lib, t, src: t.copy_(src), copy_samples, grad_args=(1,),
        op="copy_"),
    row("masked_fill_", lambda lib, t, mask, value: t.masked_fill_(mask, value),
        masked_fill_samples, bad_inputs=BAD_MASKED_FILL),
    OpInfo("masked_fill", lambda lib, x, mask, value: x.masked_fill(mask, value),
           masked_fill_samples, bad_inputs=BAD_MASKED_FILL[:2]),
    row("scatter_", lambda lib, t, dim, idx, src: t.scatter_(dim, idx, src), scatter_samples),
    row("scatter_value_", lambda lib, t, dim, idx, value: t.scatter_(dim, idx, value),
        scatter_value_samples, op="scatter_"),
    # --- in-place view ops: the clone takes the view's shape and strides -----------------------
    row("unsqueeze_", lambda lib, t, dim: t.unsqueeze_(dim), UNSQUEEZES),
    row("squeeze_", lambda lib, t, dim: t.squeeze_(dim), SQUEEZES),
    row("squeeze_unpacked_", lambda lib, t, *dims: t.squeeze_(*dims), SQUEEZES_UNPACKED,
        op="squeeze_"),
    row("squeeze_all_", lambda lib, t: t.squeeze_(),
        one(("3d", (1, 3, 1)), ("0d", ()), ("transposed", (3, 1))), op="squeeze_"),
    row("t_", lambda lib, t: t.t_(), one(("2d", (3, 4)), ("1d", (4,)), ("0d", ()),
                                         ("transposed", (3, 4)))),
    row("transpose_", lambda lib, t, a, b: t.transpose_(a, b), TRANSPOSES),
    row("swapaxes_", lambda lib, t, a, b: t.swapaxes_(a, b), first(TRANSPOSES, 2)),
    row("swapdims_", lambda lib, t, a, b: t.swapdims_(a, b), first(TRANSPOSES, 2)),
    # --- x[key] = value ------------------------------------------------------------------------
    row("setitem", setitem, setitem_samples),
    row("setitem_value_only", setitem, setitem_samples, grad_args=(2,)),
    # --- writes through a view (CopySlices) ------------------------------------------------------
    row("mul_through_slice_", through_view(lambda t: t[1:], "mul_"), view_samples((2, 4)),
        op="mul_"),
    row("mul_through_slice_other_only_", through_view(lambda t: t[1:], "mul_"),
        view_samples((4,)), grad_args=(1,), op="mul_"),
    row("add_through_transpose_", through_view(lambda t: t.t(), "add_"), view_samples((4, 3)),
        op="add_"),
    row("exp_through_diagonal_", through_view(lambda t: t.diagonal(), "exp_"),
        view_samples(None), op="exp_"),
    row("zero_through_select_", through_view(lambda t: t.select(1, 2), "zero_"),
        view_samples(None), op="zero_"),
    row("copy_through_view_", through_view(lambda t: t.view(2, 6)[0], "copy_"),
        lambda rng: [Sample((real(rng, 3, 4), real(rng, 6)), name="2d")], op="copy_"),
    row("sigmoid_through_chain_", through_view(lambda t: t[:, 1:].unsqueeze(0).mT, "sigmoid_"),
        view_samples(None), op="sigmoid_"),
]
