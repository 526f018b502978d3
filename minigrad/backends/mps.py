"""``minigrad.backends.mps``: Apple's Metal backend, which minigrad does not have.

Example:
    >>> import minigrad
    >>> minigrad.backends.mps.is_available()
    False
"""

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: minigrad runs on the CPU only."""
    return False


def is_built() -> bool:
    """False: minigrad is not built with MPS support."""
    return False
