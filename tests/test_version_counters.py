"""Version counters: who starts one, who shares one, and which writes bump it.

Every expected value here is what PyTorch 2.13 printed for the same program.
"""
import numpy as np
import pytest
from _backend import mg
from _cases import parametrize_in_one

# Each in-place op and the values it leaves in START (None: random values, checked by shape only).
START = [1.0, -2.0, 3.0]
INPLACE_OPS = [
    ("add_", lambda t: t.add_(1), [2.0, -1.0, 4.0]),
    ("sub_", lambda t: t.sub_(1), [0.0, -3.0, 2.0]),
    ("mul_", lambda t: t.mul_(2), [2.0, -4.0, 6.0]),
    ("div_", lambda t: t.div_(2), [0.5, -1.0, 1.5]),
    ("pow_", lambda t: t.pow_(2), [1.0, 4.0, 9.0]),
    ("clamp_", lambda t: t.clamp_(0, 2), [1.0, 0.0, 2.0]),
    ("copy_", lambda t: t.copy_(mg.tensor([7.0, 8.0, 9.0])), [7.0, 8.0, 9.0]),
    ("zero_", lambda t: t.zero_(), [0.0, 0.0, 0.0]),
    ("fill_", lambda t: t.fill_(5), [5.0, 5.0, 5.0]),
    ("normal_", lambda t: t.normal_(), None),
    ("uniform_", lambda t: t.uniform_(), None),
    ("exp_", lambda t: t.exp_(), [2.7182817, 0.13533528, 20.085537]),
    ("sigmoid_", lambda t: t.sigmoid_(), [0.73105860, 0.11920292, 0.95257413]),
    ("tanh_", lambda t: t.tanh_(), [0.76159418, -0.96402758, 0.99505475]),
    ("relu_", lambda t: t.relu_(), [1.0, 0.0, 3.0]),
    ("masked_fill_", lambda t: t.masked_fill_(mg.tensor([True, False, True]), 0.0), [0, -2, 0]),
    ("scatter_", lambda t: t.scatter_(0, mg.tensor([0, 2]), mg.tensor([9.0, 8.0])), [9, -2, 8]),
]


def _iadd(t):
    t += 1
    return t


def _isub(t):
    t -= 1
    return t


def _imul(t):
    t *= 2
    return t


def _itruediv(t):
    t /= 2
    return t


AUGMENTED = [
    ("+=", _iadd, [2.0, -1.0, 4.0]),
    ("-=", _isub, [0.0, -3.0, 2.0]),
    ("*=", _imul, [2.0, -4.0, 6.0]),
    ("/=", _itruediv, [0.5, -1.0, 1.5]),
]


def _check_values(t, expected):
    if expected is None:  # random fill: only the shape and that the values were overwritten
        assert t.shape == (3,)
        assert t.tolist() != START
    else:
        np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6)


def test_new_tensors_start_at_version_zero():
    leaf = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert leaf._version == 0
    assert mg.zeros(3)._version == 0
    assert mg.tensor([1, 2])._version == 0
    assert (leaf * 2)._version == 0


@parametrize_in_one(("name", "op", "expected"), INPLACE_OPS, ids=[r[0] for r in INPLACE_OPS])
def test_each_inplace_op_bumps_version_by_exactly_one(name, op, expected):
    t = mg.tensor(START)
    result = op(t)
    assert result is t
    assert t._version == 1
    _check_values(t, expected)


@parametrize_in_one(("name", "op", "expected"), INPLACE_OPS, ids=[r[0] for r in INPLACE_OPS])
def test_inplace_ops_bump_version_under_no_grad(name, op, expected):
    t = mg.tensor(START)
    with mg.no_grad():
        op(t)
    assert t._version == 1
    _check_values(t, expected)


@pytest.mark.parametrize(("name", "op", "expected"), AUGMENTED, ids=[r[0] for r in AUGMENTED])
def test_augmented_assignment_is_inplace_and_bumps_once(name, op, expected):
    t = mg.tensor(START)
    alias = t
    result = op(t)
    assert result is alias
    assert alias._version == 1
    np.testing.assert_allclose(alias.numpy(), expected, rtol=1e-6)


def test_augmented_assignments_accumulate_versions():
    t = mg.tensor([1.0, 2.0, 3.0])
    t += 1
    t -= 1
    t *= 2
    t /= 2
    assert t._version == 4
    assert t.tolist() == [1.0, 2.0, 3.0]


def test_setitem_bumps_version_also_under_no_grad():
    t = mg.tensor([1.0, 2.0, 3.0])
    t[0] = 5.0
    with mg.no_grad():
        t[1] = 6.0
    assert t._version == 2
    assert t.tolist() == [5.0, 6.0, 3.0]


def test_detach_shares_the_counter_in_both_directions():
    x = mg.tensor([1.0, 2.0, 3.0])
    d = x.detach()
    x.add_(1)
    assert d._version == 1
    d.add_(1)
    assert x._version == 2
    assert x.tolist() == [3.0, 4.0, 5.0]


def test_detach_of_a_graph_output_shares_its_counter():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    d = y.detach()
    d.add_(1)
    assert (y._version, d._version) == (1, 1)
    with mg.no_grad():
        y.add_(1)
    assert (y._version, d._version) == (2, 2)
    assert d.tolist() == [4.0, 6.0, 8.0]


def test_data_has_a_fresh_counter_on_every_access():
    w = mg.tensor([1.0, 2.0, 3.0])
    w.add_(1)
    assert w._version == 1
    assert w.data._version == 0  # not w's 1
    data = w.data
    data.add_(1)
    assert data._version == 1
    assert w._version == 1  # the write through .data is invisible to w's counter
    assert w.data._version == 0  # a new .data starts again at 0
    assert w.data is not w.data
    assert w.tolist() == [3.0, 4.0, 5.0]


def test_clone_has_a_fresh_counter_and_shares_nothing():
    w = mg.tensor([1.0, 2.0, 3.0])
    w.add_(1)
    c = w.clone()
    assert c._version == 0
    c.add_(1)
    assert w._version == 1
    assert w.tolist() == [2.0, 3.0, 4.0]
    assert c.tolist() == [3.0, 4.0, 5.0]


def test_each_from_numpy_call_has_a_fresh_counter():
    arr = np.array([1.0, 2.0, 3.0])
    f1 = mg.from_numpy(arr)
    f2 = mg.from_numpy(arr)
    f1.add_(1)
    assert (f1._version, f2._version) == (1, 0)
    assert f2.tolist() == [2.0, 3.0, 4.0]
    assert arr.tolist() == [2.0, 3.0, 4.0]


def test_writes_into_the_numpy_array_behind_from_numpy_bump_nothing():
    arr = np.array([1.0, 2.0, 3.0])
    t = mg.from_numpy(arr)
    arr[0] = 100.0
    assert t._version == 0
    assert t.tolist() == [100.0, 2.0, 3.0]


def test_writes_through_detach_numpy_bump_nothing():
    t = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    t.detach().numpy()[0] = 5.0
    assert t._version == 0
    assert t.detach().tolist() == [5.0, 2.0, 3.0]


def test_assigning_data_keeps_own_counter_and_bumps_nothing():
    x = mg.tensor([1.0, 2.0, 3.0])
    x.add_(1)
    x.add_(1)
    y = mg.tensor([7.0, 8.0, 9.0])
    y.add_(1)
    x.data = y
    assert (x._version, y._version) == (2, 1)
    assert x.tolist() == [8.0, 9.0, 10.0]


def test_after_data_assignment_writes_share_the_buffer_but_not_the_counter():
    x = mg.tensor([1.0, 2.0, 3.0])
    y = mg.tensor([7.0, 8.0, 9.0])
    x.data = y
    x.add_(1)
    assert (x._version, y._version) == (1, 0)
    assert y.tolist() == [8.0, 9.0, 10.0]


def test_assigning_data_to_a_leaf_that_requires_grad_keeps_it_a_leaf():
    p = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p.data = mg.tensor([4.0, 5.0, 6.0])
    assert p._version == 0
    assert p.requires_grad and p.is_leaf
    assert p.tolist() == [4.0, 5.0, 6.0]


def test_detach_inplace_keeps_the_counter():
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = a * 2
    m.add_(1)
    assert m._version == 1
    m.detach_()
    assert m._version == 1
    m.add_(1)
    assert m._version == 2
