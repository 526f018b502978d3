"""``minigrad.random``: the default generator's seed and state, as ``torch.random``.

Example:
    >>> import minigrad
    >>> with minigrad.random.fork_rng():
    ...     _ = minigrad.rand(3)  # draws inside do not move the generator outside
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from minigrad._random import get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(
    devices: Any = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: str = "cuda",
) -> Iterator[None]:
    """Restore the default generator's state on leaving the block (``enabled=False``: don't).

    There are no accelerator generators to fork: ``devices`` and ``device_type`` are accepted
    for PyTorch's signature and have nothing to act on.
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
