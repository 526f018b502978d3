"""The longest tests first, so that no long test starts near the end of a run.

Under ``--dist worksteal`` (pyproject.toml) each xdist worker takes half of the tests in order
and an idle worker takes half of the other's queue (from its end): a test that starts last holds
its worker while the other idles. Started first, the long tests run beside the many short ones,
which end the run on both workers. The lists are the longest tests measured (``--durations``);
a name that no longer matches only loses its place, never a test.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest


def slow_first(items: list[pytest.Item], slow: Sequence[str]) -> None:
    """Move the items whose node id starts with an entry of ``slow`` to the front, in the
    order of ``slow`` (the others keep their order)."""

    def place(item: pytest.Item) -> int:
        return next((index for index, start in enumerate(slow) if item.nodeid.startswith(start)),
                    len(slow))

    items.sort(key=place)
