"""backward() from several threads at once gives the single-threaded results.

PyTorch lets threads run backward concurrently, on their own graphs or on one shared graph
(``retain_graph=True``), and serialises the accumulation into each leaf's ``.grad`` with a lock.
Each test here makes 1,000 backward calls spread over several threads that start together, and
compares every result with the same computation run on one thread.
"""

import threading

import numpy as np
from _backend import mg

THREADS = 4
CALLS = 1000  # backward calls per test, over all threads


def run_in_threads(work, threads=THREADS):
    """Run ``work(thread_index)`` in ``threads`` threads started together; re-raise errors."""
    barrier = threading.Barrier(threads)
    errors = []

    def target(index):
        try:
            barrier.wait()
            work(index)
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            errors.append(error)

    workers = [threading.Thread(target=target, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]


def model(x, w):
    """A small graph with fan-out, a view and a reduction: loss = sum(tanh(x @ w) * x[:, :1])."""
    hidden = (x @ w).tanh()
    return (hidden * x[:, :1] + hidden.exp()).sum()


def inputs(seed):
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal((5, 3)), dtype=mg.float64, requires_grad=True)
    w = mg.tensor(rng.standard_normal((3, 4)), dtype=mg.float64, requires_grad=True)
    return x, w


def single_threaded_grads(seed):
    x, w = inputs(seed)
    model(x, w).backward()
    return x.grad.numpy().copy(), w.grad.numpy().copy()


def test_independent_graphs_in_threads():
    expected = {seed: single_threaded_grads(seed) for seed in range(8)}
    results = [[] for _ in range(THREADS)]

    def work(index):
        for call in range(CALLS // THREADS):
            seed = (index + call) % 8
            x, w = inputs(seed)
            model(x, w).backward()
            results[index].append((seed, x.grad.numpy().copy(), w.grad.numpy().copy()))

    run_in_threads(work)
    assert sum(len(r) for r in results) == CALLS
    for seed, x_grad, w_grad in (item for r in results for item in r):
        np.testing.assert_array_equal(x_grad, expected[seed][0])
        np.testing.assert_array_equal(w_grad, expected[seed][1])


def test_shared_graph_accumulates_every_backward():
    x, w = inputs(0)
    loss = model(x, w)
    expected_x, expected_w = single_threaded_grads(0)

    def work(index):
        for _ in range(CALLS // THREADS):
            loss.backward(retain_graph=True)

    run_in_threads(work)
    # Each of the 1,000 backward calls added one gradient: none lost, none doubled.
    np.testing.assert_allclose(x.grad.numpy(), CALLS * expected_x, rtol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), CALLS * expected_w, rtol=1e-12)


def test_shared_graph_autograd_grad_in_threads():
    x, w = inputs(1)
    loss = model(x, w)
    expected_x, expected_w = single_threaded_grads(1)
    results = [[] for _ in range(THREADS)]

    def work(index):
        for _ in range(CALLS // THREADS):
            results[index].append(mg.autograd.grad(loss, (x, w), retain_graph=True))

    run_in_threads(work)
    for x_grad, w_grad in (item for r in results for item in r):
        np.testing.assert_array_equal(x_grad.numpy(), expected_x)
        np.testing.assert_array_equal(w_grad.numpy(), expected_w)
    assert x.grad is None and w.grad is None  # grad() leaves .grad alone


def test_accumulation_into_one_large_leaf_is_atomic():
    # Large enough that numpy's addition releases the GIL: without a lock per leaf, concurrent
    # read-modify-writes of .grad lose updates.
    leaf = mg.ones(50_000, requires_grad=True)

    def work(index):
        for _ in range(CALLS // THREADS):
            (leaf * 1.0).sum().backward()

    run_in_threads(work)
    np.testing.assert_array_equal(leaf.grad.numpy(), np.full(50_000, float(CALLS)))


def test_grad_mode_is_per_thread_while_others_record():
    x = mg.ones(3, requires_grad=True)
    recorded = []

    def work(index):
        for _ in range(100):
            if index % 2:
                with mg.no_grad():
                    recorded.append((index, (x * 2).requires_grad))
            else:
                recorded.append((index, (x * 2).requires_grad))

    run_in_threads(work)
    assert all(requires_grad == (index % 2 == 0) for index, requires_grad in recorded)
