"""What the core's recording path calls when a debugging aid is on (see ``debug_switches``).

Packing saved values is one choke point shared by write tracking (remember where the values
were saved) and the guard (protect the buffers): this module dispatches it, so the core holds a
single hook line there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minigrad.autograd import guard, write_tracking
from minigrad.autograd.debug_switches import switches

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node


def on_save(node: Node) -> None:
    """``node`` has just packed its saved values."""
    if switches.writes:
        write_tracking.remember_save(node)
    if switches.guard:
        guard.protect(node)
