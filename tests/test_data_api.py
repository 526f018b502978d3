"""Searching, counting and building functions: corners, with the values PyTorch 2.13 gives.

(Each expected value below was printed by PyTorch 2.13; tests_torch/test_data_api_torch.py
compares the same functions with PyTorch directly.)
"""

from __future__ import annotations

import math

import pytest

import minigrad


def test_quantile_versions_count_pytorchs_in_place_steps() -> None:
    # lerp_ and squeeze_ for a number q; lerp_, unsqueeze_, transpose_, squeeze_ for a tensor
    # q; squeeze_ alone without interpolation.
    x = minigrad.tensor([[0.0, 1, 2, 3], [4, 6, 8, 10]], requires_grad=True)
    y = minigrad.quantile(x, minigrad.tensor([0.25, 0.5]), dim=1)
    assert (y.tolist(), y._version) == ([[0.75, 5.5], [1.5, 7.0]], 4)
    y = minigrad.quantile(x, 0.5)
    assert (y.item(), y._version) == (3.5, 2)
    y = minigrad.quantile(x, 0.5, 1, interpolation="nearest")
    assert (y.tolist(), y._version) == ([2.0, 8.0], 1)


def test_searchsorted_puts_nan_where_pytorch_does() -> None:
    nan = float("nan")
    got = minigrad.searchsorted(minigrad.tensor([1.0, nan]), minigrad.tensor([nan, 1.0, 3.0]))
    assert got.tolist() == [2, 2, 2]


def test_searchsorted_with_sorter_and_bucketize_right() -> None:
    got = minigrad.searchsorted(minigrad.tensor([3.0, 1, 2]), minigrad.tensor([2.0]),
                                sorter=minigrad.tensor([1, 2, 0]))
    assert got.tolist() == [1]
    boundaries = minigrad.tensor([1.0, 3, 5, 7, 9])
    assert minigrad.bucketize(minigrad.tensor([1.0, 5, 9]), boundaries, right=True).tolist() == [
        1, 3, 5]


def test_isin_wraps_a_number_into_the_elements_dtype() -> None:
    elements = minigrad.tensor([1, 2, 3], dtype=minigrad.uint8)
    assert minigrad.isin(elements, 257).tolist() == [True, False, False]


def test_isin_refuses_bool() -> None:
    with pytest.raises(RuntimeError, match="Unsupported input type encountered for isin"):
        minigrad.isin(minigrad.tensor([True]), minigrad.tensor([1]))


def test_rot90_back_and_block_diag_of_mixed_ranks() -> None:
    assert minigrad.rot90(minigrad.arange(6).reshape(2, 3), -1).tolist() == [
        [3, 0], [4, 1], [5, 2]]
    got = minigrad.block_diag(minigrad.tensor([[1, 2]]), minigrad.tensor(3),
                              minigrad.tensor([4, 5]))
    assert got.tolist() == [[1, 2, 0, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 4, 5]]


def test_nanmean_of_an_all_nan_row_is_nan() -> None:
    nan = float("nan")
    got = minigrad.nanmean(minigrad.tensor([[1.0, nan], [nan, nan]]), 1).tolist()
    assert got[0] == 1.0 and math.isnan(got[1])


def test_out_versions_as_pytorchs_kernels_write_them() -> None:
    out = minigrad.zeros(2)  # nanmean: nansum into out, then div_ in place
    minigrad.nanmean(minigrad.tensor([[1.0, 2], [3, 4]]), 0, out=out)
    assert out._version == 2
    out = minigrad.zeros(4)  # kron: a mul into an unsafe view of out (a counter of its own)
    minigrad.kron(minigrad.tensor([1.0, 2]), minigrad.tensor([1.0, 3]), out=out)
    assert (out._version, out.tolist()) == (0, [1.0, 3.0, 2.0, 6.0])


def test_repeat_interleave_checks_output_size() -> None:
    with pytest.raises(RuntimeError, match="allocated size does not match required size"):
        minigrad.repeat_interleave(minigrad.tensor([1, 2]), output_size=4)
    with pytest.raises(RuntimeError, match="Invalid output_size, expected 12 but got 5"):
        minigrad.ones(2, 3).repeat_interleave(2, output_size=5)
