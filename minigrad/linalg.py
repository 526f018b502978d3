"""``minigrad.linalg``: PyTorch's ``torch.linalg`` norms.

Example:
    >>> import minigrad
    >>> minigrad.linalg.norm(minigrad.tensor([3.0, 4.0]))
    tensor(5.)
"""

from minigrad.ops.linalg import linalg_norm as norm
from minigrad.ops.linalg import matrix_norm, vector_norm

__all__ = ["matrix_norm", "norm", "vector_norm"]
