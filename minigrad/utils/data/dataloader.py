"""``DataLoader``: batches of a dataset, in the main process or in worker processes.

PyTorch's ``torch.utils.data.dataloader``: the same arguments, checks, messages and order of
events (the sampler's indices in batches, each batch fetched and collated; with
``num_workers > 0`` each batch is fetched by a worker process, batches handed out round-robin
``prefetch_factor`` per worker ahead, and returned in order unless ``in_order=False``).
Each iteration draws one int64 from the global generator (or ``generator``): the workers'
base seed, as PyTorch does, so a program's later random numbers do not depend on the loader's
``num_workers``.
"""

from __future__ import annotations

import itertools
import math
import os
import queue
import warnings
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import minigrad
from minigrad.utils.data import _worker
from minigrad.utils.data._collate import default_collate, default_convert
from minigrad.utils.data._fetch import FetcherFactory
from minigrad.utils.data.dataset import Dataset, IterableDataset
from minigrad.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
)

T_co = TypeVar("T_co", covariant=True)

__all__ = ["DataLoader"]

# How long the main process waits for a batch before it checks that the workers are alive.
_POLL_SECONDS = 5.0


class _InfiniteConstantSampler(Sampler[None]):
    """An iterable dataset's sampler: None forever (the dataset decides when it ends)."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


class DataLoader(Generic[T_co]):
    """Iterates over ``dataset`` in batches (PyTorch's arguments and rules).

    Example:
        >>> import minigrad
        >>> from minigrad.utils.data import DataLoader, TensorDataset
        >>> data = TensorDataset(minigrad.arange(5.0), minigrad.arange(5))
        >>> [labels.tolist() for _, labels in DataLoader(data, batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    __initialized = False

    def __init__(
        self,
        dataset: Dataset[T_co],
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler[Any] | None = None,
        batch_sampler: Sampler[list[Any]] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        multiprocessing_context: Any = None,
        generator: minigrad.Generator | None = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; "
                "use num_workers=0 to disable multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing."
                "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor "
                "to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            # (a stream has no indices to sample: only batching is the loader's)
            if shuffle not in {False, None}:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, but "
                    f"got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but "
                    f"got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler "
                    f"option, but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)  # type: ignore[arg-type]
            else:
                sampler = SequentialSampler(dataset)  # type: ignore[arg-type]
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._iterator: _BaseIterator | None = None
        self._IterableDataset_len_called: int | None = None  # (what ``len(loader)`` said)
        self._check_worker_number()

    def __setattr__(self, attr: str, value: Any) -> None:
        if self.__initialized and attr in (
            "batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
            "persistent_workers",
        ):
            raise ValueError(
                f"{attr} attribute should not be set after {self.__class__.__name__} is "
                "initialized"
            )
        super().__setattr__(attr, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        """What the iterator draws: batches of indices, or single indices without batching."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def _fetcher_factory(self) -> FetcherFactory:
        return FetcherFactory(self._iterable, self._auto_collation, self.collate_fn,
                              self.drop_last)

    def __iter__(self) -> _BaseIterator:
        # Persistent workers live as long as the loader: its one iterator starts again.
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = _MultiProcessIterator(self)
            else:
                self._iterator._reset(self)
            return self._iterator
        if self.num_workers == 0:
            return _SingleProcessIterator(self)
        self._check_worker_number()
        return _MultiProcessIterator(self)

    def __len__(self) -> int:
        if self._iterable:
            length = self._IterableDataset_len_called = len(self.dataset)  # type: ignore
            if self.batch_size is not None:
                if self.drop_last:
                    return length // self.batch_size
                return math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def _check_worker_number(self) -> None:
        """PyTorch's warning when more workers are asked for than the CPUs this process has."""
        if not self.num_workers:
            return
        affinity = hasattr(os, "sched_getaffinity")
        suggested = len(os.sched_getaffinity(0)) if affinity else os.cpu_count()
        if suggested is None or self.num_workers > suggested:
            cpuset = "" if affinity else " (`cpuset` is not taken into account)"
            warnings.warn(
                f"This DataLoader will create {self.num_workers} worker processes in total. "
                f"Our suggested max number of worker in current system is {suggested}{cpuset}, "
                "which is smaller than what this DataLoader is going to create. Please be "
                "aware that excessive worker creation might get DataLoader running slow or even "
                "freeze, lower the worker number to avoid potential slowness/freeze if "
                "necessary.",
                stacklevel=3,
            )


class _BaseIterator:
    """One pass over a loader: the sampler's iterator, the workers' base seed, the count."""

    def __init__(self, loader: DataLoader[Any]) -> None:
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._len_called = loader._IterableDataset_len_called
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        if loader.pin_memory:  # (minigrad has no accelerator: PyTorch's CPU-only warning)
            warnings.warn(
                "'pin_memory' argument is set as true but no accelerator is found, then device "
                "pinned memory won't be used.",
                stacklevel=3,
            )
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = int(
            minigrad.empty((), dtype=minigrad.int64).random_(generator=loader.generator).item()
        )
        self._num_yielded = 0

    def __iter__(self) -> _BaseIterator:
        return self

    def __len__(self) -> int:
        return len(self._index_sampler)

    def _reset(self, loader: DataLoader[Any]) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._len_called = loader._IterableDataset_len_called

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        if self._iterable and self._len_called is not None and (
                self._num_yielded > self._len_called):
            # A stream yielding more than its length said (workers each yielding it all?)
            message = (
                f"Length of IterableDataset {self._dataset} was reported to be "
                f"{self._len_called}(when accessing len(dataloader)), but {self._num_yielded} "
                "samples have been fetched. "
            )
            if self._num_workers > 0:
                message += (
                    "For multiprocessing data-loading, this could be caused by not properly "
                    "configuring the IterableDataset replica at each worker. Please see "
                    "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset "
                    "for examples."
                )
            warnings.warn(message, stacklevel=2)
        return data

    def _next_data(self) -> Any:
        raise NotImplementedError


class _SingleProcessIterator(_BaseIterator):
    """Fetches each batch in this process."""

    def __init__(self, loader: DataLoader[Any]) -> None:
        super().__init__(loader)
        self._fetcher = loader._fetcher_factory()(self._dataset)

    def _next_data(self) -> Any:
        return self._fetcher.fetch(self._next_index())


class _MultiProcessIterator(_BaseIterator):
    """Worker processes fetch the batches; this process hands out indices and orders results.

    Task ``i`` (the ``i``-th batch of indices) goes to the next worker still running, in turn;
    ``prefetch_factor`` tasks per worker are out at any time. Results come back in any order
    and are returned in task order (or as they come, with ``in_order=False``).
    """

    def __init__(self, loader: DataLoader[Any]) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        self._persistent = loader.persistent_workers
        import multiprocessing  # (here: ~15 ms that ``import minigrad`` need not pay)

        context = loader.multiprocessing_context
        if context is None:
            context = multiprocessing.get_context()
        elif isinstance(context, str):
            context = multiprocessing.get_context(context)
        self._data_queue = context.Queue()
        self._index_queues = []
        self._workers = []
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            worker = context.Process(
                target=_worker.worker_loop,
                args=(self._dataset, loader._fetcher_factory(), index_queue, self._data_queue,
                      self._base_seed, worker_id, self._num_workers, loader.worker_init_fn),
                daemon=True,
            )
            worker.start()
            self._index_queues.append(index_queue)
            self._workers.append(worker)
        self._shut_down = False
        self._start_epoch(first=True)

    def _reset(self, loader: DataLoader[Any]) -> None:
        super()._reset(loader)
        self._start_epoch(first=False)

    def _start_epoch(self, first: bool) -> None:
        self._send_index = 0  # the next task to hand out
        self._received_index = 0  # the next task to return
        self._tasks: dict[int, tuple[Any, ...]] = {}  # task -> (worker,) or (worker, data)
        self._worker_running = [True] * self._num_workers
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first:  # persistent workers: each restarts its stream; older results dropped
            for index_queue in self._index_queues:
                index_queue.put(_worker.RESUME)
            resumed = 0
            while resumed < self._num_workers:
                task, _ = self._get_data()
                resumed += task == _worker.RESUME
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self) -> None:
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_cycle)
            if self._worker_running[worker_id]:
                break
        else:
            return  # every worker's stream has ended
        self._index_queues[worker_id].put((self._send_index, index))
        self._tasks[self._send_index] = (worker_id,)
        self._send_index += 1

    def _get_data(self) -> tuple[Any, Any]:
        """The next result any worker sends, checking that they live while waiting."""
        wait = self._timeout if self._timeout > 0 else _POLL_SECONDS
        while True:
            try:
                return self._data_queue.get(timeout=wait)
            except queue.Empty:
                if self._timeout > 0:
                    raise RuntimeError(
                        f"DataLoader timed out after {self._timeout} seconds"
                    ) from None
                dead = [str(w.pid) for w in self._workers if not w.is_alive()]
                if dead:
                    self._shutdown()
                    raise RuntimeError(
                        f"DataLoader worker (pid(s) {', '.join(dead)}) exited unexpectedly"
                    ) from None

    def _next_data(self) -> Any:
        while True:
            # Skip the tasks of workers whose streams ended (their results will not come).
            while self._received_index < self._send_index:
                task = self._tasks.get(self._received_index)
                if task is not None and (len(task) == 2 or self._worker_running[task[0]]):
                    break
                self._tasks.pop(self._received_index, None)
                self._received_index += 1
            else:
                if not self._persistent:
                    self._shutdown()
                raise StopIteration
            task = self._tasks[self._received_index]
            if len(task) == 2:  # arrived earlier, out of order
                del self._tasks[self._received_index]
                self._received_index += 1
                return self._process(task[1])
            index, data = self._get_data()
            if index == _worker.RESUME:  # (a late answer of an earlier epoch's restart)
                continue
            if isinstance(data, _worker.IterableDatasetStopIteration):
                self._worker_running[data.worker_id] = False
                if not self._persistent:
                    self._index_queues[data.worker_id].put(None)
                self._try_put_index()
                continue
            if index != self._received_index:
                if not self._in_order:
                    del self._tasks[index]
                    return self._process(data)
                self._tasks[index] += (data,)
                continue
            del self._tasks[index]
            self._received_index += 1
            return self._process(data)

    def _process(self, data: Any) -> Any:
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _shutdown(self) -> None:
        """Tell every worker to stop, wait for them, and close the queues (once)."""
        if self._shut_down:
            return
        self._shut_down = True
        for index_queue in self._index_queues:
            index_queue.put(None)
        for worker in self._workers:
            worker.join(timeout=_POLL_SECONDS)
            if worker.is_alive():
                worker.terminate()
        for index_queue in self._index_queues:
            index_queue.cancel_join_thread()
            index_queue.close()
        self._data_queue.cancel_join_thread()
        self._data_queue.close()

    def __del__(self) -> None:
        if getattr(self, "_workers", None) is not None:
            self._shutdown()
