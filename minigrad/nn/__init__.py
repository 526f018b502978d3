"""``minigrad.nn``: neural-network building blocks (PyTorch's ``torch.nn``).

So far the functional interface, ``minigrad.nn.functional`` (import it as ``F``).
"""

from minigrad.nn import functional

__all__ = ["functional"]
