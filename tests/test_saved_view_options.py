"""Saved int options shown as the user gave them: PyTorch 2.13's values.

A node keeps an index, a slice's bounds, a shift, a diagonal or a padding as given; its
bindings read a negative int64 back as unsigned (-1 shows as 2**64 - 1), Python's indexing
passes int64's largest value for a slice's end left out, and ``at::slice`` called with no end
shows None. Expected values are PyTorch's (MINIGRAD_TEST_REFERENCE=torch runs this file on
torch); tests_torch/test_saved_view_options_torch.py compares many more programs live.
"""

from __future__ import annotations

import pytest
from _backend import mg
from _cases import parametrize_in_one

MINUS = 2**64  # (PyTorch shows -n as MINUS - n)
INT64_MAX = 2**63 - 1


def _x():
    return mg.arange(12.0).reshape(3, 4).requires_grad_()


@pytest.mark.parametrize(
    ("program", "dim", "index"),
    [
        (lambda x: x[-1], 0, MINUS - 1),
        (lambda x: x[1], 0, 1),
        (lambda x: x.select(-1, -2), MINUS - 1, MINUS - 2),
        (lambda x: x[:, -1], 1, MINUS - 1),
        (lambda x: x[..., 3], 1, 3),
    ],
)
def test_select_shows_its_index_as_given(program, dim, index) -> None:
    node = program(_x()).grad_fn
    assert node.name() == "SelectBackward0"
    assert (node._saved_dim, node._saved_index) == (dim, index)


@parametrize_in_one(
    ("program", "start", "end", "step"),
    [
        (lambda x: x[-3:-1], MINUS - 3, MINUS - 1, 1),
        (lambda x: x[1:], 1, INT64_MAX, 1),
        (lambda x: x[:2], 0, 2, 1),
        (lambda x: x[1:100], 1, 100, 1),
        (lambda x: x[-100:2], MINUS - 100, 2, 1),
        (lambda x: x[5:], 5, INT64_MAX, 1),
        (lambda x: x[3:1], 3, 1, 1),
        (lambda x: x[-3::2], MINUS - 3, INT64_MAX, 2),
        (lambda x: mg.slice_copy(x, 0, -2), MINUS - 2, None, 1),
        (lambda x: x.narrow(0, -2, 1), 1, 2, 1),  # (narrow wraps its start first)
    ],
)
def test_slice_shows_its_bounds_as_given(program, start, end, step) -> None:
    node = program(_x()).grad_fn
    assert node.name() in ("SliceBackward0", "SliceBackward0_copy")
    assert (node._saved_start, node._saved_end, node._saved_step) == (start, end, step)


def test_the_gradient_of_a_negative_index_is_where_it_points() -> None:
    x = _x()
    (x[-1, -3:-1].sum() + x[:, -1].sum()).backward()
    expected = [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0]]
    assert x.grad.tolist() == expected


def test_other_int_options_show_as_given() -> None:
    x = _x()
    assert x.tril(-1).grad_fn._saved_diagonal == MINUS - 1
    assert x.roll(-1, -1).grad_fn._saved_shifts == (MINUS - 1,)
    assert x.rot90(-1).grad_fn._saved_k == MINUS - 1
    assert x.narrow_copy(-1, -2, 1).grad_fn._saved_start == MINUS - 2
    assert mg.select_scatter(x, x[0], 0, -1).grad_fn._saved_index == MINUS - 1
    node = mg.slice_scatter(x, x[:, :2], 1, -4, -2).grad_fn
    assert (node._saved_start, node._saved_end) == (MINUS - 4, MINUS - 2)
    assert mg.nn.functional.pad(x, (-1, 1)).grad_fn._saved_pad == (MINUS - 1, 1)
    target = mg.tensor([0, 1, 2])
    assert mg.nn.functional.nll_loss(x[:, :3], target).grad_fn._saved_ignore_index == MINUS - 100


@pytest.mark.parametrize(
    ("spacing", "message"),
    [
        (2**70, "int too big to convert"),
        ([2**70], "int too big to convert"),
        ((2**70, -(2**70)), "int too big to convert"),
        (-(2**70), "can't convert negative int to unsigned"),
    ],
)
def test_gradient_refuses_a_spacing_no_scalar_holds(spacing, message) -> None:
    with pytest.raises(OverflowError, match=f"^{message}$"):
        mg.gradient(_x(), spacing=spacing, dim=5)
