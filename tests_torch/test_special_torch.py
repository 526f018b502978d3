"""The special functions against PyTorch over wide grids: values in float64 and float32, gradients.

minigrad's kernels (minigrad/ops/_special_kernels.py) are its own numpy code, so these grids
cover the whole domain PyTorch computes: the poles (0 and the negative integers), negative
non-integers, +-inf, nan, subnormal and huge arguments, the ends of erfinv's and ndtri's
domains. Float64 values agree to about 1e-13 relative (where PyTorch's own kernel is less
accurate, the tolerance says so: its trigamma is good to about 1e-10, its digamma loses
relative accuracy next to its roots); float32 values to a few units in the last place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")

_RNG = np.random.default_rng(20261203)
_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, 5e-324, -1e-300, 1e300, -1e300, 1.0, 2.0]
_INTEGERS = list(np.arange(-6.0, 7.0)) + list(np.arange(-5.5, 6.0))


def _grid(*pieces: Any) -> np.ndarray:
    return np.concatenate([np.asarray(piece, dtype=np.float64).ravel() for piece in pieces])


REAL = _grid(
    np.linspace(-40.0, 40.0, 801),
    _RNG.uniform(-25.0, 25.0, 400),
    np.exp(np.linspace(-40.0, 690.0, 300)),
    -np.exp(np.linspace(-40.0, 690.0, 300)),
    _SPECIAL,
    _INTEGERS,
)
# polygamma from n = 2 is a sum of +-(x + k)**-(n+1) over the poles below 0: its value at a
# large negative non-integer cancels catastrophically, in PyTorch's kernel as in minigrad's.
GAMMA = REAL[REAL > -60.0]
UNIT = _grid(
    np.linspace(-1.0, 1.0, 401),
    1.0 - np.exp(np.linspace(-36.0, -0.1, 200)),
    -1.0 + np.exp(np.linspace(-36.0, -0.1, 200)),
    np.exp(np.linspace(-700.0, -1.0, 100)),
    [1.0, -1.0, 0.0, -0.0, 1.5, -2.0, np.nan, np.inf, 5e-324],
)
PROBABILITY = _grid(
    np.linspace(0.0, 1.0, 401),
    np.exp(np.linspace(-744.0, -0.1, 300)),
    1.0 - np.exp(np.linspace(-36.0, -0.1, 200)),
    [0.0, 1.0, -0.5, 1.5, np.nan, np.inf],
)


def _compare(mine: Any, theirs: Any, rtol: float, atol: float = 0.0) -> None:
    assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=rtol, atol=atol, equal_nan=True)


def _both(call: Callable[[Any, Any], Any], grid: np.ndarray, dtype: str) -> tuple[Any, Any]:
    with np.errstate(all="ignore"):
        values = grid.astype(dtype)
    mine = call(minigrad, minigrad.tensor(values))
    theirs = call(torch, torch.tensor(values))
    return mine, theirs


# (name, call, grid, float64 rtol, float64 atol)
UNARY = [
    ("lgamma", lambda lib, x: lib.lgamma(x), REAL, 1e-13, 1e-14),
    ("digamma", lambda lib, x: lib.digamma(x), REAL, 1e-13, 1e-12),
    ("trigamma", lambda lib, x: lib.polygamma(1, x), REAL, 1e-9, 0.0),
    ("polygamma2", lambda lib, x: lib.polygamma(2, x), GAMMA, 1e-12, 0.0),
    ("polygamma5", lambda lib, x: lib.polygamma(5, x), GAMMA, 1e-12, 0.0),
    ("mvlgamma1", lambda lib, x: lib.mvlgamma(x, 1), REAL, 1e-13, 1e-14),
    ("mvlgamma4", lambda lib, x: lib.mvlgamma(x, 4), REAL, 1e-13, 1e-13),
    ("erfinv", lambda lib, x: lib.erfinv(x), UNIT, 1e-13, 0.0),
    ("i0", lambda lib, x: lib.i0(x), REAL, 1e-13, 0.0),
    ("i0e", lambda lib, x: lib.special.i0e(x), REAL, 1e-13, 0.0),
    # (i1 of the smallest subnormal: half of it, which PyTorch rounds up, minigrad to even)
    ("i1", lambda lib, x: lib.special.i1(x), REAL, 1e-13, 5e-324),
    ("i1e", lambda lib, x: lib.special.i1e(x), REAL, 1e-13, 5e-324),
    ("ndtr", lambda lib, x: lib.special.ndtr(x), REAL, 1e-13, 0.0),
    ("ndtri", lambda lib, x: lib.special.ndtri(x), PROBABILITY, 1e-13, 0.0),
    ("log_ndtr", lambda lib, x: lib.special.log_ndtr(x), REAL, 1e-13, 0.0),
    ("erfcx", lambda lib, x: lib.special.erfcx(x), REAL, 1e-12, 0.0),
    ("entr", lambda lib, x: lib.special.entr(x), REAL, 1e-14, 0.0),
]


@parametrize_in_one(
    ("call", "grid", "rtol", "atol"),
    [row[1:] for row in UNARY],
    ids=[row[0] for row in UNARY],
)
def test_values_over_a_wide_grid_in_float64(
    call: Any, grid: np.ndarray, rtol: float, atol: float
) -> None:
    _compare(*_both(call, grid, "float64"), rtol=rtol, atol=atol)


@parametrize_in_one(
    ("call", "grid"), [row[1:3] for row in UNARY], ids=[row[0] for row in UNARY]
)
def test_values_over_a_wide_grid_in_float32(call: Any, grid: np.ndarray) -> None:
    # (relative 1e-5 and, next to the roots of lgamma and digamma, absolute 1e-6: PyTorch's
    # float32 kernels run in float32, minigrad's in float64 rounded once)
    _compare(*_both(call, grid, "float32"), rtol=1e-5, atol=1e-6)


def test_integers_compute_in_the_default_float_dtype() -> None:
    for name in ("lgamma", "digamma", "erfinv", "i0"):
        mine = getattr(minigrad, name)(minigrad.tensor([1, 2, 3]))
        theirs = getattr(torch, name)(torch.tensor([1, 2, 3]))
        _compare(mine, theirs, rtol=1e-6)
    _compare(
        minigrad.special.ndtri(minigrad.tensor([0, 1])),
        torch.special.ndtri(torch.tensor([0, 1])),
        rtol=0,
    )


def test_zeta_over_a_grid_of_both_arguments() -> None:
    x = _grid(np.linspace(0.5, 30.0, 40), [1.0, 2.0, 3.0, 4.0, np.inf, np.nan, 1.0001, 100.0])
    q = _grid(np.linspace(-8.25, 30.0, 37), [0.0, -1.0, -2.5, 1e-5, 1e10, np.inf, np.nan])
    xs, qs = np.meshgrid(x, q)
    mine = minigrad.special.zeta(minigrad.tensor(xs), minigrad.tensor(qs))
    theirs = torch.special.zeta(torch.tensor(xs), torch.tensor(qs))
    _compare(mine, theirs, rtol=1e-12)
    mine = minigrad.special.zeta(minigrad.tensor(xs.astype(np.float32)), 2.5)
    theirs = torch.special.zeta(torch.tensor(xs.astype(np.float32)), 2.5)
    _compare(mine, theirs, rtol=1e-5)


def test_xlog1py_over_a_grid_of_both_arguments() -> None:
    values = _grid(np.linspace(-3.0, 3.0, 25), [0.0, -1.0, np.inf, -np.inf, np.nan, 1e-20])
    xs, ys = np.meshgrid(values, values)
    mine = minigrad.special.xlog1py(minigrad.tensor(xs), minigrad.tensor(ys))
    theirs = torch.special.xlog1py(torch.tensor(xs), torch.tensor(ys))
    _compare(mine, theirs, rtol=1e-14)


def test_incomplete_gamma_over_a_grid_of_both_arguments() -> None:
    # (PyTorch's asymptotic series, used where a and x are close and a > 20, is good to about
    # 1e-9; minigrad's series and continued fraction to about 1e-12 there)
    a = _grid(
        np.linspace(0.0, 30.0, 31), np.exp(np.linspace(-8.0, 8.0, 17)), [np.inf, np.nan, -1.0]
    )
    x = _grid(
        np.linspace(0.0, 40.0, 41), np.exp(np.linspace(-8.0, 8.0, 17)), [np.inf, np.nan, -1.0]
    )
    xs, as_ = np.meshgrid(x, a)
    for name in ("igamma", "igammac"):
        mine = getattr(minigrad, name)(minigrad.tensor(as_), minigrad.tensor(xs))
        theirs = getattr(torch, name)(torch.tensor(as_), torch.tensor(xs))
        _compare(mine, theirs, rtol=1e-8, atol=1e-300)
        mine = getattr(minigrad.special, "gammainc" if name == "igamma" else "gammaincc")(
            minigrad.tensor(as_.astype(np.float32)), minigrad.tensor(xs.astype(np.float32))
        )
        theirs = getattr(torch, name)(
            torch.tensor(as_.astype(np.float32)), torch.tensor(xs.astype(np.float32))
        )
        _compare(mine, theirs, rtol=1e-5, atol=1e-6)


# --- gradients --------------------------------------------------------------------------------

GRADIENTS = [
    ("lgamma", lambda lib, x: lib.lgamma(x), (-4.0, 6.0)),
    ("digamma", lambda lib, x: x.digamma(), (0.2, 6.0)),
    ("polygamma3", lambda lib, x: lib.polygamma(3, x), (-3.0, 6.0)),
    ("mvlgamma", lambda lib, x: lib.mvlgamma(x, 3), (1.2, 6.0)),
    ("erfinv", lambda lib, x: x.erfinv(), (-0.99, 0.99)),
    ("i0", lambda lib, x: x.i0(), (-30.0, 30.0)),
    ("i0e", lambda lib, x: lib.special.i0e(x), (-30.0, 30.0)),
    ("i1", lambda lib, x: lib.special.i1(x), (-30.0, 30.0)),
    ("i1e", lambda lib, x: lib.special.i1e(x), (-30.0, 30.0)),
    ("ndtri", lambda lib, x: lib.special.ndtri(x), (0.001, 0.999)),
    ("log_ndtr", lambda lib, x: lib.special.log_ndtr(x), (-30.0, 8.0)),
    ("erfcx", lambda lib, x: lib.special.erfcx(x), (-5.0, 30.0)),
    ("entr", lambda lib, x: lib.special.entr(x), (0.01, 5.0)),
    ("ndtr", lambda lib, x: lib.special.ndtr(x), (-5.0, 5.0)),
    ("zeta_q", lambda lib, q: lib.special.zeta(3.5, q), (0.2, 6.0)),
    ("xlog1py", lambda lib, y: lib.special.xlog1py(y - 0.5, y), (-0.9, 4.0)),
    ("igamma_x", lambda lib, x: lib.igamma(lib.full_like(x, 2.5).detach(), x), (0.1, 8.0)),
    ("igammac_x", lambda lib, x: lib.igammac(lib.full_like(x, 0.5).detach(), x), (0.1, 8.0)),
]


def _gradients(lib: Any, call: Any, values: np.ndarray, order: int) -> list[np.ndarray]:
    """The first ``order`` derivatives of ``call`` at ``values`` (a transposed view)."""
    x = lib.tensor(values).t().requires_grad_()
    y = call(lib, x)
    out = []
    weights = lib.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)))
    grad = lib.autograd.grad(y, x, weights, create_graph=order > 1)[0]
    out.append(grad.detach().numpy())
    if order > 1:
        (second,) = lib.autograd.grad(grad.sum(), x)
        out.append(second.detach().numpy())
    return out


@parametrize_in_one(
    ("call", "bounds"), [row[1:] for row in GRADIENTS], ids=[row[0] for row in GRADIENTS]
)
def test_first_and_second_derivatives(call: Any, bounds: tuple[float, float]) -> None:
    values = _RNG.uniform(*bounds, size=(4, 5))
    values[np.abs(values - np.round(values)) < 0.05] += 0.1  # (away from the poles)
    mine = _gradients(minigrad, call, values, 2)
    theirs = _gradients(torch, call, values, 2)
    # (through PyTorch's trigamma, ~1e-10 accurate: the second derivatives of lgamma, the first
    # of digamma, mvlgamma's)
    for got, expected in zip(mine, theirs, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-12)


def test_zeta_has_no_derivative_for_its_first_argument() -> None:
    for lib in (minigrad, torch):
        x = lib.tensor([2.0, 3.0], requires_grad=True)
        y = lib.special.zeta(x, lib.tensor([1.0, 2.0]))
        assert y.grad_fn.name() == "SpecialZetaBackward0"
        with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not impl"):
            y.sum().backward()
        y = lib.special.zeta(x, 2.0)
        assert y.grad_fn.name() == "SpecialZetaBackward2"
        with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not impl"):
            y.sum().backward()


def test_incomplete_gamma_has_no_derivative_for_its_first_argument() -> None:
    for lib in (minigrad, torch):
        for name in ("igamma", "igammac"):
            a = lib.tensor([2.0, 3.0], requires_grad=True)
            y = getattr(lib, name)(a, lib.tensor([1.0, 2.0]))
            assert y.grad_fn.name() == name.capitalize() + "Backward0"
            with pytest.raises(NotImplementedError, match=f"the derivative for '{name}: input'"):
                y.sum().backward()


def test_node_names_and_saved_values() -> None:
    calls = {
        "lgamma": lambda lib, x: x.lgamma(),
        "polygamma": lambda lib, x: lib.polygamma(2, x),
        "polygamma_": lambda lib, x: (x * 1).polygamma_(2),
        "mvlgamma": lambda lib, x: (x + 2).mvlgamma(2),
        "i0e": lambda lib, x: lib.special.i0e(x),
        "ndtri": lambda lib, x: lib.special.ndtri(x / 4),
        "log_ndtr": lambda lib, x: lib.special.log_ndtr(x),
        "xlog1py_number": lambda lib, x: lib.special.xlog1py(2.0, x),
        "zeta_number": lambda lib, x: lib.special.zeta(3.0, x),
    }
    for name, call in calls.items():
        nodes = []
        for lib in (minigrad, torch):
            x = lib.tensor([0.5, 1.5, 2.5], dtype=lib.float64, requires_grad=True)
            node = call(lib, x).grad_fn
            saved = sorted(n for n in dir(node) if n.startswith("_saved_"))
            nodes.append((node.name(), saved))
        assert nodes[0] == nodes[1], name


def test_errors() -> None:
    x = np.array([1.0, 2.0])
    cases = [
        lambda lib: lib.polygamma(-1, lib.tensor(x)),
        lambda lib: lib.tensor(x).polygamma_(-2),
        lambda lib: lib.mvlgamma(lib.tensor(x), 0),
        lambda lib: lib.mvlgamma(lib.tensor([True]), 1),
        lambda lib: lib.tensor([1, 2]).mvlgamma_(1),
        lambda lib: lib.tensor([1, 2]).lgamma_(),
        lambda lib: lib.tensor([1, 2]).erfinv_(),
        lambda lib: lib.special.zeta(2.0, 3.0),
        lambda lib: lib.igamma(lib.tensor([1, 2]), lib.tensor([1, 2])),
        lambda lib: lib.tensor([1, 2]).igammac_(lib.tensor([1.0, 2.0])),
        lambda lib: lib.special.round(lib.tensor([1, 2])),
    ]
    for case in cases:
        errors = []
        for lib in (minigrad, torch):
            with pytest.raises(Exception) as caught:  # noqa: PT011 - compared below
                case(lib)
            errors.append((type(caught.value), str(caught.value).replace("torch", "minigrad")))
        assert errors[0][0] is errors[1][0]
        if errors[1][0] is not TypeError:  # (the parser's listing: test_misuse_sweep_torch)
            assert errors[0][1] == errors[1][1]
