"""``minigrad.utils.data``: datasets, samplers, collation and the DataLoader, in and out of
worker processes.

Every expected value and message here is what PyTorch 2.13 gives for the same program (the
reference run checks them against torch.utils.data). Random orders differ between the two
libraries' generators: those tests check what a permutation or a draw must satisfy.
"""
import warnings
from collections import namedtuple

import numpy as np
import pytest
from _backend import mg

data = mg.utils.data
Point = namedtuple("Point", ["x", "y"])


def table(rows=5):
    return data.TensorDataset(mg.arange(rows * 2.0).reshape(rows, 2), mg.arange(rows))


class Stream(data.IterableDataset):
    """0..n-1, each worker yielding its share (every ``num_workers``-th from its id)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = data.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        return self.n


class Failing(data.Dataset):
    def __getitem__(self, index):
        if index == 3:
            raise ValueError(f"bad sample {index}")
        return index

    def __len__(self):
        return 6


class WorkerSeen(data.Dataset):
    """Which worker fetched each index, and what its info says."""

    def __getitem__(self, index):
        info = data.get_worker_info()
        return (index, info.id, info.num_workers, info.seed, mg.initial_seed())

    def __len__(self):
        return 6


# ---- collation ---------------------------------------------------------------------------------


def test_collate_stacks_tensors_and_makes_numbers_tensors():
    batch = data.default_collate([(mg.tensor([1.0, 2.0]), 3, 0.5, "a"),
                                  (mg.tensor([3.0, 4.0]), 4, 1.5, "b")])
    assert isinstance(batch, list) and len(batch) == 4  # (a tuple of fields becomes a list)
    assert batch[0].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert (batch[1].dtype, batch[1].tolist()) == (mg.int64, [3, 4])
    assert (batch[2].dtype, batch[2].tolist()) == (mg.float64, [0.5, 1.5])
    assert batch[3] == ("a", "b")  # (strings stay as the samples held them: a tuple here)


def test_collate_keeps_dicts_named_tuples_and_numpy():
    batch = data.default_collate([{"p": Point(np.float32(1), np.array([1, 2]))},
                                  {"p": Point(np.float32(2), np.array([3, 4]))}])
    assert type(batch["p"]) is Point
    assert (batch["p"].x.dtype, batch["p"].x.tolist()) == (mg.float32, [1.0, 2.0])
    assert (batch["p"].y.dtype, batch["p"].y.tolist()) == (mg.int64, [[1, 2], [3, 4]])
    assert data.default_collate([[1, 2], [3, 4]])[1].tolist() == [2, 4]
    assert data.default_collate([True, False]).dtype == mg.bool


@pytest.mark.parametrize(("batch", "error", "message"), [
    ([[1, 2], [3]], RuntimeError, "each element in list of batch should be of equal size"),
    ([object()], TypeError, "default_collate: batch must contain tensors, numpy arrays, "
                            "numbers, dicts or lists; found <class 'object'>"),
    ([np.array(["a"])], TypeError, "default_collate: batch must contain tensors, numpy arrays, "
                                   "numbers, dicts or lists; found <U1"),
])
def test_collate_errors(batch, error, message):
    with pytest.raises(error) as info:
        data.default_collate(batch)
    assert str(info.value) == message


def test_convert_without_batching():
    converted = data.default_convert((np.array([1.5]), "s", 2))
    assert isinstance(converted, list) and converted[1:] == ["s", 2]
    assert (converted[0].dtype, converted[0].tolist()) == (mg.float64, [1.5])


# ---- datasets ----------------------------------------------------------------------------------


def test_tensor_dataset_rows_and_size_check():
    rows = table()
    assert len(rows) == 5 and [t.tolist() for t in rows[1]] == [[2.0, 3.0], 1]
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        data.TensorDataset(mg.zeros(3), mg.zeros(4))


def test_concat_subset_and_stack_datasets():
    both = data.ConcatDataset([[10, 11], [12, 13, 14]])
    assert (len(both), both[3], both[-1], both.cumulative_sizes) == (5, 13, 14, [2, 5])
    with pytest.raises(ValueError, match="absolute value of index should not exceed"):
        both[-6]
    part = data.Subset(["a", "b", "c", "d"], [3, 1])
    assert (len(part), part[0], part[1]) == (2, "d", "b")
    assert data.StackDataset([1, 2], ["x", "y"])[1] == (2, "y")
    assert data.StackDataset(a=[1, 2], b=["x", "y"])[0] == {"a": 1, "b": "x"}
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        data.StackDataset([1], [1, 2])
    assert list(data.ChainDataset([Stream(2), Stream(3)])) == [0, 1, 0, 1, 2]
    assert isinstance(table() + table(), data.ConcatDataset)


def test_random_split_lengths_and_fractions():
    generator = mg.Generator().manual_seed(7)
    parts = data.random_split(range(10), [0.5, 0.3, 0.2], generator=generator)
    assert [len(p) for p in parts] == [5, 3, 2]
    assert sorted(i for p in parts for i in p) == list(range(10))
    # 11 * (0.34, 0.33, 0.33) floors to (3, 3, 3): the remaining 2 go to the first two splits
    assert [len(p) for p in data.random_split(range(11), [0.34, 0.33, 0.33])] == [4, 4, 3]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        data.random_split(range(10), [3, 3])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        data.random_split(range(2), [1.0, 0.0])


# ---- samplers ----------------------------------------------------------------------------------


def test_random_samplers_draw_permutations_and_counts():
    generator = mg.Generator().manual_seed(0)
    assert sorted(data.RandomSampler(range(6), generator=generator)) == list(range(6))
    drawn = list(data.RandomSampler(range(6), num_samples=14, generator=generator))
    assert len(drawn) == 14 and sorted(drawn[:12]) == sorted(list(range(6)) * 2)
    replaced = list(data.RandomSampler(range(3), replacement=True, num_samples=40))
    assert len(replaced) == 40 and set(replaced) <= {0, 1, 2}
    assert sorted(data.SubsetRandomSampler([4, 8, 9])) == [4, 8, 9]
    assert list(data.WeightedRandomSampler([0.0, 0.0, 5.0], 4)) == [2, 2, 2, 2]
    assert sorted(data.WeightedRandomSampler([1.0, 1.0, 1.0], 3, replacement=False)) == [0, 1, 2]


def test_batch_sampler_and_lengths():
    sampler = data.SequentialSampler(range(7))
    assert list(data.BatchSampler(sampler, 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(data.BatchSampler(sampler, 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert (len(data.BatchSampler(sampler, 3, False)), len(data.BatchSampler(sampler, 3, True))) \
        == (3, 2)


@pytest.mark.parametrize(("make", "error", "message"), [
    (lambda: data.RandomSampler(range(3), replacement=1), TypeError,
     "replacement should be a boolean value, but got replacement=1"),
    (lambda: data.RandomSampler(range(3), num_samples=0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: data.BatchSampler(range(3), 0, False), ValueError,
     "batch_size should be a positive integer value, but got batch_size=0"),
    (lambda: data.BatchSampler(range(3), 2, 1), ValueError,
     "drop_last should be a boolean value, but got drop_last=1"),
    (lambda: data.WeightedRandomSampler([[1.0]], 1), ValueError,
     "weights should be a 1d sequence but given weights have shape (1, 1)"),
    (lambda: data.WeightedRandomSampler([1.0], True), ValueError,
     "num_samples should be a positive integer value, but got num_samples=True"),
])
def test_sampler_argument_errors(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


# ---- the DataLoader ----------------------------------------------------------------------------


def test_loader_batches_in_order():
    loader = data.DataLoader(table(), batch_size=2)
    batches = [(x.tolist(), y.tolist()) for x, y in loader]
    assert batches == [([[0.0, 1.0], [2.0, 3.0]], [0, 1]), ([[4.0, 5.0], [6.0, 7.0]], [2, 3]),
                       ([[8.0, 9.0]], [4])]
    assert len(loader) == 3 and len(data.DataLoader(table(), batch_size=2, drop_last=True)) == 2


def test_loader_shuffles_each_epoch_and_a_generator_repeats_it():
    loader = data.DataLoader(range(8), batch_size=3, shuffle=True)
    epoch = [i for batch in loader for i in batch.tolist()]
    assert sorted(epoch) == list(range(8))
    seeded = [[i for b in data.DataLoader(range(8), batch_size=3, shuffle=True,
                                          generator=mg.Generator().manual_seed(3))
               for i in b.tolist()] for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_loader_without_batching_and_with_a_batch_sampler():
    assert [x.tolist() for x in data.DataLoader(np.arange(3.0), batch_size=None)] == [0.0, 1.0, 2.0]
    sampler = data.BatchSampler(data.SequentialSampler(range(5)), 4, False)
    assert [b.tolist() for b in data.DataLoader(range(5), batch_sampler=sampler)] == [
        [0, 1, 2, 3], [4]]


def test_loader_over_a_stream():
    assert [b.tolist() for b in data.DataLoader(Stream(7), batch_size=3)] == [
        [0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in data.DataLoader(Stream(7), batch_size=3, drop_last=True)] == [
        [0, 1, 2], [3, 4, 5]]
    assert len(data.DataLoader(Stream(7), batch_size=3)) == 3


def test_each_iteration_draws_one_number_from_the_global_generator():
    mg.manual_seed(5)
    expected = mg.empty((), dtype=mg.int64).random_()
    expected = mg.rand(2)
    mg.manual_seed(5)
    iter(data.DataLoader(range(3)))
    assert mg.equal(mg.rand(2), expected)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"num_workers": -1}, "num_workers option should be non-negative; use num_workers=0 to "
                          "disable multiprocessing."),
    ({"timeout": -1}, "timeout option should be non-negative"),
    ({"prefetch_factor": 2}, "prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set "
                             "prefetch_factor to None."),
    ({"persistent_workers": True}, "persistent_workers option needs num_workers > 0"),
    ({"sampler": [0], "shuffle": True}, "sampler option is mutually exclusive with shuffle"),
    ({"batch_sampler": [[0]], "batch_size": 2}, "batch_sampler option is mutually exclusive "
                                                "with batch_size, shuffle, sampler, and drop_last"),
    ({"batch_size": None, "drop_last": True}, "batch_size=None option disables auto-batching "
                                              "and is mutually exclusive with drop_last"),
])
def test_loader_argument_errors(arguments, message):
    with pytest.raises(ValueError) as info:
        data.DataLoader(range(3), **arguments)
    assert str(info.value) == message


def test_loader_over_a_stream_refuses_shuffle_and_samplers():
    with pytest.raises(ValueError, match="expected unspecified shuffle option, but got "
                                         "shuffle=True"):
        data.DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        data.DataLoader(Stream(3), sampler=[0])


def test_loader_attributes_are_fixed_after_init():
    loader = data.DataLoader(range(3))
    with pytest.raises(ValueError) as info:
        loader.batch_size = 4
    assert str(info.value) == "batch_size attribute should not be set after DataLoader is " \
                              "initialized"
    loader.num_workers = 0  # (not one of the fixed ones)


def test_pin_memory_without_an_accelerator_warns():
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no "
                                         "accelerator is found"):
        next(iter(data.DataLoader(range(3), pin_memory=True)))


# ---- worker processes --------------------------------------------------------------------------


def quietly(loader):
    """The loader's batches, its CPU-count warning (2 cores here) set aside."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(loader)


def test_workers_return_batches_in_order_with_their_info():
    mg.manual_seed(11)
    batches = quietly(data.DataLoader(WorkerSeen(), batch_size=2, num_workers=2))
    rows = [[int(v) for v in column] for batch in batches for column in zip(*batch)]
    # batch k goes to worker k % 2; each worker's seed is the base seed plus its id
    assert [row[0] for row in rows] == list(range(6))
    assert [row[1] for row in rows] == [0, 0, 1, 1, 0, 0]
    assert all(row[2] == 2 for row in rows)
    assert len({row[3] - row[1] for row in rows}) == 1
    assert all(row[3] == row[4] for row in rows)  # (each worker seeded its generator)


def test_workers_split_a_stream_by_their_info():
    batches = quietly(data.DataLoader(Stream(10), batch_size=3, num_workers=2))
    assert [b.tolist() for b in batches] == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]


def test_a_worker_error_is_raised_in_the_main_process():
    loader = data.DataLoader(Failing(), batch_size=2, num_workers=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = iter(loader)
        assert next(batches).tolist() == [0, 1]
        with pytest.raises(ValueError) as info:
            next(batches)
    assert str(info.value).startswith(
        "Caught ValueError in DataLoader worker process 1.\nOriginal Traceback (most recent "
        "call last):\n")
    assert str(info.value).endswith("ValueError: bad sample 3\n")


def test_persistent_workers_serve_every_epoch():
    loader = data.DataLoader(Stream(5), batch_size=2, num_workers=2, persistent_workers=True)
    first, second = quietly(loader), quietly(loader)
    assert [b.tolist() for b in first] == [b.tolist() for b in second] == [[0, 2], [1, 3], [4]]


def test_worker_init_fn_runs_in_each_worker():
    def init(worker_id):
        data.get_worker_info().dataset.offset = 100 * worker_id

    class Offset(data.Dataset):
        offset = -1

        def __getitem__(self, index):
            return index + self.offset

        def __len__(self):
            return 4

    batches = quietly(data.DataLoader(Offset(), batch_size=1, num_workers=2,
                                      worker_init_fn=init))
    assert [b.item() for b in batches] == [0, 101, 2, 103]
