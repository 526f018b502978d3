"""``minigrad.utils.data`` beside ``torch.utils.data``: the warnings a loader gives and the
batches of the same program, compared live (tests/test_data_loading.py holds the rest, checked
against PyTorch by the reference run)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minigrad


def _warnings_of(make: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    return [str(w.message).replace("torch", "minigrad") for w in caught]


@pytest.mark.parametrize("make", [
    lambda lib: lib.utils.data.DataLoader(range(3), num_workers=64),
    lambda lib: next(iter(lib.utils.data.DataLoader(range(3), pin_memory=True))),
    lambda lib: lib.utils.data.random_split(range(3), [0.0, 1.0]),
], ids=["too many workers", "pin_memory", "empty split"])
def test_warnings_as_in_pytorch(make):
    assert _warnings_of(lambda: make(minigrad)) == _warnings_of(lambda: make(torch))


def _epoch(lib: Any, **options: Any) -> list[Any]:
    rows = np.arange(14.0).reshape(7, 2)
    dataset = lib.utils.data.TensorDataset(lib.tensor(rows), lib.tensor(np.arange(7)))
    def as_lists(batch: Any) -> Any:
        return [(t.dtype.__repr__().split(".")[-1], t.tolist()) for t in batch]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the CPU count)
        return [as_lists(b) for b in lib.utils.data.DataLoader(dataset, **options)]


@pytest.mark.parametrize("options", [
    {"batch_size": 3},
    {"batch_size": 3, "drop_last": True},
    {"batch_size": 2, "num_workers": 2},
    {"batch_size": 2, "num_workers": 3, "prefetch_factor": 1, "in_order": True},
])
def test_batches_as_in_pytorch(options):
    assert _epoch(minigrad, **options) == _epoch(torch, **options)


class _Repeated:
    """A stream of 0..3 in each worker (not split by worker), claiming length 4."""

    def __init__(self, lib: Any) -> None:
        base = lib.utils.data.IterableDataset

        class Stream(base):  # type: ignore[misc, valid-type]
            def __iter__(self) -> Any:
                return iter(range(4))

            def __len__(self) -> int:
                return 4

            def __repr__(self) -> str:
                return "Stream()"

        self.dataset = Stream()


@pytest.mark.parametrize("workers", [0, 2])
def test_a_stream_longer_than_its_length_warns_as_in_pytorch(workers):
    seen = []
    for lib in (minigrad, torch):
        loader = lib.utils.data.DataLoader(_Repeated(lib).dataset, batch_size=None,
                                           num_workers=workers)
        assert len(loader) == 4
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            values = [int(v) for v in loader]
        seen.append((sorted(values), [str(w.message).replace("torch", "minigrad")
                                      for w in caught if "Length of" in str(w.message)]))
    assert seen[0] == seen[1]
