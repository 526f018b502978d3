"""fmod, copysign, fmax, fmin, heaviside, nextafter, float_power, gcd, lcm, sgn, signbit ...:
their error texts, dtypes and edge values, as PyTorch 2.13 gives them (values and messages
were read off torch; the op table checks the rest against torch and finite differences)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad

NAN, INF = math.nan, math.inf


def _raises(error: type[Exception], text: str, call) -> None:
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == text


def test_fmod_has_the_sign_of_the_dividend_and_refuses_integer_division_by_zero():
    x = minigrad.tensor([-3.0, 3.0, 5.5])
    assert minigrad.fmod(x, 2).tolist() == [-1.0, 1.0, 1.5]
    assert minigrad.remainder(x, 2).tolist() == [1.0, 1.0, 1.5]  # (remainder: the divisor's)
    ints = minigrad.tensor([3, -4, 5])
    assert minigrad.fmod(ints, minigrad.tensor([2, 6, -3])).tolist() == [1, -4, 2]
    assert minigrad.fmod(ints, 2.5).dtype == minigrad.float32
    _raises(RuntimeError, "ZeroDivisionError", lambda: minigrad.fmod(ints, 0))
    _raises(NotImplementedError, "\"fmod_cpu\" not implemented for 'Bool'",
            lambda: minigrad.fmod(minigrad.tensor([True]), minigrad.tensor([True])))
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            lambda: ints.clone().fmod_(2.5))


def test_fmod_nodes_and_what_they_save():
    x = minigrad.tensor([1.5, -2.0, 3.0], requires_grad=True)
    y = minigrad.tensor([0.5, 2.0, -1.0], requires_grad=True)
    assert minigrad.fmod(x, 2.0).grad_fn.name() == "FmodBackward0"
    node = minigrad.fmod(x.detach(), y).grad_fn
    assert node.name() == "FmodBackward1" and node._saved_other is not None
    # (x and y are saved only for y's gradient)
    assert minigrad.fmod(x, y.detach()).grad_fn._saved_self is None


def test_copysign_computes_integers_in_float_and_its_gradient_is_0_at_0():
    i = minigrad.tensor([3, -4, 5])
    assert minigrad.copysign(i, minigrad.tensor([2, 6, -3])).tolist() == [3.0, 4.0, -5.0]
    assert minigrad.copysign(i, 2).dtype == minigrad.float32
    z = minigrad.tensor([0.0, -0.0, 1.0, NAN], requires_grad=True)
    y = minigrad.copysign(z, -1.0)
    assert y.grad_fn.name() == "CopysignBackward1"
    y.sum().backward()
    grad = z.grad.tolist()
    assert grad[:3] == [0.0, 0.0, -1.0] and math.isnan(grad[3])
    before = i._version
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            lambda: i.copysign_(minigrad.tensor([1, 1, 1])))
    assert i.tolist() == [3, -4, 5] and i._version == before


def test_copysign_gives_the_sign_nothing_and_saves_self_only_for_its_gradient():
    x = minigrad.tensor([1.5, -2.0, 3.0], requires_grad=True)
    y = minigrad.tensor([0.5, -2.0, -1.0], requires_grad=True)
    out = minigrad.copysign(x, y)
    assert out.grad_fn.name() == "CopysignBackward0"
    out.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, -1.0] and y.grad.tolist() == [0.0, 0.0, 0.0]
    assert minigrad.copysign(x.detach(), y).grad_fn._saved_self is None


def test_fmax_and_fmin_ignore_nan_and_give_ties_to_the_first_operand():
    a = minigrad.tensor([1.0, 2.0, 3.0, NAN], requires_grad=True)
    b = minigrad.tensor([1.0, 1.0, NAN, 2.0], requires_grad=True)
    assert minigrad.fmax(a, b).tolist() == [1.0, 2.0, 3.0, 2.0]
    minigrad.fmax(a, b).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 1.0, 0.0] and b.grad.tolist() == [0.0, 0.0, 0.0, 1.0]
    a.grad = b.grad = None
    minigrad.fmin(a, b).sum().backward()
    assert a.grad.tolist() == [1.0, 0.0, 1.0, 0.0] and b.grad.tolist() == [0.0, 1.0, 0.0, 1.0]
    both_nan = minigrad.fmax(minigrad.tensor([NAN]), minigrad.tensor([NAN]))
    assert math.isnan(both_nan.item())
    _raises(TypeError, "fmax(): argument 'other' (position 2) must be Tensor, not float",
            lambda: minigrad.fmax(a, 2.0))
    assert minigrad.fmin(minigrad.tensor([True, False]), minigrad.tensor([True, True])
                         ).dtype == minigrad.bool


def test_heaviside_wants_one_dtype_and_has_no_derivative():
    x = minigrad.tensor([-1.5, 0.0, 2.0], requires_grad=True)
    out = minigrad.heaviside(x, minigrad.tensor(0.5))
    assert out.tolist() == [0.0, 0.5, 1.0]
    assert out.grad_fn.name() == "torch::autograd::NotImplemented"
    _raises(RuntimeError, "derivative for aten::heaviside is not implemented",
            lambda: out.sum().backward())
    _raises(RuntimeError, "derivative for aten::heaviside_ is not implemented",
            lambda: x.clone().heaviside_(minigrad.ones(3)).sum().backward())
    _raises(RuntimeError, "heaviside is not yet implemented for tensors with different dtypes.",
            lambda: minigrad.heaviside(x, minigrad.ones(3, dtype=minigrad.float64)))
    _raises(RuntimeError, "heaviside is not yet implemented for tensors with different dtypes.",
            lambda: minigrad.heaviside(x.detach(), x.detach(),
                                       out=minigrad.empty(3, dtype=minigrad.int64)))


def test_nextafter_steps_one_ulp_and_passes_the_gradient_where_the_operands_differ():
    one = minigrad.tensor([1.0], dtype=minigrad.float64)
    assert minigrad.nextafter(one, one * 2).item() == 1.0 + 2.0 ** -52
    assert minigrad.nextafter(minigrad.tensor([1.0]), minigrad.tensor([0.0])).item() == (
        float(np.float32(1.0) - np.float32(2.0 ** -24)))
    a = minigrad.tensor([NAN, 1.0, 0.0, 2.0], requires_grad=True)
    minigrad.nextafter(a, minigrad.tensor([1.0, NAN, -0.0, 2.0])).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 0.0, 0.0]
    # (both operands saved, only when the first needs a gradient)
    y = minigrad.tensor([1.0], requires_grad=True)
    assert minigrad.nextafter(minigrad.tensor([2.0]), y).grad_fn._saved_self is None
    _raises(NotImplementedError, "\"nextafter_cpu\" not implemented for 'Long'",
            lambda: minigrad.nextafter(minigrad.tensor([1]), minigrad.tensor([2])))


def test_float_power_is_pow_in_float64_after_casts():
    x = minigrad.tensor([1.5, -2.0, 3.0], requires_grad=True)
    y = minigrad.float_power(x, 2)
    assert y.dtype == minigrad.float64 and y.tolist() == [2.25, 4.0, 9.0]
    assert y.grad_fn.name() == "PowBackward0" and y.grad_fn._saved_exponent == 2.0
    assert [n.name() for n, _ in y.grad_fn.next_functions] == ["ToCopyBackward0"]
    z = minigrad.float_power(2, x)
    assert z.grad_fn.name() == "PowBackward2" and z.grad_fn._saved_self == 2.0
    ints = minigrad.float_power(minigrad.tensor([3, -4]), minigrad.tensor([2, 3]))
    assert ints.dtype == minigrad.float64 and ints.tolist() == [9.0, -64.0]
    _raises(RuntimeError, "the base given to float_power_ has dtype Float but the operation's "
            "result requires dtype Double", lambda: x.detach().clone().float_power_(2))
    _raises(RuntimeError, "the base given to float_power_ has dtype Long but the operation's "
            "result requires dtype Double", lambda: minigrad.tensor([2]).float_power_(2))
    _raises(RuntimeError, "the output given to float_power has dtype Float but the operation's "
            "result requires dtype Double",
            lambda: minigrad.float_power(x.detach(), 2, out=minigrad.empty(3)))
    w = x.detach().double()
    assert w.float_power_(2).tolist() == [2.25, 4.0, 9.0]


def test_gcd_and_lcm_take_integers_only():
    a, b = minigrad.tensor([0, 0, -6, 12]), minigrad.tensor([0, 4, 0, -18])
    assert minigrad.gcd(a, b).tolist() == [0, 4, 6, 6]
    assert minigrad.lcm(a, b).tolist() == [0, 0, 0, 36]
    assert minigrad.gcd(a.int(), b).dtype == minigrad.int64
    wrapped = minigrad.lcm(minigrad.tensor([100], dtype=minigrad.int8),
                           minigrad.tensor([3], dtype=minigrad.int8))
    assert wrapped.dtype == minigrad.int8 and wrapped.tolist() == [44]  # (300 wraps, as in C)
    _raises(NotImplementedError, "\"gcd_cpu\" not implemented for 'Float'",
            lambda: minigrad.gcd(minigrad.ones(2), minigrad.ones(2)))
    _raises(NotImplementedError, "\"lcm_cpu\" not implemented for 'Bool'",
            lambda: minigrad.lcm(minigrad.tensor([True]), minigrad.tensor([True])))
    _raises(TypeError, "gcd(): argument 'other' (position 2) must be Tensor, not int",
            lambda: minigrad.gcd(a, 2))
    c = a.clone()
    assert c.gcd_(b) is c and c.tolist() == [0, 4, 6, 6] and c._version == 1


def test_sgn_is_sign_for_real_tensors_and_saves_self_and_result():
    x = minigrad.tensor([-2.0, 0.0, NAN, 3.0], requires_grad=True)
    y = minigrad.sgn(x)
    assert y.tolist() == [-1.0, 0.0, 0.0, 1.0]
    node = y.grad_fn
    assert node.name() == "SgnBackward0"
    assert node._saved_self is not None and node._saved_result is not None
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 0.0]
    assert minigrad.sgn(minigrad.tensor([True, False])).tolist() == [True, False]
    assert minigrad.tensor([3, -4, 0]).sgn_().tolist() == [1, -1, 0]


def test_the_sign_and_infinity_tests():
    x = minigrad.tensor([NAN, -NAN, -0.0, 0.0, -INF, INF, -1.0])
    assert minigrad.signbit(x).tolist() == [False, True, True, False, True, False, True]
    assert minigrad.isneginf(x).tolist() == [False] * 4 + [True, False, False]
    assert minigrad.isposinf(x).tolist() == [False] * 5 + [True, False]
    assert minigrad.isreal(x).tolist() == [True] * 7
    assert minigrad.signbit(minigrad.tensor([-3, 2])).tolist() == [True, False]
    assert minigrad.isneginf(minigrad.tensor([True])).tolist() == [False]
    _raises(RuntimeError, "signbit does not support non-boolean outputs.",
            lambda: minigrad.signbit(x, out=minigrad.empty(7)))
    _raises(RuntimeError, "isposinf does not support non-boolean outputs.",
            lambda: minigrad.isposinf(x, out=minigrad.empty(7, dtype=minigrad.uint8)))
