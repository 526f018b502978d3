"""``minigrad.utils``: PyTorch's ``torch.utils`` helpers minigrad has (``data``)."""

from minigrad.utils import data

__all__ = ["data"]
