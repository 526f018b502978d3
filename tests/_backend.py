"""The library the behaviour tests run against.

By default minigrad. With MINIGRAD_TEST_REFERENCE=torch the same tests run against real PyTorch,
which proves that every expected value and message in them is PyTorch's own.
"""
import os

if os.environ.get("MINIGRAD_TEST_REFERENCE") == "torch":
    import _torch_kernels  # noqa: F401 (before torch: the reference's kernels pinned)
    import torch as mg

    # One intra-op thread, as tests_torch's modules set: the tests' tensors are tiny and the test
    # workers already use every core, so PyTorch's OpenMP threads would only spin after each
    # parallel region (~25 % of the reference run's CPU on 2 cores).
    mg.set_num_threads(1)
else:
    import minigrad as mg
LIB = mg.__name__


def text(expected: str) -> str:
    """An expected message written with minigrad's names, in the names of the library under test."""
    return expected.replace("minigrad", LIB)
