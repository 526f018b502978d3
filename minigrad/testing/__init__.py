"""Helpers for tests, as ``torch.testing``: ``assert_close`` and ``make_tensor``.

A test written against PyTorch's helpers runs unchanged after ``import minigrad as torch``:
``assert_close`` applies PyTorch's rules (default tolerances per dtype, nested sequences and
mappings, attribute checks) and fails with PyTorch's messages; ``make_tensor`` draws from
PyTorch's ranges (with minigrad's random stream). ``FileCheck``, which checks TorchScript's
graphs, is out of scope.

Example:
    >>> import minigrad
    >>> actual = minigrad.tensor([1.0, 2.0]).exp().log()
    >>> minigrad.testing.assert_close(actual, minigrad.tensor([1.0, 2.0]))
    >>> minigrad.testing.assert_close({"w": actual}, {"w": minigrad.tensor([1.0, 2.1])})
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 2 (50.0%)
    Greatest absolute difference: 0.09999990463256836 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.04761900380253792 at index (1,) (up to 1.3e-06 allowed)
    <BLANKLINE>
    The failure occurred for item ['w']
"""

from typing import Any as _Any

from minigrad import _out_of_scope
from minigrad.testing._comparison import assert_allclose, assert_close
from minigrad.testing._creation import make_tensor


def __getattr__(name: str) -> _Any:
    """PyTorch names minigrad leaves out raise ``OutOfScopeError`` saying why."""
    raise _out_of_scope.missing(__name__, name, _out_of_scope.TESTING)


__all__ = ["assert_allclose", "assert_close", "make_tensor"]
