"""Floating-point quiet mode: inf and nan are values, as in PyTorch, not numpy warnings.

numpy warns on ``log(0)``, ``0 / 0`` or overflow; PyTorch computes the special value silently.
Every op's forward and every backward run inside ``quiet_floats()``. ``np.errstate`` would do,
but costs about 1 µs per use; setting numpy's error-state context variable directly costs about
0.14 µs, so that is used when this numpy exposes it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
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


@contextmanager
def quiet_floats() -> Iterator[None]:
    """A block in which numpy computes inf and nan without warnings."""
    token = silence()
    try:
        yield
    finally:
        restore(token)
