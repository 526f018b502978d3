"""``minigrad.utils.data``: datasets, samplers and the ``DataLoader`` (``torch.utils.data``).

Example:
    >>> import minigrad
    >>> from minigrad.utils.data import DataLoader, TensorDataset
    >>> data = TensorDataset(minigrad.arange(6.0).reshape(3, 2), minigrad.tensor([0, 1, 0]))
    >>> for features, labels in DataLoader(data, batch_size=2):
    ...     print(features.shape, labels.tolist())
    minigrad.Size([2, 2]) [0, 1]
    minigrad.Size([1, 2]) [0]
"""

from minigrad.utils.data._collate import default_collate, default_convert
from minigrad.utils.data._worker import WorkerInfo, get_worker_info
from minigrad.utils.data.dataloader import DataLoader
from minigrad.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from minigrad.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "WorkerInfo",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
