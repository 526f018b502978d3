"""``addbmm_`` on a view that broadcasts to the product: resized in its base's memory.

Expected values are PyTorch 2.13's (MINIGRAD_TEST_REFERENCE=torch runs this file on torch);
tests_torch/test_addbmm_views_torch.py compares many more views live.
"""

from __future__ import annotations

import pytest
from _backend import mg, text


def _base():
    leaf = mg.arange(1.0, 7.0).reshape(3, 2).requires_grad_()
    return leaf, leaf * 1


def test_a_row_is_resized_in_place_and_written_through() -> None:
    leaf, base = _base()
    view = base[0]
    b1, b2 = mg.ones(2, 2, 3, requires_grad=True), mg.ones(2, 3, 2)
    assert view.addbmm_(b1, b2, beta=0.5) is view
    assert (tuple(view.shape), view.stride(), view.storage_offset()) == ((2, 2), (2, 1), 0)
    assert base.tolist() == [[6.5, 7.0], [6.5, 7.0], [5.0, 6.0]]
    assert (view._version, base._version) == (1, 1)
    assert view.grad_fn.name() == "AsStridedBackward0"
    assert base.grad_fn.name() == "torch::autograd::CopySlices"
    (base * mg.arange(1.0, 7.0).reshape(3, 2)).sum().backward()
    # (the op's gradient for the old row goes into the new 2 x 2 region as it is)
    assert leaf.grad.tolist() == [[0.5, 1.0], [1.5, 2.0], [5.0, 6.0]]
    assert b1.grad.tolist() == [[[3.0, 3.0, 3.0], [7.0, 7.0, 7.0]]] * 2


def test_the_copy_reads_what_it_already_wrote() -> None:
    """A strided view made 2 x 3 over its own elements: PyTorch's copy, element by element."""
    base = mg.arange(1.0, 7.0)
    view = base[::2]
    view.addbmm_(mg.ones(2, 2, 3), mg.ones(2, 3, 3))
    assert base.tolist() == [7.0, 9.0, 11.0, 7.0, 11.0, 11.0]


def test_a_0d_view_made_1x1_overlaps_its_old_self() -> None:
    base = mg.arange(1.0, 4.0)
    view = base[0]
    with pytest.raises(RuntimeError) as caught:
        view.addbmm_(mg.ones(2, 1, 3), mg.ones(2, 3, 1))
    assert str(caught.value) == (
        "unsupported operation: some elements of the input tensor and the written-to tensor "
        "refer to a single memory location. Please clone() the tensor before performing the "
        "operation."
    )
    assert base.tolist() == [1.0, 2.0, 3.0] and base._version == 0
    base[0].addbmm_(mg.ones(2, 1, 3), mg.ones(2, 3, 1), beta=0)  # (beta 0: nothing copied)
    assert base.tolist() == [6.0, 2.0, 3.0]


def test_a_view_of_a_leaf_is_refused_first() -> None:
    leaf = mg.ones(3, 2, requires_grad=True)
    with pytest.raises(RuntimeError) as caught:
        leaf[0].addbmm_(mg.ones(2, 2, 3), mg.ones(2, 3, 2))
    assert str(caught.value) == text(
        "a view of a leaf Variable that requires grad is being used in an in-place operation."
    )
