"""Samplers: the order in which a ``DataLoader`` visits a map-style dataset's indices.

PyTorch's ``torch.utils.data.sampler``, with its checks and messages. The random ones draw
from a ``minigrad.Generator`` (their own, or one seeded from the global generator each time
iteration starts, as PyTorch's ``RandomSampler`` does): the same seed gives the same order in
minigrad, though not PyTorch's order (the two libraries' random streams differ).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

import minigrad

T_co = TypeVar("T_co", covariant=True)

__all__ = [
    "BatchSampler",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]


class Sampler(Generic[T_co]):
    """The base class: subclasses implement ``__iter__`` (indices, or lists of them)."""

    def __init__(self, data_source: Sized | None = None) -> None:
        if data_source is not None:
            import warnings

            warnings.warn(
                "`data_source` argument is not used and will be removed in 2.2.0."
                "You may still have custom implementation that utilizes it.",
                stacklevel=2,
            )

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """The indices ``0, 1, ..., len(data_source) - 1``, in order.

    Example:
        >>> from minigrad.utils.data import SequentialSampler
        >>> list(SequentialSampler("abc"))
        [0, 1, 2]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _seeded_generator(generator: minigrad.Generator | None) -> minigrad.Generator:
    """``generator``, or a new one seeded from the global generator (PyTorch's rule)."""
    if generator is not None:
        return generator
    seed = int(minigrad.empty((), dtype=minigrad.int64).random_().item())
    made = minigrad.Generator()
    made.manual_seed(seed)
    return made


class RandomSampler(Sampler[int]):
    """The indices in a random order, or ``num_samples`` of them drawn with replacement.

    Without replacement ``num_samples`` beyond the dataset's length repeat the permutation.

    Example:
        >>> import minigrad
        >>> from minigrad.utils.data import RandomSampler
        >>> sorted(RandomSampler(range(4), generator=minigrad.Generator().manual_seed(0)))
        [0, 1, 2, 3]
    """

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: minigrad.Generator | None = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={self.replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        """How many indices an iteration yields (``len(data_source)`` unless given)."""
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = _seeded_generator(self.generator)
        if self.replacement:
            # (32 at a time, as PyTorch draws them: the same seed gives the same indices)
            for _ in range(self.num_samples // 32):
                yield from minigrad.randint(
                    high=n, size=(32,), dtype=minigrad.int64, generator=generator
                ).tolist()
            yield from minigrad.randint(
                high=n, size=(self.num_samples % 32,), dtype=minigrad.int64, generator=generator
            ).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from minigrad.randperm(n, generator=generator).tolist()
            yield from minigrad.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given ``indices`` in a random order.

    Example:
        >>> from minigrad.utils.data import SubsetRandomSampler
        >>> sorted(SubsetRandomSampler([5, 7, 9]))
        [5, 7, 9]
    """

    def __init__(
        self, indices: Sequence[int], generator: minigrad.Generator | None = None
    ) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in minigrad.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    Example:
        >>> from minigrad.utils.data import WeightedRandomSampler
        >>> list(WeightedRandomSampler([0.0, 1.0, 0.0], 3))
        [1, 1, 1]
    """

    def __init__(
        self,
        weights: Sequence[float],
        num_samples: int,
        replacement: bool = True,
        generator: minigrad.Generator | None = None,
    ) -> None:
        if (not isinstance(num_samples, int) or isinstance(num_samples, bool)
                or num_samples <= 0):
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        weights_tensor = minigrad.as_tensor(weights, dtype=minigrad.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape "
                f"{tuple(weights_tensor.shape)}"
            )
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = minigrad.multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Another sampler's indices in lists of ``batch_size`` (the last one shorter, or dropped).

    Example:
        >>> from minigrad.utils.data import BatchSampler, SequentialSampler
        >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
        [[0, 1], [2, 3], [4]]
    """

    def __init__(
        self, sampler: Sampler[int] | Iterable[int], batch_size: int, drop_last: bool
    ) -> None:
        if (not isinstance(batch_size, int) or isinstance(batch_size, bool)
                or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(
                f"drop_last should be a boolean value, but got drop_last={drop_last}"
            )
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        while True:
            batch = [index for _, index in zip(range(self.batch_size), indices)]
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size  # type: ignore


