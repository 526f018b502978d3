"""minigrad: reverse-mode autograd on numpy with PyTorch's API and safety semantics.

Example:
    >>> import minigrad as torch
    >>> a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> out = a.sigmoid()
    >>> out
    tensor([0.7311, 0.8808, 0.9526], grad_fn=<SigmoidBackward0>)
"""

from minigrad import autograd
from minigrad._dtype import bool_ as bool  # noqa: A004 - PyTorch's name
from minigrad._dtype import dtype, float16, float32, float64, int8, int16, int32, int64, uint8
from minigrad._printing import get_printoptions, set_printoptions
from minigrad._random import manual_seed
from minigrad._size import Size
from minigrad.autograd.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled
from minigrad.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from minigrad.creation import (
    arange,
    empty,
    empty_like,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    rand_like,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from minigrad.ops.elementwise import (
    abs,  # noqa: A004 - PyTorch's name
    add,
    clamp,
    clip,
    clone,
    div,
    exp,
    floor_divide,
    log,
    mul,
    neg,
    pow,  # noqa: A004 - PyTorch's name
    reciprocal,
    relu,
    rsub,
    sigmoid,
    sqrt,
    sub,
    tanh,
    true_divide,
)
from minigrad.ops.linalg import dot, matmul, mm, mv
from minigrad.ops.reduction import mean, sum  # noqa: A004 - PyTorch's name
from minigrad.tensor import Tensor

# --- more exports, one block per op family ---------------------------------------------------

half = float16
float = float32  # noqa: A001 - PyTorch's name
double = float64
long = int64
int = int32  # noqa: A001 - PyTorch's name
short = int16

__version__ = "0.1.0"
