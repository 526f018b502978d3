"""``minigrad.backends``: the backend switches scripts read and set (``mps``, ``cudnn``).

Neither backend exists in minigrad; their flags are there so that device selection and
seed-everything code written for PyTorch runs unchanged.
"""

from minigrad.backends import cudnn, mps

__all__ = ["cudnn", "mps"]
