"""The library the behaviour tests run against.

By default minigrad. With MINIGRAD_TEST_REFERENCE=torch the same tests run against real PyTorch,
which proves that every expected value and message in them is PyTorch's own.
"""
import os

if os.environ.get("MINIGRAD_TEST_REFERENCE") == "torch":
    import torch as mg
else:
    import minigrad as mg
LIB = mg.__name__


def text(expected: str) -> str:
    """An expected message written with minigrad's names, in the names of the library under test."""
    return expected.replace("minigrad", LIB)
