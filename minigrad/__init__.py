"""minigrad: reverse-mode autograd on numpy with PyTorch's API and safety semantics.

Example:
    >>> import minigrad as torch
    >>> a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> out = a.sigmoid()
    >>> out
    tensor([0.7311, 0.8808, 0.9526], grad_fn=<SigmoidBackward0>)
"""

# reductions, linear algebra, shape and indexing (copies)
# nn (minigrad.nn.functional)
from minigrad import (
    autograd,
    linalg,  # noqa: E402
    nn,  # noqa: E402
    optim,
)
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

# elementwise
from minigrad.ops.activations import selu  # noqa: E402
from minigrad.ops.elementwise import (  # noqa: E402
    abs,  # noqa: A004 - PyTorch's name
    acos,
    add,
    addcdiv,
    addcmul,
    asin,
    atan,
    ceil,
    clamp,
    clamp_max,
    clamp_min,
    clip,
    clone,
    cos,
    cosh,
    div,
    eq,
    erf,
    exp,
    exp2,
    expm1,
    fix,
    floor,
    floor_divide,
    frac,
    ge,
    gt,
    isfinite,
    isinf,
    isnan,
    le,
    lerp,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    maximum,
    minimum,
    mul,
    nan_to_num,
    ne,
    neg,
    pow,  # noqa: A004 - PyTorch's name
    reciprocal,
    relu,
    remainder,
    round,  # noqa: A004 - PyTorch's name
    rsqrt,
    rsub,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    sub,
    tan,
    tanh,
    true_divide,
    trunc,
    where,
)
from minigrad.ops.linalg import (  # noqa: E402
    addmm,
    baddbmm,
    bmm,
    dot,
    einsum,
    matmul,
    mm,
    mv,
    norm,
    outer,
    tensordot,
)
from minigrad.ops.reduction import (  # noqa: A004 - PyTorch's name  # noqa: E402
    all,  # noqa: A004 - PyTorch's name
    amax,
    amin,
    any,  # noqa: A004 - PyTorch's name
    argmax,
    argmin,
    cumprod,
    cumsum,
    log_softmax,
    logsumexp,
    max,  # noqa: A004 - PyTorch's name
    mean,
    min,  # noqa: A004 - PyTorch's name
    prod,
    softmax,
    std,
    sum,
    var,
)
from minigrad.ops.shape import (  # noqa: E402
    argsort,
    cat,
    flip,
    gather,
    index_select,
    masked_select,
    return_types,
    roll,
    scatter,
    scatter_add,
    sort,
    stack,
    take_along_dim,
    tile,
    topk,
    tril,
    triu,
)

# --- more exports, one block per op family ---------------------------------------------------
# views
from minigrad.ops.views import (  # noqa: E402
    adjoint,
    chunk,
    diagonal,
    dsplit,
    flatten,
    hsplit,
    moveaxis,
    movedim,
    narrow,
    permute,
    ravel,
    reshape,
    select,
    split,
    squeeze,
    swapaxes,
    swapdims,
    t,
    tensor_split,
    transpose,
    unbind,
    unflatten,
    unsqueeze,
    vsplit,
)
from minigrad.serialization import load, save
from minigrad.tensor import Tensor

half = float16
float = float32  # noqa: A001 - PyTorch's name
double = float64
long = int64
int = int32  # noqa: A001 - PyTorch's name
short = int16

__version__ = "0.1.0"
