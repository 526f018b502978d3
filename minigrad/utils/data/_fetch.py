"""Fetching one batch (or one sample) of a dataset: PyTorch's ``_utils/fetch.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class MapFetcher:
    """``dataset[i]`` for each index of a batch (``__getitems__`` where the dataset has one)."""

    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable[..., Any],
                 drop_last: bool) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn

    def fetch(self, index: Any) -> Any:
        """The collated samples at ``index`` (a list of indices, or one without batching)."""
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        getitems = getattr(self.dataset, "__getitems__", None)
        data = getitems(index) if getitems else [self.dataset[i] for i in index]
        return self.collate_fn(data)


class IterableFetcher:
    """The next samples of an iterable dataset's stream; StopIteration once it is exhausted."""

    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable[..., Any],
                 drop_last: bool) -> None:
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index: Any) -> Any:
        """The next ``len(index)`` samples, collated (a short last batch unless ``drop_last``)."""
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in index:
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)


class FetcherFactory:
    """Makes a dataset's fetcher (in the main process, or in a worker for its dataset copy)."""

    def __init__(self, iterable: bool, auto_collation: bool, collate_fn: Callable[..., Any],
                 drop_last: bool) -> None:
        self.kind = IterableFetcher if iterable else MapFetcher
        self.options = (auto_collation, collate_fn, drop_last)

    def __call__(self, dataset: Any) -> MapFetcher | IterableFetcher:
        return self.kind(dataset, *self.options)
