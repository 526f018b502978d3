"""Every elementwise op and activation at its special values, against PyTorch 2.13 (CPU).

test_edge_values_torch.py sweeps the reductions, the selections and some elementwise ops; this
file takes the rest: the unary math of ``minigrad`` and ``minigrad.special`` (trig, hyperbolic,
exponentials and logarithms, roots, erf family, gamma family, Bessel i0/i1, logit, ...), the
binary elementwise forms (heaviside, logaddexp, nextafter, ldexp, float_power, the divisions,
...) and every ``nn.functional`` activation with its options. Each op runs in float32, float64
and float16 (float16 where PyTorch's CPU kernel takes it; elsewhere both libraries must refuse
it with the same error) on:

- ±0, ±subnormal, ±1, ±0.5, small whole numbers, large finite values, ±inf, nan, and the
  values at the op's own thresholds (softplus's ``threshold``, hardtanh's bounds, logit's
  ``eps``, the poles of lgamma/digamma, ...);
- contiguous, transposed and sliced views, 0-d tensors and an empty tensor;
- binary ops: every pair of special values (a column against a row), also transposed.

Compared, element by element: nan positions, infinities and their signs, the sign of every
zero (where both are zero), and finite values bit for bit where both libraries do the same
arithmetic (``Op.ulps``/``cancel`` allow a few ulps or epsilons where each calls its own libm,
SLEEF or special-function algorithm); dtype and shape; an error's type and text; the warnings;
the gradients of every float input for a random upstream gradient (the same in both). A test is
one op in one dtype: it loops over the inputs and reports every differing element with its
input. Elements whose PyTorch result depends on the CPU's vector kernel (vector body against
scalar tail) are not compared: each op's entry names the cause (``_nan``, ``_minus_zero``, ...).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
import torch
from _cases import parametrize_in_one
from test_edge_values_torch import _to_numpy
from test_kernels_torch import ulps

import minigrad

NAN, INF = float("nan"), float("inf")
DTYPES = ("float16", "float32", "float64")
Case = Callable[..., Any]


@dataclass(frozen=True)
class Op:
    """One op of the sweep: how to call it, on which values, and how close it must be."""

    case: Case  # case(lib, x) or case(lib, x, y): the op in either library
    arity: int = 1
    extra: tuple[float, ...] = ()  # the op's own thresholds, added to the special values
    ulps: int = 0  # forward: allowed distance of finite nonzero values (libm / SLEEF)
    grad_ulps: int = 4  # gradient: likewise (an ulp of the forward moves the gradient too)
    # Where a result is a difference of nearly equal terms (1 - tanh(x)**2, x - tanh(x)), an
    # ulp of one term is many ulps of the result: also accepted is a distance up to ``cancel``
    # epsilons of the dtype times the scale of the terms: the upstream gradient's (4) for the
    # gradient; for the forward, only if ``cancel_forward``, the input's magnitude (at least 1).
    cancel: float = 0.0
    cancel_forward: bool = False
    dtypes: tuple[str, ...] = DTYPES
    unsigned_zeros: bool = False  # zero signs the vector kernel decides (see the op's entry)
    # Elements not compared, given the inputs (broadcast to the output's shape); the entry's
    # comment names the cause (PyTorch's vector body and scalar tail disagree, ...).
    skip: Callable[..., np.ndarray] | None = None
    skip_grad: Callable[[np.ndarray], np.ndarray] | None = None  # likewise, given the input


# ---------------------------------------------------------------------------------------
# Values and layouts
# ---------------------------------------------------------------------------------------

_TINY = {"float16": (6e-8, 3e-5), "float32": (1e-45, 1e-40), "float64": (5e-324, 1e-310)}
_LARGE = {"float16": (6e4, 1e3), "float32": (3e38, 1e10), "float64": (1e308, 1e10)}


def special_values(dtype: str, extra: tuple[float, ...] = ()) -> np.ndarray:
    """±0, ±subnormal, ±1, ±0.5, a few whole numbers, large, ±inf, nan and ``extra``."""
    tiny, large = _TINY[dtype], _LARGE[dtype]
    values = [0.0, -0.0, *tiny, *(-t for t in tiny), 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 10.0,
              -20.0, 100.0, *large, *(-v for v in large), INF, -INF, NAN, *extra]
    with np.errstate(over="ignore"):
        return np.array(values, dtype=np.float64).astype(dtype)


_PAIR_VALUES = (0.0, -0.0, 1e-40, 1.0, -1.0, 2.5, -0.5, 3.0, 1e30, INF, -INF, NAN)


def _pair_values(dtype: str) -> np.ndarray:
    values = list(_PAIR_VALUES)
    values[2] = _TINY[dtype][1]
    values[8] = _LARGE[dtype][1]
    return np.array(values, dtype=dtype)


# name -> list of (leaf arrays, view of each leaf); the view runs in each library.
Layout = tuple[list[np.ndarray], list[Callable[[Any], Any]]]
_SAME: Callable[[Any], Any] = lambda t: t  # noqa: E731 - a table entry
_T: Callable[[Any], Any] = lambda t: t.T if isinstance(t, np.ndarray) else t.t()  # noqa: E731
_SLICE: Callable[[Any], Any] = lambda t: t[::2]  # noqa: E731


def unary_layouts(values: np.ndarray) -> dict[str, Layout]:
    """The values contiguous, as a transposed matrix, sliced; a few 0-d; empty."""
    fill = np.full(-values.size % 3, 0.25, values.dtype)
    matrix = np.concatenate([values, fill]).reshape(3, -1)  # its transpose holds the values
    spaced = np.stack([values, np.full_like(values, 0.75)], axis=1).reshape(-1)
    layouts: dict[str, Layout] = {
        "contiguous": ([values], [_SAME]),
        "transposed": ([matrix], [_T]),
        "sliced": ([spaced], [_SLICE]),
        "empty": ([values[:0]], [_SAME]),
    }
    for index in (1, values.size - 1, 2):  # -0., nan (or the last extra), a subnormal
        layouts[f"0-d {values[index]}"] = ([values[index].reshape(())], [_SAME])
    return layouts


def binary_layouts(values: np.ndarray) -> dict[str, Layout]:
    """Every pair (a column against a row), the column's matrix transposed, 0-d, empty."""
    column = values.reshape(-1, 1)
    square = np.tile(values.reshape(-1, 1), (1, values.size)).T.copy()  # .t(): row i holds v[i]
    return {
        "pairs": ([column, values], [_SAME, _SAME]),
        "pairs transposed": ([square, values], [_T, _SAME]),
        "0-d": ([values[1].reshape(()), values[0].reshape(())], [_SAME, _SAME]),
        "empty": ([values[:0], column], [_SAME, _SAME]),
    }


# ---------------------------------------------------------------------------------------
# Running both libraries and comparing element by element
# ---------------------------------------------------------------------------------------


def _text(error: BaseException) -> tuple[str, str]:
    return type(error).__name__, str(error).replace("torch", "minigrad")


def _warning(caught: warnings.WarningMessage) -> tuple[str, str]:
    text = str(caught.message).split(" (Triggered internally at")[0]
    return caught.category.__name__, text.replace("torch", "minigrad")


@dataclass
class Outcome:
    """What one library did: an error, or outputs, warnings and the leaves' gradients."""

    error: tuple[str, str] | None = None
    outputs: list[Any] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    grads: list[Any] | tuple[str, str] | None = None


def run(lib: Any, case: Case, layout: Layout, seed: int = 5) -> Outcome:
    """``case`` on leaves made of ``layout``, then its gradients for a seeded upstream."""
    arrays, views = layout
    floats = all(a.dtype.kind == "f" for a in arrays)
    leaves = [lib.tensor(a.copy(), requires_grad=floats) for a in arrays]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = case(lib, *[view(leaf) for view, leaf in zip(views, leaves, strict=True)])
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return Outcome(error=_text(error))
    results = list(result) if isinstance(result, tuple | list) else [result]
    outcome = Outcome(outputs=[_to_numpy(r) for r in results],
                      warnings=[_warning(w) for w in caught])
    differentiable = [r for r in results if isinstance(r, torch.Tensor | minigrad.Tensor)
                      and r.requires_grad]
    if not differentiable:
        return outcome
    rng = np.random.default_rng(seed)
    upstream = [lib.tensor(rng.standard_normal(tuple(r.shape)).astype(arrays[0].dtype))
                for r in differentiable]
    try:
        grads = lib.autograd.grad(differentiable, leaves, upstream, allow_unused=True)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        outcome.grads = _text(error)
        return outcome
    outcome.grads = [None if g is None else _to_numpy(g) for g in grads]
    return outcome


def _inputs_at(arrays: list[np.ndarray], views: list[Any], shape: tuple[int, ...]) -> list[Any]:
    """The input values behind each element of an output of ``shape`` (broadcast), or []."""
    try:
        viewed = [np.asarray(view(a)) for view, a in zip(views, arrays, strict=True)]
        return [np.broadcast_to(v, shape) for v in viewed]
    except (ValueError, TypeError):
        return []


def differences(got: np.ndarray, want: np.ndarray, tolerance: int, unsigned_zeros: bool,
                inputs: list[np.ndarray], skip: np.ndarray | None, what: str,
                absolute: Any = 0.0) -> list[str]:
    """Every element where ``got`` is not ``want``: nan, ±inf, ±0 (both zero: the sign), or
    finite values more than ``tolerance`` ulps and ``absolute`` apart."""
    got, want = np.asarray(got), np.asarray(want)
    if (got.dtype, got.shape) != (want.dtype, want.shape):
        return [f"{what}: dtype/shape {got.dtype}{got.shape}, PyTorch {want.dtype}{want.shape}"]
    if got.dtype.kind != "f":
        bad = got != want
    else:
        nan_g, nan_w = np.isnan(got), np.isnan(want)
        special = ~np.isfinite(want) | ~np.isfinite(got) | ((want == 0) & (got == 0))
        signs = np.signbit(got) != np.signbit(want)
        if unsigned_zeros:
            signs &= (want != 0) | (got != 0)
        with np.errstate(invalid="ignore", over="ignore"):
            distance = np.abs(got.astype(np.float64) - want.astype(np.float64))
            far = (ulps(got, want) > tolerance) & ~(distance <= absolute)
        bad = (nan_g != nan_w) | (~nan_g & ~nan_w & np.where(special, (got != want) | signs, far))
    if skip is not None:
        bad &= ~skip
    found = []
    for index in zip(*np.nonzero(bad), strict=True) if got.ndim else [()] if bad else []:
        at = ", ".join(repr(x[index].item()) for x in inputs) if inputs else "?"
        found.append(f"{what}[{','.join(map(str, index))}] at ({at}): "
                     f"{got[index].item()!r}, PyTorch {want[index].item()!r}")
    return found


def compare(op: Op, name: str, layout: Layout) -> list[str]:
    """How minigrad's outcome on ``layout`` differs from PyTorch's (empty if it does not)."""
    want = run(torch, op.case, layout)
    got = run(minigrad, op.case, layout)
    if want.error or got.error:
        return [] if got.error == want.error else [f"{name}: error {got.error}, "
                                                   f"PyTorch {want.error}"]
    found = []
    if len(got.outputs) != len(want.outputs):
        return [f"{name}: {len(got.outputs)} outputs, PyTorch {len(want.outputs)}"]
    if got.warnings != want.warnings:
        found.append(f"{name}: warnings {got.warnings}, PyTorch {want.warnings}")
    arrays, views = layout
    for index, (g, w) in enumerate(zip(got.outputs, want.outputs, strict=True)):
        if not isinstance(w, np.ndarray) or not isinstance(g, np.ndarray):
            if g != w:
                found.append(f"{name}: output {index} {g!r}, PyTorch {w!r}")
            continue
        inputs = _inputs_at(arrays, views, w.shape)
        skip = op.skip(*inputs) if op.skip is not None and inputs else None
        absolute = 0.0
        if op.cancel_forward and inputs and w.dtype.kind == "f":
            scale = np.maximum(1.0, np.abs(inputs[0].astype(np.float64)))
            absolute = op.cancel * float(np.finfo(w.dtype).eps) * scale
        found += differences(g, w, op.ulps, op.unsigned_zeros, inputs, skip,
                             f"{name} output {index}", absolute)
    if isinstance(want.grads, tuple) or isinstance(got.grads, tuple) or want.grads is None:
        if got.grads != want.grads:
            found.append(f"{name}: gradients {got.grads}, PyTorch {want.grads}")
        return found
    if got.grads is None:
        return [*found, f"{name}: no gradients, PyTorch {want.grads}"]
    for index, (g, w) in enumerate(zip(got.grads, want.grads, strict=True)):
        if (g is None) != (w is None):
            found.append(f"{name}: gradient {index} {g}, PyTorch {w}")
        elif w is not None:
            leaf = arrays[index]
            skip = op.skip_grad(leaf) if op.skip_grad is not None else None
            summed = leaf.size > 1 and max(o.size for o in want.outputs
                                           if isinstance(o, np.ndarray)) > leaf.size
            absolute = op.cancel * float(np.finfo(w.dtype).eps) * 4
            if summed:  # (summed over broadcast dims: the order of the sum may differ)
                absolute = max(absolute, 4 * float(np.max(np.abs(np.spacing(
                    w[np.isfinite(w)].astype(w.dtype))), initial=0.0)))
            found += differences(g, w, op.grad_ulps, op.unsigned_zeros, [leaf], skip,
                                 f"{name} gradient {index}", absolute)
    return found


def sweep(op: Op, dtype: str) -> list[str]:
    """Every difference of ``op`` from PyTorch over its layouts in ``dtype``."""
    if op.arity == 1:
        layouts = unary_layouts(special_values(dtype, op.extra))
    else:
        layouts = binary_layouts(_pair_values(dtype))
    return [line for name, layout in layouts.items() for line in compare(op, name, layout)]


# ---------------------------------------------------------------------------------------
# The ops
# ---------------------------------------------------------------------------------------


def _method(name: str, *args: Any, **kwargs: Any) -> Case:
    return lambda lib, x: getattr(x, name)(*args, **kwargs)


def _top(name: str, *args: Any, **kwargs: Any) -> Case:
    return lambda lib, x: getattr(lib, name)(x, *args, **kwargs)


def _special(name: str, *args: Any, **kwargs: Any) -> Case:
    return lambda lib, x: getattr(lib.special, name)(x, *args, **kwargs)


def _nn(name: str, *args: Any, **kwargs: Any) -> Case:
    return lambda lib, x: getattr(lib.nn.functional, name)(x, *args, **kwargs)


def _binary(name: str, **kwargs: Any) -> Case:
    return lambda lib, x, y: getattr(lib, name)(x, y, **kwargs)


def _ints(lib: Any, x: Any, values: list[int]) -> Any:
    """An int64 tensor of ``values`` repeated over ``x``'s last dim (ldexp's exponents)."""
    if x.dim() == 0:
        return lib.tensor(values[0])
    n = x.shape[-1]
    return lib.tensor([values[i % len(values)] for i in range(n)])


LIBM = 4  # ulps between two good libms (or libm and SLEEF's 1-ulp functions)


def _libm(case: Case, *extra: float, **options: Any) -> Op:
    """A transcendental function: each library calls its own libm (or SLEEF, vectorised)."""
    options = {"ulps": LIBM, "cancel": 4, **options}
    return Op(case, extra=extra, **options)


def _cephes(case: Case, *extra: float, **options: Any) -> Op:
    """A special function: minigrad's own float64 algorithm rounded once, PyTorch's Cephes in
    the input's dtype. Finite values may be a few epsilons apart (many ulps where the result
    is a small difference of terms, as i1e's gradient); specials, signs and nan stay exact."""
    options = {"ulps": LIBM, "cancel": 16, "cancel_forward": True, "grad_ulps": 16, **options}
    return Op(case, extra=extra, **options)


# --- elements PyTorch's CPU kernels decide by where they fall (not compared) -----------------
# A contiguous loop runs its vector body (AVX2 here: 2 x 8 floats, 2 x 4 doubles per step;
# AVX-512 doubles that) and a scalar tail; a strided one runs the scalar code. Where the two
# disagree, the result depends on the CPU, the size and the layout: minigrad models neither.


def _nan(x: np.ndarray) -> np.ndarray:
    # The gradient at nan of hardtanh/relu6, hard/softshrink, hardswish and logit with eps:
    # the vector body's comparisons or blend give 0 (nan for hardswish), the scalar tail grad.
    return np.isnan(x)


def _minus_zero(x: np.ndarray) -> np.ndarray:
    # logit's gradient at -0.: the vector body divides grad by x * (1 - x) = -0. (the sign of
    # grad flipped), the scalar code multiplies grad by inf.
    return (x == 0) & np.signbit(x)


def _cosh_band(x: np.ndarray) -> np.ndarray:
    # sinh/cosh of 709.8 < |x| < 710.5 in float64: SLEEF's vector sinh/cosh overflow at
    # log(max) to inf, libm's scalar ones are finite (1.1e308 at 710).
    return (np.abs(x) > 709.78) & (np.abs(x) < 710.48) & (x.dtype == np.float64)


def _quotient_overflows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # x % y where x / y overflows (1. % 1e-310): the vector body computes x - y * floor(x / y)
    # = nan, the scalar code fmod's exact remainder.
    with np.errstate(all="ignore"):
        return np.isfinite(x) & np.isfinite(y) & np.isinf(x / y)


# The sign of zero where PyTorch's vector body and scalar tail differ: softshrink inside
# [-lambd, lambd] (the vector body gives +0., the scalar x * 0 = -0. for negative x); gelu's
# float32 AVX2 kernel (its own erf: +0. for x <= -0.); logaddexp2(x, x) (max + log1p(1) / ln 2,
# which the AVX2 build contracts to an FMA: -1.06e-08 at -1. in float32, 0. without FMA: the
# distance is covered by ``cancel``, the sign of a float16 zero is not compared).


def _far_tail(x: np.ndarray) -> np.ndarray:
    # log_ndtr's gradient below x = -10: exp(-(y + x**2 / 2)) where y = log_ndtr(x) is about
    # -x**2 / 2: an ulp of y is x**2 / 2 ulps of the sum (rounding noise in both libraries;
    # PyTorch's is -0. at -1e10, where x**2 / 2 and y round to the same float).
    return x < -10


UNARY: dict[str, Op] = {
    # trigonometric and hyperbolic, and their inverses
    "sin": _libm(_method("sin"), 3.1415927, 1e5),
    "cos": _libm(_method("cos"), 1.5707964, 1e5),
    "tan": _libm(_method("tan"), 1.5707964, 1e5),
    "asin": _libm(_method("asin"), 1.0000001, -0.9999999),
    "acos": _libm(_method("acos"), 1.0000001, -0.9999999),
    "atan": _libm(_method("atan")),
    "sinh": _libm(_method("sinh"), 89.0, 710.0, -711.0, skip=_cosh_band, skip_grad=_cosh_band),
    "cosh": _libm(_method("cosh"), 89.0, 710.0, -711.0, skip=_cosh_band, skip_grad=_cosh_band),
    "tanh": _libm(_method("tanh"), 9.0, 19.0, -19.1),
    "asinh": _libm(_method("asinh")),
    "acosh": _libm(_method("acosh"), 1.0000001, 0.9999999),
    "atanh": _libm(_method("atanh"), 0.9999999, -1.0000001),
    "deg2rad": Op(_method("deg2rad"), extra=(180.0, -90.0)),
    "rad2deg": Op(_method("rad2deg"), extra=(3.1415927,)),
    "sinc": _libm(_special("sinc"), 1e-20, 4.0, -2.5, grad_ulps=16),
    # exponentials and logarithms
    "exp": _libm(_method("exp"), 88.7, 89.0, 709.0, 710.0, -104.0, -746.0),
    "expm1": _libm(_method("expm1"), 88.7, 89.0, 709.0, 710.0, 1e-8),
    "exp2": _libm(_special("exp2"), 128.0, 1024.0, -150.0, -1075.0, 0.1),
    "exp2 (top)": _libm(_method("exp2"), 128.0, 1024.0, -150.0, -1075.0, 0.1),
    "log": _libm(_method("log")),
    "log1p": _libm(_method("log1p"), -0.9999999, -1.0000001, 1e-8),
    "log2": _libm(_method("log2"), 8.0, 0.125),
    "log10": _libm(_method("log10"), 1000.0, 0.001),
    # (PyTorch's float32 sqrt(3e38) is 1.7320508816e19, an ulp above the correctly rounded
    # 1.7320507716e19 that numpy gives)
    "sqrt": Op(_method("sqrt"), extra=(4.0, 2.0), ulps=1),
    "rsqrt": _libm(_method("rsqrt"), 4.0),
    "reciprocal": Op(_method("reciprocal"), extra=(3e-39, 1e-300)),
    "square": Op(_method("square"), extra=(1e20, 1e200)),
    "abs": Op(_method("abs")),
    "neg": Op(_method("neg")),
    "ceil": Op(_method("ceil"), extra=(-0.25, 0.25)),
    "floor": Op(_method("floor"), extra=(-0.25, 0.25)),
    "round": Op(_method("round"), extra=(-0.5, 1.5, 2.5, -2.5, -0.25)),
    "clamp(-1, 2)": Op(_method("clamp", -1.0, 2.0), extra=(-1.0, 2.0)),
    "sigmoid": _libm(_method("sigmoid"), -88.8, -746.0, 37.0),
    "expit": _libm(_special("expit")),
    # error function, gamma function and friends
    "erf": _libm(_method("erf"), 3.9, 6.0, 27.0),
    "erfc": _libm(_method("erfc"), 3.9, 10.0, 27.0, 27.3),
    "erfcx": _cephes(_special("erfcx"), 26.0, 1e5, -26.7),
    "erfinv": _cephes(_method("erfinv"), 0.9999999, -0.9999999, 1.0000001, 0.7),
    "lgamma": _cephes(_method("lgamma"), -2.5, 3.0, 1e-8, -1e-8),
    "digamma": _cephes(_method("digamma"), -2.5, 1e-8, -1e-8),
    "polygamma 1": _cephes(_method("polygamma", 1), -2.5),
    "polygamma 2": _cephes(_special("polygamma", 2), -2.5),
    "polygamma 0": _cephes(_method("polygamma", 0), -2.5),
    "polygamma 4": _cephes(_method("polygamma", 4), -2.5, 1e-8),
    "mvlgamma p=1": _cephes(_special("multigammaln", 1)),
    "mvlgamma p=3": _cephes(_top("mvlgamma", p=3), 1.1, 1.0),
    "i0": _cephes(_special("i0"), 700.0, 713.0, 90.0, 88.8),
    "i0e": _cephes(_special("i0e")),
    "i1": _cephes(_special("i1"), 700.0, 713.0, 90.0, 88.8),
    "i1e": _cephes(_special("i1e")),
    "ndtr": _cephes(_special("ndtr"), -38.5, -8.0, 6.0),
    # (the gradient exp(y**2 / 2): an ulp of y = ndtri(1e-30) = -11.5 is y**2 = 130 ulps)
    "ndtri": _cephes(_special("ndtri"), 0.9999999, 1e-30, 0.3, grad_ulps=512),
    "log_ndtr": _cephes(_special("log_ndtr"), -38.5, 6.0, 40.0, skip_grad=_far_tail),
    "entr": _libm(_special("entr")),
    "logit": _libm(_method("logit"), 0.9999999, 1e-30, skip_grad=_minus_zero),
    "logit eps=1e-6": _libm(_method("logit", eps=1e-6), 1e-6, 0.999999, 1e-7, 0.9999999,
                            skip_grad=_nan),
    "logit eps=0.25": _libm(_method("logit", eps=0.25), 0.25, 0.75, skip_grad=_nan),
    "logit eps=-1": _libm(_method("logit", eps=-1.0), skip_grad=_minus_zero),
    "xlog1py(x, 2.)": _libm(lambda lib, x: lib.special.xlog1py(x, 2.0)),
    "xlog1py(0., x)": _libm(lambda lib, x: lib.special.xlog1py(0.0, x)),
    # rounding and classification
    "frac": Op(_method("frac"), extra=(2.75, -2.75, 8388609.0)),
    "trunc": Op(_method("trunc"), extra=(2.75, -2.75, -0.75)),
    "fix": Op(_method("fix"), extra=(-0.75,)),
    "signbit": Op(_method("signbit")),
    "sgn": Op(_method("sgn")),
    "angle": Op(_top("angle")),
    "sign": Op(_method("sign")),
    "positive": Op(_top("positive")),
    "nan_to_num": Op(_method("nan_to_num")),
    "nan_to_num 1 2 3": Op(_method("nan_to_num", 1.0, 2.0, -3.0)),
    "nan_to_num posinf=inf": Op(_method("nan_to_num", posinf=INF, neginf=-0.0)),
    "isfinite": Op(_method("isfinite")),
    "isposinf": Op(_method("isposinf")),
    "isneginf": Op(_method("isneginf")),
    # scalar forms of the binary ops
    "float_power 2": _libm(_method("float_power", 2)),
    "float_power 0.5": _libm(_method("float_power", 0.5)),
    "2 float_power x": _libm(lambda lib, x: lib.float_power(2.0, x)),
    "ldexp(x, ints)": Op(lambda lib, x: lib.ldexp(x, _ints(lib, x, [3, -1, 200, -1100, 0, 63]))),
    "heaviside(x, 0.5)": Op(lambda lib, x: lib.heaviside(x, lib.tensor(0.5, dtype=x.dtype))),
    "heaviside(x, -0.)": Op(lambda lib, x: lib.heaviside(x, lib.tensor(-0.0, dtype=x.dtype))),
    "true_divide 3": Op(lambda lib, x: lib.true_divide(x, 3.0)),
    "floor_divide 0.75": Op(lambda lib, x: lib.floor_divide(x, 0.75)),
    "div trunc 0.75": Op(lambda lib, x: lib.div(x, 0.75, rounding_mode="trunc")),
    "div floor -0.75": Op(lambda lib, x: lib.div(x, -0.75, rounding_mode="floor")),
    "3 / x": Op(lambda lib, x: 3.0 / x),
    "-3 // x": Op(lambda lib, x: -3.0 // x),
    "logaddexp(x, 0.)": _libm(lambda lib, x: lib.logaddexp(x, lib.zeros_like(x))),
    "logaddexp2(x, x)": _libm(lambda lib, x: lib.logaddexp2(x, x), unsigned_zeros=True,
                              cancel_forward=True),
    "nextafter(x, 0.)": Op(lambda lib, x: lib.nextafter(x, lib.zeros_like(x))),
}

BINARY: dict[str, Op] = {
    "heaviside": Op(_binary("heaviside"), arity=2),
    "logaddexp": _libm(_binary("logaddexp"), arity=2),
    "logaddexp2": _libm(_binary("logaddexp2"), arity=2, unsigned_zeros=True,
                        cancel_forward=True),
    "nextafter": Op(_binary("nextafter"), arity=2),
    "ldexp": _libm(_binary("ldexp"), arity=2),
    "float_power": _libm(_binary("float_power"), arity=2),
    "xlog1py": _libm(lambda lib, x, y: lib.special.xlog1py(x, y), arity=2),
    "true_divide": Op(_binary("true_divide"), arity=2),
    "floor_divide": Op(_binary("floor_divide"), arity=2),
    "div trunc": Op(_binary("div", rounding_mode="trunc"), arity=2),
    "x / y": Op(lambda lib, x, y: x / y, arity=2),
    "x // y": Op(lambda lib, x, y: x // y, arity=2),
    "x % y": Op(lambda lib, x, y: x % y, arity=2, skip=_quotient_overflows),
}

_SHRINK = {"unsigned_zeros": True, "skip_grad": _nan}

ACTIVATIONS: dict[str, Op] = {
    "relu": Op(_nn("relu")),
    "relu6": Op(_nn("relu6"), extra=(6.0, 5.9999995), skip_grad=_nan),
    "leaky_relu": Op(_nn("leaky_relu")),
    "leaky_relu 0.2": Op(_nn("leaky_relu", 0.2)),
    "leaky_relu -0.5": Op(_nn("leaky_relu", -0.5)),
    "hardtanh": Op(_nn("hardtanh"), skip_grad=_nan),
    "hardtanh -2 0.5": Op(_nn("hardtanh", -2.0, 0.5), extra=(-2.0, 0.25), skip_grad=_nan),
    "hardtanh 0 0": Op(_nn("hardtanh", 0.0, 0.0), skip_grad=_nan),
    "threshold 0.5 -1": Op(_nn("threshold", 0.5, -1.0), extra=(0.4999999,)),
    "threshold -0. 7": Op(_nn("threshold", -0.0, 7.0)),
    "threshold nan": Op(_nn("threshold", 1.0, NAN)),
    "softplus": _libm(_nn("softplus"), 20.0, 19.999998, 20.000002, -104.0, -746.0,
                      grad_ulps=8),
    "softplus beta=2 thr=5": _libm(_nn("softplus", beta=2.0, threshold=5.0), 2.5, 2.4999998,
                                   2.5000002, grad_ulps=8),
    "softplus beta=-1": _libm(_nn("softplus", beta=-1.0), grad_ulps=8),
    "softplus beta=0.5 thr=0": _libm(_nn("softplus", beta=0.5, threshold=0.0), grad_ulps=8),
    "silu": _libm(_nn("silu"), grad_ulps=16),
    "mish": _libm(_nn("mish"), grad_ulps=16),
    "logsigmoid": _libm(_nn("logsigmoid"), grad_ulps=8),
    "celu": _libm(_nn("celu"), grad_ulps=8),
    "celu 0.5": _libm(_nn("celu", 0.5), grad_ulps=8),
    "elu 2": _libm(_nn("elu", 2.0), grad_ulps=8),
    "selu": _libm(_nn("selu"), grad_ulps=8),
    # (x / 2 * (1 + erf(x / sqrt 2)): 1 + erf cancels below 0; and in float32 PyTorch's AVX2
    # kernel has its own erf, ~40 ulps off at -3)
    "gelu": _libm(_nn("gelu"), grad_ulps=16, unsigned_zeros=True, cancel_forward=True),
    "gelu tanh": _libm(_nn("gelu", approximate="tanh"), grad_ulps=16, cancel_forward=True),
    "softsign": Op(_nn("softsign")),
    "tanhshrink": _libm(_nn("tanhshrink"), grad_ulps=16, cancel_forward=True),  # (x - tanh x)
    "softshrink": Op(_nn("softshrink"), extra=(0.5000001, 0.4999999), **_SHRINK),
    "softshrink 2": Op(_nn("softshrink", 2.0), extra=(-2.0, 2.0000002), **_SHRINK),
    "softshrink 0": Op(_nn("softshrink", 0.0), **_SHRINK),
    "hardshrink": Op(_nn("hardshrink"), skip_grad=_nan),
    "hardshrink 2": Op(_nn("hardshrink", 2.0), extra=(-2.0, 2.0000002), skip_grad=_nan),
    "hardswish": Op(_nn("hardswish"), extra=(3.0, -3.0), skip_grad=_nan),
    "hardsigmoid": Op(_nn("hardsigmoid"), extra=(3.0, -3.0)),
    "rrelu eval": Op(_nn("rrelu", training=False)),
    "rrelu eval 0.1 0.3": Op(_nn("rrelu", 0.1, 0.3, training=False)),
    "prelu": Op(lambda lib, x: lib.nn.functional.prelu(x, lib.tensor([0.25], dtype=x.dtype))),
    "prelu -0.": Op(lambda lib, x: lib.nn.functional.prelu(x, lib.tensor([-0.0], dtype=x.dtype))),
    "softmin": _libm(_nn("softmin", dim=0), grad_ulps=16),
    "glu": _libm(_nn("glu", dim=0), grad_ulps=16),
    "sigmoid F": _libm(_nn("sigmoid")),
    # the in-place forms (on a copy: a leaf's view cannot be written), whose backward may
    # read the result instead of the input
    "relu_": Op(lambda lib, x: (x * 1).relu_()),
    "hardtanh_": Op(lambda lib, x: lib.nn.functional.hardtanh_(x * 1, -2.0, 0.5),
                    skip_grad=_nan),
    "leaky_relu_": Op(lambda lib, x: lib.nn.functional.leaky_relu_(x * 1, 0.2)),
    "elu_": _libm(lambda lib, x: lib.nn.functional.elu_(x * 1), grad_ulps=8),
    "celu_": _libm(lambda lib, x: lib.nn.functional.celu_(x * 1, 0.5), grad_ulps=8),
    "selu_": _libm(lambda lib, x: lib.nn.functional.selu_(x * 1), grad_ulps=8),
    "threshold_": Op(lambda lib, x: lib.nn.functional.threshold_(x * 1, 0.5, -1.0)),
    "rrelu_ eval": Op(lambda lib, x: lib.nn.functional.rrelu_(x * 1, training=False)),
    "silu inplace": _libm(lambda lib, x: lib.nn.functional.silu(x * 1, inplace=True),
                          grad_ulps=16),
    "hardswish inplace": Op(lambda lib, x: lib.nn.functional.hardswish(x * 1, inplace=True),
                            extra=(3.0, -3.0), skip_grad=_nan),
    "tanh F": _libm(_nn("tanh")),
}

OPS: dict[str, Op] = {**UNARY, **BINARY, **ACTIVATIONS}

# What still differs, with why (``-rx`` lists them). An entry is
# ``(op, dtype): pytest.mark.xfail(strict=True, reason=...)``.
KNOWN: dict[tuple[str, str], Any] = {}


def _params() -> list[Any]:
    return [pytest.param(name, dtype, id=f"{name}-{dtype}",
                         marks=[KNOWN[name, dtype]] if (name, dtype) in KNOWN else [])
            for name, op in OPS.items() for dtype in op.dtypes]


@parametrize_in_one(("name", "dtype"), _params())
def test_elementwise_edges_as_pytorch(name: str, dtype: str) -> None:
    found = sweep(OPS[name], dtype)
    assert not found, f"{name} {dtype}: {len(found)} differences\n" + "\n".join(found[:60])


def test_the_sweep_can_fail() -> None:
    """A wrong zero sign alone is caught, in every layout, with its input named.

    ``x + 0.`` is ``x * 1.`` everywhere but at -0. (where it gives +0.).
    """
    op = Op(lambda lib, x: x + 0.0 if lib is minigrad else x * 1.0)
    found = sweep(op, "float32")
    layouts = {line.split(" output")[0] for line in found}
    assert layouts == {"contiguous", "transposed", "sliced", "0-d -0.0"}, found
    assert all(" at (-0.0): 0.0, PyTorch -0.0" in line for line in found), found
