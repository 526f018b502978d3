"""What runs in a ``DataLoader`` worker process (PyTorch's ``_utils/worker.py``).

Each worker seeds itself (``base_seed + worker_id`` for ``random`` and minigrad, a seed made
from both for numpy), calls ``worker_init_fn(worker_id)``, then fetches the batches whose
indices the main process sends it and sends back each batch, or the error its fetch raised.
"""

from __future__ import annotations

import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np

import minigrad

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True)
class WorkerInfo:
    """What a worker knows of itself: ``id``, ``num_workers``, ``seed`` and its ``dataset`` copy."""

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_info: WorkerInfo | None = None

RESUME = "resume"  # what the main process sends a persistent worker at a new epoch


def get_worker_info() -> WorkerInfo | None:
    """In a ``DataLoader`` worker process, that worker's ``WorkerInfo``; elsewhere None.

    An ``IterableDataset`` reads it to yield only its worker's share of the stream.

    Example:
        >>> from minigrad.utils.data import get_worker_info
        >>> get_worker_info() is None  # (the main process)
        True
    """
    return _worker_info


class ExceptionWrapper:
    """An error raised in a worker, carried to the main process to be raised there again."""

    def __init__(self, where: str) -> None:
        exc_type, exc_value, _ = sys.exc_info()
        self.exc_type = exc_type
        self.message = "".join(traceback.format_exception(*sys.exc_info()))
        self.where = where

    def reraise(self) -> None:
        """Raise the worker's error (its type) with PyTorch's text: where, then the traceback."""
        message = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.message}"
        if self.exc_type is KeyError:  # (KeyError would show the message as its repr)
            message = KeyErrorMessage(message)
        try:
            error = self.exc_type(message)
        except TypeError:  # an error type whose constructor takes other arguments
            raise RuntimeError(message) from None
        raise error


class KeyErrorMessage(str):
    """A KeyError's message shown as it is (``KeyError`` shows its argument's ``repr``)."""

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class IterableDatasetStopIteration:
    """A worker's iterable dataset is exhausted."""

    worker_id: int


def _numpy_seed(base_seed: int, worker_id: int) -> list[int]:
    """Four 32-bit words for numpy's global seed, mixed from both (as ``_generate_state``)."""
    mix = np.random.SeedSequence([worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32])
    return [int(word) for word in mix.generate_state(4)]


def worker_loop(
    dataset: Any, fetcher_factory: Any, index_queue: Any, data_queue: Any, base_seed: int,
    worker_id: int, num_workers: int, worker_init_fn: Any,
) -> None:
    """A worker's life: seed, init, then fetch what ``index_queue`` asks until told to stop."""
    global _worker_info
    seed = base_seed + worker_id
    random.seed(seed)
    minigrad.manual_seed(seed)
    np.random.seed(_numpy_seed(base_seed, worker_id))
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    init_error = None
    try:
        if worker_init_fn is not None:
            worker_init_fn(worker_id)
        fetcher = fetcher_factory(dataset)
    except Exception:  # noqa: BLE001 - sent to the main process, raised there
        init_error = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
    exhausted = False
    while True:
        request = index_queue.get()
        if request is None:  # the main process's signal to stop
            break
        if request == RESUME:  # a persistent worker's next epoch: the stream starts again
            if init_error is None:
                fetcher = fetcher_factory(dataset)
            exhausted = False
            data_queue.put((RESUME, worker_id))
            continue
        task, indices = request
        if init_error is not None:
            data: Any = init_error
            init_error = None
        elif exhausted:
            data = IterableDatasetStopIteration(worker_id)
        else:
            try:
                data = fetcher.fetch(indices)
            except StopIteration:
                exhausted = True
                data = IterableDatasetStopIteration(worker_id)
            except Exception:  # noqa: BLE001 - sent to the main process, raised there
                data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        data_queue.put((task, data))
