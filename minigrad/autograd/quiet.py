"""Floating-point quiet mode: inf and nan are values, as in PyTorch, not numpy warnings.

numpy warns on ``log(0)``, ``0 / 0`` or overflow; PyTorch computes the special value silently.
Every op's forward and every backward run inside ``quiet_floats()``. ``np.errstate`` would do,
but costs about 1 µs per use; setting numpy's error-state context variable directly costs about
0.14 µs, so that is used when this numpy exposes it; and a numpy function called alone
(``run_quietly``: what add's and mul's recording functions call) runs in a context prepared once
with the variable set, which costs less again.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

try:  # numpy >= 2: the error state is a context variable holding an "extobj" capsule
    from numpy._core._ufunc_config import _extobj_contextvar as _ERROR_STATE
    from numpy._core.umath import _make_extobj

    _QUIET = _make_extobj(all="ignore")
    silence = functools.partial(_ERROR_STATE.set, _QUIET)  # -> a token for ``restore``
    restore = _ERROR_STATE.reset
    # ``silence``'s two halves, for the per-op recorders (autograd/record.py), which call
    # ``set_error_state(QUIET)`` themselves: one call instead of the partial's two.
    set_error_state = _ERROR_STATE.set
    QUIET: Any = _QUIET

    # A context in which the error state is quiet and nothing else is set, entered for one call
    # of a numpy function: ``run_quietly(np.add, x, y)``. Setting the variable makes a new
    # mapping and a token, resetting it another mapping (together ~0.29 us around a small
    # ``np.add``); entering a prepared context swaps one pointer (~0.06 us). Only for functions
    # that run no Python code (numpy's ufuncs on arrays): a Python function would see no
    # context variable of the caller. A context is entered by one thread at a time: while one
    # is inside (numpy lets go of the GIL on large arrays), another's ``run_quietly`` raises
    # RuntimeError before calling, and ``call_quietly`` is the way round.
    _QUIET_CONTEXT = contextvars.Context()
    _QUIET_CONTEXT.run(_ERROR_STATE.set, _QUIET)
    run_quietly = _QUIET_CONTEXT.run

except ImportError:  # pragma: no cover - older numpy: the public (slower) API

    def silence() -> Any:
        """Turn numpy's floating-point warnings off; return a token for ``restore``."""
        return np.seterr(all="ignore")

    def restore(token: Any) -> None:
        """Undo ``silence``."""
        np.seterr(**token)

    def set_error_state(state: Any) -> Any:
        """``silence`` (``state`` is ``QUIET``); return a token for ``restore``."""
        return np.seterr(all="ignore")

    QUIET = None

    def run_quietly(function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` with numpy's float warnings off."""
        return call_quietly(function, *args)


def call_quietly(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` with numpy's float warnings off (``run_quietly``'s way round).

    Example:
        >>> import numpy as np
        >>> call_quietly(np.divide, np.float32(1.0), np.float32(0.0))
        np.float32(inf)
    """
    token = silence()
    try:
        return function(*args)
    finally:
        restore(token)


@contextmanager
def quiet_floats() -> Iterator[None]:
    """A block in which numpy computes inf and nan without warnings."""
    token = silence()
    try:
        yield
    finally:
        restore(token)
