"""``minigrad.signal``: PyTorch's ``torch.signal``, signal-processing helpers.

Example:
    >>> import minigrad
    >>> minigrad.signal.windows.hann(3)
    tensor([0., 1., 0.])
"""

from minigrad.signal import windows

__all__ = ["windows"]
