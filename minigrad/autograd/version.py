"""The version counter: how autograd notices in-place writes.

A counter is shared by every tensor that looks at the same values through autograd's eyes: a
tensor, its views and its ``.detach()``-ed aliases. ``.data`` and ``clone()`` get a fresh one.
Each in-place write bumps the shared counter once; a saved tensor remembers the value it saw.
"""

from __future__ import annotations

from minigrad.autograd import write_tracking
from minigrad.autograd.debug_switches import switches


class VersionCounter:
    """A mutable integer shared by the tensors that alias one buffer for autograd."""

    # A class-level 0 instead of an __init__: every new tensor makes a counter, so making one
    # must be cheap; the first bump gives the instance its own value.
    version = 0
    # True for the counters of inference tensors (autograd/inference.py), which autograd
    # may not save.
    is_inference = False

    def bump(self) -> None:
        """Record one in-place write."""
        self.version += 1
        if switches.writes:  # debugging hook: remember where (autograd/write_tracking.py)
            write_tracking.remember_write(self)

    def __repr__(self) -> str:
        return f"VersionCounter({self.version})"
