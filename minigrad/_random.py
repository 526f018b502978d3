"""The global random generator behind ``rand``, ``randn``, ``normal_`` and friends.

minigrad uses numpy's PCG64, so ``manual_seed`` makes runs repeatable, but the numbers differ
from PyTorch's (its generator is not reproduced).
"""

from __future__ import annotations

import numpy as np

_generator = np.random.default_rng()


def generator() -> np.random.Generator:
    """The process-wide generator."""
    return _generator


def manual_seed(seed: int) -> np.random.Generator:
    """Seed the generator, so that random tensors repeat from run to run.

    Example:
        >>> import minigrad
        >>> _ = minigrad.manual_seed(0)
        >>> a = minigrad.rand(2)
        >>> _ = minigrad.manual_seed(0)
        >>> bool((a == minigrad.rand(2)).all())
        True
    """
    global _generator
    _generator = np.random.default_rng(seed)
    return _generator
