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
# (and, imported on first access: distributions, func, optim, signal, special, testing, viz:
# see _LAZY_SUBMODULES at the end)
from minigrad import (
    autograd,
    linalg,  # noqa: E402
    nn,  # noqa: E402
    random,
    utils,
)
from minigrad._dtype import bool_ as bool  # noqa: A004 - PyTorch's name
from minigrad._dtype import dtype, float16, float32, float64, int8, int16, int32, int64, uint8
from minigrad._layouts import (
    layout,
    sparse_bsc,
    sparse_bsr,
    sparse_coo,
    sparse_csc,
    sparse_csr,
    strided,
)
from minigrad._memory_formats import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from minigrad._printing import get_printoptions, set_printoptions
from minigrad._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from minigrad._size import Size
from minigrad._threads import (
    get_num_interop_threads,
    get_num_threads,
    set_num_interop_threads,
    set_num_threads,
)
from minigrad.autograd.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled
from minigrad.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from minigrad.creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_strided,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
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
from minigrad.ops.adaptive_pooling import adaptive_avg_pool1d, adaptive_max_pool1d  # noqa: E402
from minigrad.ops.arithmetic import (  # noqa: E402
    add,
    arctan2,
    atan2,
    div,
    divide,
    floor_divide,
    maximum,
    minimum,
    mul,
    multiply,
    remainder,
    rsub,
    sub,
    subtract,
    true_divide,
)
from minigrad.ops.binary_extra import hypot, logaddexp, logaddexp2, logit, xlogy  # noqa: E402
from minigrad.ops.building import block_diag, diagflat, fliplr, flipud, rot90  # noqa: E402
from minigrad.ops.channel_shuffle import channel_shuffle, native_channel_shuffle  # noqa: E402
from minigrad.ops.clamp import (  # noqa: E402
    clamp,
    clamp_max,
    clamp_min,
    clip,
)
from minigrad.ops.combining import (  # noqa: E402
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_shapes,
    broadcast_tensors,
    broadcast_to,
    column_stack,
    dstack,
    hstack,
    meshgrid,
    row_stack,
    vstack,
)
from minigrad.ops.comparison import (  # noqa: E402
    eq,
    ge,
    greater,
    greater_equal,
    gt,
    isfinite,
    isinf,
    isnan,
    le,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    ne,
    not_equal,
)
from minigrad.ops.convolution import (  # noqa: E402
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from minigrad.ops.cumulative import cumprod, cumsum, diff, logcumsumexp  # noqa: E402
from minigrad.ops.einsum import einsum  # noqa: E402
from minigrad.ops.gamma import (  # noqa: E402
    digamma,
    igamma,
    igammac,
    lgamma,
    mvlgamma,
    polygamma,
)
from minigrad.ops.gather_scatter import (  # noqa: E402
    gather,
    scatter_add,
    take_along_dim,
)
from minigrad.ops.index_ops import (  # noqa: E402
    index_select,
    masked_select,
)
from minigrad.ops.linalg import (  # noqa: E402
    addmm,
    baddbmm,
    bmm,
    dot,
    matmul,
    mm,
    mv,
    outer,
    tensordot,
)
from minigrad.ops.median import median, nanmedian  # noqa: E402
from minigrad.ops.norms import dist, norm  # noqa: E402
from minigrad.ops.pixel_shuffle import pixel_shuffle, pixel_unshuffle  # noqa: E402
from minigrad.ops.pooling import (  # noqa: E402
    avg_pool1d,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool3d,
)
from minigrad.ops.power import pow  # noqa: E402, A004 - PyTorch's name
from minigrad.ops.reduction import (  # noqa: A004 - PyTorch's name  # noqa: E402
    all,  # noqa: A004 - PyTorch's name
    amax,
    amin,
    any,  # noqa: A004 - PyTorch's name
    argmax,
    argmin,
    logsumexp,
    max,  # noqa: A004 - PyTorch's name
    mean,
    min,  # noqa: A004 - PyTorch's name
    prod,
    std,
    sum,
    var,
)
from minigrad.ops.reduction_extra import count_nonzero, nansum, trace  # noqa: E402
from minigrad.ops.reduction_pairs import aminmax, std_mean, var_mean  # noqa: E402
from minigrad.ops.repeating import repeat_interleave  # noqa: E402
from minigrad.ops.return_types import (  # noqa: E402
    return_types,
)
from minigrad.ops.rounding import (  # noqa: E402
    ceil,
    fix,
    floor,
    frac,
    round,  # noqa: A004 - PyTorch's name
    trunc,
)
from minigrad.ops.sampling import bernoulli, multinomial, normal, poisson  # noqa: E402
from minigrad.ops.selection import cummax, cummin, kthvalue, mode  # noqa: E402
from minigrad.ops.shape import (  # noqa: E402
    cat,
    concat,
    concatenate,
    flip,
    roll,
    stack,
    tile,
    tril,
    triu,
)
from minigrad.ops.softmax import log_softmax, softmax  # noqa: E402
from minigrad.ops.sorted_search import bucketize, isin, searchsorted  # noqa: E402
from minigrad.ops.sorting import (  # noqa: E402
    argsort,
    sort,
    topk,
)
from minigrad.ops.special_functions import erfinv, i0  # noqa: E402
from minigrad.ops.splitting import (  # noqa: E402
    chunk,
    dsplit,
    hsplit,
    split,
    split_with_sizes,
    tensor_split,
    unbind,
    vsplit,
)
from minigrad.ops.statistics import nanmean, nanquantile, quantile  # noqa: E402
from minigrad.ops.ternary import addcdiv, addcmul, lerp  # noqa: E402
from minigrad.ops.trigonometric import (  # noqa: E402
    acos,
    acosh,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    asin,
    asinh,
    atan,
    atanh,
    cos,
    cosh,
    sin,
    sinh,
    tan,
)
from minigrad.ops.unary import (  # noqa: E402
    abs,  # noqa: A004 - PyTorch's name
    absolute,
    clone,
    erf,
    exp,
    exp2,
    expm1,
    log,
    log1p,
    log2,
    log10,
    nan_to_num,
    neg,
    negative,
    positive,
    reciprocal,
    relu,
    rsqrt,
    sigmoid,
    sign,
    sqrt,
    square,
    tanh,
)
from minigrad.ops.unary_extra import deg2rad, erfc, rad2deg, sinc  # noqa: E402
from minigrad.ops.vector_products import cross, inner, kron, vdot  # noqa: E402

# --- more exports, one block per op family ---------------------------------------------------
# views
from minigrad.ops.views import (  # noqa: E402
    adjoint,
    diagonal,
    flatten,
    moveaxis,
    movedim,
    narrow,
    permute,
    ravel,
    reshape,
    select,
    squeeze,
    swapaxes,
    swapdims,
    t,
    transpose,
    unflatten,
    unsqueeze,
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

# --- devices, modes, the legacy API, comparisons, finding and counting (issue 9) -------------
import importlib as _importlib  # noqa: E402
from typing import Any as _Any  # noqa: E402

from minigrad import _arguments, _out_of_scope, accelerator, backends, cuda  # noqa: E402
from minigrad._device import device, get_default_device, set_default_device  # noqa: E402
from minigrad._dtype import get_default_dtype, set_default_dtype  # noqa: E402
from minigrad.autograd.inference import inference_mode, is_inference_mode_enabled  # noqa: E402
from minigrad.creation import (  # noqa: E402
    eye,
    randint,
    randint_like,
    randperm,
    tril_indices,
    triu_indices,
)
from minigrad.legacy import (  # noqa: E402
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from minigrad.ops.comparison import allclose, equal, isclose  # noqa: E402
from minigrad.ops.histogram import bincount, histc, histogram, histogramdd  # noqa: E402
from minigrad.ops.search import (  # noqa: E402
    argwhere,
    nonzero,
    unique,
    unique_consecutive,
    where,
)
from minigrad.storage import (  # noqa: E402
    BoolStorage,
    ByteStorage,
    CharStorage,
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    IntStorage,
    LongStorage,
    ShortStorage,
    TypedStorage,
    UntypedStorage,
    is_storage,
)
from minigrad.tensor import (  # noqa: E402
    is_complex,
    is_floating_point,
    is_nonzero,
    is_same_size,
    is_signed,
    is_tensor,
    numel,
)

# --- the default dtype, dtype limits, global flags, constants, real-tensor conj -------------
# isort: split
import math as _math  # noqa: E402

from minigrad._determinism import (  # noqa: E402
    are_deterministic_algorithms_enabled,
    is_deterministic_algorithms_warn_only_enabled,
    use_deterministic_algorithms,
)
from minigrad._typeinfo import finfo, iinfo  # noqa: E402
from minigrad._warnings import is_warn_always_enabled, set_warn_always  # noqa: E402
from minigrad.creation import asarray, scalar_tensor  # noqa: E402
from minigrad.legacy import set_default_tensor_type  # noqa: E402
from minigrad.nn.modules.utils import typename  # noqa: E402
from minigrad.tensor import (  # noqa: E402
    conj,
    is_conj,
    is_inference,
    is_neg,
    resolve_conj,
    resolve_neg,
)

pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
newaxis = None

# --- linear algebra: solvers and decompositions (issue 9) ------------------------------------
# isort: split
from minigrad.ops.decompositions import cholesky_legacy as cholesky  # noqa: E402
from minigrad.ops.decompositions import pinverse  # noqa: E402
from minigrad.ops.decompositions import qr_legacy as qr  # noqa: E402
from minigrad.ops.decompositions import svd_legacy as svd  # noqa: E402
from minigrad.ops.determinants import det, logdet  # noqa: E402
from minigrad.ops.determinants import slogdet_legacy as slogdet  # noqa: E402
from minigrad.ops.solvers import inverse  # noqa: E402

# --- writing at indices, diagonals (issue 9) ------------------------------------------------
# isort: split
from minigrad.ops.constructions import cartesian_prod, combinations, diag, diag_embed  # noqa: E402
from minigrad.ops.fill import masked_fill  # noqa: E402
from minigrad.ops.gather_scatter import (  # noqa: E402
    scatter,
    scatter_reduce,
)
from minigrad.ops.index_ops import (  # noqa: E402
    index_add,
    index_copy,
    index_fill,
    masked_scatter,
    take,
)
from minigrad.ops.index_writes import index_reduce, put  # noqa: E402
from minigrad.ops.indexing import index_put  # noqa: E402
from minigrad.ops.view_scatters import (  # noqa: E402
    diagonal_scatter,
    select_scatter,
    slice_scatter,
)

# --- more elementwise math (fmod, copysign, float_power, ...), bitwise ops, type promotion ---
# isort: split
from minigrad.ops.bitwise import (  # noqa: E402
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
)
from minigrad.ops.elementwise_extra import (  # noqa: E402
    angle,
    copysign,
    float_power,
    fmax,
    fmin,
    fmod,
    gcd,
    heaviside,
    isneginf,
    isposinf,
    isreal,
    lcm,
    nextafter,
    sgn,
    signbit,
)
from minigrad.ops.promotion import can_cast, promote_types, result_type  # noqa: E402

# --- more linear algebra: scaled products, chains, distances, covariance --------------------
# isort: split
from minigrad.ops.covariance import corrcoef, cov  # noqa: E402
from minigrad.ops.distances import cdist  # noqa: E402
from minigrad.ops.integration import cumulative_trapezoid, trapezoid, trapz  # noqa: E402
from minigrad.ops.lu import lu_legacy as lu  # noqa: E402
from minigrad.ops.lu import lu_solve_legacy as lu_solve  # noqa: E402
from minigrad.ops.lu import lu_unpack  # noqa: E402
from minigrad.ops.matrix_chains import chain_matmul, ger, matrix_power  # noqa: E402
from minigrad.ops.matrix_functions import matrix_exp  # noqa: E402
from minigrad.ops.scaled_products import addbmm, addmv, addmv_, addr  # noqa: E402
from minigrad.ops.sorting import msort  # noqa: E402
from minigrad.ops.triangular import (  # noqa: E402
    cholesky_inverse,
    cholesky_solve,
    triangular_solve,
)

# --- more tensor functions: splitting without views, mantissas, renorm, coordinates ---------
# isort: split
from minigrad.ops.activations_extra import hardshrink, prelu  # noqa: E402
from minigrad.ops.as_strided import as_strided, as_strided_scatter  # noqa: E402
from minigrad.ops.finite_differences import gradient  # noqa: E402
from minigrad.ops.losses import cosine_similarity  # noqa: E402
from minigrad.ops.losses_extra import triplet_margin_loss_aten as triplet_margin_loss  # noqa: E402
from minigrad.ops.mantissa import frexp, ldexp  # noqa: E402
from minigrad.ops.norms import pairwise_distance, renorm  # noqa: E402
from minigrad.ops.shape import narrow_copy  # noqa: E402
from minigrad.ops.splitting import (  # noqa: E402
    unsafe_chunk,
    unsafe_split,
    unsafe_split_with_sizes,
)
from minigrad.ops.unravel import unravel_index  # noqa: E402

# --- window functions, histograms, Vandermonde matrices, QR in LAPACK's form (linalgx) -----
# isort: split
from minigrad._lowrank import pca_lowrank, svd_lowrank  # noqa: E402
from minigrad._windows import (  # noqa: E402
    bartlett_window,
    blackman_window,
    hamming_window,
    hann_window,
    kaiser_window,
)
from minigrad.ops.householder import geqrf, orgqr, ormqr  # noqa: E402
from minigrad.ops.vandermonde import vander  # noqa: E402

# --- PyTorch's top-level forms of nn functions, under ATen's signatures -----------------------
# isort: split
from minigrad.creation import deprecated_range as range  # noqa: A004, E402 - PyTorch's name
from minigrad.nn.functional import bilinear, pdist  # noqa: E402
from minigrad.ops.activations import selu_  # noqa: E402
from minigrad.ops.activations_extra import celu_, rrelu_, threshold_  # noqa: E402
from minigrad.ops.activations_extra import celu_aten as celu  # noqa: E402
from minigrad.ops.activations_extra import rrelu_aten as rrelu  # noqa: E402
from minigrad.ops.activations_extra import threshold_aten as threshold  # noqa: E402
from minigrad.ops.aten_layers import (  # noqa: E402  # noqa: E402
    affine_grid_generator,
    constant_pad_nd,
    convolution,
    grid_sampler,
    grid_sampler_2d,
    grid_sampler_3d,
)
from minigrad.ops.ctc_loss import ctc_loss_aten as ctc_loss  # noqa: E402
from minigrad.ops.dropout import alpha_dropout_aten as alpha_dropout  # noqa: E402
from minigrad.ops.dropout import alpha_dropout_aten_ as alpha_dropout_  # noqa: E402
from minigrad.ops.dropout import dropout_aten as dropout  # noqa: E402
from minigrad.ops.dropout import dropout_aten_ as dropout_  # noqa: E402
from minigrad.ops.dropout import feature_alpha_dropout_aten as feature_alpha_dropout  # noqa: E402
from minigrad.ops.dropout import feature_alpha_dropout_aten_ as feature_alpha_dropout_  # noqa: E402
from minigrad.ops.dropout import feature_dropout_aten as feature_dropout  # noqa: E402
from minigrad.ops.dropout import feature_dropout_aten_ as feature_dropout_  # noqa: E402
from minigrad.ops.dropout import native_dropout  # noqa: E402
from minigrad.ops.embedding import embedding_aten as embedding  # noqa: E402
from minigrad.ops.embedding_bag import _embedding_bag  # noqa: E402
from minigrad.ops.embedding_bag import embedding_bag_aten as embedding_bag  # noqa: E402
from minigrad.ops.fill import fill  # noqa: E402
from minigrad.ops.legacy_norms import (  # noqa: E402
    frobenius_norm,
    matrix_rank,
    native_norm,
    norm_except_dim,
    nuclear_norm,
)
from minigrad.ops.losses import (  # noqa: E402
    binary_cross_entropy_with_logits_aten as binary_cross_entropy_with_logits,
)
from minigrad.ops.losses import kl_div_aten as kl_div  # noqa: E402
from minigrad.ops.losses_extra import cosine_embedding_loss_aten as cosine_embedding_loss  # noqa: E402
from minigrad.ops.losses_extra import hinge_embedding_loss_aten as hinge_embedding_loss  # noqa: E402
from minigrad.ops.losses_extra import margin_ranking_loss_aten as margin_ranking_loss  # noqa: E402
from minigrad.ops.losses_extra import poisson_nll_loss_aten as poisson_nll_loss  # noqa: E402
from minigrad.ops.native_normalization import (  # noqa: E402
    native_batch_norm,
    native_group_norm,
    native_layer_norm,
)
from minigrad.ops.normalization import batch_norm_aten as batch_norm  # noqa: E402
from minigrad.ops.normalization import group_norm_aten as group_norm  # noqa: E402
from minigrad.ops.normalization import layer_norm_aten as layer_norm  # noqa: E402
from minigrad.ops.normalization import rms_norm  # noqa: E402
from minigrad.ops.normalization_composites import instance_norm_aten as instance_norm  # noqa: E402
from minigrad.ops.search import nonzero_static  # noqa: E402
from minigrad.tensor import detach  # noqa: E402

# --- the *_copy functions: a view op's result copied (one rule, one table) -------------------
# isort: split
from minigrad.ops.view_copies import FUNCTIONS as _VIEW_COPIES  # noqa: E402
from minigrad.ops.view_copies import detach_copy  # noqa: E402

globals().update(_VIEW_COPIES)
from minigrad.creation import empty_permuted  # noqa: E402
from minigrad.nn.modules.rnn import (  # noqa: E402
    gru,
    gru_cell,
    lstm,
    lstm_cell,
    rnn_relu,
    rnn_relu_cell,
    rnn_tanh,
    rnn_tanh_cell,
)

# --- the in-place ops as functions too (``minigrad.exp_(x)``), as PyTorch binds them -----------
# isort: split
from minigrad._inplace_functions import FUNCTIONS as _INPLACE_FUNCTIONS  # noqa: E402

globals().update(_INPLACE_FUNCTIONS)

# --- out=: the functions PyTorch lets write into a given tensor (minigrad/_out.py) ------------
# isort: split
from minigrad import _out  # noqa: E402

# --- subpackages imported on first access ------------------------------------------------------
# (as PyTorch's own lazy submodules: ``minigrad.distributions`` works as ever, ``import minigrad``
# skips their ~80 modules, ~25 % of its time, until then)
# func: function transforms (grad, vjp, jacrev, ...); signal: window functions
# (minigrad.signal.windows); viz: minigrad's own, pictures of the backward graph.
_LAZY_SUBMODULES = frozenset(
    {"distributions", "func", "optim", "signal", "special", "testing", "viz"})


def __getattr__(name: str) -> _Any:
    """A lazy subpackage, imported now; PyTorch names minigrad leaves out: ``OutOfScopeError``."""
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"minigrad.{name}")  # (it binds itself here too)
    raise _out_of_scope.missing("minigrad", name, _out_of_scope.TOP_LEVEL)


def __dir__() -> list[str]:
    """The module's names, the lazy subpackages too (imported or not)."""
    hidden = {"__dir__", "_LAZY_SUBMODULES", "_importlib"}  # (dir as before they were lazy)
    return sorted((globals().keys() | _LAZY_SUBMODULES) - hidden)


# Every public name (help(minigrad) lists these; tests/test_public_api.py keeps the list whole).
__all__ = [
    "BoolStorage",
    "BoolTensor",
    "ByteStorage",
    "ByteTensor",
    "CharStorage",
    "CharTensor",
    "DoubleStorage",
    "DoubleTensor",
    "FloatStorage",
    "FloatTensor",
    "Generator",
    "HalfStorage",
    "HalfTensor",
    "IntStorage",
    "IntTensor",
    "LongStorage",
    "LongTensor",
    "ShortStorage",
    "ShortTensor",
    "Size",
    "Tensor",
    "TypedStorage",
    "UntypedStorage",
    "abs",
    "abs_",
    "absolute",
    "acos",
    "acos_",
    "acosh",
    "acosh_",
    "adaptive_avg_pool1d",
    "adaptive_max_pool1d",
    "add",
    "addbmm",
    "addcdiv",
    "addcmul",
    "addmm",
    "addmv",
    "addmv_",
    "addr",
    "adjoint",
    "affine_grid_generator",
    "alias_copy",
    "all",
    "allclose",
    "alpha_dropout",
    "alpha_dropout_",
    "amax",
    "amin",
    "aminmax",
    "angle",
    "any",
    "arange",
    "arccos",
    "arccos_",
    "arccosh",
    "arccosh_",
    "arcsin",
    "arcsin_",
    "arcsinh",
    "arcsinh_",
    "arctan",
    "arctan2",
    "arctan_",
    "arctanh",
    "arctanh_",
    "are_deterministic_algorithms_enabled",
    "argmax",
    "argmin",
    "argsort",
    "argwhere",
    "as_strided",
    "as_strided_",
    "as_strided_copy",
    "as_strided_scatter",
    "as_tensor",
    "asarray",
    "asin",
    "asin_",
    "asinh",
    "asinh_",
    "atan",
    "atan2",
    "atan_",
    "atanh",
    "atanh_",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "avg_pool1d",
    "baddbmm",
    "bartlett_window",
    "batch_norm",
    "bernoulli",
    "bilinear",
    "binary_cross_entropy_with_logits",
    "bincount",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "blackman_window",
    "block_diag",
    "bmm",
    "bool",
    "broadcast_shapes",
    "broadcast_tensors",
    "broadcast_to",
    "bucketize",
    "can_cast",
    "cartesian_prod",
    "cat",
    "cdist",
    "ceil",
    "ceil_",
    "celu",
    "celu_",
    "chain_matmul",
    "channel_shuffle",
    "channels_last",
    "channels_last_3d",
    "cholesky",
    "cholesky_inverse",
    "cholesky_solve",
    "chunk",
    "clamp",
    "clamp_",
    "clamp_max",
    "clamp_max_",
    "clamp_min",
    "clamp_min_",
    "clip",
    "clip_",
    "clone",
    "column_stack",
    "combinations",
    "concat",
    "concatenate",
    "conj",
    "constant_pad_nd",
    "contiguous_format",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "convolution",
    "copysign",
    "corrcoef",
    "cos",
    "cos_",
    "cosh",
    "cosh_",
    "cosine_embedding_loss",
    "cosine_similarity",
    "count_nonzero",
    "cov",
    "cross",
    "ctc_loss",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "cumulative_trapezoid",
    "default_generator",
    "deg2rad",
    "deg2rad_",
    "det",
    "detach",
    "detach_",
    "detach_copy",
    "device",
    "diag",
    "diag_embed",
    "diagflat",
    "diagonal",
    "diagonal_copy",
    "diagonal_scatter",
    "diff",
    "digamma",
    "dist",
    "div",
    "divide",
    "dot",
    "double",
    "dropout",
    "dropout_",
    "dsplit",
    "dstack",
    "dtype",
    "e",
    "einsum",
    "embedding",
    "embedding_bag",
    "empty",
    "empty_like",
    "empty_permuted",
    "empty_strided",
    "enable_grad",
    "eq",
    "equal",
    "erf",
    "erf_",
    "erfc",
    "erfc_",
    "erfinv",
    "exp",
    "exp2",
    "exp2_",
    "exp_",
    "expand_copy",
    "expm1",
    "expm1_",
    "eye",
    "feature_alpha_dropout",
    "feature_alpha_dropout_",
    "feature_dropout",
    "feature_dropout_",
    "fill",
    "fill_",
    "finfo",
    "fix",
    "fix_",
    "flatten",
    "flip",
    "fliplr",
    "flipud",
    "float",
    "float16",
    "float32",
    "float64",
    "float_power",
    "floor",
    "floor_",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "frac",
    "frac_",
    "frexp",
    "frobenius_norm",
    "from_numpy",
    "full",
    "full_like",
    "gather",
    "gcd",
    "gcd_",
    "ge",
    "geqrf",
    "ger",
    "get_default_device",
    "get_default_dtype",
    "get_num_interop_threads",
    "get_num_threads",
    "get_printoptions",
    "get_rng_state",
    "gradient",
    "greater",
    "greater_equal",
    "grid_sampler",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "group_norm",
    "gru",
    "gru_cell",
    "gt",
    "half",
    "hamming_window",
    "hann_window",
    "hardshrink",
    "heaviside",
    "hinge_embedding_loss",
    "histc",
    "histogram",
    "histogramdd",
    "hsplit",
    "hstack",
    "hypot",
    "i0",
    "igamma",
    "igammac",
    "iinfo",
    "index_add",
    "index_copy",
    "index_fill",
    "index_put",
    "index_put_",
    "index_reduce",
    "index_select",
    "inf",
    "inference_mode",
    "initial_seed",
    "inner",
    "instance_norm",
    "int",
    "int16",
    "int32",
    "int64",
    "int8",
    "inverse",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "is_complex",
    "is_conj",
    "is_deterministic_algorithms_warn_only_enabled",
    "is_floating_point",
    "is_grad_enabled",
    "is_inference",
    "is_inference_mode_enabled",
    "is_neg",
    "is_nonzero",
    "is_same_size",
    "is_signed",
    "is_storage",
    "is_tensor",
    "is_warn_always_enabled",
    "isclose",
    "isfinite",
    "isin",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "kaiser_window",
    "kl_div",
    "kron",
    "kthvalue",
    "layer_norm",
    "layout",
    "lcm",
    "lcm_",
    "ldexp",
    "ldexp_",
    "le",
    "lerp",
    "less",
    "less_equal",
    "lgamma",
    "linspace",
    "load",
    "log",
    "log10",
    "log10_",
    "log1p",
    "log1p_",
    "log2",
    "log2_",
    "log_",
    "log_softmax",
    "logaddexp",
    "logaddexp2",
    "logcumsumexp",
    "logdet",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logit",
    "logit_",
    "logspace",
    "logsumexp",
    "long",
    "lstm",
    "lstm_cell",
    "lt",
    "lu",
    "lu_solve",
    "lu_unpack",
    "manual_seed",
    "margin_ranking_loss",
    "masked_fill",
    "masked_scatter",
    "masked_select",
    "matmul",
    "matrix_exp",
    "matrix_power",
    "matrix_rank",
    "max",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool3d",
    "maximum",
    "mean",
    "median",
    "memory_format",
    "meshgrid",
    "min",
    "minimum",
    "mm",
    "mode",
    "moveaxis",
    "movedim",
    "msort",
    "mul",
    "multinomial",
    "multiply",
    "mv",
    "mvlgamma",
    "nan",
    "nan_to_num",
    "nan_to_num_",
    "nanmean",
    "nanmedian",
    "nanquantile",
    "nansum",
    "narrow",
    "narrow_copy",
    "native_batch_norm",
    "native_channel_shuffle",
    "native_dropout",
    "native_group_norm",
    "native_layer_norm",
    "native_norm",
    "ne",
    "neg",
    "neg_",
    "negative",
    "negative_",
    "newaxis",
    "nextafter",
    "no_grad",
    "nonzero",
    "nonzero_static",
    "norm",
    "norm_except_dim",
    "normal",
    "not_equal",
    "nuclear_norm",
    "numel",
    "ones",
    "ones_like",
    "orgqr",
    "ormqr",
    "outer",
    "pairwise_distance",
    "pca_lowrank",
    "pdist",
    "permute",
    "permute_copy",
    "pi",
    "pinverse",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson",
    "poisson_nll_loss",
    "polygamma",
    "positive",
    "pow",
    "prelu",
    "preserve_format",
    "prod",
    "promote_types",
    "put",
    "qr",
    "quantile",
    "rad2deg",
    "rad2deg_",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "randperm",
    "range",
    "ravel",
    "reciprocal",
    "reciprocal_",
    "relu",
    "relu_",
    "remainder",
    "renorm",
    "repeat_interleave",
    "reshape",
    "resize_as_",
    "resolve_conj",
    "resolve_neg",
    "result_type",
    "return_types",
    "rms_norm",
    "rnn_relu",
    "rnn_relu_cell",
    "rnn_tanh",
    "rnn_tanh_cell",
    "roll",
    "rot90",
    "round",
    "round_",
    "row_stack",
    "rrelu",
    "rrelu_",
    "rsqrt",
    "rsqrt_",
    "rsub",
    "save",
    "scalar_tensor",
    "scatter",
    "scatter_add",
    "scatter_reduce",
    "searchsorted",
    "seed",
    "select",
    "select_copy",
    "select_scatter",
    "selu",
    "selu_",
    "set_default_device",
    "set_default_dtype",
    "set_default_tensor_type",
    "set_grad_enabled",
    "set_num_interop_threads",
    "set_num_threads",
    "set_printoptions",
    "set_rng_state",
    "set_warn_always",
    "sgn",
    "short",
    "sigmoid",
    "sigmoid_",
    "sign",
    "signbit",
    "sin",
    "sin_",
    "sinc",
    "sinc_",
    "sinh",
    "sinh_",
    "slice_copy",
    "slice_scatter",
    "slogdet",
    "softmax",
    "sort",
    "sparse_bsc",
    "sparse_bsr",
    "sparse_coo",
    "sparse_csc",
    "sparse_csr",
    "split",
    "split_copy",
    "split_with_sizes",
    "split_with_sizes_copy",
    "sqrt",
    "sqrt_",
    "square",
    "square_",
    "squeeze",
    "squeeze_copy",
    "stack",
    "std",
    "std_mean",
    "strided",
    "sub",
    "subtract",
    "sum",
    "svd",
    "svd_lowrank",
    "swapaxes",
    "swapdims",
    "t",
    "t_copy",
    "take",
    "take_along_dim",
    "tan",
    "tan_",
    "tanh",
    "tanh_",
    "tensor",
    "tensor_split",
    "tensordot",
    "threshold",
    "threshold_",
    "tile",
    "topk",
    "trace",
    "transpose",
    "transpose_copy",
    "trapezoid",
    "trapz",
    "triangular_solve",
    "tril",
    "tril_indices",
    "triplet_margin_loss",
    "triu",
    "triu_indices",
    "true_divide",
    "trunc",
    "trunc_",
    "typename",
    "uint8",
    "unbind",
    "unbind_copy",
    "unflatten",
    "unfold_copy",
    "unique",
    "unique_consecutive",
    "unravel_index",
    "unsafe_chunk",
    "unsafe_split",
    "unsafe_split_with_sizes",
    "unsqueeze",
    "unsqueeze_copy",
    "use_deterministic_algorithms",
    "vander",
    "var",
    "var_mean",
    "vdot",
    "view_copy",
    "vsplit",
    "vstack",
    "where",
    "xlogy",
    "xlogy_",
    "zero_",
    "zeros",
    "zeros_like",
]

# PyTorch's TypeError for an argument of the wrong type (minigrad/_arguments.py).
_arguments.check_functions(globals(), __all__, python_level=("split", "unravel_index"))
# (PyTorch's kernel behind embedding_bag, a private name PyTorch binds too: checked as well)
_arguments.check_functions(globals(), ["_embedding_bag"])
# out= wraps the checked functions (its warnings count frames up to the caller's line).
_out.install(globals())
