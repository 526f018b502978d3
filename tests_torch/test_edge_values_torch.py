"""Special values and odd shapes, forward and backward, against PyTorch (the edge sweep).

The op table and the random programs draw ordinary finite values; this sweep feeds the
reductions, the selection ops and the elementwise ops where special values matter with
inputs holding ±0., nan, ±inf, ties, all-equal values, empty tensors, 0-d tensors and
non-contiguous (transposed, sliced) views, in float32 and float64 (and int64 where the op
takes it). Each case runs in both libraries and compares:

- the outputs: dtype, shape, nan positions, the sign of every zero and infinity, returned
  indices exactly; finite nonzero floats bit for bit too, except that a few ulps are allowed
  where the two libraries may sum in another order (``ROUNDING_TOLERANT``);
- an error's type and text (``torch`` read as ``minigrad``);
- the gradients of every float input for a random upstream gradient (the same in both), with
  the same rules: which element gets the gradient on ties is PyTorch's choice.

A test per op and dtype runs every input and lists those that differ. What is known to differ
is marked xfail (``KNOWN``, strict): ``pytest tests_torch/test_edge_values_torch.py -rx``
lists it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one

import minigrad

NAN, INF = float("nan"), float("inf")
Case = Callable[..., Any]

# ---------------------------------------------------------------------------------------
# Inputs: (base array, view to take of it). The view runs in each library on a leaf.
# ---------------------------------------------------------------------------------------

_VIEWS: dict[str, Callable[[Any], Any]] = {
    "": lambda t: t,
    "T": lambda t: t.t(),
    "slice": lambda t: t[..., ::2],
}


def _unary_inputs() -> dict[str, tuple[list[Any], str]]:
    """Named inputs of one tensor: values (nested lists) and a view name."""
    grid = [[1.0, -0.0, NAN, 2.0], [INF, 0.0, -1.0, 2.0], [-INF, 3.0, 3.0, -0.0]]
    return {
        "0d zero": (0.0, ""),
        "0d -zero": (-0.0, ""),
        "0d nan": (NAN, ""),
        "0d inf": (INF, ""),
        "0d 2": (2.0, ""),
        "signed zeros": ([-0.0, 0.0], ""),
        "zeros signed": ([0.0, -0.0], ""),
        "negative zeros": ([-0.0, -0.0, -0.0], ""),
        "nan inside": ([1.0, NAN, 2.0, NAN], ""),
        "infs": ([INF, -INF, 1.0, INF], ""),
        "all equal": ([2.0, 2.0, 2.0], ""),
        "one element": ([-2.5], ""),
        "halves": ([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.0, 0.25], ""),
        "minus infs": ([-INF, -INF, -INF], ""),
        "nans": ([NAN, NAN], ""),
        "zeros mixed": ([0.0, -0.0, -0.0, 1.0, 0.0, -1.0, -0.0, 0.0, -0.0, 2.0, -0.0], ""),
        "zeros mixed nan": ([-0.0, 0.0, NAN, -0.0], ""),
        "ties": ([1.0, 3.0, -1.0, 3.0, -1.0], ""),
        "empty": ([], ""),
        "grid": (grid, ""),
        "grid T": (grid, "T"),
        "grid slice": (grid, "slice"),
        "ties 2d T": ([[1.0, 1.0, 0.5], [-0.0, 0.0, 0.0], [2.0, 2.0, 2.0]], "T"),
        "empty 0x3": (np.zeros((0, 3)), ""),
        "empty 3x0": ([[], [], []], ""),
    }


UNARY_INPUTS = _unary_inputs()


def _leaf(lib: Any, values: Any, dtype: str, grad: bool) -> Any:
    """A tensor of ``values`` (through numpy, so that ``np.zeros((0, 3))`` keeps its shape)."""
    array = np.array(values, dtype=dtype)
    if lib is torch:
        return torch.tensor(array, requires_grad=grad)
    return minigrad.tensor(array, requires_grad=grad)


# ---------------------------------------------------------------------------------------
# Comparing outcomes
# ---------------------------------------------------------------------------------------


def _flatten(result: Any) -> list[Any]:
    """The tensors and plain values of a result (tuples and named tuples flattened)."""
    if isinstance(result, tuple | list):
        return [item for part in result for item in _flatten(part)]
    return [result]


def _to_numpy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.detach().numpy(force=True)  # (force: sgn's gradient is a ZeroTensor)
    if isinstance(value, minigrad.Tensor):
        return value.detach().numpy()
    return value


def _same_array(got: np.ndarray, want: np.ndarray, ulps: int, what: str,
                summed: bool = False, zero_signs: bool = True) -> None:
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (what, got, want)
    if got.dtype.kind != "f":
        assert np.array_equal(got, want), (what, got, want)
        return
    nan_got, nan_want = np.isnan(got), np.isnan(want)
    assert np.array_equal(nan_got, nan_want), (what, "nan positions", got, want)
    g, w = got[~nan_got], want[~nan_want]
    same_bits = g.tobytes() == w.tobytes()
    if same_bits:
        return
    special = ~np.isfinite(w) | (w == 0) | ~np.isfinite(g) | (g == 0)
    assert np.array_equal(g[special], w[special]), (what, "special values", got, want)
    signed = special if zero_signs else special & (w != 0)
    assert np.array_equal(np.signbit(g[signed]), np.signbit(w[signed])), (
        what, "signs of zeros", got, want)
    spacing = np.abs(np.spacing(w[~special]))
    if summed and spacing.size:  # (a gradient summed over broadcast dims: the sum's scale)
        spacing[:] = spacing.max()
    assert np.all(np.abs(g[~special] - w[~special]) <= ulps * spacing), (what, got, want)


def _warning(caught: warnings.WarningMessage) -> tuple[str, str]:
    """A warning's category and text, without the C++ location PyTorch appends."""
    text = str(caught.message).split(" (Triggered internally at")[0]
    return caught.category.__name__, text.replace("torch", "minigrad")


def _outcome(lib: Any, case: Case, inputs: list[tuple[Any, str]], dtype: str,
             grad_seed: int | None) -> Any:
    """Run ``case`` on leaves made of ``inputs``: the outputs and the leaves' gradients."""
    wants_grad = grad_seed is not None and np.dtype(dtype).kind == "f"
    leaves = [_leaf(lib, values, dtype, wants_grad) for values, _ in inputs]
    views = [_VIEWS[view](leaf) for leaf, (_, view) in zip(leaves, inputs, strict=True)]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = case(lib, *views)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return "error", type(error).__name__, str(error).replace("torch", "minigrad")
    outputs = _flatten(result) + [_warning(w) for w in caught]
    arrays = [_to_numpy(value) for value in outputs]
    if not wants_grad:
        return "ok", arrays, None
    differentiable = [out for out in outputs if isinstance(out, torch.Tensor | minigrad.Tensor)
                      and out.requires_grad]
    if not differentiable:
        return "ok", arrays, None
    rng = np.random.default_rng(grad_seed)
    upstream = [lib.tensor(rng.standard_normal(tuple(out.shape)).astype(dtype))
                for out in differentiable]
    try:
        grads = lib.autograd.grad(differentiable, leaves, upstream, allow_unused=True)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return "ok", arrays, ("error", type(error).__name__,
                              str(error).replace("torch", "minigrad"))
    return "ok", arrays, [None if g is None else _to_numpy(g) for g in grads]


def _check(case: Case, inputs: list[tuple[Any, str]], dtype: str, ulps: int = 0,
           zero_signs: bool = True) -> None:
    want = _outcome(torch, case, inputs, dtype, 5)
    got = _outcome(minigrad, case, inputs, dtype, 5)
    assert got[0] == want[0], (got, want)
    if want[0] == "error":
        assert got == want
        return
    assert len(got[1]) == len(want[1]), (got[1], want[1])
    for index, (g, w) in enumerate(zip(got[1], want[1], strict=True)):
        if isinstance(w, np.ndarray):
            assert isinstance(g, np.ndarray), (index, g, w)
            _same_array(g, w, ulps, f"output {index}", zero_signs=zero_signs)
        else:
            assert g == w, (index, g, w)
    g_grads, w_grads = got[2], want[2]
    if w_grads is None or g_grads is None or isinstance(w_grads, tuple):
        assert g_grads == w_grads, (g_grads, w_grads)
        return
    for index, (g, w) in enumerate(zip(g_grads, w_grads, strict=True)):
        assert (g is None) == (w is None), (index, g, w)
        if w is not None:
            _same_array(g, w, max(ulps, 4), f"gradient {index}", summed=True)


# ---------------------------------------------------------------------------------------
# The unary sweep: reductions, selections, elementwise ops of one tensor
# ---------------------------------------------------------------------------------------

_INTS = "ints"  # the op takes integer tensors too


def _norm_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for p in (0, 1, 2, INF, -INF, 3):
        cases[f"norm p={p}"] = lambda lib, x, p=p: x.norm(p=p)
        cases[f"vector_norm ord={p}"] = lambda lib, x, p=p: lib.linalg.vector_norm(x, ord=p)
        cases[f"vector_norm ord={p} dim=0"] = (
            lambda lib, x, p=p: lib.linalg.vector_norm(x, ord=p, dim=0))
    return cases


UNARY: dict[str, tuple[Case, tuple[str, ...]]] = {
    # reductions
    "sum": (lambda lib, x: x.sum(), (_INTS,)),
    "sum 0": (lambda lib, x: x.sum(0), (_INTS,)),
    "sum -1 keepdim": (lambda lib, x: x.sum(-1, keepdim=True), ()),
    "prod": (lambda lib, x: x.prod(), (_INTS,)),
    "prod 0": (lambda lib, x: x.prod(0), (_INTS,)),
    "mean": (lambda lib, x: x.mean(), ()),
    "mean 0": (lambda lib, x: x.mean(0), ()),
    "nansum": (lambda lib, x: x.nansum(), ()),
    "nansum 0": (lambda lib, x: x.nansum(0), ()),
    "nanmean": (lambda lib, x: x.nanmean(), ()),
    "nanmean 0": (lambda lib, x: x.nanmean(0), ()),
    "amax": (lambda lib, x: x.amax(), (_INTS,)),
    "amax 0": (lambda lib, x: x.amax(0), (_INTS,)),
    "amin": (lambda lib, x: x.amin(), (_INTS,)),
    "amin -1": (lambda lib, x: x.amin(-1), ()),
    "max": (lambda lib, x: x.max(), (_INTS,)),
    "max 0": (lambda lib, x: x.max(0), (_INTS,)),
    "max -1 keepdim": (lambda lib, x: x.max(-1, keepdim=True), ()),
    "min": (lambda lib, x: x.min(), (_INTS,)),
    "min 0": (lambda lib, x: x.min(0), (_INTS,)),
    "argmax": (lambda lib, x: x.argmax(), (_INTS,)),
    "argmax 0": (lambda lib, x: x.argmax(0), ()),
    "argmin": (lambda lib, x: x.argmin(), ()),
    "argmin -1": (lambda lib, x: x.argmin(-1), (_INTS,)),
    "aminmax": (lambda lib, x: lib.aminmax(x), (_INTS,)),
    "aminmax 0": (lambda lib, x: lib.aminmax(x, dim=0), ()),
    "cummax 0": (lambda lib, x: x.cummax(0), (_INTS,)),
    "cummin -1": (lambda lib, x: x.cummin(-1), ()),
    "cumsum 0": (lambda lib, x: x.cumsum(0), (_INTS,)),
    "cumprod 0": (lambda lib, x: x.cumprod(0), (_INTS,)),
    "cumprod -1": (lambda lib, x: x.cumprod(-1), ()),
    "logsumexp 0": (lambda lib, x: x.logsumexp(0), ()),
    "logsumexp all": (lambda lib, x: x.logsumexp(tuple(range(x.dim()))), ()),
    "logcumsumexp 0": (lambda lib, x: x.logcumsumexp(0), ()),
    **{name: (case, ()) for name, case in _norm_cases().items()},
    "var": (lambda lib, x: x.var(), ()),
    "var 0 c0": (lambda lib, x: x.var(0, correction=0), ()),
    "std": (lambda lib, x: x.std(), ()),
    "std 0 c2": (lambda lib, x: x.std(0, correction=2), ()),
    "std c0": (lambda lib, x: x.std(correction=0), ()),
    "median": (lambda lib, x: x.median(), (_INTS,)),
    "median 0": (lambda lib, x: x.median(0), ()),
    "nanmedian": (lambda lib, x: x.nanmedian(), ()),
    "nanmedian -1": (lambda lib, x: x.nanmedian(-1), ()),
    "sort 0 stable": (lambda lib, x: x.sort(dim=0, stable=True), (_INTS,)),
    "sort -1 descending stable": (
        lambda lib, x: x.sort(dim=-1, descending=True, stable=True), ()),
    "sort 0": (lambda lib, x: x.sort(0), ()),
    "argsort 0 stable": (lambda lib, x: x.argsort(dim=0, stable=True), ()),
    "argsort -1 descending stable": (
        lambda lib, x: x.argsort(dim=-1, descending=True, stable=True), (_INTS,)),
    "topk 1": (lambda lib, x: x.topk(1, 0), (_INTS,)),
    "topk 2 smallest": (lambda lib, x: x.topk(2, -1, largest=False), ()),
    "kthvalue 1": (lambda lib, x: x.kthvalue(1, 0), (_INTS,)),
    "kthvalue 2": (lambda lib, x: x.kthvalue(2, -1), ()),
    "mode 0": (lambda lib, x: x.mode(0), (_INTS,)),
    "mode -1": (lambda lib, x: x.mode(-1), ()),
    "unique": (lambda lib, x: lib.unique(x), (_INTS,)),
    "unique inverse counts": (
        lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True), ()),
    # elementwise
    "sign": (lambda lib, x: x.sign(), (_INTS,)),
    "sgn": (lambda lib, x: x.sgn(), ()),
    "abs": (lambda lib, x: x.abs(), (_INTS,)),
    "neg": (lambda lib, x: -x, ()),
    "floor": (lambda lib, x: x.floor(), ()),
    "ceil": (lambda lib, x: x.ceil(), ()),
    "round": (lambda lib, x: x.round(), ()),
    "round decimals=1": (lambda lib, x: x.round(decimals=1), ()),
    "trunc": (lambda lib, x: x.trunc(), ()),
    "frac": (lambda lib, x: x.frac(), ()),
    "sqrt": (lambda lib, x: x.sqrt(), ()),
    "rsqrt": (lambda lib, x: x.rsqrt(), ()),
    "log": (lambda lib, x: x.log(), ()),
    "log2": (lambda lib, x: x.log2(), ()),
    "log1p": (lambda lib, x: x.log1p(), ()),
    "reciprocal": (lambda lib, x: x.reciprocal(), ()),
    "1 / x": (lambda lib, x: 1 / x, ()),
    "x / 0.": (lambda lib, x: x / 0.0, ()),
    "x / -0.": (lambda lib, x: x / -0.0, ()),
    "x // 0.5": (lambda lib, x: x // 0.5, ()),
    "x // 0.": (lambda lib, x: x // 0.0, ()),
    "x // -0.": (lambda lib, x: x // -0.0, ()),
    "pow 0": (lambda lib, x: x**0, ()),
    "pow -0.": (lambda lib, x: x**-0.0, ()),
    "pow 0.5": (lambda lib, x: x**0.5, ()),
    "pow 2": (lambda lib, x: x**2, ()),
    "pow -1": (lambda lib, x: x**-1, ()),
    "pow -2.5": (lambda lib, x: x**-2.5, ()),
    "pow inf": (lambda lib, x: x**INF, ()),
    "pow -inf": (lambda lib, x: x**-INF, ()),
    "pow nan": (lambda lib, x: x**NAN, ()),
    "0. ** x": (lambda lib, x: 0.0**x, ()),
    "-0. ** x": (lambda lib, x: lib.pow(-0.0, x), ()),
    "2 ** x": (lambda lib, x: 2**x, ()),
    "inf ** x": (lambda lib, x: INF**x, ()),
    "clamp(-0., 0.)": (lambda lib, x: x.clamp(-0.0, 0.0), ()),
    "clamp(min=nan)": (lambda lib, x: x.clamp(min=NAN), ()),
    "clamp(max=nan)": (lambda lib, x: x.clamp(max=NAN), ()),
    "clamp(1, -1)": (lambda lib, x: x.clamp(1.0, -1.0), ()),
    "clamp(-inf, inf)": (lambda lib, x: x.clamp(-INF, INF), ()),
    "clamp int bounds": (lambda lib, x: x.clamp(0, 2), (_INTS,)),
    "fmod 0.": (lambda lib, x: x.fmod(0.0), ()),
    "fmod -1.5": (lambda lib, x: x.fmod(-1.5), ()),
    "remainder 1.5": (lambda lib, x: x.remainder(1.5), ()),
    "remainder -1.5": (lambda lib, x: x.remainder(-1.5), ()),
    "remainder inf": (lambda lib, x: x.remainder(INF), ()),
    "copysign -0.": (lambda lib, x: x.copysign(-0.0), ()),
    "xlogy(x, x)": (lambda lib, x: lib.xlogy(x, x), ()),
    "xlogy(0, x)": (lambda lib, x: lib.xlogy(0.0, x), ()),
    "maximum(x, -0.)": (lambda lib, x: lib.maximum(x, lib.tensor(-0.0, dtype=x.dtype)), ()),
    "minimum(x, 0.)": (lambda lib, x: lib.minimum(x, lib.tensor(0.0, dtype=x.dtype)), ()),
    "fmax(x, nan)": (lambda lib, x: lib.fmax(x, lib.tensor(NAN, dtype=x.dtype)), ()),
    "atan2(x, -0.)": (lambda lib, x: lib.atan2(x, lib.tensor(-0.0, dtype=x.dtype)), ()),
    "hypot(x, inf)": (lambda lib, x: lib.hypot(x, lib.tensor(INF, dtype=x.dtype)), ()),
}

# Sums, means, norms and moments: the two libraries may add in another order.
ROUNDING_TOLERANT = ("sum", "mean", "nansum", "nanmean", "logsumexp", "logcumsumexp", "norm",
                     "vector_norm", "var", "std", "cumsum", "cumprod", "prod", "pow -2.5",
                     "pow 0.5", "rsqrt", "round decimals", "2 ** x", "xlogy", "log", "hypot",
                     "atan2", "remainder", "fmod")

# Whole-number inputs (the ones a cast to an integer keeps).
_INT_INPUTS = ("0d 2", "all equal", "ties", "empty", "ties 2d T", "empty 3x0")


# Correctly rounded on some CPUs only: PyTorch's float sqrt is MKL's vector sqrt, whose paths
# miss by an ulp for some inputs (AVX-512: 0.7 % of float32 and float64; AVX2: 1.3 % of
# float64; SSE4.2: 17 % of float32), and numpy's float64 pow on a CPU with AVX-512 is SVML's
# (pow(2.5, 2.5) an ulp below PyTorch's and glibc's; with AVX2 it is glibc's).
LAST_BIT_BY_CPU = ("sqrt", "pow")


def _ulps(op: str) -> int:
    if op.startswith(ROUNDING_TOLERANT):
        return 4
    return 1 if op in LAST_BIT_BY_CPU else 0


def _failures(case: Case, inputs: dict[str, list[tuple[Any, str]]], dtype: str,
              ulps: int, zero_signs: bool = True) -> list[str]:
    """Each named input on which ``case`` differs from PyTorch, with the first difference."""
    failures = []
    for name, operands in inputs.items():
        try:
            _check(case, operands, dtype, ulps, zero_signs)
        except AssertionError as error:
            failures.append(f"{name}: {str(error).splitlines()[0][:300]}")
    return failures


# PyTorch's maximum/minimum/clamp kernels take the second operand on a tie (0.0 against -0.0)
# in their vector loop (_mm256_max_pd) and x in the scalar loop; which elements the vector loop
# computes depends on the CPU (AVX2 runs pairs of 32-byte vectors along the innermost merged
# dim, AVX-512 pairs of 64) and the layout. minigrad takes x everywhere: the sign of a zero
# from such a tie is not compared for these ops (every other bit is).
ISA_DEPENDENT_ZERO_SIGNS = {
    "maximum(x, -0.)", "minimum(x, 0.)", "maximum", "minimum", "clamp(x, y, y)",
    "clamp(x, min=y)", "clamp(x, max=y)",
}

# What still differs, with why (``-rx`` lists them): none at present. (An entry is
# ``(op, dtype): pytest.mark.xfail(strict=True, reason=...)``.)
KNOWN: dict[tuple[str, str], Any] = {}


def _params(ops: dict[str, Any], int_ops: set[str]) -> list[Any]:
    params = []
    for op in ops:
        for dtype in ("float32", "float64", "int64"):
            if dtype == "int64" and op not in int_ops:
                continue
            marks = [KNOWN[op, dtype]] if (op, dtype) in KNOWN else []
            params.append(pytest.param(op, dtype, id=f"{op}-{dtype}", marks=marks))
    return params


# Whole-number inputs (the ones a cast to an integer keeps).
_INT_INPUTS = ("0d 2", "all equal", "ties", "empty", "ties 2d T", "empty 3x0")


@parametrize_in_one(("op", "dtype"),
                         _params(UNARY, {op for op, (_, f) in UNARY.items() if _INTS in f}))
def test_unary_edge_values_as_pytorch(op: str, dtype: str) -> None:
    inputs = {name: [UNARY_INPUTS[name]] for name in UNARY_INPUTS
              if dtype != "int64" or name in _INT_INPUTS}
    assert not _failures(UNARY[op][0], inputs, dtype, _ulps(op),
                         op not in ISA_DEPENDENT_ZERO_SIGNS)


# ---------------------------------------------------------------------------------------
# The binary sweep: every pair of special values (outer grid), broadcast and strided
# ---------------------------------------------------------------------------------------

_SPECIALS = [0.0, -0.0, NAN, INF, -INF, 1.0, -1.0, 2.5, -0.5, 3.0]
_ROWS = [[value] for value in _SPECIALS]  # (10, 1) against (10,): all pairs


BINARY: dict[str, Case] = {
    "maximum": lambda lib, x, y: lib.maximum(x, y),
    "minimum": lambda lib, x, y: lib.minimum(x, y),
    "fmax": lambda lib, x, y: lib.fmax(x, y),
    "fmin": lambda lib, x, y: lib.fmin(x, y),
    "copysign": lambda lib, x, y: lib.copysign(x, y),
    "fmod": lambda lib, x, y: lib.fmod(x, y),
    "remainder": lambda lib, x, y: lib.remainder(x, y),
    "atan2": lambda lib, x, y: lib.atan2(x, y),
    "hypot": lambda lib, x, y: lib.hypot(x, y),
    "xlogy": lambda lib, x, y: lib.xlogy(x, y),
    "pow": lambda lib, x, y: lib.pow(x, y),
    "div": lambda lib, x, y: x / y,
    "div floor": lambda lib, x, y: lib.div(x, y, rounding_mode="floor"),
    "div trunc": lambda lib, x, y: lib.div(x, y, rounding_mode="trunc"),
    "mul": lambda lib, x, y: x * y,
    "clamp(x, y, y)": lambda lib, x, y: lib.clamp(x, y, y),
    "clamp(x, min=y)": lambda lib, x, y: lib.clamp(x, min=y),
    "clamp(x, max=y)": lambda lib, x, y: lib.clamp(x, max=y),
    "where(x > y, x, y)": lambda lib, x, y: lib.where(x > y, x, y),
}

BINARY_INPUTS: dict[str, list[tuple[Any, str]]] = {
    "pairs": [(_ROWS, ""), (_SPECIALS, "")],
    "pairs T": [([_SPECIALS] * 10, "T"), (_SPECIALS, "")],
    "shapes clash": [([_SPECIALS, _SPECIALS], "T"), ([_SPECIALS], "")],
    "pairs slice": [([_SPECIALS + _SPECIALS], "slice"), (_ROWS, "")],
    "0d": [(-0.0, ""), (0.0, "")],
    "empty": [([], ""), (_ROWS, "")],
}


_INTEGERS = [0, 1, -1, 2, -3, 7]
INT_BINARY_INPUTS: dict[str, list[tuple[Any, str]]] = {
    "pairs": [([[value] for value in _INTEGERS], ""), (_INTEGERS, "")],
    "pairs T": [([_INTEGERS] * 6, "T"), (_INTEGERS, "")],
    "shapes clash": [([_INTEGERS, _INTEGERS], "T"), ([_INTEGERS], "")],
    "0d": [(0, ""), (-3, "")],
}
INT_BINARY = {"maximum", "minimum", "fmod", "remainder", "div", "div floor", "div trunc",
              "mul", "clamp(x, y, y)", "clamp(x, min=y)", "where(x > y, x, y)", "pow",
              "copysign", "atan2", "xlogy"}


@parametrize_in_one(("op", "dtype"), _params(BINARY, INT_BINARY))
def test_binary_edge_values_as_pytorch(op: str, dtype: str) -> None:
    inputs = INT_BINARY_INPUTS if dtype == "int64" else BINARY_INPUTS
    assert not _failures(BINARY[op], inputs, dtype, _ulps(op),
                         op not in ISA_DEPENDENT_ZERO_SIGNS)


def test_where_node_edges_as_pytorch() -> None:
    """``where``'s node lists edges for its two value inputs only (``WhereBackward0``)."""

    def edges(lib: Any) -> list[Any]:
        x = lib.ones(3, requires_grad=True)
        y = lib.zeros(3, requires_grad=True)
        node = lib.where(x > 0.5, x * 2, y).grad_fn
        return [(None if fn is None else fn.name(), nr) for fn, nr in node.next_functions]

    assert edges(minigrad) == edges(torch)
