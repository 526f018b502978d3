"""float16 arithmetic bit for bit against PyTorch's CPU kernels (its float32 "opmath").

PyTorch computes a float16 op on the CPU in float32 and rounds once; a Python number next to
a float16 tensor in ``*`` and ``/`` is taken in float32, not rounded to float16 first
(``half([0.5]) * 70000.0`` is 35008, not inf). The matrix below runs float16 tensors (0-d,
1-d and 2-d; subnormals, signed zeros, infinities, nan, values near 65504) through both
libraries: the binary operators with tensors and Python numbers on both sides, the ops with
a number option, comparisons, unary ops, reductions, products, and the backward of the
differentiable ones. Each case compares dtypes, shapes, the values' bits (a nan is any nan:
its sign is not compared) and errors (type and text, ``torch`` read as ``minigrad``).

``python tests_torch/test_half_opmath_torch.py`` prints every divergence and the counts per
group. The tests allow exactly the divergences listed in ``_KNOWN`` (measured, with why).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import torch
from _cases import parametrize_in_one

import minigrad

H = np.float16
_NAN = float("nan")
_INF = float("inf")
# The values every input draws from: specials, subnormals, float16's edges, ordinary numbers
_SPECIALS = [
    0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.0, 3.0, 0.1, 1 / 3, 100.0, -7.75, 11.5, -20.0,
    2.0**-24, -(2.0**-24), 3 * 2.0**-24, 2.0**-15, 6.1e-5, 1e-4, 1e-3, 255.9,
    1000.0, -4096.0, 60000.0, 65504.0, -65504.0, 65000.0, _INF, -_INF, _NAN, 0.999, -0.75,
]
_VALUES = np.array(_SPECIALS, dtype=H)  # (33 values: a vector of 32 float16 and a tail)
_POSITIVE = np.abs(_VALUES)
_UNIT = np.array([0.0, -0.0, 0.25, 0.5, 0.75, 1.0, -0.5, 0.9995, 1e-3, 2.0**-24, 0.3], H)
_NUMBERS: list[Any] = [
    0, 1, -1, 2, 3, 7, 255, 65504, 70000, -70000, 100000, 2**40,
    0.0, -0.0, 0.5, 0.1, -0.3, 1 / 3, 2.5, 1e-3, 3e-5, 1e-8, 5.9e-8, 65519.0, 65520.0,
    70000.0, -1e5, 1e10, 1e300, _INF, -_INF, _NAN, True, -0.5, -2, 3.0, 0.3333,
]


def _inputs() -> Iterator[tuple[str, np.ndarray]]:
    """The float16 operands: the specials as a 1-d, a 2-d and a strided tensor, and 0-d ones."""
    yield "1d", _VALUES
    yield "2d", np.random.default_rng(3).permutation(_VALUES)[:30].reshape(5, 6)
    yield "strided", _VALUES[::3]
    for value in (0.5, -0.0, 65504.0, 2.0**-24, 3.0, _NAN):
        yield f"0d({value})", np.array(value, H)


def _other(array: np.ndarray) -> np.ndarray:
    """A second float16 operand of ``array``'s shape: its values reversed, then shifted."""
    return np.roll(array.reshape(-1)[::-1], 5).reshape(array.shape).copy()


class _Lib:
    """One library's view of a case: tensors from arrays, and its name for the result."""

    def __init__(self, module: Any) -> None:
        self.m = module
        self.F = module.nn.functional

    def t(self, array: np.ndarray, grad: bool = False) -> Any:
        """A tensor holding a copy of ``array`` (a leaf that needs a gradient if ``grad``)."""
        if self.m is torch:
            return torch.from_numpy(np.array(array)).requires_grad_(grad)
        return minigrad.tensor(np.array(array), requires_grad=grad)


_TORCH, _MINIGRAD = _Lib(torch), _Lib(minigrad)


def _outcome(lib: _Lib, case: Callable[[_Lib], Any]) -> Any:
    """The case's result as numpy arrays (a tuple for several), or its error as (type, text)."""
    try:
        result = case(lib)
    except Exception as error:  # (an error is an outcome to compare)
        return (type(error).__name__, str(error).replace("torch", "minigrad"))
    results = result if isinstance(result, tuple) else (result,)
    return tuple(
        r.detach().numpy().copy() if hasattr(r, "detach") else np.asarray(r) for r in results
    )


def _bits(array: np.ndarray) -> bytes:
    """The array's bytes, every nan made one nan (a nan's sign and payload are not compared)."""
    if array.dtype.kind == "f":
        array = np.where(np.isnan(array), np.array(_NAN, array.dtype), array)
    return np.ascontiguousarray(array).tobytes()


def _differs(got: Any, want: Any) -> str | None:
    """How minigrad's outcome differs from PyTorch's (None: not at all)."""
    if isinstance(want, tuple) and want and isinstance(want[0], str):
        same = bool(got) and isinstance(got[0], str) and got == want
        return None if same else f"torch raised {want}, minigrad gave {_show(got)}"
    if isinstance(got, tuple) and got and isinstance(got[0], str):
        return f"minigrad raised {got}, torch gave {_show(want)}"
    for g, w in zip(got, want, strict=True):
        if g.dtype != w.dtype or g.shape != w.shape:
            return f"{g.dtype}{g.shape} against torch's {w.dtype}{w.shape}"
        if _bits(g) != _bits(w):
            where = np.flatnonzero(
                _bits_array(g) != _bits_array(w))[:3]
            return "values " + ", ".join(
                f"[{i}] {g.reshape(-1)[i]!r} != {w.reshape(-1)[i]!r}" for i in where)
    return None


def _bits_array(array: np.ndarray) -> np.ndarray:
    """The array's elements as unsigned integers of their bits (nan made one nan), flat."""
    flat = np.frombuffer(_bits(array), dtype=f"u{array.dtype.itemsize}")
    return flat


def _show(outcome: Any) -> str:
    """An outcome, short."""
    if isinstance(outcome, tuple) and outcome and isinstance(outcome[0], np.ndarray):
        return ", ".join(f"{o.dtype}{list(o.shape)}" for o in outcome)
    return repr(outcome)


# --- the cases ---------------------------------------------------------------------------
# Each is (group, label, case): ``case(lib)`` runs the program on one library.

Case = tuple[str, str, Callable[[_Lib], Any]]

_BINARY = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "**": lambda a, b: a**b,
}


def _binary_cases() -> Iterator[Case]:
    for name, op in _BINARY.items():
        for shape, array in _inputs():
            yield name, f"t {name} t {shape}", lambda L, a=array, op=op: op(L.t(a), L.t(_other(a)))
            for number in _NUMBERS:
                yield name, f"t {name} {number!r} {shape}", (
                    lambda L, a=array, op=op, n=number: op(L.t(a), n))
                yield "r" + name, f"{number!r} {name} t {shape}", (
                    lambda L, a=array, op=op, n=number: op(n, L.t(a)))


def _option_cases() -> Iterator[Case]:
    for shape, array in _inputs():
        b = _other(array)
        for alpha in (2, -1, 0.5, 0.1, 3e-5, 70000.0, 1e-8):
            for op in ("add", "sub"):
                yield f"{op}(alpha)", f"{op}(t, t, alpha={alpha}) {shape}", (
                    lambda L, a=array, b=b, op=op, al=alpha: getattr(L.m, op)(
                        L.t(a), L.t(b), alpha=al))
                yield f"{op}(alpha)", f"{op}(t, 3.0, alpha={alpha}) {shape}", (
                    lambda L, a=array, op=op, al=alpha: getattr(L.m, op)(L.t(a), 3.0, alpha=al))
        c = np.roll(b, 2) if b.ndim else b
        for value in (1, 0.5, 0.1, -3e-5, 70000.0, 1e-8):
            for op in ("addcmul", "addcdiv"):
                yield op, f"{op}(value={value}) {shape}", (
                    lambda L, a=array, b=b, c=c, op=op, v=value: getattr(L.m, op)(
                        L.t(a), L.t(b), L.t(c), value=v))
        for weight in (0.5, 0.1, 0.75, 1.5, -0.3, 70000.0):
            yield "lerp", f"lerp(t, t, {weight}) {shape}", (
                lambda L, a=array, b=b, w=weight: L.m.lerp(L.t(a), L.t(b), w))
        unit = np.resize(_UNIT, array.shape).astype(H)
        yield "lerp", f"lerp(t, t, weight t) {shape}", (
            lambda L, a=array, b=b, w=unit: L.m.lerp(L.t(a), L.t(b), L.t(w)))
        for low, high in ((-1, 1), (0.1, 0.2), (-70000.0, 70000.0), (1e-8, None), (None, -0.3),
                          (-_INF, 65519.0), (_NAN, None)):
            yield "clamp", f"clamp({low}, {high}) {shape}", (
                lambda L, a=array, lo=low, hi=high: L.t(a).clamp(lo, hi))
        for number in (0.1, 70000.0, -1e-8, 1 / 3, 3, _NAN):
            yield "where", f"where(t > 0, t, {number}) {shape}", (
                lambda L, a=array, n=number: L.m.where(L.t(a) > 0, L.t(a), n))
            yield "where", f"where(t > 0, {number}, t) {shape}", (
                lambda L, a=array, n=number: L.m.where(L.t(a) > 0, n, L.t(a)))
        for name, compare in (("<", lambda a, n: a < n), ("<=", lambda a, n: a <= n),
                              (">", lambda a, n: a > n), (">=", lambda a, n: a >= n),
                              ("==", lambda a, n: a == n), ("!=", lambda a, n: a != n)):
            for number in (0.1, 1 / 3, 65504, 65519.0, 65520.0, 70000.0, 1e-8, 5.9e-8, -_INF,
                           3e-5, 2.0**-24):
                yield "compare", f"t {name} {number!r} {shape}", (
                    lambda L, a=array, c=compare, n=number: c(L.t(a), n))


def _inplace(op: Callable[[Any], Any]) -> Callable[[_Lib, np.ndarray], Any]:
    """A case writing a fresh float16 tensor in place with ``op``: the tensor afterwards."""
    def case(lib: _Lib, array: np.ndarray) -> Any:
        tensor = lib.t(array)
        op(tensor)
        return tensor
    return case


def _inplace_cases() -> Iterator[Case]:
    def imul(t: Any) -> None:
        t *= 70000.0

    def idiv(t: Any) -> None:
        t /= 0.1

    programs: dict[str, Callable[[Any], Any]] = {
        "mul_(70000.0)": lambda t: t.mul_(70000.0), "div_(0.1)": lambda t: t.div_(0.1),
        "*= 70000.0": imul, "/= 0.1": idiv, "floor_divide_(0.1)": lambda t: t.floor_divide_(0.1),
        "add_(t, alpha=0.1)": lambda t: t.add_(t.detach().clone(), alpha=0.1),
        "sub_(2.0, alpha=0.1)": lambda t: t.sub_(2.0, alpha=0.1),
        "addcmul_(value=0.1)": lambda t: t.addcmul_(t.detach().clone(), t.detach().clone(),
                                                    value=0.1),
        "lerp_(0.1)": lambda t: t.lerp_(t.detach().clone() * 0.5, 0.1),
        "pow_(0.5)": lambda t: t.pow_(0.5),
    }
    for name, program in programs.items():
        for shape, array in _inputs():
            yield "in place", f"{name} {shape}", lambda L, a=array, p=program: _inplace(p)(L, a)


def _wide_scalar_cases() -> Iterator[Case]:
    # A one-element operand of another dtype next to a float16 tensor: the result is float16,
    # and PyTorch's mul/div read the scalar at its own value (TensorIterator's is_scalar(2))
    for shape, array in _inputs():
        for value, dtype in ((70000.0, np.float32), (0.1, np.float64), (70000, np.int64),
                             (1 / 3, np.float32)):
            other = np.array(value, dtype)
            for name, op in (("*", lambda a, b: a * b), ("/", lambda a, b: a / b),
                             ("+", lambda a, b: a + b)):
                yield "0-d other dtype", f"t {name} tensor({value}, {dtype.__name__}) {shape}", (
                    lambda L, a=array, b=other, op=op: op(L.t(a), L.t(b)))
                yield "0-d other dtype", f"tensor({value}, {dtype.__name__}) {name} t {shape}", (
                    lambda L, a=array, b=other, op=op: op(L.t(b), L.t(a)))


_UNARY: dict[str, Callable[[_Lib, Any], Any]] = {
    "exp": lambda L, t: t.exp(), "exp2": lambda L, t: L.m.exp2(t),
    "expm1": lambda L, t: t.expm1(), "log": lambda L, t: t.log(),
    "log2": lambda L, t: t.log2(), "log10": lambda L, t: t.log10(),
    "log1p": lambda L, t: t.log1p(), "sigmoid": lambda L, t: t.sigmoid(),
    "tanh": lambda L, t: t.tanh(), "sqrt": lambda L, t: t.sqrt(), "rsqrt": lambda L, t: t.rsqrt(),
    "reciprocal": lambda L, t: t.reciprocal(), "sin": lambda L, t: t.sin(),
    "cos": lambda L, t: t.cos(), "tan": lambda L, t: t.tan(), "atan": lambda L, t: t.atan(),
    "asin": lambda L, t: t.asin(), "sinh": lambda L, t: t.sinh(),
    "cosh": lambda L, t: t.cosh(), "erf": lambda L, t: t.erf(), "erfc": lambda L, t: t.erfc(),
    "abs": lambda L, t: t.abs(), "neg": lambda L, t: -t, "square": lambda L, t: t.square(),
    "relu": lambda L, t: t.relu(), "gelu": lambda L, t: L.F.gelu(t),
    "gelu(tanh)": lambda L, t: L.F.gelu(t, approximate="tanh"),
    "softplus": lambda L, t: L.F.softplus(t), "silu": lambda L, t: L.F.silu(t),
    "mish": lambda L, t: L.F.mish(t), "elu": lambda L, t: L.F.elu(t),
    "logsigmoid": lambda L, t: L.F.logsigmoid(t), "hardswish": lambda L, t: L.F.hardswish(t),
    "floor": lambda L, t: t.floor(), "round": lambda L, t: t.round(),
    "trunc": lambda L, t: t.trunc(), "frac": lambda L, t: t.frac(), "sign": lambda L, t: t.sign(),
}


def _unary_cases() -> Iterator[Case]:
    for name, op in _UNARY.items():
        for shape, array in _inputs():
            yield name, f"{name} {shape}", lambda L, a=array, op=op: op(L, L.t(a))
            yield name + " backward", f"{name}' {shape}", (
                lambda L, a=array, op=op: _gradients(L, op, a))


def _gradients(lib: _Lib, op: Callable[[_Lib, Any], Any], array: np.ndarray) -> Any:
    """The op's result and its input's gradient for a gradient of ``_other`` values."""
    x = lib.t(array, grad=True)
    y = op(lib, x)
    y.backward(lib.t(np.resize(_other(_UNIT), y.shape).astype(H)))
    return y, x.grad


_SAFE = np.array([0.5, -1.25, 2.0, 3.0, -0.75, 0.1, 7.0, -4.0, 1.5, 0.25, 9.5, -2.0], H)
_BIG = np.array([60000.0, 1000.0, -0.5, 65504.0, 2.0**-24, 300.0, -3000.0, 8.0, 1e-3, 40.0,
                 -65504.0, 2.0], H)


def _reduction_cases() -> Iterator[Case]:
    rng = np.random.default_rng(5)
    arrays = {
        "safe": _SAFE.reshape(3, 4), "big": _BIG.reshape(3, 4),
        "random": rng.normal(0, 30, (6, 40)).astype(H),
        "long": rng.uniform(0, 2, (3000,)).astype(H),  # sums past float16's 2048 integers
        "specials": _VALUES[:32].reshape(4, 8),
    }
    reductions: dict[str, Callable[[_Lib, Any], Any]] = {
        "sum": lambda L, t: t.sum(), "sum(-1)": lambda L, t: t.sum(-1),
        "mean": lambda L, t: t.mean(), "mean(0)": lambda L, t: t.mean(0),
        "prod": lambda L, t: t.prod(), "prod(-1)": lambda L, t: t.prod(-1),
        "cumsum": lambda L, t: t.cumsum(-1), "cumprod": lambda L, t: t.cumprod(-1),
        "var": lambda L, t: t.var(), "var(-1)": lambda L, t: t.var(-1),
        "std": lambda L, t: t.std(), "std(-1)": lambda L, t: t.std(-1),
        "norm": lambda L, t: t.norm(), "norm(1)": lambda L, t: t.norm(1),
        "norm(-1)": lambda L, t: t.norm(dim=-1),
        "logsumexp": lambda L, t: t.logsumexp(-1), "softmax": lambda L, t: t.softmax(-1),
        "log_softmax": lambda L, t: t.log_softmax(-1), "amax": lambda L, t: t.amax(-1),
    }
    cube = rng.normal(0, 3, (40, 7, 5)).astype(H)
    for dim in (0, 1):
        for name in ("softmax", "log_softmax"):
            yield f"{name}(dim)", f"{name}({dim}) cube", (
                lambda L, a=cube, n=name, d=dim: getattr(L.t(a), n)(d))
    for name, op in reductions.items():
        for label, array in arrays.items():
            yield name, f"{name} {label}", lambda L, a=array, op=op: op(L, L.t(a))
            if label != "specials":
                yield name + " backward", f"{name}' {label}", (
                    lambda L, a=array, op=op: _gradients(L, op, a))


def _product_cases() -> Iterator[Case]:
    rng = np.random.default_rng(11)
    for k in (4, 33, 300):
        a = rng.normal(0, 3, (5, k)).astype(H)
        b = rng.normal(0, 3, (k, 6)).astype(H)
        big = (a * H(40)).astype(H)
        bias = rng.normal(0, 3, (6,)).astype(H)
        products: dict[str, Callable[[_Lib, Any, Any], Any]] = {
            "matmul": lambda L, x, y: x @ y, "mm": lambda L, x, y: L.m.mm(x, y),
            "matmul(vec)": lambda L, x, y: x[0] @ y,
            "bmm": lambda L, x, y: L.m.bmm(x.expand(2, -1, -1), y.expand(2, -1, -1)),
            "linear": lambda L, x, y, bias=bias: L.F.linear(x, y.t(), L.t(bias)),
        }
        for name, op in products.items():
            for label, left in (("k", a), ("big", big)):
                yield name, f"{name} {label}={k}", (
                    lambda L, x=left, y=b, op=op: op(L, L.t(x), L.t(y)))
                yield name + " backward", f"{name}' {label}={k}", (
                    lambda L, x=left, y=b, op=op: _product_gradients(L, op, x, y))


def _product_gradients(lib: _Lib, op: Callable[..., Any], a: np.ndarray, b: np.ndarray) -> Any:
    """A product, then both operands' gradients for a gradient of ones."""
    x, y = lib.t(a, grad=True), lib.t(b, grad=True)
    z = op(lib, x, y)
    z.backward(lib.t(np.ones(z.shape, H)))
    return z, x.grad, y.grad


# PyTorch's fused products in float16 (beta * input + alpha * product): addmm and baddbmm in
# float32, rounded once; addbmm one such addmm per batch; addmv with beta and alpha as float16,
# beta * input rounded first; addr elementwise, every step rounded. beta and alpha past
# float16's range are refused where the kernel converts them to float16 (addmv, addr).
_SCALINGS = ((1, 1), (0.5, 2), (0.1, 0.3), (3e-5, 7000.0), (2, -1), (0, 0.1), (1e-8, 1),
             (1, 70000.0), (70000.0, 1), (0, 0))


def _fused_products(mat: np.ndarray, vec: np.ndarray, batch1: np.ndarray,
                    batch2: np.ndarray, bias: np.ndarray) -> dict[str, Callable[..., Any]]:
    """Each fused product of these operands, as ``op(lib, beta, alpha)``."""
    return {
        "addmm": lambda L, b, a: L.m.addmm(L.t(bias), L.t(mat), L.t(batch2[0]),
                                           beta=b, alpha=a),
        "addmv": lambda L, b, a: L.m.addmv(L.t(bias[:, 0]), L.t(mat), L.t(vec),
                                           beta=b, alpha=a),
        "baddbmm": lambda L, b, a: L.m.baddbmm(L.t(bias), L.t(batch1), L.t(batch2),
                                               beta=b, alpha=a),
        "addbmm": lambda L, b, a: L.m.addbmm(L.t(bias[0]), L.t(batch1), L.t(batch2),
                                             beta=b, alpha=a),
        "addr": lambda L, b, a: L.m.addr(L.t(bias), L.t(mat[:, 0]), L.t(bias[0]),
                                         beta=b, alpha=a),
    }


def _fused_cases() -> Iterator[Case]:
    rng = np.random.default_rng(13)
    for k in (4, 33):
        for label, scale in (("k", 1), ("big", 40)):
            products = _fused_products(
                (rng.normal(0, 3, (5, k)) * scale).astype(H), rng.normal(0, 3, (k,)).astype(H),
                (rng.normal(0, 3, (3, 5, k)) * scale).astype(H),
                rng.normal(0, 3, (3, k, 6)).astype(H),
                (rng.normal(0, 3, (5, 6)) * scale * 50).astype(H))
            for name, op in products.items():
                for beta, alpha in _SCALINGS:
                    yield name, f"{name}(beta={beta}, alpha={alpha}) {label}={k}", (
                        lambda L, op=op, b=beta, a=alpha: op(L, b, a))


def cases() -> list[Case]:
    """Every case of the matrix."""
    return [*_binary_cases(), *_option_cases(), *_inplace_cases(), *_wide_scalar_cases(),
            *_unary_cases(), *_reduction_cases(), *_product_cases(), *_fused_cases()]


def divergences(selected: list[Case]) -> list[tuple[str, str, str]]:
    """(group, label, how) for each case where minigrad's outcome is not PyTorch's."""
    found = []
    for group, label, case in selected:
        with np.errstate(all="ignore"):
            want = _outcome(_TORCH, case)
            got = _outcome(_MINIGRAD, case)
        how = _differs(got, want)
        if how is not None:
            found.append((group, label, how))
    return found


# The cases allowed to differ, and why (measured on PyTorch 2.13.0, CPU capability AVX2).
# PyTorch's elementwise float16 kernels have two paths: contiguous runs of 32 elements go
# through Vectorized<Half> (converted to float32, computed, rounded once: minigrad's rule),
# the rest (a 0-d tensor, a strided one, fewer than 32 elements, a tail) through the scalar
# lambda, whose c10::Half arithmetic rounds after every step. Which path an element takes
# depends on its position in the iteration; minigrad follows the vectorised one throughout
# but where the two differ: add and sub with alpha, and rsqrt (whose scalar sqrt rounds), model
# both (opmath.scalar_loop_mask).
_KNOWN: dict[str, str] = {
    **dict.fromkeys([
        "erf 1d", "erf' 1d", "erf 2d", "erf' 2d", "erf strided", "erf' strided",
        "erf 0d(5.960464477539063e-08)", "erf' 0d(5.960464477539063e-08)",
    ], "PyTorch's float erf is its own polynomial: 0 for |x| below ~1e-7, 1 ulp elsewhere"),
    **dict.fromkeys(["erf' 0d(0.5)", "erf' 0d(3.0)", "erfc' 0d(0.5)", "erfc' 0d(3.0)"],
                    "a 0-d tensor times a number: PyTorch's scalar path, an ulp apart"),
    **dict.fromkeys(["elu' 1d", "hardswish' 1d"],
                    "a nan input: PyTorch's vectorised backward gives nan, its scalar path "
                    "(and minigrad, float32 too) the gradient"),
    **dict.fromkeys(["softmax(0) cube", "softmax(1) cube"],
                    "softmax along another dim than the last: PyTorch's kernel rounds the "
                    "exponentials (dim 1: 319 of 1,400 elements, dim 0: 30), an ulp apart"),
    **dict.fromkeys(["prod safe", "prod' safe", "prod(-1) safe", "prod(-1)' safe",
                     "prod(-1) big", "prod(-1)' big"],
                    "prod multiplies in float16 in its vectorised order (numpy: one by one)"),
    **dict.fromkeys(["linear big=33", "linear' big=33"],
                    "the gemm's float32 sum in another order: 1 of 30 elements an ulp apart"),
}
# ... of which these differ on some machines only: numpy's BLAS picks its gemm kernel (and so
# its order of summation) by the CPU (OpenBLAS's Haswell, Zen and Sandybridge kernels: 1 element
# an ulp apart; its SkylakeX kernel, on a CPU with AVX-512: equal). Either outcome passes.
_KNOWN_ON_SOME_CPUS = {"linear big=33", "linear' big=33"}


def _groups() -> list[str]:
    return sorted({group for group, _, _ in cases()})


@parametrize_in_one("group", _groups())
def test_half_matches_pytorch(group: str) -> None:
    selected = [c for c in cases() if c[0] == group]
    found = {label: how for _, label, how in divergences(selected)}
    known = {label for _, label, _ in selected if label in _KNOWN}
    # (parenthesised: ``-`` binds tighter than ``^``, and ``found ^ (known - some)`` would
    # reject these cases where they differ)
    unexpected = (set(found) ^ known) - _KNOWN_ON_SOME_CPUS
    assert not unexpected, {label: found.get(label, "now equal") for label in unexpected}


if __name__ == "__main__":
    everything = cases()
    found = divergences(everything)
    for group, label, how in found:
        print(f"{group:16} {label:40} {how}")
    counts = Counter(group for group, _, _ in found)
    print(f"\n{len(found)} of {len(everything)} cases differ:", dict(sorted(counts.items())))
    sys.exit(0)
