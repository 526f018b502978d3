"""``minigrad.backends.cudnn``: cuDNN's flags, which have no effect without CUDA (as in PyTorch).

Seed-everything code sets ``deterministic = True`` and ``benchmark = False``; minigrad is
deterministic for a given seed either way.

Example:
    >>> import minigrad
    >>> minigrad.backends.cudnn.is_available()
    False
"""

__all__ = ["benchmark", "deterministic", "enabled", "is_available"]

enabled = True  # PyTorch's defaults
deterministic = False
benchmark = False


def is_available() -> bool:
    """False: there is no cuDNN without CUDA."""
    return False
